package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/simtest"
)

// hookReceiver is a webhook endpoint: it keeps every JSON document POSTed
// to it, by path.
type hookReceiver struct {
	srv  *httptest.Server
	mu   sync.Mutex
	got  map[string][]map[string]any
	seen map[string][]time.Time
}

func newHookReceiver(t *testing.T) *hookReceiver {
	t.Helper()
	h := &hookReceiver{got: map[string][]map[string]any{}, seen: map[string][]time.Time{}}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var doc map[string]any
		if r.Method != http.MethodPost || json.Unmarshal(b, &doc) != nil {
			http.Error(w, "want a POST of a JSON object", http.StatusBadRequest)
			return
		}
		h.mu.Lock()
		h.got[r.URL.Path] = append(h.got[r.URL.Path], doc)
		h.seen[r.URL.Path] = append(h.seen[r.URL.Path], time.Now())
		h.mu.Unlock()
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// docs returns the documents POSTed to path so far.
func (h *hookReceiver) docs(path string) []map[string]any {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.got[path])
}

// times returns when the documents POSTed to path arrived.
func (h *hookReceiver) times(path string) []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.seen[path])
}

// states returns the state field of each document POSTed to path.
func (h *hookReceiver) states(path string) []string {
	var out []string
	for _, d := range h.docs(path) {
		s, _ := d["state"].(string)
		out = append(out, s)
	}
	return out
}

// installServicePackage installs service package name from the configured
// repository and waits for the install task.
func installServicePackage(t *testing.T, c *edgeclient.ClientWithResponses, name string) {
	t.Helper()
	var body edgeclient.ServiceRequest
	must(t, body.FromPackageInstallRequest(edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: name}))
	action := edgeclient.Install
	resp, err := c.CreateServiceWithResponse(t.Context(), &edgeclient.CreateServiceParams{Action: &action}, body)
	must(t, err)
	wantStatus(t, "createService?action=install "+name, resp.StatusCode(), resp.Body, http.StatusOK)
	if task := awaitTask(t, c, resp.JSON200.Id); !succeeded(task) {
		t.Fatalf("install task of %s = %+v", name, task)
	}
	t.Cleanup(func() {
		r, err := c.RemovePackageWithResponse(context.Background(), name)
		if err == nil && r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up package %s: status %d; body %s", name, r.StatusCode(), truncate(r.Body))
		}
	})
}

// createHosted creates a notification or dispatcher service and returns
// the raw answer.
func createHosted(t *testing.T, c *edgeclient.ClientWithResponses, name, typ string) *edgeclient.CreateServiceResponse {
	t.Helper()
	var body edgeclient.ServiceRequest
	must(t, body.FromServiceCreateRequest(edgeclient.ServiceCreateRequest{Name: name, Type: typ, Enabled: true}))
	resp, err := c.CreateServiceWithResponse(t.Context(), nil, body)
	must(t, err)
	if resp.StatusCode() == http.StatusOK {
		t.Cleanup(func() { _, _ = c.DeleteServiceWithResponse(context.Background(), name) })
	}
	return resp
}

// controlWrite posts a control write and returns the raw answer.
func controlWrite(t *testing.T, c *edgeclient.ClientWithResponses, destination edgeclient.ControlDestination, name string, values map[string]any) *edgeclient.ControlWriteResponse {
	t.Helper()
	req := edgeclient.ControlWriteRequest{Destination: destination, Values: map[string]edgeclient.ControlValue{}}
	if name != "" {
		req.Name = &name
	}
	for k, v := range values {
		var cv edgeclient.ControlValue
		switch v := v.(type) {
		case float64:
			must(t, cv.FromControlValue0(v))
		case bool:
			must(t, cv.FromControlValue1(v))
		case string:
			must(t, cv.FromControlValue2(v))
		}
		req.Values[k] = cv
	}
	resp, err := c.ControlWriteWithResponse(t.Context(), req)
	must(t, err)
	return resp
}

// createNotification creates an instance and fails the test unless it
// succeeds.
func createNotification(t *testing.T, c *edgeclient.ClientWithResponses, body edgeclient.NotificationCreate) *edgeclient.Notification {
	t.Helper()
	resp, err := c.CreateNotificationWithResponse(t.Context(), body)
	must(t, err)
	wantStatus(t, "createNotification "+body.Name, resp.StatusCode(), resp.Body, http.StatusOK)
	t.Cleanup(func() { _, _ = c.DeleteNotificationWithResponse(context.Background(), body.Name) })
	return resp.JSON200
}

