package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// southDef describes a south service to create through the SDK.
type southDef struct {
	name    string
	plugin  string
	enabled bool
	config  map[string]string
}

// createBody builds the SDK body of a create call.
func createBody(t testing.TB, s southDef) edgeclient.ServiceRequest {
	t.Helper()
	req := edgeclient.ServiceCreateRequest{Name: s.name, Type: "south", Plugin: ptr(s.plugin), Enabled: s.enabled, Config: northConfig(s.config)}
	var body edgeclient.ServiceRequest
	if err := body.FromServiceCreateRequest(req); err != nil {
		t.Fatal(err)
	}
	return body
}

// createSouth creates a south service, fails the test unless it succeeds,
// deletes it when the test ends (if it still exists) and returns the
// answer.
func createSouth(t testing.TB, c *edgeclient.ClientWithResponses, s southDef) *edgeclient.ServiceCreated {
	t.Helper()
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, createBody(t, s))
	must(t, err)
	wantStatus(t, "createService "+s.name, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("createService %s: no JSON body: %s", s.name, truncate(resp.Body))
	}
	t.Cleanup(func() {
		r, err := c.DeleteServiceWithResponse(context.Background(), s.name)
		if err != nil {
			t.Errorf("clean up service %s: %v", s.name, err)
			return
		}
		if r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up service %s: status %d; body %s", s.name, r.StatusCode(), truncate(r.Body))
		}
	})
	return resp.JSON200
}

// southRecord returns the south listing's record of name, or nil.
func southRecord(t testing.TB, c *edgeclient.ClientWithResponses, name string) *edgeclient.SouthService {
	t.Helper()
	resp, err := c.ListSouthServicesWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listSouthServices", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listSouthServices: no JSON body: %s", truncate(resp.Body))
	}
	for i, s := range resp.JSON200.Services {
		if s.Name == name {
			return &resp.JSON200.Services[i]
		}
	}
	return nil
}

// unionJSON returns the JSON text of a field that holds one of several
// types, e.g. a south record's port: `8081`, `""` or `null`.
func unionJSON(t testing.TB, v json.Marshaler) string {
	t.Helper()
	b, err := v.MarshalJSON()
	if err != nil {
		t.Fatalf("encode a union field: %v", err)
	}
	return string(b)
}

// checkManagementPort checks that raw, the JSON of a record's
// management_port, is a port number: the gateway's API port, which on a
// gateway the suite started is the port of its URL.
func checkManagementPort(t testing.TB, what, raw string) {
	t.Helper()
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > 65535 {
		t.Errorf("%s: management_port %s is not a port number", what, raw)
		return
	}
	if u, err := url.Parse(baseURL); ownGateway && err == nil && u.Port() != raw {
		t.Errorf("%s: management_port %s, want the API's port %s", what, raw, u.Port())
	}
}

// southStatus returns the status of a south record: a service status, or
// "" for a disabled service.
func southStatus(t testing.TB, r *edgeclient.SouthService) string {
	t.Helper()
	var s string
	if err := json.Unmarshal([]byte(unionJSON(t, r.Status)), &s); err != nil {
		t.Fatalf("south record status %s is not a string", unionJSON(t, r.Status))
	}
	return s
}

// checkDisabledSouth checks the south record of a disabled service: address,
// both ports, protocol and status are all "" (spec §2.6).
func checkDisabledSouth(t testing.TB, r *edgeclient.SouthService) {
	t.Helper()
	if r == nil {
		t.Error("the disabled service is not in the south listing")
		return
	}
	got := map[string]string{"address": jsonString(r.Address), "management_port": unionJSON(t, r.ManagementPort),
		"service_port": unionJSON(t, r.ServicePort), "protocol": jsonString(r.Protocol), "status": unionJSON(t, r.Status)}
	for field, v := range got {
		if v != `""` {
			t.Errorf("south record of disabled service %s: %s = %s, want \"\"", r.Name, field, v)
		}
	}
	if r.ScheduleEnabled {
		t.Errorf("south record of disabled service %s: schedule_enabled true", r.Name)
	}
}

// serviceRecords lists services, optionally of one type.
func serviceRecords(t testing.TB, c *edgeclient.ClientWithResponses, typ string) []edgeclient.ServiceRecord {
	t.Helper()
	params := &edgeclient.ListServicesParams{}
	if typ != "" {
		params.Type = &typ
	}
	resp, err := c.ListServicesWithResponse(t.Context(), params)
	must(t, err)
	wantStatus(t, "listServices", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listServices: no JSON body: %s", truncate(resp.Body))
	}
	return resp.JSON200.Services
}

