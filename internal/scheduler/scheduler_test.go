package scheduler

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// guard bounds every wait of these tests; reaching it is a failure, never
// a way to synchronise.
const guard = 10 * time.Second

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// fakeAudit records audit entries.
type fakeAudit struct {
	mu      sync.Mutex
	entries []auditEntry
}

type auditEntry struct {
	source  string
	details map[string]any
}

func (a *fakeAudit) Record(_ context.Context, source, _ string, details any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	d, _ := details.(map[string]any)
	a.entries = append(a.entries, auditEntry{source: source, details: d})
	return nil
}

func (a *fakeAudit) sources() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make([]string, 0, len(a.entries))
	for _, e := range a.entries {
		out = append(out, e.source)
	}
	return out
}

// fakeConfig is the SCHEDULER category.
type fakeConfig struct {
	mu    sync.Mutex
	value string
	subs  []func(context.Context, configmgr.Category) error
}

func (c *fakeConfig) Value(_ context.Context, key, item string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if key != configmgr.CategoryScheduler || item != configmgr.ItemMaxRunningTasks {
		return "", fault.New(fault.NotFound, "no %s/%s", key, item)
	}
	return c.value, nil
}

func (c *fakeConfig) Subscribe(_ string, fn func(context.Context, configmgr.Category) error) func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.subs = append(c.subs, fn)
	return func() {}
}

func (c *fakeConfig) set(t *testing.T, v string) {
	t.Helper()
	c.mu.Lock()
	c.value = v
	subs := c.subs
	c.mu.Unlock()
	for _, fn := range subs {
		_ = fn(t.Context(), configmgr.Category{Key: configmgr.CategoryScheduler,
			Items: map[string]configmgr.Item{configmgr.ItemMaxRunningTasks: {Value: v}}})
	}
}

// proc is a test process: it reports each start and then, unless quick,
// waits for a result on release or for cancellation (which a stubborn
// process ignores until released).
type proc struct {
	started  chan Run
	release  chan error
	quick    bool
	stubborn atomic.Bool
}

func newProc(quick bool) *proc {
	return &proc{started: make(chan Run, 50), release: make(chan error), quick: quick}
}

func (p *proc) run(ctx context.Context, r Run) error {
	p.started <- r
	if p.quick {
		return nil
	}
	select {
	case err := <-p.release:
		return err
	case <-ctx.Done():
		if p.stubborn.Load() {
			return <-p.release
		}
		return context.Cause(ctx)
	}
}

// fixture is a scheduler on a fresh SQLite database and a fake clock.
type fixture struct {
	s     *Scheduler
	d     *db.DB
	clk   *clock.Fake
	audit *fakeAudit
	cfg   *fakeConfig
}

func newFixture(t *testing.T, reload time.Duration) *fixture {
	t.Helper()
	f := &fixture{d: dbtest.SQLite(t), clk: clock.NewFake(monday), audit: &fakeAudit{}, cfg: &fakeConfig{value: "15"}}
	f.s = New(Options{Store: f.d, Config: f.cfg, Audit: f.audit, Clock: f.clk, Reload: reload, StopGrace: time.Minute, PID: 4242})
	t.Cleanup(func() { f.s.Stop(context.Background()) })
	return f
}

