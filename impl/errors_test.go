package impl

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/directory"
	"github.com/edged/edged/internal/fault"
)

func TestStatusOf(t *testing.T) {
	tests := []struct {
		name       string
		err        error
		wantStatus int
		wantMsg    string
	}{
		{name: "invalid", err: fault.New(fault.Invalid, "bad %s", "x"), wantStatus: http.StatusBadRequest, wantMsg: "bad x"},
		{name: "wrapped not found", err: errors.Join(errors.New("ctx"), fault.New(fault.NotFound, "gone")), wantStatus: http.StatusNotFound, wantMsg: "gone"},
		{name: "unsupported media", err: fault.New(fault.UnsupportedMedia, "no xml"), wantStatus: http.StatusUnsupportedMediaType, wantMsg: "no xml"},
		{name: "not implemented", err: fault.New(fault.NotImplemented, "creating a dispatcher service is not implemented yet"), wantStatus: http.StatusNotImplemented, wantMsg: "creating a dispatcher service is not implemented yet"},
		{name: "plain error is a 500 with a generic message", err: errors.New("driver: secret detail"), wantStatus: http.StatusInternalServerError, wantMsg: "internal error"},
		{name: "storage unavailable is a 503", err: fmt.Errorf("asset: %w", fmt.Errorf("db: list assets: %w", db.ErrUnavailable)),
			wantStatus: http.StatusServiceUnavailable, wantMsg: "storage is unavailable; the gateway retries on its own, try again later"},
		{name: "another 503 keeps its message", err: fault.Wrap(fault.Unavailable, db.ErrUnavailable, "the scheduler is not running"),
			wantStatus: http.StatusServiceUnavailable, wantMsg: "the scheduler is not running"},
		{name: "directory unavailable is a 503 saying why",
			err:        fmt.Errorf("user: %w", &directory.UnavailableError{Reason: "it cannot be reached", Err: errors.New("dial tcp 10.0.0.1:389: refused")}),
			wantStatus: http.StatusServiceUnavailable,
			wantMsg:    "The LDAP directory is unavailable (it cannot be reached): directory users cannot log in now; the gateway's own users still can"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, msg := StatusOf(tc.err)
			if status != tc.wantStatus || msg != tc.wantMsg {
				t.Fatalf("StatusOf = %d %q, want %d %q", status, msg, tc.wantStatus, tc.wantMsg)
			}
		})
	}
}

func TestParamFaultNamesTheParameter(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want string
	}{
		{name: "bad format", err: &gen.InvalidParamFormatError{ParamName: "schedule_id", Err: errors.New("error unmarshaling 'enable' text as *uuid.UUID")}, want: `parameter "schedule_id" has an invalid value for its type`},
		{name: "missing", err: &gen.RequiredParamError{ParamName: "statistics"}, want: `parameter "statistics" is required`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			status, msg := StatusOf(paramFault(tc.err))
			if status != http.StatusBadRequest || msg != tc.want || strings.Contains(msg, "uuid.UUID") {
				t.Fatalf("got %d %q, want 400 %q", status, msg, tc.want)
			}
		})
	}
}

// TestStorageUnavailableAnswer renders a storage outage as a client sees
// it: 503, Retry-After and a message saying so, the driver's text kept out.
func TestStorageUnavailableAnswer(t *testing.T) {
	rec := httptest.NewRecorder()
	cause := fmt.Errorf("db: insert audit: %w", fmt.Errorf("storage unavailable: dial unix /tmp/pg/.s.PGSQL.5432: %w", db.ErrUnavailable))
	ErrorWriter(slog.New(slog.DiscardHandler))(rec, httptest.NewRequest(http.MethodGet, "/edge/audit", nil), cause)
	if rec.Code != http.StatusServiceUnavailable || rec.Header().Get("Retry-After") != "5" {
		t.Fatalf("answer = %d, Retry-After %q; want 503 with Retry-After 5", rec.Code, rec.Header().Get("Retry-After"))
	}
	var body gen.Error
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || !strings.Contains(body.Message, "storage is unavailable") ||
		strings.Contains(body.Message, "dial") {
		t.Errorf("body = %s (%v)", rec.Body.Bytes(), err)
	}
}
