package portal_test

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/simtest"
)

// TestConsoleInBrowserPlant runs a small plant from the console, in
// headless Chromium against a live gateway with its real plugins and the
// Modbus simulator: the notification and dispatcher service packages
// installed from a test repository on the Packages page and their services
// created from the catalogue's form; a Modbus TCP south service created
// from the form against the simulator, with a scale filter, whose scaled
// readings are plotted; a threshold notification created on the
// Notifications page with a webhook to a test server; a control write sent
// from the Control page, answered by the dispatcher, which moves the
// simulator's register over the threshold, so the notification fires (the
// page shows when, the test server gets the delivery); the notification
// edited, a channel added and deleted, the notification deleted; on the
// Backups page the backup schedule disabled and enabled, a backup taken, a
// setting changed after it, and the backup restored, which undoes it. It
// also takes the Tasks and Users pages' screenshots.
func TestConsoleInBrowserPlant(t *testing.T) {
	if os.Getenv("EDGE_BROWSER_TEST") == "" {
		t.Skip("browser test: set EDGE_BROWSER_TEST=1 (make test-portal) to run it")
	}
	bin, ok := findBrowser()
	if !ok {
		t.Skipf("browser test: no Chromium binary found (looked for %s on PATH and EDGE_CHROMIUM)", strings.Join(browserCandidates, ", "))
	}
	// The plant: pymodbus's server (skipped without it, a failure when
	// EDGE_REQUIRE_SIMULATORS is set). Holding register 0 is -123, 14 a
	// setpoint the control write sets.
	mbPort := simtest.FreePort(t)
	sim := simtest.Simulator(t, "modbus_server.py", strconv.Itoa(mbPort))

	// The service packages, built from this tree and signed.
	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	repoDir := t.TempDir()
	for _, svc := range []string{"notification", "dispatcher"} {
		exe := filepath.Join(t.TempDir(), "plugin")
		build := exec.CommandContext(t.Context(), "go", "build", "-o", exe, "../../cmd/edged-"+svc)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build edged-%s: %v\n%s", svc, err, out)
		}
		data, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		archive, err := pkgrepo.Pack([]pkgrepo.File{{Name: "plugin", Data: data, Exec: true}})
		if err != nil {
			t.Fatal(err)
		}
		if err := pkgrepo.Publish(repoDir, key, pkgrepo.Package{Name: svc, Version: "1.0.0", Type: pkgrepo.TypeService,
			Kind: svc, Description: "The " + svc + " service"}, map[string][]byte{runtime.GOOS + "/" + runtime.GOARCH: archive}); err != nil {
			t.Fatal(err)
		}
	}
	repo := httptest.NewServer(http.FileServer(http.Dir(repoDir)))
	defer repo.Close()
	hooks := newHookServer(t)

	gw := startGateway(t)
	out := consoleOutputDir(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	p, b := openConsole(ctx, t, bin, gw)
	p.eval(`window.confirm = () => true`, nil) // the console asks before deleting or restoring

	// The repository's key, the repository, both service packages
	// installed from the Packages page.
	p.eval(`location.hash = '#/config/Installation'`, nil)
	p.waitFor("the Installation category", `document.querySelector('[data-item=trustedKeys]')`)
	p.set("[data-item=trustedKeys]", base64.StdEncoding.EncodeToString(pub))
	p.click(`.item:has([data-item=trustedKeys]) button`)
	p.waitFor("the trusted key saved", `document.getElementById('status').textContent.includes('trustedKeys is now')`)
	p.eval(`location.hash = '#/packages'`, nil)
	p.waitFor("the packages page", `document.querySelector('form[aria-label="Package repository"]')`)
	p.set("input[name=repository]", repo.URL)
	p.eval(`document.querySelector('form[aria-label="Package repository"]').requestSubmit()`, nil)
	for _, svc := range []string{"notification", "dispatcher"} {
		p.waitFor("the available "+svc+" service", `document.querySelector('button[aria-label="Install `+svc+`"]')`)
		p.click(`button[aria-label="Install ` + svc + `"]`)
		p.waitFor(svc+"'s install task's end", `document.querySelector('section[aria-label=Task] h2')?.textContent === 'Installing `+svc+`' &&
  ['Complete', 'Failed', 'Cancelled', 'Interrupted'].includes(document.querySelector('[data-state]')?.dataset.state)`)
		var state, log string
		p.eval(`document.querySelector('[data-state]').dataset.state`, &state)
		p.eval(`document.querySelector('pre.log').textContent`, &log)
		if state != "Complete" {
			t.Fatalf("the install of %s ended %s; log:\n%s", svc, state, log)
		}
		p.waitFor(svc+" installed", `document.querySelector('button[aria-label="Remove `+svc+`"]')`)
	}

	// A Modbus TCP south service from the catalogue's form, created
	// disabled so that its pipeline is in place before its first reading.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("the catalogue's modbus", `document.querySelector('select[name=plugin] option[value=modbus]')`)
	p.set("input[name=name]", "PLC")
	p.set("select[name=plugin]", "modbus")
	p.waitFor("modbus's items", `document.querySelector('fieldset[data-plugin=modbus] [data-item=map]')`)
	p.set("fieldset[data-plugin=modbus] [data-item=url]", "tcp://127.0.0.1:"+strconv.Itoa(mbPort))
	p.set("fieldset[data-plugin=modbus] [data-item=pollInterval]", "100")
	p.set("fieldset[data-plugin=modbus] [data-item=map]", `[{"asset": "gauge", "datapoint": "pressure", "type": "holding", "address": 0, "format": "int16"},
 {"asset": "tank", "datapoint": "level", "type": "holding", "address": 14}]`)
	p.eval(`document.getElementById('svc-enabled').checked = false`, nil)
	p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
	p.waitFor("the Modbus service's configuration", `location.hash === '#/config/PLC' && document.querySelector('[data-item=map]')`)

	// Its pipeline: a scale filter from the catalogue halving the gauge.
	p.eval(`location.hash = '#/filters/PLC'`, nil)
	p.waitFor("the pipeline page", `document.querySelector('form[aria-label="Create a filter"] select[name=filter-plugin] option[value=scale]')`)
	p.set("select[name=filter-plugin]", "scale")
	p.waitFor("scale's rules", `document.querySelector('fieldset[data-plugin=scale] [data-item=rules]')`)
	p.set("input[name=filter-name]", "Gauge scale")
	p.set("fieldset[data-plugin=scale] [data-item=rules]", `[{"asset": "gauge", "datapoint": "pressure", "factor": 0.5, "offset": 1}]`)
	p.eval(`document.querySelector('form[aria-label="Create a filter"]').requestSubmit()`, nil)
	p.waitFor("the scale filter in the pipeline", `document.querySelector('ol.pipeline li[data-filter="Gauge scale"]')`)

	// The Modbus service enabled; the dispatcher and the notification
	// service created from the form, their plugins from the catalogue.
	p.eval(`location.hash = '#/services'`, nil)
	p.waitFor("the enable button", `document.querySelector('button[aria-label="Enable PLC"]')`)
	p.click(`button[aria-label="Enable PLC"]`)
	// The list is redrawn; the keyboard stays on the button pressed.
	p.waitFor("the enable's answer, the focus kept", `document.querySelector('#status a[href="#/audit/SCHCH"]') && document.activeElement?.getAttribute('aria-label') === 'Enable PLC'`)
	for _, s := range []struct{ name, typ string }{{"Control", "dispatcher"}, {"Alerts", "notification"}} {
		p.eval(`location.hash = '#/services'`, nil)
		p.waitFor("the service form", `document.querySelector('form[aria-label="Create a service"]')`)
		p.set("input[name=name]", s.name)
		p.set("select[name=type]", s.typ)
		p.waitFor(s.typ+"'s items", `document.querySelector('fieldset[data-plugin=`+s.typ+`] [data-item]')`)
		p.eval(`document.querySelector('form[aria-label="Create a service"]').requestSubmit()`, nil)
		p.waitFor(s.name+"'s configuration", `location.hash === '#/config/`+s.name+`' && document.querySelector('[data-item]')`)
	}
	p.eval(`location.hash = '#/dashboard'`, nil)
	p.waitFor("the three services running", `['PLC', 'Control', 'Alerts'].every((n) => [...document.querySelectorAll('section[aria-label=Services] tr')]
  .some((tr) => tr.cells[0]?.textContent === n && tr.textContent.includes('running')))`)

	// The gauge's readings, scaled: every value plotted is -123 × 0.5 + 1.
	p.eval(`location.hash = '#/asset/gauge'`, nil)
	p.waitFor("the scaled plot", `(() => { const box = document.querySelector('.plot'); return box && box.querySelector('canvas') && Number(box.dataset.points) >= 2; })()`)
	var extent struct{ Min, Max string }
	p.eval(`({ Min: document.querySelector('.plot').dataset.min, Max: document.querySelector('.plot').dataset.max })`, &extent)
	if extent.Min != "-60.5" || extent.Max != "-60.5" {
		t.Errorf("the plotted pressure spans %s..%s, want -60.5 (the register's -123 scaled by 0.5, offset 1)", extent.Min, extent.Max)
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "modbus-scaled.png"))

	// A threshold notification from the Notifications page: the tank's
	// level above 50, to the test's webhook.
	p.eval(`location.hash = '#/notifications'`, nil)
	p.waitFor("the create form", `document.querySelector('form[aria-label="Create a notification"] select[name=ntf-rule] option[value=threshold]')`)
	// A required item left empty is not shown as an error before the
	// operator has touched it.
	var untouched string
	p.eval(`getComputedStyle(document.querySelector('input[name=ntf-name]')).backgroundColor`, &untouched)
	if untouched == "rgb(254, 242, 242)" {
		t.Error("the create form's empty Name is shown as an error before anything was typed")
	}
	p.set("input[name=ntf-name]", "High level")
	p.set("input[name=ntf-description]", "Tank level above 50")
	p.set("select[name=ntf-rule]", "threshold")
	p.waitFor("threshold's items", `document.querySelector('fieldset[data-plugin=threshold] [data-item=datapoint]')`)
	p.set("fieldset[data-plugin=threshold] [data-item=asset]", "tank")
	p.set("fieldset[data-plugin=threshold] [data-item=datapoint]", "level")
	p.set("fieldset[data-plugin=threshold] [data-item=condition]", ">")
	p.set("fieldset[data-plugin=threshold] [data-item=value]", "50")
	p.set("select[name=ntf-channel]", "webhook")
	p.waitFor("webhook's items", `document.querySelector('fieldset[data-plugin=webhook] [data-item=url]')`)
	p.set("fieldset[data-plugin=webhook] [data-item=url]", hooks.srv.URL+"/high")
	p.set("select[name=ntf-type]", "one shot")
	p.eval(`document.querySelector('form[aria-label="Create a notification"]').requestSubmit()`, nil)
	p.waitFor("the new notification", `document.querySelector('[data-fired="High level"]') && document.querySelector('#status a[href="#/audit/NTFAD"]')`)
	var fired string
	p.eval(`document.querySelector('[data-fired="High level"]').textContent`, &fired)
	if fired != "never" {
		t.Errorf("the new notification fired (%s) before the level crossed its threshold", fired)
	}
	checkLabelled(p, "the Notifications page")

	// A control write from the Control page, answered by the dispatcher:
	// the setpoint register becomes 90.
	p.eval(`location.hash = '#/control'`, nil)
	p.waitFor("the control form", `document.querySelector('form[aria-label="Send a control request"] option[value=PLC]') || document.querySelector('form[aria-label="Send a control request"]')`)
	p.set("select[name=destination]", "service")
	p.set("input[name=target]", "PLC")
	p.set("textarea[name=values]", "level=90")
	p.eval(`document.querySelector('form[aria-label="Send a control request"]').requestSubmit()`, nil)
	p.waitFor("the dispatcher's answer", `[...document.querySelectorAll('.answer tr')].some((tr) => tr.cells[0]?.textContent === 'PLC' && tr.cells[2]?.textContent === 'done')`)
	p.waitFor("the answer's audit link", `document.querySelector('#status a[href="#/audit/CTLWR"]')`)
	p.waitFor("the write in the trail", `[...document.querySelectorAll('tr')].some((tr) => tr.textContent.includes('CTLWR') && tr.textContent.includes('INFORMATION') && tr.textContent.includes('"PLC"'))`)
	checkLabelled(p, "the Control page")
	screenshot(ctx, t, b, p.s, filepath.Join(out, "control-dispatcher.png"))
	simtest.WaitLine(t, sim, 30*time.Second, "the simulator's register 14 written 90", func(l string) bool {
		var w struct {
			Address int   `json:"address"`
			Values  []int `json:"values"`
		}
		return json.Unmarshal([]byte(l), &w) == nil && w.Address == 14 && len(w.Values) == 1 && w.Values[0] == 90
	})

	// The level read back crosses the threshold: the notification fires,
	// to the webhook and on the page.
	p.eval(`location.hash = '#/notifications'`, nil)
	p.waitFor("the notification fired", `(() => { const f = document.querySelector('[data-fired="High level"]'); return f && f.textContent !== 'never'; })()`)
	deadline := time.Now().Add(30 * time.Second)
	for len(hooks.docs("/high")) == 0 && time.Now().Before(deadline) {
		hooks.wait(deadline)
	}
	docs := hooks.docs("/high")
	if len(docs) == 0 {
		t.Fatal("the webhook received no notification")
	}
	if docs[0]["notification"] != "High level" || docs[0]["state"] != "triggered" {
		t.Errorf("the webhook's first delivery is %v, want High level triggered", docs[0])
	}
	screenshot(ctx, t, b, p.s, filepath.Join(out, "notifications.png"))
	// Disabled and enabled again from the list, the keyboard's focus kept
	// on the row's toggle.
	p.click(`button[aria-label="Disable High level"]`)
	p.waitFor("the notification disabled", `document.activeElement?.getAttribute('aria-label') === 'Enable High level' && document.querySelector('#status a[href="#/audit/CONCH"]')`)
	p.click(`button[aria-label="Enable High level"]`)
	p.waitFor("the notification enabled", `document.activeElement?.getAttribute('aria-label') === 'Disable High level'`)

	// Edited on its page: description and retrigger time; a channel added
	// and deleted.
	p.click(`a[href="#/notifications/High%20level"]`)
	p.waitFor("the notification's page", `document.querySelector('form[aria-label="Edit the notification"]') && document.querySelector('[data-fired="High level"]')?.textContent !== 'never'`)
	p.set("input[name=edit-description]", "Tank level above 50 (edited)")
	p.set("input[name=edit-retrigger]", "30")
	p.eval(`document.querySelector('form[aria-label="Edit the notification"]').requestSubmit()`, nil)
	p.waitFor("the edit's answer", `document.getElementById('status').textContent.includes('saved') && document.querySelector('#status a[href="#/audit/CONCH"]')`)
	var saved struct {
		Description   string
		RetriggerTime float64
	}
	p.eval(`(async () => { const n = await (await fetch('/edge/notification/High%20level', { headers: { authorization: sessionStorage.getItem('edged.console.token') } })).json();
  return { Description: n.description, RetriggerTime: n.retriggerTime }; })()`, &saved)
	if saved.Description != "Tank level above 50 (edited)" || saved.RetriggerTime != 30 {
		t.Errorf("after the edit the notification is %+v", saved)
	}
	p.set("input[name=channel-name]", "second")
	p.set("select[name=channel-plugin]", "webhook")
	p.waitFor("the channel's webhook items", `document.querySelector('form[aria-label="Add a delivery channel"] fieldset[data-plugin=webhook] [data-item=url]')`)
	p.set(`form[aria-label="Add a delivery channel"] fieldset[data-plugin=webhook] [data-item=url]`, hooks.srv.URL+"/second")
	p.eval(`document.querySelector('form[aria-label="Add a delivery channel"]').requestSubmit()`, nil)
	p.waitFor("the added channel", `document.querySelector('button[aria-label="Delete channel second"]') && document.querySelector('#status a[href="#/audit/CONAD"]')`)
	checkLabelled(p, "the notification's page")
	screenshot(ctx, t, b, p.s, filepath.Join(out, "notification.png"))
	p.click(`button[aria-label="Delete channel second"]`)
	p.waitFor("the channel deleted", `!document.querySelector('button[aria-label="Delete channel second"]') && [...document.querySelectorAll('td')].some((td) => td.textContent === 'the notification\'s own')
  && document.querySelector('#status a[href="#/audit/NTFDL"]')`)
	// The link leads to the deletion's entry, naming the channel.
	p.click(`#status a[href="#/audit/NTFDL"]`)
	p.waitFor("the channel's NTFDL entry", `[...document.querySelectorAll('#main tr')].some((tr) => tr.textContent.includes('NTFDL') && tr.textContent.includes('"channel":"second"'))`)

	// Deleted from the list.
	p.eval(`location.hash = '#/notifications'`, nil)
	p.waitFor("the delete button", `document.querySelector('button[aria-label="Delete High level"]')`)
	p.click(`button[aria-label="Delete High level"]`)
	p.waitFor("the notification deleted", `!document.querySelector('[data-fired="High level"]') && document.querySelector('#status a[href="#/audit/NTFDL"]')`)

	// The backup schedule, seen and changed on the Backups page.
	p.eval(`location.hash = '#/backups'`, nil)
	p.waitFor("the backup schedule", `document.querySelector('section[aria-label="Backup schedule"] [data-enabled=true]')`)
	var when string
	p.eval(`document.querySelector('section[aria-label="Backup schedule"] [data-enabled]').textContent`, &when)
	if !strings.Contains(when, "daily at 01:00:00 UTC") {
		t.Errorf("the schedule reads %q, want the daily run at 01:00 UTC", when)
	}
	p.click(`button[name=schedule-disable]`)
	p.waitFor("the schedule disabled", `document.querySelector('section[aria-label="Backup schedule"] [data-enabled=false]') && document.querySelector('#status a[href="#/audit/SCHCH"]')`)
	var focused string
	p.eval(`document.activeElement?.name ?? ''`, &focused)
	if focused != "schedule-enable" {
		t.Errorf("after Disable the focus is on %q, not on the Enable button that replaced it", focused)
	}
	if on := backupScheduleEnabled(p); on {
		t.Error("the backup schedule is still enabled after Disable")
	}
	p.click(`button[name=schedule-enable]`)
	p.waitFor("the schedule enabled", `document.querySelector('section[aria-label="Backup schedule"] [data-enabled=true]')`)
	if on := backupScheduleEnabled(p); !on {
		t.Error("the backup schedule is still disabled after Enable")
	}

	// A backup; a setting changed after it (on the same page); the backup
	// restored, which undoes the change.
	p.click(`button[name=create-backup]`)
	p.waitFor("the completed backup", `[...document.querySelectorAll('span.bk')].some((s) => s.textContent === 'COMPLETED')`)
	p.set(`form[aria-label="Backup settings"] [data-item=retainCount]`, "7")
	p.click(`form[aria-label="Backup settings"] .item:has([data-item=retainCount]) button`)
	p.waitFor("the changed retention", `document.getElementById('status').textContent.includes('retainCount is now 7')`)
	checkLabelled(p, "the Backups page")
	screenshot(ctx, t, b, p.s, filepath.Join(out, "backup-schedule.png"))
	// The tasks the plant ran (the backup and the installs among them),
	// and the users.
	p.eval(`location.hash = '#/tasks'`, nil)
	p.waitFor("the backup task", `[...document.querySelectorAll('#main tr')].some((tr) => tr.cells[0]?.textContent === 'backup')`)
	screenshot(ctx, t, b, p.s, filepath.Join(out, "tasks.png"))
	p.eval(`location.hash = '#/users'`, nil)
	p.waitFor("the users", `[...document.querySelectorAll('#main td')].some((td) => td.textContent === 'admin')`)
	checkLabelled(p, "the Users page")
	screenshot(ctx, t, b, p.s, filepath.Join(out, "users.png"))
	p.eval(`location.hash = '#/backups'`, nil)
	p.waitFor("the backups again", `document.querySelector('button[aria-label^="Restore backup"]:not([disabled])')`)

	// Nothing left the gateway, the CSP blocked nothing, no error so far
	// (the restore that follows ends the page's session).
	checkNoForeignRequests(t, b, gw.URL)
	p.click(`button[aria-label^="Restore backup"]:not([disabled])`)
	p.waitFor("the restore's answer", `document.getElementById('status').textContent.includes('restarts') && document.querySelector('#status a[href="#/audit/BKRST"]')`)
	restored := ""
	deadline = time.Now().Add(2 * time.Minute)
	for restored != "5" && time.Now().Before(deadline) {
		restored = gw.itemAfterRestart(ctx, "BACKUP", "retainCount")
	}
	if restored != "5" {
		t.Errorf("after the restore BACKUP.retainCount is %q, want the backup's 5", restored)
	}
}

