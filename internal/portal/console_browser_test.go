package portal_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/portal"
)

// consoleOutputDir is where the console's browser test leaves its
// screenshots: EDGE_TEST_OUTPUT/console, by default test-output/console.
func consoleOutputDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(filepath.Dir(outputDir(t)), "console")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page drives one tab of the browser.
type page struct {
	t   *testing.T
	ctx context.Context
	b   *browser
	s   string
}

// eval runs expr in the page and decodes its value into out (nil: ignored).
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	if err := p.b.evaluate(p.ctx, p.s, expr, out); err != nil {
		p.t.Fatalf("%v\nin: %s", err, expr)
	}
}

// waitFor waits in the page until the JavaScript expression cond is
// truthy, re-checking at every DOM change and animation frame, and fails
// with what after the test's deadline.
func (p *page) waitFor(what, cond string) {
	p.t.Helper()
	script := `new Promise((resolve) => {
  const check = () => { try { return !!(` + cond + `); } catch { return false; } };
  if (check()) return resolve(true);
  const obs = new MutationObserver(() => { if (check()) { obs.disconnect(); resolve(true); } });
  obs.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  const tick = () => { if (check()) { obs.disconnect(); resolve(true); } else requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
})`
	if err := p.b.evaluate(p.ctx, p.s, script, nil); err != nil {
		p.t.Fatalf("waiting for %s: %v", what, err)
	}
}

// set types value into the control matched by selector, as a user would
// (the input and change events fire).
func (p *page) set(selector, value string) {
	p.t.Helper()
	sel, _ := json.Marshal(selector)
	val, _ := json.Marshal(value)
	p.eval(`(() => { const el = document.querySelector(`+string(sel)+`); if (!el) throw new Error("no "+`+string(sel)+`);
  el.focus(); el.value = `+string(val)+`; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})); })()`, nil)
}

// click clicks the element matched by selector.
func (p *page) click(selector string) {
	p.t.Helper()
	sel, _ := json.Marshal(selector)
	p.eval(`(() => { const el = document.querySelector(`+string(sel)+`); if (!el) throw new Error("no "+`+string(sel)+`); el.click(); })()`, nil)
}

