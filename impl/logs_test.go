package impl_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/impl"
	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/logging"
	"github.com/edged/edged/internal/router"
)

// logsAPI serves the API over a journal j fed by the returned logger, with
// every call allowed.
func logsAPI(t *testing.T) (*httptest.Server, *slog.Logger) {
	t.Helper()
	j := logging.NewJournal()
	log := slog.New(j.Handler(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug})))
	allow := func(r *http.Request, _ router.Operation) (context.Context, error) { return r.Context(), nil }
	h, err := app.Handler(impl.New(impl.Deps{Logs: j}), slog.New(slog.DiscardHandler), allow, nil,
		func(string) (string, bool) { return "", false }, nil)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, log
}

type logList struct {
	Count int `json:"count"`
	Logs  []struct {
		Timestamp string         `json:"timestamp"`
		Level     string         `json:"level"`
		Source    string         `json:"source"`
		Message   string         `json:"message"`
		Attrs     map[string]any `json:"attrs"`
	} `json:"logs"`
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url) //nolint:noctx // a test
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type = %q", ct)
	}
	return resp.StatusCode, b
}

func TestListLogEntries(t *testing.T) {
	srv, log := logsAPI(t)
	before := time.Now().UTC().Add(-time.Second)
	log.Info("core line")
	log.With("service", "sine").Info("sine info")
	log.With("service", "sine").Warn("sine warning", "error", "device slow", "attempt", 2)
	log.With("service", "out").Error("out error")
	log.With("service", "sine").Error("sine error")

	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$`)
	status, b := get(t, srv.URL+"/edge/syslog?source=sine&level=warning")
	if status != http.StatusOK {
		t.Fatalf("status %d: %s", status, b)
	}
	var l logList
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatal(err)
	}
	if l.Count != 2 || len(l.Logs) != 2 || l.Logs[0].Message != "sine error" || l.Logs[1].Message != "sine warning" {
		t.Fatalf("answer = %s, want the sine error and warning, newest first", b)
	}
	w := l.Logs[1]
	if w.Level != "warning" || w.Source != "sine" || !stamp.MatchString(w.Timestamp) ||
		w.Attrs["error"] != "device slow" || w.Attrs["attempt"] != float64(2) {
		t.Errorf("warning = %+v", w)
	}
	if l.Logs[0].Level != "error" {
		t.Errorf("error line level = %q", l.Logs[0].Level)
	}

	status, b = get(t, srv.URL+"/edge/syslog?source=core&limit=1")
	if err := json.Unmarshal(b, &l); status != http.StatusOK || err != nil || l.Count != 1 || l.Logs[0].Message != "core line" ||
		l.Logs[0].Attrs == nil {
		t.Errorf("core: %d %s", status, b)
	}
	if !strings.Contains(string(b), `"attrs":{}`) {
		t.Errorf("a line without attributes has no empty attrs object: %s", b)
	}

	since := before.Format("2006-01-02 15:04:05.000")
	status, b = get(t, srv.URL+"/edge/syslog?skip=1&limit=2&since="+strings.ReplaceAll(since, " ", "%20"))
	if err := json.Unmarshal(b, &l); status != http.StatusOK || err != nil || l.Count != 5 || len(l.Logs) != 2 ||
		l.Logs[0].Message != "out error" {
		t.Errorf("paged since %s: %d %s", since, status, b)
	}
	until := before.Format(time.RFC3339)
	status, b = get(t, srv.URL+"/edge/syslog?until="+until)
	if err := json.Unmarshal(b, &l); status != http.StatusOK || err != nil || l.Count != 0 || l.Logs == nil {
		t.Errorf("until %s: %d %s; want none", until, status, b)
	}
}

func TestListLogEntriesErrors(t *testing.T) {
	srv, _ := logsAPI(t)
	tests := []struct {
		name, query, mention string
	}{
		{"unknown level", "level=loud", "level"},
		{"level in another case", "level=WARNING", "level"},
		{"limit zero", "limit=0", "limit"},
		{"limit too large", "limit=10001", "limit"},
		{"limit not a number", "limit=ten", "limit"},
		{"negative skip", "skip=-1", "skip"},
		{"empty source", "source=", "source"},
		{"since not a time", "since=yesterday", "since"},
		{"until not a time", "until=2024-13-01%2000:00:00", "until"},
		{"since after until", "since=2024-05-02%2000:00:00&until=2024-05-01%2000:00:00", "since"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, b := get(t, srv.URL+"/edge/syslog?"+tc.query)
			var e map[string]any
			if err := json.Unmarshal(b, &e); status != http.StatusBadRequest || err != nil || len(e) != 1 {
				t.Fatalf("status %d, body %s; want 400 {message}", status, b)
			}
			if msg, _ := e["message"].(string); !strings.Contains(msg, tc.mention) {
				t.Errorf("message %q does not name %s", msg, tc.mention)
			}
		})
	}
}
