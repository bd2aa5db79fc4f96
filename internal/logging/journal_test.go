package logging

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/configmgr"
)

// logger returns a logger feeding j at every level.
func logger(j *Journal) *slog.Logger {
	return slog.New(j.Handler(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug})))
}

// all returns every line of j, newest first, and the count.
func all(t *testing.T, j *Journal) ([]Entry, int) {
	t.Helper()
	es, n, err := j.Query(Query{Level: AllLevels, Limit: 10000})
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	return es, n
}

func messages(es []Entry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Message
	}
	return out
}

func TestHandlerSourceAndAttrs(t *testing.T) {
	j := NewJournal()
	log := logger(j)
	log.Info("plain", "n", 3, "ok", true)
	log.With("service", "sine").Warn("from the logger", "error", errors.New("boom"))
	log.Error("from the call", "service", "north-1", "d", 2*time.Second)
	log.WithGroup("g").With("service", "not a source").Info("grouped", slog.Group("h", "k", "v"))
	log.With("service", 7).Info("not a string")

	es, n := all(t, j)
	if n != 5 {
		t.Fatalf("count = %d, want 5", n)
	}
	tests := []struct {
		msg    string
		source string
		level  slog.Level
		attrs  map[string]any
	}{
		{"not a string", SourceCore, slog.LevelInfo, map[string]any{"service": int64(7)}},
		{"grouped", SourceCore, slog.LevelInfo, map[string]any{"g.service": "not a source", "g.h.k": "v"}},
		{"from the call", "north-1", slog.LevelError, map[string]any{"d": "2s"}},
		{"from the logger", "sine", slog.LevelWarn, map[string]any{"error": "boom"}},
		{"plain", SourceCore, slog.LevelInfo, map[string]any{"n": int64(3), "ok": true}},
	}
	for i, tc := range tests {
		t.Run(tc.msg, func(t *testing.T) {
			e := es[i]
			if e.Message != tc.msg || e.Source != tc.source || e.Level != tc.level || !reflect.DeepEqual(e.Attrs, tc.attrs) {
				t.Errorf("entry = %+v, want message %q source %q level %v attrs %v", e, tc.msg, tc.source, tc.level, tc.attrs)
			}
			if time.Since(e.Time) > time.Minute || e.Time.IsZero() {
				t.Errorf("time = %v", e.Time)
			}
		})
	}
}

// TestHandlerFollowsNextLevel: the journal holds what the next handler
// logs, no lower level.
func TestHandlerFollowsNextLevel(t *testing.T) {
	j := NewJournal()
	var lv slog.LevelVar
	lv.Set(slog.LevelWarn)
	log := slog.New(j.Handler(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: &lv})))
	log.Info("hidden")
	log.Warn("shown")
	if es, _ := all(t, j); !reflect.DeepEqual(messages(es), []string{"shown"}) {
		t.Errorf("lines = %q, want [shown]", messages(es))
	}
}

// fixture is a journal holding six lines a second apart from t0, of the
// sources and levels listed.
func fixture(t *testing.T, j *Journal) time.Time {
	t.Helper()
	t0 := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	lines := []struct {
		src   string
		level slog.Level
	}{
		{"core", slog.LevelDebug}, {"sine", slog.LevelInfo}, {"sine", slog.LevelWarn},
		{"out", slog.LevelWarn}, {"sine", slog.LevelError}, {"core", slog.LevelInfo},
	}
	for i, l := range lines {
		j.add(Entry{Time: t0.Add(time.Duration(i) * time.Second), Level: l.level, Source: l.src, Message: fmt.Sprintf("m%d", i)})
	}
	return t0
}

