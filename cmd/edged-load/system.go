package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// systemOptions are the settings of `edged-load system`.
type systemOptions struct {
	edged    string        // the gateway binary
	reps     int           // repetitions of every measurement
	duration time.Duration // measured window of a load
	warmup   time.Duration // load before the window opens
	big      int           // readings of the large asset
	small    int           // readings of the small asset
	postgres string        // DSN of a PostgreSQL cluster to create databases in; "" skips those rows
	work     string        // directory for data directories and SQLite files
}

// runSystem is `edged-load system`.
func runSystem(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("system", flag.ContinueOnError)
	o := systemOptions{}
	fs.StringVar(&o.edged, "edged", "bin/edged", "the gateway binary")
	fs.IntVar(&o.reps, "reps", 3, "repetitions of every measurement (medians and spread over them)")
	fs.DurationVar(&o.duration, "duration", 10*time.Second, "measured window of each load")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "load before each window opens")
	fs.IntVar(&o.big, "big", 1_000_000, "readings of the large asset (summary, browse, purge)")
	fs.IntVar(&o.small, "small", 10_000, "readings of the small asset browse is compared with")
	fs.StringVar(&o.postgres, "postgres", os.Getenv("EDGE_TEST_PG"), "PostgreSQL DSN to create throwaway databases with (default $EDGE_TEST_PG; empty skips the PostgreSQL rows)")
	fs.StringVar(&o.work, "work", "", "working directory (default a new temporary directory, removed at the end)")
	only := fs.String("only", "ingest,firstseen,pipeline,notify,postgres,large", "sections to run: ingest (SQLite ingest and ping), firstseen (10 000 never-seen assets against known ones, SQLite and PostgreSQL), pipeline (ingest with and without a filter pipeline), notify (ingest with 100 notification rules and without, webhook latency), postgres, large (summary, browse, deleting the large asset and all readings, on SQLite and PostgreSQL)")
	short := fs.Bool("short", false, "a shorter run: 3 s windows, 1 s warm-up, a large asset of 200 000 readings")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *short {
		o.duration, o.warmup, o.big = 3*time.Second, time.Second, 200_000
	}
	if o.reps < 1 || o.big < 1000 || o.big%1000 != 0 || o.small < 20 {
		return errors.New("system: -reps ≥ 1, -big a multiple of 1000, -small ≥ 20")
	}
	if o.work == "" {
		dir, err := os.MkdirTemp("", "edged-bench-")
		if err != nil {
			return err
		}
		defer func() { _ = os.RemoveAll(dir) }()
		o.work = dir
	}
	sections := map[string]bool{}
	for _, name := range strings.Split(*only, ",") {
		switch name {
		case "ingest", "firstseen", "pipeline", "notify", "postgres", "large":
			sections[name] = true
		default:
			return fmt.Errorf("system: unknown section %q in -only", name)
		}
	}
	s := &system{o: o, rows: map[string]*row{}}
	fmt.Println(s.header("before"))
	// Whatever happens, print what was measured.
	defer func() {
		fmt.Println(s.header("after"))
		fmt.Println()
		fmt.Print(s.table())
		for _, n := range s.notes {
			fmt.Println("\nfailed:", n)
		}
	}()
	var repo *packageRepo
	if sections["notify"] {
		r, err := s.buildRepo(ctx)
		if err != nil {
			return err
		}
		defer r.close()
		repo = r
	}
	for rep := range o.reps {
		fmt.Fprintf(os.Stderr, "edged-load: repetition %d of %d\n", rep+1, o.reps)
		if sections["ingest"] {
			if err := s.sqliteIngest(ctx, rep); err != nil {
				return err
			}
		}
		if sections["firstseen"] {
			if err := s.firstSeen(ctx, rep); err != nil {
				return err
			}
		}
		if sections["pipeline"] {
			if err := s.pipelineIngest(ctx, rep); err != nil {
				return err
			}
		}
		if sections["notify"] {
			if err := s.notificationIngest(ctx, rep, repo); err != nil {
				return err
			}
		}
		if sections["postgres"] && o.postgres != "" {
			if err := s.postgresIngest(ctx, rep); err != nil {
				return err
			}
		}
	}
	if sections["large"] {
		if err := s.large(ctx); err != nil {
			return err
		}
		if o.postgres != "" {
			return s.largePostgres(ctx)
		}
	}
	return nil
}

// system holds the figures as they are measured.
type system struct {
	o     systemOptions
	rows  map[string]*row
	notes []string // failures that did not stop the run
}

// row is one line of the result table: a value per repetition.
type row struct {
	values []float64
}

func (s *system) add(key string, v float64) {
	fmt.Fprintf(os.Stderr, "edged-load: %s = %.4g\n", key, v)
	r := s.rows[key]
	if r == nil {
		r = &row{}
		s.rows[key] = r
	}
	r.values = append(r.values, v)
}

