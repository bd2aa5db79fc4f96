package db

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"
)

// SetAsideReading is a reading a north service's or task's destination
// refused for good, kept (a copy, whatever the purge does) until it is
// sent again or deleted.
type SetAsideReading struct {
	ID        int64 // the entry's id
	Name      string
	ReadingID int64 // the reading's id in readings when it was set aside
	AssetCode string
	Reading   json.RawMessage
	UserTS    time.Time // the reading's sensor time
	Reason    string    // the destination's refusal
	SetAt     time.Time // when it was set aside (again)
	Resend    bool      // an operator asked to send it again
}

// SetAsideKey returns the name of the statistic counting the readings the
// north service or task name set aside.
func SetAsideKey(name string) string { return name + "-SetAside" }

// setAsideRow is a north_set_aside row as scanned.
type setAsideRow struct {
	ID        int64  `db:"id"`
	Name      string `db:"name"`
	ReadingID int64  `db:"reading_id"`
	AssetCode string `db:"asset_code"`
	Reading   []byte `db:"reading"`
	UserTS    dbTime `db:"user_ts"`
	Reason    string `db:"reason"`
	SetAt     dbTime `db:"set_at"`
	Resend    bool   `db:"resend"`
}

const setAsideColumns = `id, name, reading_id, asset_code, reading, user_ts, reason, set_at, resend`

func (r setAsideRow) entry() SetAsideReading {
	return SetAsideReading{ID: r.ID, Name: r.Name, ReadingID: r.ReadingID, AssetCode: r.AssetCode,
		Reading: json.RawMessage(r.Reading), UserTS: r.UserTS.Time, Reason: r.Reason, SetAt: r.SetAt.Time, Resend: r.Resend}
}

// setAsideRowsPerStatement bounds the rows of one multi-row INSERT (6
// parameters each).
const setAsideRowsPerStatement = 500

// SetAside records that the destination of the north service or task name
// refused rows for good, in one transaction: copies of rows are kept with
// reason, the stream position moves to p (past them), and the statistic
// SetAsideKey(name) grows by len(rows) (created with description when
// missing). Driver errors are returned wrapped and nothing changes.
func (d *DB) SetAside(ctx context.Context, name string, rows []Reading, reason string, p StreamPosition, description string) error {
	at := now()
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		for chunk := range slices.Chunk(rows, setAsideRowsPerStatement) {
			args := make([]any, 0, 7*len(chunk))
			for _, r := range chunk {
				args = append(args, name, r.ID, r.AssetCode, jsonArg(r.Reading), r.UserTS.UTC().Truncate(time.Microsecond), reason, at)
			}
			q := `INSERT INTO north_set_aside (name, reading_id, asset_code, reading, user_ts, reason, set_at) VALUES ` +
				repeatJoin("(?, ?, ?, ?, ?, ?, ?)", len(chunk))
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), args...); err != nil {
				return translate(err)
			}
		}
		if err := savePosition(ctx, tx, name, p); err != nil {
			return err
		}
		return addStatistic(ctx, tx, SetAsideKey(name), description, int64(len(rows)))
	})
	if err != nil {
		return fmt.Errorf("db: set aside readings of %q: %w", name, err)
	}
	return nil
}

