package portal_test

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin/external"
)

// TestConsoleInBrowserPackagesAndControl installs a plugin package from a
// test repository on the Packages page (the repository configured there,
// the task followed to its end with its log), sees its plugin offered by
// the catalogue's create form, removes it; and sends a control write from
// the Control page, whose answer and audit entry the page shows.
func TestConsoleInBrowserPackagesAndControl(t *testing.T) {
	if os.Getenv("EDGE_BROWSER_TEST") == "" {
		t.Skip("browser test: set EDGE_BROWSER_TEST=1 (make test-portal) to run it")
	}
	bin, ok := findBrowser()
	if !ok {
		t.Skipf("browser test: no Chromium binary found (looked for %s on PATH and EDGE_CHROMIUM)", strings.Join(browserCandidates, ", "))
	}
	// The repository: the Go plugin SDK's example CSV south plugin,
	// packaged and signed with the project's own packaging code.
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	repoDir := t.TempDir()
	exe, err := external.BuildExample(t.Context(), "../..", "csvsouth", "1.0.0", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "plugin", Data: data, Exec: true}})
	if err != nil {
		t.Fatal(err)
	}
	if err := pkgrepo.Publish(repoDir, key, pkgrepo.Package{Name: "csv_south", Version: "1.0.0", Type: pkgrepo.TypePlugin,
		Kind: "south", Description: "An example plugin"}, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}); err != nil {
		t.Fatal(err)
	}
	repo := httptest.NewServer(http.FileServer(http.Dir(repoDir)))
	defer repo.Close()

	gw := startGateway(t)
	out := consoleOutputDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	p, b := openConsole(ctx, t, bin, gw)
	p.eval(`window.confirm = () => true`, nil)

	// The repository's key is trusted on the configuration page.
	p.eval(`location.hash = '#/config/Installation'`, nil)
	p.waitFor("the Installation category", `document.querySelector('[data-item=trustedKeys]')`)
	p.set("[data-item=trustedKeys]", base64.StdEncoding.EncodeToString(pub))
	p.click(`.item:has([data-item=trustedKeys]) button`)
	p.waitFor("the trusted key saved", `document.getElementById('status').textContent.includes('trustedKeys is now')`)

	// The repository, the available plugin, its install followed to the end.
	p.eval(`location.hash = '#/packages'`, nil)
	p.waitFor("the packages page", `document.querySelector('form[aria-label="Package repository"]')`)
	p.set("input[name=repository]", repo.URL)
	p.eval(`document.querySelector('form[aria-label="Package repository"]').requestSubmit()`, nil)
	p.waitFor("the available plugin", `document.querySelector('button[aria-label="Install csv_south"]')`)
	p.click(`button[aria-label="Install csv_south"]`)
	p.waitFor("the install task's end", `['Complete', 'Failed', 'Cancelled', 'Interrupted'].includes(document.querySelector('[data-state]')?.dataset.state)`)
	var state, log string
	p.eval(`document.querySelector('[data-state]').dataset.state`, &state)
	p.eval(`document.querySelector('pre.log').textContent`, &log)
	if state != "Complete" {
		t.Fatalf("install task ended %s; log:\n%s", state, log)
	}
	if strings.TrimSpace(log) == "" {
		t.Error("the install task's log is empty on the page")
	}
	p.waitFor("the installed package", `[...document.querySelectorAll('table caption')].some((c) => c.textContent === 'Installed packages') && document.querySelector('button[aria-label="Remove csv_south"]')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "packages.png"))

	// The catalogue's create form offers the installed plugin with its items.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("csv_south in the create form", `document.querySelector('select[name=plugin] option[value=csv_south]')`)
	p.set("select[name=plugin]", "csv_south")
	p.waitFor("csv_south's items", `document.querySelector('fieldset[data-plugin=csv_south] [data-item=plugin]')`)

	// Removed from the Packages page.
	p.eval(`location.hash = '#/packages'`, nil)
	p.waitFor("the remove button", `document.querySelector('button[aria-label="Remove csv_south"]')`)
	p.click(`button[aria-label="Remove csv_south"]`)
	p.waitFor("the removal's answer", `document.querySelector('#status a[href="#/audit/PKGRM"]')`)
	p.waitFor("the package gone", `!document.querySelector('button[aria-label="Remove csv_south"]')`)

	// Control: a write to a service; the gateway's answer (here: no
	// dispatcher service runs) is shown, and the request is in the trail.
	p.eval(`location.hash = '#/control'`, nil)
	p.waitFor("the control form", `document.querySelector('form[aria-label="Send a control request"]')`)
	p.set("input[name=target]", "pump")
	p.set("textarea[name=values]", "setpoint=42")
	p.eval(`document.querySelector('form[aria-label="Send a control request"]').requestSubmit()`, nil)
	p.waitFor("the answer", `document.querySelector('.answer p.error')?.textContent.includes('dispatcher')`)
	p.waitFor("the request in the trail", `[...document.querySelectorAll('td')].some((td) => td.textContent === 'CTLWR')`)
	var details string
	p.eval(`[...document.querySelectorAll('tr')].find((tr) => tr.textContent.includes('CTLWR')).textContent`, &details)
	if !strings.Contains(details, "pump") || !strings.Contains(details, "refused") {
		t.Errorf("the control trail's entry %q lacks the request", details)
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "control.png"))
	checkNoForeignRequests(t, b, gw.URL, "/edge/control/write") // refused: no dispatcher (409)
}