// serviceRecord returns the listing's record of name, or nil.
func serviceRecord(t testing.TB, c *edgeclient.ClientWithResponses, name string) *edgeclient.ServiceRecord {
	t.Helper()
	recs := serviceRecords(t, c, "")
	if i := slices.IndexFunc(recs, func(r edgeclient.ServiceRecord) bool { return r.Name == name }); i >= 0 {
		return &recs[i]
	}
	return nil
}

// statistics returns every statistic by key.
func statistics(t testing.TB, c *edgeclient.ClientWithResponses) map[string]int {
	t.Helper()
	resp, err := c.ListStatisticsWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "listStatistics", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listStatistics: no JSON body: %s", truncate(resp.Body))
	}
	out := map[string]int{}
	for _, s := range *resp.JSON200 {
		out[s.Key] = s.Value
	}
	return out
}

// trackingEvents lists tracking events with the given filters.
func trackingEvents(t testing.TB, c *edgeclient.ClientWithResponses, params edgeclient.ListTrackingEventsParams) []edgeclient.TrackingEvent {
	t.Helper()
	resp, err := c.ListTrackingEventsWithResponse(t.Context(), &params)
	must(t, err)
	wantStatus(t, "listTrackingEvents", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listTrackingEvents: no JSON body: %s", truncate(resp.Body))
	}
	wantTimestamps(t, "listTrackingEvents", resp.Body, readingTimestamp)
	return resp.JSON200.Track
}

// setSchedule enables or disables a schedule by name and fails the test
// unless it succeeds.
func setSchedule(t testing.TB, c *edgeclient.ClientWithResponses, name string, enabled bool) *edgeclient.ScheduleStatus {
	t.Helper()
	body := edgeclient.ScheduleSelector{ScheduleName: &name}
	var (
		status int
		raw    []byte
		out    *edgeclient.ScheduleStatus
	)
	if enabled {
		resp, err := c.EnableScheduleByNameWithResponse(t.Context(), body)
		must(t, err)
		status, raw, out = resp.StatusCode(), resp.Body, resp.JSON200
	} else {
		resp, err := c.DisableScheduleByNameWithResponse(t.Context(), body)
		must(t, err)
		status, raw, out = resp.StatusCode(), resp.Body, resp.JSON200
	}
	wantStatus(t, fmt.Sprintf("set schedule %s enabled=%v", name, enabled), status, raw, http.StatusOK)
	if out == nil {
		t.Fatalf("schedule %s: no JSON body: %s", name, truncate(raw))
	}
	return out
}

// ingestClient posts to http_south; it is not the API, so it is plain HTTP.
var ingestClient = &http.Client{Timeout: 30 * time.Second}

// gatewayHost returns the host name of the gateway under test, where its
// http_south services listen too.
func gatewayHost(t testing.TB, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("gateway URL %q: %v", base, err)
	}
	return u.Hostname()
}

// postIngest posts a JSON body to an http_south service and returns the
// status and body, or the transport error.
func postIngest(ctx context.Context, host string, port int, uri, body string) (int, []byte, error) {
	target := "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/" + uri
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target, strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := ingestClient.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// readingsBody returns a posted array of n readings of asset, with
// timestamps one millisecond apart from start.
func readingsBody(asset string, n int, start time.Time) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"timestamp":%q,"asset":%q,"readings":{"i":%d,"v":%g}}`,
			start.Add(time.Duration(i)*time.Millisecond).UTC().Format("2006-01-02 15:04:05.000000"), asset, i, float64(i)/2)
	}
	b.WriteByte(']')
	return b.String()
}

// assetCounts returns the stored readings per asset code through
// listAssets, and true. A 501 ends the test instead: skipped against
// another implementation, failed against the suite's own gateway
// (skipUnbuilt); ok stays for the callers written when it reported that.
func assetCounts(t testing.TB, c *edgeclient.ClientWithResponses) (counts map[string]int, ok bool) {
	t.Helper()
	resp, err := c.ListAssetsWithResponse(t.Context())
	must(t, err)
	if resp.StatusCode() == http.StatusNotImplemented {
		skipUnbuilt(t, "listAssets")
	}
	wantStatus(t, "listAssets", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listAssets: no JSON body: %s", truncate(resp.Body))
	}
	out := map[string]int{}
	for _, a := range *resp.JSON200 {
		out[a.AssetCode] = a.Count
	}
	return out, true
}
