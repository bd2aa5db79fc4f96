package conformance

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// httpClient is the transport shared by the SDK clients and the raw helper.
var httpClient = &http.Client{Timeout: 30 * time.Second, Transport: prefixTransport{base: http.DefaultTransport}}

// checkingDoer sends requests for the SDK and flags every answer that the
// contract forbids whatever the request. A 501 from what the gateway the
// suite started builds fails any test (see checkServerStatus); in strict
// tests also any other 5xx (a 500 is a bug by definition), a body that is
// not JSON and a missing X-Request-Id (the specification states none of
// these, so seed tests do not check them). It records each call for the
// operation coverage and adds the suite's token to requests without one,
// unless anonymous.
type checkingDoer struct {
	t         testing.TB
	anonymous bool
}

// Do sends req.
func (d checkingDoer) Do(req *http.Request) (*http.Response, error) {
	track(d.t)
	if !d.anonymous {
		authorize(req)
	}
	var reqBody []byte
	if req.GetBody != nil {
		if b, err := req.GetBody(); err == nil {
			reqBody, _ = io.ReadAll(b)
		}
	}
	resp, err := httpClient.Do(req)
	if err != nil {
		return nil, err
	}
	calls.add(req, resp.StatusCode)
	if resp.StatusCode >= 500 && (isStrict(d.t) || resp.StatusCode == http.StatusNotImplemented) {
		// Read the body for the message, and give it back to the SDK.
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		checkServerStatus(d.t, req, reqBody, resp.StatusCode, body)
	}
	if !isStrict(d.t) {
		return resp, nil
	}
	if ct, want := resp.Header.Get("Content-Type"), answerType(req.URL.Path, resp.StatusCode); !strings.HasPrefix(ct, want) {
		d.t.Errorf("%s %s answered Content-Type %q, want %s", req.Method, req.URL.RequestURI(), ct, want)
	}
	if resp.Header.Get("X-Request-Id") == "" {
		d.t.Errorf("%s %s answered without an X-Request-Id header", req.Method, req.URL.RequestURI())
	}
	return resp, nil
}

// api returns an SDK client for the gateway under test whose responses are
// checked against the rules every response must follow.
func api(t testing.TB) *edgeclient.ClientWithResponses {
	t.Helper()
	return apiAt(t, baseURL)
}

// apiAt is api for the gateway at url.
func apiAt(t testing.TB, url string) *edgeclient.ClientWithResponses {
	t.Helper()
	track(t)
	c, err := edgeclient.NewClientWithResponses(url, edgeclient.WithHTTPClient(checkingDoer{t: t}))
	if err != nil {
		t.Fatalf("create SDK client: %v", err)
	}
	return c
}

// apiAnonymous is api for requests that must go without a token: the
// suite's own token (-token, or its admin session on a gateway whose
// authentication is mandatory) is not added.
func apiAnonymous(t testing.TB) *edgeclient.ClientWithResponses {
	t.Helper()
	track(t)
	c, err := edgeclient.NewClientWithResponses(baseURL, edgeclient.WithHTTPClient(checkingDoer{t: t, anonymous: true}))
	if err != nil {
		t.Fatalf("create SDK client: %v", err)
	}
	return c
}

// unique returns prefix followed by random hex, so that whatever a test
// creates does not collide with other data or an earlier run.
func unique(prefix string) string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}

func ptr[T any](v T) *T { return &v }

// must fails the test when err is not nil (a transport error of the SDK).
func must(t testing.TB, err error) {
	t.Helper()
	track(t)
	if err != nil {
		t.Fatalf("request failed: %v", err)
	}
}

// wantStatus fails the test unless got is want, quoting the body.
func wantStatus(t testing.TB, what string, got int, body []byte, want int) {
	t.Helper()
	track(t)
	if got != want {
		t.Fatalf("%s: status %d, want %d; body: %s", what, got, want, truncate(body))
	}
}

