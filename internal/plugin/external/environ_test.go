package external

import (
	"slices"
	"testing"
)

func TestEnviron(t *testing.T) {
	gateway := []string{"PATH=/usr/bin", "HOME=/root", "LANG=C.UTF-8", "LC_ALL=C", "LC_TIME=en_GB",
		"EDGE_ADMIN_PASSWORD=secret", "EDGE_DB=postgres://u:p@db/edge", "AWS_SECRET_ACCESS_KEY=x", "PATHS=no", "malformed"}
	cases := []struct {
		name, allow string
		want        []string
	}{
		{"names", "PATH,HOME", []string{"PATH=/usr/bin", "HOME=/root"}},
		{"prefix", "LC_*", []string{"LC_ALL=C", "LC_TIME=en_GB"}},
		{"spaces and empty entries", " PATH , ,LANG,", []string{"PATH=/usr/bin", "LANG=C.UTF-8"}},
		{"the gateway's settings never", "EDGE_ADMIN_PASSWORD,EDGE_*,PATH", []string{"PATH=/usr/bin"}},
		{"everything is not a name", "*", []string{"PATH=/usr/bin", "HOME=/root", "LANG=C.UTF-8", "LC_ALL=C", "LC_TIME=en_GB",
			"AWS_SECRET_ACCESS_KEY=x", "PATHS=no"}},
		{"empty", "", []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := Environ(tc.allow, gateway); !slices.Equal(got, tc.want) {
				t.Errorf("Environ(%q) = %q, want %q", tc.allow, got, tc.want)
			}
		})
	}
}
