package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// ---- asset helpers ----

// readingLayout is the wire form of reading timestamps.
const readingLayout = "2006-01-02 15:04:05.000000"

// assetPath returns /edge/asset/<code> with code percent-encoded as one
// path segment.
func assetPath(code string, rest ...string) string {
	p := "/edge/asset/" + url.PathEscape(code)
	for _, r := range rest {
		p += "/" + url.PathEscape(r)
	}
	return p
}

// getJSON sends a GET through doRaw, wants 200 and decodes the body into v.
func getJSON(t testing.TB, path string, v any) {
	t.Helper()
	r := doRaw(t, rawRequest{method: http.MethodGet, path: path})
	wantStatus(t, "GET "+path, r.status, r.body, http.StatusOK)
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("GET %s: body does not decode into %T: %v; body: %s", path, v, err, truncate(r.body))
	}
}

// listAssets lists the assets through the SDK.
func listAssets(t testing.TB) []edgeclient.AssetCount {
	t.Helper()
	resp, err := api(t).ListAssetsWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listAssets", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listAssets: no JSON body: %s", truncate(resp.Body))
	}
	return *resp.JSON200
}

// assetCount returns the count listAssets gives code, or -1 when it is not
// listed.
func assetCount(t testing.TB, code string) int {
	t.Helper()
	for _, a := range listAssets(t) {
		if a.AssetCode == code {
			return int(a.Count)
		}
	}
	return -1
}

// purgeAsset purges one asset through the SDK and returns the count.
func purgeAsset(t testing.TB, code string) int {
	t.Helper()
	resp, err := api(t).PurgeAssetReadingsWithResponse(t.Context(), code)
	must(t, err)
	wantStatus(t, "purgeAssetReadings "+code, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("purgeAssetReadings %s: no JSON body: %s", code, truncate(resp.Body))
	}
	return int(resp.JSON200.Purged)
}

// newestPurgeAudit returns the details of the newest PURGE entry whose
// asset detail is code, or nil.
func newestPurgeAudit(t testing.TB, code string) map[string]any {
	t.Helper()
	for _, e := range listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.PURGE), Limit: ptr(100)}).Audit {
		if e.Details["asset"] == code {
			return e.Details
		}
	}
	return nil
}

// dataPurged is ping's dataPurged: the PURGED statistic.
func dataPurged(t testing.TB) int64 {
	t.Helper()
	resp, err := api(t).PingWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("ping: no JSON body: %s", truncate(resp.Body))
	}
	return resp.JSON200.DataPurged
}

// ---- ingest through http_south ----

// seeded describes readings put in by seedReadings: reading k has the
// sensor time base + k·seedStep and the document seedDoc(k).
type seeded struct {
	asset string
	base  time.Time
	n     int
}

// seedStep is the sensor time between two seeded readings: four a second.
const seedStep = 250 * time.Millisecond

// seedDoc is the document of seeded reading k: a number, a string and a
// nested object, so every reading path is exercised.
func seedDoc(k int) map[string]any {
	return map[string]any{"value": k, "label": fmt.Sprintf("r%d", k), "nested": map[string]any{"list": []any{k, "x"}}}
}

// at returns the sensor time of seeded reading k.
func (s seeded) at(k int) time.Time { return s.base.Add(time.Duration(k) * seedStep) }

// wire returns the wire timestamp of seeded reading k.
func (s seeded) wire(k int) string { return s.at(k).Format(readingLayout) }

// seedReadings ingests n readings of asset through a new http_south
// service, sensor-stamped from ten minutes ago on a whole minute (so all of
// them fall in one minute and one hour), and returns what it stored. The
// service is deleted when the test ends. Against another implementation
// that cannot create an http_south service yet (501, or an unknown plugin)
// the test is skipped with the reason; the gateway the suite started must
// build it. http_south answers only once the readings are committed, so
// they are readable at once.
func seedReadings(t *testing.T, asset string, n int) seeded {
	t.Helper()
	port := southService(t)
	s := seeded{asset: asset, base: time.Now().UTC().Add(-10 * time.Minute).Truncate(time.Minute), n: n}
	batch := make([]map[string]any, n)
	for k := range n {
		// Alternate the accepted timestamp forms.
		ts := s.wire(k)
		if k%2 == 1 {
			ts += "+00:00"
		}
		batch[k] = map[string]any{"timestamp": ts, "asset": asset, "readings": seedDoc(k)}
	}
	body, err := json.Marshal(batch)
	if err != nil {
		t.Fatalf("encode readings: %v", err)
	}
	postReadings(t, port, body)
	return s
}