// schedule creates a schedule directly in storage (no audit).
func (f *fixture) schedule(t *testing.T, sc db.Schedule) db.Schedule {
	t.Helper()
	if sc.ID == "" {
		sc.ID = uuid.NewString()
	}
	out, err := f.d.CreateSchedule(t.Context(), sc)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// start starts the scheduler and makes sure it has read the schedules at
// the start time (its loop would, but maybe after the test moved the
// clock).
func (f *fixture) start(t *testing.T) {
	t.Helper()
	if err := f.s.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	f.s.pass(t.Context())
}

// advance moves the clock and makes a pass, as the loop would when its
// timer fires; the pass starts every run due by then.
func (f *fixture) advance(t *testing.T, d time.Duration) {
	t.Helper()
	f.clk.Advance(d)
	f.s.pass(t.Context())
}

// waitTask waits until the task's record is final.
func (f *fixture) waitTask(t *testing.T, id string) db.Task {
	t.Helper()
	f.s.mu.Lock()
	tk := f.s.tasks[id]
	f.s.mu.Unlock()
	if tk != nil {
		recv(t, (<-chan struct{})(tk.done), "the end of task "+id)
	}
	rec, err := f.d.GetTask(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// tasks lists the tasks of schedule name, oldest first.
func (f *fixture) tasks(t *testing.T, name string) []db.Task {
	t.Helper()
	ts, err := f.d.ListTasks(t.Context(), db.TaskFilter{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(ts)-1; i < j; i, j = i+1, j-1 {
		ts[i], ts[j] = ts[j], ts[i]
	}
	return ts
}

func startTimes(ts []db.Task) []time.Time {
	out := make([]time.Time, 0, len(ts))
	for _, t := range ts {
		out = append(out, t.StartTime)
	}
	return out
}

func equalTimes(a, b []time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

func TestIntervalSchedule(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(true)
	f.s.Register("collect", p.run)
	f.schedule(t, db.Schedule{Name: "every10", ProcessName: "collect", Type: db.ScheduleInterval, RepeatSeconds: 10, Exclusive: true, Enabled: true})
	f.start(t)
	f.advance(t, 9*time.Second)
	if n := len(f.tasks(t, "every10")); n != 0 {
		t.Fatalf("%d tasks 9 s after start, want none (the first run is one interval after start)", n)
	}
	f.advance(t, time.Second)
	first := recv(t, p.started, "the run at 10 s")
	at10 := monday.Add(10 * time.Second)
	if first.Schedule != "every10" || first.Process != "collect" || !first.Started.Equal(at10) {
		t.Errorf("first run = %+v, want schedule every10 at %v", first, at10)
	}
	rec := f.waitTask(t, first.TaskID)
	zero := 0
	if rec.State != db.TaskComplete || rec.ExitCode == nil || *rec.ExitCode != zero || rec.PID != 4242 ||
		rec.Name != "every10" || rec.ProcessName != "collect" || !rec.EndTime.Equal(at10) {
		t.Errorf("task record = %+v, want Complete, exit 0, pid 4242, ended at %v", rec, at10)
	}
	f.advance(t, 10*time.Second)
	f.waitTask(t, recv(t, p.started, "the run at 20 s").TaskID)
	f.advance(t, 25*time.Second) // runs at 30 s and 40 s fell due: one run, cadence kept
	f.waitTask(t, recv(t, p.started, "the run at 45 s").TaskID)
	f.advance(t, 5*time.Second)
	f.waitTask(t, recv(t, p.started, "the run at 50 s").TaskID)
	want := []time.Time{at10, monday.Add(20 * time.Second), monday.Add(45 * time.Second), monday.Add(50 * time.Second)}
	if got := startTimes(f.tasks(t, "every10")); !equalTimes(got, want) {
		t.Errorf("start times = %v, want %v", got, want)
	}
}

// TestLoopWakesByItself checks that the loop's own timer starts a due run
// without a pass being forced.
func TestLoopWakesByItself(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(true)
	f.s.Register("collect", p.run)
	f.schedule(t, db.Schedule{Name: "every10", ProcessName: "collect", Type: db.ScheduleInterval, RepeatSeconds: 10, Enabled: true})
	f.start(t)
	f.clk.BlockUntil(1)
	f.clk.Advance(10 * time.Second)
	if r := recv(t, p.started, "the run at 10 s"); !r.Started.Equal(monday.Add(10 * time.Second)) {
		t.Errorf("first run started at %v", r.Started)
	}
}

func TestTimedSchedule(t *testing.T) {
	tests := []struct {
		name string
		day  *int
		// runs after advancing 30 min, then 1 day at a time, for 8 days
		want []time.Time
	}{
		{name: "daily", want: func() []time.Time {
			var out []time.Time
			for i := range 9 {
				out = append(out, time.Date(2024, 5, 6+i, 1, 0, 0, 0, time.UTC))
			}
			return out
		}()},
		{name: "wednesdays", day: ptr(3), want: []time.Time{time.Date(2024, 5, 8, 1, 0, 0, 0, time.UTC)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, 48*time.Hour)
			p := newProc(true)
			f.s.Register("sys", p.run)
			f.schedule(t, db.Schedule{Name: "timed", ProcessName: "sys", Type: db.ScheduleTimed, TimeOfDay: ptr(3600), Day: tc.day, Enabled: true})
			f.start(t)
			f.s.pass(t.Context())
			if n := len(f.tasks(t, "timed")); n != 0 {
				t.Fatalf("%d runs at start (00:30), want none before 01:00", n)
			}
			f.advance(t, 29*time.Minute)
			if n := len(f.tasks(t, "timed")); n != 0 {
				t.Fatalf("%d runs at 00:59, want none", n)
			}
			f.advance(t, time.Minute)
			for range 8 {
				f.advance(t, 24*time.Hour)
			}
			got := startTimes(f.tasks(t, "timed"))
			if !equalTimes(got, tc.want) {
				t.Errorf("runs at %v, want %v", got, tc.want)
			}
		})
	}
}

func TestExclusive(t *testing.T) {
	tests := []struct {
		name      string
		exclusive bool
		wantRuns  int // after 10 s with the first run still going
	}{
		{name: "exclusive skips while running", exclusive: true, wantRuns: 1},
		{name: "not exclusive overlaps", exclusive: false, wantRuns: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, time.Hour)
			p := newProc(false)
			f.s.Register("slow", p.run)
			f.schedule(t, db.Schedule{Name: "slow", ProcessName: "slow", Type: db.ScheduleInterval, RepeatSeconds: 10, Exclusive: tc.exclusive, Enabled: true})
			f.start(t)
			f.advance(t, 10*time.Second)
			first := recv(t, p.started, "the first run")
			f.advance(t, 10*time.Second)
			if n := len(f.tasks(t, "slow")); n != tc.wantRuns {
				t.Fatalf("%d runs at 20 s with the first still running, want %d", n, tc.wantRuns)
			}
			for range tc.wantRuns - 1 {
				recv(t, p.started, "the overlapping run")
			}
			for range tc.wantRuns {
				p.release <- nil
			}
			f.waitTask(t, first.TaskID)
			f.advance(t, 10*time.Second)
			next := recv(t, p.started, "the run at 30 s")
			if !next.Started.Equal(monday.Add(30 * time.Second)) {
				t.Errorf("run after the first ended started at %v, want 30 s", next.Started)
			}
			p.release <- nil
			f.waitTask(t, next.TaskID)
		})
	}
}

func TestMaxRunningTasks(t *testing.T) {
	f := newFixture(t, time.Hour)
	f.cfg.value = "1"
	p := newProc(false)
	f.s.Register("slow", p.run)
	for _, name := range []string{"a", "b", "c"} {
		f.schedule(t, db.Schedule{Name: name, ProcessName: "slow", Type: db.ScheduleInterval, RepeatSeconds: 3600, Exclusive: true, Enabled: true})
	}
	f.start(t)
	f.advance(t, time.Hour)
	a := recv(t, p.started, "the first run")
	if a.Schedule != "a" {
		t.Errorf("first run is %q, want a (due together, by name)", a.Schedule)
	}
	f.s.pass(t.Context())
	if n := len(f.tasks(t, "")); n != 1 {
		t.Fatalf("%d tasks with max_running_tasks 1, want 1", n)
	}
	p.release <- nil
	b := recv(t, p.started, "the waiting run, once a slot is free")
	if b.Schedule != "b" {
		t.Errorf("second run is %q, want b", b.Schedule)
	}
	f.cfg.set(t, "2") // the change applies without a restart
	c := recv(t, p.started, "the third run, after raising the limit")
	if c.Schedule != "c" {
		t.Errorf("third run is %q, want c", c.Schedule)
	}
	p.release <- nil
	p.release <- nil
	f.waitTask(t, c.TaskID)
	f.waitTask(t, b.TaskID)
}

func TestTaskOutcomes(t *testing.T) {
	tests := []struct {
		name       string
		process    Process // nil: not registered
		wantCode   int
		wantReason string
	}{
		{name: "success", process: func(context.Context, Run) error { return nil }, wantCode: 0},
		{name: "failure", process: func(context.Context, Run) error { return errors.New("storage unreachable") },
			wantCode: 1, wantReason: "storage unreachable"},
		{name: "panic", process: func(context.Context, Run) error { panic("boom") }, wantCode: 1, wantReason: `process "work" panicked: boom`},
		{name: "no such process", wantCode: 1, wantReason: `no process named "work" is registered`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, time.Hour)
			if tc.process != nil {
				f.s.Register("work", tc.process)
			}
			sc := f.schedule(t, db.Schedule{Name: "job", ProcessName: "work", Type: db.ScheduleManual, Enabled: true})
			f.start(t)
			id, err := f.s.Trigger(t.Context(), sc.ID)
			if err != nil {
				t.Fatal(err)
			}
			rec := f.waitTask(t, id)
			if rec.State != db.TaskComplete || rec.ExitCode == nil || *rec.ExitCode != tc.wantCode || rec.Reason != tc.wantReason {
				t.Errorf("task = %s, exit %v, reason %q; want Complete, exit %d, reason %q", rec.State, rec.ExitCode, rec.Reason, tc.wantCode, tc.wantReason)
			}
		})
	}
}

func TestManualRunsOnlyWhenTriggered(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(false)
	f.s.Register("work", p.run)
	sc := f.schedule(t, db.Schedule{Name: "manual", ProcessName: "work", Type: db.ScheduleManual, Exclusive: true, Enabled: true})
	if _, err := f.s.Trigger(t.Context(), sc.ID); !errors.Is(err, fault.Unavailable) {
		t.Errorf("Trigger before Start = %v, want Unavailable", err)
	}
	f.start(t)
	f.advance(t, 24*time.Hour)
	if n := len(f.tasks(t, "manual")); n != 0 {
		t.Fatalf("a MANUAL schedule ran %d times by itself", n)
	}
	id, err := f.s.Trigger(t.Context(), sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	recv(t, p.started, "the triggered run")
	if _, err := f.s.Trigger(t.Context(), sc.ID); !errors.Is(err, fault.Conflict) {
		t.Errorf("Trigger of a running exclusive schedule = %v, want Conflict", err)
	}
	if _, err := f.s.Trigger(t.Context(), uuid.NewString()); !errors.Is(err, fault.NotFound) {
		t.Errorf("Trigger of an unknown schedule = %v, want NotFound", err)
	}
	p.release <- nil
	f.waitTask(t, id)
}

func TestCancel(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(false)
	f.s.Register("work", p.run)
	sc := f.schedule(t, db.Schedule{Name: "job", ProcessName: "work", Type: db.ScheduleManual, Enabled: true})
	f.start(t)
	ctx := t.Context()

	id, err := f.s.Trigger(ctx, sc.ID)
	if err != nil {
		t.Fatal(err)
	}
	recv(t, p.started, "the run")
	if err := f.s.Cancel(ctx, id); err != nil {
		t.Fatalf("Cancel of a running task = %v", err)
	}
	rec, err := f.s.Task(ctx, id)
	if err != nil || rec.State != db.TaskCancelled || rec.ExitCode != nil || rec.Reason != ReasonCancelled || rec.EndTime.IsZero() {
		t.Errorf("after Cancel: %+v, %v; want Cancelled, no exit code, reason %q", rec, err, ReasonCancelled)
	}

	errs := []struct {
		name string
		id   string
		want *fault.Kind
	}{
		{name: "cancelled already", id: id, want: fault.Conflict},
		{name: "unknown", id: uuid.NewString(), want: fault.NotFound},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			if err := f.s.Cancel(ctx, e.id); !errors.Is(err, e.want) {
				t.Errorf("Cancel = %v, want %v", err, e.want)
			}
		})
	}

	t.Run("complete", func(t *testing.T) {
		id, err := f.s.Trigger(ctx, sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		recv(t, p.started, "the run")
		p.release <- nil
		f.waitTask(t, id)
		if err := f.s.Cancel(ctx, id); !errors.Is(err, fault.Conflict) {
			t.Errorf("Cancel of a complete task = %v, want Conflict", err)
		}
	})

	t.Run("process ignoring cancellation", func(t *testing.T) {
		p.stubborn.Store(true)
		defer p.stubborn.Store(false)
		id, err := f.s.Trigger(ctx, sc.ID)
		if err != nil {
			t.Fatal(err)
		}
		recv(t, p.started, "the run")
		done := make(chan error, 1)
		go func() { done <- f.s.Cancel(ctx, id) }()
		f.clk.BlockUntil(2) // the loop's timer and Cancel's grace timer
		f.clk.Advance(time.Minute)
		if err := recv(t, done, "Cancel after the grace"); err != nil {
			t.Fatalf("Cancel = %v", err)
		}
		if rec, _ := f.s.Task(ctx, id); rec.State != db.TaskCancelled {
			t.Errorf("state after the grace = %s, want Cancelled", rec.State)
		}
		p.release <- nil // it finally returns: the record stays Cancelled
		if rec := f.waitTask(t, id); rec.State != db.TaskCancelled || rec.Reason != ReasonCancelled {
			t.Errorf("record after the late return = %+v", rec)
		}
	})
}

func TestInterruptedAtStart(t *testing.T) {
	f := newFixture(t, time.Hour)
	stale := db.Task{ID: uuid.NewString(), Name: "purge", ProcessName: "purge", State: db.TaskRunning, StartTime: monday.Add(-time.Hour), PID: 1}
	if err := f.d.InsertTask(t.Context(), stale); err != nil {
		t.Fatal(err)
	}
	f.start(t)
	rec, err := f.s.Task(t.Context(), stale.ID)
	if err != nil || rec.State != db.TaskInterrupted || !rec.EndTime.Equal(monday) || rec.Reason != ReasonInterrupted || rec.ExitCode != nil {
		t.Errorf("stale task after Start = %+v, %v; want Interrupted at %v", rec, err, monday)
	}
	if err := f.s.Cancel(t.Context(), stale.ID); !errors.Is(err, fault.Conflict) {
		t.Errorf("Cancel of an interrupted task = %v, want Conflict", err)
	}
}

func TestStopCancelsRunningTasks(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(false)
	f.s.Register("work", p.run)
	f.schedule(t, db.Schedule{Name: "job", ProcessName: "work", Type: db.ScheduleInterval, RepeatSeconds: 60, Enabled: true})
	f.start(t)
	f.advance(t, time.Minute)
	r := recv(t, p.started, "the run")
	f.s.Stop(t.Context())
	rec, _ := f.s.Task(t.Context(), r.TaskID)
	if rec.State != db.TaskCancelled || rec.Reason != ReasonShutdown {
		t.Errorf("task after Stop = %+v, want Cancelled: %s", rec, ReasonShutdown)
	}
	f.advance(t, time.Hour)
	if n := len(f.tasks(t, "job")); n != 1 {
		t.Errorf("%d tasks after Stop and an hour, want 1", n)
	}
	f.s.Stop(t.Context()) // again: nothing
}

func TestEnableDisableTakesEffect(t *testing.T) {
	tests := []struct {
		name   string
		reload time.Duration
		apply  func(f *fixture, t *testing.T) // makes the scheduler see the change
	}{
		{name: "notified", reload: time.Hour, apply: func(f *fixture, t *testing.T) { f.s.Notify(); f.s.pass(t.Context()) }},
		{name: "polled", reload: time.Second, apply: func(f *fixture, t *testing.T) { f.advance(t, time.Second) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.reload)
			p := newProc(true)
			f.s.Register("work", p.run)
			sc := f.schedule(t, db.Schedule{Name: "job", ProcessName: "work", Type: db.ScheduleInterval, RepeatSeconds: 600, Enabled: false})
			f.start(t)
			f.s.pass(t.Context())
			if n := len(f.tasks(t, "job")); n != 0 {
				t.Fatalf("a disabled schedule ran %d times", n)
			}
			if _, _, err := f.d.SetScheduleEnabled(t.Context(), sc.ID, true); err != nil {
				t.Fatal(err)
			}
			tc.apply(f, t)
			f.waitTask(t, recv(t, p.started, "the run at enabling").TaskID)
			// Disabling and enabling again between two reads still counts
			// as a change: the schedule runs at once again.
			if _, _, err := f.d.SetScheduleEnabled(t.Context(), sc.ID, false); err != nil {
				t.Fatal(err)
			}
			if _, _, err := f.d.SetScheduleEnabled(t.Context(), sc.ID, true); err != nil {
				t.Fatal(err)
			}
			tc.apply(f, t)
			f.waitTask(t, recv(t, p.started, "the run at re-enabling").TaskID)
			if _, _, err := f.d.SetScheduleEnabled(t.Context(), sc.ID, false); err != nil {
				t.Fatal(err)
			}
			tc.apply(f, t)
			f.advance(t, time.Hour)
			if n := len(f.tasks(t, "job")); n != 2 {
				t.Errorf("%d runs, want 2 (none after disabling)", n)
			}
		})
	}
}

