package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/lib/pq"  // registers the "postgres" driver
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/edged/edged/db"
)

// The raw driver loop: the same rows the load generator posts, written
// straight into the gateway's readings table through database/sql, one
// transaction per batch, with nothing else (no HTTP, no JSON decoding, no
// per-asset counts, no buffer). Its rate is what the driver can do on this
// machine; the gateway's ingest is measured against it.

// sqliteRawParams are the connection settings of the gateway's own write
// connection (db/open_sqlite.go), so that both write alike; synchronous is
// appended per run.
const sqliteRawParams = "_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)" +
	"&_time_integer_format=unix_micro&_txlock=immediate"

// runRawCmd is `edged-load raw`: it creates the gateway's schema in a new
// database, then writes batches for the duration and prints a Result whose
// CPUSeconds is the loop's own CPU time.
func runRawCmd(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("raw", flag.ContinueOnError)
	file := fs.String("sqlite", "", "SQLite file to create")
	dsn := fs.String("postgres", "", "PostgreSQL DSN of an empty database")
	batch := fs.Int("batch", 100, "rows per transaction")
	assets := fs.Int("assets", 10, "distinct assets")
	synchronous := fs.String("synchronous", "NORMAL", "SQLite synchronous setting (NORMAL or FULL)")
	duration := fs.Duration("duration", 10*time.Second, "measured time")
	warmup := fs.Duration("warmup", time.Second, "time before the measured window")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if (*file == "") == (*dsn == "") {
		return errors.New("raw: give exactly one of -sqlite and -postgres")
	}
	// The schema is the gateway's: its migrations, indexes included.
	target := *dsn
	if *file != "" {
		target = "sqlite:" + *file
	}
	d, err := db.Open(ctx, target, "")
	if err != nil {
		return err
	}
	if err := d.Close(); err != nil {
		return err
	}
	var w rawWriter
	if *file != "" {
		w, err = newSQLiteRaw(ctx, *file, *synchronous, *batch)
	} else {
		w, err = newPostgresRaw(*dsn)
	}
	if err != nil {
		return err
	}
	defer func() { _ = w.Close() }()

	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]rawRow, *batch)
	deadline := time.Now().Add(*warmup + *duration)
	start := time.Now().Add(*warmup)
	var cpu0 time.Duration
	measuring := false
	var n int64
	for i := int64(0); time.Now().Before(deadline); i++ {
		if !measuring && !time.Now().Before(start) {
			measuring, cpu0, start = true, cpuSelf(), time.Now()
		}
		asset := "raw-" + strconv.FormatInt(i%int64(*assets), 10)
		stored := time.Now().UTC().Truncate(time.Microsecond)
		for k := range rows {
			seq := i*int64(*batch) + int64(k)
			rows[k] = rawRow{asset: asset, userTS: t0.Add(time.Duration(seq) * time.Millisecond), ts: stored,
				reading: `{"sinusoid":` + strconv.FormatFloat(float64(seq%360)/360, 'f', 4, 64) + `,"seq":` + strconv.FormatInt(seq, 10) + `}`}
		}
		if err := w.Write(ctx, rows); err != nil {
			return err
		}
		if measuring {
			n += int64(len(rows))
		}
	}
	secs := time.Since(start).Seconds()
	return printJSON(Result{Ops: n, Seconds: secs, Rate: float64(n) / secs, CPUSeconds: (cpuSelf() - cpu0).Seconds()})
}

type rawRow struct {
	asset, reading string
	userTS, ts     time.Time
}

type rawWriter interface {
	Write(ctx context.Context, rows []rawRow) error
	Close() error
}

// sqliteRaw writes a batch with one prepared multi-row INSERT per
// transaction (at most 256 rows a statement, as the gateway).
type sqliteRaw struct {
	db    *sql.DB
	stmts map[int]*sql.Stmt
	args  []any
}

