package assets

import (
	"testing"

	"github.com/edged/edged/internal/plugin/plugintest"
)

// TestDefinition: the filter's items are derived from its configuration
// struct, and its defaults make a filter that processes a batch.
func TestDefinition(t *testing.T) { plugintest.CheckFilter(t, Definition(), Config{}) }
