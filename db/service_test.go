package db_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// testScheduleID returns a fixed, valid 36-character schedule id.
func testScheduleID(n int) string {
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
}

func startupSchedule(n int, name string, enabled bool) db.Schedule {
	return db.Schedule{ID: testScheduleID(n), Name: name, ProcessName: "south_c", Type: db.ScheduleStartup,
		Exclusive: true, Enabled: enabled}
}

func TestSchedules(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got, err := d.ListSchedules(ctx); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("ListSchedules on empty database = %v, %v; want empty non-nil", got, err)
		}
		tod, day := 3600, 7
		timed := db.Schedule{ID: testScheduleID(1), Name: "purge system", ProcessName: "purge_system",
			Type: db.ScheduleTimed, TimeOfDay: &tod, Day: &day, Exclusive: true, Enabled: true}
		interval := db.Schedule{ID: testScheduleID(2), Name: "purge", ProcessName: "purge",
			Type: db.ScheduleInterval, RepeatSeconds: 600, Enabled: false}
		for _, s := range []db.Schedule{timed, interval} {
			got, err := d.CreateSchedule(ctx, s)
			if err != nil {
				t.Fatalf("CreateSchedule %q: %v", s.Name, err)
			}
			if got.CreatedAt.IsZero() || !got.CreatedAt.Equal(got.UpdatedAt) {
				t.Errorf("CreateSchedule %q times = %v, %v", s.Name, got.CreatedAt, got.UpdatedAt)
			}
		}

		conflicts := []struct {
			name string
			s    db.Schedule
		}{
			{name: "same name", s: db.Schedule{ID: testScheduleID(3), Name: "purge", ProcessName: "x", Type: db.ScheduleManual}},
			{name: "same id", s: db.Schedule{ID: testScheduleID(1), Name: "other", ProcessName: "x", Type: db.ScheduleManual}},
		}
		for _, c := range conflicts {
			t.Run(c.name, func(t *testing.T) {
				if _, err := d.CreateSchedule(ctx, c.s); !errors.Is(err, db.ErrConflict) {
					t.Errorf("CreateSchedule = %v, want ErrConflict", err)
				}
			})
		}
		if _, err := d.CreateSchedule(ctx, db.Schedule{ID: testScheduleID(4), Name: "bad", ProcessName: "x", Type: "WEEKLY"}); err == nil {
			t.Error("CreateSchedule with an unknown type succeeded")
		}

		got, err := d.GetSchedule(ctx, timed.ID)
		if err != nil {
			t.Fatalf("GetSchedule: %v", err)
		}
		if got.Name != timed.Name || got.Type != db.ScheduleTimed || got.TimeOfDay == nil || *got.TimeOfDay != tod ||
			got.Day == nil || *got.Day != day || !got.Exclusive || !got.Enabled {
			t.Errorf("GetSchedule = %+v", got)
		}
		byName, err := d.GetScheduleByName(ctx, "purge")
		if err != nil {
			t.Fatalf("GetScheduleByName: %v", err)
		}
		if byName.ID != interval.ID || byName.RepeatSeconds != 600 || byName.TimeOfDay != nil || byName.Day != nil ||
			byName.Enabled || byName.Exclusive {
			t.Errorf("GetScheduleByName = %+v", byName)
		}
		if _, err := d.GetSchedule(ctx, testScheduleID(99)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetSchedule unknown = %v, want ErrNotFound", err)
		}
		if _, err := d.GetScheduleByName(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetScheduleByName unknown = %v, want ErrNotFound", err)
		}

		list, err := d.ListSchedules(ctx)
		if err != nil {
			t.Fatalf("ListSchedules: %v", err)
		}
		if len(list) != 2 || list[0].Name != "purge" || list[1].Name != "purge system" {
			t.Errorf("ListSchedules = %+v, want purge, purge system", list)
		}

		steps := []struct {
			name        string
			enabled     bool
			wantChanged bool
		}{
			{name: "enable", enabled: true, wantChanged: true},
			{name: "enable again", enabled: true, wantChanged: false},
			{name: "disable", enabled: false, wantChanged: true},
		}
		for _, s := range steps {
			t.Run(s.name, func(t *testing.T) {
				got, changed, err := d.SetScheduleEnabled(ctx, interval.ID, s.enabled)
				if err != nil {
					t.Fatalf("SetScheduleEnabled: %v", err)
				}
				if changed != s.wantChanged || got.Enabled != s.enabled {
					t.Errorf("SetScheduleEnabled = enabled %v changed %v, want %v %v", got.Enabled, changed, s.enabled, s.wantChanged)
				}
				stored, err := d.GetSchedule(ctx, interval.ID)
				if err != nil || stored.Enabled != s.enabled {
					t.Errorf("stored enabled = %v (%v), want %v", stored.Enabled, err, s.enabled)
				}
			})
		}
		if _, _, err := d.SetScheduleEnabled(ctx, testScheduleID(99), true); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("SetScheduleEnabled unknown = %v, want ErrNotFound", err)
		}
	})
}

