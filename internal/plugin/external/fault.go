package external

import (
	"fmt"

	"github.com/edged/edged/internal/plugin/faultcode"
)

// serviceFault turns an error of a call to a service process into the
// gateway's: a *fault.Fault of the kind of its code whose message is the
// service's (faultcode, the one table of codes and kinds), or for
// CodeInternal a plain error naming the plugin.
func serviceFault(plugin string, err error) error {
	if err == nil {
		return nil
	}
	if faultcode.Kind(err) != nil {
		return faultcode.Fault(err)
	}
	return fmt.Errorf("service plugin %q: %w", plugin, err)
}