// checkLabelled fails the test if a control of the page shown has no
// label, or a button is out of the tab order.
func checkLabelled(p *page, where string) {
	p.t.Helper()
	var bad []string
	p.eval(`[...document.querySelectorAll('#main input, #main select, #main textarea, #main button')]
  .filter((el) => el.tabIndex < 0 || (el.tagName !== 'BUTTON' && !el.labels?.length && !el.getAttribute('aria-label')))
  .map((el) => el.name || el.textContent)`, &bad)
	if len(bad) > 0 {
		p.t.Errorf("%s: controls without a label or out of the tab order: %v", where, bad)
	}
}

// backupScheduleEnabled reads the backup schedule's flag through the API.
func backupScheduleEnabled(p *page) bool {
	p.t.Helper()
	var on bool
	p.eval(`(async () => (await (await fetch('/edge/schedule', { headers: { authorization: sessionStorage.getItem('edged.console.token') } })).json())
  .schedules.find((s) => s.name === 'backup').enabled)()`, &on)
	return on
}

// itemAfterRestart logs in as admin and reads a configuration item; "" while
// the gateway does not answer (it restarts), after a short wait so that the
// caller's loop does not spin.
func (g *gateway) itemAfterRestart(ctx context.Context, category, item string) string {
	c := &http.Client{Timeout: 5 * time.Second}
	fail := func() string {
		select {
		case <-ctx.Done():
		case <-time.After(200 * time.Millisecond):
		}
		return ""
	}
	body, _ := json.Marshal(map[string]string{"username": "admin", "password": "Portal-Test-Passw0rd"})
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, g.URL+"/edge/login", bytes.NewReader(body))
	resp, err := c.Do(req)
	if err != nil {
		return fail()
	}
	var login struct {
		Token string `json:"token"`
	}
	err = json.NewDecoder(resp.Body).Decode(&login)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		return fail()
	}
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"/edge/category/"+category+"/"+item, nil)
	req.Header.Set("Authorization", login.Token)
	resp, err = c.Do(req)
	if err != nil {
		return fail()
	}
	defer func() { _ = resp.Body.Close() }()
	var v struct {
		Value string `json:"value"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&v) != nil {
		return fail()
	}
	return v.Value
}

// hookServer is a webhook endpoint keeping every JSON document POSTed to
// it, by path.
type hookServer struct {
	srv     *httptest.Server
	mu      sync.Mutex
	got     map[string][]map[string]any
	arrived chan struct{} // closed and replaced at each document
}

func newHookServer(t *testing.T) *hookServer {
	t.Helper()
	h := &hookServer{got: map[string][]map[string]any{}, arrived: make(chan struct{})}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		var doc map[string]any
		if err != nil || r.Method != http.MethodPost || json.Unmarshal(b, &doc) != nil {
			http.Error(w, "want a POST of a JSON object", http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.got[r.URL.Path] = append(h.got[r.URL.Path], doc)
		close(h.arrived)
		h.arrived = make(chan struct{})
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// docs returns the documents POSTed to path so far.
func (h *hookServer) docs(path string) []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]map[string]any(nil), h.got[path]...)
}

// wait returns when the next document arrives or at deadline.
func (h *hookServer) wait(deadline time.Time) {
	h.mu.Lock()
	ch := h.arrived
	h.mu.Unlock()
	select {
	case <-ch:
	case <-time.After(time.Until(deadline)):
	}
}
