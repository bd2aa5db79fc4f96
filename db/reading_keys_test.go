package db_test

import (
	"slices"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
)

func TestNumericReadingKeys(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		docs := []string{
			`{"v": 1, "w": "a", "b": true}`, `{"v": 2.5, "x": null}`, `{"u": -1e3, "nested": {"n": 9}}`,
			`{"list": [4], "Z": 0, "a/b": 7, "é": 1}`,
		}
		for i, doc := range docs {
			insertReadings(t, d, reading("meter", t0.Add(time.Duration(i)*time.Second), doc))
		}
		insertReadings(t, d, reading("other", t0, `{"o": 1}`), reading("words", t0, `{"w": "x"}`))

		tests := []struct {
			name  string
			asset string
			want  []string
		}{
			{name: "numbers only, bytewise", asset: "meter", want: []string{"Z", "a/b", "u", "v", "é"}},
			{name: "other asset", asset: "other", want: []string{"o"}},
			{name: "no numeric values", asset: "words", want: []string{}},
			{name: "unknown asset", asset: "nobody", want: []string{}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, err := d.NumericReadingKeys(t.Context(), tt.asset)
				if err != nil {
					t.Fatalf("NumericReadingKeys: %v", err)
				}
				if got == nil || !slices.Equal(got, tt.want) {
					t.Errorf("NumericReadingKeys(%q) = %#v, want %#v", tt.asset, got, tt.want)
				}
			})
		}
	})
}