// testNotificationsAndControl is the notification and dispatcher
// services end to end, installed as packages from a repository built by
// `make packages` and served here: rules on a Modbus simulator's value
// deliver to a webhook (one shot, toggled with its clearing, retriggered
// at its pace), to an SMTP server and as a setpoint written back to the
// simulator; control writes and operations reach an OPC UA server for a
// control user and are refused to the other roles; a killed service
// process comes back; every new call answers its errors.
func testNotificationsAndControl(t *testing.T) {
	needOwnGateway(t, "installs service packages built from the source tree, starts simulators and kills service processes")
	counterpartsHere(t)
	adminTok := adminToken(t)
	admin := apiAs(t, adminTok)
	ctx := t.Context()

	// No notification calls work before the service runs.
	plugins, err := admin.ListNotificationPluginsWithResponse(ctx)
	must(t, err)
	checkError(t, plugins.StatusCode(), plugins.Body, http.StatusConflict)
	list, err := admin.ListNotificationsWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listNotifications", list.StatusCode(), list.Body, http.StatusOK)
	if len(list.JSON200.Notifications) != 0 {
		t.Fatalf("notifications before any: %+v", list.JSON200.Notifications)
	}
	if r := createHosted(t, admin, unique("conf-notify"), "notification"); r.StatusCode() != http.StatusNotFound {
		t.Fatalf("notification service before its package: status %d, want 404; body %s", r.StatusCode(), truncate(r.Body))
	}
	w := controlWrite(t, admin, edgeclient.ControlDestinationBroadcast, "", map[string]any{"x": 1.0})
	checkError(t, w.StatusCode(), w.Body, http.StatusConflict)

	// The packages, from a repository built from this tree.
	repo := newBuiltRepo(t)
	setInstallation(t, admin, "trustedKeys", repo.pub)
	t.Cleanup(func() {
		_, _ = admin.SetCategoryItemWithResponse(context.Background(), "Installation", "repositoryURL", edgeclient.ConfigValue{Value: ""})
	})
	set, err := admin.SetRepositoryWithResponse(ctx, edgeclient.RepositoryRequest{Url: repo.url, Version: ptr("latest")})
	must(t, err)
	wantStatus(t, "setRepository", set.StatusCode(), set.Body, http.StatusOK)
	avail, err := admin.ListAvailablePackagesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listAvailablePackages", avail.StatusCode(), avail.Body, http.StatusOK)
	for _, want := range []string{"notification", "dispatcher"} {
		if !slices.Contains(avail.JSON200.Services, want) {
			t.Fatalf("available service packages = %v, want %s among them", avail.JSON200.Services, want)
		}
	}
	installServicePackage(t, admin, "notification")
	installServicePackage(t, admin, "dispatcher")
	installed, err := admin.ListInstalledServicesWithResponse(ctx)
	must(t, err)
	for _, want := range []string{"notification", "dispatcher"} {
		if !slices.Contains(installed.JSON200.Services, want) {
			t.Errorf("installed services = %v, want %s among them", installed.JSON200.Services, want)
		}
	}

	// The plant: pymodbus's server through a modbus service, asyncua's
	// through an opcua service.
	mbPort, err := freePort()
	must(t, err)
	modbus := simtest.Simulator(t, "modbus_server.py", strconv.Itoa(mbPort))
	uaPort, err := freePort()
	must(t, err)
	ua := simtest.Simulator(t, "opcua_server.py", strconv.Itoa(uaPort), t.TempDir())
	plc, tank := unique("conf-plc"), unique("conf-tank")
	createSouth(t, admin, southDef{name: plc, plugin: "modbus", enabled: true, config: map[string]string{
		"url": "tcp://127.0.0.1:" + strconv.Itoa(mbPort), "pollInterval": "50",
		"map": `[{"asset":"` + tank + `","datapoint":"level","type":"holding","address":14},
			{"asset":"` + tank + `","datapoint":"alarm","type":"holding","address":15}]`,
	}})
	line, machine := unique("conf-line"), unique("conf-machine")+"/"
	createSouth(t, admin, southDef{name: line, plugin: "opcua", enabled: true, config: map[string]string{
		"endpoint":      fmt.Sprintf("opc.tcp://127.0.0.1:%d/edged/", uaPort),
		"nodes":         `["ns=2;s=Plant.Setpoint", "ns=2;s=Plant.Counter"]`,
		"assetNaming":   "parent",
		"assetPrefix":   machine,
		"methodsParent": "ns=2;s=Machine",
	}})
	eventually(t, time.Minute, "readings of both services", func() bool {
		return len(readingsOf(t, admin, tank)) > 0 && len(readingsOf(t, admin, machine+"Plant")) > 0
	})

	// The services: one of each kind per gateway.
	dispatcher := unique("conf-dispatch")
	if r := createHosted(t, admin, dispatcher, "dispatcher"); r.StatusCode() != http.StatusOK {
		t.Fatalf("create dispatcher: status %d; body %s", r.StatusCode(), truncate(r.Body))
	}
	// A second one conflicts with the current state: 409.
	r := createHosted(t, admin, unique("conf-dispatch"), "Dispatcher")
	checkError(t, r.StatusCode(), r.Body, http.StatusConflict)
	notifier := unique("conf-notify")
	if r := createHosted(t, admin, notifier, "notification"); r.StatusCode() != http.StatusOK {
		t.Fatalf("create notification service: status %d; body %s", r.StatusCode(), truncate(r.Body))
	}
	// The catalogue lists both service packages' plugins with the items
	// their services got.
	for name, typ := range map[string]edgeclient.PluginType{dispatcher: edgeclient.PluginTypeDispatcher, notifier: edgeclient.PluginTypeNotification} {
		got := listPlugins(t, admin, &edgeclient.ListInstalledPluginsParams{Type: &typ, Config: ptr(true)})
		if len(got) != 1 || got[0].Origin != edgeclient.PluginOriginPackage {
			t.Errorf("catalogue of %s plugins = %+v, want the package's", typ, got)
			continue
		}
		sameItems(t, string(typ), got[0].Config, getCategory(t, name))
	}
	for name, typ := range map[string]string{dispatcher: "Dispatcher", notifier: "Notification"} {
		eventually(t, time.Minute, name+" running", func() bool {
			rec := serviceRecord(t, admin, name)
			return rec != nil && rec.Type == typ && rec.Status == edgeclient.ServiceStatusRunning
		})
	}
	for _, code := range []edgeclient.AuditSource{edgeclient.NTFST, edgeclient.DSPST} {
		if auditCount(t, code) == 0 {
			t.Errorf("no %s audit entry", code)
		}
	}

	t.Run("control", func(t *testing.T) { checkControl(t, adminTok, dispatcher, line, plc, tank, machine, ua, modbus) })
	t.Run("notifications", func(t *testing.T) { checkNotifications(t, admin, plc, tank, modbus) })
	t.Run("notification errors", func(t *testing.T) { checkNotificationErrors(t, admin) })
	t.Run("fleet configuration", func(t *testing.T) { checkFleetNotifications(t, adminTok, tank) })
	t.Run("operation of a plugin in its own process", func(t *testing.T) { checkPackagedOperation(t, admin) })

	// A killed service process comes back, and serves again.
	pids := pluginProcesses(t, "dispatcher")
	if len(pids) != 1 {
		t.Fatalf("processes of the dispatcher = %v, want one", pids)
	}
	must(t, syscall.Kill(pids[0], syscall.SIGKILL))
	eventually(t, time.Minute, "a control write after the dispatcher's process was killed", func() bool {
		now := pluginProcesses(t, "dispatcher")
		return len(now) == 1 && now[0] != pids[0] &&
			controlWrite(t, admin, edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 12.5}).StatusCode() == http.StatusOK
	})
	simtest.WaitLine(t, ua, 30*time.Second, "the OPC UA server seeing 12.5", func(l string) bool { return l == "VALUE Setpoint 12.5" })

	// Disabled, the dispatcher takes nothing; enabled again, it serves.
	stops := auditCount(t, edgeclient.DSPSD)
	setSchedule(t, admin, dispatcher, false)
	if n := auditCount(t, edgeclient.DSPSD); n <= stops {
		t.Errorf("DSPSD entries = %d after disabling the dispatcher, want more than %d", n, stops)
	}
	w = controlWrite(t, admin, edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 14.5})
	checkError(t, w.StatusCode(), w.Body, http.StatusConflict)
	setSchedule(t, admin, dispatcher, true)
	eventually(t, time.Minute, "a control write once the dispatcher is enabled again", func() bool {
		return controlWrite(t, admin, edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 14.5}).StatusCode() == http.StatusOK
	})

	// Deleting the services stops their processes and audits it.
	before := auditCount(t, edgeclient.NTFSD)
	del, err := admin.DeleteServiceWithResponse(ctx, notifier)
	must(t, err)
	wantStatus(t, "deleteService "+notifier, del.StatusCode(), del.Body, http.StatusOK)
	if n := auditCount(t, edgeclient.NTFSD); n <= before {
		t.Errorf("NTFSD entries = %d after deleting the notification service, want more than %d", n, before)
	}
	eventually(t, 30*time.Second, "the notification process gone", func() bool { return len(pluginProcesses(t, "notification")) == 0 })
}

