// Package scheduler runs the gateway's task schedules and keeps the record
// of every task they start.
//
// A schedule (table schedules, [db.Schedule]) names a process and when to
// run it:
//
//   - INTERVAL: every RepeatSeconds, keeping that cadence. At gateway
//     start the first run is one interval after start (a gateway back
//     after a long stop does not purge at once, before north has had a
//     chance to send); a schedule created, enabled or changed while the
//     gateway runs runs at once. Runs that fall due while the gateway is
//     down are not caught up.
//   - TIMED: at TimeOfDay seconds after midnight UTC, every day or only on
//     weekday Day (1 Monday .. 7 Sunday).
//   - MANUAL: only when started through [Scheduler.Trigger].
//   - STARTUP: never by the scheduler. These are the services' schedules;
//     the service runtime starts a service whose STARTUP schedule is
//     enabled.
//
// A disabled schedule does not run. An exclusive schedule does not start a
// run while one of its runs is still going: that occurrence is skipped. At
// most SCHEDULER.max_running_tasks tasks run at once; a run that falls due
// beyond that waits for a free slot. The scheduler re-reads the schedules
// every Options.Reload (one second by default) and at once after
// [Scheduler.Notify], so enabling or disabling a schedule through the
// service runtime's schedule operations takes effect without a restart.
//
// Each run is a task: a row in table tasks with a new UUID, the schedule's
// name, the process name, its state, start and end times, exit code,
// reason and the gateway's own process id (processes run in-process, as
// goroutines). A process that returns nil ends Complete with exit code 0;
// one that returns an error or panics ends Complete with exit code 1 and
// the error as reason; one cancelled ([Scheduler.Cancel], or the gateway
// stopping) ends Cancelled, without an exit code. Tasks found Running when
// the scheduler starts were cut short by a crash: they are marked
// Interrupted.
//
// # Using the scheduler from other packages (north tasks and the like)
//
// Register a process under a name, then create a schedule that runs it:
//
//	sched.Register("north", func(ctx context.Context, run scheduler.Run) error {
//		// run.Schedule names the schedule (e.g. the north task's name);
//		// return promptly once ctx is cancelled, having saved progress.
//		return sendNorth(ctx, run.Schedule)
//	})
//	s, err := sched.Create(ctx, db.Schedule{Name: "to-cloud", ProcessName: "north",
//		Type: db.ScheduleInterval, RepeatSeconds: 30, Exclusive: true, Enabled: true})
//
// Create writes SCHAD; [Scheduler.Update] changes a schedule's timing and
// writes SCHCH; enabling and disabling stays with the service runtime's
// SetScheduleEnabled, which writes SCHCH itself. After changing the
// schedules table by other means (e.g. deleting a service and its
// schedule), call [Scheduler.Notify]. A process registered after Start is
// used from its next run; a schedule whose process is not registered runs
// as a task that fails at once, so the omission shows in the task list.
package scheduler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
)

// Store is the storage the scheduler needs; *db.DB implements it.
type Store interface {
	ListSchedules(ctx context.Context) ([]db.Schedule, error)
	GetSchedule(ctx context.Context, id string) (db.Schedule, error)
	GetScheduleByName(ctx context.Context, name string) (db.Schedule, error)
	CreateSchedule(ctx context.Context, s db.Schedule) (db.Schedule, error)
	UpdateSchedule(ctx context.Context, s db.Schedule) (db.Schedule, bool, error)
	InsertTask(ctx context.Context, t db.Task) error
	FinishTask(ctx context.Context, id, state string, end time.Time, exitCode *int, reason string) (bool, error)
	GetTask(ctx context.Context, id string) (db.Task, error)
	ListTasks(ctx context.Context, f db.TaskFilter) ([]db.Task, error)
	ListLatestTasks(ctx context.Context, f db.TaskFilter) ([]db.Task, error)
	InterruptRunningTasks(ctx context.Context, at time.Time, reason string) (int64, error)
}

