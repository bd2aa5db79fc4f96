package impl_test

import (
	"os"
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