// TestConsoleInBrowser uses the console as an operator would, in headless
// Chromium: log in, see the dashboard, create a sinusoid south service, see
// its asset appear and its plot draw points, change a configuration item
// and find its audit entry, see an item's validation error, log out. It
// saves screenshots in test-output/console (docs/console holds copies).
func TestConsoleInBrowser(t *testing.T) {
	if os.Getenv("EDGE_BROWSER_TEST") == "" {
		t.Skip("browser test: set EDGE_BROWSER_TEST=1 (make test-portal) to run it")
	}
	bin, ok := findBrowser()
	if !ok {
		t.Skipf("browser test: no Chromium binary found (looked for %s on PATH and EDGE_CHROMIUM)", strings.Join(browserCandidates, ", "))
	}
	gw := startGateway(t)
	out := consoleOutputDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	p, b := openConsole(ctx, t, bin, gw)

	// Create a sinusoid south service from the services page.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("the service form", `document.querySelector('form[aria-label="Create a service"]')`)
	p.set("input[name=name]", "Sine browser")
	p.set("select[name=type]", "south")
	p.waitFor("the catalogue's sinusoid", `document.querySelector('select[name=plugin] option[value=sinusoid]')`)
	p.set("select[name=plugin]", "sinusoid")
	p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
	p.waitFor("the new service's configuration", `location.hash === '#/config/Sine%20browser' && document.querySelector('[data-item=bufferThreshold]')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "service-form.png"))

	// Change a configuration item; then a value the item refuses shows
	// the gateway's message beside it.
	p.set("[data-item=bufferThreshold]", "50")
	p.click(`button[aria-label="Save Buffer threshold"], .item:has([data-item=bufferThreshold]) button`)
	p.waitFor("the saved item", `document.getElementById('status').textContent.includes('bufferThreshold is now 50')`)

	// Its asset appears, and its plot draws points.
	p.eval(`location.hash = '#/assets'`, nil)
	p.waitFor("the sinusoid asset", `document.querySelector('a[href^="#/asset/"]')`)
	var asset string
	p.eval(`document.querySelector('a[href^="#/asset/"]').textContent`, &asset)
	p.click(`a[href^="#/asset/"]`)
	p.waitFor("the plot with points", `(() => { const box = document.querySelector('.plot'); return box && box.querySelector('canvas') && Number(box.dataset.points) >= 2; })()`)
	var first int
	p.eval(`Number(document.querySelector('.plot').dataset.points)`, &first)
	// The time axis is the chosen window (10 minutes), however few the
	// readings: not the seconds (or, for one reading, years) around them.
	p.waitFor("the plot's time axis", `document.querySelector('.plot').dataset.span`)
	var span int
	p.eval(`Number(document.querySelector('.plot').dataset.span)`, &span)
	if span < 590 || span > 700 {
		t.Errorf("the plot's time axis spans %d s for the 10-minute window and %d points; want about 600", span, first)
	}
	p.waitFor("the plot to move", `Number(document.querySelector('.plot').dataset.points) > `+itoa(first))
	p.waitFor("the readings table", `document.querySelector('caption') && document.querySelector('caption').textContent.startsWith('Readings 1')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "asset-plot.png"))

	// The change is in the audit log, found with the source filter.
	p.eval(`location.hash = '#/audit'`, nil)
	p.waitFor("the audit page", `document.querySelector('input[name=source]')`)
	p.set("input[name=source]", "CONCH")
	p.waitFor("the configuration change's entry", `[...document.querySelectorAll('td')].some(td => td.textContent.includes('bufferThreshold'))`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "audit.png"))

	// The dashboard lists the new service, running.
	p.eval(`location.hash = '#/dashboard'`, nil)
	p.waitFor("the running service on the dashboard", `[...document.querySelectorAll('section[aria-label=Services] tr')].some(tr => tr.textContent.includes('Sine browser') && tr.textContent.includes('running'))`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "dashboard.png"))

	// At a tablet's width every page still works.
	if err := b.call(ctx, p.s, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": 768, "height": 1024, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	p.eval(`location.hash = '#/dashboard'`, nil)
	p.waitFor("the dashboard at tablet width", `document.querySelector('section[aria-label=Services] table')`)
	var overflow bool
	p.eval(`document.documentElement.scrollWidth > window.innerWidth`, &overflow)
	if overflow {
		t.Error("the dashboard scrolls sideways at 768 px")
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "dashboard-tablet.png"))

	// Nothing left the gateway, the CSP blocked nothing, no error so far.
	checkNoForeignRequests(t, b, gw.URL)

	// A value the item refuses shows the gateway's message beside it.
	p.eval(`location.hash = '#/config/Sine%20browser'`, nil)
	p.waitFor("the configuration form", `document.querySelector('[data-item=bufferThreshold]')`)
	p.set("[data-item=bufferThreshold]", "-5")
	p.click(`.item:has([data-item=bufferThreshold]) button`)
	p.waitFor("the validation error", `document.getElementById('err-bufferThreshold').textContent.includes('HTTP 400')`)
	var msg string
	p.eval(`document.getElementById('err-bufferThreshold').textContent`, &msg)
	t.Logf("validation error shown: %s", msg)

	if err := b.call(ctx, p.s, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	// The connectivity plugins' services, created from the form
	// (disabled: nothing to connect to), each open on a configuration
	// form with one labelled input per item of its category, rendered
	// from the items' types.
	for _, tc := range []struct{ name, typ, plugin string }{
		{"Modbus browser", "south", "modbus"},
		{"OPC UA browser", "south", "opcua"},
		{"MQTT in browser", "south", "mqtt_south"},
		{"MQTT out browser", "north", "mqtt_north"},
		{"NATS out browser", "north", "nats_north"},
	} {
		p.eval(`location.hash = '#/services'`, nil)
		p.waitFor("the service form", `document.querySelector('form[aria-label="Create a service"]')`)
		p.set("input[name=name]", tc.name)
		p.set("select[name=type]", tc.typ)
		plug, _ := json.Marshal(tc.plugin)
		p.waitFor(tc.plugin+" in the catalogue", `document.querySelector('select[name=plugin] option[value='+`+string(plug)+`+']')`)
		p.set("select[name=plugin]", tc.plugin)
		p.eval(`document.getElementById('svc-enabled').checked = false`, nil)
		p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
		name, _ := json.Marshal(tc.name)
		p.waitFor(tc.plugin+"'s configuration form", `location.hash === '#/config/' + encodeURIComponent(`+string(name)+`) && document.querySelector('[data-item=plugin]')`)
		var check struct {
			Items      int      `json:"items"`
			Inputs     int      `json:"inputs"`
			Unlabelled []string `json:"unlabelled"`
			Types      []string `json:"types"`
		}
		p.eval(`(async () => {
  const res = await fetch('/edge/category/' + encodeURIComponent(`+string(name)+`), { headers: { authorization: sessionStorage.getItem('edged.console.token') } });
  const cat = await res.json();
  const inputs = [...document.querySelectorAll('[data-item]')];
  return { items: Object.keys(cat).length, inputs: inputs.length,
    unlabelled: inputs.filter((i) => !document.querySelector('label[for="' + i.id + '"]')).map((i) => i.name),
    types: [...new Set(Object.values(cat).map((i) => i.type))].sort() };
})()`, &check)
		if check.Items == 0 || check.Inputs != check.Items {
			t.Errorf("%s: %d inputs for the %d items of its category", tc.plugin, check.Inputs, check.Items)
		}
		if len(check.Unlabelled) > 0 {
			t.Errorf("%s: inputs without a label: %v", tc.plugin, check.Unlabelled)
		}
		t.Logf("%s: %d items rendered, of types %v", tc.plugin, check.Items, check.Types)
		if tc.plugin == "opcua" {
			screenshot(ctx, t, b, p.s, filepath.Join(out, "service-form-opcua.png"))
		}
	}

	// Log out: the login form is back and the token no longer works.
	p.click(`nav button`)
	p.waitFor("the login form after logout", `document.querySelector('form.login')`)
	t.Logf("asset %q plotted (%d points first); screenshots in %s", asset, first, out)
}