// checkControl drives the dispatcher: writes and an operation on the OPC
// UA server as the control role, every other role refused, every refusal
// and failure with its status, and the audit trail.
func checkControl(t *testing.T, adminTok, dispatcher, line, plc, tank, machine string, ua, modbus *simtest.Process) {
	admin := apiAs(t, adminTok)
	ctx := t.Context()
	tokenOf := func(role int) (*edgeclient.ClientWithResponses, string) {
		u, pw := newUser(t, adminTok, role, "")
		return apiAs(t, loginUser(t, u.UserName, pw).Token), u.UserName
	}
	control, controller := tokenOf(5)
	viewer, _ := tokenOf(3)
	user, _ := tokenOf(2)

	w := controlWrite(t, control, edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 33.5})
	wantStatus(t, "controlWrite as control", w.StatusCode(), w.Body, http.StatusOK)
	if len(w.JSON200.Results) != 1 || w.JSON200.Results[0].Service != line {
		t.Errorf("results = %+v, want one for %s", w.JSON200.Results, line)
	}
	simtest.WaitLine(t, ua, 30*time.Second, "the OPC UA server seeing 33.5", func(l string) bool { return l == "VALUE Setpoint 33.5" })
	eventually(t, 30*time.Second, "the new setpoint read back", func() bool {
		rs := readingsOf(t, admin, machine+"Plant")
		return len(rs) > 0 && rs[len(rs)-1]["Setpoint"] == 33.5 || slices.ContainsFunc(rs, func(r map[string]any) bool { return r["Setpoint"] == 33.5 })
	})
	for _, c := range []*edgeclient.ClientWithResponses{viewer, user} {
		w := controlWrite(t, c, edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 1.0})
		checkError(t, w.StatusCode(), w.Body, http.StatusForbidden)
	}
	// Without a token: 401 in either mode (decisions §2).
	w = controlWrite(t, apiAnonymous(t), edgeclient.ControlDestinationService, line, map[string]any{"Setpoint": 1.0})
	checkError(t, w.StatusCode(), w.Body, http.StatusUnauthorized)

	op, err := control.ControlOperationWithResponse(ctx, edgeclient.ControlOperationRequest{Destination: edgeclient.ControlDestinationAsset,
		Name: ptr(machine + "Plant"), Operation: "Reset", Parameters: &map[string]edgeclient.ControlValue{"counter": number(t, 5)}})
	must(t, err)
	wantStatus(t, "controlOperation Reset", op.StatusCode(), op.Body, http.StatusOK)
	simtest.WaitLine(t, ua, 30*time.Second, "the OPC UA server running Reset(5)", func(l string) bool { return l == "RESET 5" })

	// A setpoint of the Modbus service by asset, seen by the simulator.
	w = controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"alarm": 7.0})
	wantStatus(t, "controlWrite to the Modbus asset", w.StatusCode(), w.Body, http.StatusOK)
	simtest.WaitLine(t, modbus, 30*time.Second, "the Modbus server seeing register 15 set to 7", func(l string) bool {
		return strings.Contains(l, `"address": 15`) && strings.Contains(l, `[7]`)
	})

	refusals := []struct {
		name   string
		send   func() (int, []byte)
		status int
	}{
		{"unknown service", func() (int, []byte) {
			r := controlWrite(t, admin, edgeclient.ControlDestinationService, unique("nope"), map[string]any{"x": 1.0})
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"unknown asset", func() (int, []byte) {
			r := controlWrite(t, admin, edgeclient.ControlDestinationAsset, unique("nope"), map[string]any{"x": 1.0})
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"datapoint the plugin does not write", func() (int, []byte) {
			r := controlWrite(t, admin, edgeclient.ControlDestinationService, plc, map[string]any{"pressure": 1.0})
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"operation of a plugin without operations", func() (int, []byte) {
			r, err := admin.ControlOperationWithResponse(ctx, edgeclient.ControlOperationRequest{Destination: edgeclient.ControlDestinationService, Name: &plc, Operation: "Reset"})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"operation the device refuses", func() (int, []byte) {
			r, err := admin.ControlOperationWithResponse(ctx, edgeclient.ControlOperationRequest{Destination: edgeclient.ControlDestinationService, Name: &line, Operation: "Halt"})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadGateway},
		{"service without a name", func() (int, []byte) {
			r := controlWrite(t, admin, edgeclient.ControlDestinationService, "", map[string]any{"x": 1.0})
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"unknown destination kind", func() (int, []byte) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/control/write", ctype: "application/json",
				headers: map[string]string{"Authorization": adminTok}, body: strings.NewReader(`{"destination":"everyone","values":{"x":1}}`)})
			return r.status, r.body
		}, http.StatusBadRequest},
		{"no values", func() (int, []byte) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/control/write", ctype: "application/json",
				headers: map[string]string{"Authorization": adminTok}, body: strings.NewReader(`{"destination":"service","name":"x","values":{}}`)})
			return r.status, r.body
		}, http.StatusBadRequest},
	}
	for _, rf := range refusals {
		t.Run(rf.name, func(t *testing.T) {
			status, body := rf.send()
			checkError(t, status, body, rf.status)
		})
	}

	// Every control request is audited with its caller and outcome.
	entries := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.CTLWR), Limit: ptr(100)})
	found, refused := false, false
	for _, e := range entries.Audit {
		d := e.Details
		if d["caller"] == controller && d["name"] == line && e.Severity == edgeclient.INFORMATION {
			found = true
		}
		if d["name"] == plc && e.Severity == edgeclient.FAILURE {
			refused = true
		}
	}
	if !refused {
		t.Error("no CTLWR FAILURE entry of the refused write to the Modbus service")
	}
	if !found {
		t.Errorf("no CTLWR entry of the control user's write to %s: %+v", line, entries.Audit)
	}
	if n := auditCount(t, edgeclient.CTLOP); n == 0 {
		t.Error("no CTLOP entry")
	}

	t.Run("full queue", func(t *testing.T) { checkControlQueueFull(t, admin, dispatcher, line, ua) })
}