// header describes the machine and its load now.
func (s *system) header(when string) string {
	load, _ := os.ReadFile("/proc/loadavg")
	fields := strings.Fields(string(load))
	if len(fields) > 3 {
		fields = fields[:3]
	}
	if when == "before" {
		host, _ := os.Hostname()
		return fmt.Sprintf("edged bench-system %s on %s: %d CPUs (%s), %s, %s; %d repetitions, %s windows after %s warm-up\nload average before: %s",
			time.Now().UTC().Format("2006-01-02 15:04 UTC"), host, runtime.NumCPU(), cpuModel(), memTotal(), runtime.Version(),
			s.o.reps, s.o.duration, s.o.warmup, strings.Join(fields, " "))
	}
	return "load average after: " + strings.Join(fields, " ")
}

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for line := range strings.SplitSeq(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func memTotal() string {
	b, _ := os.ReadFile("/proc/meminfo")
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return fmt.Sprintf("%.0f GiB memory", float64(kb)/(1<<20))
		}
	}
	return "unknown memory"
}

// The durability levels measured side by side, and the raw loop's SQLite
// synchronous setting that matches each.
var levels = []struct{ name, synchronous string }{{"power", "FULL"}, {"process", "NORMAL"}}

// sqliteIngest measures, for each durability level on a fresh gateway on
// SQLite: 4 senders × 100 readings with the gateway's CPU time and peak
// RSS, the raw driver loop with the matching synchronous setting right
// after, 1 × 1 and 4 × 10 each beside the raw loop at the group its senders
// can make, and 16 × 10; then ping against a bare net/http server.
func (s *system) sqliteIngest(ctx context.Context, rep int) error {
	for _, level := range levels {
		dir := filepath.Join(s.o.work, fmt.Sprintf("sqlite-%s-%d", level.name, rep))
		gw, err := startGateway(ctx, s.o.edged, dir, "", []string{"EDGE_DURABILITY=" + level.name})
		if err != nil {
			return err
		}
		err = s.sqliteLevel(ctx, gw, rep, level.name, level.synchronous)
		if err == nil && level.name == "power" {
			// Ping is measured on the default level's gateway, still up.
			err = s.ping(ctx, gw.url+"/edge/ping")
		}
		gw.stop()
		if err != nil {
			return err
		}
	}
	r := s.rows
	s.add("power/process", r["ingest@power"].values[rep]/r["ingest@process"].values[rep])
	return nil
}

// sqliteLevel measures the ingest rows of one durability level on gw.
func (s *system) sqliteLevel(ctx context.Context, gw *gateway, rep int, level, synchronous string) error {
	url, err := gw.httpSouth(ctx, "load")
	if err != nil {
		return err
	}
	res, cpu, rss, err := s.ingest(ctx, gw, ingestLoad{URL: url, Senders: 4, Batch: 100, Assets: 10, Prefix: "load-"})
	if err != nil {
		return fmt.Errorf("ingest 4x100, %s: %w", level, err)
	}
	raw, err := s.rawSQLite(ctx, rep, level, synchronous, 100)
	if err != nil {
		return err
	}
	at := "@" + level
	s.add("ingest"+at, res.Rate)
	s.add("raw"+at, raw.Rate)
	s.add("ingest/raw"+at, res.Rate/raw.Rate)
	gwCPU := cpu.Seconds() * 1e6 / float64(res.Ops)
	rawCPU := raw.CPUSeconds * 1e6 / float64(raw.Ops)
	s.add("cpu"+at, gwCPU)
	s.add("cpu-raw"+at, rawCPU)
	s.add("cpu/raw"+at, gwCPU/rawCPU)
	s.add("rss"+at, float64(rss)/(1<<20))

	// The small shapes are bound by the cost of a commit, so each is set
	// beside the raw loop writing the largest group its senders can make
	// (1 × 1: one row a transaction; 4 × 10: forty).
	for _, shape := range []struct {
		key            string
		senders, batch int
		first          int64
		rawGroup       int // 0: no raw loop beside it
	}{
		{key: "1x1", senders: 1, batch: 1, first: 1 << 30, rawGroup: 1},
		{key: "4x10", senders: 4, batch: 10, first: 1 << 31, rawGroup: 40},
		{key: "16x10", senders: 16, batch: 10, first: 1 << 32},
	} {
		res, _, _, err := s.ingest(ctx, gw, ingestLoad{URL: url, Senders: shape.senders, Batch: shape.batch, Assets: 10,
			Prefix: "load-" + shape.key + "-", First: shape.first})
		if err != nil {
			return fmt.Errorf("ingest %s, %s: %w", shape.key, level, err)
		}
		s.add(shape.key+at, res.Rate)
		if shape.rawGroup > 0 {
			raw, err := s.rawSQLite(ctx, rep, level, synchronous, shape.rawGroup)
			if err != nil {
				return err
			}
			s.add(shape.key+"-raw"+at, raw.Rate)
			s.add(shape.key+"/raw"+at, res.Rate/raw.Rate)
		}
		if shape.key == "1x1" {
			if err := s.oneByOneCeiling(ctx, at, res.Rate); err != nil {
				return err
			}
		}
	}
	return nil
}

