package conformance

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// readingTimestamp is the wire form of reading and tracking timestamps.
var readingTimestamp = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{6}$`)

// TestSouthServiceLifecycle drives an http_south service through its whole
// life with the API alone: create, ingest 300 readings of three assets,
// statistics, tracking and listings, disable (the service stops), enable
// (it runs again), delete (its readings stay).
func testSouthServiceLifecycle(t *testing.T) {
	c := api(t)
	ctx := t.Context()
	host := gatewayHost(t, baseURL)
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	name := unique("conf-south")
	prefix := unique("conf") + "-"
	assets := []string{"bar/one", "two", "50%"}
	stored := func(a string) string { return prefix + a }
	statsBefore := statistics(t, c)
	schadBefore, schchBefore := auditCount(t, edgeclient.SCHAD), auditCount(t, edgeclient.SCHCH)

	created := createSouth(t, c, southDef{name: name, plugin: "http_south", enabled: true,
		config: map[string]string{"port": strconv.Itoa(port), "assetNamePrefix": prefix}})
	if created.Name != name || created.Message == "" || created.Id.String() == "00000000-0000-0000-0000-000000000000" {
		t.Fatalf("createService = %+v", created)
	}

	t.Run("schedule", func(t *testing.T) {
		resp, err := c.GetScheduleWithResponse(ctx, created.Id)
		must(t, err)
		wantStatus(t, "getSchedule", resp.StatusCode(), resp.Body, http.StatusOK)
		s := resp.JSON200
		if s == nil || s.Name != name || s.Type != edgeclient.STARTUP || !s.Enabled || s.Id != created.Id {
			t.Errorf("schedule = %s", resp.Body)
		}
		list, err := c.ListSchedulesWithResponse(ctx)
		must(t, err)
		wantStatus(t, "listSchedules", list.StatusCode(), list.Body, http.StatusOK)
		if !slices.ContainsFunc(list.JSON200.Schedules, func(s edgeclient.Schedule) bool { return s.Id == created.Id && s.Name == name }) {
			t.Errorf("listSchedules lacks %s", name)
		}
		if got := auditCount(t, edgeclient.SCHAD); got != schadBefore+1 {
			t.Errorf("SCHAD entries %d, want %d", got, schadBefore+1)
		}
	})

	t.Run("category", func(t *testing.T) {
		cat := getCategory(t, name)
		want := map[string]string{"port": strconv.Itoa(port), "uri": "sensor-reading", "assetNamePrefix": prefix, "plugin": "http_south"}
		for item, v := range want {
			if it, ok := cat[item]; !ok || it.Value != v {
				t.Errorf("item %s = %+v, want value %q", item, cat[item], v)
			}
		}
		resp, err := c.SetCategoryItemWithResponse(ctx, name, "plugin", edgeclient.SetCategoryItemJSONRequestBody{Value: "sinusoid"})
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
	})

	t.Run("listed running", func(t *testing.T) {
		r := serviceRecord(t, c, name)
		if r == nil || r.Type != "Southbound" || r.Status != edgeclient.ServiceStatusRunning || r.Address == "" || r.Protocol == "" {
			t.Fatalf("service record = %+v", r)
		}
		for _, typ := range []string{"Southbound", "southbound", "SOUTHBOUND"} {
			if !slices.ContainsFunc(serviceRecords(t, c, typ), func(r edgeclient.ServiceRecord) bool { return r.Name == name }) {
				t.Errorf("listServices?type=%s lacks %s", typ, name)
			}
		}
		if slices.ContainsFunc(serviceRecords(t, c, "Northbound"), func(r edgeclient.ServiceRecord) bool { return r.Name == name }) {
			t.Errorf("listServices?type=Northbound holds the south service")
		}
	})

	// 300 readings: three posts of 100, each asset's readings in one post.
	start := time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC)
	for _, a := range assets {
		status, body, err := postIngest(ctx, host, port, "sensor-reading", readingsBody(a, 100, start))
		if err != nil {
			t.Fatalf("post readings of %s: %v", a, err)
		}
		if status != http.StatusOK {
			t.Fatalf("post readings of %s: status %d: %s", a, status, body)
		}
		var ack struct {
			Message  string `json:"message"`
			Readings int    `json:"readings"`
		}
		if err := json.Unmarshal(body, &ack); err != nil || ack.Readings != 100 || ack.Message == "" {
			t.Errorf("ingest answer %s (%v), want 100 readings", body, err)
		}
	}

	t.Run("statistics", func(t *testing.T) {
		got := statistics(t, c)
		if got["READINGS"] < statsBefore["READINGS"]+300 {
			t.Errorf("READINGS = %d, want at least %d", got["READINGS"], statsBefore["READINGS"]+300)
		}
		if got["BUFFERED"] < statsBefore["BUFFERED"]+300 {
			t.Errorf("BUFFERED = %d, want at least %d", got["BUFFERED"], statsBefore["BUFFERED"]+300)
		}
		if got[name+"-Ingest"] != 300 {
			t.Errorf("%s-Ingest = %d, want 300", name, got[name+"-Ingest"])
		}
		for _, a := range assets {
			if got[stored(a)] != 100 {
				t.Errorf("statistic %s = %d, want 100", stored(a), got[stored(a)])
			}
		}
		resp, err := c.ListStatisticsWithResponse(ctx)
		must(t, err)
		keys := []string{}
		for _, s := range *resp.JSON200 {
			keys = append(keys, s.Key)
		}
		if !slices.IsSorted(keys) {
			t.Errorf("statistics are not sorted by key: %v", keys)
		}
		for _, k := range []string{"BUFFERED", "DISCARDED", "PURGED", "READINGS", "UNSENT", "UNSNPURGED"} {
			if !slices.Contains(keys, k) {
				t.Errorf("statistics lack %s", k)
			}
		}
	})

	t.Run("tracking", func(t *testing.T) {
		edge := getItem(t, "service", "name").Value
		events := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Service: &name})
		if len(events) != 3 {
			t.Fatalf("tracking events of %s = %+v, want 3", name, events)
		}
		for _, e := range events {
			if !slices.Contains([]string{stored("bar/one"), stored("two"), stored("50%")}, e.Asset) ||
				e.Event != edgeclient.Ingest || e.Plugin != "http_south" || e.Service != name || e.Edge != edge ||
				e.Timestamp.IsZero() || e.DeprecatedTimestamp != "" {
				t.Errorf("tracking event = %+v", e)
			}
		}
		asset := stored("bar/one")
		if got := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset}); len(got) != 1 || got[0].Service != name {
			t.Errorf("events of asset %s = %+v", asset, got)
		}
		egress := edgeclient.Egress
		if got := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Service: &name, Event: &egress}); len(got) != 0 {
			t.Errorf("Egress events of a south service = %+v", got)
		}
		nobody := unique("nobody")
		if got := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Service: &nobody}); got == nil || len(got) != 0 {
			t.Errorf("events of an unknown service = %+v, want []", got)
		}
	})

	t.Run("south listing", func(t *testing.T) {
		r := southRecord(t, c, name)
		if r == nil {
			t.Fatal("listSouthServices lacks the service")
		}
		if southStatus(t, r) != string(edgeclient.ServiceStatusRunning) || !r.ScheduleEnabled || r.Plugin.Name != "http_south" || r.Plugin.Version == "" ||
			r.Address == "" || r.Protocol == "" || unionJSON(t, r.ServicePort) != "null" {
			t.Errorf("south record = %+v (service_port %s)", r, unionJSON(t, r.ServicePort))
		}
		checkManagementPort(t, "south record", unionJSON(t, r.ManagementPort))
		counts := map[string]int{}
		for _, a := range r.Assets {
			counts[a.Asset] = a.Count
		}
		for _, a := range assets {
			if counts[stored(a)] != 100 {
				t.Errorf("south record assets = %+v, want %s with 100", r.Assets, stored(a))
			}
		}
	})

	t.Run("readings browsable", func(t *testing.T) {
		checkStoredReadings(t, c, stored("bar/one"), 100, start)
	})

	t.Run("disable stops the service", func(t *testing.T) {
		st := setSchedule(t, c, name, false)
		if st.ScheduleId != created.Id || !st.Status || st.Message == "" {
			t.Errorf("disable = %+v", st)
		}
		if _, _, err := postIngest(ctx, host, port, "sensor-reading", readingsBody("x", 1, start)); err == nil {
			t.Error("http_south still accepts readings after its schedule was disabled")
		}
		checkDisabledSouth(t, southRecord(t, c, name))
		if rec := serviceRecord(t, c, name); rec == nil || rec.Status != edgeclient.ServiceStatusShutdown ||
			rec.Address != "" || rec.Protocol != "" || rec.ServicePort != nil {
			t.Errorf("service record of a disabled service = %+v", rec)
		} else {
			checkManagementPort(t, "service record of a disabled service", fmt.Sprint(rec.ManagementPort))
		}
		if got := auditCount(t, edgeclient.SCHCH); got != schchBefore+1 {
			t.Errorf("SCHCH entries %d, want %d", got, schchBefore+1)
		}
		// Disabling again is not an error and changes nothing.
		setSchedule(t, c, name, false)
		if got := auditCount(t, edgeclient.SCHCH); got != schchBefore+1 {
			t.Errorf("SCHCH entries after a second disable %d, want %d", got, schchBefore+1)
		}
		resp, err := c.GetScheduleWithResponse(ctx, created.Id)
		must(t, err)
		if resp.JSON200 == nil || resp.JSON200.Enabled {
			t.Errorf("schedule after disable = %s", resp.Body)
		}
	})

	t.Run("enable by id starts it again", func(t *testing.T) {
		resp, err := c.EnableScheduleWithResponse(ctx, created.Id)
		must(t, err)
		wantStatus(t, "enableSchedule", resp.StatusCode(), resp.Body, http.StatusOK)
		if resp.JSON200.ScheduleId != created.Id || !resp.JSON200.Status {
			t.Errorf("enable = %s", resp.Body)
		}
		status, body, err := postIngest(ctx, host, port, "sensor-reading", readingsBody("two", 1, start.Add(time.Hour)))
		if err != nil || status != http.StatusOK {
			t.Fatalf("post after enabling: %d %s %v", status, body, err)
		}
		if r := southRecord(t, c, name); r == nil || southStatus(t, r) != string(edgeclient.ServiceStatusRunning) || !r.ScheduleEnabled {
			t.Errorf("south record after enable = %+v", r)
		}
		if got := statistics(t, c)[name+"-Ingest"]; got != 301 {
			t.Errorf("%s-Ingest = %d, want 301", name, got)
		}
	})

	t.Run("delete keeps the readings", func(t *testing.T) {
		resp, err := c.DeleteServiceWithResponse(ctx, name)
		must(t, err)
		wantStatus(t, "deleteService", resp.StatusCode(), resp.Body, http.StatusOK)
		if resp.JSON200 == nil || resp.JSON200.Message == "" {
			t.Errorf("delete answer %s", resp.Body)
		}
		if _, _, err := postIngest(ctx, host, port, "sensor-reading", readingsBody("x", 1, start)); err == nil {
			t.Error("http_south still accepts readings after the service was deleted")
		}
		if serviceRecord(t, c, name) != nil || southRecord(t, c, name) != nil {
			t.Error("the deleted service is still listed")
		}
		wantNoCategory(t, name)
		sched, err := c.GetScheduleWithResponse(ctx, created.Id)
		must(t, err)
		checkError(t, sched.StatusCode(), sched.Body, http.StatusNotFound)
		got := statistics(t, c)
		if _, ok := got[name+"-Ingest"]; ok {
			t.Errorf("statistic %s-Ingest survived the delete", name)
		}
		if got[stored("two")] != 101 {
			t.Errorf("asset statistic %s = %d, want 101 (kept)", stored("two"), got[stored("two")])
		}
		checkStoredReadings(t, c, stored("bar/one"), 100, start)
		again, err := c.DeleteServiceWithResponse(ctx, name)
		must(t, err)
		checkError(t, again.StatusCode(), again.Body, http.StatusNotFound)
	})
}

// checkStoredReadings checks through the asset API that asset holds n
// readings, newest first, with the timestamps readingsBody gave them. It
// skips when the gateway does not browse readings yet.
func checkStoredReadings(t *testing.T, c *edgeclient.ClientWithResponses, asset string, n int, start time.Time) {
	t.Helper()
	resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(n + 10)})
	must(t, err)
	if resp.StatusCode() == http.StatusNotImplemented {
		skipUnbuilt(t, "getAssetReadings")
	}
	wantStatus(t, "getAssetReadings "+asset, resp.StatusCode(), resp.Body, http.StatusOK)
	got := *resp.JSON200
	if len(got) != n {
		t.Fatalf("asset %s has %d readings, want %d", asset, len(got), n)
	}
	newest := start.Add(time.Duration(n-1) * time.Millisecond).Format("2006-01-02 15:04:05.000000")
	if rawTimestamps(t, resp.Body)[0] != newest || got[0].Reading["i"] != float64(n-1) {
		t.Errorf("newest reading = %+v, want i=%d at %s", got[0], n-1, newest)
	}
	if counts, _ := assetCounts(t, c); counts[asset] != n {
		t.Errorf("listAssets count of %s = %d, want %d", asset, counts[asset], n)
	}
}

// TestCreateServiceErrors checks every refusal of createService and that a
// refused create leaves nothing behind.
func testCreateServiceErrors(t *testing.T) {
	c := api(t)
	existing := unique("conf-exists")
	createSouth(t, c, southDef{name: existing, plugin: "sinusoid", enabled: false})
	fresh := unique("conf-refused")
	long := strings.Repeat("x", 101)

	cases := []struct {
		name     string
		query    string
		body     string
		status   int
		contains string // in the message
		// unless names a service package whose installation makes the
		// case moot (on a gateway that has it).
		unless string
	}{
		{name: "missing name", body: `{"type":"south","plugin":"sinusoid","enabled":true}`, status: 400, contains: "name"},
		{name: "missing type", body: `{"name":"` + fresh + `","plugin":"sinusoid","enabled":true}`, status: 400, contains: "type"},
		{name: "missing enabled", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid"}`, status: 400, contains: "enabled"},
		{name: "unknown type", body: `{"name":"` + fresh + `","type":"eastbound","plugin":"sinusoid","enabled":true}`, status: 400, contains: "type"},
		{name: "enabled not a boolean", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid","enabled":"yes"}`, status: 400, contains: "enabled"},
		{name: "leading space", body: `{"name":" ` + fresh + `","type":"south","plugin":"sinusoid","enabled":true}`, status: 400, contains: "name"},
		{name: "control character", body: `{"name":"a\tb","type":"south","plugin":"sinusoid","enabled":true}`, status: 400, contains: "name"},
		{name: "name too long", body: `{"name":"` + long + `","type":"south","plugin":"sinusoid","enabled":true}`, status: 400, contains: "name"},
		{name: "south without plugin", body: `{"name":"` + fresh + `","type":"south","enabled":true}`, status: 400, contains: "plugin"},
		{name: "unknown plugin", body: `{"name":"` + fresh + `","type":"south","plugin":"teapot","enabled":true}`, status: 404, contains: "teapot"},
		{name: "config value out of range", body: `{"name":"` + fresh + `","type":"south","plugin":"http_south","enabled":true,"config":{"port":{"value":"70000"}}}`, status: 400, contains: "port"},
		{name: "config value of the wrong type", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid","enabled":"false","config":{"dataPointsPerSec":{"value":"fast"}}}`, status: 400, contains: "dataPointsPerSec"},
		{name: "config item unknown", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid","enabled":true,"config":{"colour":{"value":"red"}}}`, status: 400, contains: "colour"},
		{name: "config of the readonly plugin item", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid","enabled":true,"config":{"plugin":{"value":"http_south"}}}`, status: 400, contains: "plugin"},
		{name: "config without value", body: `{"name":"` + fresh + `","type":"south","plugin":"sinusoid","enabled":true,"config":{"assetName":{}}}`, status: 400, contains: "value"},
		{name: "north without plugin", body: `{"name":"` + fresh + `","type":"north","enabled":true}`, status: 400, contains: "plugin"},
		{name: "north with a south plugin", body: `{"name":"` + fresh + `","type":"north","plugin":"sinusoid","enabled":true}`, status: 400, contains: "sinusoid"},
		{name: "north config value not a URL", body: `{"name":"` + fresh + `","type":"north","plugin":"http_north","enabled":true,"config":{"url":{"value":"nowhere"}}}`, status: 400, contains: "url"},
		{name: "notification not installed", body: `{"name":"` + fresh + `","type":"Notification","enabled":true}`, status: 404, contains: "not installed", unless: "notification"},
		{name: "dispatcher not installed", body: `{"name":"` + fresh + `","type":"DISPATCHER","enabled":"true"}`, status: 404, contains: "not installed", unless: "dispatcher"},
		{name: "install body without action", body: `{"format":"repository","name":"` + fresh + `"}`, status: 400, contains: "type"},
		{name: "name of a service", body: `{"name":"` + existing + `","type":"south","plugin":"sinusoid","enabled":false}`, status: 409, contains: existing},
		{name: "name of a category", body: `{"name":"rest_api","type":"south","plugin":"sinusoid","enabled":false}`, status: 409, contains: "rest_api"},
		{name: "name of the core", body: `{"name":"Edge Core","type":"south","plugin":"sinusoid","enabled":false}`, status: 409, contains: "Edge Core"},
		{name: "not JSON", body: `{"name":`, status: 400, contains: "JSON"},
	}
	installed, err := c.ListInstalledServicesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listInstalledServices", installed.StatusCode(), installed.Body, http.StatusOK)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.unless != "" && slices.Contains(installed.JSON200.Services, tc.unless) {
				t.Skipf("the gateway under test has the %s service installed", tc.unless)
			}
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/service" + tc.query, body: strings.NewReader(tc.body), ctype: "application/json"})
			msg := checkError(t, r.status, r.body, tc.status)
			if !strings.Contains(msg, tc.contains) {
				t.Errorf("message %q does not name %q", msg, tc.contains)
			}
		})
	}
	// Nothing of a refused create exists.
	if serviceRecord(t, c, fresh) != nil {
		t.Errorf("service %s exists after refused creates", fresh)
	}
	wantNoCategory(t, fresh)
	sched, err := c.ListSchedulesWithResponse(t.Context())
	must(t, err)
	if slices.ContainsFunc(sched.JSON200.Schedules, func(s edgeclient.Schedule) bool { return s.Name == fresh }) {
		t.Errorf("schedule %s exists after refused creates", fresh)
	}

	// The name of a schedule that starts no service (a task's) is taken.
	for _, sc := range sched.JSON200.Schedules {
		if serviceRecord(t, c, sc.Name) != nil {
			continue
		}
		r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/service", ctype: "application/json",
			body: jsonBody(t, map[string]any{"name": sc.Name, "type": "south", "plugin": "sinusoid", "enabled": false})})
		checkError(t, r.status, r.body, http.StatusConflict)
		break
	}

	// enabled may be a string.
	sine := unique("conf-sine")
	r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/service", ctype: "application/json",
		body: strings.NewReader(`{"name":"` + sine + `","type":"SOUTH","plugin":"sinusoid","enabled":"false"}`)})
	wantStatus(t, "createService with enabled \"false\"", r.status, r.body, http.StatusOK)
	t.Cleanup(func() { _, _ = c.DeleteServiceWithResponse(t.Context(), sine) })
	checkDisabledSouth(t, southRecord(t, c, sine))
}

