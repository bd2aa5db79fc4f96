package db_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// lockAtThree locks for a minute at the third failure and forgets after a
// day.
var lockAtThree = db.LoginPolicy{
	LockFor: func(n int) time.Duration {
		if n == 3 {
			return time.Minute
		}
		return 0
	},
	ForgetAfter: 24 * time.Hour,
}

func TestCountLoginAttempt(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		u := insertUser(t, d, db.NewUser{Username: "locky", PasswordHash: "h", RoleID: 2})
		other := insertUser(t, d, db.NewUser{Username: "other", PasswordHash: "h", RoleID: 2})
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		const addr, addr2 = "192.0.2.1", "2001:db8::1"
		tests := []struct {
			name  string
			user  int64
			addr  string
			at    time.Time
			clear bool // ClearLoginFailures before the attempt
			want  db.LoginAttempt
		}{
			{name: "first", user: u.ID, addr: addr, at: t0, want: db.LoginAttempt{Failures: 1}},
			{name: "second", user: u.ID, addr: addr, at: t0.Add(time.Second), want: db.LoginAttempt{Failures: 2}},
			{name: "third locks", user: u.ID, addr: addr, at: t0.Add(2 * time.Second),
				want: db.LoginAttempt{Failures: 3, LockedUntil: t0.Add(2*time.Second + time.Minute)}},
			{name: "refused while locked, not counted", user: u.ID, addr: addr, at: t0.Add(3 * time.Second),
				want: db.LoginAttempt{Refused: true, Failures: 3, LockedUntil: t0.Add(2*time.Second + time.Minute)}},
			{name: "another address is not locked", user: u.ID, addr: addr2, at: t0.Add(4 * time.Second), want: db.LoginAttempt{Failures: 1}},
			{name: "another user is not locked", user: other.ID, addr: addr, at: t0.Add(5 * time.Second), want: db.LoginAttempt{Failures: 1}},
			{name: "counted again once the lock expired", user: u.ID, addr: addr, at: t0.Add(time.Hour), want: db.LoginAttempt{Failures: 4}},
			{name: "cleared", user: u.ID, addr: addr, at: t0.Add(time.Hour + time.Second), clear: true, want: db.LoginAttempt{Failures: 1}},
			{name: "forgotten after a day without attempts", user: u.ID, addr: addr2, at: t0.Add(25 * time.Hour), want: db.LoginAttempt{Failures: 1}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				if tc.clear {
					if err := d.ClearLoginFailures(ctx, tc.user, tc.addr); err != nil {
						t.Fatal(err)
					}
				}
				got, err := d.CountLoginAttempt(ctx, tc.user, tc.addr, tc.at, lockAtThree)
				if err != nil {
					t.Fatal(err)
				}
				if got.Refused != tc.want.Refused || got.Failures != tc.want.Failures || !got.LockedUntil.Equal(tc.want.LockedUntil) {
					t.Errorf("got %+v, want %+v", got, tc.want)
				}
			})
		}
		if _, err := d.CountLoginAttempt(ctx, 999, addr, t0, lockAtThree); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("unknown user err = %v, want ErrNotFound", err)
		}
		t.Run("deleting the user deletes its records", func(t *testing.T) {
			if err := d.DeleteUser(ctx, other.ID); err != nil {
				t.Fatal(err)
			}
			var left []int64
			if err := d.SelectSQL(ctx, &left, "SELECT user_id FROM login_failures WHERE user_id = ?", other.ID); err != nil {
				t.Fatal(err)
			}
			if len(left) != 0 {
				t.Errorf("%d records left", len(left))
			}
		})
	})
}

// TestCountLoginAttemptConcurrent counts a burst of simultaneous attempts
// from one address: exactly as many are let through as the policy allows
// before the lock, each with its own count, and the rest are refused.
func TestCountLoginAttemptConcurrent(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		u := insertUser(t, d, db.NewUser{Username: "burst", PasswordHash: "h", RoleID: 2})
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		const n = 40
		results := make([]db.LoginAttempt, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				results[i], errs[i] = d.CountLoginAttempt(t.Context(), u.ID, "192.0.2.9", t0, lockAtThree)
			})
		}
		wg.Wait()
		seen := map[int]bool{}
		refused := 0
		for i, r := range results {
			if errs[i] != nil {
				t.Fatalf("attempt %d: %v", i, errs[i])
			}
			if r.Refused {
				refused++
				continue
			}
			if seen[r.Failures] {
				t.Errorf("two attempts were counted as failure %d", r.Failures)
			}
			seen[r.Failures] = true
		}
		if refused != n-3 || !seen[1] || !seen[2] || !seen[3] {
			t.Errorf("%d refused, counts %v; want %d refused and counts 1, 2, 3", refused, seen, n-3)
		}
	})
}

// TestCountLoginAttemptWhileCleared counts attempts while other attempts of
// the same address succeed and clear the record: an attempt that finds the
// record deleted under it starts a new one instead of failing.
func TestCountLoginAttemptWhileCleared(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		u := insertUser(t, d, db.NewUser{Username: "clearing", PasswordHash: "h", RoleID: 2})
		t0 := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
		never := db.LoginPolicy{LockFor: func(int) time.Duration { return 0 }, ForgetAfter: time.Hour}
		const n = 40
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				for range 5 {
					if _, errs[i] = d.CountLoginAttempt(t.Context(), u.ID, "192.0.2.10", t0, never); errs[i] != nil {
						return
					}
					if i%2 == 0 {
						if errs[i] = d.ClearLoginFailures(t.Context(), u.ID, "192.0.2.10"); errs[i] != nil {
							return
						}
					}
				}
			})
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("attempter %d: %v", i, err)
			}
		}
	})
}
