package conformance

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// createFilter creates a filter instance, fails the test unless it
// succeeds, and deletes it when the test ends (after the services, which
// were created later and so are cleaned up first).
func createFilter(t testing.TB, c *edgeclient.ClientWithResponses, name, plugin string, config map[string]string) *edgeclient.FilterInstance {
	t.Helper()
	body := edgeclient.FilterCreateRequest{Name: name, Plugin: plugin}
	if config != nil {
		body.FilterConfig = &config
	}
	resp, err := c.CreateFilterWithResponse(t.Context(), body)
	must(t, err)
	wantStatus(t, "createFilter "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	t.Cleanup(func() {
		r, err := c.DeleteFilterWithResponse(context.Background(), name)
		if err != nil {
			t.Errorf("clean up filter %s: %v", name, err)
			return
		}
		if r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up filter %s: status %d; body %s", name, r.StatusCode(), truncate(r.Body))
		}
	})
	return resp.JSON200
}

// setPipeline sets a service's pipeline and wants 200.
func setPipeline(t testing.TB, c *edgeclient.ClientWithResponses, service string, names []string, appendTo bool) []string {
	t.Helper()
	resp, err := c.SetPipelineWithResponse(t.Context(), service, &edgeclient.SetPipelineParams{Append: &appendTo},
		edgeclient.PipelineRequest{Pipeline: names})
	must(t, err)
	wantStatus(t, "setPipeline "+service, resp.StatusCode(), resp.Body, http.StatusOK)
	return resp.JSON200.Pipeline
}

// readingsOf returns the stored readings of asset, oldest first: none
// while the asset has none (404).
func readingsOf(t testing.TB, c *edgeclient.ClientWithResponses, asset string) []map[string]any {
	t.Helper()
	resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(10000)})
	must(t, err)
	if resp.StatusCode() == http.StatusNotFound {
		return []map[string]any{}
	}
	wantStatus(t, "getAssetReadings "+asset, resp.StatusCode(), resp.Body, http.StatusOK)
	out := []map[string]any{}
	for _, r := range slices.Backward(*resp.JSON200) {
		out = append(out, r.Reading)
	}
	return out
}

