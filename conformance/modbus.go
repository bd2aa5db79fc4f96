package conformance

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/simtest"
)

// testModbusPipeline polls pymodbus's server through a modbus south
// service whose pipeline is scale → expression → delta: the registers
// become readings with the right values and types, transformed by the
// pipeline, and the constant values after the first are dropped.
func testModbusPipeline(t *testing.T) {
	counterpartsHere(t)
	port, err := freePort()
	must(t, err)
	simtest.Simulator(t, "modbus_server.py", strconv.Itoa(port))
	c := api(t)
	asset := unique("conf-plc")
	scale, expr, delta := unique("conf-mscale"), unique("conf-mexpr"), unique("conf-mdelta")
	createFilter(t, c, scale, "scale", map[string]string{"rules": `[{"datapoint":"level","factor":0.01,"offset":-100}]`})
	createFilter(t, c, expr, "expression", map[string]string{"expressions": `[{"name":"double","expression":"level * 2"}]`})
	createFilter(t, c, delta, "delta", map[string]string{"tolerance": "1"})
	name := unique("conf-modbus")
	createSouth(t, c, southDef{name: name, plugin: "modbus", enabled: false, config: map[string]string{
		"url":          "tcp://127.0.0.1:" + strconv.Itoa(port),
		"pollInterval": "50",
		"map": `[{"asset":"` + asset + `","datapoint":"level","type":"holding","address":1},
			{"asset":"` + asset + `","datapoint":"offset","type":"holding","address":0,"format":"int16"},
			{"asset":"` + asset + `","datapoint":"flow","type":"holding","address":6,"format":"float32"},
			{"asset":"` + asset + `","datapoint":"pump","type":"coil","address":0}]`,
	}})
	setPipeline(t, c, name, []string{scale, expr, delta}, false)
	setSchedule(t, c, name, true)

	// Polls keep coming with the same values: the delta filter drops
	// every one after the first.
	eventually(t, 30*time.Second, "the delta filter dropping repeated polls", func() bool {
		return statistics(t, c)[name+"-Filtered"] >= 3
	})
	got := readingsOf(t, c, asset)
	want := []map[string]any{{"level": 300.0, "double": 600.0, "offset": -123.0, "flow": 21.5, "pump": 1.0}}
	if !jsonEqual(t, got, want) {
		t.Errorf("stored %v, want %v", got, want)
	}
	// Tracking events are recorded beside the readings, not with them:
	// wait for all four rather than read them once.
	wantKinds := []string{"Ingest modbus", "Filter scale", "Filter expression", "Filter delta"}
	tracked := func() bool {
		kinds := map[string]bool{}
		for _, e := range trackingEvents(t, c, edgeclient.ListTrackingEventsParams{Asset: &asset, Service: &name}) {
			kinds[string(e.Event)+" "+e.Plugin] = true
		}
		for _, k := range wantKinds {
			if !kinds[k] {
				return false
			}
		}
		return true
	}
	eventually(t, 30*time.Second, "the tracking events "+strings.Join(wantKinds, ", ")+" of "+asset, tracked)
	rec := southRecord(t, c, name)
	if rec == nil || rec.Plugin.Name != "modbus" || southStatus(t, rec) != string(edgeclient.ServiceStatusRunning) {
		t.Errorf("south record = %+v", rec)
	}
	r, err := c.DeleteServiceWithResponse(t.Context(), name)
	must(t, err)
	wantStatus(t, "deleteService", r.StatusCode(), r.Body, http.StatusOK)
}
