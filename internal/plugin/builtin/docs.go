package builtin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/plugin"
)

// module is the gateway's module path, which a plugin's package path
// starts with.
const module = "github.com/edged/edged/"

// Doc is a file generated from the built-in plugins' definitions: each
// plugin's folder holds a README.md telling its items and a sample
// configuration (sample.json, or sample_<plugin>.json in a folder of
// several plugins): the body of the API call that creates a service, task
// or filter of it with every item at its default.
type Doc struct {
	Path    string // relative to the repository's root
	Content []byte
}

// Dir returns the folder of the repository, relative to its root, that
// holds the code of the built-in plugin d: the package of its constructor.
func Dir(d plugin.Definition) (string, error) {
	var fn any
	switch {
	case d.New != nil:
		fn = d.New
	case d.NewNorth != nil:
		fn = d.NewNorth
	case d.NewFilter != nil:
		fn = d.NewFilter
	case d.NewService != nil:
		fn = d.NewService
	}
	if fn == nil {
		return "", fmt.Errorf("plugin %q has no constructor", d.Name)
	}
	f := runtime.FuncForPC(reflect.ValueOf(fn).Pointer())
	if f == nil {
		return "", fmt.Errorf("plugin %q: the constructor's function is unknown", d.Name)
	}
	name := f.Name() // module/dir/pkg.func…
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if !strings.HasPrefix(name, module) || slash < 0 || dot < 0 {
		return "", fmt.Errorf("plugin %q: constructor %s is outside the module", d.Name, name)
	}
	return strings.TrimPrefix(name[:slash+1+dot], module), nil
}

// Docs returns the README.md and sample configurations of every built-in
// plugin, sorted by path. `make generate` writes them; a test checks the
// files in the tree are these.
func Docs() ([]Doc, error) {
	byDir := map[string][]plugin.Definition{}
	for _, d := range Definitions() {
		dir, err := Dir(d)
		if err != nil {
			return nil, err
		}
		byDir[dir] = append(byDir[dir], d)
	}
	var out []Doc
	for dir, defs := range byDir {
		slices.SortFunc(defs, func(a, b plugin.Definition) int { return strings.Compare(a.Name, b.Name) })
		samples := map[string]string{}
		for _, d := range defs {
			file := "sample.json"
			if len(defs) > 1 {
				file = "sample_" + d.Name + ".json"
			}
			samples[d.Name] = file
			b, err := sample(d)
			if err != nil {
				return nil, err
			}
			out = append(out, Doc{Path: path.Join(dir, file), Content: b})
		}
		out = append(out, Doc{Path: path.Join(dir, "README.md"), Content: readme(dir, defs, samples)})
	}
	slices.SortFunc(out, func(a, b Doc) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// ordered returns the names of items in their order.
func ordered(items map[string]configmgr.Item) []string {
	names := make([]string, 0, len(items))
	for n := range items {
		names = append(names, n)
	}
	order := func(n string) int {
		o, _ := strconv.Atoi(items[n].Order)
		return o
	}
	slices.SortFunc(names, func(a, b string) int {
		if c := order(a) - order(b); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return names
}

// sample returns the sample configuration of d: the request body that
// creates an instance of it with every item at its default.
func sample(d plugin.Definition) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{\n")
	field := func(k string, v any, last bool) {
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(v)
		fmt.Fprintf(&b, "  %s: %s", kb, vb)
		if !last {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	configKey := "config"
	switch d.Kind {
	case plugin.KindFilter:
		field("name", d.Name+"1", false)
		field("plugin", d.Name, false)
		configKey = "filter_config"
	default:
		field("name", d.Name+"1", false)
		field("type", d.Kind, false)
		field("plugin", d.Name, false)
		field("enabled", true, false)
	}
	fmt.Fprintf(&b, "  %q: {\n", configKey)
	names := ordered(d.Items)
	for i, n := range names {
		kb, _ := json.Marshal(n)
		vb, err := json.Marshal(d.Items[n].Default)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "    %s: %s", kb, vb)
		if i < len(names)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  }\n}\n")
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("the sample of %q is not JSON", d.Name)
	}
	return b.Bytes(), nil
}

// readme returns the README.md of the folder dir holding defs.
func readme(dir string, defs []plugin.Definition, samples map[string]string) []byte {
	var b strings.Builder
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	fmt.Fprintf(&b, "# %s\n\n", strings.Join(names, ", "))
	fmt.Fprintf(&b, "Built-in plugin%s of the gateway, in `%s`. This file and the sample\n", plural(len(defs)), dir)
	b.WriteString("configurations beside it are generated from the plugins' configuration structs\n")
	b.WriteString("(`make generate`; `make check-generated` finds them stale): do not edit them.\n")
	for _, d := range defs {
		fmt.Fprintf(&b, "\n## %s\n\n", d.Name)
		fmt.Fprintf(&b, "A %s plugin, version %s: %s.\n\n", d.Kind, d.Version, strings.TrimSuffix(d.Description, "."))
		fmt.Fprintf(&b, "Sample configuration: [`%s`](%s), the body of %s with every item at its default.\n\n",
			samples[d.Name], samples[d.Name], createCall(d.Kind))
		b.WriteString("| item | type | default | limits | description |\n|---|---|---|---|---|\n")
		for _, n := range ordered(d.Items) {
			it := d.Items[n]
			title := it.DisplayName
			if title == "" {
				title = n
			}
			fmt.Fprintf(&b, "| `%s` (%s) | %s | %s | %s | %s |\n", n, cell(title), cell(it.Type),
				code(it.Default), cell(limits(it)), cell(it.Description))
		}
	}
	return []byte(b.String())
}

func plural(n int) string {
	if n > 1 {
		return "s"
	}
	return ""
}

// createCall names the API call that creates an instance of a kind.
func createCall(kind string) string {
	switch kind {
	case plugin.KindFilter:
		return "`POST /edge/filter`"
	default:
		return "`POST /edge/service`"
	}
}

// limits tells an item's constraints.
func limits(it configmgr.Item) string {
	var parts []string
	if it.Minimum != "" {
		parts = append(parts, "min "+it.Minimum)
	}
	if it.Maximum != "" {
		parts = append(parts, "max "+it.Maximum)
	}
	if it.Length != "" {
		parts = append(parts, "at most "+it.Length+" characters")
	}
	if len(it.Options) > 0 {
		parts = append(parts, "one of "+strings.Join(it.Options, ", "))
	}
	if it.Mandatory == "true" {
		parts = append(parts, "required")
	}
	if it.Readonly == "true" {
		parts = append(parts, "read-only")
	}
	if it.Validity != "" {
		parts = append(parts, "applies when "+it.Validity)
	}
	if it.Type == configmgr.TypePassword {
		parts = append(parts, "masked when read")
	}
	return strings.Join(parts, "; ")
}

// cell escapes s for a table cell.
func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// code shows a default value in a table cell.
func code(s string) string {
	if s == "" {
		return ""
	}
	if strings.Contains(s, "`") || strings.Contains(s, "\n") {
		return cell(s)
	}
	return "`" + cell(s) + "`"
}
