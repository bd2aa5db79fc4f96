package db_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestInsertFirstAdmin(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		created, id, err := d.InsertFirstAdmin(ctx, "hash-1")
		if err != nil {
			t.Fatal(err)
		}
		if !created || id != 1 {
			t.Fatalf("first call: created=%v id=%d, want true 1", created, id)
		}
		created, _, err = d.InsertFirstAdmin(ctx, "hash-2")
		if err != nil {
			t.Fatal(err)
		}
		if created {
			t.Fatal("second call created another admin")
		}
		n, err := d.CountUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Fatalf("CountUsers = %d, want 1", n)
		}
	})
}

// insertUser inserts u and fails the test on error.
func insertUser(t *testing.T, d *db.DB, u db.NewUser) db.User {
	t.Helper()
	got, err := d.InsertUser(t.Context(), u)
	if err != nil {
		t.Fatalf("InsertUser(%q): %v", u.Username, err)
	}
	return got
}

func TestInsertUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		at := time.Date(2026, 5, 1, 10, 15, 42, 123456789, time.UTC)
		u := insertUser(t, d, db.NewUser{Username: "Operator", PasswordHash: "h1", RoleID: 3,
			RealName: "Pat", Description: "night shift", At: at})
		want := db.User{ID: u.ID, Username: "Operator", PasswordHash: "h1", RoleID: 3, AccessMethod: "any",
			RealName: "Pat", Description: "night shift", PasswordChangedAt: at.Truncate(time.Microsecond),
			CreatedAt: at.Truncate(time.Microsecond)}
		if u != want {
			t.Fatalf("InsertUser = %+v, want %+v", u, want)
		}
		got, err := d.GetUser(ctx, u.ID)
		if err != nil || got != want {
			t.Fatalf("GetUser = %+v, %v; want %+v", got, err, want)
		}
		hashes, err := d.RecentPasswordHashes(ctx, u.ID, 5)
		if err != nil || !slices.Equal(hashes, []string{"h1"}) {
			t.Fatalf("history = %v, %v; want [h1]", hashes, err)
		}

		tests := []struct {
			name    string
			in      db.NewUser
			wantErr error
		}{
			{name: "same name other case", in: db.NewUser{Username: "OPERATOR", PasswordHash: "x", RoleID: 2}, wantErr: db.ErrConflict},
			{name: "unknown role", in: db.NewUser{Username: "someone", PasswordHash: "x", RoleID: 9}, wantErr: db.ErrConflict},
			{name: "cert only", in: db.NewUser{Username: "device-1", RoleID: 4, AccessMethod: "cert"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				_, err := d.InsertUser(ctx, tc.in)
				if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
			})
		}
	})
}

func TestGetUsers(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if _, _, err := d.InsertFirstAdmin(ctx, "admin-hash"); err != nil {
			t.Fatal(err)
		}
		b := insertUser(t, d, db.NewUser{Username: "Bob.Smith", PasswordHash: "hb", RoleID: 2})
		c := insertUser(t, d, db.NewUser{Username: "carol", PasswordHash: "hc", RoleID: 5})

		users, err := d.ListUsers(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, u := range users {
			names = append(names, u.Username)
		}
		if !slices.Equal(names, []string{"admin", "Bob.Smith", "carol"}) {
			t.Errorf("ListUsers names = %v", names)
		}

		tests := []struct {
			name    string
			lookup  string
			wantID  int64
			wantErr error
		}{
			{name: "exact", lookup: "carol", wantID: c.ID},
			{name: "other case", lookup: "bob.SMITH", wantID: b.ID},
			{name: "admin", lookup: "ADMIN", wantID: 1},
			{name: "unknown", lookup: "dave", wantErr: db.ErrNotFound},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				u, err := d.GetUserByName(ctx, tc.lookup)
				if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if u.ID != tc.wantID {
					t.Errorf("id = %d, want %d", u.ID, tc.wantID)
				}
			})
		}
		if _, err := d.GetUser(ctx, 999); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetUser(999) err = %v, want ErrNotFound", err)
		}

		roles, err := d.ListRoles(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []db.Role{
			{ID: 1, Name: "admin", Description: "All create, read, update and delete privileges"},
			{ID: 2, Name: "user", Description: "All operations plus management of the own profile"},
			{ID: 3, Name: "view", Description: "View configuration only"},
			{ID: 4, Name: "data-view", Description: "Read buffered data only"},
			{ID: 5, Name: "control", Description: "Editor rights plus control scripts and pipelines"},
		}
		if !slices.Equal(roles, want) {
			t.Errorf("ListRoles = %+v", roles)
		}
	})
}

func TestUpdateUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		u := insertUser(t, d, db.NewUser{Username: "op", PasswordHash: "h", RoleID: 2})
		startSession(t, d, "tok-1", u.ID)
		refused := errors.New("refused")
		tests := []struct {
			name         string
			id           int64
			change       func(cur db.User) (db.UserChange, error)
			wantErr      error
			wantRole     int
			wantSessions bool
		}{
			{name: "names keep sessions", id: u.ID, wantRole: 2, wantSessions: true,
				change: func(cur db.User) (db.UserChange, error) {
					return db.UserChange{RoleID: cur.RoleID, AccessMethod: "pwd", RealName: "Pat", Description: "d"}, nil
				}},
			{name: "callback error rolls back", id: u.ID, wantErr: refused, wantRole: 2, wantSessions: true,
				change: func(db.User) (db.UserChange, error) { return db.UserChange{}, refused }},
			{name: "unknown role", id: u.ID, wantErr: db.ErrConflict, wantRole: 2, wantSessions: true,
				change: func(cur db.User) (db.UserChange, error) {
					return db.UserChange{RoleID: 42, AccessMethod: cur.AccessMethod}, nil
				}},
			{name: "unknown user", id: 999, wantErr: db.ErrNotFound, wantRole: 2, wantSessions: true,
				change: func(cur db.User) (db.UserChange, error) { return db.UserChange{}, nil }},
			{name: "role change ends sessions", id: u.ID, wantRole: 3, wantSessions: false,
				change: func(cur db.User) (db.UserChange, error) {
					return db.UserChange{RoleID: 3, AccessMethod: cur.AccessMethod, RealName: cur.RealName, Description: cur.Description}, nil
				}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				before, after, err := d.UpdateUser(ctx, tc.id, tc.change)
				if !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
					t.Fatalf("err = %v, want %v", err, tc.wantErr)
				}
				if err == nil && (before.ID != u.ID || after.RoleID != tc.wantRole) {
					t.Errorf("before %+v after %+v", before, after)
				}
				cur, err := d.GetUser(ctx, u.ID)
				if err != nil {
					t.Fatal(err)
				}
				if cur.RoleID != tc.wantRole {
					t.Errorf("stored role = %d, want %d", cur.RoleID, tc.wantRole)
				}
				_, _, err = d.SessionUser(ctx, "tok-1")
				if has := err == nil; has != tc.wantSessions {
					t.Errorf("session present = %v (err %v), want %v", has, err, tc.wantSessions)
				}
			})
		}
		cur, err := d.GetUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.AccessMethod != "pwd" || cur.RealName != "Pat" || cur.Description != "d" {
			t.Errorf("final user %+v: the first change was not kept", cur)
		}
	})
}

func TestDeleteUser(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		u := insertUser(t, d, db.NewUser{Username: "gone", PasswordHash: "h", RoleID: 2})
		keep := insertUser(t, d, db.NewUser{Username: "kept", PasswordHash: "k", RoleID: 2})
		startSession(t, d, "tok-gone", u.ID)
		startSession(t, d, "tok-kept", keep.ID)
		if err := d.DeleteUser(ctx, u.ID); err != nil {
			t.Fatal(err)
		}
		if _, _, err := d.SessionUser(ctx, "tok-gone"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("session of the deleted user: err = %v, want ErrNotFound", err)
		}
		if _, _, err := d.SessionUser(ctx, "tok-kept"); err != nil {
			t.Errorf("session of another user: %v", err)
		}
		if h, err := d.RecentPasswordHashes(ctx, u.ID, 3); err != nil || len(h) != 0 {
			t.Errorf("history of the deleted user = %v, %v; want none", h, err)
		}
		if err := d.DeleteUser(ctx, u.ID); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("second delete err = %v, want ErrNotFound", err)
		}
		// The name is free again.
		insertUser(t, d, db.NewUser{Username: "GONE", PasswordHash: "h", RoleID: 2})
	})
}

func TestSetPassword(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		u := insertUser(t, d, db.NewUser{Username: "pw", PasswordHash: "h0", RoleID: 2, At: t0})
		startSession(t, d, "tok-pw", u.ID)
		lockAtOnce := db.LoginPolicy{LockFor: func(int) time.Duration { return 24 * time.Hour }, ForgetAfter: 48 * time.Hour}
		if _, err := d.CountLoginAttempt(ctx, u.ID, "192.0.2.7", t0, lockAtOnce); err != nil {
			t.Fatal(err)
		}
		for i, h := range []string{"h1", "h2", "h3", "h4"} {
			if err := d.SetPassword(ctx, u.ID, h, t0.Add(time.Duration(i+1)*time.Hour)); err != nil {
				t.Fatal(err)
			}
		}
		got, err := d.GetUser(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.PasswordHash != "h4" || !got.PasswordChangedAt.Equal(t0.Add(4*time.Hour)) {
			t.Errorf("after SetPassword: %+v", got)
		}
		// The failures and the lock were forgotten.
		if a, err := d.CountLoginAttempt(ctx, u.ID, "192.0.2.7", t0.Add(5*time.Hour), lockAtOnce); err != nil || a.Refused || a.Failures != 1 {
			t.Errorf("attempt after SetPassword = %+v, %v; want the first failure, not refused", a, err)
		}
		hashes, err := d.RecentPasswordHashes(ctx, u.ID, 10)
		if err != nil || !slices.Equal(hashes, []string{"h4", "h3", "h2"}) {
			t.Errorf("history = %v, %v; want [h4 h3 h2] (pruned to %d)", hashes, err, db.PasswordHistoryDepth)
		}
		if _, _, err := d.SessionUser(ctx, "tok-pw"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("session after password change: err = %v, want ErrNotFound", err)
		}
		if err := d.SetPassword(ctx, 999, "x", t0); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("unknown user err = %v, want ErrNotFound", err)
		}
	})
}
