package scheduler

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
)

// slowStore is storage whose schedule reads or task inserts, once armed,
// wait until released: a writer busy elsewhere.
type slowStore struct {
	*db.DB
	gateList   chan struct{} // non-nil: ListSchedules waits on it
	gateInsert chan struct{} // non-nil: InsertTask of a "slow" task waits on it
	entered    chan string
}

func (s *slowStore) ListSchedules(ctx context.Context) ([]db.Schedule, error) {
	if s.gateList != nil {
		s.entered <- "ListSchedules"
		<-s.gateList
	}
	return s.DB.ListSchedules(ctx)
}

func (s *slowStore) InsertTask(ctx context.Context, t db.Task) error {
	if s.gateInsert != nil && t.Name == "slow" {
		s.entered <- "InsertTask"
		<-s.gateInsert
	}
	return s.DB.InsertTask(ctx, t)
}

// TestCancelAndTriggerDoNotWaitBehindStorage: while the loop's pass waits
// for storage (a schedules read, a task insert), cancelling a running
// task and triggering another still go through.
func TestCancelAndTriggerDoNotWaitBehindStorage(t *testing.T) {
	for _, slow := range []string{"ListSchedules", "InsertTask"} {
		t.Run(slow, func(t *testing.T) {
			store := &slowStore{DB: dbtest.SQLite(t), entered: make(chan string, 10)}
			clk := clock.NewFake(monday)
			s := New(Options{Store: store, Clock: clk, Audit: &fakeAudit{}, Reload: time.Hour, StopGrace: time.Minute})
			t.Cleanup(func() { s.Stop(context.Background()) })
			p := newProc(false)
			s.Register("work", p.run)
			mk := func(name string, typ string) db.Schedule {
				sc, err := store.CreateSchedule(t.Context(), db.Schedule{ID: uuid.NewString(), Name: name,
					ProcessName: "work", Type: typ, RepeatSeconds: 60, Enabled: true})
				if err != nil {
					t.Fatal(err)
				}
				return sc
			}
			running := mk("running", db.ScheduleManual)
			other := mk("other", db.ScheduleManual)
			if err := s.Start(t.Context()); err != nil {
				t.Fatal(err)
			}
			s.pass(t.Context()) // the schedules are read: later ones are new
			id, err := s.Trigger(t.Context(), running.ID)
			if err != nil {
				t.Fatal(err)
			}
			recv(t, p.started, "the running task")

			release := make(chan struct{})
			if slow == "ListSchedules" {
				store.gateList = release
			} else {
				store.gateInsert = release
				mk("slow", db.ScheduleInterval) // due at once when read
			}
			s.Notify()
			if got := recv(t, store.entered, "the pass reaching storage"); got != slow {
				t.Fatalf("the pass waits in %s, want %s", got, slow)
			}

			done := make(chan error, 2)
			go func() { done <- s.Cancel(context.Background(), id) }()
			go func() {
				_, err := s.Trigger(context.Background(), other.ID)
				done <- err
			}()
			for range 2 {
				if err := recv(t, done, "Cancel and Trigger while the pass waits for storage"); err != nil {
					t.Error(err)
				}
			}
			recv(t, p.started, "the triggered task")
			close(release)
			p.release <- nil // the triggered task
			if slow == "InsertTask" {
				recv(t, p.started, "the slow task")
				p.release <- nil
			}
		})
	}
}
