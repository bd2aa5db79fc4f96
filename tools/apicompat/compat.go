package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/oasdiff/oasdiff/checker"
	"github.com/oasdiff/oasdiff/diff"
	"github.com/oasdiff/oasdiff/load"
)

// severity raises the level of the changes oasdiff reports below WARN that
// break a generated client of this contract: a response property removed,
// optional or not, is a field that disappears from the Go, Python and
// TypeScript SDKs' models, so code reading it no longer compiles.
var severity = map[string]checker.Level{
	checker.ResponseOptionalPropertyRemovedId: checker.ERR,
}

// versioning lists oasdiff's own version-bump findings, which this check
// replaces by its rule on the major version (and which would otherwise count
// as breaks of their own).
var versioning = map[string]bool{
	checker.APIVersionNotBumpedId:      true,
	checker.APIVersionDecreasedId:      true,
	checker.APIMajorVersionNotBumpedId: true,
}

// Result is the outcome of comparing a contract with the released one.
type Result struct {
	// ReleasedVersion and Version are the two info.version values.
	ReleasedVersion, Version string
	// Breaks are the changes that break a client of the released contract,
	// as oasdiff words them.
	Breaks []string
	// MajorBumped is true when Version's major is above ReleasedVersion's:
	// the breaks are then announced, and allowed.
	MajorBumped bool
}

// OK reports whether the contract may ship: it breaks nothing, or it
// announces its breaks with a new major version.
func (r Result) OK() bool { return len(r.Breaks) == 0 || r.MajorBumped }

// Report renders the result for a person reading make test's output.
func (r Result) Report(releasedPath, contractPath string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s (%s) against the released %s (%s): ", contractPath, r.Version, releasedPath, r.ReleasedVersion)
	switch {
	case len(r.Breaks) == 0:
		b.WriteString("no breaking change\n")
		return b.String()
	case r.MajorBumped:
		fmt.Fprintf(&b, "%d breaking changes, announced by the major version %s (list them in clients/*/CHANGELOG.md with how to migrate):\n", len(r.Breaks), r.Version)
	default:
		fmt.Fprintf(&b, "%d breaking changes the version does not announce: raise info.version's major above %s, or undo them:\n", len(r.Breaks), r.ReleasedVersion)
	}
	for _, br := range r.Breaks {
		b.WriteString("  - " + br + "\n")
	}
	return b.String()
}

// Compare loads both contracts and lists the changes from released to
// contract that break a client (oasdiff's ERR and WARN levels, with the
// raised levels above).
func Compare(released, contract []byte) (Result, error) {
	base, err := loadSpec(released, "released.yaml")
	if err != nil {
		return Result{}, fmt.Errorf("the released contract: %w", err)
	}
	rev, err := loadSpec(contract, "openapi.yaml")
	if err != nil {
		return Result{}, fmt.Errorf("the contract: %w", err)
	}
	return compareSpecs(base, rev)
}

func loadSpec(data []byte, name string) (*load.SpecInfo, error) {
	// A loader per contract: the loader caches documents by name.
	loader := openapi3.NewLoader()
	return load.NewSpecInfoFromData(loader, data, name)
}

func compareSpecs(base, rev *load.SpecInfo) (Result, error) {
	r := Result{ReleasedVersion: base.Version, Version: rev.Version}
	baseMajor, err := major(base.Version)
	if err != nil {
		return r, fmt.Errorf("the released contract's info.version: %w", err)
	}
	revMajor, err := major(rev.Version)
	if err != nil {
		return r, fmt.Errorf("the contract's info.version: %w", err)
	}
	r.MajorBumped = revMajor > baseMajor
	d, sources, err := diff.GetWithOperationsSourcesMap(diff.NewConfig(), base, rev)
	if err != nil {
		return r, fmt.Errorf("comparing the contracts: %w", err)
	}
	config := checker.NewConfig(checker.GetAllChecks(), checker.WithSeverityLevels(severity))
	localizer := checker.NewDefaultLocalizer()
	for _, c := range checker.CheckBackwardCompatibilityUntilLevel(config, d, sources, checker.WARN) {
		if versioning[c.GetId()] {
			continue
		}
		text := c.GetUncolorizedText(localizer)
		if op := c.GetOperation(); op != "" {
			text = fmt.Sprintf("%s %s: %s", op, c.GetPath(), text)
		}
		r.Breaks = append(r.Breaks, fmt.Sprintf("[%s] %s", c.GetId(), text))
	}
	return r, nil
}

// major is the major version of a semantic version (an optional leading v).
func major(version string) (int, error) {
	v := strings.TrimPrefix(version, "v")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) != 3 {
		return 0, fmt.Errorf("%q is not a semantic version MAJOR.MINOR.PATCH", version)
	}
	for _, p := range parts[:2] {
		if _, err := strconv.ParseUint(p, 10, 32); err != nil {
			return 0, fmt.Errorf("%q is not a semantic version MAJOR.MINOR.PATCH", version)
		}
	}
	m, _ := strconv.Atoi(parts[0])
	if parts[2] == "" {
		return 0, errors.New("empty patch version")
	}
	return m, nil
}
