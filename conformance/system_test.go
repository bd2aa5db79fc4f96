package conformance

import (
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"testing"

	edgeclient "github.com/edged/edged/clients/go"
)

// TestPingFields checks that ping answers every required field of the Ping
// schema with its JSON type, and sensible values.
func TestPingFields(t *testing.T) {
	resp, err := api(t).PingWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)

	var raw map[string]any
	if err := json.Unmarshal(resp.Body, &raw); err != nil {
		t.Fatalf("ping body is not a JSON object: %v; body: %s", err, truncate(resp.Body))
	}
	isBool := func(v any) bool { _, ok := v.(bool); return ok }
	isString := func(v any) bool { _, ok := v.(string); return ok }
	isNumber := func(v any) bool { f, ok := v.(float64); return ok && f >= 0 }
	isCount := func(v any) bool { f, ok := v.(float64); return ok && f >= 0 && f == math.Trunc(f) }
	isStrings := func(v any) bool {
		a, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range a {
			if !isString(e) {
				return false
			}
		}
		return true
	}
	fields := []struct {
		name  string
		want  string
		valid func(any) bool
	}{
		{name: "uptime", want: "number ≥ 0", valid: isNumber},
		{name: "dataRead", want: "integer ≥ 0", valid: isCount},
		{name: "dataSent", want: "integer ≥ 0", valid: isCount},
		{name: "dataPurged", want: "integer ≥ 0", valid: isCount},
		{name: "authenticationOptional", want: "boolean", valid: isBool},
		{name: "serviceName", want: "string", valid: isString},
		{name: "hostName", want: "string", valid: isString},
		{name: "ipAddresses", want: "array of strings", valid: isStrings},
		{name: "health", want: "green, amber or red", valid: func(v any) bool { return slices.Contains([]any{"green", "amber", "red"}, v) }},
		{name: "safeMode", want: "boolean", valid: isBool},
		{name: "version", want: "non-empty string", valid: func(v any) bool { s, ok := v.(string); return ok && s != "" }},
	}
	for _, f := range fields {
		t.Run(f.name, func(t *testing.T) {
			v, ok := raw[f.name]
			if !ok {
				t.Fatalf("ping has no field %q; body: %s", f.name, resp.Body)
			}
			if !f.valid(v) {
				t.Errorf("ping %s = %s, want %s", f.name, jsonString(v), f.want)
			}
		})
	}

	p := resp.JSON200
	if p == nil {
		t.Fatalf("ping: SDK did not decode the body: %s", resp.Body)
	}
	if p.Uptime <= 0 {
		t.Errorf("uptime = %v, want > 0", p.Uptime)
	}
	if ownGateway {
		// A gateway the suite started is in its default state.
		if p.Health != edgeclient.Green {
			t.Errorf("health = %q, want green", p.Health)
		}
		if p.SafeMode {
			t.Errorf("safeMode = true, want false (not started with --safe-mode)")
		}
	}
	auth := getItem(t, "rest_api", "authentication")
	if want := auth.Value == "optional"; p.AuthenticationOptional != want {
		t.Errorf("authenticationOptional = %v, but rest_api.authentication is %q", p.AuthenticationOptional, auth.Value)
	}
	name := getItem(t, "service", "name")
	if p.ServiceName != name.Value {
		t.Errorf("serviceName = %q, but service.name is %q", p.ServiceName, name.Value)
	}
}

// TestPingServiceName checks that ping's serviceName follows the config item
// service/name through a change and a reset.
func TestPingServiceName(t *testing.T) {
	orig := getItem(t, "service", "name")
	if ownGateway && orig.Value != "Edge Gateway" {
		t.Errorf("service.name = %q on a fresh gateway, want the default %q", orig.Value, "Edge Gateway")
	}
	t.Cleanup(func() {
		// Put back whatever was there, so that a gateway shared with other
		// users is left as found.
		restoreItem(t, "service", "name", orig.Value)
	})

	ping := func() string {
		t.Helper()
		resp, err := api(t).PingWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "ping", resp.StatusCode(), resp.Body, http.StatusOK)
		return resp.JSON200.ServiceName
	}

	name := unique("conf-gateway")
	if got := setItem(t, "service", "name", name); got.Value != name {
		t.Errorf("setCategoryItem service/name answered value %q, want %q", got.Value, name)
	}
	if got := ping(); got != name {
		t.Errorf("after setting service/name to %q, ping serviceName = %q", name, got)
	}

	reset := resetItem(t, "service", "name")
	want := ""
	if reset.Default != nil {
		want = *reset.Default
	}
	if ownGateway && want != "Edge Gateway" {
		t.Errorf("service/name default = %q, want %q", want, "Edge Gateway")
	}
	if reset.Value != want {
		t.Errorf("after reset service/name = %q, want its default %q", reset.Value, want)
	}
	if got := ping(); got != want {
		t.Errorf("after resetting service/name, ping serviceName = %q, want %q", got, want)
	}
}
