package app

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"sync/atomic"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/purge"
	"github.com/edged/edged/internal/scheduler"
	"github.com/edged/edged/internal/stats"
)

// The gateway's own schedules (decisions §5) and their processes.
const (
	schedulePurge       = "purge"
	scheduleStats       = "stats collection"
	schedulePurgeSystem = "purge system"

	processPurge       = "purge"
	processStats       = "stats collector"
	processPurgeSystem = "purge_system"

	// purgeEvery is the purge schedule's interval, in seconds.
	purgeEvery = 600
	// purgeSystemAt is when the daily system purge runs, in seconds after
	// midnight UTC.
	purgeSystemAt = 0
	// backupAt is when the daily automatic backup runs, in seconds after
	// midnight UTC.
	backupAt = 3600
)

// tasks is the scheduler with the gateway's own processes: purge, stats
// collection and purge system.
type tasks struct {
	sched    *scheduler.Scheduler
	history  *stats.History
	purger   *purge.Purger
	config   *configmgr.Manager
	log      *slog.Logger
	safeMode bool
	unsub    func()
	// backupSchedule is the id of the backup schedule, known once seeded.
	backupSchedule atomic.Value // string
}

// newTasks wires the scheduler and the processes over store (the purges
// over purgeStore, which tells the in-memory counters what they count);
// flush writes the in-memory ingest counters (nil: none). Nothing runs
// until start.
func newTasks(store *db.DB, purgeStore purge.Store, config *configmgr.Manager, auditLog *audit.Logger, log *slog.Logger,
	flush func(context.Context) error, safeMode bool) *tasks {
	clk := clock.Real{}
	t := &tasks{
		sched: scheduler.New(scheduler.Options{Store: store, Config: config, Audit: auditLog, Clock: clk,
			Logger: log.With("component", "scheduler")}),
		history: stats.NewHistory(stats.HistoryOptions{Store: store, Config: config, Clock: clk, Logger: log, Flush: flush}),
		purger:  purge.New(purge.Options{Store: purgeStore, Config: config, Audit: auditLog, Clock: clk, Logger: log}),
		config:  config, log: log, safeMode: safeMode,
	}
	t.sched.Register(processPurge, func(ctx context.Context, _ scheduler.Run) error {
		_, err := t.purger.Readings(ctx)
		return err
	})
	t.sched.Register(processStats, func(ctx context.Context, _ scheduler.Run) error {
		return t.history.Collect(ctx)
	})
	t.sched.Register(processPurgeSystem, func(ctx context.Context, _ scheduler.Run) error {
		_, err := t.purger.System(ctx)
		return err
	})
	return t
}

// statsSchedule is the stats collection schedule repeating every interval
// seconds.
func statsSchedule(interval int64) db.Schedule {
	return db.Schedule{Name: scheduleStats, ProcessName: processStats, Type: db.ScheduleInterval,
		RepeatSeconds: interval, Exclusive: true, Enabled: true}
}

// seed makes sure the gateway's schedules exist (SCHAD at first start),
// the stats collection schedule repeating every STATISTICS.interval.
func (t *tasks) seed(ctx context.Context) error {
	interval, err := t.history.Interval(ctx)
	if err != nil {
		return err
	}
	midnight, at := purgeSystemAt, backupAt
	for _, sc := range []db.Schedule{
		{Name: schedulePurge, ProcessName: processPurge, Type: db.ScheduleInterval, RepeatSeconds: purgeEvery, Exclusive: true, Enabled: true},
		statsSchedule(int64(interval)),
		{Name: schedulePurgeSystem, ProcessName: processPurgeSystem, Type: db.ScheduleTimed, TimeOfDay: &midnight, Exclusive: true, Enabled: true},
		{Name: backup.ScheduleName, ProcessName: backup.ProcessName, Type: db.ScheduleTimed, TimeOfDay: &at, Exclusive: true, Enabled: true},
	} {
		saved, err := t.sched.Ensure(ctx, sc)
		if err != nil {
			return fmt.Errorf("seed schedule %q: %w", sc.Name, err)
		}
		if sc.Name == backup.ScheduleName {
			t.backupSchedule.Store(saved.ID)
		}
	}
	return nil
}

// triggerBackup starts a run of the backup schedule now.
func (t *tasks) triggerBackup(ctx context.Context) (string, error) {
	id, _ := t.backupSchedule.Load().(string)
	if id == "" {
		return "", fault.New(fault.Unavailable, "the backup schedule is not ready yet")
	}
	return t.sched.Trigger(ctx, id)
}

// start starts the scheduler unless in safe mode (seed first), with the
// stats collection schedule following changes of STATISTICS.interval. In
// safe mode it only marks the tasks a crash cut short Interrupted.
func (t *tasks) start(ctx context.Context) error {
	if t.safeMode {
		t.log.Info("safe mode: the scheduler is not started")
		return t.sched.InterruptStale(ctx)
	}
	t.unsub = t.config.Subscribe(configmgr.CategoryStatistics, func(ctx context.Context, c configmgr.Category) error {
		n, err := strconv.ParseInt(c.Items[configmgr.ItemStatisticsInterval].Value, 10, 64)
		if err != nil || n < 1 {
			return fmt.Errorf("STATISTICS.interval %q is not a positive integer", c.Items[configmgr.ItemStatisticsInterval].Value)
		}
		_, err = t.sched.Ensure(ctx, statsSchedule(n))
		return err
	})
	return t.sched.Start(ctx)
}

// stop stops the scheduler: running tasks are cancelled and recorded so.
func (t *tasks) stop(ctx context.Context) {
	if t.unsub != nil {
		t.unsub()
	}
	t.sched.Stop(ctx)
}
