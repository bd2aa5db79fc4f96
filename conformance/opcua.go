package conformance

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/edged/edged/internal/simtest"
)

// testOPCUAService subscribes to asyncua's server through an opcua south
// service: the variables become readings of their parent's asset, and a
// change at the server becomes a new reading.
func testOPCUAService(t *testing.T) {
	counterpartsHere(t)
	port, err := freePort()
	must(t, err)
	sim := simtest.Simulator(t, "opcua_server.py", strconv.Itoa(port), t.TempDir()).Stdin
	c := api(t)
	prefix := unique("conf-ua") + "/"
	name := unique("conf-opcua")
	createSouth(t, c, southDef{name: name, plugin: "opcua", enabled: true, config: map[string]string{
		"endpoint":           fmt.Sprintf("opc.tcp://127.0.0.1:%d/edged/", port),
		"nodes":              `["ns=2;s=Plant.Temperature", "ns=2;s=Plant.Counter", "ns=2;s=Plant.Running"]`,
		"assetNaming":        "parent",
		"assetPrefix":        prefix,
		"publishingInterval": "100",
	}})
	asset := prefix + "Plant"
	// latest merges the datapoints of the asset's stored readings, oldest
	// first, so later values win.
	latest := func() map[string]any {
		got := map[string]any{}
		for _, r := range readingsOf(t, c, asset) {
			for k, v := range r {
				got[k] = v
			}
		}
		return got
	}
	eventually(t, 60*time.Second, "the variables' first values stored", func() bool { return len(latest()) == 3 })
	want := map[string]any{"Temperature": 20.5, "Counter": 7.0, "Running": true}
	if got := latest(); !jsonEqual(t, got, want) {
		t.Errorf("first values %v, want %v", got, want)
	}
	if _, err := fmt.Fprintln(sim, "set Temperature 42.5"); err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "the server's change stored", func() bool { return latest()["Temperature"] == 42.5 })
}