// TestServiceListings covers the core and storage records, the installed
// kinds and the delete refusals.
func testServiceListings(t *testing.T) {
	c := api(t)
	recs := serviceRecords(t, c, "")
	for _, want := range []struct{ name, typ string }{{"Edge Core", "Core"}, {"Edge Storage", "Storage"}} {
		i := slices.IndexFunc(recs, func(r edgeclient.ServiceRecord) bool { return r.Type == want.typ })
		if i < 0 || recs[i].Name != want.name || recs[i].Status != edgeclient.ServiceStatusRunning {
			t.Errorf("listServices lacks a running %s record named %s: %+v", want.typ, want.name, recs)
		}
	}
	t.Run("every record has an integer management_port", func(t *testing.T) {
		disabled := unique("conf-off")
		createSouth(t, c, southDef{name: disabled, plugin: "sinusoid", enabled: false})
		r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/service"})
		wantStatus(t, "listServices", r.status, r.body, http.StatusOK)
		var list struct {
			Services []map[string]json.RawMessage `json:"services"`
		}
		if err := json.Unmarshal(r.body, &list); err != nil {
			t.Fatalf("listServices body: %v", err)
		}
		seen := map[string]bool{}
		for _, rec := range list.Services {
			var name string
			_ = json.Unmarshal(rec["name"], &name)
			seen[name] = true
			checkManagementPort(t, "record "+name, string(rec["management_port"]))
		}
		for _, name := range []string{"Edge Core", "Edge Storage", disabled} {
			if !seen[name] {
				t.Errorf("listServices lacks %s", name)
			}
		}
	})
	if core := serviceRecords(t, c, "core"); len(core) != 1 || core[0].Type != "Core" {
		t.Errorf("listServices?type=core = %+v", core)
	}
	if none := serviceRecords(t, c, "Nothing"); none == nil || len(none) != 0 {
		t.Errorf("listServices?type=Nothing = %+v, want []", none)
	}
	r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/service?type="})
	checkError(t, r.status, r.body, http.StatusBadRequest)

	inst, err := c.ListInstalledServicesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listInstalledServices", inst.StatusCode(), inst.Body, http.StatusOK)
	for _, kind := range []string{"south", "storage"} {
		if !slices.Contains(inst.JSON200.Services, kind) {
			t.Errorf("installed services %v lack %s", inst.JSON200.Services, kind)
		}
	}

	deletes := []struct {
		name   string
		path   string
		status int
	}{
		{name: "core", path: "/edge/service/" + url.PathEscape("Edge Core"), status: 400},
		{name: "storage", path: "/edge/service/" + url.PathEscape("Edge Storage"), status: 400},
		{name: "unknown", path: "/edge/service/" + unique("nope"), status: 404},
		{name: "unknown with a slash", path: "/edge/service/a%2Fb" + unique(""), status: 404},
	}
	for _, d := range deletes {
		t.Run("delete "+d.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodDelete, path: d.path})
			checkError(t, r.status, r.body, d.status)
		})
	}
}