// southService creates an enabled http_south service on a free port for
// the test and returns the port; it skips the test when another
// implementation cannot (see seedReadings).
func southService(t *testing.T) int {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatalf("free port: %v", err)
	}
	name := unique("conf-south")
	body := map[string]any{
		"name": name, "type": "south", "plugin": "http_south", "enabled": true,
		"config": map[string]any{"port": map[string]any{"value": fmt.Sprint(port)}},
	}
	r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/service", body: jsonBody(t, body), ctype: "application/json"})
	switch r.status {
	case http.StatusOK:
	case http.StatusNotImplemented:
		skipUnbuilt(t, "createService of an http_south service")
	case http.StatusNotFound:
		if ownGateway {
			t.Fatalf("the gateway has no http_south plugin (404: %s)", truncate(r.body))
		}
		t.Skipf("the gateway has no http_south plugin (404: %s): readings cannot be ingested, so this data case waits for it", truncate(r.body))
	default:
		t.Fatalf("create http_south service: status %d; body: %s", r.status, truncate(r.body))
	}
	t.Cleanup(func() {
		req, err := http.NewRequest(http.MethodDelete, baseURL+"/edge/service/"+url.PathEscape(name), nil)
		if err != nil {
			return
		}
		if resp, err := httpClient.Do(req); err == nil {
			_ = resp.Body.Close()
		}
	})
	return port
}

// postReadings posts a JSON array to http_south on port, retrying while
// the service is still starting (connection refused), and wants 200.
func postReadings(t *testing.T, port int, body []byte) {
	t.Helper()
	u := fmt.Sprintf("http://127.0.0.1:%d/sensor-reading", port)
	deadline := time.Now().Add(15 * time.Second)
	for {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, u, bytes.NewReader(body))
		if err != nil {
			t.Fatalf("build request: %v", err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := httpClient.Do(req)
		if errors.Is(err, syscall.ECONNREFUSED) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond) // polling for the listener, not synchronising on time
			continue
		}
		if err != nil {
			t.Fatalf("POST %s: %v", u, err)
		}
		var msg bytes.Buffer
		_, _ = msg.ReadFrom(resp.Body)
		_ = resp.Body.Close()
		wantStatus(t, "POST "+u, resp.StatusCode, msg.Bytes(), http.StatusOK)
		return
	}
}

// ---- cases that need no readings ----

// TestAssetsUnknown checks what every read of an asset without readings
// answers: 404 naming the asset for each read of that one asset (readings,
// values, series, summaries, timespan), {purged: 0} for a purge, and no
// entry in the lists of every asset.
func testAssetsUnknown(t *testing.T) {
	code := unique("conf-none")
	c := api(t)

	list := listAssets(t)
	if slices.ContainsFunc(list, func(a edgeclient.AssetCount) bool { return a.AssetCode == code }) {
		t.Errorf("listAssets lists %q, which has no readings", code)
	}
	spans, err := c.ListAssetTimespansWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listAssetTimespans", spans.StatusCode(), spans.Body, http.StatusOK)
	if spans.JSON200 == nil {
		t.Fatalf("listAssetTimespans: no JSON array: %s", truncate(spans.Body))
	}

	notFound := []struct{ name, path string }{
		{name: "readings", path: assetPath(code)},
		{name: "readings in a window", path: assetPath(code) + "?seconds=60"},
		{name: "values", path: assetPath(code, "value")},
		{name: "values in a window", path: assetPath(code, "value") + "?minutes=5&previous=1"},
		{name: "series", path: assetPath(code, "value", "series")},
		{name: "series by hour", path: assetPath(code, "value", "series") + "?group=hours&limit=5"},
		{name: "summary of a key", path: assetPath(code, "value", "summary")},
		{name: "summary", path: assetPath(code, "summary")},
		{name: "timespan", path: assetPath(code, "timespan")},
	}
	for _, e := range notFound {
		t.Run(e.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: e.path})
			if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, code) {
				t.Errorf("404 message %q does not name the asset %q", msg, code)
			}
		})
	}
	t.Run("purge", func(t *testing.T) {
		if n := purgeAsset(t, code); n != 0 {
			t.Errorf("purge of an unknown asset = %d, want 0", n)
		}
		d := newestPurgeAudit(t, code)
		if d == nil {
			t.Fatalf("no PURGE audit entry names asset %q", code)
		}
		if d["rowsRemoved"] != float64(0) {
			t.Errorf("PURGE details = %v, want rowsRemoved 0", d)
		}
	})
}