// oneByOneCeiling measures one sender posting one reading at a time to a
// bare net/http handler that answers at once, and sets the gateway's 1 × 1
// rate (oneByOne) beside the most any gateway could reach here: a sender
// waiting for each answer pays that round trip plus one raw one-row commit
// per reading (the "1x1-raw" row of the same level, measured before).
func (s *system) oneByOneCeiling(ctx context.Context, at string, oneByOne float64) error {
	bareURL, stopBare, err := bareServer(ctx)
	if err != nil {
		return err
	}
	trip, err := ingestLoad{URL: bareURL + "/sensor-reading", Senders: 1, Batch: 1, Assets: 1, Prefix: "bare-"}.
		start(ctx).measure(ctx, s.o.warmup, s.o.duration)
	stopBare()
	if err != nil {
		return fmt.Errorf("bare 1x1: %w", err)
	}
	raw := s.rows["1x1-raw"+at].values
	commit := 1e6 / raw[len(raw)-1] // µs, this repetition's
	rtt := 1e6 / trip.Rate
	ceiling := 1e6 / (commit + rtt)
	s.add("1x1-rtt"+at, rtt)
	s.add("1x1-ceiling"+at, ceiling)
	s.add("1x1/ceiling"+at, oneByOne/ceiling)
	return nil
}

// rawSQLite runs the raw driver loop on a fresh SQLite file, batch rows a
// transaction with the given synchronous setting.
func (s *system) rawSQLite(ctx context.Context, rep int, level, synchronous string, batch int) (Result, error) {
	var raw Result
	err := child(ctx, &raw, "raw", "-sqlite", filepath.Join(s.o.work, fmt.Sprintf("raw-%s-%d-%d.db", level, rep, batch)),
		"-synchronous", synchronous, "-batch", strconv.Itoa(batch), "-duration", s.o.duration.String(), "-warmup", s.o.warmup.String())
	return raw, err
}

// pipelineIngest measures 4 senders × 100 on a fresh gateway on SQLite
// (default durability) into two http_south services, one without a
// pipeline and one whose readings pass scale → expression → delta (seq
// always moves, so delta forwards every reading and both store the same
// rows), back to back, the first one alternating between repetitions.
func (s *system) pipelineIngest(ctx context.Context, rep int) error {
	gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, fmt.Sprintf("pipeline-%d", rep)), "", nil)
	if err != nil {
		return err
	}
	defer gw.stop()
	plain, err := gw.httpSouth(ctx, "plain")
	if err != nil {
		return err
	}
	piped, err := gw.pipedSouth(ctx, "piped")
	if err != nil {
		return err
	}
	rates := map[string]float64{}
	order := []string{"plain", "piped"}
	if rep%2 == 1 {
		order = []string{"piped", "plain"}
	}
	for k, which := range order {
		url := map[string]string{"plain": plain, "piped": piped}[which]
		res, _, _, err := s.ingest(ctx, gw, ingestLoad{URL: url, Senders: 4, Batch: 100, Assets: 10, Prefix: which + "-", First: int64(k) << 32})
		if err != nil {
			return fmt.Errorf("ingest 4x100, %s: %w", which, err)
		}
		rates[which] = res.Rate
	}
	s.add("pipeline-plain", rates["plain"])
	s.add("pipeline", rates["piped"])
	s.add("pipeline/ingest", rates["piped"]/rates["plain"])
	return nil
}

// ping measures GET url against the bare net/http server, 32 connections.
func (s *system) ping(ctx context.Context, url string) error {
	ping, err := getLoad(ctx, url, 32).measure(ctx, s.o.warmup, s.o.duration)
	if err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	bareURL, stopBare, err := bareServer(ctx)
	if err != nil {
		return err
	}
	bare, err := getLoad(ctx, bareURL+"/edge/ping", 32).measure(ctx, s.o.warmup, s.o.duration)
	stopBare()
	if err != nil {
		return fmt.Errorf("bare ping: %w", err)
	}
	s.add("ping", ping.Rate)
	s.add("bare", bare.Rate)
	s.add("ping/bare", ping.Rate/bare.Rate)
	return nil
}

// ingest runs l against gw for the warm-up and the window and returns what
// was stored in the window, the gateway's CPU time in it and its peak RSS.
func (s *system) ingest(ctx context.Context, gw *gateway, l ingestLoad) (Result, time.Duration, int64, error) {
	ld := l.start(ctx)
	sleep(ctx, s.o.warmup)
	cpu0, err := procCPU(gw.pid())
	if err != nil {
		_ = ld.stop()
		return Result{}, 0, 0, err
	}
	rssCtx, stopRSS := context.WithCancel(ctx)
	peak := rssPeak(rssCtx, gw.pid())
	from := time.Now()
	sleep(ctx, s.o.duration)
	to := time.Now()
	cpu1, err := procCPU(gw.pid())
	stopRSS()
	rss := <-peak
	if lerr := ld.stop(); lerr != nil {
		return Result{}, 0, 0, lerr
	}
	if err != nil {
		return Result{}, 0, 0, err
	}
	return ld.rec.between(from, to), cpu1 - cpu0, rss, ctx.Err()
}

