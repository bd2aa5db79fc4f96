package pkgindex

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// ManifestFile is the name of the manifest inside an artifact.
const ManifestFile = "manifest.json"

// Executable is the name of the program inside an artifact that the gateway
// starts: a binary, or a launcher script.
const Executable = "plugin"

// Manifest is what an artifact says of itself (its manifest.json): the
// package it is a version of and the platforms ("os/arch") it runs on. A
// publisher reads it to list the artifact in the index; the gateway trusts
// the index's copy, not this one.
type Manifest struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	Type        string `json:"type"`
	Kind        string `json:"kind,omitempty"`
	Description string `json:"description"`
	// Platforms are the "os/arch" pairs the artifact runs on: one for a
	// compiled program, several for a script.
	Platforms []string `json:"platforms"`
}

// Package returns the index entry of m, without artifacts.
func (m Manifest) Package() Package {
	return Package{Name: m.Name, Version: m.Version, Type: m.Type, Kind: m.Kind, Description: m.Description}
}

// Validate tells whether m can be published.
func (m Manifest) Validate() error {
	switch {
	case m.Name == "" || m.Version == "":
		return errors.New("the manifest has no name or no version")
	case m.Type != TypePlugin && m.Type != TypeService:
		return fmt.Errorf("the manifest's type %q is neither %q nor %q", m.Type, TypePlugin, TypeService)
	case len(m.Platforms) == 0:
		return errors.New("the manifest lists no platform")
	}
	for _, p := range m.Platforms {
		if goos, goarch, ok := strings.Cut(p, "/"); !ok || goos == "" || goarch == "" || strings.Contains(goarch, "/") {
			return fmt.Errorf("platform %q is not os/arch", p)
		}
	}
	if len(slices.Compact(slices.Sorted(slices.Values(m.Platforms)))) != len(m.Platforms) {
		return errors.New("the manifest lists a platform twice")
	}
	return nil
}

// ReadManifest returns the manifest of the gzip'd tar artifact archive.
func ReadManifest(archive []byte) (Manifest, error) {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return Manifest{}, fmt.Errorf("not a gzip'd tar archive: %w", err)
	}
	tr := tar.NewReader(zr)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return Manifest{}, fmt.Errorf("the archive has no %s", ManifestFile)
		}
		if err != nil {
			return Manifest{}, fmt.Errorf("archive: %w", err)
		}
		if hdr.Name != ManifestFile {
			continue
		}
		var m Manifest
		if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(&m); err != nil {
			return Manifest{}, fmt.Errorf("%s: %w", ManifestFile, err)
		}
		return m, m.Validate()
	}
}