// Config is the configuration the scheduler reads (SCHEDULER); nil means
// the default limit of running tasks. *configmgr.Manager implements it.
type Config interface {
	Value(ctx context.Context, key, item string) (string, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Run describes the task a Process performs.
type Run struct {
	TaskID   string    // the task's id
	Schedule string    // the name of the schedule that started it (the task name)
	Process  string    // the process name
	Started  time.Time // the task's start time
}

// Process is the work of a task. It must return once ctx is cancelled;
// a nil result completes the task, an error fails it.
type Process func(ctx context.Context, run Run) error

// Options configure a Scheduler.
type Options struct {
	Store  Store
	Config Config // optional
	Audit  Auditor
	Clock  clock.Clock
	Logger *slog.Logger
	// Reload is how often the schedules are re-read (default 1 s).
	Reload time.Duration
	// StopGrace bounds how long Cancel and Stop wait for a process to
	// return after cancelling it (default 10 s); beyond it the task is
	// recorded Cancelled anyway.
	StopGrace time.Duration
	// PID is recorded in every task (default: this process's id).
	PID int
}

// DefaultMaxRunning is the limit of running tasks without configuration.
const DefaultMaxRunning = 15

// Reasons recorded in tasks.
const (
	ReasonCancelled   = "cancelled through the API"
	ReasonShutdown    = "the gateway shut down"
	ReasonInterrupted = "the gateway stopped while the task was running"
)

// Audit sources and severity the scheduler writes.
const (
	auditSchedAdded   = auditcode.ScheduleAdded
	auditSchedChanged = auditcode.ScheduleChanged
)

// Scheduler runs task schedules. It is safe for concurrent use.
type Scheduler struct {
	o   Options
	log *slog.Logger

	wake chan struct{} // cap 1: something changed; the loop makes a pass

	// passMu serialises passes (the loop's, and a test's), so that a pass
	// computes its next wake-up from the schedules the other applied; it
	// is held across storage calls, which is why it is not mu.
	passMu sync.Mutex

	mu         sync.Mutex         // guards every field below
	procs      map[string]Process // by process name
	entries    map[string]*entry  // by schedule id
	tasks      map[string]*task   // running tasks by id
	running    int                // len(tasks)
	maxRunning int
	dirty      bool // schedules must be re-read at the next pass
	loaded     bool // the schedules were read once since Start
	reloadAt   time.Time
	base       context.Context // parent of every task's context; set by Start
	stop       context.CancelFunc
	loopDone   chan struct{}
	unsub      func()
	stopped    bool
}

// entry is the scheduler's view of one schedule.
type entry struct {
	s       db.Schedule
	next    time.Time // when it is due; zero: not armed
	running int       // its tasks running now
}

// task is a running task.
type task struct {
	id     string
	e      *entry
	ctx    context.Context // the process's; cancelled with a cause
	cancel context.CancelCauseFunc
	done   chan struct{} // closed once its record is final

	mu     sync.Mutex // guards reason
	reason string     // why it was cancelled; "" while not
}

func (t *task) cancelWith(reason string) {
	t.mu.Lock()
	if t.reason == "" {
		t.reason = reason
	}
	t.mu.Unlock()
	t.cancel(errors.New(reason))
}

func (t *task) cancelReason() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.reason
}

// New returns a Scheduler; Register processes and call Start.
func New(o Options) *Scheduler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Reload <= 0 {
		o.Reload = time.Second
	}
	if o.StopGrace <= 0 {
		o.StopGrace = 10 * time.Second
	}
	if o.PID == 0 {
		o.PID = os.Getpid()
	}
	return &Scheduler{o: o, log: o.Logger, wake: make(chan struct{}, 1),
		procs: map[string]Process{}, entries: map[string]*entry{}, tasks: map[string]*task{},
		maxRunning: DefaultMaxRunning, dirty: true, base: context.Background()}
}

