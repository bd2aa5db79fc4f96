package conformance

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestPluginData drives the persisted data of a sinusoid service: none at
// first, refused writes while it runs, its position persisted when it
// stops, and the developer calls' rules while it is stopped.
func testPluginData(t *testing.T) {
	c := api(t)
	ctx := t.Context()
	name := unique("conf-sine")
	createSouth(t, c, southDef{name: name, plugin: "sinusoid", enabled: true,
		config: map[string]string{"assetName": unique("conf-wave"), "dataPointsPerSec": "50"}})
	path := "/edge/service/" + url.PathEscape(name) + "/plugin/" + url.PathEscape(name) + "/data"

	persist, err := c.ListPersistentPluginsWithResponse(ctx, name)
	must(t, err)
	wantStatus(t, "listPersistentPlugins", persist.StatusCode(), persist.Body, http.StatusOK)
	if !slices.Equal(persist.JSON200.Persistent, []string{name}) {
		t.Errorf("persistent plugins = %v, want [%s]", persist.JSON200.Persistent, name)
	}

	steps := []struct {
		name   string
		method string
		body   string
		status int
		want   string // body of a 200 GET
	}{
		{name: "get before any shutdown", method: http.MethodGet, status: 404},
		{name: "post while running", method: http.MethodPost, body: `{"data":{"step":1}}`, status: 409},
		{name: "delete while running", method: http.MethodDelete, status: 409},
		{name: "disable", method: "disable"},
		{name: "get after shutdown", method: http.MethodGet, status: 200},
		{name: "post over existing data", method: http.MethodPost, body: `{"data":{"step":1}}`, status: 409},
		{name: "delete", method: http.MethodDelete, status: 200},
		{name: "delete again", method: http.MethodDelete, status: 404},
		{name: "get deleted", method: http.MethodGet, status: 404},
		{name: "post without data", method: http.MethodPost, body: `{}`, status: 400},
		{name: "post", method: http.MethodPost, body: `{"data":{"step":90,"note":"from the API"}}`, status: 200},
		{name: "get posted", method: http.MethodGet, status: 200, want: `{"data":{"note":"from the API","step":90}}`},
		{name: "enable", method: "enable"},
		{name: "get while running returns the previous shutdown's", method: http.MethodGet, status: 200, want: `{"data":{"note":"from the API","step":90}}`},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			switch s.method {
			case "disable", "enable":
				setSchedule(t, c, name, s.method == "enable")
				return
			}
			req := rawRequest{method: s.method, path: path}
			if s.body != "" {
				req.body, req.ctype = strings.NewReader(s.body), "application/json"
			}
			r := doRaw(t, req)
			if s.status != http.StatusOK {
				checkError(t, r.status, r.body, s.status)
				return
			}
			wantStatus(t, s.name, r.status, r.body, http.StatusOK)
			if s.want != "" && !jsonEqual(t, json.RawMessage(r.body), json.RawMessage(s.want)) {
				t.Errorf("body %s, want %s", r.body, s.want)
			}
			if s.name == "get after shutdown" {
				var got struct {
					Data struct {
						Step *int `json:"step"`
					} `json:"data"`
				}
				if err := json.Unmarshal(r.body, &got); err != nil || got.Data.Step == nil || *got.Data.Step < 0 {
					t.Errorf("persisted data %s, want the sine's step", r.body)
				}
			}
		})
	}

	// The posted position is what the restarted plugin resumed from, and
	// it persists its own position at the next shutdown.
	setSchedule(t, c, name, false)
	got, err := c.GetPluginDataWithResponse(ctx, name, name)
	must(t, err)
	wantStatus(t, "getPluginData", got.StatusCode(), got.Body, http.StatusOK)
	var state struct {
		Data struct {
			Step int `json:"step"`
		} `json:"data"`
	}
	if err := json.Unmarshal(got.Body, &state); err != nil || state.Data.Step < 90 {
		t.Errorf("data after a run that resumed from step 90 = %s, want step ≥ 90", got.Body)
	}
}

// TestPluginDataErrors checks unknown services and plugin instances, and a
// plugin that persists nothing.
func testPluginDataErrors(t *testing.T) {
	c := api(t)
	name, _ := newHTTPSouth(t, c, nil)
	persist, err := c.ListPersistentPluginsWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "listPersistentPlugins", persist.StatusCode(), persist.Body, http.StatusOK)
	if persist.JSON200.Persistent == nil || len(persist.JSON200.Persistent) != 0 {
		t.Errorf("persistent plugins of http_south = %v, want []", persist.JSON200.Persistent)
	}
	nobody := unique("nope")
	cases := []struct {
		name   string
		method string
		path   string
		body   string
		status int
	}{
		{name: "persist of an unknown service", method: http.MethodGet, path: "/edge/service/" + nobody + "/persist", status: 404},
		{name: "get of an unknown service", method: http.MethodGet, path: "/edge/service/" + nobody + "/plugin/" + nobody + "/data", status: 404},
		{name: "post to an unknown service", method: http.MethodPost, path: "/edge/service/" + nobody + "/plugin/" + nobody + "/data", body: `{"data":1}`, status: 404},
		{name: "delete of an unknown service", method: http.MethodDelete, path: "/edge/service/" + nobody + "/plugin/" + nobody + "/data", status: 404},
		{name: "get of an unknown plugin instance", method: http.MethodGet, path: "/edge/service/" + url.PathEscape(name) + "/plugin/filter1/data", status: 404},
		{name: "post body not JSON", method: http.MethodPost, path: "/edge/service/" + url.PathEscape(name) + "/plugin/" + url.PathEscape(name) + "/data", body: `{"data":`, status: 400},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := rawRequest{method: tc.method, path: tc.path}
			if tc.body != "" {
				req.body, req.ctype = strings.NewReader(tc.body), "application/json"
			}
			r := doRaw(t, req)
			checkError(t, r.status, r.body, tc.status)
		})
	}
}
