package conformance

import (
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/clients/go/edgeclient"
)

// TestNotImplementedYet covers the operations the gateway does not build
// yet: each must answer 501 with a JSON message naming the operation, as
// an admin calls it, so that the operation coverage of the suite is
// complete. Whoever builds one replaces its case here with real cases
// (results and every documented error), and removes it from FUZZ_UNBUILT
// in the Makefile.
func TestNotImplementedYet(t *testing.T) {
	admin := apiAs(t, adminToken(t))
	cases := []struct {
		operationID string
		call        func() (int, []byte, error)
	}{
		{operationID: "setRepository", call: func() (int, []byte, error) {
			r, err := admin.SetRepositoryWithResponse(t.Context(), edgeclient.RepositoryRequest{Url: "https://packages.example.org/edged", Version: ptr("latest")})
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
		{operationID: "listAvailablePackages", call: func() (int, []byte, error) {
			r, err := admin.ListAvailablePackagesWithResponse(t.Context())
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
		{operationID: "updatePackages", call: func() (int, []byte, error) {
			r, err := admin.UpdatePackagesWithResponse(t.Context())
			if err != nil {
				return 0, nil, err
			}
			return r.StatusCode(), r.Body, nil
		}},
	}
	for _, tc := range cases {
		t.Run(tc.operationID, func(t *testing.T) {
			status, body, err := tc.call()
			must(t, err)
			msg := checkError(t, status, body, http.StatusNotImplemented)
			if !strings.Contains(msg, tc.operationID) {
				t.Errorf("message %q does not name the operation %s", msg, tc.operationID)
			}
		})
	}
}
