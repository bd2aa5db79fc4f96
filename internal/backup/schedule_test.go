package backup_test

import (
	"context"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/scheduler"
)

// TestScheduledBackupsRetained runs the daily backup schedule on the
// scheduler's fake clock for four days with BACKUP.retainCount 2: one
// backup a day, and only the newest two kept.
func TestScheduledBackupsRetained(t *testing.T) {
	store := dbtest.SQLite(t)
	clk := clock.NewFake(time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC))
	f := newFixture(t, store)
	f.cfg["BACKUP.retainCount"] = "2"
	f.cfg["BACKUP.includeReadings"] = "false"
	sched := scheduler.New(scheduler.Options{Store: store, Audit: f.audit, Clock: clk, Reload: time.Hour})
	f.m = backup.New(backup.Options{DataDir: f.dir, Store: store, Config: f.cfg, Audit: f.audit, Clock: clk})
	sched.Register(backup.ProcessName, f.m.Run)
	at := 3600
	if _, err := sched.Create(t.Context(), db.Schedule{Name: backup.ScheduleName, ProcessName: backup.ProcessName,
		Type: db.ScheduleTimed, TimeOfDay: &at, Exclusive: true, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := sched.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sched.Stop(context.Background()) })

	completed := func() []backup.Backup {
		list, err := f.m.List(t.Context(), backup.Filter{Status: backup.StatusCompleted})
		if err != nil {
			t.Fatal(err)
		}
		return list
	}
	var made []int64
	newBackup := func() {
		list := completed()
		if len(list) > 0 && (len(made) == 0 || list[0].ID != made[len(made)-1]) {
			made = append(made, list[0].ID)
		}
	}
	// settle waits until the scheduler has nothing running and waits on
	// its clock again.
	settle := func() {
		deadline := time.Now().Add(30 * time.Second)
		for {
			running, err := sched.Tasks(t.Context(), scheduler.Filter{State: "running"})
			if err != nil {
				t.Fatal(err)
			}
			if clk.Pending() >= 1 && len(running) == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the scheduler did not settle: %d timers, %d tasks running", clk.Pending(), len(running))
			}
			time.Sleep(time.Millisecond) // polling an observable condition
		}
	}
	// Four days, an hour at a time: one run a day at 01:00.
	settle()
	for range 4 * 24 {
		clk.Advance(time.Hour)
		settle()
		newBackup()
	}
	if len(made) != 4 {
		t.Fatalf("backups %v in four days, want one a day", made)
	}
	list := completed()
	if len(list) != 2 || list[0].ID != made[3] || list[1].ID != made[2] {
		t.Fatalf("kept %+v after backups %v, want the newest two", list, made)
	}
	tasks, err := sched.Tasks(t.Context(), scheduler.Filter{Name: backup.ScheduleName})
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 4 {
		t.Errorf("%d tasks of the backup schedule, want one a day", len(tasks))
	}
}