func truncate(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// checkError asserts that a response is an error of status wantStatus whose
// body is exactly {"message": "<non-empty single line>"}, and returns the
// message. Seed tests check the status only: the specification shows no
// error body.
func checkError(t testing.TB, status int, body []byte, wantStatus int) string {
	t.Helper()
	track(t)
	if status != wantStatus {
		t.Errorf("status %d, want %d; body: %s", status, wantStatus, truncate(body))
		return ""
	}
	if !isStrict(t) {
		return ""
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Errorf("error body is not a JSON object: %v; body: %s", err, truncate(body))
		return ""
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	if len(obj) != 1 || obj["message"] == nil {
		t.Errorf("error body has keys %v, want exactly [message]; body: %s", keys, truncate(body))
	}
	var msg string
	if err := json.Unmarshal(obj["message"], &msg); err != nil {
		t.Errorf("error message is not a string: %s", obj["message"])
		return ""
	}
	if strings.TrimSpace(msg) == "" {
		t.Errorf("error message is empty")
	}
	if strings.ContainsAny(msg, "\r\n") {
		t.Errorf("error message is not a single line: %q", msg)
	}
	return msg
}

// rawResponse is the answer to a request sent with doRaw.
type rawResponse struct {
	status int
	header http.Header
	body   []byte
	// req and sent are the request as sent and a copy of its body, for
	// checkServerStatus.
	req  *http.Request
	sent []byte
}

// rawRequest describes a request sent without the SDK.
type rawRequest struct {
	method  string
	path    string // appended to baseURL verbatim, percent-escapes included
	body    io.Reader
	ctype   string // Content-Type; "" sends none
	headers map[string]string
	// anonymous sends the request without the suite's token (see
	// suiteToken); headers may still carry one.
	anonymous bool
}

// doRaw sends a request through net/http, so tests can send what the SDK
// cannot: malformed bodies, wrong methods, hand-escaped paths, headers. It
// checks the rules every response must follow (see checkRaw) and records
// the call for the operation coverage.
func doRaw(t testing.TB, r rawRequest) rawResponse {
	t.Helper()
	return doRawWith(t, httpClient, r)
}

// doRawWith is doRaw through client.
func doRawWith(t testing.TB, client *http.Client, r rawRequest) rawResponse {
	t.Helper()
	track(t)
	resp, err := sendRaw(t.Context(), client, r)
	if err != nil {
		t.Fatal(err)
	}
	checkRaw(t, r, resp)
	return resp
}

// sendRaw sends r through client and records the call for the operation
// coverage. Unlike doRaw it reports to no test, so that many requests can
// be sent at once from goroutines; check each answer with checkRaw.
func sendRaw(ctx context.Context, client *http.Client, r rawRequest) (rawResponse, error) {
	// Keep a copy of the body for checkServerStatus. A body of known
	// length is sent as before, with its Content-Length; any other reader
	// (a test hiding the length) is still streamed, and copied on the way.
	var sent bytes.Buffer
	reqBody := r.body
	switch b := r.body.(type) {
	case *bytes.Reader, *strings.Reader, *bytes.Buffer:
		if _, err := sent.ReadFrom(b); err != nil {
			return rawResponse{}, fmt.Errorf("read the body of %s %s: %w", r.method, r.path, err)
		}
		reqBody = bytes.NewReader(sent.Bytes())
	case nil:
	default:
		reqBody = io.TeeReader(b, &sent)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, baseURL+r.path, reqBody)
	if err != nil {
		return rawResponse{}, fmt.Errorf("build %s %s: %w", r.method, r.path, err)
	}
	if r.ctype != "" {
		req.Header.Set("Content-Type", r.ctype)
	}
	for k, v := range r.headers {
		req.Header.Set(k, v)
	}
	if !r.anonymous {
		authorize(req)
	}
	resp, err := client.Do(req)
	if err != nil {
		return rawResponse{}, fmt.Errorf("%s %s: %w", r.method, r.path, err)
	}
	calls.add(req, resp.StatusCode)
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return rawResponse{}, fmt.Errorf("%s %s: read body: %w", r.method, r.path, err)
	}
	return rawResponse{status: resp.StatusCode, header: resp.Header, body: body, req: req, sent: sent.Bytes()}, nil
}

// answerType is the media type the contract gives the answer with status
// to a request for path: JSON, but for the metrics, which are the
// Prometheus text format.
func answerType(path string, status int) string {
	if strings.HasSuffix(path, "/edge/metrics") && status == http.StatusOK {
		return "text/plain; version=0.0.4"
	}
	if strings.HasPrefix(path, "/edge/backup/") && strings.HasSuffix(path, "/download") && status == http.StatusOK {
		return "application/gzip"
	}
	return "application/json"
}

// checkRaw checks the rules every answer must follow: a 501 only for what
// is not built; in strict tests also no other 5xx, a JSON body and an
// X-Request-Id header.
func checkRaw(t testing.TB, r rawRequest, resp rawResponse) {
	t.Helper()
	if resp.status == http.StatusNotImplemented || (resp.status >= 500 && isStrict(t)) {
		checkServerStatus(t, resp.req, resp.sent, resp.status, resp.body)
	}
	if !isStrict(t) {
		return
	}
	want := answerType(resp.req.URL.Path, resp.status)
	if ct := resp.header.Get("Content-Type"); !strings.HasPrefix(ct, want) {
		t.Errorf("%s %s answered Content-Type %q, want %s", r.method, r.path, ct, want)
	}
	if want == "application/json" && !json.Valid(resp.body) {
		t.Errorf("%s %s answered a body that is not JSON: %s", r.method, r.path, truncate(resp.body))
	}
	if resp.header.Get("X-Request-Id") == "" {
		t.Errorf("%s %s answered without an X-Request-Id header", r.method, r.path)
	}
}

// jsonBody returns a reader over the JSON encoding of v.
func jsonBody(t testing.TB, v any) io.Reader {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode request: %v", err)
	}
	return bytes.NewReader(b)
}