// Register makes p the process named name; a later registration of the
// same name replaces it (for runs started after).
func (s *Scheduler) Register(name string, p Process) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.procs[name] = p
}

// Notify makes the scheduler re-read the schedules now, for a caller that
// changed the schedules table.
func (s *Scheduler) Notify() {
	s.mu.Lock()
	s.dirty = true
	s.mu.Unlock()
	s.poke()
}

// poke wakes the loop without blocking.
func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// InterruptStale marks the tasks recorded Running as Interrupted: none can
// be running before the scheduler starts, so they were cut short when the
// gateway stopped without ending them. Start calls it; call it directly
// when the scheduler is not started (safe mode).
func (s *Scheduler) InterruptStale(ctx context.Context) error {
	n, err := s.o.Store.InterruptRunningTasks(ctx, s.o.Clock.Now(), ReasonInterrupted)
	if err != nil {
		return fmt.Errorf("scheduler: %w", err)
	}
	if n > 0 {
		s.log.Warn("tasks interrupted by an unclean stop are marked Interrupted", "tasks", n)
	}
	return nil
}

// Start marks stale tasks Interrupted, reads SCHEDULER.max_running_tasks
// (following its changes) and starts running the schedules. Tasks live
// until Stop, not until ctx ends.
func (s *Scheduler) Start(ctx context.Context) error {
	if err := s.InterruptStale(ctx); err != nil {
		return err
	}
	if s.o.Config != nil {
		if v, err := s.o.Config.Value(ctx, configmgr.CategoryScheduler, configmgr.ItemMaxRunningTasks); err == nil {
			s.setMaxRunning(v)
		} else {
			s.log.Warn("scheduler: max_running_tasks not read; using the default", "error", err, "default", DefaultMaxRunning)
		}
		unsub := s.o.Config.Subscribe(configmgr.CategoryScheduler, func(_ context.Context, c configmgr.Category) error {
			if it, ok := c.Items[configmgr.ItemMaxRunningTasks]; ok {
				s.setMaxRunning(it.Value)
				s.poke()
			}
			return nil
		})
		s.mu.Lock()
		s.unsub = unsub
		s.mu.Unlock()
	}
	// Tasks end through their own cancellation only, so that Stop can
	// record why; the loop ends with Stop.
	base := context.WithoutCancel(ctx)
	loopCtx, cancel := context.WithCancel(base)
	s.mu.Lock()
	s.base, s.stop, s.loopDone = base, cancel, make(chan struct{})
	s.mu.Unlock()
	go s.loop(loopCtx)
	return nil
}

// setMaxRunning sets the limit of running tasks from a configuration value;
// a value that is not a positive integer keeps the current limit.
func (s *Scheduler) setMaxRunning(v string) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		s.log.Warn("scheduler: ignoring an invalid max_running_tasks", "value", v)
		return
	}
	s.mu.Lock()
	s.maxRunning = n
	s.mu.Unlock()
}

// Stop stops starting tasks, cancels the running ones (recorded Cancelled,
// reason "the gateway shut down") and waits for them, at most StopGrace or
// until ctx ends. It is safe to call more than once, and without Start.
func (s *Scheduler) Stop(ctx context.Context) {
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return
	}
	s.stopped = true
	stop, loopDone, unsub := s.stop, s.loopDone, s.unsub
	s.mu.Unlock()
	if unsub != nil {
		unsub()
	}
	if stop != nil {
		stop()
		<-loopDone
	}
	s.mu.Lock()
	running := make([]*task, 0, len(s.tasks))
	for _, t := range s.tasks {
		running = append(running, t)
	}
	s.mu.Unlock()
	for _, t := range running {
		t.cancelWith(ReasonShutdown)
	}
	grace := s.o.Clock.NewTimer(s.o.StopGrace)
	defer grace.Stop()
	for _, t := range running {
		select {
		case <-t.done:
			continue
		case <-grace.C():
		case <-ctx.Done():
		}
		// Out of time: record every task left as cancelled.
		for _, left := range running {
			s.forceCancelled(context.WithoutCancel(ctx), left, ReasonShutdown)
		}
		return
	}
}

