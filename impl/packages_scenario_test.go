package impl_test

import (
	"crypto/ed25519"
	"encoding/base64"
	"testing"

	"github.com/edged/edged/impl/internal/scenario"
)

// TestPackagesScenarios: without a repository, what needs one answers 400
// saying how to configure it; an unreachable one 502; unknown packages
// 404; and everything that changes code is admin-only in every mode.
func TestPackagesScenarios(t *testing.T) {
	scenario.Each(t, func(t *testing.T, e *env) {
		// The repository is unset before and after, whatever ran before.
		unset := func() {
			for _, item := range []string{"repositoryURL", "repositoryVersion", "trustedKeys"} {
				e.Call(t, "DELETE", "/edge/category/Installation/"+item+"/value", nil, admin, 200, nil)
			}
		}
		unset()
		t.Cleanup(unset)
		install := map[string]any{"format": "repository", "name": "edged-south-x"}
		scenario.Run(t, e, scenario.Concat([]scn{
			{Name: "installed packages", Method: "GET", URL: "/edge/package", As: view, ExpectedStatus: 200, ExpectedContent: []string{`"packages":[`}},
			{Name: "available services without a repository", Method: "GET", URL: "/edge/service/available", ExpectedStatus: 400,
				ExpectedContent: []string{"repository"}},
			{Name: "available plugins without a repository", Method: "GET", URL: "/edge/plugin/available", ExpectedStatus: 400,
				ExpectedContent: []string{"repository"}},
			{Name: "install without a repository", Method: "POST", URL: "/edge/plugin", As: admin, Body: install, ExpectedStatus: 400,
				ExpectedContent: []string{"repository"}},
			{Name: "install a service without a repository", Method: "POST", URL: "/edge/service?action=install", As: admin, Body: install,
				ExpectedStatus: 400},
			{Name: "update without a repository", Method: "PUT", URL: "/edge/update", As: admin, ExpectedStatus: 400},
			{Name: "install in another format", Method: "POST", URL: "/edge/plugin", As: admin,
				Body: map[string]any{"format": "tarball", "name": "x"}, ExpectedStatus: 400},
			{Name: "install without a name", Method: "POST", URL: "/edge/service?action=install", As: admin,
				Body: map[string]any{"format": "repository"}, ExpectedStatus: 400},
			{Name: "remove an unknown package", Method: "DELETE", URL: "/edge/package/" + e.Unique("none"), As: admin, ExpectedStatus: 404},
			{Name: "log of an unknown package", Method: "GET", URL: "/edge/package/log/" + e.Unique("none"), ExpectedStatus: 404},
			{Name: "set a repository that is not http", Method: "POST", URL: "/edge/repository", As: admin,
				Body: map[string]any{"url": "ftp://example.com/repo"}, ExpectedStatus: 400, ExpectedContent: []string{"ftp://"}},
			{Name: "set a repository with credentials", Method: "POST", URL: "/edge/repository", As: admin,
				Body: map[string]any{"url": "https://me:secret@example.com/repo"}, ExpectedStatus: 400},
			{Name: "set a repository without url", Method: "POST", URL: "/edge/repository", As: admin, Body: `{}`, ExpectedStatus: 400},
			{Name: "set an unreachable repository", Method: "POST", URL: "/edge/repository", As: admin,
				Body: map[string]any{"url": "http://127.0.0.1:9/repo"}, ExpectedStatus: 200},
			{Name: "available without a trusted key", Method: "GET", URL: "/edge/plugin/available", ExpectedStatus: 400,
				ExpectedContent: []string{"trustedKeys"}},
			{Name: "trust a key that is not one", Method: "PUT", URL: "/edge/category/Installation/trustedKeys", As: admin,
				Body: map[string]string{"value": "not-a-key"}, ExpectedStatus: 400,
				ExpectedContent: []string{"not a base64 ed25519 public key"}},
			{Name: "trust a key", Method: "PUT", URL: "/edge/category/Installation/trustedKeys", As: admin,
				Body: map[string]string{"value": base64.StdEncoding.EncodeToString(make([]byte, ed25519.PublicKeySize))}, ExpectedStatus: 200},
			{Name: "available from an unreachable repository", Method: "GET", URL: "/edge/plugin/available", ExpectedStatus: 502},
			{Name: "install from an unreachable repository", Method: "POST", URL: "/edge/plugin", As: admin, Body: install, ExpectedStatus: 502},
		},
			scenario.Refused("POST", "/edge/repository", map[string]any{"url": "http://127.0.0.1:9/repo"}, anon, user, control, view),
			scenario.Refused("POST", "/edge/plugin", install, anon, user, control),
			scenario.Refused("PUT", "/edge/update", nil, anon, user, control),
			scenario.Refused("DELETE", "/edge/package/x", nil, anon, user, control),
			scenario.Refused("PUT", "/edge/category/Installation/trustedKeys", map[string]string{"value": ""}, anon, user, control),
			scenario.Refused("GET", "/edge/package", nil, dataView),
		))
	})
}
