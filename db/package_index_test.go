package db_test

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestAcceptIndexVersion(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		const repo, other = "https://packages.example.org/edged", "https://mirror.example.org/edged"
		at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		steps := []struct {
			name         string
			repo         string
			version      int64
			wantAccepted bool
			wantHighest  int64
		}{
			{"first index of a repository", repo, 3, true, 3},
			{"the same version again", repo, 3, true, 3},
			{"a newer one", repo, 7, true, 7},
			{"an older one is refused", repo, 5, false, 7},
			{"the refusal did not lower it", repo, 6, false, 7},
			{"another repository counts apart", other, 1, true, 1},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				ok, highest, err := d.AcceptIndexVersion(ctx, s.repo, s.version, at)
				if err != nil {
					t.Fatal(err)
				}
				if ok != s.wantAccepted || highest != s.wantHighest {
					t.Errorf("AcceptIndexVersion(%d) = %v, %d; want %v, %d", s.version, ok, highest, s.wantAccepted, s.wantHighest)
				}
			})
		}
		if v, err := d.IndexVersion(ctx, repo); err != nil || v != 7 {
			t.Errorf("IndexVersion = %d, %v; want 7", v, err)
		}
		if v, err := d.IndexVersion(ctx, "https://never.example.org"); err != nil || v != 0 {
			t.Errorf("IndexVersion of an unknown repository = %d, %v; want 0", v, err)
		}
		if _, _, err := d.AcceptIndexVersion(ctx, repo, 0, at); !errors.Is(err, db.ErrInvalidData) {
			t.Errorf("AcceptIndexVersion(0) = %v, want ErrInvalidData", err)
		}

		// Concurrent fetches: the highest wins whatever the order.
		const race = "https://race.example.org"
		var wg sync.WaitGroup
		for v := int64(1); v <= 20; v++ {
			wg.Go(func() {
				if _, _, err := d.AcceptIndexVersion(ctx, race, v, at); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if v, err := d.IndexVersion(ctx, race); err != nil || v != 20 {
			t.Errorf("IndexVersion after concurrent accepts = %d, %v; want 20", v, err)
		}
	})
}