// forceCancelled records t Cancelled when its process has not returned in
// time; the process's own end later changes nothing.
func (s *Scheduler) forceCancelled(ctx context.Context, t *task, reason string) {
	select {
	case <-t.done:
		return
	default:
	}
	if _, err := s.o.Store.FinishTask(ctx, t.id, db.TaskCancelled, s.o.Clock.Now(), nil, reason); err != nil {
		s.log.Error("scheduler: task not recorded cancelled", "task", t.id, "error", err)
	}
	s.log.Warn("scheduler: a cancelled process did not return in time", "task", t.id, "schedule", t.e.s.Name)
}

// loop makes a pass whenever a run falls due, the schedules are to be
// re-read, or something pokes it, until ctx ends.
func (s *Scheduler) loop(ctx context.Context) {
	defer close(s.loopDone)
	for {
		wakeAt := s.pass(ctx)
		timer := s.o.Clock.NewTimer(wakeAt.Sub(s.o.Clock.Now()))
		select {
		case <-ctx.Done():
			timer.Stop()
			return
		case <-timer.C():
		case <-s.wake:
			timer.Stop()
		}
	}
}

// pass re-reads the schedules when due, starts every run that is due and
// may start, and returns when the next pass is needed. Storage is read and
// written outside s.mu (the schedules read, the tasks recorded), so that
// Cancel, Trigger and the tasks' own ends never wait behind storage, e.g.
// SQLite's single writer busy with a large ingest batch.
func (s *Scheduler) pass(ctx context.Context) time.Time {
	s.passMu.Lock()
	defer s.passMu.Unlock()
	now := s.o.Clock.Now()
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		return now.Add(s.o.Reload)
	}
	reload := s.dirty || !now.Before(s.reloadAt)
	if reload {
		// A Notify from here on sets dirty again: the next pass reads
		// what this read may have missed.
		s.dirty = false
		s.reloadAt = now.Add(s.o.Reload)
	}
	s.mu.Unlock()

	if reload {
		all, err := s.o.Store.ListSchedules(ctx)
		if err != nil {
			if ctx.Err() == nil {
				s.log.Error("scheduler: schedules not read; keeping the last known", "error", err)
			}
		} else {
			s.mu.Lock()
			s.apply(all, now)
			s.mu.Unlock()
		}
	}

	s.mu.Lock()
	starts := s.dueLocked(now)
	wakeAt := s.reloadAt
	for _, e := range s.entries {
		if !e.next.IsZero() && e.next.Before(wakeAt) {
			wakeAt = e.next
		}
	}
	s.mu.Unlock()
	for _, t := range starts {
		if _, err := s.launch(ctx, t, now); err != nil && ctx.Err() == nil {
			s.log.Error("scheduler: task not started", "schedule", t.e.s.Name, "error", err)
		}
	}
	return wakeAt
}

// apply takes in the schedules as read; s.mu is held. At the first read
// the schedules resume (an INTERVAL schedule first runs one interval after
// start); later, a new schedule, or one whose row changed, is armed afresh
// (an INTERVAL schedule runs at once); a deleted one is forgotten (its
// running tasks go on).
func (s *Scheduler) apply(all []db.Schedule, now time.Time) {
	seen := make(map[string]bool, len(all))
	for _, sc := range all {
		seen[sc.ID] = true
		e := s.entries[sc.ID]
		switch {
		case e == nil && !s.loaded:
			s.entries[sc.ID] = &entry{s: sc, next: resumeRun(sc, now)}
		case e == nil:
			s.entries[sc.ID] = &entry{s: sc, next: firstRun(sc, now)}
		case !e.s.UpdatedAt.Equal(sc.UpdatedAt) || e.s.Enabled != sc.Enabled:
			e.s, e.next = sc, firstRun(sc, now)
		default:
			e.s = sc
		}
	}
	s.loaded = true
	for id, e := range s.entries {
		if !seen[id] {
			delete(s.entries, id)
			e.next = time.Time{}
		}
	}
}

