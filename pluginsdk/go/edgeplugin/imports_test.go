package edgeplugin

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestNoTestingInPlugins: the packages a plugin binary links from this
// SDK do not import package testing; the harness that needs it is package
// plugintest, which only a plugin's tests import. (go-plugin itself
// imports testing for its own test helpers; only that package's
// initialisation is linked, no flags are registered.)
func TestNoTestingInPlugins(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \",\"}}",
		"github.com/edged/edged/pluginsdk/go/edgeplugin", "github.com/edged/edged/pluginsdk/go/pluginpb").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for line := range strings.Lines(strings.TrimSpace(string(out))) {
		pkg, imports, _ := strings.Cut(strings.TrimSpace(line), ":")
		if slices.Contains(strings.Split(imports, ","), "testing") {
			t.Errorf("%s imports package testing, which every plugin binary would then link", pkg)
		}
	}
}
