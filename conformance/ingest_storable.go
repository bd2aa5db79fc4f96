package conformance

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestHTTPSouthRefusesWhatStorageCannotHold posts readings holding what
// one of the stores cannot keep — invalid UTF-8 in a key, an asset code or
// a string value, the escape \u0000, lone surrogate escapes, numbers
// outside float64 — and checks that each request is refused with 400
// naming the reading's index, that nothing of it is stored, whatever the
// store, and that another sender posting at the same time is unaffected.
func testHTTPSouthRefusesWhatStorageCannotHold(t *testing.T) {
	c := api(t)
	name, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	asset := unique("conf-storable")
	elem := func(asset, readings string) string {
		return fmt.Sprintf(`{"timestamp":"2024-05-01 10:15:42","asset":%q,"readings":%s}`, asset, readings)
	}
	good := elem(asset, `{"v":1}`)
	cases := []struct {
		name  string
		bad   string // the element at index 2 of the batch
		names string // besides the index, the message names this
	}{
		{name: "invalid UTF-8 in a string value", bad: elem(asset, "{\"k\":\"a\xffb\"}"), names: "UTF-8"},
		{name: "invalid UTF-8 in a key", bad: elem(asset, "{\"k\xc3\x28\":1}"), names: "UTF-8"},
		{name: "invalid UTF-8 in the asset code", bad: `{"timestamp":"2024-05-01 10:15:42","asset":"` + asset + "\xed\xa0\x80" + `","readings":{}}`, names: "UTF-8"},
		{name: "NUL escape in a value", bad: elem(asset, `{"k":"a\u0000"}`), names: "NUL"},
		{name: "NUL escape in a key", bad: elem(asset, `{"\u0000":1}`), names: "NUL"},
		{name: "NUL escape in the asset code", bad: `{"timestamp":"2024-05-01 10:15:42","asset":"a\u0000","readings":{}}`, names: "NUL"},
		{name: "lone high surrogate", bad: elem(asset, `{"k":"\ud800"}`), names: "surrogate"},
		{name: "lone low surrogate in a key", bad: elem(asset, `{"\udfff":1}`), names: "surrogate"},
		{name: "lone surrogate in the asset code", bad: `{"timestamp":"2024-05-01 10:15:42","asset":"\ud83d","readings":{}}`, names: "surrogate"},
		{name: "1e400", bad: elem(asset, `{"k":1e400}`), names: "1e400"},
		{name: "-1e400", bad: elem(asset, `{"k":-1e400}`), names: "-1e400"},
		{name: "400-digit integer", bad: elem(asset, `{"k":`+strings.Repeat("9", 400)+`}`), names: "float"},
		{name: "nested number outside float64", bad: elem(asset, `{"k":{"deep":[1,2e308]}}`), names: "/readings/k/deep/1"},
	}

	// Another sender posts good batches all along; none of its requests
	// may fail because of the bad ones.
	other := unique("conf-storable-other")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var otherStored, otherFailed int
	wg.Go(func() {
		start := time.Now()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			status, body, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(other, 10, start.Add(time.Duration(i)*time.Second)))
			if err != nil || status != http.StatusOK {
				t.Errorf("the other sender's request %d: %d %s %v", i, status, body, err)
				otherFailed++
				return
			}
			otherStored += 10
		}
	})

	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := "[" + good + "," + good + "," + tc.bad + "]"
			status, resp, err := postIngest(t.Context(), host, port, "sensor-reading", body)
			if err != nil {
				t.Fatal(err)
			}
			msg := checkError(t, status, resp, http.StatusBadRequest)
			if !strings.Contains(msg, "element 2") || !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name element 2 and %q", msg, tc.names)
			}
		})
	}
	close(stop)
	wg.Wait()

	got := statistics(t, c)
	if got[asset] != 0 {
		t.Errorf("refused requests stored %d readings of %s", got[asset], asset)
	}
	if otherFailed == 0 && got[other] != otherStored {
		t.Errorf("the other sender had %d readings acknowledged, %d counted", otherStored, got[other])
	}
	if got[name+"-Ingest"] != otherStored {
		t.Errorf("%s-Ingest = %d, want the other sender's %d", name, got[name+"-Ingest"], otherStored)
	}
}