func TestServices(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		if got, err := d.ListServices(ctx, ""); err != nil || got == nil || len(got) != 0 {
			t.Fatalf("ListServices on empty database = %v, %v; want empty non-nil", got, err)
		}
		if _, err := d.CreateSchedule(ctx, db.Schedule{ID: testScheduleID(50), Name: "purge", ProcessName: "purge",
			Type: db.ScheduleInterval, RepeatSeconds: 600, Enabled: true}); err != nil {
			t.Fatalf("CreateSchedule: %v", err)
		}
		sine, err := d.CreateService(ctx, db.Service{Name: "sine", Type: db.ServiceSouth, Plugin: "sinusoid"},
			startupSchedule(1, "sine", true))
		if err != nil {
			t.Fatalf("CreateService sine: %v", err)
		}
		if sine.ScheduleID != testScheduleID(1) || !sine.ScheduleEnabled || sine.CreatedAt.IsZero() {
			t.Errorf("CreateService = %+v", sine)
		}
		if _, err := d.CreateService(ctx, db.Service{Name: "a/b", Type: db.ServiceSouth, Plugin: "http_south"},
			startupSchedule(2, "a/b", false)); err != nil {
			t.Fatalf("CreateService a/b: %v", err)
		}

		conflicts := []struct {
			name  string
			svc   db.Service
			sched db.Schedule
		}{
			{name: "name of a service", svc: db.Service{Name: "sine", Type: db.ServiceSouth}, sched: startupSchedule(3, "sine2", true)},
			{name: "name of a schedule", svc: db.Service{Name: "purge", Type: db.ServiceSouth}, sched: startupSchedule(4, "purge", true)},
			{name: "schedule id taken", svc: db.Service{Name: "new", Type: db.ServiceSouth}, sched: startupSchedule(1, "new", true)},
		}
		for _, c := range conflicts {
			t.Run(c.name, func(t *testing.T) {
				if _, err := d.CreateService(ctx, c.svc, c.sched); !errors.Is(err, db.ErrConflict) {
					t.Errorf("CreateService = %v, want ErrConflict", err)
				}
				if _, err := d.GetScheduleByName(ctx, c.sched.Name); c.sched.Name == "sine2" && !errors.Is(err, db.ErrNotFound) {
					t.Errorf("schedule %q of the refused service exists: %v", c.sched.Name, err)
				}
			})
		}

		got, err := d.GetService(ctx, "a/b")
		if err != nil {
			t.Fatalf("GetService: %v", err)
		}
		if got.Plugin != "http_south" || got.ScheduleEnabled || got.ScheduleID != testScheduleID(2) {
			t.Errorf("GetService = %+v", got)
		}
		if _, err := d.GetService(ctx, "nope"); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetService unknown = %v, want ErrNotFound", err)
		}
		bySched, err := d.GetServiceBySchedule(ctx, testScheduleID(1))
		if err != nil || bySched.Name != "sine" {
			t.Errorf("GetServiceBySchedule = %+v, %v; want sine", bySched, err)
		}
		if _, err := d.GetServiceBySchedule(ctx, testScheduleID(50)); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("GetServiceBySchedule of a task schedule = %v, want ErrNotFound", err)
		}

		if _, _, err := d.SetScheduleEnabled(ctx, testScheduleID(2), true); err != nil {
			t.Fatalf("SetScheduleEnabled: %v", err)
		}
		lists := []struct {
			name string
			typ  string
			want []string
		}{
			{name: "all", typ: "", want: []string{"a/b", "sine"}},
			{name: "south", typ: db.ServiceSouth, want: []string{"a/b", "sine"}},
			{name: "north", typ: db.ServiceNorth, want: []string{}},
		}
		for _, l := range lists {
			t.Run("list "+l.name, func(t *testing.T) {
				got, err := d.ListServices(ctx, l.typ)
				if err != nil {
					t.Fatalf("ListServices: %v", err)
				}
				names := []string{}
				for _, s := range got {
					names = append(names, s.Name)
					if !s.ScheduleEnabled {
						t.Errorf("service %q ScheduleEnabled = false after enabling", s.Name)
					}
				}
				if fmt.Sprint(names) != fmt.Sprint(l.want) {
					t.Errorf("ListServices(%q) = %v, want %v", l.typ, names, l.want)
				}
			})
		}
	})
}