// normalize returns v as it reads back after a JSON round trip (numbers
// become float64), for comparing what was sent with what came back.
func normalize(t testing.TB, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode: %v", err)
	}
	return out
}

func jsonEqual(t testing.TB, a, b any) bool {
	t.Helper()
	return reflect.DeepEqual(normalize(t, a), normalize(t, b))
}

func jsonString(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

// ---- audit helpers ----

// listAudit lists audit entries and fails the test unless the call succeeds.
func listAudit(t testing.TB, params edgeclient.ListAuditEntriesParams) *edgeclient.AuditList {
	t.Helper()
	resp, err := api(t).ListAuditEntriesWithResponse(t.Context(), &params)
	must(t, err)
	wantStatus(t, "listAuditEntries", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listAuditEntries: no JSON body: %s", truncate(resp.Body))
	}
	wantTimestamps(t, "listAuditEntries", resp.Body, specTimestamp)
	return resp.JSON200
}

// rawTimestamps returns the values of every member named key (by default
// "timestamp") of a JSON body as sent, arrays in order: the SDK decodes
// timestamps into edgeclient.Time, which does not keep their text.
func rawTimestamps(t testing.TB, body []byte, key ...string) []string {
	t.Helper()
	var doc any
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatalf("body is not JSON: %v: %s", err, truncate(body))
	}
	name := "timestamp"
	if len(key) > 0 {
		name = key[0]
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			if ts, ok := v[name].(string); ok {
				out = append(out, ts)
			}
			for _, k := range slices.Sorted(maps.Keys(v)) {
				walk(v[k])
			}
		}
	}
	walk(doc)
	return out
}

// wantTimestamps fails the test unless every member named key (by default
// "timestamp") of body matches re.
func wantTimestamps(t testing.TB, what string, body []byte, re *regexp.Regexp, key ...string) {
	t.Helper()
	for _, ts := range rawTimestamps(t, body, key...) {
		if !re.MatchString(ts) {
			t.Errorf("%s: timestamp %q does not match %s", what, ts, re)
		}
	}
}

// auditCount is the totalCount of entries of one source.
func auditCount(t testing.TB, source edgeclient.AuditSource) int {
	t.Helper()
	return listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(1)}).TotalCount
}

// configAudit returns the newest entry of source (CONCH or CONAD) whose
// details name the category (and the item, when item is not empty), or nil.
func configAudit(t testing.TB, source edgeclient.AuditSource, category, item string) *edgeclient.AuditEntry {
	t.Helper()
	list := listAudit(t, edgeclient.ListAuditEntriesParams{Source: &source, Limit: ptr(200)})
	for i, e := range list.Audit {
		if source == edgeclient.CONAD {
			// CONAD details name the category; the key is matched
			// wherever the gateway puts it, as a string value.
			if slices.Contains(stringValues(e.Details), category) {
				return &list.Audit[i]
			}
			continue
		}
		if e.Details["category"] == category && (item == "" || e.Details["item"] == item) {
			return &list.Audit[i]
		}
	}
	return nil
}

