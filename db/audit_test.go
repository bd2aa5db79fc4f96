package db_test

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

// insertAudit inserts e and fails the test on error.
func insertAudit(t *testing.T, d *db.DB, e db.AuditEntry) db.AuditEntry {
	t.Helper()
	got, err := d.InsertAudit(t.Context(), e)
	if err != nil {
		t.Fatalf("InsertAudit(%+v): %v", e, err)
	}
	return got
}

func TestInsertAudit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		paris := time.FixedZone("CEST", 2*60*60)
		tests := []struct {
			name        string
			in          db.AuditEntry
			wantTime    time.Time // zero: "now"
			wantDetails string
		}{
			{
				name:        "zero timestamp and nil details",
				in:          db.AuditEntry{Source: "START", Severity: "INFORMATION"},
				wantDetails: `{}`,
			},
			{
				name:        "explicit time is truncated to microseconds in UTC",
				in:          db.AuditEntry{Timestamp: time.Date(2026, 3, 4, 5, 6, 7, 123456789, paris), Source: "CONCH", Severity: "SUCCESS", Details: json.RawMessage(`{"category":"rest_api","item":"httpPort","old":"8081","new":"8082"}`)},
				wantTime:    time.Date(2026, 3, 4, 3, 6, 7, 123456000, time.UTC),
				wantDetails: `{"category":"rest_api","item":"httpPort","old":"8081","new":"8082"}`,
			},
			{
				name:        "nested details",
				in:          db.AuditEntry{Source: "SRVFL", Severity: "FAILURE", Details: json.RawMessage(`{"name":"sine","errors":[1,2.5,"x",null,true],"more":{"a":{}}}`)},
				wantDetails: `{"name":"sine","errors":[1,2.5,"x",null,true],"more":{"a":{}}}`,
			},
			{
				name:        "empty details",
				in:          db.AuditEntry{Source: "FSTOP", Severity: "WARNING", Details: json.RawMessage{}},
				wantDetails: `{}`,
			},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				before := time.Now().UTC().Truncate(time.Microsecond)
				got := insertAudit(t, d, tt.in)
				after := time.Now().UTC()
				if got.ID == 0 {
					t.Errorf("ID = 0, want the generated id")
				}
				if got.Timestamp.Location() != time.UTC {
					t.Errorf("Timestamp location = %v, want UTC", got.Timestamp.Location())
				}
				if got.Timestamp.Nanosecond()%1000 != 0 {
					t.Errorf("Timestamp %v has sub-microsecond digits", got.Timestamp)
				}
				if tt.wantTime.IsZero() {
					if got.Timestamp.Before(before) || got.Timestamp.After(after) {
						t.Errorf("Timestamp %v not within [%v, %v]", got.Timestamp, before, after)
					}
				} else if !got.Timestamp.Equal(tt.wantTime) {
					t.Errorf("Timestamp = %v, want %v", got.Timestamp, tt.wantTime)
				}
				if got.Source != tt.in.Source || got.Severity != tt.in.Severity {
					t.Errorf("Source, Severity = %q, %q; want %q, %q", got.Source, got.Severity, tt.in.Source, tt.in.Severity)
				}
				if !jsonEqual(t, got.Details, []byte(tt.wantDetails)) {
					t.Errorf("Details = %s, want %s", got.Details, tt.wantDetails)
				}

				// What was returned is what is stored.
				list, _, err := d.ListAudit(t.Context(), db.AuditFilter{Source: tt.in.Source})
				if err != nil {
					t.Fatalf("ListAudit: %v", err)
				}
				i := slices.IndexFunc(list, func(e db.AuditEntry) bool { return e.ID == got.ID })
				if i < 0 {
					t.Fatalf("entry %d not listed", got.ID)
				}
				stored := list[i]
				if !stored.Timestamp.Equal(got.Timestamp) || stored.Timestamp.Location() != time.UTC ||
					stored.Source != got.Source || stored.Severity != got.Severity || string(stored.Details) != string(got.Details) {
					t.Errorf("stored %+v (details %s), returned %+v (details %s)", stored, stored.Details, got, got.Details)
				}
			})
		}
	})
}

