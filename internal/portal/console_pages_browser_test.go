package portal_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestConsoleInBrowserPages does each operations page's main task in
// headless Chromium against a live gateway with its real plugins: a south
// service created from the plugin catalogue's form (an item's refusal shown
// beside it); its filter pipeline built, reordered, disabled and its
// tracking events seen; a north service whose destination refuses readings,
// its set-aside readings sent again and deleted, its warning read in the
// log viewer; a backup taken, listed and downloaded; the configuration
// exported, changed, planned (the diff shown) and applied.
func TestConsoleInBrowserPages(t *testing.T) {
	if os.Getenv("EDGE_BROWSER_TEST") == "" {
		t.Skip("browser test: set EDGE_BROWSER_TEST=1 (make test-portal) to run it")
	}
	bin, ok := findBrowser()
	if !ok {
		t.Skipf("browser test: no Chromium binary found (looked for %s on PATH and EDGE_CHROMIUM)", strings.Join(browserCandidates, ", "))
	}
	// The north destination: refuses every reading (400), so http_north
	// sets them aside.
	var refused atomic.Int64
	dest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refused.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"message":"no thanks"}`))
	}))
	defer dest.Close()
	gw := startGateway(t)
	out := consoleOutputDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	p, b := openConsole(ctx, t, bin, gw)
	p.eval(`window.confirm = () => true`, nil) // the console asks before deleting or restoring

	// A south service from the catalogue's form: every item of the
	// plugin's schema, before the service exists.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("the catalogue's sinusoid form", `document.querySelector('fieldset[data-plugin] [data-item=assetName]') || (document.querySelector('select[name=plugin]') && document.querySelector('select[name=plugin] option[value=sinusoid]'))`)
	p.set("select[name=plugin]", "sinusoid")
	p.waitFor("sinusoid's items", `document.querySelector('fieldset[data-plugin=sinusoid] [data-item=assetName]')`)
	var form struct {
		Items, Inputs int
		PluginRO      bool
		Unlabelled    []string
	}
	p.eval(`(async () => {
  const res = await fetch('/edge/plugin/installed?type=south&config=true', { headers: { authorization: sessionStorage.getItem('edged.console.token') } });
  const cat = (await res.json()).plugins.find((p) => p.name === 'sinusoid').config;
  const inputs = [...document.querySelectorAll('fieldset[data-plugin=sinusoid] [data-item]')];
  return { Items: Object.keys(cat).length, Inputs: inputs.length, PluginRO: document.querySelector('fieldset[data-plugin=sinusoid] [data-item=plugin]').readOnly,
    Unlabelled: inputs.filter((i) => !document.querySelector('label[for="' + i.id + '"]')).map((i) => i.name) };
})()`, &form)
	if form.Items == 0 || form.Inputs != form.Items {
		t.Errorf("the create form has %d inputs for sinusoid's %d catalogue items", form.Inputs, form.Items)
	}
	if !form.PluginRO {
		t.Error("the readonly plugin item is editable in the create form")
	}
	if len(form.Unlabelled) > 0 {
		t.Errorf("create form inputs without a label: %v", form.Unlabelled)
	}
	p.set("input[name=name]", "Sine pages")
	p.set("fieldset[data-plugin=sinusoid] [data-item=assetName]", "sine-pages")
	// The item's limits are the form's: the browser refuses a value below
	// the minimum before anything is sent.
	p.set("fieldset[data-plugin=sinusoid] [data-item=bufferThreshold]", "-5")
	var underflow bool
	p.eval(`document.querySelector('fieldset[data-plugin=sinusoid] [data-item=bufferThreshold]').validity.rangeUnderflow`, &underflow)
	if !underflow {
		t.Error("bufferThreshold -5 passes the form's minimum")
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "service-create.png"))
	p.set("fieldset[data-plugin=sinusoid] [data-item=bufferThreshold]", "10")
	p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
	p.waitFor("the new service's configuration", `document.querySelector('form[aria-label="Items of Sine pages"] [data-item=assetName]')`)
	var assetName string
	p.eval(`document.querySelector('form[aria-label="Items of Sine pages"] [data-item=assetName]').value`, &assetName)
	if assetName != "sine-pages" {
		t.Errorf("the service's assetName is %q, want the form's sine-pages", assetName)
	}
	p.waitFor("the audit link", `document.querySelector('#status a[href="#/audit/SRVRG"]')`)

	// Its pipeline: two scale filters created from the catalogue, the
	// second moved first, the first disabled, then removed; the filter's
	// tracking event appears.
	p.eval(`location.hash = '#/filters/Sine%20pages'`, nil)
	p.waitFor("the pipeline page", `document.querySelector('form[aria-label="Create a filter"] select[name=filter-plugin] option[value=scale]')`)
	// A configuration the filter refuses: the gateway's message beside
	// the item it names.
	p.set("select[name=filter-plugin]", "scale")
	p.waitFor("scale's rules", `document.querySelector('fieldset[data-plugin=scale] [data-item=rules]')`)
	p.set("input[name=filter-name]", "Bad scale")
	p.set("fieldset[data-plugin=scale] [data-item=rules]", `[{"factor": 1},`)
	p.eval(`document.querySelector('form[aria-label="Create a filter"]').requestSubmit()`, nil)
	p.waitFor("the filter's refusal", `document.getElementById('flt-err-rules').textContent.includes('HTTP 400') || document.querySelector('form[aria-label="Create a filter"] p.error').textContent !== '' || document.querySelector('ol.pipeline li[data-filter="Bad scale"]')`)
	var refusal, formErr string
	p.eval(`document.getElementById('flt-err-rules').textContent`, &refusal)
	p.eval(`document.querySelector('form[aria-label="Create a filter"] p.error').textContent`, &formErr)
	if refusal == "" && formErr == "" {
		t.Fatal("the gateway accepted the scale filter's rules that are not JSON")
	}
	if refusal == "" {
		t.Errorf("the filter's refusal is not beside its item rules but under the form: %s", formErr)
	}
	t.Logf("the filter's refusal, beside its item: %s", refusal)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "filter-create-error.png"))
	for _, f := range []string{"Scale one", "Scale two"} {
		fj, _ := json.Marshal(f)
		p.set("select[name=filter-plugin]", "scale")
		p.waitFor("scale's items", `document.querySelector('fieldset[data-plugin=scale] [data-item=enable]')`)
		p.set("input[name=filter-name]", f)
		p.eval(`document.querySelector('form[aria-label="Create a filter"]').requestSubmit()`, nil)
		p.waitFor(f+" in the pipeline", `document.querySelector('ol.pipeline li[data-filter='+JSON.stringify(`+string(fj)+`)+']')`)
	}
	p.click(`button[aria-label="Move Scale two up"]`)
	p.waitFor("the reordered pipeline", `[...document.querySelectorAll('ol.pipeline li[data-filter]')].map((li) => li.dataset.filter).join('|') === 'Scale two|Scale one'`)
	p.click(`button[aria-label="Disable Scale one"]`)
	p.waitFor("Scale one disabled", `document.querySelector('ol.pipeline li[data-filter="Scale one"]').textContent.includes('disabled')`)
	p.click(`button[aria-label="Configure Scale two"]`)
	p.waitFor("Scale two's configuration", `document.querySelector('form[aria-label="Items of Scale two"] [data-item=enable]')`)
	p.waitFor("the filter's tracking event", `[...document.querySelectorAll('td')].some((td) => td.textContent === 'Filter')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "pipeline.png"))
	p.click(`button[aria-label="Remove Scale one"]`)
	p.waitFor("Scale one removed", `[...document.querySelectorAll('ol.pipeline li[data-filter]')].map((li) => li.dataset.filter).join('|') === 'Scale two'`)

	// A north service whose destination refuses everything: its readings
	// are set aside, sent again and deleted from the North page.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("the service form", `document.querySelector('select[name=type]')`)
	p.set("select[name=type]", "north")
	p.waitFor("http_north's items", `document.querySelector('fieldset[data-plugin=http_north] [data-item=url]')`)
	p.set("input[name=name]", "Refused out")
	p.set("fieldset[data-plugin=http_north] [data-item=url]", dest.URL+"/sensor-reading")
	p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
	p.waitFor("the north service's configuration", `location.hash === '#/config/Refused%20out'`)
	p.eval(`location.hash = '#/north'`, nil)
	p.waitFor("readings set aside", `(() => { const a = document.querySelector('a[href="#/north/Refused%20out"]'); return a && Number(a.dataset.setaside) > 0; })()`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "north.png"))
	p.click(`a[href="#/north/Refused%20out"]`)
	p.waitFor("the set-aside readings", `Number(document.querySelector('[data-total]')?.dataset.total) > 0 && document.querySelector('input[name=pick]')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "setaside.png"))
	p.click(`button[name=resend]`)
	p.waitFor("the resend's answer", `document.getElementById('status').textContent.includes('sent again') && document.querySelector('#status a[href="#/audit/NHREJ"]')`)
	p.eval(`location.hash = '#/north/Refused%20out'`, nil)
	p.waitFor("the page again", `document.querySelector('button[name=delete]') && document.querySelector('[data-total]')`)
	p.click(`button[name=delete]`)
	p.waitFor("the deletion's answer", `document.getElementById('status').textContent.includes('deleted')`)

	// The north service's warning in the log viewer, filtered by service
	// and level.
	p.eval(`location.hash = '#/logs'`, nil)
	p.waitFor("the log viewer", `document.querySelector('select[name=source] option[value="Refused out"]')`)
	p.set("select[name=source]", "Refused out")
	p.set("select[name=level]", "warning")
	p.waitFor("the north service's warning, alone", `(() => { const ls = [...document.querySelectorAll('pre.log .ll')];
  return ls.length > 0 && ls.every((l) => l.textContent.includes('Refused out') && (l.classList.contains('warning') || l.classList.contains('error')))
    && ls.some((l) => l.textContent.includes('refused')); })()`)
	var others bool
	p.eval(`[...document.querySelectorAll('pre.log .ll')].some((l) => !l.textContent.includes('Refused out') || l.classList.contains('info') || l.classList.contains('debug'))`, &others)
	if others {
		t.Error("the log viewer shows lines of another source or below warning")
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "logs.png"))

	// A backup: created, listed as it completes, downloaded.
	p.eval(`location.hash = '#/backups'`, nil)
	p.waitFor("the backups page", `document.querySelector('button[name=create-backup]')`)
	p.click(`button[name=create-backup]`)
	p.waitFor("the completed backup", `[...document.querySelectorAll('span.bk')].some((s) => s.textContent === 'COMPLETED')`)
	p.click(`button[aria-label^="Download backup"]:not([disabled])`)
	p.waitFor("the download", `Number(document.querySelector('[data-downloaded]')?.dataset.downloaded) > 0`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "backups.png"))

	// The configuration document: exported, changed, planned (the diff is
	// shown and nothing is written), applied.
	p.eval(`location.hash = '#/document'`, nil)
	p.waitFor("the exported document", `document.querySelector('textarea[name=document]').value.includes('"version"')`)
	p.eval(`(() => { const ta = document.querySelector('textarea[name=document]'); const d = JSON.parse(ta.value);
  const s = d.services.find((s) => s.name === 'Sine pages'); s.config.assetName = 'sine-applied';
  ta.value = JSON.stringify(d, null, 2); ta.dispatchEvent(new Event('input', { bubbles: true })); })()`, nil)
	p.click(`button[name=plan]`)
	p.waitFor("the plan's diff", `[...document.querySelectorAll('table.diff tr')].some((tr) => tr.textContent.includes('Sine pages') && tr.textContent.includes('sine-applied'))`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "config-plan.png"))
	var before string
	p.eval(`(async () => (await (await fetch('/edge/category/Sine%20pages/assetName', { headers: { authorization: sessionStorage.getItem('edged.console.token') } })).json()).value)()`, &before)
	if before != "sine-pages" {
		t.Errorf("after the plan assetName is %q: planning wrote", before)
	}
	p.click(`button[name=apply]`)
	p.waitFor("the applied change", `document.getElementById('status').textContent.startsWith('Applied') && document.querySelector('#status a[href="#/audit/CONCH"]')`)
	var after string
	p.eval(`(async () => (await (await fetch('/edge/category/Sine%20pages/assetName', { headers: { authorization: sessionStorage.getItem('edged.console.token') } })).json()).value)()`, &after)
	if after != "sine-applied" {
		t.Errorf("after apply assetName is %q, want sine-applied", after)
	}

	// Every page of the menu is reached and left with the keyboard alone:
	// its links and buttons are focusable, in order.
	var unreachable []string
	p.eval(`[...document.querySelectorAll('nav a, nav button')].filter((el) => el.tabIndex < 0).map((el) => el.textContent)`, &unreachable)
	if len(unreachable) > 0 {
		t.Errorf("menu entries out of the tab order: %v", unreachable)
	}
	checkNoForeignRequests(t, b, gw.URL, "/edge/filter") // the refused filter (400)
	t.Logf("destination refused %d requests", refused.Load())
}
