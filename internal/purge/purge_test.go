package purge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/stats"
)

var now = time.Date(2024, 5, 10, 12, 0, 0, 0, time.UTC)

// fakeConfig holds the items the purges read: those of PURGE_READ keyed
// by item name, and SCHEDULER.max_completed_task_age_days. Any other item
// is not found.
type fakeConfig map[string]string

func (c fakeConfig) Value(_ context.Context, key, item string) (string, error) {
	want := configmgr.CategoryPurge
	if item == configmgr.ItemMaxCompletedTaskAgeDays {
		want = configmgr.CategoryScheduler
	}
	v, ok := c[item]
	if key != want || !ok {
		return "", fault.New(fault.NotFound, "no %s/%s", key, item)
	}
	return v, nil
}

func config(over map[string]string) fakeConfig {
	c := fakeConfig{
		configmgr.ItemPurgeAge: "72", configmgr.ItemPurgeSize: "1000000", configmgr.ItemRetainUnsent: configmgr.RetainUnsentPurge,
		configmgr.ItemRetainAuditLog: "30", configmgr.ItemRetainStatsHistory: "7", configmgr.ItemMaxCompletedTaskAgeDays: "30",
	}
	for k, v := range over {
		c[k] = v
	}
	return c
}

type entry struct {
	source, severity string
	details          map[string]any
}

type fakeAudit struct {
	mu      sync.Mutex
	entries []entry
}

func (a *fakeAudit) Record(_ context.Context, source, severity string, details any) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	b, _ := json.Marshal(details)
	var d map[string]any
	_ = json.Unmarshal(b, &d)
	a.entries = append(a.entries, entry{source: source, severity: severity, details: d})
	return nil
}

// statistic returns a statistic's value, 0 when it does not exist.
func statistic(t *testing.T, d *db.DB, key string) int64 {
	t.Helper()
	s, err := d.GetStatistic(t.Context(), key)
	if errors.Is(err, db.ErrNotFound) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return s.Value
}

// TestSystemRetentionSettings changes each retention item and finds what
// the system purge removes change with it.
func TestSystemRetentionSettings(t *testing.T) {
	tests := []struct {
		name   string
		config map[string]string
		want   SystemResult
	}{
		{name: "defaults", want: SystemResult{AuditRows: 2, HistoryRows: 4, Tasks: 2}},
		{name: "longer audit retention", config: map[string]string{configmgr.ItemRetainAuditLog: "35"},
			want: SystemResult{AuditRows: 1, HistoryRows: 4, Tasks: 2}},
		{name: "shorter statistics history", config: map[string]string{configmgr.ItemRetainStatsHistory: "5"},
			want: SystemResult{AuditRows: 2, HistoryRows: 6, Tasks: 2}},
		{name: "shorter task history (SCHEDULER)", config: map[string]string{configmgr.ItemMaxCompletedTaskAgeDays: "1"},
			want: SystemResult{AuditRows: 2, HistoryRows: 4, Tasks: 3}},
		{name: "longer task history (SCHEDULER)", config: map[string]string{configmgr.ItemMaxCompletedTaskAgeDays: "60"},
			want: SystemResult{AuditRows: 2, HistoryRows: 4}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := systemHistory(t)
			p := New(Options{Store: d, Config: config(tt.config), Audit: &fakeAudit{}, Clock: clock.NewFake(now)})
			if res, err := p.System(t.Context()); err != nil || res != tt.want {
				t.Errorf("System = %+v, %v; want %+v", res, err, tt.want)
			}
		})
	}
}

// readings returns n readings of asset stamped from start, a second apart.
func readings(asset string, start time.Time, n int) []db.Reading {
	rs := make([]db.Reading, n)
	for i := range rs {
		rs[i] = db.Reading{AssetCode: asset, UserTS: start.Add(time.Duration(i) * time.Second), Reading: json.RawMessage(`{"v": 1}`)}
	}
	return rs
}

func TestReadings(t *testing.T) {
	tests := []struct {
		name        string
		config      map[string]string
		wantRemoved int64
		wantUnsent  int64
		wantErr     bool
	}{
		{name: "by age", config: map[string]string{"age": "1"}, wantRemoved: 5, wantUnsent: 5},
		{name: "age 0 is off", config: map[string]string{"age": "0", "size": "0"}},
		{name: "by size", config: map[string]string{"age": "0", "size": "2"}, wantRemoved: 6, wantUnsent: 6},
		{name: "retain unsent keeps all without north", config: map[string]string{"age": "1", "retainUnsent": configmgr.RetainUnsentAll}},
		{name: "bad configuration", config: map[string]string{"age": "soon"}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := dbtest.SQLite(t)
			ctx := t.Context()
			old := readings("old", now.Add(-2*time.Hour), 5)
			if err := d.InsertReadings(ctx, old); err != nil {
				t.Fatal(err)
			}
			if err := d.InsertReadings(ctx, readings("new", now.Add(-time.Minute), 3)); err != nil {
				t.Fatal(err)
			}
			au := &fakeAudit{}
			p := New(Options{Store: d, Config: config(tc.config), Audit: au, Clock: clock.NewFake(now)})
			res, err := p.Readings(ctx)
			if tc.wantErr {
				if err == nil {
					t.Fatal("Readings with a bad configuration succeeded")
				}
				if len(au.entries) != 0 {
					t.Errorf("a purge that did not run audited %v", au.entries)
				}
				return
			}
			if err != nil || res.Removed != tc.wantRemoved || res.UnsentRemoved != tc.wantUnsent || res.Retained != 8-tc.wantRemoved {
				t.Fatalf("Readings = %+v, %v; want removed %d, unsent %d, retained %d", res, err, tc.wantRemoved, tc.wantUnsent, 8-tc.wantRemoved)
			}
			if got := statistic(t, d, stats.Purged); got != tc.wantRemoved {
				t.Errorf("PURGED = %d, want %d", got, tc.wantRemoved)
			}
			if got := statistic(t, d, stats.UnsentPurg); got != tc.wantUnsent {
				t.Errorf("UNSNPURGED = %d, want %d", got, tc.wantUnsent)
			}
			// BUFFERED is what the buffer holds: a purge takes its removals off.
			if got := statistic(t, d, stats.Buffered); got != -tc.wantRemoved {
				t.Errorf("BUFFERED moved by %d, want %d", got, -tc.wantRemoved)
			}
			want := map[string]any{"rowsRemoved": float64(tc.wantRemoved), "unsentRowsRemoved": float64(tc.wantUnsent), "rowsRetained": float64(8 - tc.wantRemoved)}
			if len(au.entries) != 1 || au.entries[0].source != "PURGE" || au.entries[0].severity != "INFORMATION" ||
				fmt.Sprint(au.entries[0].details) != fmt.Sprint(want) {
				t.Errorf("audit = %+v, want one PURGE entry %v", au.entries, want)
			}
		})
	}
}

