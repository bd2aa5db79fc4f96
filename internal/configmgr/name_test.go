package configmgr

import (
	"errors"
	"strings"
	"testing"

	"github.com/edged/edged/internal/fault"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string // "" for a valid name
	}{
		{name: "plain", in: "boiler-1"},
		{name: "slash and unicode", in: "site/Ofen ünf"},
		{name: "longest", in: strings.Repeat("é", MaxName)},
		{name: "empty", in: "", wantErr: "empty"},
		{name: "too long", in: strings.Repeat("a", MaxName+1), wantErr: "longer than 100"},
		{name: "control character", in: "a\tb", wantErr: "control character"},
		{name: "invalid UTF-8", in: "a\xffb", wantErr: "control character"},
		{name: "leading space", in: " a", wantErr: "leading or trailing space"},
		{name: "trailing space", in: "a ", wantErr: "leading or trailing space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckName("widget", tt.in)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckName(%q) = %v", tt.in, err)
				}
				return
			}
			if !errors.Is(err, fault.Invalid) || !strings.Contains(err.Error(), tt.wantErr) || !strings.HasPrefix(err.Error(), "widget name") {
				t.Errorf("CheckName(%q) = %v, want an Invalid fault saying %q of the widget name", tt.in, err, tt.wantErr)
			}
		})
	}
}
