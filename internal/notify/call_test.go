package notify

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingCaller is the gateway's side of CallHost: it records calls.
type recordingCaller struct {
	mu    sync.Mutex
	calls []string // method body
}

func (r *recordingCaller) call(_ context.Context, method string, body []byte) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, method+" "+string(body))
	return []byte("{}"), nil
}

func TestCall(t *testing.T) {
	gw := &recordingCaller{}
	e := New(Options{Host: CallHost(gw.call)})
	defer e.Close()
	hot := `{"name":"hot","rule":"threshold","ruleConfig":{"asset":"boiler","datapoint":"temp","value":"80"},` +
		`"channels":[{"name":"alerts","plugin":"asset","config":{"asset":"alerts"}}],"type":"retriggered","retriggerTime":1.5,"enabled":true}`
	tests := []struct {
		name, method, body string
		want               string // the answer, or with wantErr a part of the error
		wantErr            string // "invalid", "unknown" or ""
	}{
		{name: "plugins", method: MethodPlugins, want: `"rules":[{"name":"data_availability"`},
		{name: "validate a valid instance", method: MethodValidate, body: hot, want: "{}"},
		{name: "validate an invalid instance", method: MethodValidate, body: `{"name":"x","rule":"magic","type":"toggled"}`, wantErr: "invalid", want: `no rule plugin "magic"`},
		{name: "validate a bad body", method: MethodValidate, body: `[1]`, wantErr: "invalid", want: "request body"},
		{name: "validate a negative retrigger time", method: MethodValidate, body: `{"retriggerTime":-1}`, wantErr: "invalid", want: "retriggerTime"},
		{name: "an invalid set", method: MethodInstances, body: `[` + hot + `,` + hot + `]`, wantErr: "invalid", want: "given twice"},
		{name: "instances", method: MethodInstances, body: `[` + hot + `]`, want: "{}"},
		{name: "readings", method: MethodReadings, body: `[{"asset":"boiler","timestamp":"2026-11-26T10:00:00.123456789Z","readings":{"temp":81,"x":"y"}}]`, want: "{}"},
		{name: "readings not a list", method: MethodReadings, body: `{}`, wantErr: "invalid", want: "request body"},
		{name: "audit", method: MethodAudit, body: `{"code":"SRVFL","timestamp":"2026-11-26T10:00:00Z"}`, want: "{}"},
		{name: "audit without code", method: MethodAudit, body: `{}`, wantErr: "invalid", want: "no code"},
		{name: "statistics", method: MethodStatistics, body: `{"timestamp":"2026-11-26T10:00:00Z","counters":{"READINGS":5}}`, want: "{}"},
		{name: "statistics without time", method: MethodStatistics, body: `{"counters":{}}`, wantErr: "invalid", want: "no timestamp"},
		{name: "unknown method", method: "reboot", wantErr: "unknown", want: `"reboot"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Call(t.Context(), tt.method, []byte(tt.body))
			var inv *InvalidError
			switch tt.wantErr {
			case "":
				if err != nil || !strings.Contains(string(got), tt.want) {
					t.Fatalf("Call = %s, %v; want %s", got, err, tt.want)
				}
				if !json.Valid(got) {
					t.Fatalf("answer %q is not JSON", got)
				}
			case "invalid":
				if !errors.As(err, &inv) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Call error %v, want an InvalidError with %q", err, tt.want)
				}
			case "unknown":
				if !errors.Is(err, ErrUnknownMethod) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("Call error %v, want ErrUnknownMethod", err)
				}
			}
		})
	}
	// The reading of 81 triggered hot: the gateway was called to ingest its
	// reading and to audit the send.
	drain(t, e)
	gw.mu.Lock()
	defer gw.mu.Unlock()
	if len(gw.calls) != 2 {
		t.Fatalf("calls of the gateway %q, want ingest and audit", gw.calls)
	}
	var ingest []struct {
		Asset     string         `json:"asset"`
		Timestamp time.Time      `json:"timestamp"`
		Readings  map[string]any `json:"readings"`
	}
	method, body, _ := strings.Cut(gw.calls[0], " ")
	if err := json.Unmarshal([]byte(body), &ingest); method != HostIngest || err != nil || len(ingest) != 1 ||
		ingest[0].Asset != "alerts" || ingest[0].Readings["state"] != "triggered" || ingest[0].Timestamp.IsZero() {
		t.Errorf("first call %q (%v)", gw.calls[0], err)
	}
	var audit struct {
		Source, Severity string
		Details          map[string]any
	}
	method, body, _ = strings.Cut(gw.calls[1], " ")
	if err := json.Unmarshal([]byte(body), &audit); method != HostAudit || err != nil || audit.Source != AuditSent ||
		audit.Severity != SeverityInformation || audit.Details["channel"] != "alerts" || audit.Details["name"] != "hot" {
		t.Errorf("second call %q (%v)", gw.calls[1], err)
	}
}

func TestCallHostDispatch(t *testing.T) {
	gw := &recordingCaller{}
	if err := CallHost(gw.call).Dispatch(t.Context(), Write{Destination: "service", Name: "plc", Values: map[string]any{"valve": "shut"}}); err != nil {
		t.Fatal(err)
	}
	if want := `dispatch {"destination":"service","name":"plc","values":{"valve":"shut"}}`; len(gw.calls) != 1 || gw.calls[0] != want {
		t.Errorf("calls %q, want %q", gw.calls, want)
	}
	failing := CallHost(func(context.Context, string, []byte) ([]byte, error) { return nil, errors.New("down") })
	if err := failing.Audit(t.Context(), AuditSent, SeverityInformation, map[string]any{}); err == nil || !strings.Contains(err.Error(), "down") {
		t.Errorf("Audit = %v, want the gateway's error", err)
	}
}

func TestInstanceJSON(t *testing.T) {
	in := Instance{Name: "n", Rule: RuleThreshold, RuleConfig: map[string]string{"a": "b"}, Type: TypeRetriggered,
		Enabled: true, RetriggerTime: 2500 * time.Millisecond, Channels: []Channel{alertChannel}}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"retriggerTime":2.5`) {
		t.Errorf("JSON %s lacks the retrigger time in seconds", b)
	}
	var back Instance
	if err := json.Unmarshal(b, &back); err != nil || back.RetriggerTime != in.RetriggerTime || back.Channels[0].Config["asset"] != "alerts" {
		t.Errorf("round trip: %+v, %v", back, err)
	}
}
