package impl

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/system"
)

// uploadOnly is a Backups whose Upload reads the body and fails with err.
type uploadOnly struct {
	Backups
	err error
}

func (u uploadOnly) Upload(_ context.Context, r io.Reader) (backup.Backup, error) {
	_, _ = io.ReadAll(r)
	return backup.Backup{}, u.err
}

type restoreOnly struct {
	Backups
	called *bool
}

func (r restoreOnly) Restore(context.Context, int64) error { *r.called = true; return nil }

func TestUploadBackupErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want int
	}{
		{name: "body over the limit", err: &http.MaxBytesError{Limit: 10}, want: http.StatusRequestEntityTooLarge},
		{name: "body cut off", err: errors.New("read the body: unexpected EOF"), want: http.StatusBadRequest},
		{name: "not a backup", err: fault.New(fault.Invalid, "the body is not a backup file"), want: http.StatusBadRequest},
		{name: "disk full", err: fault.New(fault.Unavailable, "the uploaded backup cannot be stored"), want: http.StatusServiceUnavailable},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(Deps{Backups: uploadOnly{err: tc.err}})
			_, err := s.UploadBackup(context.Background(), gen.UploadBackupRequestObject{Body: strings.NewReader("x")})
			if status, _ := StatusOf(err); status != tc.want {
				t.Errorf("status %d (%v), want %d", status, err, tc.want)
			}
		})
	}
}

func TestRestoreBackupDuringShutdown(t *testing.T) {
	control := system.NewControl()
	control.Request(system.Shutdown)
	called := false
	s := New(Deps{Backups: restoreOnly{called: &called}, Control: control})
	_, err := s.RestoreBackup(context.Background(), gen.RestoreBackupRequestObject{BackupId: 1})
	if !errors.Is(err, fault.Conflict) || called {
		t.Errorf("restore while shutting down: %v (restore asked: %v), want a conflict and nothing asked", err, called)
	}
}
