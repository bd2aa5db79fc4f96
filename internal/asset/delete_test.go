package asset

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/db"
)

// gatedStore is a fakeStore whose purges wait for release (and then remove
// 10 readings) or for their context to end (having removed 4).
type gatedStore struct {
	*fakeStore
	release chan struct{}
}

func (g *gatedStore) purge(ctx context.Context) (int64, error) {
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	select {
	case <-g.release:
		return 10, nil
	case <-ctx.Done():
		return 4, ctx.Err()
	}
}

func (g *gatedStore) PurgeAssetReadings(ctx context.Context, _ string) (int64, error) {
	return g.purge(ctx)
}
func (g *gatedStore) PurgeAllReadings(ctx context.Context) (int64, error) { return g.purge(ctx) }

// fakeTasks records tasks and tells when one ends.
type fakeTasks struct {
	mu     sync.Mutex
	tasks  map[string]db.Task
	ended  chan string
	insErr error
}

func (f *fakeTasks) InsertTask(_ context.Context, t db.Task) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.insErr != nil {
		return f.insErr
	}
	f.tasks[t.ID] = t
	return nil
}

func (f *fakeTasks) FinishTask(_ context.Context, id, state string, end time.Time, code *int, reason string) (bool, error) {
	f.mu.Lock()
	t := f.tasks[id]
	t.State, t.EndTime, t.ExitCode, t.Reason = state, end, code, reason
	f.tasks[id] = t
	f.mu.Unlock()
	f.ended <- id
	return true, nil
}

func (f *fakeTasks) get(id string) db.Task {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tasks[id]
}

// TestDelete checks that a deletion of at most the threshold runs in the
// call, to its end even when the caller has gone, and a larger one as a
// task that ends Complete, or Cancelled when the service stops.
func TestDelete(t *testing.T) {
	assets := []db.AssetCount{{AssetCode: "small", Count: 5}, {AssetCode: "big", Count: 50}}
	cases := []struct {
		name        string
		all         bool
		code        string
		stop        bool // stop the service instead of letting the purge end
		wantTask    bool
		wantPending int64
		wantState   string
	}{
		{name: "small asset in the call", code: "small"},
		{name: "unknown asset in the call", code: "none"},
		{name: "large asset as a task", code: "big", wantTask: true, wantPending: 50, wantState: db.TaskComplete},
		{name: "all as a task", all: true, wantTask: true, wantPending: 55, wantState: db.TaskComplete},
		{name: "task cancelled by Stop", code: "big", stop: true, wantTask: true, wantPending: 50, wantState: db.TaskCancelled},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &gatedStore{fakeStore: &fakeStore{assets: assets}, release: make(chan struct{})}
			tasks := &fakeTasks{tasks: map[string]db.Task{}, ended: make(chan string, 1)}
			s := New(st, &fakeAuditor{}, fixedClock{t: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)}, nil)
			s.EnableTasks(tasks, 10)
			// The caller has gone before the call even starts.
			ctx, cancel := context.WithCancel(t.Context())
			cancel()
			if !c.wantTask {
				close(st.release)
			}
			var d Deleted
			var err error
			if c.all {
				d, err = s.DeleteAll(ctx)
			} else {
				d, err = s.Delete(ctx, c.code)
			}
			if err != nil {
				t.Fatalf("delete: %v", err)
			}
			if !c.wantTask {
				if d.TaskID != "" || d.Removed != 10 {
					t.Errorf("delete = %+v, want 10 removed in the call", d)
				}
				return
			}
			if d.TaskID == "" || d.Pending != c.wantPending || d.Removed != 0 {
				t.Fatalf("delete = %+v, want a task with %d pending", d, c.wantPending)
			}
			if got := tasks.get(d.TaskID); got.State != db.TaskRunning || got.Name != TaskDelete {
				t.Errorf("task at the answer = %+v, want %s Running", got, TaskDelete)
			}
			if c.stop {
				s.Stop(t.Context())
			} else {
				close(st.release)
			}
			if id := <-tasks.ended; id != d.TaskID {
				t.Fatalf("ended task %s, want %s", id, d.TaskID)
			}
			got := tasks.get(d.TaskID)
			if got.State != c.wantState {
				t.Errorf("task = %+v, want state %s", got, c.wantState)
			}
			if c.wantState == db.TaskComplete && (got.ExitCode == nil || *got.ExitCode != 0) {
				t.Errorf("task = %+v, want exit code 0", got)
			}
		})
	}
	t.Run("task not recorded", func(t *testing.T) {
		st := &gatedStore{fakeStore: &fakeStore{assets: assets}, release: make(chan struct{})}
		s := New(st, &fakeAuditor{}, fixedClock{}, nil)
		s.EnableTasks(&fakeTasks{tasks: map[string]db.Task{}, insErr: errors.New("storage down")}, 10)
		if _, err := s.Delete(t.Context(), "big"); err == nil {
			t.Error("Delete succeeded without recording its task")
		}
	})
}
