package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/fleetconfig"
)

const fleetAdminPassword = "Fleet-Admin-1x"

// startGateway runs a gateway on SQLite in a temporary folder until the
// test ends and returns its base URL.
func startGateway(t *testing.T) string {
	t.Helper()
	return runGateway(t, app.Config{DataDir: t.TempDir(), Port: freePort(t), AdminPassword: fleetAdminPassword}, slog.LevelInfo)
}

// adminCall calls a gateway as admin and fails the test unless it answers
// 200.
func adminCall(t *testing.T, url, method, path, body string) []byte {
	t.Helper()
	status, b := call(t, http.MethodPost, url+"/edge/login", fmt.Sprintf(`{"username": "admin", "password": %q}`, fleetAdminPassword))
	if status != http.StatusOK {
		t.Fatalf("login: %d %s", status, b)
	}
	var login struct{ Token string }
	if err := json.Unmarshal(b, &login); err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(method, url+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("authorization", login.Token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, out.String())
	}
	return out.Bytes()
}

// buildEdged builds the command into a temporary folder.
func buildEdged(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "edged")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// edged runs the built command with env added and returns its standard
// output, failing the test unless it exits with want.
func edged(t *testing.T, bin string, env []string, want int, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if code != want {
		t.Fatalf("edged %s: exit %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// TestConfigCommandConfiguresAFleet configures a gateway through the API,
// exports it with `edged config export`, applies the file to two fresh
// gateways with one `edged config apply`, and checks that both export the
// same document, plan no change, apply again with no change, and show a
// changed item in their plan.
func TestConfigCommandConfiguresAFleet(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three gateways")
	}
	bin := buildEdged(t)
	src, gw1, gw2 := startGateway(t), startGateway(t), startGateway(t)

	adminCall(t, src, http.MethodPost, "/edge/category", `{"key": "site", "description": "Site settings", "items": {
		"line": {"type": "string", "description": "Line", "default": "1"},
		"apiKey": {"type": "password", "description": "Upstream key", "default": ""}}}`)
	adminCall(t, src, http.MethodPut, "/edge/category/site", `{"line": "7", "apiKey": "k-123"}`)
	adminCall(t, src, http.MethodPut, "/edge/category/PURGE_READ/age", `{"value": "24"}`)
	adminCall(t, src, http.MethodPost, "/edge/filter", `{"name": "double", "plugin": "scale"}`)
	adminCall(t, src, http.MethodPost, "/edge/service", `{"name": "sine", "type": "south", "plugin": "sinusoid", "enabled": false}`)
	adminCall(t, src, http.MethodPut, "/edge/filter/sine/pipeline", `{"pipeline": ["double"]}`)
	adminCall(t, src, http.MethodPost, "/edge/admin/user", `{"username": "operator", "password": "Operator-1x!", "role_id": 3, "real_name": "Op"}`)

	creds := []string{"EDGE_USER=admin", "EDGE_PASSWORD=" + fleetAdminPassword}
	dir := t.TempDir()
	doc := filepath.Join(dir, "fleet.yaml")
	edged(t, bin, creds, 0, "config", "export", "--url", src, "--file", doc)
	text, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), "k-123") || strings.Contains(string(text), "Operator-1x!") {
		t.Fatalf("the export holds a secret:\n%s", text)
	}
	for _, ref := range []string{"EDGE_SECRET_SITE_APIKEY", "EDGE_PASSWORD_OPERATOR"} {
		if !strings.Contains(string(text), ref) {
			t.Fatalf("the export has no reference %s:\n%s", ref, text)
		}
	}
	// The secrets: one from the environment, one from a file the
	// document names relative to itself.
	if err := os.WriteFile(filepath.Join(dir, "operator.pw"), []byte("Operator-2y!\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "fromEnv: EDGE_PASSWORD_OPERATOR", "fromFile: operator.pw", 1)
	if err := os.WriteFile(doc, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	secrets := append(creds, "EDGE_SECRET_SITE_APIKEY=k-123")

	// Without the secret's variable nothing is sent.
	edged(t, bin, creds, 1, "config", "apply", "--url", gw1, "--file", doc)

	out := edged(t, bin, secrets, 0, "config", "apply", "--url", gw1, "--url", gw2, "--file", doc)
	for _, want := range []string{"+ category site", "+ service sine", "+ filter double", "+ user operator", "~ category PURGE_READ items.age: \"72\" → \"24\""} {
		if strings.Count(out, want) != 2 {
			t.Errorf("apply output does not show %q for both gateways:\n%s", want, out)
		}
	}

	want := exportJSON(t, src)
	for _, gw := range []string{gw1, gw2} {
		if got := exportJSON(t, gw); got != want {
			t.Errorf("%s exports\n%s\nwant\n%s", gw, got, want)
		}
		// The operator's password came from the file.
		if status, b := call(t, http.MethodPost, gw+"/edge/login", `{"username": "operator", "password": "Operator-2y!"}`); status != http.StatusOK {
			t.Errorf("%s: operator login: %d %s", gw, status, b)
		}
	}

	out = edged(t, bin, secrets, 0, "config", "plan", "--exit-code", "--url", gw1, "--url", gw2, "--file", doc)
	if strings.Count(out, "no changes") != 2 {
		t.Errorf("plan after apply:\n%s", out)
	}
	audit := func(gw string) string { return string(adminCall(t, gw, http.MethodGet, "/edge/audit?limit=1", "")) }
	before := audit(gw1)
	out = edged(t, bin, secrets, 0, "config", "apply", "--url", gw1, "--file", doc)
	if !strings.Contains(out, "no changes") {
		t.Errorf("second apply:\n%s", out)
	}
	if after := audit(gw1); after != before {
		t.Errorf("the second apply wrote to the audit log: newest entry %s, was %s", after, before)
	}

	// A changed item and a changed secret show in the plan, masked.
	if err := os.WriteFile(doc, []byte(strings.Replace(edited, "line: \"7\"", "line: \"8\"", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	out = edged(t, bin, append(creds, "EDGE_SECRET_SITE_APIKEY=k-456"), 3, "config", "plan", "--exit-code", "--url", gw2, "--file", doc)
	for _, want := range []string{`~ category site items.apiKey: "****" → "****"`, `~ category site items.line: "7" → "8"`, "0 would be created, 2 changed, 0 removed"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan of the changed document does not show %q:\n%s", want, out)
		}
	}
}

// exportJSON returns a gateway's export, indented.
func exportJSON(t *testing.T, url string) string {
	t.Helper()
	var d fleetconfig.Document
	if err := json.Unmarshal(adminCall(t, url, http.MethodGet, "/edge/config/export", ""), &d); err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestConfigCommandUsage(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want int
	}{
		{name: "no verb", args: nil, want: 2},
		{name: "unknown verb", args: []string{"sync"}, want: 2},
		{name: "no url", args: []string{"export"}, want: 2},
		{name: "plan without file", args: []string{"plan", "--url", "http://127.0.0.1:1"}, want: 2},
		{name: "export to two gateways", args: []string{"export", "--url", "http://a:1", "--url", "http://b:1"}, want: 2},
		{name: "bad format", args: []string{"export", "--url", "http://a:1", "--format", "xml"}, want: 2},
		{name: "missing document", args: []string{"plan", "--url", "http://a:1", "--file", "/nonexistent.yaml"}, want: 1},
		{name: "help", args: []string{"plan", "-h"}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("EDGE_URL", "")
			var out, errOut bytes.Buffer
			if got := runConfig(context.Background(), tc.args, &out, &errOut); got != tc.want {
				t.Fatalf("exit %d, want %d; stderr %s", got, tc.want, errOut.String())
			}
		})
	}
}

func TestResolveSecrets(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "key"), []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"KEY": "from-env"}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	ref := func(r fleetconfig.SecretRef) fleetconfig.Value { return fleetconfig.Value{Ref: &r} }
	pw := ref(fleetconfig.SecretRef{FromFile: "key"})
	doc := fleetconfig.Document{
		Categories: []fleetconfig.Category{{Name: "c", Items: fleetconfig.Values{"a": ref(fleetconfig.SecretRef{FromEnv: "KEY"}), "b": fleetconfig.Plain("x")}}},
		Users:      []fleetconfig.User{{Name: "u", Password: &pw}},
	}
	if err := resolveSecrets(&doc, dir, lookup); err != nil {
		t.Fatal(err)
	}
	if got := doc.Categories[0].Items["a"]; got.Ref != nil || got.Text != "from-env" {
		t.Errorf("env reference resolved to %+v", got)
	}
	if got := *doc.Users[0].Password; got.Ref != nil || got.Text != "from-file" {
		t.Errorf("file reference resolved to %+v", got)
	}
	missing := fleetconfig.Document{Services: []fleetconfig.Service{{Name: "s", Config: fleetconfig.Values{"k": ref(fleetconfig.SecretRef{FromEnv: "NOPE"})}}}}
	if err := resolveSecrets(&missing, dir, lookup); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("missing variable: %v", err)
	}
}
