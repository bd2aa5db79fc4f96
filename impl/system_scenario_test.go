package impl_test

import (
	"net/http"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

func TestSystemScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *scenario.Env) {
		scenario.Run(t, e, []scenario.Scenario{
			{Name: "ping anonymous", Method: "GET", URL: "/edge/ping", ExpectedStatus: http.StatusOK,
				ExpectedContent: []string{`"health"`, `"version":"scenario"`}},
		})
	})
}
