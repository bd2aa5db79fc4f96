package builtin

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/edged/edged/internal/configmgr"
)

var updateItems = flag.Bool("update-items", false, "rewrite testdata/items.json from the definitions")

// TestItemsUnchanged: every built-in plugin's configuration items, derived
// from its typed configuration struct, are those the gateway showed
// before the structs (names, types, defaults, limits, order, display
// names): clients and conformance see them on the wire. A deliberate
// change updates testdata/items.json with -update-items.
func TestItemsUnchanged(t *testing.T) {
	got := map[string]map[string]configmgr.Item{}
	for _, d := range Definitions() {
		got[d.Name] = d.Items
	}
	path := filepath.Join("testdata", "items.json")
	if *updateItems {
		b, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(b, '\n'), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]map[string]configmgr.Item
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	for name, items := range want {
		if _, ok := got[name]; !ok {
			t.Errorf("plugin %s is gone", name)
			continue
		}
		for item, w := range items {
			g, ok := got[name][item]
			if !ok {
				t.Errorf("%s: item %s is gone", name, item)
				continue
			}
			gb, _ := json.Marshal(g)
			wb, _ := json.Marshal(w)
			if string(gb) != string(wb) {
				t.Errorf("%s: item %s\n got %s\nwant %s", name, item, gb, wb)
			}
		}
		for item := range got[name] {
			if _, ok := items[item]; !ok {
				t.Errorf("%s: item %s is new", name, item)
			}
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("plugin %s is new: run with -update-items", name)
		}
	}
}
