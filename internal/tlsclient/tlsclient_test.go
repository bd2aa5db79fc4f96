package tlsclient

import (
	"crypto/tls"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edged/edged/internal/simtest"
)

func TestConfig(t *testing.T) {
	ca := simtest.NewServerTLS(t).CAPEM
	tests := []struct {
		name     string
		pem      string
		wantPool bool
		wantErr  error
	}{
		{name: "system roots", pem: ""},
		{name: "an authority", pem: ca, wantPool: true},
		{name: "no certificate", pem: "not a certificate", wantErr: ErrNoCertificate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := Config("broker.example", []byte(tt.pem))
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if cfg.MinVersion != tls.VersionTLS12 || cfg.ServerName != "broker.example" {
				t.Errorf("MinVersion %x, ServerName %q", cfg.MinVersion, cfg.ServerName)
			}
			if (cfg.RootCAs != nil) != tt.wantPool {
				t.Errorf("RootCAs set = %v, want %v", cfg.RootCAs != nil, tt.wantPool)
			}
		})
	}
}

func TestConfigFile(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "ca.pem")
	bad := filepath.Join(dir, "bad.pem")
	if err := os.WriteFile(good, []byte(simtest.NewServerTLS(t).CAPEM), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, file, wantErr string
		wantPool            bool
	}{
		{name: "none", file: ""},
		{name: "an authority", file: good, wantPool: true},
		{name: "missing", file: filepath.Join(dir, "absent.pem"), wantErr: "CA file: "},
		{name: "no certificate", file: bad, wantErr: "holds no PEM certificate"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ConfigFile("mail.example", tt.file)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (cfg.RootCAs != nil) != tt.wantPool {
				t.Errorf("RootCAs set = %v, want %v", cfg.RootCAs != nil, tt.wantPool)
			}
		})
	}
}