func TestQueryFilters(t *testing.T) {
	check := func(t *testing.T, j *Journal) {
		t0 := fixture(t, j)
		tests := []struct {
			name  string
			q     Query
			want  []string
			count int
		}{
			{"everything", Query{Level: AllLevels, Limit: 20}, []string{"m5", "m4", "m3", "m2", "m1", "m0"}, 6},
			{"default level floor", Query{Level: slog.LevelInfo, Limit: 20}, []string{"m5", "m4", "m3", "m2", "m1"}, 5},
			{"source", Query{Source: "sine", Level: AllLevels, Limit: 20}, []string{"m4", "m2", "m1"}, 3},
			{"source and level", Query{Source: "sine", Level: slog.LevelWarn, Limit: 20}, []string{"m4", "m2"}, 2},
			{"level and above", Query{Level: slog.LevelWarn, Limit: 20}, []string{"m4", "m3", "m2"}, 3},
			{"error", Query{Level: slog.LevelError, Limit: 20}, []string{"m4"}, 1},
			{"core", Query{Source: SourceCore, Level: AllLevels, Limit: 20}, []string{"m5", "m0"}, 2},
			{"unknown source", Query{Source: "nope", Level: AllLevels, Limit: 20}, []string{}, 0},
			{"since inclusive", Query{Level: AllLevels, Since: t0.Add(4 * time.Second), Limit: 20}, []string{"m5", "m4"}, 2},
			{"until exclusive", Query{Level: AllLevels, Until: t0.Add(2 * time.Second), Limit: 20}, []string{"m1", "m0"}, 2},
			{"window", Query{Level: AllLevels, Since: t0.Add(time.Second), Until: t0.Add(3 * time.Second), Limit: 20}, []string{"m2", "m1"}, 2},
			{"limit", Query{Level: AllLevels, Limit: 2}, []string{"m5", "m4"}, 6},
			{"skip", Query{Level: AllLevels, Skip: 2, Limit: 3}, []string{"m3", "m2", "m1"}, 6},
			{"skip past the end", Query{Level: AllLevels, Skip: 10, Limit: 3}, []string{}, 6},
			{"filtered page", Query{Source: "sine", Level: AllLevels, Skip: 1, Limit: 1}, []string{"m2"}, 3},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				es, n, err := j.Query(tc.q)
				if err != nil {
					t.Fatal(err)
				}
				if got := messages(es); n != tc.count || !reflect.DeepEqual(got, tc.want) {
					t.Errorf("Query = %q (count %d), want %q (count %d)", got, n, tc.want, tc.count)
				}
			})
		}
	}
	// The same answers whether the lines are in the ring or only in the
	// file: a ring of one line leaves five to the file.
	t.Run("ring", func(t *testing.T) { check(t, NewJournal()) })
	t.Run("file", func(t *testing.T) {
		j := newJournal(1, 1<<20)
		if err := j.SetFile(filepath.Join(t.TempDir(), FileName), 1<<20, 1); err != nil {
			t.Fatal(err)
		}
		check(t, j)
	})
}

