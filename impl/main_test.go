package impl_test

import (
	"os"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestMain releases the gateways the scenario tests share.
func TestMain(m *testing.M) { os.Exit(scenario.Main(m)) }