// TestAssetQueryRules checks every rule of the readings, values and series
// query parameters: each broken one is a 400 naming the parameters.
func testAssetQueryRules(t *testing.T) {
	code := unique("conf-rules")
	cases := []struct {
		name  string
		query string
		words []string // what the message must name
	}{
		{name: "seconds with limit", query: "seconds=10&limit=5", words: []string{"seconds", "limit"}},
		{name: "seconds with skip", query: "seconds=10&skip=1", words: []string{"seconds", "skip"}},
		{name: "minutes with limit", query: "minutes=1&limit=5", words: []string{"minutes", "limit"}},
		{name: "hours with skip", query: "hours=1&skip=0", words: []string{"hours", "skip"}},
		{name: "seconds and minutes", query: "seconds=1&minutes=1", words: []string{"seconds", "minutes"}},
		{name: "minutes and hours", query: "minutes=1&hours=1", words: []string{"minutes", "hours"}},
		{name: "seconds and hours", query: "seconds=1&hours=1", words: []string{"seconds", "hours"}},
		{name: "previous alone", query: "previous=5", words: []string{"previous"}},
		{name: "previous with limit", query: "previous=5&limit=5", words: []string{"previous"}},
		{name: "limit zero", query: "limit=0", words: []string{"limit"}},
		{name: "limit too large", query: "limit=10001", words: []string{"limit"}},
		{name: "limit not a number", query: "limit=ten", words: []string{"limit"}},
		{name: "negative skip", query: "skip=-1", words: []string{"skip"}},
		{name: "seconds zero", query: "seconds=0", words: []string{"seconds"}},
		{name: "hours negative", query: "hours=-2", words: []string{"hours"}},
		{name: "negative previous", query: "seconds=5&previous=-1", words: []string{"previous"}},
	}
	endpoints := []struct{ name, path string }{
		{name: "readings", path: assetPath(code)},
		{name: "values", path: assetPath(code, "value")},
		{name: "series", path: assetPath(code, "value", "series")},
	}
	for _, e := range endpoints {
		for _, c := range cases {
			t.Run(e.name+"/"+c.name, func(t *testing.T) {
				r := doRaw(t, rawRequest{method: http.MethodGet, path: e.path + "?" + c.query})
				msg := checkError(t, r.status, r.body, http.StatusBadRequest)
				for _, w := range c.words {
					if !strings.Contains(msg, w) {
						t.Errorf("message %q does not name %q", msg, w)
					}
				}
			})
		}
	}
	t.Run("series group", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(code, "value", "series") + "?group=days"})
		if msg := checkError(t, r.status, r.body, http.StatusBadRequest); !strings.Contains(msg, "group") {
			t.Errorf("message %q does not name group", msg)
		}
	})
	t.Run("timestamp key", func(t *testing.T) {
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(code, "timestamp")})
		if msg := checkError(t, r.status, r.body, http.StatusBadRequest); !strings.Contains(msg, "timestamp") {
			t.Errorf("message %q does not name the key", msg)
		}
	})
	t.Run("valid combinations", func(t *testing.T) {
		// Accepted: the asset, which has no readings, is what is refused.
		for _, q := range []string{"limit=1", "limit=10000&skip=5", "seconds=30&previous=120", "minutes=1&previous=0", "hours=2"} {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(code) + "?" + q})
			if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, code) {
				t.Errorf("?%s: message %q does not name the asset", q, msg)
			}
		}
	})
}

// TestAssetPathDecoding checks that asset codes are percent-decoded exactly
// once and that "timespan" after /edge/asset/ is the literal word.
func testAssetPathDecoding(t *testing.T) {
	suffix := unique("")
	cases := []struct {
		name, escaped, code string
	}{
		{name: "slash", escaped: "conf%2Fa" + suffix, code: "conf/a" + suffix},
		{name: "percent", escaped: "conf-50%25" + suffix, code: "conf-50%" + suffix},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/asset/" + c.escaped + "/timespan"})
			msg := checkError(t, r.status, r.body, http.StatusNotFound)
			if !strings.Contains(msg, `"`+c.code+`"`) {
				t.Errorf("timespan of %s: message %q does not name the decoded code %q", c.escaped, msg, c.code)
			}
			r = doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/asset/" + c.escaped})
			if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, `"`+c.code+`"`) {
				t.Errorf("readings of %s: message %q does not name the decoded code %q", c.escaped, msg, c.code)
			}
			r = doRaw(t, rawRequest{method: http.MethodDelete, path: "/edge/asset/" + c.escaped})
			wantStatus(t, "purge of "+c.escaped, r.status, r.body, http.StatusOK)
			if !jsonEqual(t, json.RawMessage(r.body), map[string]any{"purged": 0}) {
				t.Errorf("purge of %s = %s, want {\"purged\": 0}", c.escaped, r.body)
			}
			if newestPurgeAudit(t, c.code) == nil {
				t.Errorf("no PURGE audit entry names the decoded asset %q", c.code)
			}
		})
	}
	t.Run("timespan is a literal segment", func(t *testing.T) {
		// As an asset code, limit=0 would be a 400; the literal route
		// (listAssetTimespans) takes no parameters and answers the list.
		var spans []edgeclient.AssetTimespanEntry
		getJSON(t, "/edge/asset/timespan?limit=0", &spans)
		r := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/asset/timespan/timespan"})
		if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, `"timespan"`) {
			t.Errorf("timespan of the asset \"timespan\": message %q does not name it", msg)
		}
	})
}

// ---- cases that need readings ----

// readingValues returns the "value" of each wire reading.
func readingValues(t *testing.T, rs []edgeclient.Reading) []int {
	t.Helper()
	out := make([]int, 0, len(rs))
	for _, r := range rs {
		v, ok := r.Reading["value"].(float64)
		if !ok {
			t.Fatalf("reading %v has no numeric value", r.Reading)
		}
		out = append(out, int(v))
	}
	return out
}

func descending(hi, lo int) []int {
	var out []int
	for i := hi; i >= lo; i-- {
		out = append(out, i)
	}
	return out
}

