package conformance

import (
	"encoding/json"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// statisticsHistory reads the history and fails the test unless 200.
func statisticsHistory(t testing.TB, c *edgeclient.ClientWithResponses, limit *int) edgeclient.StatisticsHistory {
	t.Helper()
	resp, err := c.GetStatisticsHistoryWithResponse(t.Context(), &edgeclient.GetStatisticsHistoryParams{Limit: limit})
	must(t, err)
	wantStatus(t, "getStatisticsHistory", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("getStatisticsHistory: no JSON body: %s", truncate(resp.Body))
	}
	wantTimestamps(t, "getStatisticsHistory", resp.Body, eventTime, "history_ts")
	return *resp.JSON200
}

// TestStatisticsHistoryAndRates ingests readings of a new asset with the
// stats collection task running every second, and checks that the history
// holds the asset's readings as deltas and that the rates follow from
// them.
func testStatisticsHistoryAndRates(t *testing.T) {
	c := api(t)
	fastStats(t)
	eventually(t, 15*time.Second, "two history entries at the one-second interval", func() bool {
		h := statisticsHistory(t, c, ptr(2))
		return h.Interval == 1 && len(h.Statistics) == 2
	})

	t.Run("shape", func(t *testing.T) {
		h := statisticsHistory(t, c, nil)
		if len(h.Statistics) < 2 || len(h.Statistics) > 20 {
			t.Fatalf("history without limit has %d entries, want 2..20 (default limit 20)", len(h.Statistics))
		}
		for i, e := range h.Statistics {
			if i > 0 && !e.HistoryTs.Before(h.Statistics[i-1].HistoryTs.Time) {
				t.Errorf("entries are not newest first: %s after %s", e.HistoryTs, h.Statistics[i-1].HistoryTs)
			}
			for _, key := range []string{"READINGS", "PURGED", "BUFFERED", "DISCARDED", "UNSENT", "UNSNPURGED"} {
				if _, ok := e.AdditionalProperties[key]; !ok {
					t.Errorf("entry %s has no delta of %s", e.HistoryTs, key)
				}
			}
		}
		if got := statisticsHistory(t, c, ptr(1)); len(got.Statistics) != 1 {
			t.Errorf("limit=1 gave %d entries", len(got.Statistics))
		}
	})

	t.Run("deltas and rates", func(t *testing.T) {
		_, port := newHTTPSouth(t, c, nil)
		asset := unique("conf-rate")
		t.Cleanup(func() { purgeAssetQuietly(asset) })
		status, body, err := postIngest(t.Context(), gatewayHost(t, baseURL), port, "sensor-reading", readingsBody(asset, 7, time.Now()))
		if err != nil || status != http.StatusOK {
			t.Fatalf("ingest: %d %s %v", status, body, err)
		}
		// The asset's statistic is created with the readings, so every
		// delta of it since is in the history: they add up to 7.
		var sum int
		eventually(t, 15*time.Second, "the 7 readings in the history", func() bool {
			sum = 0
			for _, e := range statisticsHistory(t, c, ptr(10000)).Statistics {
				sum += e.AdditionalProperties[asset]
			}
			return sum >= 7
		})
		if sum != 7 {
			t.Errorf("the deltas of %s add up to %d, want 7", asset, sum)
		}

		resp, err := c.GetStatisticsRateWithResponse(t.Context(), &edgeclient.GetStatisticsRateParams{Statistics: asset + ",READINGS", Periods: "1,5"})
		must(t, err)
		wantStatus(t, "getStatisticsRate", resp.StatusCode(), resp.Body, http.StatusOK)
		rates := resp.JSON200.Rates
		want := map[string]float64{"1": 7, "5": 1.4}
		for period, w := range want {
			if got := float64(rates[asset][period]); math.Abs(got-w) > 1e-4 {
				t.Errorf("rate of %s over %s min = %v, want %v (7 readings within the last minute)", asset, period, got, w)
			}
			if got := float64(rates["READINGS"][period]); got*mustAtoi(t, period) < 7-1e-4 {
				t.Errorf("rate of READINGS over %s min = %v, want at least %v", period, got, 7/mustAtoi(t, period))
			}
		}
		var raw map[string]map[string]map[string]any
		if err := json.Unmarshal(resp.Body, &raw); err != nil || len(raw["rates"]) != 2 || len(raw["rates"][asset]) != 2 {
			t.Errorf("rates body = %s; want {rates: {<two names>: {<two periods>: number}}}", resp.Body)
		}
	})
}

// mustAtoi converts a period for the test's arithmetic.
func mustAtoi(t testing.TB, s string) float64 {
	t.Helper()
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("period %q: %v", s, err)
	}
	return n
}

// TestStatisticsRateZeroWithoutHistory checks that a statistic that exists
// but has no deltas in a period has rate 0.
func testStatisticsRateZeroWithoutHistory(t *testing.T) {
	resp, err := api(t).GetStatisticsRateWithResponse(t.Context(), &edgeclient.GetStatisticsRateParams{Statistics: "DISCARDED", Periods: "1"})
	must(t, err)
	wantStatus(t, "getStatisticsRate", resp.StatusCode(), resp.Body, http.StatusOK)
	if got, ok := resp.JSON200.Rates["DISCARDED"]["1"]; !ok || got != 0 {
		t.Errorf("rate of DISCARDED = %s, want 0", resp.Body)
	}
}

// TestStatisticsErrors checks the documented errors of history and rates.
func testStatisticsErrors(t *testing.T) {
	unknown := unique("conf-no-statistic")
	tests := []struct {
		name   string
		path   string
		status int
		names  string
	}{
		{name: "history limit 0", path: "/edge/statistics/history?limit=0", status: 400, names: "limit"},
		{name: "history limit too big", path: "/edge/statistics/history?limit=10001", status: 400, names: "limit"},
		{name: "history limit not a number", path: "/edge/statistics/history?limit=all", status: 400, names: "limit"},
		{name: "rate without parameters", path: "/edge/statistics/rate", status: 400, names: "statistics"},
		{name: "rate without periods", path: "/edge/statistics/rate?statistics=READINGS", status: 400, names: "periods"},
		{name: "rate without statistics", path: "/edge/statistics/rate?periods=1", status: 400, names: "statistics"},
		{name: "rate with empty statistics", path: "/edge/statistics/rate?statistics=&periods=1", status: 400, names: "statistics"},
		{name: "rate with only separators", path: "/edge/statistics/rate?statistics=" + url.QueryEscape(" , ") + "&periods=1", status: 400, names: "statistics"},
		{name: "rate period 0", path: "/edge/statistics/rate?statistics=READINGS&periods=0", status: 400, names: "periods"},
		{name: "rate period not a number", path: "/edge/statistics/rate?statistics=READINGS&periods=1,x", status: 400, names: "periods"},
		{name: "rate of an unknown statistic", path: "/edge/statistics/rate?statistics=READINGS," + url.QueryEscape(unknown) + "&periods=1", status: 404, names: unknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := doRaw(t, rawRequest{method: http.MethodGet, path: tc.path})
			msg := checkError(t, r.status, r.body, tc.status)
			if !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name %q", msg, tc.names)
			}
		})
	}
}