// stringValues returns the top-level string values of m.
func stringValues(m map[string]any) []string {
	var out []string
	for _, v := range m {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// ---- configuration helpers ----

// def builds an item definition.
func def(typ edgeclient.ConfigItemType, dflt string) edgeclient.ConfigItemDefinition {
	d := edgeclient.ConfigItemDefinition{Description: "conformance " + string(typ) + " item", Type: typ}
	if dflt != "" {
		d.Default = ptr(dflt)
	}
	return d
}

// createCategory creates (or merges into) a category and fails the test
// unless the call succeeds.
func createCategory(t testing.TB, body edgeclient.CategoryCreate) *edgeclient.CategoryCreated {
	t.Helper()
	resp, err := api(t).CreateCategoryWithResponse(t.Context(), body)
	must(t, err)
	wantStatus(t, "createCategory "+body.Key, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("createCategory %s: no JSON body: %s", body.Key, truncate(resp.Body))
	}
	return resp.JSON200
}

// getCategory reads a category and fails the test unless it exists.
func getCategory(t testing.TB, key string) edgeclient.Category {
	t.Helper()
	resp, err := api(t).GetCategoryWithResponse(t.Context(), key)
	must(t, err)
	wantStatus(t, "getCategory "+key, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("getCategory %s: no JSON body: %s", key, truncate(resp.Body))
	}
	return *resp.JSON200
}

// getItem reads one item and fails the test unless it exists.
func getItem(t testing.TB, key, item string) edgeclient.ConfigItem {
	t.Helper()
	resp, err := api(t).GetCategoryItemWithResponse(t.Context(), key, item)
	must(t, err)
	wantStatus(t, "getCategoryItem "+key+"/"+item, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("getCategoryItem %s/%s: no JSON body: %s", key, item, truncate(resp.Body))
	}
	return *resp.JSON200
}

// setItem sets an item's value and fails the test unless the call succeeds.
func setItem(t testing.TB, key, item, value string) edgeclient.ConfigItem {
	t.Helper()
	resp, err := api(t).SetCategoryItemWithResponse(t.Context(), key, item, edgeclient.SetCategoryItemJSONRequestBody{Value: value})
	must(t, err)
	wantStatus(t, fmt.Sprintf("setCategoryItem %s/%s = %q", key, item, value), resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("setCategoryItem %s/%s: no JSON body: %s", key, item, truncate(resp.Body))
	}
	return *resp.JSON200
}

// resetItem resets an item to its default and fails the test unless the
// call succeeds.
func resetItem(t testing.TB, key, item string) edgeclient.ConfigItem {
	t.Helper()
	resp, err := api(t).ResetCategoryItemWithResponse(t.Context(), key, item)
	must(t, err)
	wantStatus(t, "resetCategoryItem "+key+"/"+item, resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("resetCategoryItem %s/%s: no JSON body: %s", key, item, truncate(resp.Body))
	}
	return *resp.JSON200
}

// categoryKeys lists the keys of all categories.
func categoryKeys(t testing.TB) []string {
	t.Helper()
	resp, err := api(t).ListCategoriesWithResponse(t.Context(), nil)
	must(t, err)
	wantStatus(t, "listCategories", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200 == nil {
		t.Fatalf("listCategories: no JSON body: %s", truncate(resp.Body))
	}
	keys := make([]string, 0, len(resp.JSON200.Categories))
	for _, c := range resp.JSON200.Categories {
		keys = append(keys, c.Key)
	}
	return keys
}

// wantNoCategory asserts that key does not exist.
func wantNoCategory(t testing.TB, key string) {
	t.Helper()
	resp, err := api(t).GetCategoryWithResponse(t.Context(), key)
	must(t, err)
	if resp.StatusCode() != http.StatusNotFound {
		t.Errorf("getCategory %q after the refused create: status %d, want 404; body: %s", key, resp.StatusCode(), truncate(resp.Body))
	}
	if slices.Contains(categoryKeys(t), key) {
		t.Errorf("listCategories holds %q after the refused create", key)
	}
}

// restoreItem puts value back into an item, for t.Cleanup (where
// t.Context() is already cancelled). It writes only when the value differs,
// so no needless CONCH entry is caused.
func restoreItem(t testing.TB, key, item, value string) {
	t.Helper()
	ctx := context.Background()
	c := api(t)
	cur, err := c.GetCategoryItemWithResponse(ctx, key, item)
	if err != nil {
		t.Errorf("restore %s/%s: %v", key, item, err)
		return
	}
	if cur.JSON200 != nil && cur.JSON200.Value == value {
		return
	}
	resp, err := c.SetCategoryItemWithResponse(ctx, key, item, edgeclient.SetCategoryItemJSONRequestBody{Value: value})
	if err != nil {
		t.Errorf("restore %s/%s: %v", key, item, err)
		return
	}
	if resp.StatusCode() != http.StatusOK {
		t.Errorf("restore %s/%s to %q: status %d; body: %s", key, item, value, resp.StatusCode(), truncate(resp.Body))
	}
}

// edgeTextCategory is a category with one string item "text" = "short".
func edgeTextCategory(key string) edgeclient.CategoryCreate {
	return edgeclient.CategoryCreate{Key: key, Description: ptr("conformance text"),
		Items: &map[string]edgeclient.ConfigItemDefinition{"text": def(edgeclient.String, "short")}}
}
