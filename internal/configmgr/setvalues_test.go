package configmgr

import (
	"context"
	"slices"
	"testing"

	"github.com/edged/edged/internal/fault"
)

func TestSetValues(t *testing.T) {
	tests := []struct {
		name      string
		values    map[string]string
		kind      *fault.Kind // nil: must succeed
		msg       string
		want      map[string]string // stored values afterwards
		wantCONCH []string
	}{
		{
			name:   "several",
			values: map[string]string{"port": "9000", "flag": "FALSE", "label": "abc", "secret": "n3w"},
			want:   map[string]string{"port": "9000", "flag": "false", "label": "abc", "secret": "n3w"},
			wantCONCH: []string{
				`{"category":"test","item":"flag","oldValue":"true","newValue":"false"}`,
				`{"category":"test","item":"port","oldValue":"8081","newValue":"9000"}`,
				`{"category":"test","item":"secret","oldValue":"****","newValue":"****"}`,
			},
		},
		{
			name:   "one invalid stores nothing",
			values: map[string]string{"port": "9000", "ratio": "2"},
			kind:   fault.Invalid, msg: `value 2 of item "ratio" in category "test" is above the maximum 1.5`,
			want: map[string]string{"port": "8081", "ratio": "0.5"},
		},
		{
			name:   "readonly",
			values: map[string]string{"port": "9000", "fixed": "2.0"},
			kind:   fault.Invalid, msg: `item "fixed" in category "test" is read-only`,
			want: map[string]string{"port": "8081"},
		},
		{
			name:   "unknown item stores nothing",
			values: map[string]string{"port": "9000", "ghost": "1"},
			kind:   fault.NotFound, msg: `item "ghost" in category "test" not found`,
			want: map[string]string{"port": "8081"},
		},
		{
			name: "none", values: map[string]string{},
			kind: fault.Invalid, msg: `no item values given for category "test"`,
		},
		{name: "unchanged", values: map[string]string{"port": "8081", "flag": "True"}, want: map[string]string{"port": "8081"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newTestFixture(t)
			var notes int
			f.m.Subscribe(testCategory, func(context.Context, Category) error { notes++; return nil })
			c, err := f.m.SetValues(t.Context(), testCategory, tt.values)
			if tt.kind != nil {
				wantFault(t, err, tt.kind, tt.msg)
			} else if err != nil {
				t.Fatalf("SetValues: %v", err)
			}
			for item, want := range tt.want {
				if got := f.stored(t, item); got != want {
					t.Errorf("stored %s = %q, want %q", item, got, want)
				}
			}
			var conch []string
			for _, e := range f.audit.bySource("CONCH") {
				conch = append(conch, e.Details)
			}
			if !slices.Equal(conch, tt.wantCONCH) {
				t.Errorf("CONCH %q, want %q", conch, tt.wantCONCH)
			}
			if want := min(len(tt.wantCONCH), 1); notes != want {
				t.Errorf("listeners notified %d times, want %d", notes, want)
			}
			if tt.kind == nil {
				if len(c.Items) != len(testInput().Items) || c.Items["secret"].Value != PasswordMask {
					t.Errorf("returned category %+v, want every item, passwords masked", c.Items)
				}
			}
		})
	}
	t.Run("unknown category", func(t *testing.T) {
		f := newTestFixture(t)
		_, err := f.m.SetValues(t.Context(), "ghost", map[string]string{"a": "b"})
		wantFault(t, err, fault.NotFound, `category "ghost" not found`)
	})
}
