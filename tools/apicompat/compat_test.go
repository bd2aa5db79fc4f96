package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/load"
)

// contractPath is the gateway's contract, which each case changes as a
// release might.
const contractPath = "../../openapi.yaml"

func loadContract(t *testing.T) *load.SpecInfo {
	t.Helper()
	data, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := loadSpec(data, "openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// schema returns a component schema of the contract, failing the test when
// the contract no longer has it.
func schema(t *testing.T, s *openapi3.T, name string) *openapi3.Schema {
	t.Helper()
	ref, ok := s.Components.Schemas[name]
	if !ok || ref.Value == nil {
		t.Fatalf("the contract has no schema %s", name)
	}
	return ref.Value
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, s *openapi3.T)
		// breaks is a check id the result must list; empty: no break.
		breaks string
		ok     bool
	}{
		{name: "the contract against itself", change: func(*testing.T, *openapi3.T) {}, ok: true},
		{
			name: "an operation removed",
			change: func(t *testing.T, s *openapi3.T) {
				if s.Paths.Find("/edge/ping") == nil {
					t.Fatal("the contract has no /edge/ping")
				}
				s.Paths.Delete("/edge/ping")
			},
			breaks: "api-path-removed-without-deprecation",
		},
		{
			name: "a required response property removed",
			change: func(t *testing.T, s *openapi3.T) {
				ping := schema(t, s, "Ping")
				delete(ping.Properties, "uptime")
				ping.Required = removeString(ping.Required, "uptime")
			},
			breaks: "response-required-property-removed",
		},
		{
			name: "an optional response property removed",
			change: func(t *testing.T, s *openapi3.T) {
				record := schema(t, s, "ServiceRecord")
				if _, ok := record.Properties["reason"]; !ok {
					t.Fatal("ServiceRecord has no reason")
				}
				delete(record.Properties, "reason")
			},
			breaks: "response-optional-property-removed",
		},
		{
			name: "a minor version does not announce a break",
			change: func(t *testing.T, s *openapi3.T) {
				s.Info.Version = "2.1.0"
				s.Paths.Delete("/edge/ping")
			},
			breaks: "api-path-removed-without-deprecation",
		},
		{
			name: "a major version announces a break",
			change: func(t *testing.T, s *openapi3.T) {
				s.Info.Version = "3.0.0"
				s.Paths.Delete("/edge/ping")
			},
			breaks: "api-path-removed-without-deprecation",
			ok:     true,
		},
		{
			name: "an optional response property added",
			change: func(t *testing.T, s *openapi3.T) {
				ping := schema(t, s, "Ping")
				ping.Properties["zone"] = openapi3.NewSchemaRef("", openapi3.NewStringSchema())
			},
			ok: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, rev := loadContract(t), loadContract(t)
			tt.change(t, rev.Spec)
			rev.Version = rev.Spec.Info.Version
			r, err := compareSpecs(base, rev)
			if err != nil {
				t.Fatal(err)
			}
			if r.OK() != tt.ok {
				t.Errorf("OK() = %v, want %v; breaks: %q", r.OK(), tt.ok, r.Breaks)
			}
			if tt.breaks == "" && len(r.Breaks) != 0 {
				t.Errorf("breaks %q, want none", r.Breaks)
			}
			if tt.breaks != "" && !containsID(r.Breaks, tt.breaks) {
				t.Errorf("breaks %q, want one %s", r.Breaks, tt.breaks)
			}
		})
	}
}

// TestRun checks the command as make test runs it, on files: today's
// contract passes against itself, and a contract with a property taken out
// of a response fails with exit status 1, naming the break.
func TestRun(t *testing.T) {
	data, err := os.ReadFile(contractPath)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := run(&out, contractPath, contractPath); code != 0 {
		t.Fatalf("the contract against itself: exit %d\n%s", code, out.String())
	}
	// The Ping schema's uptime property, removed from the text.
	text := string(data)
	const prop = "        uptime:\n          type: number\n          minimum: 0\n          description: Seconds since the gateway started (or last restarted).\n          example: 3605.2\n"
	if !strings.Contains(text, prop) {
		t.Fatal("the contract's Ping.uptime is not written as this test expects")
	}
	broken := strings.Replace(text, prop, "", 1)
	broken = strings.Replace(broken, "required: [uptime, ", "required: [", 1)
	path := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(path, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if code := run(&out, contractPath, path); code != 1 {
		t.Fatalf("a removed property: exit %d, want 1\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), "uptime") {
		t.Errorf("the report does not name the removed property:\n%s", out.String())
	}
	out.Reset()
	if code := run(&out, filepath.Join(t.TempDir(), "missing.yaml"), contractPath); code != 2 {
		t.Errorf("a missing released contract: exit %d, want 2", code)
	}
}

func TestMajor(t *testing.T) {
	tests := []struct {
		in   string
		want int
		err  bool
	}{
		{"2.0.0", 2, false},
		{"v10.1.2", 10, false},
		{"2.0.0-rc.1", 2, false},
		{"2.0", 0, true},
		{"two.0.0", 0, true},
		{"", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := major(tt.in)
			if (err != nil) != tt.err || got != tt.want {
				t.Errorf("major(%q) = %d, %v", tt.in, got, err)
			}
		})
	}
}

func containsID(breaks []string, id string) bool {
	for _, b := range breaks {
		if strings.HasPrefix(b, "["+id+"]") {
			return true
		}
	}
	return false
}

func removeString(list []string, s string) []string {
	var out []string
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	return out
}
