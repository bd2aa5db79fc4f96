package logging

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/configmgr"
)

// nopAudit discards audit entries.
type nopAudit struct{}

func (nopAudit) Record(context.Context, string, string, any) error { return nil }

// syncBuffer is a log sink safe for concurrent writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// seeded returns a configuration manager over a fresh seeded store.
func seeded(t *testing.T) *configmgr.Manager {
	t.Helper()
	m := configmgr.New(dbtest.SQLite(t), nopAudit{}, nil)
	if err := m.Seed(t.Context()); err != nil {
		t.Fatalf("Seed: %v", err)
	}
	return m
}

func setLevel(t *testing.T, m *configmgr.Manager, v string) {
	t.Helper()
	if _, err := m.SetValue(t.Context(), configmgr.CategoryLogging, configmgr.ItemLogLevel, v); err != nil {
		t.Fatalf("SetValue(logLevel, %q): %v", v, err)
	}
}

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    slog.Level
		wantErr bool
	}{
		{in: "debug", want: slog.LevelDebug},
		{in: "info", want: slog.LevelInfo},
		{in: "warning", want: slog.LevelWarn},
		{in: "warn", want: slog.LevelWarn},
		{in: "ERROR", want: slog.LevelError},
		{in: "", wantErr: true},
		{in: "verbose", wantErr: true},
		{in: "info+2", wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseLevel(tt.in)
			if (err != nil) != tt.wantErr || (!tt.wantErr && got != tt.want) {
				t.Errorf("ParseLevel(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.wantErr)
			}
		})
	}
}

func TestFollowSetsTheLevelAtStart(t *testing.T) {
	tests := []struct {
		name   string
		stored string
		keep   bool
		want   slog.Level
	}{
		{name: "default info", stored: "", want: slog.LevelInfo},
		{name: "stored warning", stored: "warning", want: slog.LevelWarn},
		{name: "stored debug", stored: "debug", want: slog.LevelDebug},
		{name: "kept over the stored value", stored: "error", keep: true, want: slog.LevelDebug},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := seeded(t)
			if tt.stored != "" {
				setLevel(t, m, tt.stored)
			}
			var level slog.LevelVar
			level.Set(slog.LevelDebug)
			cancel, err := Follow(t.Context(), m, &level, tt.keep, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatalf("Follow: %v", err)
			}
			defer cancel()
			if got := level.Level(); got != tt.want {
				t.Errorf("level = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFollowAppliesChangesLive shows that changing LOGGING.logLevel
// changes what a logger on the level writes, at once, and that cancel
// stops following.
func TestFollowAppliesChangesLive(t *testing.T) {
	m := seeded(t)
	var (
		level slog.LevelVar
		out   syncBuffer
	)
	log := slog.New(slog.NewTextHandler(&out, &slog.HandlerOptions{Level: &level}))
	cancel, err := Follow(t.Context(), m, &level, false, log)
	if err != nil {
		t.Fatalf("Follow: %v", err)
	}

	log.Debug("quiet-1")
	setLevel(t, m, "debug")
	log.Debug("loud-1")
	setLevel(t, m, "error")
	log.Warn("quiet-2")
	log.Error("loud-2")
	cancel()
	setLevel(t, m, "debug")
	log.Debug("quiet-3")

	got := out.String()
	for _, s := range []string{"loud-1", "loud-2", "log level changed"} {
		if !strings.Contains(got, s) {
			t.Errorf("log lacks %q:\n%s", s, got)
		}
	}
	for _, s := range []string{"quiet-1", "quiet-2", "quiet-3"} {
		if strings.Contains(got, s) {
			t.Errorf("log holds %q, which the level at the time filters out:\n%s", s, got)
		}
	}
	if level.Level() != slog.LevelError {
		t.Errorf("level after cancel = %v, want it left at error", level.Level())
	}
}

// damaged is a ConfigSource whose stored level is not a level.
type damaged struct{}

func (damaged) Value(context.Context, string, string) (string, error) { return "loud", nil }
func (damaged) Subscribe(string, func(context.Context, configmgr.Category) error) func() {
	return func() {}
}

func TestFollowKeepsTheLevelOnADamagedValue(t *testing.T) {
	var (
		level slog.LevelVar
		out   syncBuffer
	)
	level.Set(slog.LevelWarn)
	cancel, err := Follow(t.Context(), damaged{}, &level, false, slog.New(slog.NewTextHandler(&out, nil)))
	if err != nil {
		t.Fatalf("Follow: %v", err)
	}
	defer cancel()
	if level.Level() != slog.LevelWarn {
		t.Errorf("level = %v, want it kept at warn", level.Level())
	}
	if !strings.Contains(out.String(), "loud") {
		t.Errorf("the bad value is not logged: %q", out.String())
	}
}