// openConsole starts headless Chromium at 1280×800 with every host but the
// gateway's resolving to nothing, opens the console and logs in as admin;
// it returns the tab, on the dashboard.
func openConsole(ctx context.Context, t *testing.T, bin string, gw *gateway) (*page, *browser) {
	t.Helper()
	b := launchBrowser(t, bin, "--window-size=1280,800", "--hide-scrollbars",
		"--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1")
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call(ctx, "", "Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		t.Fatal(err)
	}
	var attached struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call(ctx, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached); err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ctx: ctx, b: b, s: attached.SessionID}
	for _, domain := range []string{"Page", "Runtime", "Log", "Network"} {
		if err := b.call(ctx, p.s, domain+".enable", map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.call(ctx, p.s, "Emulation.setDeviceMetricsOverride",
		map[string]any{"width": 1280, "height": 800, "deviceScaleFactor": 1, "mobile": false}, nil); err != nil {
		t.Fatal(err)
	}
	mark := b.eventCount()
	if err := b.call(ctx, p.s, "Page.navigate", map[string]any{"url": gw.URL + portal.ConsolePath}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.waitEvent(ctx, p.s, "Page.loadEventFired", mark); err != nil {
		t.Fatal(err)
	}

	// Log in: the console asks before showing anything.
	p.waitFor("the login form", `document.querySelector('form.login input[name=username]')`)
	p.set("input[name=username]", "admin")
	p.set("input[name=password]", "Portal-Test-Passw0rd")
	p.eval(`document.querySelector('form.login').requestSubmit()`, nil)
	p.waitFor("the dashboard", `document.querySelector('.health') && document.querySelector('section[aria-label=Services] table')`)
	p.waitFor("the rates", `document.querySelector('section[aria-label=Rates] table')`)
	return p, b
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
