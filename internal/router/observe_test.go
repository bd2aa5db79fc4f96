package router

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
)

func TestObserve(t *testing.T) {
	spec, err := openapi3.NewLoader().LoadFromData([]byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		op     string
		status int
	}
	var got []seen
	rt := New(Options{Spec: spec, WriteError: writeTestError, MaxBodyBytes: 64,
		Observe: func(op string, status int, d time.Duration) {
			if d < 0 {
				t.Errorf("negative duration %v", d)
			}
			got = append(got, seen{op, status})
		}})
	rt.Get("/edge/asset/{code}", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "{}") })
	rt.Post("/edge/thing", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusConflict) })
	rt.Get("/edge/boom", func(http.ResponseWriter, *http.Request) { panic("kaboom") })
	rt.Unvalidated().Get("/edge/docs", func(http.ResponseWriter, *http.Request) {})

	tests := []struct {
		name, method, path, body string
		want                     seen
	}{
		{name: "answered", method: http.MethodGet, path: "/edge/asset/a", want: seen{"getAsset", 200}},
		{name: "invalid", method: http.MethodGet, path: "/edge/asset/toolongcode", want: seen{"getAsset", 400}},
		{name: "handler status", method: http.MethodPost, path: "/edge/thing", body: `{"name":"x"}`, want: seen{"createThing", 409}},
		{name: "panic", method: http.MethodGet, path: "/edge/boom", want: seen{"boom", 500}},
		{name: "outside the contract", method: http.MethodGet, path: "/edge/docs", want: seen{"", 200}},
		{name: "unknown route", method: http.MethodGet, path: "/edge/nothing", want: seen{"", 404}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			rt.ServeHTTP(httptest.NewRecorder(), req)
			if len(got) != 1 || got[0] != tt.want {
				t.Errorf("observed %v, want [%v]", got, tt.want)
			}
		})
	}
}
