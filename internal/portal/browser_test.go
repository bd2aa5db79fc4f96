package portal_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/portal"
)

// browserCandidates are the names a Chromium binary goes by.
var browserCandidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// findBrowser returns EDGE_CHROMIUM or the first Chromium on PATH.
func findBrowser() (string, bool) {
	if p := os.Getenv("EDGE_CHROMIUM"); p != "" {
		return p, true
	}
	for _, name := range browserCandidates {
		if p, err := exec.LookPath(name); err == nil {
			return p, true
		}
	}
	return "", false
}

// outputDir is where the browser test leaves its screenshot and DOM:
// EDGE_TEST_OUTPUT/portal, by default test-output/portal at the repository
// root (gitignored).
func outputDir(t *testing.T) string {
	t.Helper()
	root := os.Getenv("EDGE_TEST_OUTPUT")
	if root == "" {
		root = filepath.Join("..", "..", "test-output")
	}
	dir := filepath.Join(root, "portal")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	return dir
}

// expandMenuScript opens every group of Redoc's navigation menu (the
// operations of a tag are listed, by summary, once its group is open) and
// returns the labels of all menu items.
const expandMenuScript = `(async () => {
  const pause = () => new Promise(r => setTimeout(r, 25));
  const labels = () => [...document.querySelectorAll('li[data-testid=menu-item-label]')];
  const closed = () => labels().filter(li => {
    const group = li.closest('a') && li.closest('a').nextElementSibling;
    return group && group.style.display === 'none';
  });
  const until = performance.now() + 30000;
  for (let c = closed(); c.length > 0 && performance.now() < until; c = closed()) {
    c[0].click();
    await pause();
  }
  return {closed: closed().length, labels: labels().map(li => li.innerText.split('\n')[0].trim())};
})()`

// openOperationScript clicks the menu item of one operation and waits until
// the content pane shows it; it returns the pane's text.
const openOperationScript = `(async (summary, mustShow) => {
  const pause = () => new Promise(r => setTimeout(r, 25));
  const item = [...document.querySelectorAll('li[data-testid=menu-item-label]')]
    .find(li => li.innerText.split('\n')[0].trim() === summary);
  if (!item) return 'no menu item ' + summary;
  item.click();
  const pane = () => (document.getElementById('api-content') || document.body).innerText;
  const until = performance.now() + 30000;
  while (!mustShow.every(s => pane().includes(s)) && performance.now() < until) await pause();
  return pane();
})`

// sampleScript switches the request samples of the operation on show to
// one language, through the samples' language menu, and waits until its
// code shows want; it returns the visible code, or why it failed.
const sampleScript = `(async (label, want) => {
  const pause = () => new Promise(r => setTimeout(r, 25));
  const shown = el => el.offsetParent !== null;
  const code = () => [...document.querySelectorAll('pre, code')].filter(shown).map(e => e.innerText).join('\n');
  const until = performance.now() + 30000;
  const langs = ['curl', 'Go', 'Python', 'TypeScript'];
  let menu;
  while (!(menu = [...document.querySelectorAll('button')].find(b => shown(b) && langs.includes(b.innerText.trim())))) {
    if (performance.now() > until) return 'no language menu among the samples';
    await pause();
  }
  if (menu.innerText.trim() !== label) {
    menu.click();
    let item;
    while (!(item = [...document.querySelectorAll('[role=menuitem]')].find(i => shown(i) && i.innerText.trim() === label))) {
      if (performance.now() > until) return 'no ' + label + ' in the language menu';
      await pause();
    }
    item.click();
  }
  while (!code().includes(want) && performance.now() < until) await pause();
  return code();
})`

// searchScript waits until the search index is ready (the search box no
// longer says "Loading..."), opens the search dialog and focuses its input.
const searchScript = `(async () => {
  const pause = () => new Promise(r => setTimeout(r, 25));
  const until = performance.now() + 30000;
  const trigger = () => document.querySelector('[data-testid=search-trigger]');
  while (!(trigger() && trigger().innerText.trim().startsWith('Search')) && performance.now() < until) await pause();
  if (!trigger()) return 'no search box';
  const ready = trigger().innerText.trim();
  trigger().click();
  let input;
  while (!(input = document.querySelector('[data-component-name="Search/SearchInput"] input, input[placeholder^="Search"]')) && performance.now() < until) await pause();
  if (!input) return 'no search input after a click on ' + JSON.stringify(ready);
  input.focus();
  return 'ready: ' + ready;
})()`