// TestAssetReadingsData checks counts, order, paging, windows and the
// wire form of readings ingested through http_south.
func testAssetReadingsData(t *testing.T) {
	code := unique("conf/a%b") // a slash and a percent sign in the code
	s := seedReadings(t, code, 30)
	t.Cleanup(func() { purgeAssetQuietly(code) })

	if got := assetCount(t, code); got != 30 {
		t.Errorf("listAssets count of %q = %d, want 30", code, got)
	}
	cases := []struct {
		name   string
		params edgeclient.GetAssetReadingsParams
		want   []int
	}{
		{name: "default latest 20", want: descending(29, 10)},
		{name: "page", params: edgeclient.GetAssetReadingsParams{Limit: ptr(5), Skip: ptr(3)}, want: descending(26, 22)},
		{name: "skip alone", params: edgeclient.GetAssetReadingsParams{Skip: ptr(25)}, want: descending(4, 0)},
		{name: "all", params: edgeclient.GetAssetReadingsParams{Limit: ptr(100)}, want: descending(29, 0)},
		{name: "window holding all", params: edgeclient.GetAssetReadingsParams{Minutes: ptr(20)}, want: descending(29, 0)},
		{name: "window in hours", params: edgeclient.GetAssetReadingsParams{Hours: ptr(1)}, want: descending(29, 0)},
		{name: "window too recent", params: edgeclient.GetAssetReadingsParams{Minutes: ptr(5)}, want: []int{}},
		{name: "window too old", params: edgeclient.GetAssetReadingsParams{Minutes: ptr(10), Previous: ptr(30)}, want: []int{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, err := api(t).GetAssetReadingsWithResponse(t.Context(), code, &c.params)
			must(t, err)
			wantStatus(t, "getAssetReadings", resp.StatusCode(), resp.Body, http.StatusOK)
			if resp.JSON200 == nil {
				t.Fatalf("getAssetReadings: no JSON array: %s", truncate(resp.Body))
			}
			if got := readingValues(t, *resp.JSON200); !slices.Equal(got, c.want) {
				t.Errorf("values = %v, want %v", got, c.want)
			}
		})
	}

	// A known asset whose window or key matches nothing: [] (an unknown
	// asset is 404: testAssetsUnknown).
	for _, e := range []struct{ name, path string }{
		{name: "values of an unknown key", path: assetPath(code, "no-such-key")},
		{name: "values in a window too recent", path: assetPath(code, "value") + "?minutes=5"},
		{name: "series of an unknown key", path: assetPath(code, "no-such-key", "series")},
		{name: "series in a window too old", path: assetPath(code, "value", "series") + "?minutes=10&previous=30"},
	} {
		t.Run(e.name, func(t *testing.T) {
			var got []any
			getJSON(t, e.path, &got)
			if got == nil || len(got) != 0 {
				t.Errorf("GET %s = %v, want []", e.path, got)
			}
		})
	}

	t.Run("wire form", func(t *testing.T) {
		var rs []map[string]any
		getJSON(t, assetPath(code)+"?limit=1&skip=4", &rs)
		want := map[string]any{"timestamp": s.wire(25), "reading": seedDoc(25)}
		if len(rs) != 1 || !jsonEqual(t, rs[0], want) {
			t.Errorf("reading 25 = %v, want exactly %v", rs, jsonString(want))
		}
	})

	t.Run("values of one key", func(t *testing.T) {
		var vs []map[string]any
		getJSON(t, assetPath(code, "value")+"?limit=3", &vs)
		want := []map[string]any{
			{"timestamp": s.wire(29), "value": 29}, {"timestamp": s.wire(28), "value": 28}, {"timestamp": s.wire(27), "value": 27},
		}
		if !jsonEqual(t, vs, want) {
			t.Errorf("values = %v, want %v", vs, want)
		}
		var nested []map[string]any
		getJSON(t, assetPath(code, "nested")+"?limit=1", &nested)
		if want := []map[string]any{{"timestamp": s.wire(29), "nested": seedDoc(29)["nested"]}}; !jsonEqual(t, nested, want) {
			t.Errorf("nested values = %v, want %v", nested, want)
		}
		var missing []map[string]any
		getJSON(t, assetPath(code, "missing"), &missing)
		if missing == nil || len(missing) != 0 {
			t.Errorf("values of a missing key = %v, want []", missing)
		}
	})

	t.Run("summary", func(t *testing.T) {
		resp, err := api(t).GetAssetReadingSummaryWithResponse(t.Context(), code, "value")
		must(t, err)
		wantStatus(t, "summary", resp.StatusCode(), resp.Body, http.StatusOK)
		want := map[string]any{"value": map[string]any{"min": 0, "max": 29, "average": 14.5}}
		if !jsonEqual(t, json.RawMessage(resp.Body), want) {
			t.Errorf("summary = %s, want %s", resp.Body, jsonString(want))
		}
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(code, "label", "summary")})
		if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, "label") {
			t.Errorf("summary of a string key: message %q does not name the key", msg)
		}
	})

	t.Run("series", func(t *testing.T) {
		// Four readings a second: second s holds 4s..4s+3; the last
		// second (7) only 28 and 29.
		s0 := func(sec int) string { return s.base.Add(time.Duration(sec) * time.Second).Format(readingLayout) }
		sec := func(sc, lo, hi int) map[string]any {
			return map[string]any{"timestamp": s0(sc), "min": lo, "max": hi, "average": float64(lo+hi) / 2}
		}
		series := func(query string) []map[string]any {
			var got []map[string]any // fresh: decoding into used maps would merge
			getJSON(t, assetPath(code, "value", "series")+query, &got)
			return got
		}
		var want []map[string]any
		want = append(want, sec(7, 28, 29))
		for sc := 6; sc >= 0; sc-- {
			want = append(want, sec(sc, 4*sc, 4*sc+3))
		}
		if got := series(""); !jsonEqual(t, got, want) {
			t.Errorf("series = %v, want %v", got, want)
		}
		if got := series("?limit=2&skip=1"); !jsonEqual(t, got, want[1:3]) {
			t.Errorf("series page = %v, want %v", got, want[1:3])
		}
		for _, g := range []struct{ group, start string }{
			{group: "minutes", start: s0(0)},
			{group: "hours", start: s.base.Truncate(time.Hour).Format(readingLayout)},
		} {
			whole := []map[string]any{{"timestamp": g.start, "min": 0, "max": 29, "average": 14.5}}
			if got := series("?group=" + g.group); !jsonEqual(t, got, whole) {
				t.Errorf("series by %s = %v, want %v", g.group, got, whole)
			}
		}
	})

	t.Run("timespan", func(t *testing.T) {
		want := map[string]any{"oldest": s.wire(0), "newest": s.wire(29)}
		var got map[string]any
		getJSON(t, assetPath(code, "timespan"), &got)
		if !jsonEqual(t, got, want) {
			t.Errorf("timespan = %v, want %v", got, want)
		}
		var all []map[string]any
		getJSON(t, "/edge/asset/timespan", &all)
		want["asset_code"] = code
		if !slices.ContainsFunc(all, func(e map[string]any) bool { return jsonEqual(t, e, want) }) {
			t.Errorf("listAssetTimespans has no entry %v", want)
		}
	})
}

