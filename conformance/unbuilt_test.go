package conformance

import (
	"net/http"
	"testing"
)

// TestUnbuiltMatching checks which requests count as unbuilt, so that
// only those may answer 501 from the suite's own gateway (no gateway
// involved).
func TestUnbuiltMatching(t *testing.T) {
	track(t)
	idx, err := parseSpec([]byte(`{"paths": {
		"/edge/repository": {"post": {"operationId": "setRepository"}},
		"/edge/service": {"get": {"operationId": "listServices"}, "post": {"operationId": "createService"}},
		"/edge/asset": {"get": {"operationId": "listAssets"}}
	}}`))
	if err != nil {
		t.Fatal(err)
	}
	saved, savedCases := contract, unbuilt
	contract = idx
	// Cases of the kind a version that does not build something lists.
	unbuilt = []unbuiltCase{
		{operationID: "createService", field: "type", value: "notification"},
		{operationID: "createService", field: "type", value: "dispatcher"},
	}
	t.Cleanup(func() { contract, unbuilt = saved, savedCases })
	tests := []struct {
		name   string
		method string
		target string
		body   string
		want   bool
	}{
		{name: "built package operation", method: http.MethodPost, target: "/edge/repository", body: `{"url":"http://x"}`},
		{name: "built operation", method: http.MethodGet, target: "/edge/asset"},
		{name: "south service", method: http.MethodPost, target: "/edge/service", body: `{"name":"s","type":"south","plugin":"sinusoid","enabled":true}`},
		{name: "north service", method: http.MethodPost, target: "/edge/service", body: `{"name":"n","type":"North","plugin":"http_north","enabled":true}`},
		{name: "notification service", method: http.MethodPost, target: "/edge/service", body: `{"name":"n","type":"Notification","enabled":true}`, want: true},
		{name: "dispatcher service", method: http.MethodPost, target: "/edge/service", body: `{"name":"d","type":"DISPATCHER","enabled":true}`, want: true},
		{name: "install", method: http.MethodPost, target: "/edge/service?action=install", body: `{"format":"repository","name":"p"}`},
		{name: "service type not a string", method: http.MethodPost, target: "/edge/service", body: `{"type":5}`},
		{name: "body not JSON", method: http.MethodPost, target: "/edge/service", body: `{"type":`},
		{name: "listing services", method: http.MethodGet, target: "/edge/service?action=install"},
		{name: "unknown path", method: http.MethodGet, target: "/edge/nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, "http://gateway"+tt.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := isUnbuilt(req, []byte(tt.body)); got != tt.want {
				t.Errorf("isUnbuilt(%s %s %s) = %v, want %v", tt.method, tt.target, tt.body, got, tt.want)
			}
		})
	}
}
