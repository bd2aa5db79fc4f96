package main

import (
	"go.yaml.in/yaml/v3"
)

// sdkView turns the contract into what the SDK generators read, in place:
// a mapping with x-sdk-schema becomes that schema (keeping its own
// description and example unless the replacement has one), and, when
// tsFormat is set, every "format: timestamp" becomes that format.
func sdkView(n *yaml.Node, tsFormat string) {
	if n == nil {
		return
	}
	if n.Kind == yaml.MappingNode {
		if repl := get(n, "x-sdk-schema"); repl != nil && repl.Kind == yaml.MappingNode {
			keep := map[string]*yaml.Node{}
			for _, k := range []string{"description", "example"} {
				if v := get(n, k); v != nil && get(repl, k) == nil {
					keep[k] = v
				}
			}
			n.Content = cloneNode(repl).Content
			for _, k := range []string{"description", "example"} {
				if v, ok := keep[k]; ok {
					set(n, k, v)
				}
			}
		}
		if tsFormat != "" && str(n, "format") == "timestamp" && str(n, "type") == "string" {
			set(n, "format", scalar(tsFormat))
		}
	}
	for _, c := range n.Content {
		sdkView(c, tsFormat)
	}
}
