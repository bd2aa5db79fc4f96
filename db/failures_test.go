package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"testing"
)

func TestFailuresCountsStorageErrorsOnly(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want uint64
	}{
		{name: "no error", err: nil, want: 0},
		{name: "no rows", err: sql.ErrNoRows, want: 0},
		{name: "cancelled by the caller", err: fmt.Errorf("query: %w", context.Canceled), want: 0},
		{name: "deadline passed", err: context.DeadlineExceeded, want: 1},
		{name: "driver failure", err: errors.New("database is locked"), want: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := Failures()
			_ = translate(tt.err)
			if got := Failures() - before; got != tt.want {
				t.Errorf("Failures grew by %d, want %d", got, tt.want)
			}
		})
	}
}
