package conformance

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// TestDeprecateTrackingEvent deprecates an asset's Ingest event, checks the
// refusals, and that the next sighting of the asset clears the deprecation.
func testDeprecateTrackingEvent(t *testing.T) {
	c := api(t)
	ctx := t.Context()
	name, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	asset := unique("conf-track") + "/bar/one"
	post := func() {
		t.Helper()
		if status, body, err := postIngest(ctx, host, port, "sensor-reading", readingsBody(asset, 3, time.Now())); err != nil || status != http.StatusOK {
			t.Fatalf("post: %d %s %v", status, body, err)
		}
	}
	post()
	astdpBefore := auditCount(t, edgeclient.ASTDP)

	resp, err := c.DeprecateTrackingEventWithResponse(ctx, name, asset, edgeclient.Ingest)
	must(t, err)
	wantStatus(t, "deprecateTrackingEvent", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil || resp.JSON200.Message == "" {
		t.Errorf("answer %s", resp.Body)
	}
	events := trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset})
	if len(events) != 1 || !readingTimestamp.MatchString(events[0].DeprecatedTimestamp) {
		t.Fatalf("events after deprecation = %+v, want one with deprecatedTimestamp", events)
	}
	if got := auditCount(t, edgeclient.ASTDP); got != astdpBefore+1 {
		t.Errorf("ASTDP entries %d, want %d", got, astdpBefore+1)
	}
	if r := southRecord(t, c, name); r == nil || len(r.Assets) != 0 {
		t.Errorf("south record lists a deprecated asset: %+v", r)
	}

	errs := []struct {
		name   string
		path   string
		status int
	}{
		{name: "already deprecated", path: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + url.PathEscape(asset) + "/event/Ingest", status: 409},
		{name: "unknown asset", path: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + unique("nope") + "/event/Ingest", status: 404},
		{name: "unknown service", path: "/edge/track/service/" + unique("nope") + "/asset/" + url.PathEscape(asset) + "/event/Ingest", status: 404},
		{name: "other event kind", path: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + url.PathEscape(asset) + "/event/Egress", status: 404},
		{name: "invalid event kind", path: "/edge/track/service/" + url.PathEscape(name) + "/asset/" + url.PathEscape(asset) + "/event/Sent", status: 400},
	}
	for _, e := range errs {
		t.Run(e.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodPut, path: e.path})
			checkError(t, r.status, r.body, e.status)
		})
	}
	bad := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/track?event=Sent"})
	checkError(t, bad.status, bad.body, http.StatusBadRequest)

	// The asset is tracked again: the deprecation ends by itself.
	post()
	events = trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset})
	if len(events) != 1 || events[0].DeprecatedTimestamp != "" {
		t.Errorf("events after a new sighting = %+v, want the deprecation cleared", events)
	}
	if r := southRecord(t, c, name); r == nil || len(r.Assets) != 1 || r.Assets[0].Count != 6 {
		t.Errorf("south record after a new sighting = %+v", r)
	}
}