func TestInsertAuditInvalid(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		tests := []struct {
			name string
			in   db.AuditEntry
		}{
			{name: "details not JSON", in: db.AuditEntry{Source: "START", Severity: "SUCCESS", Details: json.RawMessage(`{"a":`)}},
			{name: "unknown severity", in: db.AuditEntry{Source: "START", Severity: "DEBUG"}},
			{name: "empty source", in: db.AuditEntry{Severity: "SUCCESS"}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := d.InsertAudit(t.Context(), tt.in)
				if err == nil {
					t.Fatal("InsertAudit succeeded, want an error")
				}
				if errors.Is(err, db.ErrConflict) || errors.Is(err, db.ErrNotFound) {
					t.Errorf("InsertAudit error %v wraps a sentinel, want none", err)
				}
			})
		}
		if _, total, err := d.ListAudit(t.Context(), db.AuditFilter{}); err != nil || total != 0 {
			t.Errorf("ListAudit total = %d, %v; want 0 rows stored", total, err)
		}
	})
}

func TestListAudit(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		at := func(sec int) time.Time { return base.Add(time.Duration(sec) * time.Second) }
		// Inserted out of time order; two entries share a timestamp so the
		// id breaks the tie.
		seed := []struct {
			label    string
			ts       time.Time
			source   string
			severity string
		}{
			{"c", at(3), "CONCH", "SUCCESS"},
			{"a", at(1), "START", "INFORMATION"},
			{"e", at(5), "CONCH", "FAILURE"},
			{"b", at(2), "CONCH", "SUCCESS"},
			{"d1", at(4), "SRVRG", "INFORMATION"},
			{"d2", at(4), "CONCH", "SUCCESS"}, // same time as d1, larger id
		}
		ids := map[int64]string{}
		for _, s := range seed {
			e := insertAudit(t, d, db.AuditEntry{
				Timestamp: s.ts, Source: s.source, Severity: s.severity,
				Details: json.RawMessage(`{"label":"` + s.label + `"}`),
			})
			ids[e.ID] = s.label
		}

		tests := []struct {
			name      string
			filter    db.AuditFilter
			want      []string
			wantTotal int
		}{
			{name: "all newest first", filter: db.AuditFilter{}, want: []string{"e", "d2", "d1", "c", "b", "a"}, wantTotal: 6},
			{name: "source", filter: db.AuditFilter{Source: "CONCH"}, want: []string{"e", "d2", "c", "b"}, wantTotal: 4},
			{name: "severity", filter: db.AuditFilter{Severity: "INFORMATION"}, want: []string{"d1", "a"}, wantTotal: 2},
			{name: "source and severity", filter: db.AuditFilter{Source: "CONCH", Severity: "SUCCESS"}, want: []string{"d2", "c", "b"}, wantTotal: 3},
			{name: "source is exact", filter: db.AuditFilter{Source: "CONC"}, want: []string{}, wantTotal: 0},
			{name: "severity is case-sensitive", filter: db.AuditFilter{Severity: "success"}, want: []string{}, wantTotal: 0},
			{name: "limit", filter: db.AuditFilter{Limit: 2}, want: []string{"e", "d2"}, wantTotal: 6},
			{name: "limit and skip", filter: db.AuditFilter{Limit: 2, Skip: 2}, want: []string{"d1", "c"}, wantTotal: 6},
			{name: "skip only", filter: db.AuditFilter{Skip: 4}, want: []string{"b", "a"}, wantTotal: 6},
			{name: "skip past end", filter: db.AuditFilter{Limit: 3, Skip: 10}, want: []string{}, wantTotal: 6},
			{name: "filter with paging", filter: db.AuditFilter{Source: "CONCH", Limit: 1, Skip: 1}, want: []string{"d2"}, wantTotal: 4},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, total, err := d.ListAudit(t.Context(), tt.filter)
				if err != nil {
					t.Fatalf("ListAudit(%+v): %v", tt.filter, err)
				}
				if got == nil {
					t.Errorf("ListAudit returned a nil slice, want non-nil")
				}
				labels := []string{}
				for _, e := range got {
					labels = append(labels, ids[e.ID])
					if !jsonEqual(t, e.Details, []byte(`{"label":"`+ids[e.ID]+`"}`)) {
						t.Errorf("entry %d details %s", e.ID, e.Details)
					}
				}
				if !slices.Equal(labels, tt.want) {
					t.Errorf("ListAudit(%+v) = %v, want %v", tt.filter, labels, tt.want)
				}
				if total != tt.wantTotal {
					t.Errorf("total = %d, want %d", total, tt.wantTotal)
				}
			})
		}

		t.Run("negative paging", func(t *testing.T) {
			if _, _, err := d.ListAudit(t.Context(), db.AuditFilter{Skip: -1}); err == nil {
				t.Error("ListAudit with Skip -1 succeeded, want an error")
			}
		})
	})
}