// dueLocked reserves the due runs that may start, oldest due first, and
// returns their tasks, to be launched once s.mu is released; s.mu is
// held.
func (s *Scheduler) dueLocked(now time.Time) []*task {
	var due []*entry
	for _, e := range s.entries {
		if !e.next.IsZero() && !e.next.After(now) {
			due = append(due, e)
		}
	}
	slices.SortFunc(due, func(a, b *entry) int {
		if c := a.next.Compare(b.next); c != 0 {
			return c
		}
		return strings.Compare(a.s.Name, b.s.Name)
	})
	var starts []*task
	for _, e := range due {
		if e.s.Exclusive && e.running > 0 {
			s.log.Debug("scheduler: exclusive schedule still running; this run is skipped", "schedule", e.s.Name)
			e.next = nextRun(e.s, e.next, now)
			continue
		}
		if s.running >= s.maxRunning {
			s.log.Debug("scheduler: max_running_tasks reached; due runs wait", "running", s.running)
			break
		}
		starts = append(starts, s.reserveLocked(e))
		e.next = nextRun(e.s, e.next, now)
	}
	return starts
}

// reserveLocked counts a new task of e as running, so that limits and
// exclusivity hold while it is recorded, and returns it; s.mu is held.
// launch records and starts it.
func (s *Scheduler) reserveLocked(e *entry) *task {
	t := &task{id: uuid.NewString(), e: e, done: make(chan struct{})}
	t.ctx, t.cancel = context.WithCancelCause(s.base)
	s.tasks[t.id] = t
	s.running++
	e.running++
	return t
}

// launch records the reserved task t and starts its process; s.mu is not
// held. When the record cannot be written the reservation is undone.
func (s *Scheduler) launch(ctx context.Context, t *task, now time.Time) (string, error) {
	e := t.e
	rec := db.Task{ID: t.id, Name: e.s.Name, ProcessName: e.s.ProcessName, State: db.TaskRunning,
		StartTime: now, PID: s.o.PID}
	if err := s.o.Store.InsertTask(ctx, rec); err != nil {
		s.mu.Lock()
		delete(s.tasks, t.id)
		s.running--
		e.running--
		s.mu.Unlock()
		t.cancel(nil)
		close(t.done)
		return "", fmt.Errorf("scheduler: record task of %q: %w", e.s.Name, err)
	}
	s.mu.Lock()
	proc := s.procs[e.s.ProcessName]
	s.mu.Unlock()
	run := Run{TaskID: t.id, Schedule: e.s.Name, Process: e.s.ProcessName, Started: rec.StartTime}
	s.log.Debug("task started", "task", t.id, "schedule", e.s.Name, "process", e.s.ProcessName)
	go s.execute(t.ctx, t, proc, run)
	return t.id, nil
}

// execute runs proc for t and records how it ended.
func (s *Scheduler) execute(ctx context.Context, t *task, proc Process, run Run) {
	err := s.protect(ctx, proc, run)
	state, reason := db.TaskComplete, ""
	var code *int
	switch cancelled := t.cancelReason(); {
	case cancelled != "":
		state, reason = db.TaskCancelled, cancelled
	case err != nil:
		one := 1
		code, reason = &one, err.Error()
	default:
		zero := 0
		code = &zero
	}
	end := s.o.Clock.Now()
	if _, ferr := s.o.Store.FinishTask(context.WithoutCancel(ctx), t.id, state, end, code, reason); ferr != nil {
		s.log.Error("scheduler: task end not recorded", "task", t.id, "schedule", run.Schedule, "error", ferr)
	}
	if err != nil && state == db.TaskComplete {
		s.log.Warn("task failed", "task", t.id, "schedule", run.Schedule, "error", err)
	} else {
		s.log.Debug("task ended", "task", t.id, "schedule", run.Schedule, "state", state)
	}
	s.mu.Lock()
	delete(s.tasks, t.id)
	s.running--
	t.e.running--
	s.mu.Unlock()
	t.cancel(nil)
	close(t.done)
	s.poke()
}

