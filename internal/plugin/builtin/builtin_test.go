package builtin

import (
	"slices"
	"testing"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
)

func TestRegistry(t *testing.T) {
	r := Registry()
	if got := r.Names(plugin.KindSouth); !slices.Equal(got, []string{"http_south", "modbus", "mqtt_south", "opcua", "sinusoid", "systeminfo"}) {
		t.Errorf("south plugins = %v", got)
	}
	if got := r.Names(plugin.KindNorth); !slices.Equal(got, []string{"http_north", "mqtt_north", "nats_north"}) {
		t.Errorf("north plugins = %v", got)
	}
	// The filters are in the one registry too: the pipelines and the
	// package manager find them there.
	if got := r.Names(plugin.KindFilter); !slices.Equal(got, []string{"assets", "delta", "downsample", "expression", "metadata", "rename", "scale"}) {
		t.Errorf("filter plugins = %v", got)
	}
	if got := r.Kinds(); !slices.Equal(got, []string{plugin.KindFilter, plugin.KindNorth, plugin.KindSouth}) {
		t.Errorf("kinds = %v", got)
	}
	for _, d := range Definitions() {
		t.Run(d.Name, func(t *testing.T) {
			if d.Version == "" || d.Description == "" {
				t.Errorf("definition lacks a version or description")
			}
			if _, err := configmgr.CheckValues("svc", d.Items, nil); err != nil {
				t.Errorf("items are not valid configuration: %v", err)
			}
		})
	}
}

func TestRegistryRefusesDuplicates(t *testing.T) {
	d := Definitions()[0]
	if _, err := plugin.NewRegistry(d, d); err == nil {
		t.Error("NewRegistry with a duplicate = nil")
	}
	if _, err := plugin.NewRegistry(plugin.Definition{Name: "x"}); err == nil {
		t.Error("NewRegistry with a definition lacking a constructor = nil")
	}
}
