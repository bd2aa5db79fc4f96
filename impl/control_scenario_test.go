package impl_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestControlScenarios: control writes and operations are for admins and
// the control role only, never anonymously; without a dispatcher service
// they answer 409; their bodies are validated; and refusals are audited.
func TestControlScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		write := map[string]any{"destination": "broadcast", "values": map[string]any{"x": 1.5}}
		op := map[string]any{"destination": "broadcast", "operation": "Reset"}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "write without a dispatcher", Method: "POST", URL: "/edge/control/write", As: control, Body: write, ExpectedStatus: 409,
				ExpectedContent: []string{"dispatcher"}},
			{Name: "operation without a dispatcher", Method: "POST", URL: "/edge/control/operation", As: admin, Body: op, ExpectedStatus: 409},
			{Name: "write to an unknown destination kind", Method: "POST", URL: "/edge/control/write", As: control,
				Body: map[string]any{"destination": "moon", "values": map[string]any{"x": 1}}, ExpectedStatus: 400},
			{Name: "write without values", Method: "POST", URL: "/edge/control/write", As: control,
				Body: map[string]any{"destination": "broadcast"}, ExpectedStatus: 400, ExpectedContent: []string{"values"}},
			{Name: "write a value that is an object", Method: "POST", URL: "/edge/control/write", As: control,
				Body: map[string]any{"destination": "broadcast", "values": map[string]any{"x": map[string]int{"a": 1}}}, ExpectedStatus: 400},
			{Name: "write to a service without its name", Method: "POST", URL: "/edge/control/write", As: control,
				Body: map[string]any{"destination": "service", "values": map[string]any{"x": 1}}, ExpectedStatus: 400},
			{Name: "write a datapoint named by the empty string", Method: "POST", URL: "/edge/control/write", As: control,
				Body: map[string]any{"destination": "broadcast", "values": map[string]any{"": 1}}, ExpectedStatus: 400},
			{Name: "broadcast operation naming a service", Method: "POST", URL: "/edge/control/operation", As: control,
				Body: map[string]any{"destination": "broadcast", "name": "pump", "operation": "Reset"}, ExpectedStatus: 400},
			{Name: "operation without its name", Method: "POST", URL: "/edge/control/operation", As: control,
				Body: map[string]any{"destination": "broadcast"}, ExpectedStatus: 400, ExpectedContent: []string{"operation"}},
			{Name: "write malformed JSON", Method: "POST", URL: "/edge/control/write", As: control, Body: `{"values":`, ExpectedStatus: 400},
		},
			scenario.Refused("POST", "/edge/control/write", write, anon, user, view, dataView),
			scenario.Refused("POST", "/edge/control/operation", op, anon, user, view, dataView),
			[]scn{{Name: "refusals are audited", Method: "GET", URL: "/edge/audit?limit=50", As: admin, ExpectedStatus: 200,
				AfterTestFunc: func(t *testing.T, e *env, res *httptest.ResponseRecorder) {
					if !strings.Contains(res.Body.String(), "scenario-view") {
						t.Errorf("no audit entry names the refused view user: %s", res.Body.String())
					}
				}}},
		))
	})
}