// checkControlQueueFull fills the queue of a service: with the
// dispatcher's queueLength at 1, an operation the OPC UA server holds runs,
// one more request waits, and the one after is refused with 429 and
// Retry-After, as documented, until the server answers.
func checkControlQueueFull(t *testing.T, admin *edgeclient.ClientWithResponses, dispatcher, line string, ua *simtest.Process) {
	setItem := func(value string) {
		r, err := admin.SetCategoryItemWithResponse(context.Background(), dispatcher, "queueLength", edgeclient.SetCategoryItemJSONRequestBody{Value: value})
		must(t, err)
		wantStatus(t, "set queueLength", r.StatusCode(), r.Body, http.StatusOK)
	}
	setItem("1")
	t.Cleanup(func() { setItem("16") })
	type answer struct {
		status int
		body   []byte
		header http.Header
	}
	var wg sync.WaitGroup
	hold := func(out chan<- answer) {
		wg.Go(func() {
			r, err := admin.ControlOperationWithResponse(context.Background(), edgeclient.ControlOperationRequest{
				Destination: edgeclient.ControlDestinationService, Name: &line, Operation: "Hold"})
			if err != nil {
				out <- answer{body: []byte(err.Error())}
				return
			}
			out <- answer{r.StatusCode(), r.Body, r.HTTPResponse.Header}
		})
	}
	released := false
	release := func() {
		if !released {
			released = true
			_, err := io.WriteString(ua.Stdin, "release\n")
			must(t, err)
		}
	}
	defer wg.Wait() // every request answered before the test ends, whatever happened
	defer release()

	first := make(chan answer, 1)
	hold(first)
	simtest.WaitLine(t, ua, 30*time.Second, "the OPC UA server holding the first operation", func(l string) bool { return l == "HOLDING" })
	// Two more: one fills the queue, the other finds it full, in
	// whichever order they arrive.
	more := make(chan answer, 2)
	hold(more)
	hold(more)
	full := <-more
	if full.status != http.StatusTooManyRequests {
		t.Fatalf("a request to a service with a full queue: status %d, want 429; body %s", full.status, truncate(full.body))
	}
	checkError(t, full.status, full.body, http.StatusTooManyRequests)
	if ra, err := strconv.Atoi(full.header.Get("Retry-After")); err != nil || ra < 1 {
		t.Errorf("Retry-After of the full queue's 429 = %q, want seconds", full.header.Get("Retry-After"))
	}
	release()
	for _, what := range []string{"the held operation", "the queued operation"} {
		var a answer
		if what == "the held operation" {
			a = <-first
		} else {
			a = <-more
		}
		wantStatus(t, what, a.status, a.body, http.StatusOK)
	}
}

