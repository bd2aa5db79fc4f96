// Command sdkgen derives what the SDK and docs generators read from the
// contract, openapi.yaml. The Makefile's generate and check-generated
// targets run it; nothing else should.
//
//	sdkgen spec [-timestamp-format F] -o OUT openapi.yaml
//	    The SDKs' view of the contract: every schema carrying x-sdk-schema is
//	    replaced by that schema (what the SDKs send, a subset of what the
//	    gateway accepts), and with -timestamp-format the format of the
//	    gateway's timestamps ("timestamp") is renamed for a generator that
//	    knows only standard formats.
//	sdkgen timestamps -o OUT openapi.yaml
//	    The TypeScript table of the fields of each operation's success body
//	    that hold timestamps, which the TypeScript SDK converts to Date.
//	sdkgen offline -o OUT redoc.html
//	    The docs page as redocly builds it, made to load nothing from any
//	    other host: Redoc's attribution logo, which it fetches from its CDN,
//	    becomes an inline image, and the page declares an empty icon so that
//	    the browser asks for no /favicon.ico.
//	sdkgen goclient -o OUT client.gen.go
//	    The Go SDK's convenience methods: for every generated XxxWithResponse
//	    method, one of the convenience Client that returns the response
//	    beside the *APIError of an answer outside 2xx.
//	sdkgen samples -o OUT [-check DIR] openapi.yaml
//	    The docs portal's copy of the contract with x-codeSamples (curl, Go,
//	    Python, TypeScript) on every operation; with -check, the same samples
//	    as compilable sources per language, which the SDK tests type-check.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "sdkgen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: sdkgen spec|timestamps|samples|offline|goclient [flags] FILE")
	}
	cmd, args := args[0], args[1:]
	fs := flag.NewFlagSet("sdkgen "+cmd, flag.ContinueOnError)
	out := fs.String("o", "", "output file")
	tsFormat := fs.String("timestamp-format", "", "spec: rename the format \"timestamp\" to this one")
	checkDir := fs.String("check", "", "samples: also write the samples as sources to type-check into this directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 || *out == "" {
		return fmt.Errorf("usage: sdkgen %s -o OUT openapi.yaml", cmd)
	}
	switch cmd {
	case "offline":
		return offline(fs.Arg(0), *out)
	case "goclient":
		return goClient(fs.Arg(0), *out)
	}
	doc, err := load(fs.Arg(0))
	if err != nil {
		return err
	}
	switch cmd {
	case "spec":
		sdkView(doc, *tsFormat)
		return writeYAML(*out, doc)
	case "timestamps":
		sdkView(doc, "")
		return os.WriteFile(*out, timestampTable(doc), 0o644)
	case "samples":
		view := cloneNode(doc)
		sdkView(view, "")
		set, err := buildSamples(view)
		if err != nil {
			return err
		}
		addCodeSamples(doc, set)
		if *checkDir != "" {
			if err := writeCheckSources(*checkDir, set); err != nil {
				return err
			}
		}
		return writeYAML(*out, doc)
	}
	return fmt.Errorf("unknown command %q", cmd)
}

// load reads a YAML document and returns its root mapping.
func load(path string) (*yaml.Node, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: not a YAML mapping", path)
	}
	return doc.Content[0], nil
}

func writeYAML(path string, root *yaml.Node) error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// get returns the value of key in mapping m, or nil.
func get(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// set sets key of mapping m to v, appending the key if it is new.
func set(m *yaml.Node, key string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			m.Content[i+1] = v
			return
		}
	}
	m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key}, v)
}

// str returns the scalar value of key in m, or "".
func str(m *yaml.Node, key string) string {
	if v := get(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func scalar(v string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v}
}

func cloneNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, k := range n.Content {
		c.Content[i] = cloneNode(k)
	}
	return &c
}
