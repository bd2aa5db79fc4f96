package plugin

import (
	"slices"
	"testing"

	"github.com/edged/edged/internal/configmgr"
)

func TestCatalogue(t *testing.T) {
	south := func(Env, Config) (South, error) { return nil, nil }
	filter := func(FilterEnv, Config) (Filter, error) { return nil, nil }
	r, err := NewRegistry(
		Definition{Name: "b_south", Kind: KindSouth, Version: "1.0.0", Description: "B", New: south,
			Items: map[string]configmgr.Item{"rate": {Description: "Rate", Type: configmgr.TypeInteger, Default: "1", Order: "1", Value: "7", Options: []string{"x"}}}},
		Definition{Name: "a_south", Kind: KindSouth, Version: "2.0.0", Description: "A", New: south, External: true},
		Definition{Name: "scale", Kind: KindFilter, Version: "1.0.0", Description: "S", NewFilter: filter},
	)
	if err != nil {
		t.Fatal(err)
	}
	got := r.Catalogue()
	var names []string
	for _, e := range got {
		names = append(names, e.Kind+"/"+e.Name)
	}
	if want := []string{"filter/scale", "south/a_south", "south/b_south"}; !slices.Equal(names, want) {
		t.Fatalf("catalogue = %v, want %v", names, want)
	}
	b := got[2]
	if b.Version != "1.0.0" || b.Description != "B" || b.External || b.Items["rate"].Default != "1" || b.Items["rate"].Value != "" {
		t.Errorf("entry = %+v", b)
	}
	if !got[1].External {
		t.Errorf("an installed plugin's entry is not External")
	}
	b.Items["rate"].Options[0] = "changed"
	if d, _ := r.Lookup("b_south"); d.Items["rate"].Options[0] != "x" {
		t.Errorf("changing an entry changed the registry")
	}
}
