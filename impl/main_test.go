package impl_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestMain releases the gateways the scenario tests share.
func TestMain(m *testing.M) { os.Exit(scenario.Main(m)) }

// Short names for the scenario tables.
type (
	scn = scenario.Scenario
	env = scenario.Env
)

const (
	anon     = scenario.Anonymous
	admin    = scenario.Admin
	user     = scenario.User
	view     = scenario.View
	dataView = scenario.DataView
	control  = scenario.Control
)

// notHandlers are the files of impl that hold no handler: the server's
// construction and the error table (errors_test.go tests it).
var notHandlers = map[string]bool{"server.go": true, "errors.go": true}

// TestEveryHandlerFileHasScenarios: each handler file x.go of impl has
// x_scenario_test.go with a scenario table, so a new handler file comes
// with its scenarios. (scenario.Main checks, besides, that every
// operation of the contract is called by some scenario.)
func TestEveryHandlerFileHasScenarios(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	handlers := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || notHandlers[f] {
			continue
		}
		handlers++
		name := strings.TrimSuffix(f, ".go") + "_scenario_test.go"
		b, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s has no scenario tests: add %s (see impl/internal/scenario)", f, name)
			continue
		}
		if !strings.Contains(string(b), "scenario.Run(") {
			t.Errorf("%s runs no scenario table (scenario.Run)", name)
		}
	}
	if handlers == 0 {
		t.Fatal("no handler files found: the test runs in the wrong directory")
	}
}
