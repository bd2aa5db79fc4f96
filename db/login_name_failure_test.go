package db_test

import (
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// TestCountNameLoginAttempt counts failed logins of names without a user
// under the same rules as those of users, per name ignoring case and per
// address.
func TestCountNameLoginAttempt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		const addr, addr2 = "192.0.2.1", "2001:db8::1"
		tests := []struct {
			name  string
			user  string
			addr  string
			at    time.Time
			clear bool
			want  db.LoginAttempt
		}{
			{name: "first", user: "ghost", addr: addr, at: t0, want: db.LoginAttempt{Failures: 1}},
			{name: "second, other case", user: "GHOST", addr: addr, at: t0.Add(time.Second), want: db.LoginAttempt{Failures: 2}},
			{name: "third locks", user: "ghost", addr: addr, at: t0.Add(2 * time.Second),
				want: db.LoginAttempt{Failures: 3, LockedUntil: t0.Add(2*time.Second + time.Minute)}},
			{name: "refused while locked", user: "Ghost", addr: addr, at: t0.Add(3 * time.Second),
				want: db.LoginAttempt{Refused: true, Failures: 3, LockedUntil: t0.Add(2*time.Second + time.Minute)}},
			{name: "another address", user: "ghost", addr: addr2, at: t0.Add(4 * time.Second), want: db.LoginAttempt{Failures: 1}},
			{name: "another name", user: "spook", addr: addr, at: t0.Add(5 * time.Second), want: db.LoginAttempt{Failures: 1}},
			{name: "cleared", user: "ghost", addr: addr, at: t0.Add(time.Hour), clear: true, want: db.LoginAttempt{Failures: 1}},
			{name: "forgotten after a day", user: "spook", addr: addr, at: t0.Add(25 * time.Hour), want: db.LoginAttempt{Failures: 1}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				if tc.clear {
					if err := d.ClearNameLoginFailures(ctx, tc.user, tc.addr); err != nil {
						t.Fatal(err)
					}
				}
				got, err := d.CountNameLoginAttempt(ctx, tc.user, tc.addr, tc.at, lockAtThree)
				if err != nil {
					t.Fatal(err)
				}
				if got.Refused != tc.want.Refused || got.Failures != tc.want.Failures || !got.LockedUntil.Equal(tc.want.LockedUntil) {
					t.Errorf("got %+v, want %+v", got, tc.want)
				}
			})
		}
	})
}

// TestLDAPUsersMigration migrates a store holding users, sessions,
// password history and failed logins from version 8 to 13: everything is
// kept, ids are not reused, and a user with access method ldap can be
// stored.
func TestLDAPUsersMigration(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if err := d.MigrateTo(ctx, 8); err != nil {
			t.Fatalf("MigrateTo 8: %v", err)
		}
		now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		u := insertUser(t, d, db.NewUser{Username: "keeper", PasswordHash: "h1", RoleID: 3, At: now})
		gone := insertUser(t, d, db.NewUser{Username: "gone", PasswordHash: "h", RoleID: 2, At: now})
		if err := d.DeleteUser(ctx, gone.ID); err != nil {
			t.Fatal(err)
		}
		if err := d.SetPassword(ctx, u.ID, "h2", now); err != nil {
			t.Fatal(err)
		}
		if err := d.StartSession(ctx, db.Session{TokenHash: "tok", UserID: u.ID, CreatedAt: now, LastSeenAt: now}); err != nil {
			t.Fatal(err)
		}
		if _, err := d.CountLoginAttempt(ctx, u.ID, "192.0.2.1", now, lockAtThree); err != nil {
			t.Fatal(err)
		}
		history := count(t, d, "SELECT count(*) FROM password_history WHERE user_id = ?", u.ID)
		if err := d.MigrateUp(ctx); err != nil {
			t.Fatalf("MigrateUp: %v", err)
		}

		got, err := d.GetUser(ctx, u.ID)
		if err != nil || got.Username != "keeper" || got.RoleID != 3 || got.PasswordHash != "h2" {
			t.Errorf("user after the migration = %+v, %v", got, err)
		}
		if _, sessUser, err := d.SessionUser(ctx, "tok"); err != nil || sessUser.ID != u.ID {
			t.Errorf("session after the migration: user %+v, %v", sessUser, err)
		}
		if after := count(t, d, "SELECT count(*) FROM password_history WHERE user_id = ?", u.ID); after != history || after == 0 {
			t.Errorf("password history after the migration: %d rows; want %d", after, history)
		}
		if a, err := d.CountLoginAttempt(ctx, u.ID, "192.0.2.1", now.Add(time.Second), lockAtThree); err != nil || a.Failures != 2 {
			t.Errorf("failed logins after the migration: %+v, %v; want the earlier one counted", a, err)
		}
		l, err := d.InsertUser(ctx, db.NewUser{Username: "diruser", RoleID: 5, AccessMethod: "ldap", At: now})
		if err != nil {
			t.Fatalf("insert an ldap user: %v", err)
		}
		if l.ID <= gone.ID {
			t.Errorf("new user id %d reuses the id of a deleted user (%d)", l.ID, gone.ID)
		}
		if l.AccessMethod != "ldap" {
			t.Errorf("access method %q, want ldap", l.AccessMethod)
		}
		if err := d.DeleteUser(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if left := count(t, d, "SELECT count(*) FROM sessions WHERE user_id = ?", u.ID); left != 0 {
			t.Errorf("sessions of a deleted user after the migration: %d; want the cascade to hold", left)
		}
	})
}

// count runs a count(*) query.
func count(t *testing.T, d *db.DB, q string, args ...any) int {
	t.Helper()
	var n []int
	if err := d.SelectSQL(t.Context(), &n, q, args...); err != nil || len(n) != 1 {
		t.Fatalf("%s: %v, %v", q, n, err)
	}
	return n[0]
}
