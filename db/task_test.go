package db_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// taskID returns a fixed, valid 36-character task id.
func taskID(n int) string { return fmt.Sprintf("00000000-0000-4000-9000-%012d", n) }

// taskIDs returns the ids of ts, in order.
func taskIDs(ts []db.Task) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.ID)
	}
	return out
}

func TestTasks(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got, err := d.ListTasks(ctx, db.TaskFilter{}); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("ListTasks on an empty database = %v, %v; want empty, non-nil", got, err)
		}
		base := time.Date(2024, 5, 1, 10, 0, 0, 123456000, time.UTC)
		zero, one := 0, 1
		// Tasks 1..6, started one minute apart: 1 is the oldest.
		seed := []db.Task{
			{ID: taskID(1), Name: "purge", ProcessName: "purge", State: db.TaskComplete, ExitCode: &zero},
			{ID: taskID(2), Name: "stats collection", ProcessName: "stats collector", State: db.TaskComplete, ExitCode: &zero},
			{ID: taskID(3), Name: "purge", ProcessName: "purge", State: db.TaskComplete, ExitCode: &one, Reason: "storage failed"},
			{ID: taskID(4), Name: "Purge", ProcessName: "purge", State: db.TaskCancelled, Reason: "cancelled"},
			{ID: taskID(5), Name: "stats collection", ProcessName: "stats collector", State: db.TaskRunning},
			{ID: taskID(6), Name: "purge", ProcessName: "purge", State: db.TaskRunning},
		}
		for i, task := range seed {
			task.StartTime = base.Add(time.Duration(i) * time.Minute)
			if task.State != db.TaskRunning {
				task.EndTime = task.StartTime.Add(10 * time.Second)
			}
			task.PID = 4242
			if err := d.InsertTask(ctx, task); err != nil {
				t.Fatalf("InsertTask %d: %v", i+1, err)
			}
		}
		if err := d.InsertTask(ctx, db.Task{ID: taskID(1), Name: "x", ProcessName: "x", State: db.TaskRunning, StartTime: base}); !errors.Is(err, db.ErrConflict) {
			t.Errorf("InsertTask with an existing id = %v, want ErrConflict", err)
		}

		t.Run("get", func(t *testing.T) {
			got, err := d.GetTask(ctx, taskID(3))
			if err != nil {
				t.Fatal(err)
			}
			want := db.Task{ID: taskID(3), Name: "purge", ProcessName: "purge", State: db.TaskComplete,
				StartTime: base.Add(2 * time.Minute), EndTime: base.Add(2*time.Minute + 10*time.Second),
				ExitCode: &one, Reason: "storage failed", PID: 4242}
			if got.ID != want.ID || got.Name != want.Name || got.ProcessName != want.ProcessName || got.State != want.State ||
				!got.StartTime.Equal(want.StartTime) || !got.EndTime.Equal(want.EndTime) || got.ExitCode == nil ||
				*got.ExitCode != 1 || got.Reason != want.Reason || got.PID != want.PID {
				t.Errorf("GetTask = %+v, want %+v", got, want)
			}
			running, err := d.GetTask(ctx, taskID(6))
			if err != nil || !running.EndTime.IsZero() || running.ExitCode != nil {
				t.Errorf("GetTask of a running task = %+v, %v; want no end time and no exit code", running, err)
			}
			if _, err := d.GetTask(ctx, taskID(99)); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("GetTask unknown = %v, want ErrNotFound", err)
			}
		})

		lists := []struct {
			name   string
			f      db.TaskFilter
			all    []string // ListTasks
			latest []string // ListLatestTasks
		}{
			{name: "everything newest first", f: db.TaskFilter{},
				all:    []string{taskID(6), taskID(5), taskID(4), taskID(3), taskID(2), taskID(1)},
				latest: []string{taskID(6), taskID(5), taskID(4)}},
			{name: "name case-insensitively", f: db.TaskFilter{Name: "PURGE"},
				all:    []string{taskID(6), taskID(4), taskID(3), taskID(1)},
				latest: []string{taskID(6), taskID(4)}},
			{name: "state", f: db.TaskFilter{State: db.TaskComplete},
				all:    []string{taskID(3), taskID(2), taskID(1)},
				latest: []string{taskID(3), taskID(2)}},
			{name: "name and state", f: db.TaskFilter{Name: "stats collection", State: db.TaskRunning},
				all: []string{taskID(5)}, latest: []string{taskID(5)}},
			{name: "page", f: db.TaskFilter{Limit: 2, Skip: 1},
				all: []string{taskID(5), taskID(4)}, latest: []string{taskID(5), taskID(4)}},
			{name: "skip only", f: db.TaskFilter{Skip: 5}, all: []string{taskID(1)}, latest: []string{}},
			{name: "no match", f: db.TaskFilter{Name: "nothing"}, all: []string{}, latest: []string{}},
		}
		for _, l := range lists {
			t.Run(l.name, func(t *testing.T) {
				all, err := d.ListTasks(ctx, l.f)
				if err != nil || !slices.Equal(taskIDs(all), l.all) || all == nil {
					t.Errorf("ListTasks(%+v) = %v, %v; want %v", l.f, taskIDs(all), err, l.all)
				}
				latest, err := d.ListLatestTasks(ctx, l.f)
				if err != nil || !slices.Equal(taskIDs(latest), l.latest) || latest == nil {
					t.Errorf("ListLatestTasks(%+v) = %v, %v; want %v", l.f, taskIDs(latest), err, l.latest)
				}
			})
		}
		if _, err := d.ListTasks(ctx, db.TaskFilter{Limit: -1}); err == nil {
			t.Error("ListTasks with a negative limit succeeded")
		}

		t.Run("finish", func(t *testing.T) {
			end := base.Add(time.Hour)
			changed, err := d.FinishTask(ctx, taskID(6), db.TaskCancelled, end, nil, "cancelled through the API")
			if err != nil || !changed {
				t.Fatalf("FinishTask of a running task = %v, %v; want true", changed, err)
			}
			got, _ := d.GetTask(ctx, taskID(6))
			if got.State != db.TaskCancelled || !got.EndTime.Equal(end) || got.ExitCode != nil || got.Reason != "cancelled through the API" {
				t.Errorf("after FinishTask: %+v", got)
			}
			changed, err = d.FinishTask(ctx, taskID(6), db.TaskComplete, end, &zero, "")
			if err != nil || changed {
				t.Errorf("FinishTask of an ended task = %v, %v; want false, nil", changed, err)
			}
			if got2, _ := d.GetTask(ctx, taskID(6)); got2.State != db.TaskCancelled {
				t.Errorf("a second FinishTask changed the state to %s", got2.State)
			}
			if _, err := d.FinishTask(ctx, taskID(99), db.TaskComplete, end, &zero, ""); !errors.Is(err, db.ErrNotFound) {
				t.Errorf("FinishTask unknown = %v, want ErrNotFound", err)
			}
		})

		t.Run("interrupt running", func(t *testing.T) {
			at := base.Add(2 * time.Hour)
			n, err := d.InterruptRunningTasks(ctx, at, "the gateway stopped")
			if err != nil || n != 1 {
				t.Fatalf("InterruptRunningTasks = %d, %v; want 1 (task 5)", n, err)
			}
			got, _ := d.GetTask(ctx, taskID(5))
			if got.State != db.TaskInterrupted || !got.EndTime.Equal(at) || got.Reason != "the gateway stopped" || got.ExitCode != nil {
				t.Errorf("interrupted task = %+v", got)
			}
			if n, err := d.InterruptRunningTasks(ctx, at, "again"); err != nil || n != 0 {
				t.Errorf("second InterruptRunningTasks = %d, %v; want 0", n, err)
			}
		})

		t.Run("delete finished", func(t *testing.T) {
			if err := d.InsertTask(ctx, db.Task{ID: taskID(7), Name: "old running", ProcessName: "x",
				State: db.TaskRunning, StartTime: base.Add(-time.Hour)}); err != nil {
				t.Fatal(err)
			}
			// Tasks 1..3 ended before base+2m30s; 4 ended at base+3m10s.
			n, err := d.DeleteFinishedTasks(ctx, base.Add(2*time.Minute+30*time.Second))
			if err != nil || n != 3 {
				t.Fatalf("DeleteFinishedTasks = %d, %v; want 3", n, err)
			}
			left, _ := d.ListTasks(ctx, db.TaskFilter{})
			if want := []string{taskID(6), taskID(5), taskID(4), taskID(7)}; !slices.Equal(taskIDs(left), want) {
				t.Errorf("tasks left = %v, want %v (a running task stays, however old)", taskIDs(left), want)
			}
		})
	})
}
