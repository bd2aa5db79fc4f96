package conformance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"
)

// The suite's own credentials. A gateway in the default, optional mode
// serves anonymous callers, and the tests rely on that. A gateway whose
// authentication is mandatory (or whose ping needs a token) is tested with
// a token: -token (EDGE_TOKEN), or a session the suite opens as admin with
// -admin-password (EDGE_ADMIN_PASSWORD) and closes at the end. The token
// goes with every request that carries no token of its own and is not
// marked anonymous (rawRequest.anonymous, apiAnonymous).

// suiteSessionOpened is true when the suite logged in for suiteToken.
var suiteSessionOpened bool

// authMandatory is true when the gateway under test required
// authentication when the suite started.
var authMandatory bool

// openSuiteSession sets suiteToken for the gateway at baseURL and checks
// the admin password of an external gateway once, so that a wrong one
// stops the run instead of locking the account test after test.
func openSuiteSession(opts options) error {
	suiteToken = opts.token
	if ownGateway {
		return nil
	}
	status, body, err := plainRequest(http.MethodGet, "/edge/ping", "", nil)
	if err != nil {
		return err
	}
	var ping struct {
		AuthenticationOptional bool `json:"authenticationOptional"`
	}
	switch {
	case status == http.StatusOK && json.Unmarshal(body, &ping) == nil && ping.AuthenticationOptional:
	case status == http.StatusOK || status == http.StatusUnauthorized:
		authMandatory = true
	default:
		return fmt.Errorf("GET /edge/ping answered %d: %s", status, truncate(body))
	}
	password := opts.adminPassword
	if password == "" {
		if authMandatory && suiteToken == "" {
			return errors.New("the gateway under test requires authentication: pass -token (EDGE_TOKEN) or -admin-password (EDGE_ADMIN_PASSWORD)")
		}
		return nil
	}
	creds, _ := json.Marshal(map[string]string{"username": "admin", "password": password})
	status, body, err = plainRequest(http.MethodPost, "/edge/login", "", creds)
	if err != nil {
		return err
	}
	var login struct {
		Token string `json:"token"`
	}
	if status != http.StatusOK || json.Unmarshal(body, &login) != nil || login.Token == "" {
		return fmt.Errorf("the admin login with the given password answered %d: %s", status, truncate(body))
	}
	if !authMandatory || suiteToken != "" {
		_, _, _ = plainRequest(http.MethodPut, "/edge/logout", login.Token, nil)
		return nil
	}
	suiteToken, suiteSessionOpened = login.Token, true
	fmt.Println("conformance: the gateway requires authentication; logged in as admin for requests without a token of their own")
	return nil
}

// closeSuiteSession logs the session openSuiteSession opened out.
func closeSuiteSession() {
	if !suiteSessionOpened {
		return
	}
	if status, body, err := plainRequest(http.MethodPut, "/edge/logout", suiteToken, nil); err != nil || status != http.StatusOK {
		fmt.Printf("conformance: logging the suite's session out: status %d, error %v: %s\n", status, err, truncate(body))
	}
}

// gatewayVersion is the version the gateway under test reports in ping, or
// "" when ping fails.
func gatewayVersion() string {
	status, body, err := plainRequest(http.MethodGet, "/edge/ping", suiteToken, nil)
	if err != nil || status != http.StatusOK {
		return ""
	}
	var ping struct {
		Version string `json:"version"`
	}
	_ = json.Unmarshal(body, &ping)
	return ping.Version
}

// externalAdminPassword is the admin password given for an external
// gateway (-admin-password), "" when none was.
var externalAdminPassword string

// plainRequest sends a request outside any test (it is not recorded).
func plainRequest(method, path, token string, body []byte) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, baseURL+path, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("authorization", token)
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, b, err
}

// authorize adds the suite's token to req unless it carries a token of
// its own (an authorization or authtoken header, even an empty one).
func authorize(req *http.Request) {
	if suiteToken == "" {
		return
	}
	if _, ok := req.Header["Authorization"]; ok {
		return
	}
	if _, ok := req.Header["Authtoken"]; ok {
		return
	}
	req.Header.Set("authorization", suiteToken)
}
