package db_test

import (
	"errors"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// startSession stores a session created now and fails the test on error.
func startSession(t *testing.T, d *db.DB, hash string, userID int64) {
	t.Helper()
	if err := d.StartSession(t.Context(), db.Session{TokenHash: hash, UserID: userID}); err != nil {
		t.Fatalf("StartSession(%s): %v", hash, err)
	}
}

func TestSessions(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		alice := insertUser(t, d, db.NewUser{Username: "alice", PasswordHash: "ha", RoleID: 3, RealName: "Alice"})
		bob := insertUser(t, d, db.NewUser{Username: "bob", PasswordHash: "hb", RoleID: 2})
		t0 := time.Date(2026, 2, 3, 4, 5, 6, 789000000, time.UTC)
		for _, s := range []db.Session{
			{TokenHash: "a1", UserID: alice.ID, CreatedAt: t0, ClientAddress: "10.0.0.1:5000"},
			{TokenHash: "a2", UserID: alice.ID, CreatedAt: t0.Add(time.Minute)},
			{TokenHash: "b1", UserID: bob.ID, CreatedAt: t0.Add(2 * time.Minute)},
		} {
			if err := d.StartSession(ctx, s); err != nil {
				t.Fatal(err)
			}
		}

		t.Run("read with its user", func(t *testing.T) {
			s, u, err := d.SessionUser(ctx, "a1")
			if err != nil {
				t.Fatal(err)
			}
			want := db.Session{TokenHash: "a1", UserID: alice.ID, CreatedAt: t0, LastSeenAt: t0, ClientAddress: "10.0.0.1:5000"}
			if s != want {
				t.Errorf("session = %+v, want %+v", s, want)
			}
			if u != alice {
				t.Errorf("user = %+v, want %+v", u, alice)
			}
		})

		t.Run("duplicate hash and unknown user conflict", func(t *testing.T) {
			for _, s := range []db.Session{{TokenHash: "a1", UserID: bob.ID}, {TokenHash: "zz", UserID: 999}} {
				if err := d.StartSession(ctx, s); !errors.Is(err, db.ErrConflict) {
					t.Errorf("StartSession(%+v) err = %v, want ErrConflict", s, err)
				}
			}
		})

		t.Run("touch moves last seen forward only", func(t *testing.T) {
			if err := d.TouchSession(ctx, "a1", t0.Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
			if err := d.TouchSession(ctx, "a1", t0.Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			if err := d.TouchSession(ctx, "gone", t0); err != nil {
				t.Errorf("touching an ended session: %v", err)
			}
			s, _, err := d.SessionUser(ctx, "a1")
			if err != nil {
				t.Fatal(err)
			}
			if !s.LastSeenAt.Equal(t0.Add(time.Hour)) {
				t.Errorf("last seen = %v, want %v", s.LastSeenAt, t0.Add(time.Hour))
			}
		})

		t.Run("idle sessions end", func(t *testing.T) {
			// a2 was last seen at t0+1m, b1 at t0+2m, a1 at t0+1h.
			n, err := d.DeleteIdleSessions(ctx, t0.Add(90*time.Second))
			if err != nil || n != 1 {
				t.Fatalf("DeleteIdleSessions = %d, %v; want 1", n, err)
			}
			if _, _, err := d.SessionUser(ctx, "a2"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("a2 after idle purge: err = %v, want ErrNotFound", err)
			}
		})

		t.Run("logout ends one session", func(t *testing.T) {
			found, err := d.DeleteSession(ctx, "b1")
			if err != nil || !found {
				t.Fatalf("DeleteSession = %v, %v; want true", found, err)
			}
			found, err = d.DeleteSession(ctx, "b1")
			if err != nil || found {
				t.Fatalf("second DeleteSession = %v, %v; want false", found, err)
			}
		})

		t.Run("all sessions of a user end", func(t *testing.T) {
			startSession(t, d, "a3", alice.ID)
			n, err := d.DeleteUserSessions(ctx, alice.ID)
			if err != nil || n != 2 {
				t.Fatalf("DeleteUserSessions = %d, %v; want 2", n, err)
			}
			if _, _, err := d.SessionUser(ctx, "a1"); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("a1: err = %v, want ErrNotFound", err)
			}
			n, err = d.DeleteUserSessions(ctx, 999)
			if err != nil || n != 0 {
				t.Errorf("unknown user: %d, %v", n, err)
			}
		})
	})
}