// protect calls proc, turning a missing process and a panic into errors.
func (s *Scheduler) protect(ctx context.Context, proc Process, run Run) (err error) {
	if proc == nil {
		return fmt.Errorf("no process named %q is registered", run.Process)
	}
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("process %q panicked: %v", run.Process, p)
			s.log.Error("task panic", "task", run.TaskID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	return proc(ctx, run)
}

// Trigger starts a run of the schedule id now, whatever its type and
// enabled flag, and returns the new task's id. Unknown schedule: NotFound;
// an exclusive schedule already running: Conflict; max_running_tasks
// reached or the scheduler not running: Unavailable.
func (s *Scheduler) Trigger(ctx context.Context, id string) (string, error) {
	sc, err := s.o.Store.GetSchedule(ctx, id)
	if errors.Is(err, db.ErrNotFound) {
		return "", fault.New(fault.NotFound, "schedule with id %s not found", id)
	}
	if err != nil {
		return "", fmt.Errorf("scheduler: %w", err)
	}
	s.mu.Lock()
	if s.stop == nil || s.stopped {
		s.mu.Unlock()
		return "", fault.New(fault.Unavailable, "the scheduler is not running")
	}
	e := s.entries[id]
	if e == nil {
		e = &entry{s: sc}
		s.entries[id] = e
	}
	if e.s.Exclusive && e.running > 0 {
		s.mu.Unlock()
		return "", fault.New(fault.Conflict, "schedule %q is exclusive and already running", sc.Name)
	}
	if s.running >= s.maxRunning {
		running := s.running
		s.mu.Unlock()
		return "", fault.New(fault.Unavailable, "%d tasks are running, the most allowed (SCHEDULER.max_running_tasks)", running)
	}
	t := s.reserveLocked(e)
	s.mu.Unlock()
	return s.launch(ctx, t, s.o.Clock.Now())
}

// Cancel stops the running task id through its context and records it
// Cancelled (reason "cancelled through the API"); it waits for the process
// to return, at most StopGrace. Unknown task: NotFound; a task that is not
// running, or ended before the cancellation reached it: Conflict.
func (s *Scheduler) Cancel(ctx context.Context, id string) error {
	s.mu.Lock()
	t := s.tasks[id]
	s.mu.Unlock()
	if t == nil {
		rec, err := s.Task(ctx, id)
		if err != nil {
			return err
		}
		if rec.State == db.TaskRunning {
			return fault.New(fault.Conflict, "task %s is not running in this gateway", id)
		}
		return fault.New(fault.Conflict, "task %s is not running; it is %s", id, rec.State)
	}
	t.cancelWith(ReasonCancelled)
	grace := s.o.Clock.NewTimer(s.o.StopGrace)
	defer grace.Stop()
	select {
	case <-t.done:
	case <-grace.C():
		s.forceCancelled(context.WithoutCancel(ctx), t, ReasonCancelled)
	case <-ctx.Done():
		s.forceCancelled(context.WithoutCancel(ctx), t, ReasonCancelled)
	}
	rec, err := s.Task(context.WithoutCancel(ctx), id)
	if err != nil {
		return err
	}
	if rec.State != db.TaskCancelled {
		return fault.New(fault.Conflict, "task %s ended %s before it could be cancelled", id, rec.State)
	}
	s.log.Info("task cancelled", "task", id, "schedule", rec.Name)
	return nil
}
