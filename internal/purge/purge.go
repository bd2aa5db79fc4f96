// Package purge holds the gateway's two purge processes: "purge", which
// removes buffered readings by age and by count (PURGE_READ), keeping
// unsent readings when told to, and "purge system", which trims the audit
// trail, the statistics history and the finished tasks to their retention
// periods. Both delete in short transactions of bounded size, so ingest and
// the API carry on while they run.
package purge

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/stats"
)

// Store is the storage the purges need; *db.DB implements it.
type Store interface {
	PurgeReadings(ctx context.Context, p db.PurgePolicy) (db.PurgeResult, error)
	AddStatistics(ctx context.Context, deltas map[string]int64) error
	DeleteAudit(ctx context.Context, before time.Time) (int64, error)
	DeleteStatisticsHistory(ctx context.Context, before time.Time) (int64, error)
	DeleteFinishedTasks(ctx context.Context, before time.Time) (int64, error)
}

// Config reads configuration items; *configmgr.Manager implements it.
type Config interface {
	Value(ctx context.Context, key, item string) (string, error)
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Options configure a Purger.
type Options struct {
	Store  Store
	Config Config
	Audit  Auditor
	Clock  clock.Clock
	Logger *slog.Logger
}

// Purger runs the purges. It is safe for concurrent use.
type Purger struct {
	o   Options
	log *slog.Logger
}

// New returns a Purger.
func New(o Options) *Purger {
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Purger{o: o, log: o.Logger}
}

// Audit sources and severities the purges write.
const (
	auditPurge       = auditcode.Purge
	auditSystemPurge = auditcode.SystemPurge
)

// intItem reads a non-negative integer item of category.
func (p *Purger) intItem(ctx context.Context, category, item string) (int64, error) {
	v, err := p.o.Config.Value(ctx, category, item)
	if err != nil {
		return 0, fmt.Errorf("read %s.%s: %w", category, item, err)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s.%s %q is not a non-negative integer", category, item, v)
	}
	return n, nil
}

// policy reads PURGE_READ: age (hours, 0 = no age limit), size (rows, 0 =
// no size limit) and retainUnsent.
func (p *Purger) policy(ctx context.Context, now time.Time) (db.PurgePolicy, error) {
	age, err := p.intItem(ctx, configmgr.CategoryPurge, configmgr.ItemPurgeAge)
	if err != nil {
		return db.PurgePolicy{}, err
	}
	size, err := p.intItem(ctx, configmgr.CategoryPurge, configmgr.ItemPurgeSize)
	if err != nil {
		return db.PurgePolicy{}, err
	}
	retain, err := p.o.Config.Value(ctx, configmgr.CategoryPurge, configmgr.ItemRetainUnsent)
	if err != nil {
		return db.PurgePolicy{}, fmt.Errorf("read %s.%s: %w", configmgr.CategoryPurge, configmgr.ItemRetainUnsent, err)
	}
	pol := db.PurgePolicy{MaxRows: size}
	if age > 0 {
		pol.Before = now.Add(-time.Duration(age) * time.Hour)
	}
	switch retain {
	case configmgr.RetainUnsentPurge:
		pol.Retain = db.RetainNone
	case configmgr.RetainUnsentAny:
		pol.Retain = db.RetainUnsentAny
	case configmgr.RetainUnsentAll:
		pol.Retain = db.RetainUnsentAll
	default:
		return db.PurgePolicy{}, fmt.Errorf("%s.%s %q is not a known option", configmgr.CategoryPurge, configmgr.ItemRetainUnsent, retain)
	}
	return pol, nil
}

// Readings is the "purge" process: it applies PURGE_READ to the buffered
// readings (age limit against the sensor time, then size limit, oldest
// inserted first; unsent readings kept as retainUnsent says), adds the
// removed readings to PURGED and the unsent ones among them to UNSNPURGED,
// and writes one PURGE audit entry {rowsRemoved, unsentRowsRemoved,
// rowsRetained}. A purge that fails part way still counts and audits what
// it removed (severity FAILURE, with the error).
func (p *Purger) Readings(ctx context.Context) (db.PurgeResult, error) {
	pol, err := p.policy(ctx, p.o.Clock.Now())
	if err != nil {
		return db.PurgeResult{}, fmt.Errorf("purge: %w", err)
	}
	res, err := p.o.Store.PurgeReadings(ctx, pol)
	ctx = context.WithoutCancel(ctx) // what was removed is gone: record it
	if res.Removed > 0 {
		if aerr := p.o.Store.AddStatistics(ctx, map[string]int64{stats.Purged: res.Removed, stats.UnsentPurg: res.UnsentRemoved, stats.Buffered: -res.Removed}); aerr != nil {
			p.log.Error("purge: statistics not updated", "error", aerr, "removed", res.Removed)
		}
	}
	details := map[string]any{"rowsRemoved": res.Removed, "unsentRowsRemoved": res.UnsentRemoved, "rowsRetained": res.Retained}
	severity := auditcode.Information
	if err != nil {
		severity, details["error"] = auditcode.Failure, err.Error()
	}
	p.audit(ctx, auditPurge, severity, details)
	if err != nil {
		return res, fmt.Errorf("purge: %w", err)
	}
	p.log.Info("readings purged", "removed", res.Removed, "unsent_removed", res.UnsentRemoved, "retained", res.Retained)
	return res, nil
}

// SystemResult is what a system purge removed.
type SystemResult struct {
	AuditRows   int64
	HistoryRows int64
	Tasks       int64
}

// System is the "purge system" process: it removes the audit entries older
// than PURGE_READ.retainAuditLog days, the statistics history older than
// retainStatsHistory days and the finished tasks that ended more than
// SCHEDULER.max_completed_task_age_days days ago (the scheduler owns the
// task list), then writes one SYPRG audit entry
// {auditRowsRemoved, statisticsHistoryRowsRemoved, tasksRemoved}. It goes
// on past a failing part and returns the first error.
func (p *Purger) System(ctx context.Context) (SystemResult, error) {
	now := p.o.Clock.Now()
	var res SystemResult
	var firstErr error
	parts := []struct {
		category, item string
		del            func(context.Context, time.Time) (int64, error)
		n              *int64
	}{
		{configmgr.CategoryPurge, configmgr.ItemRetainAuditLog, p.o.Store.DeleteAudit, &res.AuditRows},
		{configmgr.CategoryPurge, configmgr.ItemRetainStatsHistory, p.o.Store.DeleteStatisticsHistory, &res.HistoryRows},
		{configmgr.CategoryScheduler, configmgr.ItemMaxCompletedTaskAgeDays, p.o.Store.DeleteFinishedTasks, &res.Tasks},
	}
	for _, part := range parts {
		days, err := p.intItem(ctx, part.category, part.item)
		if err == nil && days < 1 {
			err = fmt.Errorf("%s.%s must be at least 1 day", part.category, part.item)
		}
		if err == nil {
			*part.n, err = part.del(ctx, now.AddDate(0, 0, -int(days)))
		}
		if err != nil && firstErr == nil {
			firstErr = err
		}
	}
	details := map[string]any{"auditRowsRemoved": res.AuditRows, "statisticsHistoryRowsRemoved": res.HistoryRows, "tasksRemoved": res.Tasks}
	severity := auditcode.Information
	if firstErr != nil {
		severity, details["error"] = auditcode.Failure, firstErr.Error()
	}
	p.audit(context.WithoutCancel(ctx), auditSystemPurge, severity, details)
	if firstErr != nil {
		return res, fmt.Errorf("purge system: %w", firstErr)
	}
	p.log.Info("system purged", "audit", res.AuditRows, "statistics_history", res.HistoryRows, "tasks", res.Tasks)
	return res, nil
}

// audit writes an entry; a failure is logged, since what it records has
// happened.
func (p *Purger) audit(ctx context.Context, source, severity string, details any) {
	if err := p.o.Audit.Record(ctx, source, severity, details); err != nil {
		p.log.Error("audit entry not written", "source", source, "error", err)
	}
}