// randomUUID returns a random version 4 UUID.
func randomUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b)
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// TestScheduleErrors checks the refusals of the schedule calls.
func testScheduleErrors(t *testing.T) {
	unknown := randomUUID()
	cases := []struct {
		name   string
		method string
		path   string
		body   string
		status int
	}{
		{name: "get unknown", method: http.MethodGet, path: "/edge/schedule/" + unknown, status: 404},
		{name: "get malformed id", method: http.MethodGet, path: "/edge/schedule/not-a-uuid", status: 400},
		{name: "enable unknown id", method: http.MethodPut, path: "/edge/schedule/" + unknown + "/enable", status: 404},
		{name: "disable unknown id", method: http.MethodPut, path: "/edge/schedule/" + unknown + "/disable", status: 404},
		{name: "enable unknown name", method: http.MethodPut, path: "/edge/schedule/enable", body: `{"schedule_name":"` + unique("nope") + `"}`, status: 404},
		{name: "disable unknown name", method: http.MethodPut, path: "/edge/schedule/disable", body: `{"schedule_name":"` + unique("nope") + `"}`, status: 404},
		{name: "disable unknown id in body", method: http.MethodPut, path: "/edge/schedule/disable", body: `{"schedule_id":"` + unknown + `"}`, status: 404},
		{name: "both name and id", method: http.MethodPut, path: "/edge/schedule/enable", body: `{"schedule_name":"x","schedule_id":"` + unknown + `"}`, status: 400},
		{name: "neither", method: http.MethodPut, path: "/edge/schedule/enable", body: `{}`, status: 400},
		{name: "unknown field", method: http.MethodPut, path: "/edge/schedule/disable", body: `{"name":"x"}`, status: 400},
		{name: "empty name", method: http.MethodPut, path: "/edge/schedule/disable", body: `{"schedule_name":""}`, status: 400},
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

// TestFailedServiceHealth creates an http_south service on a port that is
// taken (the API's own), so its plugin cannot start: the gateway keeps
// serving, the service is failed (SRVFL), ping's health is red, and deleting
// the service ends it.
func testFailedServiceHealth(t *testing.T) {
	c := api(t)
	u, err := url.Parse(baseURL)
	if err != nil {
		t.Fatal(err)
	}
	apiPort := u.Port()
	if apiPort == "" {
		t.Skip("the gateway's URL names no port to collide with")
	}
	srvfl := auditCount(t, edgeclient.SRVFL)
	name := unique("conf-fail")
	createSouth(t, c, southDef{name: name, plugin: "http_south", enabled: true, config: map[string]string{"port": apiPort}})

	if r := serviceRecord(t, c, name); r == nil || r.Status != edgeclient.ServiceStatusFailed {
		t.Errorf("service record = %+v, want status failed", r)
	} else if r.Reason == nil || !strings.Contains(*r.Reason, apiPort) {
		t.Errorf("reason of the failed service = %v, want why its plugin failed (its port %s is taken)", r.Reason, apiPort)
	}
	if r := serviceRecord(t, c, "Edge Core"); r != nil && r.Reason != nil {
		t.Errorf("the core, running, has a reason: %q", *r.Reason)
	}
	if r := southRecord(t, c, name); r == nil || southStatus(t, r) != string(edgeclient.ServiceStatusFailed) || !r.ScheduleEnabled {
		t.Errorf("south record = %+v, want status failed", r)
	}
	if got := auditCount(t, edgeclient.SRVFL); got <= srvfl {
		t.Errorf("SRVFL entries %d, want more than %d", got, srvfl)
	}
	ping, err := c.PingWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "ping", ping.StatusCode(), ping.Body, http.StatusOK)
	if ping.JSON200.Health != edgeclient.Red {
		t.Errorf("health with a failed service = %s, want red", ping.JSON200.Health)
	}

	del, err := c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "deleteService", del.StatusCode(), del.Body, http.StatusOK)
	if ownGateway {
		ping, err = c.PingWithResponse(t.Context())
		must(t, err)
		if ping.JSON200.Health != edgeclient.Green {
			t.Errorf("health after deleting the failed service = %s, want green", ping.JSON200.Health)
		}
	}
}