func TestCreateUpdateEnsure(t *testing.T) {
	f := newFixture(t, time.Hour)
	ctx := t.Context()
	invalid := []struct {
		name string
		sc   db.Schedule
		want string
	}{
		{name: "no name", sc: db.Schedule{ProcessName: "p", Type: db.ScheduleManual}, want: "name is empty"},
		{name: "no process", sc: db.Schedule{Name: "x", Type: db.ScheduleManual}, want: "names no process"},
		{name: "interval without repeat", sc: db.Schedule{Name: "x", ProcessName: "p", Type: db.ScheduleInterval}, want: "repeat"},
		{name: "timed without time", sc: db.Schedule{Name: "x", ProcessName: "p", Type: db.ScheduleTimed}, want: "time of day"},
		{name: "timed bad day", sc: db.Schedule{Name: "x", ProcessName: "p", Type: db.ScheduleTimed, TimeOfDay: ptr(0), Day: ptr(8)}, want: "day 8"},
		{name: "startup", sc: db.Schedule{Name: "x", ProcessName: "p", Type: db.ScheduleStartup}, want: "belongs to a service"},
		{name: "unknown type", sc: db.Schedule{Name: "x", ProcessName: "p", Type: "WEEKLY"}, want: "WEEKLY"},
	}
	for _, tc := range invalid {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.s.Create(ctx, tc.sc)
			if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Create = %v, want Invalid naming %q", err, tc.want)
			}
		})
	}

	seed := db.Schedule{Name: "stats collection", ProcessName: "stats collector", Type: db.ScheduleInterval, RepeatSeconds: 15, Exclusive: true, Enabled: true}
	created, err := f.s.Ensure(ctx, seed)
	if err != nil || created.ID == "" || created.RepeatSeconds != 15 {
		t.Fatalf("Ensure (create) = %+v, %v", created, err)
	}
	if _, err := f.s.Create(ctx, seed); !errors.Is(err, fault.Conflict) {
		t.Errorf("Create of an existing name = %v, want Conflict", err)
	}
	if _, _, err := f.d.SetScheduleEnabled(ctx, created.ID, false); err != nil { // the operator disables it
		t.Fatal(err)
	}
	again, err := f.s.Ensure(ctx, seed)
	if err != nil || again.ID != created.ID || again.Enabled {
		t.Errorf("Ensure (unchanged) = %+v, %v; want the same, still disabled", again, err)
	}
	seed.RepeatSeconds = 1
	changed, err := f.s.Ensure(ctx, seed)
	if err != nil || changed.RepeatSeconds != 1 || changed.Enabled {
		t.Errorf("Ensure (new repeat) = %+v, %v; want repeat 1, still disabled", changed, err)
	}
	if got, want := f.audit.sources(), []string{"SCHAD", "SCHCH"}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("audit = %v, want %v (one addition, one change)", got, want)
	}

	svc := f.schedule(t, db.Schedule{Name: "sine", ProcessName: "south_c", Type: db.ScheduleStartup, Enabled: true})
	if _, err := f.s.Update(ctx, db.Schedule{ID: svc.ID, Name: "sine", ProcessName: "p", Type: db.ScheduleManual}); !errors.Is(err, fault.Invalid) {
		t.Errorf("Update of a service's schedule = %v, want Invalid", err)
	}
	if _, err := f.s.Update(ctx, db.Schedule{ID: uuid.NewString(), Name: "x", ProcessName: "p", Type: db.ScheduleManual}); !errors.Is(err, fault.NotFound) {
		t.Errorf("Update of an unknown schedule = %v, want NotFound", err)
	}
}

