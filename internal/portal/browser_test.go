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

// TestDocsInBrowser opens /edge/docs, served by a running gateway, in
// headless Chromium. It checks that the page lists every operation of the
// contract, that an operation opens with its description and parameters,
// and that no request leaves the browser for another host (the page's
// Content-Security-Policy blocks the one Redoc makes, for its attribution
// logo); it saves a screenshot, the rendered DOM and the menu to
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

	checkNoForeignRequests(t, b, gw.URL)

	var shot struct {
		Data string `json:"data"`
	}
	if err := b.call(ctx, s, "Page.captureScreenshot", map[string]any{"format": "png"}, &shot); err != nil {
		t.Fatal(err)
	}
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	if err != nil {
		t.Fatal(err)
	}
	if len(png) < 8 || string(png[1:4]) != "PNG" {
		t.Fatalf("the screenshot is not a PNG (%d bytes)", len(png))
	}
	shotPath := filepath.Join(out, "docs.png")
	if err := os.WriteFile(shotPath, png, 0o600); err != nil {
		t.Fatal(err)
	}
	var dom string
	if err := b.evaluate(ctx, s, "document.documentElement.outerHTML", &dom); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "docs-dom.html"), []byte(dom), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d operations and %d tags listed; screenshot %s", total, len(spec.Tags), shotPath)
}

// checkNoForeignRequests fails the test if the page sent a request anywhere
// but the gateway (data: and blob: URLs aside): a request for another host
// must have been blocked by the Content-Security-Policy before it was sent.
// It also fails on any error the browser logged, except the CSP reports of
// those blocked requests and the 404 of /favicon.ico, which the page does
// not declare.
func checkNoForeignRequests(t *testing.T, b *browser, gatewayURL string) {
	t.Helper()
	blockedByCSP := map[string]bool{} // request ids
	for _, e := range b.eventsNamed("Network.loadingFailed") {
		var p struct {
			RequestID     string `json:"requestId"`
			BlockedReason string `json:"blockedReason"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.BlockedReason == "csp" {
			blockedByCSP[p.RequestID] = true
		}
	}
	blockedURLs := map[string]bool{}
	for _, e := range b.eventsNamed("Network.requestWillBeSent") {
		var p struct {
			RequestID string `json:"requestId"`
			Request   struct {
				URL string `json:"url"`
			} `json:"request"`
		}
		if err := json.Unmarshal(e.Params, &p); err != nil {
			t.Fatal(err)
		}
		u := p.Request.URL
		switch {
		case strings.HasPrefix(u, gatewayURL+"/"), strings.HasPrefix(u, "data:"), strings.HasPrefix(u, "blob:"):
		case blockedByCSP[p.RequestID]:
			blockedURLs[u] = true
			t.Logf("blocked by the page's CSP, never sent: %s", u)
		default:
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
		en := p.Entry
		if en.Level != "error" || en.URL == gatewayURL+"/favicon.ico" {
			continue
		}
		if en.Source == "security" && mentionsAny(en.Text, blockedURLs) {
			continue
		}
		t.Errorf("browser error (%s): %s %s", en.Source, en.Text, en.URL)
	}
}

func mentionsAny(text string, urls map[string]bool) bool {
	for u := range urls {
		if strings.Contains(text, u) {
			return true
		}
	}
	return false
}
