package audit

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
)

type fakeStore struct {
	entries []db.AuditEntry
	filter  db.AuditFilter
}

func (f *fakeStore) InsertAudit(_ context.Context, e db.AuditEntry) (db.AuditEntry, error) {
	e.ID = int64(len(f.entries) + 1)
	f.entries = append(f.entries, e)
	return e, nil
}

func (f *fakeStore) ListAudit(_ context.Context, q db.AuditFilter) ([]db.AuditEntry, int, error) {
	f.filter = q
	return f.entries, len(f.entries), nil
}

func newLogger() (*Logger, *fakeStore) {
	s := &fakeStore{}
	return New(s, slog.New(slog.NewTextHandler(io.Discard, nil))), s
}

func TestCreate(t *testing.T) {
	tests := []struct {
		name     string
		source   string
		severity string
		details  map[string]any
		wantSev  string
		wantJSON string
		wantErr  bool
	}{
		{name: "canonical", source: "LOGGN", severity: "WARNING", details: map[string]any{"a": 1}, wantSev: "WARNING", wantJSON: `{"a":1}`},
		{name: "lower-case severity", source: "START", severity: "information", wantSev: "INFORMATION", wantJSON: `{}`},
		{name: "nil details become empty object", source: "NTFSN", severity: "Success", details: nil, wantSev: "SUCCESS", wantJSON: `{}`},
		{name: "unknown source", source: "NOPE1", severity: "SUCCESS", wantErr: true},
		{name: "lower-case source is unknown", source: "conch", severity: "SUCCESS", wantErr: true},
		{name: "unknown severity", source: "CONCH", severity: "FATAL", wantErr: true},
		{name: "empty severity", source: "CONCH", severity: "", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, s := newLogger()
			e, err := l.Create(context.Background(), tc.source, tc.severity, tc.details)
			if tc.wantErr {
				if !errors.Is(err, fault.Invalid) {
					t.Fatalf("err = %v, want fault.Invalid", err)
				}
				if len(s.entries) != 0 {
					t.Fatalf("stored %d entries on error", len(s.entries))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Severity != tc.wantSev || string(e.Details) != tc.wantJSON {
				t.Fatalf("got %s %s, want %s %s", e.Severity, e.Details, tc.wantSev, tc.wantJSON)
			}
		})
	}
}

func TestListValidatesFilters(t *testing.T) {
	tests := []struct {
		name    string
		filter  Filter
		wantSev string
		wantErr bool
	}{
		{name: "no filter", filter: Filter{Limit: 20}},
		{name: "severity normalised", filter: Filter{Severity: "failure"}, wantSev: "FAILURE"},
		{name: "unknown severity", filter: Filter{Severity: "LOUD"}, wantErr: true},
		{name: "unknown source", filter: Filter{Source: "XXXXX"}, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, s := newLogger()
			_, _, err := l.List(context.Background(), tc.filter)
			if tc.wantErr != (err != nil) {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err == nil && s.filter.Severity != tc.wantSev {
				t.Fatalf("severity passed to store = %q, want %q", s.filter.Severity, tc.wantSev)
			}
		})
	}
}

func TestRecordRejectsNonObjectDetails(t *testing.T) {
	l, _ := newLogger()
	if err := l.Record(context.Background(), "START", Information, []int{1}); err == nil {
		t.Fatal("Record accepted an array as details")
	}
	if err := l.Record(context.Background(), "START", Information, map[string]string{"version": "1"}); err != nil {
		t.Fatal(err)
	}
}

// TestCodesFollowTheContract: the codes the gateway lists (GET
// /edge/audit/logcode) and accepts are exactly the contract's AuditSource
// enum, in its order, each with a description; the severities are the
// AuditSeverity enum.
func TestCodesFollowTheContract(t *testing.T) {
	spec, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	var enum []string
	for _, v := range spec.Components.Schemas["AuditSource"].Value.Enum {
		enum = append(enum, v.(string))
	}
	if !slices.Equal(Sources, enum) {
		t.Errorf("Sources %q, want the contract's %q", Sources, enum)
	}
	for _, c := range Codes {
		if c.Description == "" {
			t.Errorf("code %s has no description", c.Code)
		}
	}
	var sevs []string
	for _, v := range spec.Components.Schemas["AuditSeverity"].Value.Enum {
		sevs = append(sevs, v.(string))
	}
	var names []string
	for _, s := range Severities {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, sevs) {
		t.Errorf("Severities %q, want the contract's %q", names, sevs)
	}
}
