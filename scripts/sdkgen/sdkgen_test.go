package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// testSpec is a small contract with what the generators care about: a
// schema with x-sdk-schema, timestamps in a paged list, a oneOf body, an
// enum path parameter and a required query parameter.
const testSpec = `
openapi: 3.0.3
info: {title: t, version: "1", description: "The API."}
security: [{tokenAuth: []}]
paths:
  /edge/audit:
    get:
      operationId: listAuditEntries
      tags: [Audit]
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: '#/components/schemas/AuditList'}
  /edge/service:
    post:
      operationId: createService
      tags: [Services]
      requestBody:
        required: true
        content:
          application/json:
            schema: {$ref: '#/components/schemas/ServiceRequest'}
            example: {name: sine, enabled: true, config: {rate: {value: "2"}}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
  /edge/track/{event_name}:
    put:
      operationId: deprecateTrackingEvent
      tags: [Asset tracking]
      parameters:
        - {name: event_name, in: path, required: true, schema: {$ref: '#/components/schemas/EventType'}, example: Ingest}
        - {name: periods, in: query, required: true, schema: {type: string, example: "1,5"}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
  /edge/ping:
    get:
      operationId: ping
      tags: [System]
      security: []
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: object}}}}
components:
  schemas:
    Timestamp: {type: string, format: timestamp}
    AuditEntry:
      type: object
      properties:
        timestamp: {$ref: '#/components/schemas/Timestamp'}
        source: {type: string}
    AuditList:
      type: object
      properties:
        audit: {type: array, items: {$ref: '#/components/schemas/AuditEntry'}}
        byKey: {type: object, additionalProperties: {$ref: '#/components/schemas/AuditEntry'}}
    EventType: {type: string, enum: [Ingest, Egress]}
    ConfigValue:
      type: object
      required: [value]
      properties: {value: {type: string}}
    ServiceCreate:
      type: object
      required: [name, enabled]
      properties:
        name: {type: string}
        enabled:
          description: A boolean or a string.
          oneOf: [{type: boolean}, {type: string, enum: ["true", "false"]}]
          x-sdk-schema: {type: boolean}
        config: {type: object, additionalProperties: {$ref: '#/components/schemas/ConfigValue'}}
    PackageInstall:
      type: object
      required: [format]
      properties: {format: {type: string}}
    ServiceRequest:
      oneOf: [{$ref: '#/components/schemas/ServiceCreate'}, {$ref: '#/components/schemas/PackageInstall'}]
`

func parse(t *testing.T) *yaml.Node {
	t.Helper()
	path := filepath.Join(t.TempDir(), "openapi.yaml")
	if err := os.WriteFile(path, []byte(testSpec), 0o600); err != nil {
		t.Fatal(err)
	}
	doc, err := load(path)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestSDKView(t *testing.T) {
	doc := parse(t)
	sdkView(doc, "date-time")
	enabled := get(get(get(get(get(doc, "components"), "schemas"), "ServiceCreate"), "properties"), "enabled")
	if str(enabled, "type") != "boolean" || get(enabled, "oneOf") != nil || get(enabled, "x-sdk-schema") != nil {
		t.Errorf("enabled is not the x-sdk-schema: %+v", enabled)
	}
	if str(enabled, "description") != "A boolean or a string." {
		t.Errorf("the description was not kept: %q", str(enabled, "description"))
	}
	if f := str(get(get(doc, "components"), "schemas").Content[1], "format"); f != "date-time" {
		t.Errorf("the timestamp format is %q, want date-time", f)
	}
}

func TestTimestampPaths(t *testing.T) {
	doc := parse(t)
	got := timestampPaths(doc, successSchema(doc, get(get(get(doc, "paths"), "/edge/audit"), "get")))
	want := [][]string{{"audit", "*", "timestamp"}, {"byKey", "*", "timestamp"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("timestamp paths %v, want %v", got, want)
	}
	table := string(timestampTable(doc))
	if !strings.Contains(table, `"GET /edge/audit": [["audit", "*", "timestamp"], ["byKey", "*", "timestamp"]],`) {
		t.Errorf("table:\n%s", table)
	}
}

func TestNames(t *testing.T) {
	tests := []struct{ in, goWant, snakeWant string }{
		{in: "listAuditEntries", goWant: "ListAuditEntries", snakeWant: "list_audit_entries"},
		{in: "access_method", goWant: "AccessMethod", snakeWant: "access_method"},
		{in: "Asset tracking", goWant: "AssetTracking", snakeWant: "asset_tracking"},
		{in: "history_ts", goWant: "HistoryTs", snakeWant: "history_ts"},
		{in: "logoutUserSessions", goWant: "LogoutUserSessions", snakeWant: "logout_user_sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := goName(tt.in); got != tt.goWant {
				t.Errorf("goName = %q, want %q", got, tt.goWant)
			}
			if got := snake(tt.in); got != tt.snakeWant {
				t.Errorf("snake = %q, want %q", got, tt.snakeWant)
			}
		})
	}
}