func newSQLiteRaw(ctx context.Context, file, synchronous string, batch int) (*sqliteRaw, error) {
	switch synchronous {
	case "NORMAL", "FULL":
	default:
		return nil, fmt.Errorf("raw: synchronous %q; want NORMAL or FULL", synchronous)
	}
	d, err := sql.Open("sqlite", file+"?"+sqliteRawParams+"&_pragma=synchronous("+synchronous+")")
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(1)
	r := &sqliteRaw{db: d, stmts: map[int]*sql.Stmt{}}
	for n := batch; n > 0; n -= min(n, 256) {
		size := min(n, 256)
		if r.stmts[size] != nil {
			continue
		}
		//nolint:sqlclosecheck,gosec // closed in Close; only placeholders are concatenated
		s, err := d.PrepareContext(ctx, "INSERT INTO readings (asset_code, reading, user_ts, ts) VALUES "+
			strings.TrimSuffix(strings.Repeat("(?, ?, ?, ?), ", size), ", "))
		if err != nil {
			_ = d.Close()
			return nil, err
		}
		r.stmts[size] = s
	}
	return r, nil
}

func (r *sqliteRaw) Write(ctx context.Context, rows []rawRow) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	for len(rows) > 0 {
		chunk := rows[:min(len(rows), 256)]
		r.args = r.args[:0]
		for _, row := range chunk {
			r.args = append(r.args, row.asset, row.reading, row.userTS.UnixMicro(), row.ts.UnixMicro())
		}
		if err := execStmt(ctx, tx, r.stmts[len(chunk)], r.args); err != nil {
			_ = tx.Rollback()
			return err
		}
		rows = rows[len(chunk):]
	}
	return tx.Commit()
}

// execStmt runs the prepared s in tx.
func execStmt(ctx context.Context, tx *sql.Tx, s *sql.Stmt, args []any) error {
	ts := tx.StmtContext(ctx, s)
	defer func() { _ = ts.Close() }()
	_, err := ts.ExecContext(ctx, args...)
	return err
}

func (r *sqliteRaw) Close() error {
	for _, s := range r.stmts {
		_ = s.Close()
	}
	return r.db.Close()
}

// postgresRaw writes a batch with COPY … FROM STDIN in one transaction.
type postgresRaw struct{ db *sql.DB }

func newPostgresRaw(dsn string) (*postgresRaw, error) {
	d, err := sql.Open("postgres", dsn)
	if err != nil {
		return nil, err
	}
	d.SetMaxOpenConns(1)
	return &postgresRaw{db: d}, nil
}

func (r *postgresRaw) Write(ctx context.Context, rows []rawRow) error {
	tx, err := r.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := copyRows(ctx, tx, rows); err != nil {
		_ = tx.Rollback()
		return err
	}
	return tx.Commit()
}

// copyRows sends rows with one COPY, as the gateway does.
func copyRows(ctx context.Context, tx *sql.Tx, rows []rawRow) (err error) {
	stmt, err := tx.PrepareContext(ctx, "COPY readings (asset_code, reading, user_ts, ts) FROM STDIN")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := stmt.Close(); err == nil {
			err = cerr
		}
	}()
	for _, row := range rows {
		if _, err := stmt.ExecContext(ctx, row.asset, row.reading, row.userTS, row.ts); err != nil {
			return err
		}
	}
	_, err = stmt.ExecContext(ctx)
	return err
}

func (r *postgresRaw) Close() error { return r.db.Close() }

// cpuSelf returns this process's CPU time, user and system.
func cpuSelf() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// runBare is `edged-load bare`: a plain net/http server answering GET
// /edge/ping with a fixed JSON body of the gateway's ping size, on a free
// loopback port it prints as {"addr": …}. It serves until killed.
func runBare(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bare", flag.ContinueOnError)
	if err := fs.Parse(args); err != nil {
		return err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	body := []byte(`{"uptime":1234,"dataRead":0,"dataSent":0,"dataPurged":0,"authenticationOptional":true,` +
		`"serviceName":"Edge Gateway","hostName":"bare","ipAddresses":["127.0.0.1"],"health":"green","safeMode":false,"version":"bare"}`)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /edge/ping", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	// POST /sensor-reading reads the body and answers at once, as
	// http_south does after its commit: the round trip a sender of one
	// reading pays on top of the commit.
	mux.HandleFunc("POST /sensor-reading", func(w http.ResponseWriter, r *http.Request) {
		n, _ := io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"message":"%d bytes read","readings":1}`, n)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	if err := printJSON(map[string]string{"addr": ln.Addr().String()}); err != nil {
		return err
	}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	_ = os.Stdout.Sync()
	return nil
}
