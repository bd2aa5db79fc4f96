package faultcode

import (
	"context"
	"errors"
	"testing"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

func TestCode(t *testing.T) {
	tests := []struct {
		name string
		err  error
		code edgeplugin.Code
	}{
		{name: "invalid", err: fault.New(fault.Invalid, "m"), code: edgeplugin.CodeInvalid},
		{name: "not found", err: fault.New(fault.NotFound, "m"), code: edgeplugin.CodeNotFound},
		{name: "conflict", err: fault.New(fault.Conflict, "m"), code: edgeplugin.CodeConflict},
		{name: "queue full", err: fault.New(fault.TooMany, "m"), code: edgeplugin.CodeBusy},
		{name: "waited too long", err: fault.New(fault.Unavailable, "m"), code: edgeplugin.CodeUnavailable},
		{name: "device", err: fault.New(fault.BadGateway, "m"), code: edgeplugin.CodeFailed},
		{name: "not implemented", err: fault.New(fault.NotImplemented, "m"), code: edgeplugin.CodeUnsupported},
		{name: "too large", err: fault.New(fault.TooLarge, "m"), code: edgeplugin.CodeInvalid},
		{name: "a kind without a row", err: fault.New(fault.Forbidden, "m"), code: edgeplugin.CodeInternal},
		{name: "caller gone", err: context.Canceled, code: edgeplugin.CodeUnavailable},
		{name: "deadline", err: context.DeadlineExceeded, code: edgeplugin.CodeUnavailable},
		{name: "a bug", err: errors.New("m"), code: edgeplugin.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := edgeplugin.CodeOf(Code(tt.err)); got != tt.code {
				t.Errorf("code = %v, want %v", got, tt.code)
			}
		})
	}
	// the fault's private cause stays on this side
	if err := Code(fault.Wrap(fault.BadGateway, errors.New("secret"), "public")); err.Error() != "public" {
		t.Errorf("message = %q, want the public one", err)
	}
	if Code(nil) != nil {
		t.Error("Code(nil) != nil")
	}
}

func TestFault(t *testing.T) {
	tests := []struct {
		name string
		code edgeplugin.Code
		kind *fault.Kind // nil: a plain error
	}{
		{name: "invalid", code: edgeplugin.CodeInvalid, kind: fault.Invalid},
		{name: "unsupported is the caller's mistake", code: edgeplugin.CodeUnsupported, kind: fault.Invalid},
		{name: "not found", code: edgeplugin.CodeNotFound, kind: fault.NotFound},
		{name: "conflict", code: edgeplugin.CodeConflict, kind: fault.Conflict},
		{name: "unavailable", code: edgeplugin.CodeUnavailable, kind: fault.Unavailable},
		{name: "failed", code: edgeplugin.CodeFailed, kind: fault.BadGateway},
		{name: "busy", code: edgeplugin.CodeBusy, kind: fault.TooMany},
		{name: "internal", code: edgeplugin.CodeInternal},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Fault(edgeplugin.Errorf(tt.code, "the message"))
			f, ok := fault.As(err)
			switch {
			case tt.kind == nil && ok:
				t.Errorf("Fault = %v, a fault; want a plain error", f)
			case tt.kind != nil && (!ok || f.Kind != tt.kind || f.Message != "the message"):
				t.Errorf("Fault = %#v, want kind %v saying the message", err, tt.kind)
			case tt.kind == fault.TooMany && f.RetryAfterSeconds != BusyRetryAfter:
				t.Errorf("Retry-After = %d, want %d", f.RetryAfterSeconds, BusyRetryAfter)
			}
		})
	}
	if Fault(errors.New("plain")).Error() != "plain" || Fault(nil) != nil {
		t.Error("Fault of a plain error or nil changed it")
	}
}
