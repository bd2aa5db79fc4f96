package conformance

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
)

// maxAssetCode is the longest asset code the contract's {code} paths take.
const maxAssetCode = 255

// longCode returns a code of n characters, starting with prefix, that
// compression barely shortens (so PostgreSQL's index meets its full size).
func longCode(prefix string, n int) string {
	const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	b := []byte(prefix)
	for len(b) < n {
		b = append(b, letters[rand.IntN(len(letters))])
	}
	return string(b)
}

// testAssetCodeLimit checks that ingest takes the asset codes the API's
// {code} paths take and no longer ones: http_south refuses a batch holding
// a code of 2,800 characters (or of 256) with 400 naming the element and
// stores nothing of it, on either store; one of 255 characters is stored
// and read back through its {code} path; and a code the service's filters
// make by renaming is refused with 400 too.
func testAssetCodeLimit(t *testing.T) {
	c := api(t)
	_, port := newHTTPSouth(t, c, nil)
	host := gatewayHost(t, baseURL)
	asset := unique("conf-code")
	elem := func(asset string) string {
		return fmt.Sprintf(`{"timestamp":"2024-05-01 10:15:42","asset":%q,"readings":{"v":1}}`, asset)
	}
	for _, tc := range []struct {
		name  string
		code  string
		names string
	}{
		{name: "2800 characters", code: longCode(asset, 2800), names: "2800 characters"},
		{name: "256 characters", code: strings.Repeat("é", maxAssetCode+1), names: "256 characters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body, err := postIngest(t.Context(), host, port, "sensor-reading", "["+elem(asset)+","+elem(tc.code)+"]")
			must(t, err)
			msg := checkError(t, status, body, http.StatusBadRequest)
			if !strings.Contains(msg, "element 1") || !strings.Contains(msg, tc.names) {
				t.Errorf("message %q does not name element 1 and %q", msg, tc.names)
			}
		})
	}
	if got := statistics(t, c)[asset]; got != 0 {
		t.Errorf("refused batches stored %d readings of %s", got, asset)
	}

	// At the limit: stored, and readable by its {code} path.
	atLimit := longCode(asset, maxAssetCode)
	status, body, err := postIngest(t.Context(), host, port, "sensor-reading", "["+elem(atLimit)+"]")
	must(t, err)
	wantStatus(t, "ingest of a 255-character code", status, body, http.StatusOK)
	if rs := readingsOf(t, c, atLimit); len(rs) != 1 {
		t.Errorf("readings of the 255-character code = %v, want one", rs)
	}

	// A rename filter making a code that is too long: refused whole.
	renamed := unique("conf-code-renamed")
	filter := unique("conf-rename")
	rules := fmt.Sprintf(`{%q: %q}`, renamed, longCode(renamed, 2800))
	createFilter(t, c, filter, "rename", map[string]string{"assets": rules})
	name2, port2 := newHTTPSouth(t, c, nil)
	setPipeline(t, c, name2, []string{filter}, false)
	status, body, err = postIngest(t.Context(), host, port2, "sensor-reading", "["+elem(asset)+","+elem(renamed)+"]")
	must(t, err)
	msg := checkError(t, status, body, http.StatusBadRequest)
	if !strings.Contains(msg, "filters") || !strings.Contains(msg, "2800 characters") {
		t.Errorf("message %q does not say the filters made a code of 2800 characters", msg)
	}
	status, body, err = postIngest(t.Context(), host, port2, "sensor-reading", "["+elem(asset)+"]")
	must(t, err)
	wantStatus(t, "ingest through the rename filter of an asset it leaves alone", status, body, http.StatusOK)
}