// valuesBody is a batch of readings of asset with the given x values, one
// second apart from second first.
func valuesBody(asset string, first int, xs ...float64) string {
	base := time.Date(2024, 7, 1, 0, 0, 0, 0, time.UTC)
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprintf(`{"timestamp":%q,"asset":%q,"readings":{"x":%g}}`,
			base.Add(time.Duration(first+i)*time.Second).Format("2006-01-02 15:04:05.000000"), asset, x)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

func testFilterInstances(t *testing.T) {
	c := api(t)
	name := unique("conf-scale")
	f := createFilter(t, c, name, "scale", map[string]string{"rules": `[{"datapoint":"x","factor":2}]`})
	if f.Name != name || f.Plugin != "scale" || f.Users == nil || len(f.Users) != 0 {
		t.Errorf("createFilter = %+v", *f)
	}
	cat := getCategory(t, name)
	if it, ok := cat["plugin"]; !ok || it.Value != "scale" || it.Readonly == nil || *it.Readonly != "true" {
		t.Errorf("category %s item plugin = %+v", name, cat["plugin"])
	}
	if it, ok := cat["enable"]; !ok || it.Value != "true" {
		t.Errorf("category %s item enable = %+v", name, cat["enable"])
	}
	if it := cat["rules"]; it.Value != `[{"datapoint":"x","factor":2}]` {
		t.Errorf("category %s item rules = %q", name, it.Value)
	}

	got, err := c.GetFilterWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "getFilter", got.StatusCode(), got.Body, http.StatusOK)
	if got.JSON200.Name != name || got.JSON200.Plugin != "scale" {
		t.Errorf("getFilter = %+v", *got.JSON200)
	}
	list, err := c.ListFiltersWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listFilters", list.StatusCode(), list.Body, http.StatusOK)
	if !slices.ContainsFunc(list.JSON200.Filters, func(f edgeclient.FilterInstance) bool { return f.Name == name }) {
		t.Errorf("listFilters lacks %s: %+v", name, list.JSON200.Filters)
	}

	refused := []struct {
		name   string
		body   edgeclient.FilterCreateRequest
		status int
	}{
		{name: "name taken by a filter", body: edgeclient.FilterCreateRequest{Name: name, Plugin: "rename"}, status: http.StatusConflict},
		{name: "name taken by a category", body: edgeclient.FilterCreateRequest{Name: "rest_api", Plugin: "rename"}, status: http.StatusConflict},
		{name: "unknown plugin", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "no-such-filter"}, status: http.StatusNotFound},
		{name: "unknown item", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "scale",
			FilterConfig: &map[string]string{"nope": "1"}}, status: http.StatusBadRequest},
		{name: "readonly plugin item", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "scale",
			FilterConfig: &map[string]string{"plugin": "rename"}}, status: http.StatusBadRequest},
		{name: "invalid JSON item", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "scale",
			FilterConfig: &map[string]string{"rules": "[{"}}, status: http.StatusBadRequest},
		{name: "rules the filter cannot use", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "scale",
			FilterConfig: &map[string]string{"rules": `{"factor":2}`}}, status: http.StatusBadRequest},
		{name: "expression that does not compile", body: edgeclient.FilterCreateRequest{Name: unique("conf-f"), Plugin: "expression",
			FilterConfig: &map[string]string{"expressions": `[{"name":"y","expression":"x +"}]`}}, status: http.StatusBadRequest},
		{name: "leading space", body: edgeclient.FilterCreateRequest{Name: " x", Plugin: "scale"}, status: http.StatusBadRequest},
		{name: "empty name", body: edgeclient.FilterCreateRequest{Name: "", Plugin: "scale"}, status: http.StatusBadRequest},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.CreateFilterWithResponse(t.Context(), tt.body)
			must(t, err)
			checkError(t, resp.StatusCode(), resp.Body, tt.status)
			if tt.status != http.StatusConflict && tt.body.Name != "" {
				r, err := c.GetFilterWithResponse(t.Context(), tt.body.Name)
				must(t, err)
				checkError(t, r.StatusCode(), r.Body, http.StatusNotFound)
			}
		})
	}

	for _, op := range []string{"get", "delete"} {
		t.Run(op+" unknown", func(t *testing.T) {
			var (
				status int
				body   []byte
			)
			if op == "get" {
				r, err := c.GetFilterWithResponse(t.Context(), "no-such-filter")
				must(t, err)
				status, body = r.StatusCode(), r.Body
			} else {
				r, err := c.DeleteFilterWithResponse(t.Context(), "no-such-filter")
				must(t, err)
				status, body = r.StatusCode(), r.Body
			}
			checkError(t, status, body, http.StatusNotFound)
		})
	}

	del, err := c.DeleteFilterWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "deleteFilter", del.StatusCode(), del.Body, http.StatusOK)
	wantNoCategory(t, name)
}

func testPipelineErrors(t *testing.T) {
	c := api(t)
	svc := unique("conf-pipe")
	createSouth(t, c, southDef{name: svc, plugin: "sinusoid", enabled: false})
	f := unique("conf-f")
	createFilter(t, c, f, "metadata", nil)

	pipe, err := c.GetPipelineWithResponse(t.Context(), svc)
	must(t, err)
	wantStatus(t, "getPipeline", pipe.StatusCode(), pipe.Body, http.StatusOK)
	if pipe.JSON200.Service != svc || pipe.JSON200.Pipeline == nil || len(pipe.JSON200.Pipeline) != 0 {
		t.Errorf("pipeline of a new service = %+v", *pipe.JSON200)
	}
	cases := []struct {
		name    string
		service string
		names   []string
		status  int
	}{
		{name: "unknown service", service: "no-such-service", names: []string{f}, status: http.StatusNotFound},
		{name: "unknown filter", service: svc, names: []string{f, "no-such-filter"}, status: http.StatusNotFound},
		{name: "filter twice", service: svc, names: []string{f, f}, status: http.StatusBadRequest},
	}
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := c.SetPipelineWithResponse(t.Context(), tt.service, nil, edgeclient.PipelineRequest{Pipeline: tt.names})
			must(t, err)
			checkError(t, resp.StatusCode(), resp.Body, tt.status)
		})
	}
	r, err := c.GetPipelineWithResponse(t.Context(), "no-such-service")
	must(t, err)
	checkError(t, r.StatusCode(), r.Body, http.StatusNotFound)

	setPipeline(t, c, svc, []string{f}, false)
	resp, err := c.SetPipelineWithResponse(t.Context(), svc, &edgeclient.SetPipelineParams{Append: ptr(true)},
		edgeclient.PipelineRequest{Pipeline: []string{f}})
	must(t, err)
	checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)

	// In use: 409, and the instance stays; out of the pipeline it goes.
	del, err := c.DeleteFilterWithResponse(t.Context(), f)
	must(t, err)
	if msg := checkError(t, del.StatusCode(), del.Body, http.StatusConflict); !strings.Contains(msg, svc) {
		t.Errorf("409 message %q does not name the service using the filter", msg)
	}
	got, err := c.GetFilterWithResponse(t.Context(), f)
	must(t, err)
	if got.StatusCode() != http.StatusOK || !slices.Equal(got.JSON200.Users, []string{svc}) {
		t.Errorf("getFilter after a refused delete = %d %s", got.StatusCode(), truncate(got.Body))
	}
	if p := setPipeline(t, c, svc, []string{}, false); len(p) != 0 {
		t.Errorf("emptied pipeline = %v", p)
	}
	del, err = c.DeleteFilterWithResponse(t.Context(), f)
	must(t, err)
	wantStatus(t, "deleteFilter after the pipeline let go", del.StatusCode(), del.Body, http.StatusOK)
}

