package main

import (
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// gateway is the Host the test serves to the process: it records calls.
type gateway struct {
	mu    sync.Mutex
	calls []string
}

func (g *gateway) Call(_ context.Context, method string, body []byte) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, method+" "+string(body))
	return []byte("{}"), nil
}

func (g *gateway) methods() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for _, c := range g.calls {
		m, _, _ := strings.Cut(c, " ")
		out = append(out, m)
	}
	return out
}

// TestProcess builds the executable, runs it as the gateway does and
// drives it through the method table.
func TestProcess(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "edged-notification")
	if out, err := exec.Command("go", "build", "-tags", "servicekind", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	p, err := edgeplugin.Launch(ctx, bin, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	if p.Info.Kind != edgeplugin.KindNotification || p.Info.Name != "notification" {
		t.Fatalf("info %+v", p.Info)
	}
	gw := &gateway{}
	if err := p.StartService(ctx, edgeplugin.Start{Service: "notify"}, gw); err != nil {
		t.Fatal(err)
	}
	calls := []struct {
		name, method, body string
		want               string
		code               edgeplugin.Code
	}{
		{name: "plugins", method: "plugins", want: `"delivery":[{"name":"asset"`},
		{name: "invalid instance", method: "validate", body: `{"name":"x","type":"toggled","rule":"magic"}`, code: edgeplugin.CodeInvalid},
		{name: "bad body", method: "readings", body: `{`, code: edgeplugin.CodeInvalid},
		{name: "unknown method", method: "reboot", code: edgeplugin.CodeUnsupported},
		{name: "instances", method: "instances", want: "{}", body: `[{"name":"hot","rule":"threshold","type":"toggled","enabled":true,` +
			`"ruleConfig":{"asset":"boiler","datapoint":"temp","value":"80"},"channels":[{"name":"a","plugin":"asset","config":{"asset":"alerts"}}]}]`},
		{name: "readings", method: "readings", want: "{}", body: `[{"asset":"boiler","timestamp":"2026-11-26T10:00:00.5Z","readings":{"temp":99}}]`},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			got, err := p.Call(ctx, c.method, []byte(c.body))
			if edgeplugin.CodeOf(err) != c.code || c.code == 0 && !strings.Contains(string(got), c.want) {
				t.Fatalf("Call = %s, %v (code %v); want %s, code %v", got, err, edgeplugin.CodeOf(err), c.want, c.code)
			}
		})
	}
	// The reading of 99 triggered hot: the asset delivery ingests, then the
	// send is audited.
	deadline := time.Now().Add(30 * time.Second)
	for strings.Join(gw.methods(), ",") != "ingest,audit" {
		if time.Now().After(deadline) {
			t.Fatalf("the gateway was called for %q, want ingest and audit", gw.methods())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