// number is a control value holding n.
func number(t *testing.T, n float64) edgeclient.ControlValue {
	t.Helper()
	var v edgeclient.ControlValue
	must(t, v.FromControlValue0(n))
	return v
}

// notificationBody is the create body of an instance on the tank's level.
func notificationBody(name, typ, channel, tank string, deliveryConfig map[string]string) edgeclient.NotificationCreate {
	nt := edgeclient.NotificationType(typ)
	return edgeclient.NotificationCreate{Name: name, Rule: "threshold", Channel: channel, NotificationType: nt,
		RuleConfig:     &edgeclient.NotificationConfigValues{"asset": tank, "datapoint": "level", "condition": ">", "value": "50"},
		DeliveryConfig: ptr(edgeclient.NotificationConfigValues(deliveryConfig))}
}

// checkNotifications creates instances of every type on the Modbus tank's
// level, moves the level across the threshold through the dispatcher and
// back, and checks what each channel delivered.
func checkNotifications(t *testing.T, admin *edgeclient.ClientWithResponses, plc, tank string, modbus *simtest.Process) {
	ctx := t.Context()
	plugins, err := admin.ListNotificationPluginsWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listNotificationPlugins", plugins.StatusCode(), plugins.Body, http.StatusOK)
	names := func(ps []edgeclient.NotificationPlugin) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		slices.Sort(out)
		return out
	}
	if got := names(plugins.JSON200.Rules); !slices.Equal(got, []string{"data_availability", "outofbound", "statistic", "threshold"}) {
		t.Errorf("rule plugins %v", got)
	}
	if got := names(plugins.JSON200.Delivery); !slices.Equal(got, []string{"asset", "email", "mqtt", "setpoint", "webhook"}) {
		t.Errorf("delivery plugins %v", got)
	}
	types, err := admin.ListNotificationTypesWithResponse(ctx)
	must(t, err)
	wantStatus(t, "listNotificationTypes", types.StatusCode(), types.Body, http.StatusOK)

	// The level starts low.
	w := controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"level": 10.0})
	wantStatus(t, "controlWrite level 10", w.StatusCode(), w.Body, http.StatusOK)
	eventually(t, 30*time.Second, "level 10 read back", func() bool { return lastValue(t, admin, tank, "level") == 10.0 })

	hook := newHookReceiver(t)
	webhook := func(path string) map[string]string {
		return map[string]string{"url": hook.srv.URL + path, "retries": "0", "timeout": "5"}
	}
	once, toggled, retrig, setpoint := unique("conf-once"), unique("conf-toggled"), unique("conf-retrig"), unique("conf-setpoint")
	created := createNotification(t, admin, notificationBody(once, "one shot", "webhook", tank, webhook("/once")))
	if created.Name != once || created.Rule != "threshold" || created.Channel != "webhook" || !created.Enable ||
		created.RuleConfig["value"].Value != "50" || created.DeliveryConfig["url"].Value != hook.srv.URL+"/once" {
		t.Errorf("created %+v", created)
	}
	createNotification(t, admin, notificationBody(toggled, "toggled", "webhook", tank, webhook("/toggled")))
	body := notificationBody(retrig, "retriggered", "webhook", tank, webhook("/retrig"))
	body.RetriggerTime = ptr(1.0)
	createNotification(t, admin, body)
	createNotification(t, admin, notificationBody(setpoint, "toggled", "setpoint", tank, map[string]string{
		"destination": "service", "name": plc, "values": `{"alarm": 1}`, "clearValues": `{"alarm": 0}`}))
	alarms := unique("conf-alarms")
	ch, err := admin.AddNotificationChannelWithResponse(ctx, once, edgeclient.NotificationChannelCreate{Name: "log", Plugin: "asset",
		Config: &edgeclient.NotificationConfigValues{"asset": alarms}})
	must(t, err)
	wantStatus(t, "addNotificationChannel", ch.StatusCode(), ch.Body, http.StatusOK)
	// E-mail to an SMTP server that demands STARTTLS and a login.
	cert := simtest.NewServerTLS(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	must(t, os.WriteFile(caFile, []byte(cert.CAPEM), 0o600))
	smtpPort, err := freePort()
	must(t, err)
	smtp := simtest.Simulator(t, "smtp_server.py", strconv.Itoa(smtpPort), "--cert", cert.CertFile, "--key", cert.KeyFile,
		"--user", "edge", "--password", "s3cret")
	mail, err := admin.AddNotificationChannelWithResponse(ctx, toggled, edgeclient.NotificationChannelCreate{Name: "mail", Plugin: "email",
		Config: &edgeclient.NotificationConfigValues{"host": "127.0.0.1", "port": strconv.Itoa(smtpPort), "from": "gateway@example.com",
			"to": "ops@example.com", "username": "edge", "password": "s3cret", "starttls": "required", "caFile": caFile}})
	must(t, err)
	wantStatus(t, "addNotificationChannel mail", mail.StatusCode(), mail.Body, http.StatusOK)
	if got := mail.JSON200.Config["password"].Value; got != "****" {
		t.Errorf("the channel's password reads back as %q, want it masked", got)
	}
	sentBefore := auditCount(t, edgeclient.NTFSN)
	clearedBefore := auditCount(t, edgeclient.NTFCL)

	// Above the threshold: every instance sends.
	w = controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"level": 80.0})
	wantStatus(t, "controlWrite level 80", w.StatusCode(), w.Body, http.StatusOK)
	eventually(t, 30*time.Second, "the one shot and toggled webhooks", func() bool {
		return len(hook.docs("/once")) >= 1 && len(hook.docs("/toggled")) >= 1
	})
	simtest.WaitLine(t, modbus, 30*time.Second, "the setpoint delivery writing alarm 1", func(l string) bool {
		return strings.Contains(l, `"address": 15`) && strings.Contains(l, `[1]`)
	})
	eventually(t, 30*time.Second, "the asset channel's reading", func() bool { return len(readingsOf(t, admin, alarms)) >= 1 })
	line := simtest.WaitLine(t, smtp, 30*time.Second, "the e-mail", func(l string) bool { return strings.HasPrefix(l, "MESSAGE ") })
	var msg struct {
		To   []string
		Data string
		TLS  bool
		User *string
	}
	must(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "MESSAGE ")), &msg))
	if !msg.TLS || msg.User == nil || *msg.User != "edge" || !slices.Equal(msg.To, []string{"ops@example.com"}) || !strings.Contains(msg.Data, toggled) {
		t.Errorf("the SMTP server got %+v, want a message about %s over TLS after a login as edge", msg, toggled)
	}
	eventually(t, 30*time.Second, "the retriggered webhook sending again", func() bool { return len(hook.docs("/retrig")) >= 3 })
	doc := hook.docs("/once")[0]
	if doc["notification"] != once || doc["state"] != "triggered" || doc["asset"] != tank || doc["rule"] != "threshold" {
		t.Errorf("webhook document %v", doc)
	}
	at := hook.times("/retrig")
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < 900*time.Millisecond {
			t.Errorf("retriggered notification sent %v after the previous one, before its retrigger time of 1 s", gap)
		}
	}
	if n := auditCount(t, edgeclient.NTFSN); n <= sentBefore {
		t.Errorf("NTFSN entries = %d, want more than %d", n, sentBefore)
	}

	// Back below: the toggled ones clear, the one shot stays quiet.
	w = controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"level": 20.0})
	wantStatus(t, "controlWrite level 20", w.StatusCode(), w.Body, http.StatusOK)
	eventually(t, 30*time.Second, "the toggled webhook's clearing", func() bool {
		return slices.Equal(hook.states("/toggled"), []string{"triggered", "cleared"})
	})
	simtest.WaitLine(t, modbus, 30*time.Second, "the setpoint delivery writing alarm 0 on clearing", func(l string) bool {
		return strings.Contains(l, `"address": 15`) && strings.Contains(l, `[0]`)
	})
	if n := auditCount(t, edgeclient.NTFCL); n < clearedBefore+2 {
		t.Errorf("NTFCL entries = %d, want at least %d (two toggled instances cleared)", n, clearedBefore+2)
	}
	if got := hook.states("/once"); !slices.Equal(got, []string{"triggered"}) {
		t.Errorf("one shot sent %v, want one triggered", got)
	}
	settled := len(hook.docs("/retrig"))
	time.Sleep(2 * time.Second)
	if got := len(hook.docs("/retrig")); got != settled {
		t.Errorf("retriggered notification sent %d more after its rule stopped holding", got-settled)
	}

	// Above again: the one shot sends a second time.
	w = controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"level": 90.0})
	wantStatus(t, "controlWrite level 90", w.StatusCode(), w.Body, http.StatusOK)
	eventually(t, 30*time.Second, "the one shot sending again", func() bool { return len(hook.docs("/once")) == 2 })

	// A disabled instance sends nothing.
	up, err := admin.UpdateNotificationWithResponse(ctx, toggled, edgeclient.NotificationUpdate{Enabled: ptr(false)})
	must(t, err)
	wantStatus(t, "updateNotification", up.StatusCode(), up.Body, http.StatusOK)
	if up.JSON200.Enable {
		t.Error("updated instance still enabled")
	}
	sent := len(hook.docs("/toggled"))
	w = controlWrite(t, admin, edgeclient.ControlDestinationAsset, tank, map[string]any{"level": 5.0})
	wantStatus(t, "controlWrite level 5", w.StatusCode(), w.Body, http.StatusOK)
	eventually(t, 30*time.Second, "level 5 read back", func() bool { return lastValue(t, admin, tank, "level") == 5.0 })
	time.Sleep(time.Second)
	if got := len(hook.docs("/toggled")); got != sent {
		t.Errorf("a disabled instance sent %d notifications", got-sent)
	}

	// An extra channel deleted: gone from the instance, audited NTFDL
	// with its name.
	deleted := auditCount(t, edgeclient.NTFDL)
	del, err := admin.DeleteNotificationChannelWithResponse(ctx, once, "log")
	must(t, err)
	wantStatus(t, "deleteNotificationChannel", del.StatusCode(), del.Body, http.StatusOK)
	chs, err := admin.ListNotificationChannelsWithResponse(ctx, once)
	must(t, err)
	wantStatus(t, "listNotificationChannels", chs.StatusCode(), chs.Body, http.StatusOK)
	if slices.ContainsFunc(chs.JSON200.Channels, func(c edgeclient.NotificationChannel) bool { return c.Name == "log" }) {
		t.Errorf("channel log still listed after its deletion: %+v", chs.JSON200.Channels)
	}
	if n := auditCount(t, edgeclient.NTFDL); n != deleted+1 {
		t.Errorf("NTFDL entries = %d after deleting a channel, want %d", n, deleted+1)
	} else if e := listAudit(t, edgeclient.ListAuditEntriesParams{Source: ptr(edgeclient.NTFDL), Limit: ptr(1)}).Audit[0]; e.Details["name"] != once || e.Details["channel"] != "log" {
		t.Errorf("the channel's NTFDL entry has details %v, want name %s and channel log", e.Details, once)
	}
}

