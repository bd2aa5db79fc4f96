package db

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"syscall"
	"testing"
)

func TestFailuresCountsFailedCallsByKind(t *testing.T) {
	tests := []struct {
		name  string
		err   error
		want  ErrorCounts
		down  bool
		wraps bool // the error returned wraps ErrUnavailable
	}{
		{name: "no error", err: nil},
		{name: "cancelled by the caller", err: fmt.Errorf("query: %w", context.Canceled)},
		{name: "driver asks database/sql to fall back", err: driver.ErrSkip},
		{name: "deadline passed", err: context.DeadlineExceeded, want: ErrorCounts{Other: 1}},
		{name: "query refused", err: errors.New("no such table: nowhere"), want: ErrorCounts{Other: 1}},
		{name: "disk full", err: fmt.Errorf("write: %w", syscall.ENOSPC), want: ErrorCounts{Unavailable: 1}, down: true, wraps: true},
		{name: "connection broken", err: driver.ErrBadConn, want: ErrorCounts{Unavailable: 1}, down: true, wraps: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &tracker{writes: true}
			before := Failures()
			got := tr.fail(tt.err)
			after := Failures()
			grew := ErrorCounts{Unavailable: after.Unavailable - before.Unavailable, Other: after.Other - before.Other}
			if grew != tt.want {
				t.Errorf("Failures grew by %+v, want %+v", grew, tt.want)
			}
			if down := !tr.health().Available; down != tt.down {
				t.Errorf("pool down = %v, want %v", down, tt.down)
			}
			if w := errors.Is(got, ErrUnavailable); w != tt.wraps {
				t.Errorf("errors.Is(%v, ErrUnavailable) = %v, want %v", got, w, tt.wraps)
			}
		})
	}
}