// testSouthPipeline runs scale → expression → delta on an http_south
// service and checks what is stored, the live reconfiguration, asset
// tracking, the dropped-readings statistic and the delta filter's
// persisted state.
func testSouthPipeline(t *testing.T) {
	c := api(t)
	scale, expr, delta := unique("conf-scale"), unique("conf-expr"), unique("conf-delta")
	createFilter(t, c, scale, "scale", map[string]string{"rules": `[{"datapoint":"x","factor":10,"offset":1}]`})
	createFilter(t, c, expr, "expression", map[string]string{"expressions": `[{"name":"y","expression":"x * 2"}]`})
	createFilter(t, c, delta, "delta", map[string]string{"tolerance": "5"})
	svc, port := newHTTPSouth(t, c, nil)
	if p := setPipeline(t, c, svc, []string{scale, expr}, false); !slices.Equal(p, []string{scale, expr}) {
		t.Fatalf("setPipeline = %v", p)
	}
	if p := setPipeline(t, c, svc, []string{delta}, true); !slices.Equal(p, []string{scale, expr, delta}) {
		t.Fatalf("setPipeline append = %v", p)
	}
	asset := unique("conf-filtered")
	// x: 1, 1.2, 2, 2.1 → scaled 11, 13, 21, 22 → delta (tolerance 5) keeps 11 and 21.
	postReadings(t, port, []byte(valuesBody(asset, 0, 1, 1.2, 2, 2.1)))
	got := readingsOf(t, c, asset)
	want := []map[string]any{{"x": 11.0, "y": 22.0}, {"x": 21.0, "y": 42.0}}
	if !jsonEqual(t, got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	if n := statistics(t, c)[svc+"-Filtered"]; n != 2 {
		t.Errorf("statistic %s-Filtered = %d, want 2", svc, n)
	}
	for plugin := range map[string]bool{"scale": true, "expression": true, "delta": true} {
		ev := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset, Event: ptr(edgeclient.Filter), Service: &svc})
		if !slices.ContainsFunc(ev, func(e edgeclient.TrackingEvent) bool { return e.Plugin == plugin }) {
			t.Errorf("no Filter event of plugin %s for %s: %+v", plugin, asset, ev)
		}
	}
	cat := getCategory(t, delta)
	if cat["plugin"].Value != "delta" {
		t.Errorf("delta instance category = %+v", cat)
	}

	// A configuration change applies to the next readings.
	setItem(t, scale, "rules", `[{"datapoint":"x","factor":100}]`)
	postReadings(t, port, []byte(valuesBody(asset, 10, 3)))
	got = readingsOf(t, c, asset)
	if len(got) != 3 || !jsonEqual(t, got[2], map[string]any{"x": 300.0, "y": 600.0}) {
		t.Errorf("after the rules changed, stored %v", got)
	}
	// Disabled, an instance passes readings on unchanged.
	setItem(t, delta, "enable", "false")
	postReadings(t, port, []byte(valuesBody(asset, 20, 3)))
	if got = readingsOf(t, c, asset); len(got) != 4 {
		t.Errorf("with delta disabled, stored %d readings, want 4", len(got))
	}
	setItem(t, delta, "enable", "true")

	// The delta instance persists its state in the service when it stops.
	persist, err := c.ListPersistentPluginsWithResponse(t.Context(), svc)
	must(t, err)
	wantStatus(t, "listPersistentPlugins", persist.StatusCode(), persist.Body, http.StatusOK)
	if !slices.Equal(persist.JSON200.Persistent, []string{delta}) {
		t.Errorf("persistent plugins of %s = %v, want [%s]", svc, persist.JSON200.Persistent, delta)
	}
	setSchedule(t, c, svc, false)
	data, err := c.GetPluginDataWithResponse(t.Context(), svc, delta)
	must(t, err)
	wantStatus(t, "getPluginData of the delta instance", data.StatusCode(), data.Body, http.StatusOK)
	if !strings.Contains(string(data.Body), asset) {
		t.Errorf("delta state %s does not mention asset %s", truncate(data.Body), asset)
	}
	// Restarted, the delta filter carries on from its state: 300 is not
	// passed on again, 400 is.
	setSchedule(t, c, svc, true)
	postReadings(t, port, []byte(valuesBody(asset, 30, 3, 4)))
	got = readingsOf(t, c, asset)
	if len(got) != 5 || !jsonEqual(t, got[4], map[string]any{"x": 400.0, "y": 800.0}) {
		t.Errorf("after a restart, stored %v", got)
	}
	other, err := c.GetPluginDataWithResponse(t.Context(), svc, "no-such-instance")
	must(t, err)
	checkError(t, other.StatusCode(), other.Body, http.StatusNotFound)
}