// postgresIngest measures 4 × 100 on a gateway on a fresh PostgreSQL
// database, then the raw COPY loop on another fresh database.
func (s *system) postgresIngest(ctx context.Context, rep int) error {
	suffix := fmt.Sprintf("%d_%s", rep, randomHex(4))
	gwDSN, err := s.createDatabase(ctx, "bench_gw_"+suffix)
	if err != nil {
		return err
	}
	rawDSN, err := s.createDatabase(ctx, "bench_raw_"+suffix)
	if err != nil {
		return err
	}
	gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, "pg-"+suffix), gwDSN, nil)
	if err != nil {
		return err
	}
	url, err := gw.httpSouth(ctx, "load")
	if err != nil {
		gw.stop()
		return err
	}
	res, _, _, err := s.ingest(ctx, gw, ingestLoad{URL: url, Senders: 4, Batch: 100, Assets: 10, Prefix: "load-"})
	gw.stop()
	if err != nil {
		return fmt.Errorf("ingest on PostgreSQL: %w", err)
	}
	var raw Result
	if err := child(ctx, &raw, "raw", "-postgres", rawDSN, "-batch", "100",
		"-duration", s.o.duration.String(), "-warmup", s.o.warmup.String()); err != nil {
		return err
	}
	s.add("pg", res.Rate)
	s.add("pg-raw", raw.Rate)
	s.add("pg/raw", res.Rate/raw.Rate)
	return nil
}

// createDatabase creates database name in the PostgreSQL cluster and
// returns its DSN.
func (s *system) createDatabase(ctx context.Context, name string) (string, error) {
	admin, err := sql.Open("postgres", s.o.postgres)
	if err != nil {
		return "", err
	}
	defer func() { _ = admin.Close() }()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", fmt.Errorf("create database %s: %w", name, err)
	}
	return withDatabase(s.o.postgres, name)
}

// large measures, on one gateway on SQLite holding a large and a small
// asset: summary, latest-20 browse, series and the asset list (each the
// median of 20 requests), then ingest while the large asset is purged;
// every repetition but the first stores the large asset again first.
func (s *system) large(ctx context.Context) error {
	gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, "large"), "", nil)
	if err != nil {
		return err
	}
	defer gw.stop()
	url, err := gw.httpSouth(ctx, "load")
	if err != nil {
		return err
	}
	seed := func(prefix string, n int, batch int) error {
		fmt.Fprintf(os.Stderr, "edged-load: storing %d readings of %s0\n", n, prefix)
		// Ten readings a second of sensor time, as a polled sensor's: a
		// 1-second bucket of a series holds ten.
		ld := ingestLoad{URL: url, Senders: 4, Batch: batch, Assets: 1, Prefix: prefix, Last: int64(n / batch),
			Step: 100 * time.Millisecond}.start(ctx)
		ld.wg.Wait()
		return ld.stop()
	}
	if err := seed("big-", s.o.big, 1000); err != nil {
		return err
	}
	if err := seed("small-", s.o.small, 20); err != nil {
		return err
	}
	for rep := range s.o.reps {
		if rep > 0 { // the previous repetition deleted them
			if err := seed("big-", s.o.big, 1000); err != nil {
				return err
			}
			if err := seed("small-", s.o.small, 20); err != nil {
				return err
			}
		}
		for _, q := range []struct{ key, path string }{
			{"summary-big", "/edge/asset/big-0/sinusoid/summary"},
			{"summary-small", "/edge/asset/small-0/sinusoid/summary"},
			{"latest-big", "/edge/asset/big-0?limit=20"},
			{"latest-small", "/edge/asset/small-0?limit=20"},
			{"series-big", "/edge/asset/big-0/sinusoid/series?limit=20"},
			{"assets", "/edge/asset"},
		} {
			ms, err := medianGet(ctx, gw.url+q.path, 20)
			if err != nil {
				// A wrong answer is a finding, not the end of the run.
				s.notes = append(s.notes, fmt.Sprintf("repetition %d: %v", rep+1, err))
				ms = math.NaN()
			}
			s.add(q.key, ms)
		}
		r := s.rows
		s.add("latest-big/small", r["latest-big"].values[rep]/r["latest-small"].values[rep])
		if err := s.purge(ctx, gw, url, rep); err != nil {
			return err
		}
		if err := s.deleteAll(ctx, gw, url, rep, ""); err != nil {
			return err
		}
	}
	return nil
}

// purge measures 4 × 100 ingest for a window, then deletes the large
// asset while the ingest goes on: the time to the answer and to the end
// of the deletion (its task's, when it runs as one), the rate during it
// over the rate before, and the slowest request during it.
func (s *system) purge(ctx context.Context, gw *gateway, url string, rep int) error {
	return s.deletion(ctx, gw, url, rep, "purge", "/edge/asset/big-0")
}

