package external

import (
	"os"
	"strings"

	"github.com/edged/edged/internal/configmgr"
)

// gatewayPrefix starts the names of the gateway's own settings
// (EDGE_ADMIN_PASSWORD, EDGE_DB, …): no plugin process sees them, whatever
// the allow-list says.
const gatewayPrefix = "EDGE_"

// Environ returns the environment of a plugin process: the variables of
// the gateway's environment environ ("NAME=value") whose names allow lists
// (Installation.pluginEnvironment: comma-separated names, NAME* for the
// names starting with NAME), without those of the gateway's own settings.
// A plugin sees nothing else of the gateway's environment, its secrets
// included; go-plugin adds its handshake variables.
func Environ(allow string, environ []string) []string {
	var exact, prefixes []string
	for n := range strings.SplitSeq(allow, ",") {
		n = strings.TrimSpace(n)
		switch {
		case n == "":
		case strings.HasSuffix(n, "*"):
			prefixes = append(prefixes, strings.TrimSuffix(n, "*"))
		default:
			exact = append(exact, n)
		}
	}
	allowed := func(name string) bool {
		if name == "" || strings.HasPrefix(name, gatewayPrefix) {
			return false
		}
		for _, n := range exact {
			if name == n {
				return true
			}
		}
		for _, p := range prefixes {
			if strings.HasPrefix(name, p) {
				return true
			}
		}
		return false
	}
	out := []string{}
	for _, kv := range environ {
		if name, _, ok := strings.Cut(kv, "="); ok && allowed(name) {
			out = append(out, kv)
		}
	}
	return out
}

// defaultEnviron is the environment of a plugin process Load starts
// without Options.Environment: the default allow-list's.
func defaultEnviron() []string {
	return Environ(configmgr.DefaultPluginEnvironment, os.Environ())
}