// TestCreatedWhileRunningRunsAtOnce checks that a schedule created while
// the scheduler runs starts at once, then keeps its interval.
func TestCreatedWhileRunningRunsAtOnce(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(true)
	f.s.Register("north", p.run)
	f.start(t)
	f.advance(t, 5*time.Second)
	sc, err := f.s.Create(t.Context(), db.Schedule{Name: "to-cloud", ProcessName: "north", Type: db.ScheduleInterval,
		RepeatSeconds: 30, Exclusive: true, Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	r := recv(t, p.started, "the run at creation")
	if r.Schedule != sc.Name || !r.Started.Equal(monday.Add(5*time.Second)) {
		t.Errorf("run at creation = %+v", r)
	}
	f.waitTask(t, r.TaskID)
	f.advance(t, 30*time.Second)
	if r := recv(t, p.started, "the run 30 s later"); !r.Started.Equal(monday.Add(35 * time.Second)) {
		t.Errorf("second run at %v, want 35 s", r.Started)
	}
	if got := f.audit.sources(); len(got) != 1 || got[0] != "SCHAD" {
		t.Errorf("audit = %v, want one SCHAD", got)
	}
}

// TestStartupSchedulesAreNotRun checks that the scheduler leaves services'
// schedules to the service runtime.
func TestStartupSchedulesAreNotRun(t *testing.T) {
	f := newFixture(t, time.Hour)
	p := newProc(true)
	f.s.Register("south_c", p.run)
	f.schedule(t, db.Schedule{Name: "sine", ProcessName: "south_c", Type: db.ScheduleStartup, Enabled: true})
	f.start(t)
	f.advance(t, time.Hour)
	if n := len(f.tasks(t, "")); n != 0 {
		t.Errorf("the scheduler ran a STARTUP schedule %d times", n)
	}
}

func TestTaskQueries(t *testing.T) {
	f := newFixture(t, time.Hour)
	ctx := t.Context()
	for i, st := range []string{db.TaskComplete, db.TaskCancelled, db.TaskComplete} {
		if err := f.d.InsertTask(ctx, db.Task{ID: uuid.NewString(), Name: "purge", ProcessName: "purge", State: st,
			StartTime: monday.Add(time.Duration(i) * time.Minute), EndTime: monday.Add(time.Duration(i) * time.Minute)}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name    string
		f       Filter
		want    int
		wantErr *fault.Kind
	}{
		{name: "state in lower case", f: Filter{State: "complete"}, want: 2},
		{name: "state in upper case", f: Filter{State: "CANCELLED"}, want: 1},
		{name: "name in another case", f: Filter{Name: "Purge", Limit: 2}, want: 2},
		{name: "unknown state", f: Filter{State: "done"}, wantErr: fault.Invalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := f.s.Tasks(ctx, tc.f)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Errorf("Tasks = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil || len(got) != tc.want {
				t.Errorf("Tasks(%+v) = %d tasks, %v; want %d", tc.f, len(got), err, tc.want)
			}
			latest, err := f.s.LatestTasks(ctx, tc.f)
			if err != nil || len(latest) != 1 {
				t.Errorf("LatestTasks(%+v) = %d tasks, %v; want 1", tc.f, len(latest), err)
			}
		})
	}
	if _, err := f.s.Task(ctx, uuid.NewString()); !errors.Is(err, fault.NotFound) {
		t.Errorf("Task unknown = %v, want NotFound", err)
	}
}