// deletion measures DELETE path as purge describes, under keys starting
// with key.
func (s *system) deletion(ctx context.Context, gw *gateway, url string, rep int, key, path string) error {
	ld := ingestLoad{URL: url, Senders: 4, Batch: 100, Assets: 10, Prefix: key + "-", First: int64(rep) << 32}.start(ctx)
	sleep(ctx, s.o.warmup)
	from := time.Now()
	sleep(ctx, s.o.duration)
	purgeStart := time.Now()
	status, msg, err := request(ctx, http.MethodDelete, gw.url+path)
	answered := time.Now()
	var count struct {
		Purged  *float64 `json:"purged"`
		Pending *float64 `json:"pending"`
	}
	if err == nil && json.Unmarshal([]byte(msg), &count) == nil {
		switch {
		case count.Purged != nil:
			s.add(key+"-readings", *count.Purged)
		case count.Pending != nil:
			s.add(key+"-readings", *count.Pending)
		}
	}
	if err == nil && status == http.StatusAccepted {
		err = awaitTask(ctx, gw.url, msg)
	} else if err == nil && status != http.StatusOK {
		err = failed("DELETE "+path, status, msg, nil)
	}
	purgeEnd := time.Now()
	// Ingest is compared over a whole window from the deletion's start
	// (or the deletion, when longer): a deletion over in milliseconds says
	// nothing about ingest by itself, and the work it leaves to the
	// background (sweeping an asset's rows) is in the window.
	windowEnd := purgeStart.Add(s.o.duration)
	if purgeEnd.After(windowEnd) {
		windowEnd = purgeEnd
	}
	sleep(ctx, time.Until(windowEnd)+time.Second) // and requests in flight when it ended
	if lerr := ld.stop(); lerr != nil {
		return lerr
	}
	if err != nil {
		return fmt.Errorf("DELETE %s: %w", path, err)
	}
	before := ld.rec.between(from, purgeStart)
	during := ld.rec.between(purgeStart, windowEnd)
	slowest := ld.rec.between(purgeStart, windowEnd.Add(time.Second)).MaxMs
	s.add(key+"-answer-seconds", answered.Sub(purgeStart).Seconds())
	s.add(key+"-seconds", purgeEnd.Sub(purgeStart).Seconds())
	s.add(key+"-ratio", during.Rate/before.Rate)
	s.add(key+"-max-ms", slowest)
	return nil
}

// awaitTask waits for the task a 202 answer (body) names to end, and
// fails unless it ends Complete with exit code 0.
func awaitTask(ctx context.Context, base, body string) error {
	var started struct {
		Link string `json:"link"`
	}
	if err := json.Unmarshal([]byte(body), &started); err != nil || started.Link == "" {
		return fmt.Errorf("202 without a task link: %s", body)
	}
	for {
		status, msg, err := request(ctx, http.MethodGet, base+started.Link)
		if err != nil || status != http.StatusOK {
			return failed("GET "+started.Link, status, msg, err)
		}
		var tk struct {
			State    string `json:"state"`
			ExitCode *int   `json:"exitCode"`
			Reason   string `json:"reason"`
		}
		if err := json.Unmarshal([]byte(msg), &tk); err != nil {
			return fmt.Errorf("task: %w: %s", err, msg)
		}
		if tk.State != "Running" {
			if tk.State != "Complete" || tk.ExitCode == nil || *tk.ExitCode != 0 {
				return fmt.Errorf("deletion task ended %s: %s", tk.State, msg)
			}
			return nil
		}
		sleep(ctx, 50*time.Millisecond) // polling the task, as a client would
		if ctx.Err() != nil {
			return ctx.Err()
		}
	}
}

// deleteAll stores s.o.big readings over ten assets and deletes all
// readings while 4 × 100 ingest goes on (see deletion).
func (s *system) deleteAll(ctx context.Context, gw *gateway, url string, rep int, suffix string) error {
	fmt.Fprintf(os.Stderr, "edged-load: storing %d readings of all-0…9%s\n", s.o.big, suffix)
	ld := ingestLoad{URL: url, Senders: 4, Batch: 1000, Assets: 10, Prefix: "all-", Last: int64(s.o.big / 1000),
		Step: 100 * time.Millisecond}.start(ctx)
	ld.wg.Wait()
	if err := ld.stop(); err != nil {
		return err
	}
	return s.deletion(ctx, gw, url, rep, "deleteall"+suffix, "/edge/asset")
}

// firstSeen measures, on a fresh gateway on SQLite (and one on
// PostgreSQL), 4 senders × 100 readings naming 10 000 assets never seen
// before, every reading of a request its own asset, and then the same
// requests again, the assets now known: the first rate over the second.
func (s *system) firstSeen(ctx context.Context, rep int) error {
	stores := []struct{ suffix, dsn string }{{"", ""}}
	if s.o.postgres != "" {
		dsn, err := s.createDatabase(ctx, fmt.Sprintf("bench_fs_%d_%s", rep, randomHex(4)))
		if err != nil {
			return err
		}
		stores = append(stores, struct{ suffix, dsn string }{"-pg", dsn})
	}
	for _, st := range stores {
		gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, fmt.Sprintf("firstseen%s-%d", st.suffix, rep)), st.dsn, nil)
		if err != nil {
			return err
		}
		url, err := gw.httpSouth(ctx, "load")
		if err != nil {
			gw.stop()
			return err
		}
		const assets, batch = 10_000, 100
		pass := func(first int64) (float64, error) {
			began := time.Now()
			prefix := "seen-"
			if first == 0 {
				prefix = "warm-"
			}
			ld := ingestLoad{URL: url, Senders: 4, Batch: batch, Assets: assets, PerReading: true, Prefix: prefix,
				First: first, Last: first + assets/batch}.start(ctx)
			ld.wg.Wait()
			took := time.Since(began)
			if err := ld.stop(); err != nil {
				return 0, err
			}
			return assets / took.Seconds(), nil
		}
		// A first pass over other new assets warms the gateway up (its
		// connections, prepared statements, buffers), so that the two
		// measured passes differ only in whether the assets are known.
		_, err = pass(0)
		var fresh, known float64
		if err == nil {
			fresh, err = pass(2 * assets / batch)
		}
		if err == nil {
			known, err = pass(3 * assets / batch) // the same names, later sensor times
		}
		gw.stop()
		if err != nil {
			return fmt.Errorf("first-seen assets%s: %w", st.suffix, err)
		}
		s.add("firstseen"+st.suffix, fresh)
		s.add("known"+st.suffix, known)
		s.add("firstseen/known"+st.suffix, fresh/known)
	}
	return nil
}

