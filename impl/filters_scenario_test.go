package impl_test

import (
	"net/url"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestFiltersScenarios: filter instances created, read and deleted (409
// while a pipeline uses them), and a service's pipeline with its rules.
func TestFiltersScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		f, svc := e.Unique("flt"), e.Unique("flt-svc")
		createSouth(t, e, svc, "sinusoid", false, nil)
		t.Cleanup(func() { e.Do(t, "DELETE", "/edge/filter/"+f, nil, admin, nil) })
		pipe := "/edge/filter/" + url.PathEscape(svc) + "/pipeline"
		create := func(name, plugin string, cfg map[string]string) map[string]any {
			b := map[string]any{"name": name, "plugin": plugin}
			if cfg != nil {
				b["filter_config"] = cfg
			}
			return b
		}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "create", Method: "POST", URL: "/edge/filter", As: user, Body: create(f, "scale", map[string]string{"rules": `[{"datapoint":"*","factor":2,"offset":0}]`}),
				ExpectedStatus: 200, ExpectedContent: []string{`"name":"` + f + `"`, `"plugin":"scale"`}},
			{Name: "get", Method: "GET", URL: "/edge/filter/" + f, As: view, ExpectedStatus: 200, ExpectedContent: []string{`"users":[]`}},
			{Name: "list", Method: "GET", URL: "/edge/filter", ExpectedStatus: 200, ExpectedContent: []string{`"name":"` + f + `"`}},
			{Name: "create a duplicate", Method: "POST", URL: "/edge/filter", Body: create(f, "rename", nil), ExpectedStatus: 409},
			{Name: "create over a category", Method: "POST", URL: "/edge/filter", Body: create("rest_api", "rename", nil), ExpectedStatus: 409},
			{Name: "create of an unknown plugin", Method: "POST", URL: "/edge/filter", Body: create(e.Unique("flt"), "no-such-filter", nil),
				ExpectedStatus: 404},
			{Name: "create with an unknown item", Method: "POST", URL: "/edge/filter", Body: create(e.Unique("flt"), "scale", map[string]string{"nope": "1"}),
				ExpectedStatus: 400, ExpectedContent: []string{"nope"}},
			{Name: "create with rules not a list", Method: "POST", URL: "/edge/filter",
				Body: create(e.Unique("flt"), "scale", map[string]string{"rules": `{"factor":2}`}), ExpectedStatus: 400},
			{Name: "create with a bad expression", Method: "POST", URL: "/edge/filter",
				Body:           create(e.Unique("flt"), "expression", map[string]string{"expressions": `[{"name":"y","expression":"x +"}]`}),
				ExpectedStatus: 400},
			{Name: "create with a leading space", Method: "POST", URL: "/edge/filter", Body: create(" x", "scale", nil), ExpectedStatus: 400},
			{Name: "create with an empty name", Method: "POST", URL: "/edge/filter", Body: create("", "scale", nil), ExpectedStatus: 400},
			{Name: "get an unknown filter", Method: "GET", URL: "/edge/filter/" + e.Unique("none"), ExpectedStatus: 404},
			{Name: "empty pipeline", Method: "GET", URL: pipe, ExpectedStatus: 200, ExpectedContent: []string{`"pipeline":[]`}},
			{Name: "pipeline of an unknown service", Method: "GET", URL: "/edge/filter/" + e.Unique("none") + "/pipeline", ExpectedStatus: 404},
			{Name: "set the pipeline", Method: "PUT", URL: pipe, As: control, Body: map[string]any{"pipeline": []string{f}}, ExpectedStatus: 200,
				ExpectedContent: []string{`"pipeline":["` + f + `"]`}},
			{Name: "append a filter already there", Method: "PUT", URL: pipe + "?append=true", Body: map[string]any{"pipeline": []string{f}},
				ExpectedStatus: 400},
			{Name: "a filter twice", Method: "PUT", URL: pipe, Body: map[string]any{"pipeline": []string{f, f}}, ExpectedStatus: 400},
			{Name: "an unknown filter", Method: "PUT", URL: pipe, Body: map[string]any{"pipeline": []string{e.Unique("none")}}, ExpectedStatus: 404},
			{Name: "set the pipeline of an unknown service", Method: "PUT", URL: "/edge/filter/" + e.Unique("none") + "/pipeline",
				Body: map[string]any{"pipeline": []string{f}}, ExpectedStatus: 404},
			{Name: "pipeline without the list", Method: "PUT", URL: pipe, Body: `{}`, ExpectedStatus: 400},
			{Name: "delete while used", Method: "DELETE", URL: "/edge/filter/" + f, ExpectedStatus: 409, ExpectedContent: []string{svc}},
			{Name: "user shows", Method: "GET", URL: "/edge/filter/" + f, ExpectedStatus: 200, ExpectedContent: []string{`"users":["` + svc + `"]`}},
			{Name: "empty the pipeline", Method: "PUT", URL: pipe, Body: map[string]any{"pipeline": []string{}}, ExpectedStatus: 200},
			{Name: "delete", Method: "DELETE", URL: "/edge/filter/" + f, ExpectedStatus: 200},
			{Name: "delete again", Method: "DELETE", URL: "/edge/filter/" + f, ExpectedStatus: 404},
		},
			scenario.Refused("POST", "/edge/filter", create(e.Unique("flt"), "scale", nil), view, dataView),
			scenario.Refused("PUT", pipe, map[string]any{"pipeline": []string{}}, view, dataView),
			scenario.Refused("DELETE", "/edge/filter/"+f, nil, view, dataView),
			scenario.Refused("GET", "/edge/filter", nil, dataView),
		))
	})
}
