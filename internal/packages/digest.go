package packages

import (
	"encoding/json"
	"path/filepath"

	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/external"
)

// recordDigest records in p's manifest the digest of its executable as it
// is now (a package installed before digests were recorded) and returns it.
func (m *Manager) recordDigest(p Installed) (string, error) {
	digest, err := external.FileDigest(filepath.Join(p.Dir, executable))
	if err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(installedManifest{Package: p.Package, Executable: digest}, "", "  ")
	if err != nil {
		return "", err
	}
	return digest, durable.WriteFile(filepath.Join(p.Dir, manifest), b, 0o600)
}

// refused is the definition of an installed plugin whose executable
// changed since it was installed (why): it is registered so that the
// services using it fail at every start with the reason, rather than as a
// plugin unknown, and none of its instances ever starts the executable.
func refused(p pkgrepo.Package, why error) plugin.Definition {
	return plugin.Definition{Name: p.Name, Version: p.Version, Kind: p.Kind, Description: p.Description, External: true,
		New:        func(plugin.Env, plugin.Config) (plugin.South, error) { return nil, why },
		NewNorth:   func(plugin.NorthEnv, plugin.Config) (plugin.North, error) { return nil, why },
		NewFilter:  func(plugin.FilterEnv, plugin.Config) (plugin.Filter, error) { return nil, why },
		NewService: func(plugin.ServiceEnv, plugin.Config) (plugin.Service, error) { return nil, why }}
}