func TestRingBounds(t *testing.T) {
	t.Run("lines", func(t *testing.T) {
		j := newJournal(3, 1<<20)
		for i := range 5 {
			j.add(Entry{Time: time.Now(), Message: fmt.Sprint(i)})
		}
		if es, n := all(t, j); n != 3 || !reflect.DeepEqual(messages(es), []string{"4", "3", "2"}) {
			t.Errorf("ring = %q (%d), want the newest 3", messages(es), n)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		long := strings.Repeat("x", 1000)
		j := newJournal(100, 2500)
		for i := range 5 {
			j.add(Entry{Time: time.Now(), Message: fmt.Sprint(i) + long})
		}
		es, n := all(t, j)
		if n != 2 || es[0].Message[0] != '4' || es[1].Message[0] != '3' {
			t.Errorf("ring holds %d lines, want the newest 2 (2500 bytes)", n)
		}
	})
	t.Run("a line larger than the bound stays", func(t *testing.T) {
		j := newJournal(100, 10)
		j.add(Entry{Time: time.Now(), Message: "longer than ten bytes"})
		if _, n := all(t, j); n != 1 {
			t.Errorf("ring holds %d lines, want 1", n)
		}
	})
}

// TestFileHoldsOlderLines: lines the ring evicted come from the file,
// each once, newest first, across the ring's edge; the lines logged before
// the file was set are in it too.
func TestFileHoldsOlderLines(t *testing.T) {
	j := newJournal(4, 1<<20)
	log := logger(j)
	log.Info("early") // before the file: written when it is set
	path := filepath.Join(t.TempDir(), "logs", FileName)
	if err := j.SetFile(path, 1<<20, 2); err != nil {
		t.Fatal(err)
	}
	for i := range 9 {
		log.Warn(fmt.Sprintf("l%d", i), "service", "sine", "i", i)
	}
	es, n := all(t, j)
	want := []string{"l8", "l7", "l6", "l5", "l4", "l3", "l2", "l1", "l0", "early"}
	if n != 10 || !reflect.DeepEqual(messages(es), want) {
		t.Fatalf("lines = %q (count %d), want %q", messages(es), n, want)
	}
	if e := es[8]; e.Source != "sine" || e.Level != slog.LevelWarn || fmt.Sprint(e.Attrs["i"]) != "0" {
		t.Errorf("line from the file = %+v", e)
	}
	page, n, err := j.Query(Query{Level: AllLevels, Skip: 3, Limit: 3})
	if err != nil || n != 10 || !reflect.DeepEqual(messages(page), []string{"l5", "l4", "l3"}) {
		t.Errorf("page across the ring's edge = %q (count %d, %v)", messages(page), n, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode = %v, %v; want 0600", fi, err)
	}
}

// TestEarlierRunLines: a gateway started again reads the lines of its
// earlier run from the file, and a damaged line is skipped.
func TestEarlierRunLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	first := NewJournal()
	if err := first.SetFile(path, 1<<20, 1); err != nil {
		t.Fatal(err)
	}
	logger(first).Warn("before", "service", "out")
	if err := first.SetFile("", 0, 0); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"time":"2026-`); err != nil { // cut by a crash
		t.Fatal(err)
	}
	_ = f.Close()

	second := NewJournal()
	if err := second.SetFile(path, 1<<20, 1); err != nil {
		t.Fatal(err)
	}
	logger(second).Info("after")
	es, n := all(t, second)
	if n != 2 || !reflect.DeepEqual(messages(es), []string{"after", "before"}) || es[1].Source != "out" {
		t.Errorf("lines = %+v (count %d), want after, before (of out)", es, n)
	}
}

func TestFileRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	j := newJournal(1, 1<<20)
	if err := j.SetFile(path, 400, 1); err != nil {
		t.Fatal(err)
	}
	log := logger(j)
	for i := range 40 {
		log.Info(fmt.Sprintf("line %02d", i))
	}
	names, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{path, path + ".1"}; !reflect.DeepEqual(names, want) {
		t.Errorf("files = %q, want %q", names, want)
	}
	for _, p := range names {
		if fi, err := os.Stat(p); err != nil || fi.Size() > 400+200 {
			t.Errorf("%s: %v, %v; want at most about 400 bytes", p, fi, err)
		}
	}
	es, n := all(t, j)
	if n >= 40 || n < 3 || es[0].Message != "line 39" {
		t.Fatalf("lines = %q (count %d): want the newest, fewer than all", messages(es), n)
	}
	for i, e := range es { // consecutive, newest first: nothing lost between the files
		if want := fmt.Sprintf("line %02d", 39-i); e.Message != want {
			t.Fatalf("line %d = %q, want %q", i, e.Message, want)
		}
	}
	// keep lowered to 0: the next rotation leaves the current file only
	if err := j.SetFile(path, 400, 0); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		log.Info(fmt.Sprintf("more %02d", i))
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*")); !reflect.DeepEqual(names, []string{path}) {
		t.Errorf("files after keep 0 = %q, want only %s", names, path)
	}
}

