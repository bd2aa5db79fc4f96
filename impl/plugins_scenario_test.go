package impl_test

import (
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestPluginsScenarios: the plugin catalogue lists the built-in plugins
// of every kind, filters by kind, adds each plugin's items with config, and
// refuses an unknown kind.
func TestPluginsScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "every kind", Method: "GET", URL: "/edge/plugin/installed", As: view, ExpectedStatus: 200,
				ExpectedContent:    []string{`"name":"sinusoid"`, `"name":"http_north"`, `"type":"filter"`, `"origin":"builtin"`},
				NotExpectedContent: []string{`"config"`}},
			{Name: "one kind", Method: "GET", URL: "/edge/plugin/installed?type=north", ExpectedStatus: 200,
				ExpectedContent:    []string{`"name":"http_north"`},
				NotExpectedContent: []string{`"name":"sinusoid"`, `"type":"south"`}},
			{Name: "with items", Method: "GET", URL: "/edge/plugin/installed?type=south&config=true", ExpectedStatus: 200,
				ExpectedContent: []string{`"config":{`, `"assetName"`, `"bufferThreshold"`, `"displayName"`}},
			{Name: "an unknown kind", Method: "GET", URL: "/edge/plugin/installed?type=sideways", ExpectedStatus: 400},
			{Name: "config not a boolean", Method: "GET", URL: "/edge/plugin/installed?config=maybe", ExpectedStatus: 400},
		},
			scenario.Refused("GET", "/edge/plugin/installed", nil, dataView),
		))
	})
}