// purgeAssetQuietly removes an asset's readings after a test (t.Context is
// over by then).
func purgeAssetQuietly(code string) {
	req, err := http.NewRequest(http.MethodDelete, baseURL+assetPath(code), nil)
	if err != nil {
		return
	}
	if resp, err := httpClient.Do(req); err == nil {
		_ = resp.Body.Close()
	}
}

// TestAssetPurgeData checks that a purge removes exactly one asset's
// readings, audits it and adds to PURGED, and that purging everything
// empties the buffer.
func testAssetPurgeData(t *testing.T) {
	gone, kept := unique("conf-purge"), unique("conf-keep")
	seedReadings(t, gone, 12)
	seedReadings(t, kept, 5)
	t.Cleanup(func() { purgeAssetQuietly(kept) })
	before := dataPurged(t)

	if n := purgeAsset(t, gone); n != 12 {
		t.Errorf("purge %s = %d, want 12", gone, n)
	}
	if c := assetCount(t, gone); c != -1 {
		t.Errorf("%s is still listed (count %d) after its purge", gone, c)
	}
	if c := assetCount(t, kept); c != 5 {
		t.Errorf("%s count = %d after purging another asset, want 5", kept, c)
	}
	// A purged asset is unknown: 404 for its readings and its time span.
	r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(gone)})
	checkError(t, r.status, r.body, http.StatusNotFound)
	r = doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(gone, "timespan")})
	checkError(t, r.status, r.body, http.StatusNotFound)
	if d := newestPurgeAudit(t, gone); d == nil || d["rowsRemoved"] != float64(12) {
		t.Errorf("PURGE audit of %s = %v, want rowsRemoved 12", gone, d)
	}
	if after := dataPurged(t); after-before != 12 {
		t.Errorf("PURGED went from %d to %d, want +12", before, after)
	}
	if n := purgeAsset(t, gone); n != 0 {
		t.Errorf("second purge of %s = %d, want 0", gone, n)
	}

	t.Run("all", func(t *testing.T) {
		if !ownGateway {
			t.Skip("purging every asset would destroy the data of a gateway the suite did not start")
		}
		purged := purgeAll(t)
		if purged < 5 {
			t.Fatalf("purgeAllReadings removed %d, want at least the 5 readings of %s", purged, kept)
		}
		if c := assetCount(t, kept); c != -1 {
			t.Errorf("%s is still listed (count %d) after purging everything", kept, c)
		}
		if grown := dataPurged(t) - before; grown < 12+purged {
			t.Errorf("PURGED grew by %d, want at least %d (both purges)", grown, 12+purged)
		}
	})
}

// TestAssetPurgeAllShape checks the answer of a purge of everything; only
// on a gateway the suite started.
func testAssetPurgeAllShape(t *testing.T) {
	needOwnGateway(t, "purging every asset would destroy the data of a gateway the suite did not start")
	r := doRaw(t, rawRequest{method: http.MethodDelete, path: "/edge/asset"})
	if r.status == http.StatusAccepted {
		// The suite's other cases left more than the task threshold.
		var got map[string]any
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatalf("body %s: %v", r.body, err)
		}
		if len(got) != 4 || got["id"] == nil || got["link"] != "/edge/task/"+fmt.Sprint(got["id"]) {
			t.Errorf("purgeAllReadings = %s, want {message, id, link, pending}", r.body)
		}
		return
	}
	wantStatus(t, "purgeAllReadings", r.status, r.body, http.StatusOK)
	var got map[string]any
	if err := json.Unmarshal(r.body, &got); err != nil {
		t.Fatalf("body %s: %v", r.body, err)
	}
	if n, ok := got["purged"].(float64); len(got) != 1 || !ok || n < 0 || n != math.Trunc(n) {
		t.Errorf("purgeAllReadings = %s, want {\"purged\": N} with N ≥ 0", r.body)
	}
}

