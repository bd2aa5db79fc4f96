package cors

import (
	"bytes"
	"context"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"github.com/edged/edged/internal/configmgr"
)

func TestAllow(t *testing.T) {
	tests := []struct {
		name        string
		value       string
		origin      string
		want        string
		ok          bool
		wantInvalid []string
	}{
		{name: "empty allows none", value: "", origin: "https://a.example"},
		{name: "listed", value: "https://a.example", origin: "https://a.example", want: "https://a.example", ok: true},
		{name: "one of several, spaces", value: " https://b.example , https://a.example:8443 ", origin: "https://a.example:8443", want: "https://a.example:8443", ok: true},
		{name: "case and trailing slash", value: "HTTPS://A.Example/", origin: "https://a.example", want: "https://a.example", ok: true},
		{name: "port matters", value: "https://a.example", origin: "https://a.example:8443"},
		{name: "scheme matters", value: "https://a.example", origin: "http://a.example"},
		{name: "no subdomain match", value: "https://example.com", origin: "https://evil.example.com"},
		{name: "any", value: "*", origin: "http://anything:1", want: "*", ok: true},
		{name: "any among others", value: "https://a.example,*", origin: "null", want: "*", ok: true},
		{name: "invalid entries reported, never match", value: "a.example, https://a.example/path, ,ftp://x?y", origin: "a.example",
			wantInvalid: []string{"a.example", "https://a.example/path", "ftp://x?y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, invalid := Parse(tt.value)
			if !slices.Equal(invalid, tt.wantInvalid) {
				t.Errorf("invalid = %q, want %q", invalid, tt.wantInvalid)
			}
			got, ok := p.Allow(tt.origin)
			if got != tt.want || ok != tt.ok {
				t.Errorf("Allow(%q) = %q, %v; want %q, %v", tt.origin, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// fakeSource holds rest_api.allowedOrigins and its one listener.
type fakeSource struct {
	value    string
	listener func(ctx context.Context, c configmgr.Category) error
}

func (f *fakeSource) Category(_ context.Context, key string) (configmgr.Category, error) {
	return f.category(), nil
}

func (f *fakeSource) category() configmgr.Category {
	return configmgr.Category{Key: configmgr.CategoryRESTAPI,
		Items: map[string]configmgr.Item{configmgr.ItemAllowedOrigins: {Value: f.value}}}
}

func (f *fakeSource) Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) func() {
	f.listener = fn
	return func() { f.listener = nil }
}

func (f *fakeSource) set(t *testing.T, v string) {
	t.Helper()
	f.value = v
	if f.listener != nil {
		if err := f.listener(t.Context(), f.category()); err != nil {
			t.Fatal(err)
		}
	}
}

func TestWatch(t *testing.T) {
	src := &fakeSource{value: "https://a.example"}
	var logs bytes.Buffer
	o, err := Watch(t.Context(), src, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := o.Allow("https://a.example"); !ok {
		t.Error("the initial value is not applied")
	}
	src.set(t, "https://b.example, b.example")
	if _, ok := o.Allow("https://a.example"); ok {
		t.Error("a removed origin is still allowed")
	}
	if _, ok := o.Allow("https://b.example"); !ok {
		t.Error("a changed value is not applied")
	}
	if !strings.Contains(logs.String(), "b.example") || !strings.Contains(logs.String(), "never match") {
		t.Errorf("an invalid entry is not logged: %s", logs.String())
	}
	o.Close()
	if src.listener != nil {
		t.Error("Close left the subscription")
	}
}