// testNorthPipeline checks that a north pipeline changes what is sent and
// not what is stored.
func testNorthPipeline(t *testing.T) {
	dest, url := destinationGateway(t)
	c := api(t)
	feed := httpSouth(t, c)
	asset := unique("conf-north-f")
	name := unique("conf-up-f")
	scale, keep := unique("conf-nscale"), unique("conf-nassets")
	createFilter(t, c, scale, "scale", map[string]string{"rules": `[{"datapoint":"x","factor":3}]`})
	createFilter(t, c, keep, "assets", map[string]string{"action": "exclude", "assets": `["*-skip"]`})
	req := edgeclient.ServiceCreateRequest{Name: name, Type: "north", Plugin: ptr("http_north"), Enabled: false,
		Config: northConfig(map[string]string{"url": url, "maxRetryInterval": "1"})}
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(req))
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
	must(t, err)
	wantStatus(t, "createService (north)", resp.StatusCode(), resp.Body, http.StatusOK)
	t.Cleanup(func() { _, _ = c.DeleteServiceWithResponse(context.Background(), name) })
	setPipeline(t, c, name, []string{scale, keep}, false)
	setSchedule(t, c, name, true)

	payload := strings.TrimSuffix(valuesBody(asset, 0, 1, 2), "]") + "," + strings.TrimPrefix(valuesBody(asset+"-skip", 0, 5), "[")
	status, b, err := postIngest(t.Context(), gatewayHost(t, baseURL), feed, "sensor-reading", payload)
	if err != nil || status != http.StatusOK {
		t.Fatalf("post readings: %d %s %v", status, b, err)
	}
	eventually(t, 30*time.Second, "the filtered readings reaching the destination", func() bool {
		counts, _ := assetCounts(t, dest)
		return counts[asset] >= 2
	})
	if got := readingsOf(t, dest, asset); !jsonEqual(t, got, []map[string]any{{"x": 3.0}, {"x": 6.0}}) {
		t.Errorf("destination holds %v, want the scaled values", got)
	}
	if got := readingsOf(t, c, asset); !jsonEqual(t, got, []map[string]any{{"x": 1.0}, {"x": 2.0}}) {
		t.Errorf("source stores %v, want the values as ingested", got)
	}
	eventually(t, 10*time.Second, "the excluded reading counted as dropped", func() bool {
		return statistics(t, c)[name+"-Filtered"] >= 1
	})
	if counts, _ := assetCounts(t, dest); counts[asset+"-skip"] != 0 {
		t.Errorf("the destination received the excluded asset: %v", counts)
	}
}