func TestSamples(t *testing.T) {
	doc := parse(t)
	view := cloneNode(doc)
	sdkView(view, "")
	set, err := buildSamples(view)
	if err != nil {
		t.Fatal(err)
	}
	byOp := map[string]sample{}
	for _, s := range set.samples {
		byOp[s.opID] = s
	}
	tests := []struct {
		op, lang string
		want     []string
	}{
		{op: "listAuditEntries", lang: "Go", want: []string{"c.ListAuditEntriesWithResponse(ctx, nil)"}},
		{op: "listAuditEntries", lang: "Python", want: []string{"from edged_client.api.audit import list_audit_entries", "list_audit_entries.sync(client=client)"}},
		{op: "listAuditEntries", lang: "TypeScript", want: []string{`await edge.get("/edge/audit")`}},
		{op: "listAuditEntries", lang: "curl", want: []string{"'http://localhost:8081/edge/audit'", `-H "authorization: $TOKEN"`}},
		{op: "ping", lang: "curl", want: []string{"curl -s \\\n  'http://localhost:8081/edge/ping'"}},
		{op: "createService", lang: "Go", want: []string{
			`edgeclient.Union[edgeclient.ServiceRequest](edgeclient.ServiceCreate{Name: "sine", Enabled: true, Config: &map[string]edgeclient.ConfigValue{"rate": edgeclient.ConfigValue{Value: "2"}}})`,
			"c.CreateServiceWithResponse(ctx, body)",
		}},
		{op: "createService", lang: "Python", want: []string{`body=ServiceCreate.from_dict({"config": {"rate": {"value": "2"}}, "enabled": True, "name": "sine"})`}},
		{op: "createService", lang: "TypeScript", want: []string{`edge.post("/edge/service", { body: { config: { rate: { value: "2" } }, enabled: true, name: "sine" } })`}},
		{op: "createService", lang: "curl", want: []string{`-d '{"config":{"rate":{"value":"2"}},"enabled":true,"name":"sine"}'`}},
		{op: "deprecateTrackingEvent", lang: "Go", want: []string{`c.DeprecateTrackingEventWithResponse(ctx, "Ingest", &edgeclient.DeprecateTrackingEventParams{Periods: "1,5"})`}},
		{op: "deprecateTrackingEvent", lang: "Python", want: []string{"from edged_client.api.asset_tracking import", `event_name=EventType("Ingest")`, `periods="1,5"`}},
		{op: "deprecateTrackingEvent", lang: "TypeScript", want: []string{`params: { path: { event_name: "Ingest" }, query: { periods: "1,5" } }`}},
	}
	for _, tt := range tests {
		t.Run(tt.op+" "+tt.lang, func(t *testing.T) {
			code := byOp[tt.op].code[tt.lang]
			for _, w := range tt.want {
				if !strings.Contains(code, w) {
					t.Errorf("sample lacks %q:\n%s", w, code)
				}
			}
		})
	}

	addCodeSamples(doc, set)
	samples := get(get(get(get(doc, "paths"), "/edge/audit"), "get"), "x-codeSamples")
	if samples == nil || len(samples.Content) != len(sampleLangs) {
		t.Fatalf("x-codeSamples = %+v", samples)
	}
	if !strings.Contains(str(get(doc, "info"), "description"), "## Request samples") {
		t.Error("the introduction does not explain the samples")
	}

	dir := t.TempDir()
	if err := writeCheckSources(dir, set); err != nil {
		t.Fatal(err)
	}
	goSrc, err := os.ReadFile(filepath.Join(dir, "go", "samples.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(goSrc), "func SampleCreateService(ctx context.Context, c *edgeclient.Client) error {") {
		t.Errorf("samples.go:\n%s", goSrc)
	}
}

func TestOffline(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.html")
	page := `<head><meta charset="utf8" /></head><img src="https://cdn.redoc.ly/redoc/logo-mini-full.svg"><img src="https://cdn.redoc.ly/redoc/logo-mini.svg">`
	if err := os.WriteFile(in, []byte(page), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.html")
	if err := offline(in, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "https://") || !strings.Contains(string(got), `<link rel="icon" href="data:,"`) ||
		strings.Count(string(got), "data:image/svg+xml,") != 2 {
		t.Errorf("offline page:\n%s", got)
	}
	// A Redoc build without the logo the rewrite expects is an error, so
	// that a new Redoc's requests cannot slip through unnoticed.
	if err := os.WriteFile(in, []byte(`<meta charset="utf8" />`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := offline(in, out); err == nil {
		t.Error("no error for a page without the logos")
	}
}