// TestAssetSummary ingests readings whose keys hold numbers, strings and
// mixtures, and reads the summary of every key at once.
func testAssetSummary(t *testing.T) {
	port := southService(t)
	asset := unique("conf-sum")
	ts := time.Now().UTC().Add(-time.Minute).Format(readingLayout)
	docs := []map[string]any{
		{"a": 1, "b": 10, "s": "x"},
		{"a": 3, "b": "n/a", "summary": 5},
		{"a": 2.5, "c": true, "nested": map[string]any{"n": 1}},
	}
	batch := make([]map[string]any, len(docs))
	for i, d := range docs {
		batch[i] = map[string]any{"timestamp": ts, "asset": asset, "readings": d}
	}
	body, err := json.Marshal(batch)
	if err != nil {
		t.Fatal(err)
	}
	postReadings(t, port, body)

	resp, err := api(t).GetAssetSummaryWithResponse(t.Context(), asset)
	must(t, err)
	wantStatus(t, "getAssetSummary", resp.StatusCode(), resp.Body, http.StatusOK)
	got := *resp.JSON200
	want := map[string]edgeclient.SummaryValues{
		"a":       {Min: 1, Max: 3, Average: 6.5 / 3},
		"b":       {Min: 10, Max: 10, Average: 10},
		"summary": {Min: 5, Max: 5, Average: 5},
	}
	if len(got) != len(want) {
		t.Errorf("keys %v, want exactly the numeric ones a, b, summary", slices.Sorted(maps.Keys(got)))
	}
	for k, w := range want {
		g, ok := got[k]
		if !ok || math.Abs(g.Min-w.Min) > 1e-9 || math.Abs(g.Max-w.Max) > 1e-9 || math.Abs(g.Average-w.Average) > 1e-9 {
			t.Errorf("summary of %s = %+v (present %v), want %+v", k, g, ok, w)
		}
	}
	t.Run("agrees with the summary of one key", func(t *testing.T) {
		one, err := api(t).GetAssetReadingSummaryWithResponse(t.Context(), asset, "a")
		must(t, err)
		wantStatus(t, "getAssetReadingSummary", one.StatusCode(), one.Body, http.StatusOK)
		if (*one.JSON200)["a"] != got["a"] {
			t.Errorf("one key: %+v, all keys: %+v", (*one.JSON200)["a"], got["a"])
		}
	})
	t.Run("no numeric values", func(t *testing.T) {
		words := unique("conf-sum-words")
		b, _ := json.Marshal([]map[string]any{{"timestamp": ts, "asset": words, "readings": map[string]any{"w": "x"}}})
		postReadings(t, port, b)
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(words, "summary")})
		wantStatus(t, "getAssetSummary", r.status, r.body, http.StatusOK)
		if strings.TrimSpace(string(r.body)) != "{}" {
			t.Errorf("body %s, want {}", r.body)
		}
	})
	t.Run("values whose sum leaves float64", func(t *testing.T) {
		// Two readings of 1.7e308 sum past float64's range; their summary
		// and series must still be the finite 1.7e308, never an error.
		// The smallest positive float64 (t) is at the other edge.
		huge := unique("conf-sum-huge")
		b, _ := json.Marshal([]map[string]any{
			{"timestamp": ts, "asset": huge, "readings": map[string]any{"v": 1.7e308, "w": -math.MaxFloat64, "t": 5e-324}},
			{"timestamp": ts, "asset": huge, "readings": map[string]any{"v": 1.7e308, "w": math.MaxFloat64, "t": 5e-324}},
		})
		postReadings(t, port, b)
		all, err := api(t).GetAssetSummaryWithResponse(t.Context(), huge)
		must(t, err)
		wantStatus(t, "getAssetSummary", all.StatusCode(), all.Body, http.StatusOK)
		if v := (*all.JSON200)["v"]; v.Min != 1.7e308 || v.Max != 1.7e308 || math.Abs(v.Average-1.7e308) > 1e296 {
			t.Errorf("summary of v = %+v, want 1.7e308 throughout", v)
		}
		if w := (*all.JSON200)["w"]; w.Min != -math.MaxFloat64 || w.Max != math.MaxFloat64 || w.Average != 0 {
			t.Errorf("summary of w = %+v, want min and max of float64 and an average of 0", w)
		}
		if v := (*all.JSON200)["t"]; v.Min != 5e-324 || v.Max != 5e-324 || v.Average != 5e-324 {
			t.Errorf("summary of t = %+v, want 5e-324 throughout", v)
		}
		// Seconds come from the readings, minutes and hours from the
		// per-minute rollups: every group is one bucket with the same
		// figures as the summary.
		for _, key := range []string{"v", "w", "t"} {
			one, err := api(t).GetAssetReadingSummaryWithResponse(t.Context(), huge, key)
			must(t, err)
			wantStatus(t, "getAssetReadingSummary", one.StatusCode(), one.Body, http.StatusOK)
			want := (*one.JSON200)[key]
			if want != (*all.JSON200)[key] {
				t.Errorf("summary of %s alone = %+v, with the asset's = %+v", key, want, (*all.JSON200)[key])
			}
			for _, group := range []string{"seconds", "minutes", "hours"} {
				r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(huge, key, "series") + "?group=" + group})
				wantStatus(t, "getAssetReadingSeries", r.status, r.body, http.StatusOK)
				var series []struct{ Min, Max, Average float64 }
				if err := json.Unmarshal(r.body, &series); err != nil {
					t.Fatalf("series of %s by %s: %v in %s", key, group, err, r.body)
				}
				if len(series) != 1 || series[0].Min != want.Min || series[0].Max != want.Max || series[0].Average != want.Average {
					t.Errorf("series of %s by %s = %s, want one bucket of %+v", key, group, r.body, want)
				}
			}
		}
	})
	t.Run("unknown asset", func(t *testing.T) {
		code := unique("conf-none")
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(code, "summary")})
		if msg := checkError(t, r.status, r.body, http.StatusNotFound); !strings.Contains(msg, code) {
			t.Errorf("message %q does not name the asset", msg)
		}
	})
	t.Run("an asset code with a slash", func(t *testing.T) {
		slashed := unique("conf/sum")
		b, _ := json.Marshal([]map[string]any{{"timestamp": ts, "asset": slashed, "readings": map[string]any{"v": 4}}})
		postReadings(t, port, b)
		r := doRaw(t, rawRequest{method: http.MethodGet, path: assetPath(slashed, "summary")})
		wantStatus(t, "getAssetSummary", r.status, r.body, http.StatusOK)
		if !strings.Contains(string(r.body), `"v"`) {
			t.Errorf("body %s, want the summary of v", r.body)
		}
	})
}