func TestDeleteService(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := t.Context()
		for i, name := range []string{"sine", "keep"} {
			if _, err := d.CreateService(ctx, db.Service{Name: name, Type: db.ServiceSouth, Plugin: "sinusoid"},
				startupSchedule(i+1, name, true)); err != nil {
				t.Fatalf("CreateService %s: %v", name, err)
			}
			if _, _, err := d.SaveCategory(ctx, name, func(db.Category, bool) (db.Category, error) {
				return db.Category{Key: name, Items: json.RawMessage(`{}`)}, nil
			}); err != nil {
				t.Fatalf("SaveCategory %s: %v", name, err)
			}
			if err := d.SavePluginData(ctx, name, name, json.RawMessage(`{"step": 3}`)); err != nil {
				t.Fatalf("SavePluginData: %v", err)
			}
			if _, err := d.TrackAsset(ctx, db.TrackingEvent{Asset: name + "-asset", Event: db.EventIngest, Service: name, Plugin: "sinusoid"}); err != nil {
				t.Fatalf("TrackAsset: %v", err)
			}
		}
		if err := d.AddCategoryChildren(ctx, "keep", "sine"); err != nil {
			t.Fatalf("AddCategoryChildren: %v", err)
		}
		if err := d.AddStatistics(ctx, map[string]int64{"sine-Ingest": 5, "keep-Ingest": 6, "sine-asset": 5}); err != nil {
			t.Fatalf("AddStatistics: %v", err)
		}
		if err := d.ExecSQL(ctx, `INSERT INTO readings (asset_code, reading, user_ts, ts) VALUES (?, ?, ?, ?)`,
			"sine-asset", `{"v": 1}`, time.Now().UTC(), time.Now().UTC()); err != nil {
			t.Fatalf("insert reading: %v", err)
		}

		if err := d.DeleteService(ctx, "sine", []string{"sine-Ingest"}); err != nil {
			t.Fatalf("DeleteService: %v", err)
		}
		if err := d.DeleteService(ctx, "sine", nil); !errors.Is(err, db.ErrNotFound) {
			t.Errorf("DeleteService again = %v, want ErrNotFound", err)
		}

		checks := []struct {
			name string
			err  error
		}{
			{name: "service", err: func() error { _, err := d.GetService(ctx, "sine"); return err }()},
			{name: "schedule", err: func() error { _, err := d.GetScheduleByName(ctx, "sine"); return err }()},
			{name: "category", err: func() error { _, err := d.GetCategory(ctx, "sine"); return err }()},
			{name: "plugin data", err: func() error { _, err := d.GetPluginData(ctx, "sine", "sine"); return err }()},
			{name: "ingest statistic", err: func() error { _, err := d.GetStatistic(ctx, "sine-Ingest"); return err }()},
		}
		for _, c := range checks {
			if !errors.Is(c.err, db.ErrNotFound) {
				t.Errorf("%s of the deleted service: %v, want ErrNotFound", c.name, c.err)
			}
		}
		if _, err := d.GetStatistic(ctx, "sine-asset"); err != nil {
			t.Errorf("the asset statistic was removed: %v", err)
		}
		var readings []int64
		if err := d.SelectSQL(ctx, &readings, `SELECT id FROM readings WHERE asset_code = ?`, "sine-asset"); err != nil || len(readings) != 1 {
			t.Errorf("readings of the deleted service = %v, %v; want 1 kept", readings, err)
		}
		events, err := d.ListTrackingEvents(ctx, db.TrackingFilter{Service: "sine"})
		if err != nil || len(events) != 1 || events[0].DeprecatedTS.IsZero() {
			t.Errorf("tracking of the deleted service = %+v, %v; want one deprecated event", events, err)
		}
		children, err := d.ListCategoryChildren(ctx, "keep")
		if err != nil || len(children) != 0 {
			t.Errorf("children of keep = %v, %v; want none", children, err)
		}

		// The other service is untouched.
		if _, err := d.GetService(ctx, "keep"); err != nil {
			t.Errorf("GetService keep: %v", err)
		}
		if _, err := d.GetPluginData(ctx, "keep", "keep"); err != nil {
			t.Errorf("GetPluginData keep: %v", err)
		}
		if s, err := d.GetStatistic(ctx, "keep-Ingest"); err != nil || s.Value != 6 {
			t.Errorf("keep-Ingest = %+v, %v", s, err)
		}
		// The name is free again.
		if _, err := d.CreateService(ctx, db.Service{Name: "sine", Type: db.ServiceSouth, Plugin: "http_south"},
			startupSchedule(9, "sine", true)); err != nil {
			t.Errorf("CreateService after delete: %v", err)
		}
	})
}