// largePostgres measures the deletions of large() on a gateway on a fresh
// PostgreSQL database: the large asset, then all readings.
func (s *system) largePostgres(ctx context.Context) error {
	for rep := range s.o.reps {
		dsn, err := s.createDatabase(ctx, fmt.Sprintf("bench_large_%d_%s", rep, randomHex(4)))
		if err != nil {
			return err
		}
		gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, fmt.Sprintf("large-pg-%d", rep)), dsn, nil)
		if err != nil {
			return err
		}
		err = s.largeDeletes(ctx, gw, rep, "-pg")
		gw.stop()
		if err != nil {
			return err
		}
	}
	return nil
}

// largeDeletes stores the large asset on gw, deletes it, then deletes all
// readings after storing as many again (see deletion).
func (s *system) largeDeletes(ctx context.Context, gw *gateway, rep int, suffix string) error {
	url, err := gw.httpSouth(ctx, "load")
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "edged-load: storing %d readings of big-0%s\n", s.o.big, suffix)
	ld := ingestLoad{URL: url, Senders: 4, Batch: 1000, Assets: 1, Prefix: "big-", Last: int64(s.o.big / 1000),
		Step: 100 * time.Millisecond}.start(ctx)
	ld.wg.Wait()
	if err := ld.stop(); err != nil {
		return err
	}
	if err := s.deletion(ctx, gw, url, rep, "purge"+suffix, "/edge/asset/big-0"); err != nil {
		return err
	}
	return s.deleteAll(ctx, gw, url, rep, suffix)
}