// ListSetAside returns one page of the readings name set aside, oldest
// first, and how many there are in all; limit 0 means no limit. None is an
// empty, non-nil slice.
func (d *DB) ListSetAside(ctx context.Context, name string, limit, skip int) ([]SetAsideReading, int, error) {
	page, args, err := d.limitOffset(limit, skip)
	if err != nil {
		return nil, 0, fmt.Errorf("db: list set-aside readings: %w", err)
	}
	var (
		rows  []setAsideRow
		total int
	)
	err = d.inReadTx(ctx, func(tx *sqlx.Tx) error {
		if err := tx.GetContext(ctx, &total, tx.Rebind(`SELECT COUNT(*) FROM north_set_aside WHERE name = ?`), name); err != nil {
			return translate(err)
		}
		q := `SELECT ` + setAsideColumns + ` FROM north_set_aside WHERE name = ? ORDER BY id` + page
		return translate(tx.SelectContext(ctx, &rows, tx.Rebind(q), append([]any{name}, args...)...))
	})
	if err != nil {
		return nil, 0, fmt.Errorf("db: list set-aside readings of %q: %w", name, err)
	}
	out := make([]SetAsideReading, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out, total, nil
}

// idFilter returns " AND id IN (?, …)" and its arguments for ids, or
// nothing for none (every entry).
func idFilter(ids []int64) (string, []any) {
	if len(ids) == 0 {
		return "", nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return " AND id IN (" + strings.TrimSuffix(strings.Repeat("?, ", len(ids)), ", ") + ")", args
}

// MarkResend asks for the readings name set aside with the given entry ids
// (all of them when ids is empty) to be sent again, and returns how many
// entries are marked. Ids of other services or of no entry are ignored.
func (d *DB) MarkResend(ctx context.Context, name string, ids []int64) (int64, error) {
	cond, args := idFilter(ids)
	res, err := d.w.ExecContext(ctx, d.w.Rebind(`UPDATE north_set_aside SET resend = ? WHERE name = ?`+cond),
		append([]any{true, name}, args...)...)
	if err != nil {
		return 0, fmt.Errorf("db: mark set-aside readings of %q for resending: %w", name, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: mark set-aside readings of %q for resending: %w", name, err)
	}
	return n, nil
}

// DeleteSetAside removes the readings name set aside with the given entry
// ids (all of them when ids is empty) and returns how many were removed.
func (d *DB) DeleteSetAside(ctx context.Context, name string, ids []int64) (int64, error) {
	cond, args := idFilter(ids)
	res, err := d.w.ExecContext(ctx, d.w.Rebind(`DELETE FROM north_set_aside WHERE name = ?`+cond),
		append([]any{name}, args...)...)
	if err != nil {
		return 0, fmt.Errorf("db: delete set-aside readings of %q: %w", name, translate(err))
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("db: delete set-aside readings of %q: %w", name, err)
	}
	return n, nil
}

// ResendBlock returns up to limit of the readings name set aside that are
// marked to be sent again, oldest first.
func (d *DB) ResendBlock(ctx context.Context, name string, limit int) ([]SetAsideReading, error) {
	var rows []setAsideRow
	q := d.r.Rebind(`SELECT ` + setAsideColumns + ` FROM north_set_aside WHERE name = ? AND resend = ? ORDER BY id LIMIT ?`)
	if err := d.r.SelectContext(ctx, &rows, q, name, true, limit); err != nil {
		return nil, fmt.Errorf("db: set-aside readings of %q to resend: %w", name, translate(err))
	}
	out := make([]SetAsideReading, len(rows))
	for i, r := range rows {
		out[i] = r.entry()
	}
	return out, nil
}

// Resent records the outcome of sending set-aside readings of name again,
// in one transaction: the entries delivered are removed and the statistic
// named after name (created with description when missing) grows by their
// number; the entries refused again stay set aside, no longer marked, with
// reason and a new set-aside time.
func (d *DB) Resent(ctx context.Context, name string, delivered, refused []int64, reason, description string) error {
	err := d.inTx(ctx, func(tx *sqlx.Tx) error {
		if len(delivered) > 0 {
			cond, args := idFilter(delivered)
			res, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM north_set_aside WHERE name = ?`+cond), append([]any{name}, args...)...)
			if err != nil {
				return translate(err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			if err := addStatistic(ctx, tx, name, description, n); err != nil {
				return err
			}
		}
		if len(refused) > 0 {
			cond, args := idFilter(refused)
			q := `UPDATE north_set_aside SET resend = ?, reason = ?, set_at = ? WHERE name = ?` + cond
			if _, err := tx.ExecContext(ctx, tx.Rebind(q), append([]any{false, reason, now(), name}, args...)...); err != nil {
				return translate(err)
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("db: record resent readings of %q: %w", name, err)
	}
	return nil
}