// searchResultsScript waits until a search result shows every string of
// want, clicks it, and waits until the page shows the operation; it
// returns the results' text and the page's location.
const searchResultsScript = `(async (want) => {
  const pause = () => new Promise(r => setTimeout(r, 25));
  const until = performance.now() + 30000;
  const items = () => [...document.querySelectorAll('[data-component-name="Search/SearchItem"]')];
  let hit;
  while (!(hit = items().find(i => want.every(w => i.innerText.includes(w)))) && performance.now() < until) await pause();
  const texts = items().map(i => i.innerText.replace(/\n/g, ' / ')).join('\n');
  if (!hit) return {results: texts, location: ''};
  hit.click();
  const pane = () => (document.getElementById('api-content') || document.body).innerText;
  while (!want.every(w => pane().includes(w)) && performance.now() < until) await pause();
  await pause();
  return {results: texts, location: location.hash};
})`

// TestDocsInBrowser opens /edge/docs, served by a running gateway, in
// headless Chromium. It checks that the page lists every operation of the
// contract, that an operation opens with its description and parameters
// and its request samples in curl, Go, Python and TypeScript, that the
// search finds an operation and leads to it, that nothing is blocked by the
// page's Content-Security-Policy and that no request leaves the browser for
// another host; it saves a screenshot, the rendered DOM and the menu to
// test-output/portal.
func TestDocsInBrowser(t *testing.T) {
	if os.Getenv("EDGE_BROWSER_TEST") == "" {
		t.Skip("browser test: set EDGE_BROWSER_TEST=1 (make test-portal) to run it")
	}
	bin, ok := findBrowser()
	if !ok {
		t.Skipf("browser test: no Chromium binary found (looked for %s on PATH and EDGE_CHROMIUM); install it with 'apt-get install chromium'",
			strings.Join(browserCandidates, ", "))
	}
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	gw := startGateway(t)
	out := outputDir(t)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Every host but the gateway's resolves to nothing, so even a request
	// the CSP let through could not reach another host.
	b := launchBrowser(t, bin, "--window-size=1280,900", "--hide-scrollbars",
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
	s := attached.SessionID
	for _, domain := range []string{"Page", "Runtime", "Log", "Network"} {
		if err := b.call(ctx, s, domain+".enable", map[string]any{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	mark := b.eventCount()
	if err := b.call(ctx, s, "Page.navigate", map[string]any{"url": gw.URL + portal.DocsPath}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.waitEvent(ctx, s, "Page.loadEventFired", mark); err != nil {
		t.Fatal(err)
	}

	var title string
	if err := b.evaluate(ctx, s, "document.title", &title); err != nil {
		t.Fatal(err)
	}
	if title != spec.Info.Title {
		t.Errorf("page title %q, want %q", title, spec.Info.Title)
	}

	// Every operation is listed in the menu, by its summary.
	var menu struct {
		Closed int      `json:"closed"`
		Labels []string `json:"labels"`
	}
	if err := b.evaluate(ctx, s, expandMenuScript, &menu); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "docs-menu.txt"), []byte(strings.Join(menu.Labels, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if menu.Closed > 0 {
		t.Errorf("%d menu groups could not be opened", menu.Closed)
	}
	listed := map[string]bool{}
	for _, l := range menu.Labels {
		listed[l] = true
	}
	var missing []string
	total := 0
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			total++
			if !listed[op.Summary] {
				missing = append(missing, method+" "+path+" ("+op.Summary+")")
			}
		}
	}
	for _, tag := range spec.Tags {
		if !listed[tag.Name] {
			missing = append(missing, "tag "+tag.Name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("not in the rendered menu (%d operations in the spec):\n%s", total, strings.Join(missing, "\n"))
	}

	// One operation opens with its documentation.
	op := spec.Paths.Find("/edge/audit").Get
	mustShow := []string{op.Summary, "/edge/audit", "totalCount", "limit", "severity"}
	args, err := json.Marshal([]any{op.Summary, mustShow})
	if err != nil {
		t.Fatal(err)
	}
	var pane string
	if err := b.evaluate(ctx, s, openOperationScript+"(..."+string(args)+")", &pane); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "docs-operation.txt"), []byte(pane), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, want := range mustShow {
		if !strings.Contains(pane, want) {
			t.Errorf("the opened operation %q does not show %q", op.Summary, want)
		}
	}

	// Its request samples, in each language, with the SDKs' call shapes.
	samples := []struct{ label, want string }{
		{"curl", "'http://localhost:8081/edge/audit'"},
		{"Go", "c.ListAuditEntriesWithResponse(ctx, nil)"},
		{"Python", "list_audit_entries.sync(client=client)"},
		{"TypeScript", `await edge.get("/edge/audit")`},
	}
	var shown []string
	for _, sm := range samples {
		args, err := json.Marshal([]string{sm.label, sm.want})
		if err != nil {
			t.Fatal(err)
		}
		var code string
		if err := b.evaluate(ctx, s, sampleScript+"(..."+string(args)+")", &code); err != nil {
			t.Fatal(err)
		}
		shown = append(shown, "== "+sm.label+"\n"+code)
		if !strings.Contains(code, sm.want) {
			t.Errorf("the %s request sample of %q does not show %q; the page shows:\n%s", sm.label, op.Summary, sm.want, code)
		}
	}
	if err := os.WriteFile(filepath.Join(out, "docs-samples.txt"), []byte(strings.Join(shown, "\n")), 0o600); err != nil {
		t.Fatal(err)
	}
	// The screenshot shows the operation with its Go sample.
	goArgs, _ := json.Marshal([]string{"Go", samples[1].want})
	if err := b.evaluate(ctx, s, sampleScript+"(..."+string(goArgs)+")", new(string)); err != nil {
		t.Fatal(err)
	}
	shot := screenshot(ctx, t, b, s, filepath.Join(out, "docs.png"))

	// The search finds an operation by its summary and opens it.
	searched := spec.Paths.Find("/edge/task/{id}/cancel").Put
	var ready string
	if err := b.evaluate(ctx, s, searchScript, &ready); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ready, "ready: ") {
		t.Fatalf("search: %s", ready)
	}
	if err := b.call(ctx, s, "Input.insertText", map[string]any{"text": "cancel task"}, nil); err != nil {
		t.Fatal(err)
	}
	var found struct {
		Results  string `json:"results"`
		Location string `json:"location"`
	}
	wantHit := []string{searched.Summary, "/edge/task/{id}/cancel"}
	hitArgs, err := json.Marshal([]any{wantHit})
	if err != nil {
		t.Fatal(err)
	}
	if err := b.evaluate(ctx, s, searchResultsScript+"(..."+string(hitArgs)+")", &found); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "docs-search.txt"), []byte(found.Results+"\n-> "+found.Location+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.ToLower(found.Location), strings.ToLower(searched.OperationID)) {
		t.Errorf("searching \"cancel task\" did not lead to %s (location %q); results:\n%s", searched.OperationID, found.Location, found.Results)
	}
	screenshot(ctx, t, b, s, filepath.Join(out, "docs-search.png"))

	checkNoForeignRequests(t, b, gw.URL)

	var dom string
	if err := b.evaluate(ctx, s, "document.documentElement.outerHTML", &dom); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "docs-dom.html"), []byte(dom), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations and %d tags listed; screenshot %s", total, len(spec.Tags), shot)
}

// screenshot saves a PNG of the page to path and returns path.
func screenshot(ctx context.Context, t *testing.T, b *browser, session, path string) string {
	t.Helper()
	var shot struct {
		Data string `json:"data"`
	}
	if err := b.call(ctx, session, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("the screenshot is not a PNG (%d bytes)", len(png))
	}
	if err := os.WriteFile(path, png, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// checkNoForeignRequests fails the test if the page sent a request anywhere
// but the gateway (data: and blob: URLs aside), if the page's
// Content-Security-Policy blocked anything (the page must need nothing it
// forbids), and on any error the browser logged.
func checkNoForeignRequests(t *testing.T, b *browser, gatewayURL string, refusals ...string) {
	t.Helper()
	for _, e := range b.eventsNamed("Network.loadingFailed") {
		var p struct {
			RequestID     string `json:"requestId"`
			BlockedReason string `json:"blockedReason"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.BlockedReason != "" {
			t.Errorf("request %s blocked (%s)", p.RequestID, p.BlockedReason)
		}
	}
	for _, e := range b.eventsNamed("Network.requestWillBeSent") {
		var p struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		u := p.Request.URL
		if !strings.HasPrefix(u, gatewayURL+"/") && !strings.HasPrefix(u, "data:") && !strings.HasPrefix(u, "blob:") {
			t.Errorf("the page sent a request to %s, which is not the gateway", u)
		}
	}
	for _, e := range b.eventsNamed("Runtime.exceptionThrown") {
		t.Errorf("uncaught exception in the page: %s", e.Params)
	}
	for _, e := range b.eventsNamed("Log.entryAdded") {
		var p struct {
			Entry struct {
				Level, Source, Text, URL string
			} `json:"entry"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		if en := p.Entry; en.Level == "error" && !expectedRefusal(en.Source, en.URL, gatewayURL, refusals) {
			t.Errorf("browser error (%s): %s %s", en.Source, en.Text, en.URL)
		}
	}
	for _, e := range b.eventsNamed("Runtime.consoleAPICalled") {
		var p struct {
			Type string `json:"type"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.Type == "error" {
			t.Errorf("the page logged an error: %s", e.Params)
		}
	}
}

// expectedRefusal reports whether a logged error is the browser's note of
// an error answer the test provoked on purpose: a network entry for one of
// the gateway's paths given.
func expectedRefusal(source, url, gatewayURL string, refusals []string) bool {
	if source != "network" {
		return false
	}
	for _, r := range refusals {
		if url == gatewayURL+r {
			return true
		}
	}
	return false
}