// request sends a request without a body and returns the status and text.
func request(ctx context.Context, method, url string) (int, string, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return 0, "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// medianGet sends up to n GET requests one after the other (after one
// unmeasured) and returns the median latency in milliseconds. A slow query
// stops after 15 s with at least 3 measured.
func medianGet(ctx context.Context, url string, n int) (float64, error) {
	client := newClient(1)
	defer client.CloseIdleConnections()
	var lat []float64
	start := time.Now()
	for i := 0; len(lat) < n && (len(lat) < 3 || time.Since(start) < 15*time.Second); i++ {
		began := time.Now()
		status, err := get(ctx, client, url)
		if err != nil || status != http.StatusOK {
			return 0, failed("GET "+url, status, "", err)
		}
		if i > 0 {
			lat = append(lat, float64(time.Since(began))/float64(time.Millisecond))
		}
	}
	return median(lat), nil
}

// median returns the median of v, leaving out NaN (a failed measurement);
// NaN when nothing is left.
func median(v []float64) float64 {
	s := slices.DeleteFunc(slices.Clone(v), math.IsNaN)
	if len(s) == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// line is one row of the printed table.
type line struct {
	what   string
	key    string
	format string // of one value
	target string
	met    func(median float64) bool
}

// atPower gives l the target "≥ least" at durability power, the default,
// where the small shapes' targets are set; at other levels l has none.
func atPower(l line, level string, least float64) line {
	if level == "power" {
		l.target = fmt.Sprintf("≥ %.1f", least)
		l.met = func(m float64) bool { return m >= least }
	}
	return l
}

func (s *system) table() string {
	var lines []line
	for _, level := range levels {
		at, of := "@"+level.name, ", durability "+level.name
		lines = append(lines,
			line{what: "ingest 4 senders × 100, SQLite (stored readings/s)" + of, key: "ingest" + at, format: "%.0f"},
			line{what: "raw driver loop, same rows, 100 per transaction, synchronous=" + level.synchronous + " (rows/s)", key: "raw" + at, format: "%.0f"},
			line{what: "ingest ÷ raw driver loop" + of, key: "ingest/raw" + at, format: "%.2f", target: "≥ 0.9", met: func(m float64) bool { return m >= 0.9 }},
			line{what: "gateway CPU per stored reading (µs)" + of, key: "cpu" + at, format: "%.2f"},
			line{what: "raw driver loop CPU per row (µs), synchronous=" + level.synchronous, key: "cpu-raw" + at, format: "%.2f"},
			line{what: "CPU per reading, gateway ÷ raw" + of, key: "cpu/raw" + at, format: "%.2f", target: "≤ 1.5", met: func(m float64) bool { return m <= 1.5 }},
			line{what: "1 sender × 1 reading (readings/s)" + of, key: "1x1" + at, format: "%.0f", target: "≥ 3000", met: func(m float64) bool { return m >= 3000 }},
			line{what: "raw driver loop, 1 row per transaction, synchronous=" + level.synchronous + " (rows/s)", key: "1x1-raw" + at, format: "%.0f"},
			atPower(line{what: "1 × 1 ÷ raw driver loop at 1 row per transaction" + of, key: "1x1/raw" + at, format: "%.2f"}, level.name, 0.8),
			line{what: "1 sender × 1 reading to a bare net/http handler answering at once, round trip (µs)", key: "1x1-rtt" + at, format: "%.0f"},
			line{what: "1 × 1 ceiling: one raw one-row commit plus that round trip a reading (readings/s)" + of, key: "1x1-ceiling" + at, format: "%.0f"},
			line{what: "1 × 1 ÷ that ceiling" + of, key: "1x1/ceiling" + at, format: "%.2f"},
			line{what: "4 senders × 10 readings (readings/s)" + of, key: "4x10" + at, format: "%.0f", target: "≥ 40000", met: func(m float64) bool { return m >= 40000 }},
			line{what: "raw driver loop, 40 rows per transaction, synchronous=" + level.synchronous + " (rows/s)", key: "4x10-raw" + at, format: "%.0f"},
			atPower(line{what: "4 × 10 ÷ raw driver loop at 40 rows per transaction" + of, key: "4x10/raw" + at, format: "%.2f"}, level.name, 0.5),
			line{what: "16 senders × 10 readings (readings/s)" + of, key: "16x10" + at, format: "%.0f"},
			line{what: "gateway RSS during full-rate ingest, peak (MiB)" + of, key: "rss" + at, format: "%.1f", target: "≤ 100", met: func(m float64) bool { return m <= 100 }},
		)
	}
	lines = append(lines,
		line{what: "ingest 4 × 100, SQLite, no pipeline, beside the next row (stored readings/s)", key: "pipeline-plain", format: "%.0f"},
		line{what: "ingest 4 × 100 through scale → expression → delta (stored readings/s)", key: "pipeline", format: "%.0f"},
		line{what: "ingest through the three-filter pipeline ÷ without", key: "pipeline/ingest", format: "%.2f", target: "≥ 0.8", met: func(m float64) bool { return m >= 0.8 }},
		line{what: "ingest 4 × 100, SQLite, notification service stopped, beside the next row (stored readings/s)", key: "notify-stopped", format: "%.0f"},
		line{what: fmt.Sprintf("ingest 4 × 100 with the notification service evaluating %d threshold rules (stored readings/s)", rulesPerRun), key: "notify-rules", format: "%.0f"},
		line{what: fmt.Sprintf("ingest with %d rules ÷ without", rulesPerRun), key: "notify/ingest", format: "%.2f", target: "≥ 0.9", met: func(m float64) bool { return m >= 0.9 }},
		line{what: "reading committed → webhook delivered during that ingest, median (ms)", key: "notify-p50-ms", format: "%.1f"},
		line{what: "reading committed → webhook delivered during that ingest, 95th percentile (ms)", key: "notify-p95-ms", format: "%.1f", target: "≤ 1000", met: func(m float64) bool { return m <= 1000 }},
		line{what: "ingest 4 × 100, durability power ÷ process", key: "power/process", format: "%.2f", target: "≥ 0.9", met: func(m float64) bool { return m >= 0.9 }},
		line{what: "ingest 4 × 100, PostgreSQL (stored readings/s)", key: "pg", format: "%.0f"},
		line{what: "raw COPY, same rows, 100 per transaction (rows/s)", key: "pg-raw", format: "%.0f"},
		line{what: "PostgreSQL ingest ÷ raw COPY", key: "pg/raw", format: "%.2f", target: "≥ 0.85", met: func(m float64) bool { return m >= 0.85 }},
		line{what: "4 × 100, every reading a never-seen asset, 10 000 assets, SQLite (stored readings/s)", key: "firstseen", format: "%.0f"},
		line{what: "the same requests, assets known, SQLite (stored readings/s)", key: "known", format: "%.0f"},
		line{what: "first-seen assets ÷ known, SQLite", key: "firstseen/known", format: "%.2f", target: "≥ 0.5", met: func(m float64) bool { return m >= 0.5 }},
		line{what: "4 × 100, every reading a never-seen asset, 10 000 assets, PostgreSQL (stored readings/s)", key: "firstseen-pg", format: "%.0f"},
		line{what: "the same requests, assets known, PostgreSQL (stored readings/s)", key: "known-pg", format: "%.0f"},
		line{what: "first-seen assets ÷ known, PostgreSQL", key: "firstseen/known-pg", format: "%.2f", target: "≥ 0.5", met: func(m float64) bool { return m >= 0.5 }},
		line{what: fmt.Sprintf("DELETE /edge/asset/{code} of a %d-reading asset, SQLite: answered (s)", s.o.big), key: "purge-answer-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: fmt.Sprintf("DELETE /edge/asset/{code} of a %d-reading asset, SQLite: finished (s)", s.o.big), key: "purge-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: "readings it deleted (the answer's count, or the task's pending), SQLite", key: "purge-readings", format: "%.0f"},
		line{what: "ingest rate in the window from its start (or during it, when longer) ÷ before, SQLite", key: "purge-ratio", format: "%.2f", target: "≥ 0.7", met: func(m float64) bool { return m >= 0.7 }},
		line{what: "slowest ingest request during it (ms), SQLite", key: "purge-max-ms", format: "%.1f", target: "≤ 100", met: func(m float64) bool { return m <= 100 }},
		line{what: fmt.Sprintf("DELETE /edge/asset, %d readings over 10 assets and what the ingest load stored, SQLite: answered (s)", s.o.big), key: "deleteall-answer-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: fmt.Sprintf("DELETE /edge/asset, %d readings over 10 assets and what the ingest load stored, SQLite: finished (s)", s.o.big), key: "deleteall-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: "readings it deleted (the answer's count, or the task's pending), SQLite", key: "deleteall-readings", format: "%.0f"},
		line{what: "ingest rate in the window from its start (or during it, when longer) ÷ before, SQLite", key: "deleteall-ratio", format: "%.2f", target: "≥ 0.7", met: func(m float64) bool { return m >= 0.7 }},
		line{what: "slowest ingest request during it (ms), SQLite", key: "deleteall-max-ms", format: "%.1f", target: "≤ 100", met: func(m float64) bool { return m <= 100 }},
		line{what: fmt.Sprintf("DELETE /edge/asset/{code} of a %d-reading asset, PostgreSQL: answered (s)", s.o.big), key: "purge-pg-answer-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: fmt.Sprintf("DELETE /edge/asset/{code} of a %d-reading asset, PostgreSQL: finished (s)", s.o.big), key: "purge-pg-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: "readings it deleted (the answer's count, or the task's pending), PostgreSQL", key: "purge-pg-readings", format: "%.0f"},
		line{what: "ingest rate in the window from its start (or during it, when longer) ÷ before, PostgreSQL", key: "purge-pg-ratio", format: "%.2f", target: "≥ 0.7", met: func(m float64) bool { return m >= 0.7 }},
		line{what: "slowest ingest request during it (ms), PostgreSQL", key: "purge-pg-max-ms", format: "%.1f", target: "≤ 100", met: func(m float64) bool { return m <= 100 }},
		line{what: fmt.Sprintf("DELETE /edge/asset, %d readings over 10 assets and what the ingest load stored, PostgreSQL: answered (s)", s.o.big), key: "deleteall-pg-answer-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: fmt.Sprintf("DELETE /edge/asset, %d readings over 10 assets and what the ingest load stored, PostgreSQL: finished (s)", s.o.big), key: "deleteall-pg-seconds", format: "%.2f", target: "≤ 5", met: func(m float64) bool { return m <= 5 }},
		line{what: "readings it deleted (the answer's count, or the task's pending), PostgreSQL", key: "deleteall-pg-readings", format: "%.0f"},
		line{what: "ingest rate in the window from its start (or during it, when longer) ÷ before, PostgreSQL", key: "deleteall-pg-ratio", format: "%.2f", target: "≥ 0.7", met: func(m float64) bool { return m >= 0.7 }},
		line{what: "slowest ingest request during it (ms), PostgreSQL", key: "deleteall-pg-max-ms", format: "%.1f", target: "≤ 100", met: func(m float64) bool { return m <= 100 }},
		line{what: "GET /edge/ping, 32 connections (req/s)", key: "ping", format: "%.0f"},
		line{what: "bare net/http handler, same load (req/s)", key: "bare", format: "%.0f"},
		line{what: "ping ÷ bare net/http", key: "ping/bare", format: "%.2f", target: "≥ 0.5", met: func(m float64) bool { return m >= 0.5 }},
		line{what: fmt.Sprintf("summary of one datapoint, %d readings (ms)", s.o.big), key: "summary-big", format: "%.2f", target: "≤ 50", met: func(m float64) bool { return m <= 50 }},
		line{what: fmt.Sprintf("summary of one datapoint, %d readings (ms)", s.o.small), key: "summary-small", format: "%.2f"},
		line{what: fmt.Sprintf("latest-20 browse, %d readings (ms)", s.o.big), key: "latest-big", format: "%.2f"},
		line{what: fmt.Sprintf("latest-20 browse, %d readings (ms)", s.o.small), key: "latest-small", format: "%.2f"},
		line{what: "latest-20 browse, large ÷ small", key: "latest-big/small", format: "%.2f", target: "≤ 1.5", met: func(m float64) bool { return m <= 1.5 }},
		line{what: fmt.Sprintf("series, 20 buckets, %d readings (ms)", s.o.big), key: "series-big", format: "%.2f"},
		line{what: "asset list (ms)", key: "assets", format: "%.2f"},
	)
	var b strings.Builder
	b.WriteString("| what |")
	for i := range s.o.reps {
		fmt.Fprintf(&b, " %d |", i+1)
	}
	b.WriteString(" median | spread | target | met |\n|---|")
	b.WriteString(strings.Repeat("---:|", s.o.reps))
	b.WriteString("---:|---:|---|---|\n")
	for _, l := range lines {
		r := s.rows[l.key]
		if r == nil {
			continue // not measured (no PostgreSQL)
		}
		fmt.Fprintf(&b, "| %s |", l.what)
		for _, v := range r.values {
			fmt.Fprintf(&b, " "+l.format+" |", v)
		}
		m := median(r.values)
		spread := ""
		if ok := slices.DeleteFunc(slices.Clone(r.values), math.IsNaN); len(ok) > 1 && m != 0 {
			spread = fmt.Sprintf("±%.0f%%", (slices.Max(ok)-slices.Min(ok))/2/m*100)
		}
		verdict := ""
		if l.met != nil {
			verdict = "no"
			if l.met(m) {
				verdict = "yes"
			}
		}
		fmt.Fprintf(&b, " **"+l.format+"** | %s | %s | %s |\n", m, spread, l.target, verdict)
	}
	return b.String()
}
