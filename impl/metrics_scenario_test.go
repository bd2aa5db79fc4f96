package impl_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestMetricsScenarios: the Prometheus exposition answers without a token
// (allowPing) and every role, in its versioned text format.
func TestMetricsScenarios(t *testing.T) {
	textFormat := func(t *testing.T, _ *env, res *httptest.ResponseRecorder) {
		if ct := res.Header().Get("Content-Type"); !strings.HasPrefix(ct, "text/plain; version=0.0.4") {
			t.Errorf("Content-Type %q", ct)
		}
	}
	scenario.Each(t, func(t *testing.T, e *env) {
		scenario.Run(t, e, []scn{
			{Name: "anonymous", Method: "GET", URL: "/edge/metrics", ExpectedStatus: 200,
				ExpectedContent: []string{"# TYPE ", "edged_"}, AfterTestFunc: textFormat},
			{Name: "data-view", Method: "GET", URL: "/edge/metrics", As: dataView, ExpectedStatus: 200, AfterTestFunc: textFormat},
			{Name: "write method", Method: "DELETE", URL: "/edge/metrics", As: admin, ExpectedStatus: 405},
		})
	})
}
