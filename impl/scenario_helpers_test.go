package impl_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"
)

// createSouth creates a south service of plugin with config (item →
// value) through the API and deletes it when the test ends.
func createSouth(t *testing.T, e *env, name, plugin string, enabled bool, config map[string]string) {
	t.Helper()
	body := map[string]any{"name": name, "type": "south", "plugin": plugin, "enabled": enabled}
	if len(config) > 0 {
		cfg := map[string]any{}
		for k, v := range config {
			cfg[k] = map[string]string{"value": v}
		}
		body["config"] = cfg
	}
	e.Call(t, "POST", "/edge/service", body, admin, 200, nil)
	t.Cleanup(func() {
		rec := e.Do(t, "DELETE", "/edge/service/"+url.PathEscape(name), nil, admin, nil)
		if rec.Code != 200 && rec.Code != 404 {
			t.Errorf("clean up service %s: %d %s", name, rec.Code, rec.Body.String())
		}
	})
}

// setSchedule enables or disables the schedule named name.
func setSchedule(t *testing.T, e *env, name string, enabled bool) {
	t.Helper()
	op := "disable"
	if enabled {
		op = "enable"
	}
	e.Call(t, "PUT", "/edge/schedule/"+op, map[string]string{"schedule_name": name}, admin, 200, nil)
}

// eventually polls GET path as admin until its body contains want, and
// fails the test after a deadline.
func eventually(t *testing.T, e *env, path, want string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		rec := e.Do(t, "GET", path, nil, admin, nil)
		if rec.Code == 200 && strings.Contains(rec.Body.String(), want) {
			return
		}
		select {
		case <-ctx.Done():
			t.Fatalf("GET %s never contained %q; last %d %s", path, want, rec.Code, rec.Body.String())
		case <-tick.C:
		}
	}
}
