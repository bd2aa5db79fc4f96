package conformance

import (
	"context"
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

	"github.com/edged/edged/clients/go/edgeclient"
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
// listAssets, or ok false when the gateway does not implement it yet.
func assetCounts(t testing.TB, c *edgeclient.ClientWithResponses) (map[string]int, bool) {
	t.Helper()
	resp, err := c.ListAssetsWithResponse(t.Context())
	must(t, err)
	if resp.StatusCode() == http.StatusNotImplemented {
		return nil, false
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
