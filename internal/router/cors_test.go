package router

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestCORS(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	allowed := "https://hmi.example"
	rt := New(Options{Spec: spec, WriteError: writeTestError, AllowOrigin: func(origin string) (string, bool) {
		return origin, origin == allowed
	}})
	ok := func(w http.ResponseWriter, _ *http.Request) { w.Header().Set("Content-Type", "application/json") }
	rt.Get("/edge/asset/{code}", ok)
	rt.Delete("/edge/asset/{code}", ok)

	tests := []struct {
		name    string
		method  string
		path    string
		headers map[string]string
		want    int
		wantHdr map[string]string // "" means absent
	}{
		{name: "preflight from an allowed origin", method: "OPTIONS", path: "/edge/asset/pump",
			headers: map[string]string{"Origin": allowed, "Access-Control-Request-Method": "DELETE", "Access-Control-Request-Headers": "authorization"},
			want:    http.StatusNoContent,
			wantHdr: map[string]string{"Access-Control-Allow-Origin": allowed, "Access-Control-Allow-Methods": "GET, DELETE",
				"Access-Control-Allow-Headers": "Authorization, Authtoken, Content-Type, X-Request-Id", "Access-Control-Max-Age": "600"}},
		{name: "preflight from another origin", method: "OPTIONS", path: "/edge/asset/pump",
			headers: map[string]string{"Origin": "https://evil.example", "Access-Control-Request-Method": "GET"},
			want:    http.StatusForbidden, wantHdr: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "preflight of an unknown path", method: "OPTIONS", path: "/edge/nothing",
			headers: map[string]string{"Origin": allowed, "Access-Control-Request-Method": "GET"},
			want:    http.StatusNotFound, wantHdr: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "OPTIONS that is no preflight", method: "OPTIONS", path: "/edge/asset/pump",
			headers: map[string]string{"Origin": allowed}, want: http.StatusMethodNotAllowed},
		{name: "request from an allowed origin", method: "GET", path: "/edge/asset/pump",
			headers: map[string]string{"Origin": allowed}, want: http.StatusOK,
			wantHdr: map[string]string{"Access-Control-Allow-Origin": allowed, "Access-Control-Expose-Headers": "X-Request-Id, Retry-After", "Vary": "Origin"}},
		{name: "error to an allowed origin carries the headers too", method: "GET", path: "/edge/asset/toolongcode",
			headers: map[string]string{"Origin": allowed}, want: http.StatusBadRequest,
			wantHdr: map[string]string{"Access-Control-Allow-Origin": allowed}},
		{name: "request from another origin", method: "GET", path: "/edge/asset/pump",
			headers: map[string]string{"Origin": "https://evil.example"}, want: http.StatusOK,
			wantHdr: map[string]string{"Access-Control-Allow-Origin": ""}},
		{name: "same-origin request", method: "GET", path: "/edge/asset/pump", want: http.StatusOK,
			wantHdr: map[string]string{"Access-Control-Allow-Origin": "", "Vary": ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(tc.method, tc.path, nil)
			for k, v := range tc.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			rt.ServeHTTP(rec, req)
			if rec.Code != tc.want {
				t.Fatalf("status %d, want %d; body %s", rec.Code, tc.want, rec.Body)
			}
			for k, want := range tc.wantHdr {
				if got := rec.Header().Get(k); got != want {
					t.Errorf("%s = %q, want %q", k, got, want)
				}
			}
			if rec.Header().Get("X-Request-Id") == "" {
				t.Error("no X-Request-Id")
			}
		})
	}

	t.Run("no policy allows none", func(t *testing.T) {
		rt := New(Options{Spec: spec, WriteError: writeTestError})
		rt.Get("/edge/asset/{code}", ok)
		req := httptest.NewRequest("OPTIONS", "/edge/asset/pump", nil)
		req.Header.Set("Origin", allowed)
		req.Header.Set("Access-Control-Request-Method", "GET")
		rec := httptest.NewRecorder()
		rt.ServeHTTP(rec, req)
		if rec.Code != http.StatusForbidden {
			t.Errorf("status %d, want 403", rec.Code)
		}
	})
}