func TestPolicy(t *testing.T) {
	tests := []struct {
		name    string
		config  map[string]string
		want    db.PurgePolicy
		wantErr string
	}{
		{name: "defaults", want: db.PurgePolicy{Before: now.Add(-72 * time.Hour), MaxRows: 1000000}},
		{name: "no limits", config: map[string]string{"age": "0", "size": "0"}, want: db.PurgePolicy{}},
		{name: "retain any", config: map[string]string{"retainUnsent": configmgr.RetainUnsentAny},
			want: db.PurgePolicy{Before: now.Add(-72 * time.Hour), MaxRows: 1000000, Retain: db.RetainUnsentAny}},
		{name: "retain all", config: map[string]string{"age": "1", "retainUnsent": configmgr.RetainUnsentAll},
			want: db.PurgePolicy{Before: now.Add(-time.Hour), MaxRows: 1000000, Retain: db.RetainUnsentAll}},
		{name: "unknown retain option", config: map[string]string{"retainUnsent": "keep"}, wantErr: "retainUnsent"},
		{name: "negative size", config: map[string]string{"size": "-1"}, wantErr: "size"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := New(Options{Config: config(tc.config)})
			got, err := p.policy(t.Context(), now)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("policy = %+v, %v; want an error naming %s", got, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("policy = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// systemHistory stores audit entries 40, 31, 29 and 1 days old, two
// statistics with history rows 9, 8 and 6 days old, finished tasks that
// ended 45, 31 and 2 days ago and a task running for 90 days.
func systemHistory(t *testing.T) *db.DB {
	t.Helper()
	d := dbtest.SQLite(t)
	ctx := t.Context()
	for _, days := range []int{40, 31, 29, 1} {
		if _, err := d.InsertAudit(ctx, db.AuditEntry{Timestamp: now.AddDate(0, 0, -days), Source: "START", Severity: "INFORMATION"}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.EnsureStatistics(ctx, db.Statistic{Key: "READINGS"}, db.Statistic{Key: "PURGED"}); err != nil {
		t.Fatal(err)
	}
	for _, days := range []int{9, 8, 6} {
		if _, err := d.CollectStatistics(ctx, now.AddDate(0, 0, -days)); err != nil {
			t.Fatal(err)
		}
	}
	for i, days := range []int{45, 31, 2} {
		end := now.AddDate(0, 0, -days)
		if err := d.InsertTask(ctx, db.Task{ID: uuid.NewString(), Name: fmt.Sprint("t", i), ProcessName: "p", State: db.TaskComplete,
			StartTime: end.Add(-time.Minute), EndTime: end}); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.InsertTask(ctx, db.Task{ID: uuid.NewString(), Name: "long", ProcessName: "p", State: db.TaskRunning,
		StartTime: now.AddDate(0, 0, -90)}); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestSystem(t *testing.T) {
	d := systemHistory(t)
	ctx := t.Context()
	au := &fakeAudit{}
	p := New(Options{Store: d, Config: config(nil), Audit: au, Clock: clock.NewFake(now)})
	res, err := p.System(ctx)
	if want := (SystemResult{AuditRows: 2, HistoryRows: 4, Tasks: 2}); err != nil || res != want {
		t.Fatalf("System = %+v, %v; want %+v", res, err, want)
	}
	if len(au.entries) != 1 || au.entries[0].source != "SYPRG" || au.entries[0].details["auditRowsRemoved"] != float64(2) ||
		au.entries[0].details["statisticsHistoryRowsRemoved"] != float64(4) || au.entries[0].details["tasksRemoved"] != float64(2) {
		t.Errorf("audit = %+v, want one SYPRG entry with the counts", au.entries)
	}
	left, err := d.ListTasks(ctx, db.TaskFilter{})
	if err != nil || len(left) != 2 {
		t.Errorf("tasks left = %v, %v; want the recent one and the running one", left, err)
	}

	t.Run("bad retention", func(t *testing.T) {
		au := &fakeAudit{}
		p := New(Options{Store: d, Config: config(map[string]string{configmgr.ItemRetainAuditLog: "0"}), Audit: au, Clock: clock.NewFake(now)})
		if _, err := p.System(ctx); err == nil {
			t.Error("System with retainAuditLog 0 succeeded")
		}
		if len(au.entries) != 1 || au.entries[0].severity != "FAILURE" {
			t.Errorf("audit = %+v, want one FAILURE SYPRG entry", au.entries)
		}
	})
}