func TestFollowFile(t *testing.T) {
	m := seeded(t)
	dir := t.TempDir()
	j := NewJournal()
	log := logger(j)
	cancel, err := FollowFile(t.Context(), m, j, dir, log)
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	path := filepath.Join(dir, FileName)
	log.Info("one")
	if b, err := os.ReadFile(path); err != nil || !strings.Contains(string(b), `"message":"one"`) {
		t.Fatalf("log file by default = %q, %v", b, err)
	}
	if _, err := m.SetValue(t.Context(), configmgr.CategoryLogging, configmgr.ItemLogFileSize, "0"); err != nil {
		t.Fatal(err)
	}
	log.Info("two")
	if b, _ := os.ReadFile(path); strings.Contains(string(b), `"message":"two"`) {
		t.Errorf("logFileSize 0 still writes the file: %s", b)
	}
	if _, err := m.SetValue(t.Context(), configmgr.CategoryLogging, configmgr.ItemLogFileSize, "1"); err != nil {
		t.Fatal(err)
	}
	log.Info("three")
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"message":"two"`) || !strings.Contains(string(b), `"message":"three"`) {
		t.Errorf("file after logFileSize 1 = %q, %v; want two (from the ring) and three", b, err)
	}
	// logFileCount: 0 keeps no rotated file, 1 keeps one
	long := strings.Repeat("x", 1000)
	fill := func() { // a little more than the 1 MiB the file rotates at
		for range 1100 {
			log.Info(long)
		}
	}
	if _, err := m.SetValue(t.Context(), configmgr.CategoryLogging, configmgr.ItemLogFileCount, "0"); err != nil {
		t.Fatal(err)
	}
	fill()
	if _, err := os.Stat(path + ".1"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("logFileCount 0: %s.1 exists (%v)", path, err)
	}
	if _, err := m.SetValue(t.Context(), configmgr.CategoryLogging, configmgr.ItemLogFileCount, "1"); err != nil {
		t.Fatal(err)
	}
	fill()
	if _, err := os.Stat(path + ".1"); err != nil {
		t.Errorf("logFileCount 1: no rotated file: %v", err)
	}
	cancel()
	log.Info("four")
	if b, _ := os.ReadFile(path); strings.Contains(string(b), `"message":"four"`) {
		t.Errorf("the file is still written after cancel: %s", b)
	}
}

// TestConcurrentLinesAndQueries: lines logged from many goroutines while
// queries read and the file rotates are each found exactly once.
func TestConcurrentLinesAndQueries(t *testing.T) {
	j := newJournal(16, 1<<20)
	if err := j.SetFile(filepath.Join(t.TempDir(), FileName), 4096, 1000); err != nil {
		t.Fatal(err)
	}
	log := logger(j)
	const writers, each = 4, 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 50 {
			if _, _, err := j.Query(Query{Level: AllLevels, Limit: 100}); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				log.Info(fmt.Sprintf("w%d-%d", w, i))
			}
		})
	}
	wg.Wait()
	<-done
	es, n := all(t, j)
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.Message] {
			t.Fatalf("line %s twice", e.Message)
		}
		seen[e.Message] = true
	}
	if n != writers*each || len(seen) != writers*each {
		t.Errorf("count %d, %d distinct lines; want %d", n, len(seen), writers*each)
	}
}

// TestFileFailureIsSaid: a file that cannot be rotated keeps growing, every
// line is still found, and one error line says what is wrong.
func TestFileFailureIsSaid(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, FileName)
	// a directory where the rotated file goes: the rename fails
	if err := os.MkdirAll(filepath.Join(path+".1", "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	j := NewJournal() // the error line is in the ring only
	if err := j.SetFile(path, 200, 1); err != nil {
		t.Fatal(err)
	}
	log := logger(j)
	for i := range 10 {
		log.Info(fmt.Sprintf("line %d", i))
	}
	es, _ := all(t, j)
	var lines, failures int
	for _, e := range es {
		switch {
		case strings.HasPrefix(e.Message, "line "):
			lines++
		case e.Message == "the log file could not be written or rotated" && e.Level == slog.LevelError:
			failures++
		}
	}
	if lines != 10 || failures != 1 {
		t.Errorf("%d lines and %d failure lines, want 10 and 1: %q", lines, failures, messages(es))
	}
	if b, err := os.ReadFile(path); err != nil || strings.Count(string(b), `"message":"line `) != 10 {
		t.Errorf("the file not rotated holds %q, %v; want the 10 lines", b, err)
	}
}
