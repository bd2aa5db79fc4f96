package db

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// Task states.
const (
	TaskRunning     = "Running"
	TaskComplete    = "Complete"
	TaskCancelled   = "Cancelled"
	TaskInterrupted = "Interrupted"
)

// Task is one execution of a scheduled process.
type Task struct {
	ID          string // UUID, 36 characters
	Name        string // the name of the schedule that started it
	ProcessName string
	State       string    // Running, Complete, Cancelled or Interrupted
	StartTime   time.Time // UTC
	EndTime     time.Time // UTC; zero while the task runs
	ExitCode    *int      // nil while the task runs and when it did not end by itself
	Reason      string
	PID         int
}

// TaskFilter selects tasks. Name matches case-insensitively (ASCII letters)
// and State exactly; empty strings match everything. Limit 0 means no
// limit.
type TaskFilter struct {
	Name  string
	State string
	Limit int
	Skip  int
}

type taskRow struct {
	ID          string `db:"id"`
	Name        string `db:"name"`
	ProcessName string `db:"process_name"`
	State       string `db:"state"`
	StartTime   dbTime `db:"start_time"`
	EndTime     dbTime `db:"end_time"`
	ExitCode    *int   `db:"exit_code"`
	Reason      string `db:"reason"`
	PID         int    `db:"pid"`
}

func (r taskRow) task() Task {
	return Task{ID: r.ID, Name: r.Name, ProcessName: r.ProcessName, State: r.State,
		StartTime: r.StartTime.Time, EndTime: r.EndTime.Time, ExitCode: r.ExitCode, Reason: r.Reason, PID: r.PID}
}

const taskColumns = "id, name, process_name, state, start_time, end_time, exit_code, reason, pid"

// InsertTask stores t as given (times in UTC, truncated to the
// microsecond). An existing id gives an error wrapping ErrConflict; a value
// breaking the table's checks (state, id length) an error wrapping no
// sentinel.
func (d *DB) InsertTask(ctx context.Context, t Task) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		q := tx.Rebind(`INSERT INTO tasks (` + taskColumns + `) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
		_, err := tx.ExecContext(ctx, q, t.ID, t.Name, t.ProcessName, t.State, nullTime(t.StartTime),
			nullTime(t.EndTime), t.ExitCode, t.Reason, t.PID)
		return translate(err)
	})
	if err != nil {
		return fmt.Errorf("db: insert task %q: %w", t.Name, err)
	}
	return nil
}

// FinishTask ends the task id if it is Running: it sets state, the end
// time, exitCode (nil for none) and reason. It reports whether the task was
// running (false: it had already ended, and nothing changed). An unknown id
// gives an error wrapping ErrNotFound.
func (d *DB) FinishTask(ctx context.Context, id, state string, end time.Time, exitCode *int, reason string) (bool, error) {
	var changed bool
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE tasks SET state = ?, end_time = ?, exit_code = ?, reason = ?
			WHERE id = ? AND state = ?`), state, nullTime(end), exitCode, reason, id, TaskRunning)
		if err != nil {
			return translate(err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n > 0 {
			changed = true
			return nil
		}
		var exists int
		return translate(tx.GetContext(ctx, &exists, tx.Rebind(`SELECT 1 FROM tasks WHERE id = ?`), id))
	})
	if err != nil {
		return false, fmt.Errorf("db: finish task %q: %w", id, err)
	}
	return changed, nil
}

// GetTask returns the task with id; an error wrapping ErrNotFound when
// there is none.
func (d *DB) GetTask(ctx context.Context, id string) (Task, error) {
	var r taskRow
	q := d.r.Rebind(`SELECT ` + taskColumns + ` FROM tasks WHERE id = ?`)
	if err := d.r.GetContext(ctx, &r, q, id); err != nil {
		return Task{}, fmt.Errorf("db: get task %q: %w", id, translate(err))
	}
	return r.task(), nil
}

// taskWhere returns the WHERE clause of f's filters and its arguments.
func taskWhere(f TaskFilter) (string, []any) {
	var conds []string
	var args []any
	if f.Name != "" {
		conds = append(conds, "lower(name) = lower(?)")
		args = append(args, f.Name)
	}
	if f.State != "" {
		conds = append(conds, "state = ?")
		args = append(args, f.State)
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// ListTasks returns one page of the tasks matching f, newest first (start
// time, then id, descending). None is an empty, non-nil slice. A negative
// Limit or Skip is an error; driver errors are returned wrapped.
func (d *DB) ListTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	where, args := taskWhere(f)
	page, pageArgs, err := d.limitOffset(f.Limit, f.Skip)
	if err != nil {
		return nil, fmt.Errorf("db: list tasks: %w", err)
	}
	q := d.r.Rebind(`SELECT ` + taskColumns + ` FROM tasks` + where + ` ORDER BY start_time DESC, id DESC` + page)
	return d.selectTasks(ctx, "list tasks", q, append(args, pageArgs...))
}

// ListLatestTasks returns, for each task name, the newest task matching f,
// and of those one page, newest first. The filters apply before the newest
// per name is chosen: with State Complete it is each name's newest complete
// task. None is an empty, non-nil slice.
func (d *DB) ListLatestTasks(ctx context.Context, f TaskFilter) ([]Task, error) {
	where, args := taskWhere(f)
	page, pageArgs, err := d.limitOffset(f.Limit, f.Skip)
	if err != nil {
		return nil, fmt.Errorf("db: list latest tasks: %w", err)
	}
	q := d.r.Rebind(`SELECT ` + taskColumns + ` FROM (
		SELECT ` + taskColumns + `, ROW_NUMBER() OVER (PARTITION BY name ORDER BY start_time DESC, id DESC) AS rn
		FROM tasks` + where + `) latest WHERE rn = 1 ORDER BY start_time DESC, id DESC` + page)
	return d.selectTasks(ctx, "list latest tasks", q, append(args, pageArgs...))
}

func (d *DB) selectTasks(ctx context.Context, op, q string, args []any) ([]Task, error) {
	var rows []taskRow
	if err := d.r.SelectContext(ctx, &rows, q, args...); err != nil {
		return nil, fmt.Errorf("db: %s: %w", op, translate(err))
	}
	out := make([]Task, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.task())
	}
	return out, nil
}

// InterruptRunningTasks marks every Running task Interrupted, ended at at
// with reason and no exit code, and returns how many it marked. The
// scheduler calls it at start: a task still Running then was running when
// the gateway stopped without ending it.
func (d *DB) InterruptRunningTasks(ctx context.Context, at time.Time, reason string) (int64, error) {
	var n int64
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE tasks SET state = ?, end_time = ?, exit_code = NULL, reason = ?
			WHERE state = ?`), TaskInterrupted, nullTime(at), reason, TaskRunning)
		if err != nil {
			return translate(err)
		}
		n, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("db: interrupt running tasks: %w", err)
	}
	return n, nil
}