// lastValue returns datapoint of the newest reading of asset (nil when
// there is none).
func lastValue(t *testing.T, c *edgeclient.ClientWithResponses, asset, datapoint string) any {
	t.Helper()
	resp, err := c.GetAssetReadingsWithResponse(t.Context(), asset, &edgeclient.GetAssetReadingsParams{Limit: ptr(1)})
	must(t, err)
	if resp.JSON200 == nil || len(*resp.JSON200) == 0 {
		return nil
	}
	return (*resp.JSON200)[0].Reading[datapoint]
}

// checkNotificationErrors sends every notification call something it must
// refuse.
func checkNotificationErrors(t *testing.T, admin *edgeclient.ClientWithResponses) {
	ctx := t.Context()
	name := unique("conf-errs")
	hook := map[string]string{"url": "http://127.0.0.1:9/hook"}
	createNotification(t, admin, notificationBody(name, "one shot", "webhook", "conf-none", hook))
	missing := unique("conf-missing")
	cases := []struct {
		name   string
		send   func() (int, []byte)
		status int
	}{
		{"create with an unknown rule", func() (int, []byte) {
			b := notificationBody(unique("conf-e"), "one shot", "webhook", "a", hook)
			b.Rule = "nope"
			r, err := admin.CreateNotificationWithResponse(ctx, b)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"create with an unknown delivery", func() (int, []byte) {
			r, err := admin.CreateNotificationWithResponse(ctx, notificationBody(unique("conf-e"), "one shot", "pigeon", "a", hook))
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"create with a value breaking its item", func() (int, []byte) {
			b := notificationBody(unique("conf-e"), "one shot", "webhook", "a", hook)
			(*b.RuleConfig)["value"] = "hot"
			r, err := admin.CreateNotificationWithResponse(ctx, b)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"create without a mandatory item", func() (int, []byte) {
			b := notificationBody(unique("conf-e"), "one shot", "webhook", "a", map[string]string{})
			r, err := admin.CreateNotificationWithResponse(ctx, b)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"create with a name taken", func() (int, []byte) {
			r, err := admin.CreateNotificationWithResponse(ctx, notificationBody(name, "one shot", "webhook", "a", hook))
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusConflict},
		{"create with an unknown type", func() (int, []byte) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/notification", ctype: "application/json",
				body: strings.NewReader(`{"name":"x","rule":"threshold","channel":"webhook","notification_type":"twice"}`)})
			return r.status, r.body
		}, http.StatusBadRequest},
		{"create without a rule", func() (int, []byte) {
			r := doRaw(t, rawRequest{method: http.MethodPost, path: "/edge/notification", ctype: "application/json",
				body: strings.NewReader(`{"name":"x","channel":"webhook","notification_type":"one shot"}`)})
			return r.status, r.body
		}, http.StatusBadRequest},
		{"get an unknown instance", func() (int, []byte) {
			r, err := admin.GetNotificationWithResponse(ctx, missing)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"update an unknown instance", func() (int, []byte) {
			r, err := admin.UpdateNotificationWithResponse(ctx, missing, edgeclient.NotificationUpdate{Enabled: ptr(true)})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"update with a value breaking its item", func() (int, []byte) {
			r, err := admin.UpdateNotificationWithResponse(ctx, name, edgeclient.NotificationUpdate{RuleConfig: &edgeclient.NotificationConfigValues{"value": "x"}})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"update with nothing", func() (int, []byte) {
			r := doRaw(t, rawRequest{method: http.MethodPut, path: "/edge/notification/" + name, ctype: "application/json", body: strings.NewReader(`{}`)})
			return r.status, r.body
		}, http.StatusBadRequest},
		{"delete an unknown instance", func() (int, []byte) {
			r, err := admin.DeleteNotificationWithResponse(ctx, missing)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"channels of an unknown instance", func() (int, []byte) {
			r, err := admin.ListNotificationChannelsWithResponse(ctx, missing)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"an unknown channel", func() (int, []byte) {
			r, err := admin.GetNotificationChannelWithResponse(ctx, name, "nope")
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"a channel of an unknown delivery", func() (int, []byte) {
			r, err := admin.AddNotificationChannelWithResponse(ctx, name, edgeclient.NotificationChannelCreate{Name: "x", Plugin: "pigeon"})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
		{"a channel named as the instance", func() (int, []byte) {
			r, err := admin.AddNotificationChannelWithResponse(ctx, name, edgeclient.NotificationChannelCreate{Name: name, Plugin: "webhook",
				Config: &edgeclient.NotificationConfigValues{"url": "http://127.0.0.1:9/"}})
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusConflict},
		{"delete the instance's own channel", func() (int, []byte) {
			r, err := admin.DeleteNotificationChannelWithResponse(ctx, name, name)
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusBadRequest},
		{"delete an unknown channel", func() (int, []byte) {
			r, err := admin.DeleteNotificationChannelWithResponse(ctx, name, "nope")
			must(t, err)
			return r.StatusCode(), r.Body
		}, http.StatusNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := c.send()
			checkError(t, status, body, c.status)
		})
	}
	// The instance's categories hold its configuration, changed live.
	setItem(t, "rule"+name, "value", "75")
	got, err := admin.GetNotificationWithResponse(ctx, name)
	must(t, err)
	wantStatus(t, "getNotification", got.StatusCode(), got.Body, http.StatusOK)
	if got.JSON200.RuleConfig["value"].Value != "75" {
		t.Errorf("rule value after a category change = %q", got.JSON200.RuleConfig["value"].Value)
	}
	chs, err := admin.ListNotificationChannelsWithResponse(ctx, name)
	must(t, err)
	wantStatus(t, "listNotificationChannels", chs.StatusCode(), chs.Body, http.StatusOK)
	if len(chs.JSON200.Channels) != 1 || chs.JSON200.Channels[0].Name != name || chs.JSON200.Channels[0].Category != "delivery"+name {
		t.Errorf("channels %+v", chs.JSON200.Channels)
	}
	del, err := admin.DeleteNotificationWithResponse(ctx, name)
	must(t, err)
	wantStatus(t, "deleteNotification", del.StatusCode(), del.Body, http.StatusOK)
	wantNoCategory(t, "rule"+name)
}

// checkPackagedOperation runs an operation through the dispatcher on a
// south plugin of a package, running in its own process, as on a built-in
// one: the CSV plugin's rewind reads its file again; what it does not
// offer or take is refused naming the service.
func checkPackagedOperation(t *testing.T, admin *edgeclient.ClientWithResponses) {
	ctx := t.Context()
	inst, err := admin.InstallPluginWithResponse(ctx, edgeclient.PackageInstallRequest{Format: edgeclient.Repository, Name: "csv_south"})
	must(t, err)
	wantStatus(t, "installPlugin csv_south", inst.StatusCode(), inst.Body, http.StatusOK)
	if task := awaitTask(t, admin, inst.JSON200.Id); !succeeded(task) {
		t.Fatalf("install task of csv_south = %+v", task)
	}
	t.Cleanup(func() {
		r, err := admin.RemovePackageWithResponse(context.Background(), "csv_south")
		if err == nil && r.StatusCode() != http.StatusOK && r.StatusCode() != http.StatusNotFound {
			t.Errorf("clean up package csv_south: status %d; body %s", r.StatusCode(), truncate(r.Body))
		}
	})
	csv := filepath.Join(t.TempDir(), "rows.csv")
	must(t, os.WriteFile(csv, []byte("level\n1\n2\n"), 0o644))
	name, asset := unique("conf-csv-op"), unique("conf-csv-op")
	createSouth(t, admin, southDef{name: name, plugin: "csv_south", enabled: true,
		config: map[string]string{"file": csv, "asset": asset, "rate": "50", "loop": "false"}})
	count := func() int64 {
		s := southRecord(t, admin, name)
		if s == nil || len(s.Assets) == 0 {
			return 0
		}
		return s.Assets[0].Count
	}
	eventually(t, time.Minute, "both rows read", func() bool { return count() == 2 })
	operate := func(operation string, params *map[string]edgeclient.ControlValue) *edgeclient.ControlOperationResponse {
		r, err := admin.ControlOperationWithResponse(ctx, edgeclient.ControlOperationRequest{Destination: edgeclient.ControlDestinationService,
			Name: &name, Operation: operation, Parameters: params})
		must(t, err)
		return r
	}
	op := operate("rewind", nil)
	wantStatus(t, "controlOperation rewind", op.StatusCode(), op.Body, http.StatusOK)
	if len(op.JSON200.Results) != 1 || op.JSON200.Results[0].Service != name {
		t.Errorf("results = %+v, want one for %s", op.JSON200.Results, name)
	}
	eventually(t, time.Minute, "the rows read again after the rewind", func() bool { return count() == 4 })
	for what, r := range map[string]*edgeclient.ControlOperationResponse{
		"an operation the plugin does not offer": operate("launch", nil),
		"parameters the operation does not take": operate("rewind", &map[string]edgeclient.ControlValue{"row": number(t, 3)}),
	} {
		if msg := checkError(t, r.StatusCode(), r.Body, http.StatusBadRequest); !strings.Contains(msg, name) {
			t.Errorf("%s: message %q does not name the service", what, msg)
		}
	}
}