// purgeAll purges every asset through the SDK and returns how many
// readings went: from the answer, or, when the deletion runs as a task,
// the readings pending when it began, once its task is complete.
func purgeAll(t *testing.T) int64 {
	t.Helper()
	c := api(t)
	before := taskIDs(t, c, "purge readings")
	resp, err := c.PurgeAllReadingsWithResponse(t.Context())
	must(t, err)
	if resp.StatusCode() == http.StatusAccepted && resp.JSON202 != nil {
		tk := newCompleteTask(t, c, "purge readings", before, 2*time.Minute)
		if tk.ExitCode == nil || *tk.ExitCode != 0 {
			t.Fatalf("deletion task = %+v, want exit code 0", tk)
		}
		return resp.JSON202.Pending
	}
	wantStatus(t, "purgeAllReadings", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("purgeAllReadings: no JSON body: %s", truncate(resp.Body))
	}
	return resp.JSON200.Purged
}

// deleteTaskReadings is the task threshold the suite's own gateway runs
// with (EDGE_DELETE_TASK_READINGS, see gateway.go): a deletion of more
// readings answers 202 and runs as a task.
const deleteTaskReadings = 20000

// deleteAndHangUp sends DELETE path and closes the connection as soon as
// the request is written, before any answer: a caller that goes away.
func deleteAndHangUp(t *testing.T, path string) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { cancel() }})
	req, err := http.NewRequestWithContext(ctx, http.MethodDelete, baseURL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	authorize(req)
	client := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
	resp, err := client.Do(req)
	if err == nil { // answered before the hang-up took: nothing to abandon
		_ = resp.Body.Close()
		wantStatus(t, "DELETE "+path, resp.StatusCode, nil, http.StatusOK)
	}
}

// seedDense ingests n readings of asset through port, all within one
// minute (a millisecond apart from base), in posts of at most 5000.
func seedDense(t *testing.T, port int, asset string, base time.Time, k0, n int) {
	t.Helper()
	for from := 0; from < n; from += 5000 {
		batch := make([]map[string]any, 0, 5000)
		for k := from; k < min(n, from+5000); k++ {
			batch = append(batch, map[string]any{"asset": asset,
				"timestamp": base.Add(time.Duration((k0+k)%50000) * time.Millisecond).Format(readingLayout),
				"readings":  map[string]any{"value": ((k0 + k) * 7919) % 1000, "label": "x"}})
		}
		body, err := json.Marshal(batch)
		if err != nil {
			t.Fatal(err)
		}
		postReadings(t, port, body)
	}
}

