package db

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// auditRow is one audit_log row as scanned.
type auditRow struct {
	ID       int64  `db:"id"`
	TS       dbTime `db:"ts"`
	Source   string `db:"source"`
	Severity string `db:"severity"`
	Details  []byte `db:"details"`
}

func (r auditRow) entry() AuditEntry {
	return AuditEntry{
		ID:        r.ID,
		Timestamp: r.TS.Time,
		Source:    r.Source,
		Severity:  r.Severity,
		Details:   json.RawMessage(r.Details),
	}
}

const auditColumns = "id, ts, source, severity, details"

// InsertAudit appends e to the audit trail and returns the stored entry with
// its ID. A zero Timestamp becomes the current time; any timestamp is stored
// in UTC truncated to the microsecond. Nil or empty Details is stored as {}.
// Details that are not valid JSON, or a Severity outside SUCCESS, FAILURE,
// WARNING and INFORMATION, give an error that wraps no sentinel; callers
// validate input first. Driver errors are returned wrapped.
func (d *DB) InsertAudit(ctx context.Context, e AuditEntry) (AuditEntry, error) {
	if e.Timestamp.IsZero() {
		e.Timestamp = now()
	} else {
		e.Timestamp = e.Timestamp.UTC().Truncate(time.Microsecond)
	}
	if len(e.Details) > 0 && !json.Valid(e.Details) {
		return AuditEntry{}, errors.New("db: insert audit: details are not valid JSON")
	}
	var row auditRow
	q := d.w.Rebind(`INSERT INTO audit_log (ts, source, severity, details) VALUES (?, ?, ?, ?)
		RETURNING ` + auditColumns)
	if err := d.w.GetContext(ctx, &row, q, e.Timestamp, e.Source, e.Severity, jsonArg(e.Details)); err != nil {
		return AuditEntry{}, fmt.Errorf("db: insert audit: %w", translate(err))
	}
	return row.entry(), nil
}

// ListAudit returns one page of audit entries matching f, newest first
// (timestamp, then ID, descending), and the total number of entries that
// match f's filters regardless of paging. Source and Severity filter by
// exact match when non-empty; Limit 0 means no limit. Count and page come
// from one snapshot. An empty result is an empty, non-nil slice and no
// error. A negative Limit or Skip is an error; driver errors are returned
// wrapped.
func (d *DB) ListAudit(ctx context.Context, f AuditFilter) ([]AuditEntry, int, error) {
	var conds []string
	var args []any
	if f.Source != "" {
		conds = append(conds, "source = ?")
		args = append(args, f.Source)
	}
	if f.Severity != "" {
		conds = append(conds, "severity = ?")
		args = append(args, f.Severity)
	}
	where := ""
	if len(conds) > 0 {
		where = " WHERE " + strings.Join(conds, " AND ")
	}
	page, pageArgs, err := d.limitOffset(f.Limit, f.Skip)
	if err != nil {
		return nil, 0, fmt.Errorf("db: list audit: %w", err)
	}

	entries := []AuditEntry{}
	var total int
	err = d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, tx.Rebind("SELECT COUNT(*) FROM audit_log"+where), args...); err != nil {
			return err
		}
		var rows []auditRow
		q := tx.Rebind("SELECT " + auditColumns + " FROM audit_log" + where + " ORDER BY ts DESC, id DESC" + page)
		if err := tx.SelectContext(ctx, &rows, q, append(args, pageArgs...)...); err != nil {
			return err
		}
		for _, r := range rows {
			entries = append(entries, r.entry())
		}
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("db: list audit: %w", translate(err))
	}
	return entries, total, nil
}
