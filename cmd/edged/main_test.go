package main

import (
	"log/slog"
	"testing"

	"github.com/edged/edged/db"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name     string
		env      map[string]string
		args     []string
		wantData string
		wantPort int
		wantDB   string
		wantSafe bool
		// wantLevel is the start level; wantFixed whether it was chosen
		// for this run (LOGGING.logLevel then does not set it at start).
		wantLevel slog.Level
		wantFixed bool
		wantDur   db.Durability
		wantErr   bool
	}{
		{name: "defaults", wantData: "./data", wantDur: db.Power},
		{name: "environment", env: map[string]string{"EDGE_DATA": "/var/edged", "EDGE_PORT": "9000", "EDGE_DB": "postgres://x", "EDGE_SAFE_MODE": "true"},
			wantData: "/var/edged", wantPort: 9000, wantDB: "postgres://x", wantSafe: true, wantDur: db.Power},
		{name: "durability from the environment", env: map[string]string{"EDGE_DURABILITY": "process"}, wantData: "./data", wantDur: db.Process},
		{name: "durability flag", env: map[string]string{"EDGE_DURABILITY": "process"}, args: []string{"--durability", "power"},
			wantData: "./data", wantDur: db.Power},
		{name: "unknown durability", args: []string{"--durability", "fsync"}, wantErr: true},
		{name: "flags win over environment", env: map[string]string{"EDGE_PORT": "9000"}, args: []string{"--port", "9100", "--data", "d"},
			wantData: "d", wantPort: 9100, wantDur: db.Power},
		{name: "bad port in environment", env: map[string]string{"EDGE_PORT": "http"}, wantErr: true},
		{name: "port out of range", args: []string{"--port", "70000"}, wantErr: true},
		{name: "bad log level", args: []string{"--log-level", "loud"}, wantErr: true},
		{name: "log level flag", args: []string{"--log-level", "warning"}, wantData: "./data", wantDur: db.Power, wantLevel: slog.LevelWarn, wantFixed: true},
		{name: "log level flag of the default", args: []string{"--log-level", "info"}, wantData: "./data", wantDur: db.Power, wantFixed: true},
		{name: "log level in environment", env: map[string]string{"EDGE_LOG_LEVEL": "debug"}, wantData: "./data", wantDur: db.Power, wantLevel: slog.LevelDebug, wantFixed: true},
		{name: "stray argument", args: []string{"serve"}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, k := range []string{"EDGE_DATA", "EDGE_PORT", "EDGE_DB", "EDGE_SAFE_MODE", "EDGE_LOG_LEVEL", "EDGE_DURABILITY"} {
				t.Setenv(k, tc.env[k])
			}
			cfg, level, err := parseFlags(tc.args)
			if tc.wantErr {
				if err == nil {
					t.Fatal("no error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if cfg.DataDir != tc.wantData || cfg.Port != tc.wantPort || cfg.DB != tc.wantDB || cfg.SafeMode != tc.wantSafe || cfg.Durability != tc.wantDur {
				t.Fatalf("got %+v", cfg)
			}
			if level != tc.wantLevel || cfg.LogLevelFixed != tc.wantFixed {
				t.Errorf("log level %v fixed %v, want %v fixed %v", level, cfg.LogLevelFixed, tc.wantLevel, tc.wantFixed)
			}
		})
	}
}