// wantSummaryOfReadings checks the summary of asset's "value" against its
// readings, read back one by one (at most 10000).
func wantSummaryOfReadings(t *testing.T, asset string) {
	t.Helper()
	rs := readingsOf(t, api(t), asset) // none: 404, an emptied asset's answer
	resp, err := api(t).GetAssetSummaryWithResponse(t.Context(), asset)
	must(t, err)
	if len(rs) == 0 {
		if resp.StatusCode() == http.StatusOK && resp.JSON200 != nil {
			if v, ok := (*resp.JSON200)["value"]; ok {
				t.Errorf("summary of the emptied %s has value %+v", asset, v)
			}
		} else {
			wantStatus(t, "summary of an emptied asset", resp.StatusCode(), resp.Body, http.StatusNotFound)
		}
		return
	}
	wantStatus(t, "getAssetSummary", resp.StatusCode(), resp.Body, http.StatusOK)
	lo, hi, sum := math.Inf(1), math.Inf(-1), 0.0
	for _, r := range rs {
		v, ok := r["value"].(float64)
		if !ok {
			t.Fatalf("reading %v has no numeric value", r)
		}
		lo, hi, sum = min(lo, v), max(hi, v), sum+v
	}
	got := (*resp.JSON200)["value"]
	avg := sum / float64(len(rs))
	if got.Min != lo || got.Max != hi || math.Abs(got.Average-avg) > 1e-9*max(1, math.Abs(avg)) {
		t.Errorf("summary of %s = %+v, want min %g max %g average %g from its %d readings", asset, got, lo, hi, avg, len(rs))
	}
}

// TestAssetDeleteCallerGone deletes an asset whose readings crowd one
// minute while its caller hangs up as soon as the request is sent, and
// more readings of it arrive meanwhile: a deletion small enough to run in
// the call, and one large enough to run as a task (on the suite's own
// gateway, whose threshold is deleteTaskReadings). Either must run to its
// end (the readings stored when it began are gone, a PURGE audit entry
// counts them, the task ends Complete with exit code 0) and leave the
// summary exact over what is left.
func testAssetDeleteCallerGone(t *testing.T) {
	cases := []struct {
		name string
		n    int
		task bool
	}{
		{name: "in the call", n: 4000},
		{name: "as a task", n: deleteTaskReadings + 5000, task: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.task && !ownGateway {
				t.Skip("the task threshold is known only on the suite's own gateway")
			}
			code := unique("conf-large")
			t.Cleanup(func() { purgeAssetQuietly(code) })
			port := southService(t)
			base := time.Now().UTC().Add(-10 * time.Minute).Truncate(time.Minute)
			seedDense(t, port, code, base, 0, c.n)
			if got := assetCount(t, code); got != c.n {
				t.Fatalf("%s holds %d readings, want %d", code, got, c.n)
			}
			api := api(t)
			before := taskIDs(t, api, "purge readings")

			deleteAndHangUp(t, assetPath(code))
			seedDense(t, port, code, base, c.n, 500) // ingest goes on, in the same minute

			eventually(t, 2*time.Minute, "the deletion's PURGE audit entry", func() bool {
				return newestPurgeAudit(t, code) != nil
			})
			if d := newestPurgeAudit(t, code); d["rowsRemoved"].(float64) < float64(c.n) {
				t.Errorf("PURGE audit of %s = %v, want at least the %d readings stored before the deletion", code, d, c.n)
			}
			if c.task {
				tk := newCompleteTask(t, api, "purge readings", before, 2*time.Minute)
				if tk.ExitCode == nil || *tk.ExitCode != 0 {
					t.Errorf("deletion task = %+v, want Complete with exit code 0", tk)
				}
			}
			if left := assetCount(t, code); left > 500 {
				t.Errorf("%s holds %d readings after its deletion, want at most the 500 that arrived meanwhile", code, left)
			}
			wantSummaryOfReadings(t, code)
		})
	}
}

// TestAssetDeleteAsTask checks the answer of a deletion above the task
// threshold: 202 at once with the task's id, link and the readings
// pending, the task then ending Complete and the asset empty.
func testAssetDeleteAsTask(t *testing.T) {
	needOwnGateway(t, "the task threshold is known only on the suite's own gateway")
	code := unique("conf-task")
	t.Cleanup(func() { purgeAssetQuietly(code) })
	port := southService(t)
	seedDense(t, port, code, time.Now().UTC().Add(-10*time.Minute).Truncate(time.Minute), 0, deleteTaskReadings+1)
	api := api(t)
	before := taskIDs(t, api, "purge readings")
	resp, err := api.PurgeAssetReadingsWithResponse(t.Context(), code)
	must(t, err)
	wantStatus(t, "purgeAssetReadings", resp.StatusCode(), resp.Body, http.StatusAccepted)
	if resp.JSON202 == nil {
		t.Fatalf("purgeAssetReadings: no JSON body: %s", truncate(resp.Body))
	}
	st := resp.JSON202
	if st.Link != "/edge/task/"+st.Id.String() || st.Pending != deleteTaskReadings+1 || st.Message == "" {
		t.Errorf("purgeAssetReadings = %s, want the task's id and link and %d pending", resp.Body, deleteTaskReadings+1)
	}
	tk := newCompleteTask(t, api, "purge readings", before, 2*time.Minute)
	if tk.Id != st.Id {
		t.Errorf("the task that ended is %s, the answer named %s", tk.Id, st.Id)
	}
	if c := assetCount(t, code); c != -1 {
		t.Errorf("%s still holds %d readings after its deletion task", code, c)
	}
}
