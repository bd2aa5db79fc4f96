package impl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/backup"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/system"
)

// Backups makes, lists, deletes and restores backups;
// *backup.Manager implements it.
type Backups interface {
	Create(ctx context.Context) (backup.Backup, error)
	List(ctx context.Context, f backup.Filter) ([]backup.Backup, error)
	Get(ctx context.Context, id int64) (backup.Backup, error)
	Delete(ctx context.Context, id int64) error
	Open(ctx context.Context, id int64) (*os.File, backup.Backup, error)
	Restore(ctx context.Context, id int64) error
	Upload(ctx context.Context, r io.Reader) (backup.Backup, error)
}

// backupsOrUnavailable returns the backup manager, or a 503 fault when
// this gateway was built without one.
func (s *Server) backupsOrUnavailable() (Backups, error) {
	if s.backups == nil {
		return nil, fault.New(fault.Unavailable, "backups are not available in this gateway")
	}
	return s.backups, nil
}

func backupOut(b backup.Backup) gen.Backup {
	out := gen.Backup{Id: b.ID, Date: b.Date.UTC().Format(eventTimeLayout), Status: gen.BackupStatus(b.Status),
		Size: b.Size, Readings: b.Readings}
	if b.Reason != "" {
		out.Reason = &b.Reason
	}
	return out
}

// ListBackups returns the backups newest first, filtered by status and
// paged.
func (s *Server) ListBackups(ctx context.Context, req gen.ListBackupsRequestObject) (gen.ListBackupsResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	status := valueOr(req.Params.Status, "")
	if status != "" && !slices.Contains(backup.Statuses, strings.ToUpper(status)) {
		return nil, fault.New(fault.Invalid, "status %q is not a backup status (%s)", status, strings.Join(backup.Statuses, ", "))
	}
	list, err := m.List(ctx, backup.Filter{Status: status, Limit: valueOr(req.Params.Limit, defaultLimit),
		Skip: valueOr(req.Params.Skip, defaultSkip)})
	if err != nil {
		return nil, err
	}
	out := gen.BackupList{Backups: make([]gen.Backup, 0, len(list))}
	for _, b := range list {
		out.Backups = append(out.Backups, backupOut(b))
	}
	return gen.ListBackups200JSONResponse(out), nil
}

// CreateBackup starts a backup in the background.
func (s *Server) CreateBackup(ctx context.Context, _ gen.CreateBackupRequestObject) (gen.CreateBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	b, err := m.Create(ctx)
	if err != nil {
		return nil, err
	}
	return gen.CreateBackup200JSONResponse{Id: b.ID, Status: gen.BackupStatus(b.Status),
		Message: fmt.Sprintf("Backup %d started", b.ID)}, nil
}

// ListBackupStatuses returns the statuses with their indexes.
func (s *Server) ListBackupStatuses(context.Context, gen.ListBackupStatusesRequestObject) (gen.ListBackupStatusesResponseObject, error) {
	out := gen.BackupStatusList{}
	for i, st := range backup.Statuses {
		out.BackupStatus = append(out.BackupStatus, gen.BackupStatusEntry{Index: i + 1, Name: gen.BackupStatus(st)})
	}
	return gen.ListBackupStatuses200JSONResponse(out), nil
}

// GetBackup returns one backup's record.
func (s *Server) GetBackup(ctx context.Context, req gen.GetBackupRequestObject) (gen.GetBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	b, err := m.Get(ctx, req.BackupId)
	if err != nil {
		return nil, err
	}
	return gen.GetBackup200JSONResponse(backupOut(b)), nil
}

// DeleteBackup deletes a backup that is not running.
func (s *Server) DeleteBackup(ctx context.Context, req gen.DeleteBackupRequestObject) (gen.DeleteBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	if err := m.Delete(ctx, req.BackupId); err != nil {
		return nil, err
	}
	return gen.DeleteBackup200JSONResponse{Id: req.BackupId, Message: fmt.Sprintf("Backup %d deleted", req.BackupId)}, nil
}

// DownloadBackup sends a complete backup's file.
func (s *Server) DownloadBackup(ctx context.Context, req gen.DownloadBackupRequestObject) (gen.DownloadBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	f, b, err := m.Open(ctx, req.BackupId)
	if err != nil {
		return nil, err
	}
	disposition := fmt.Sprintf(`attachment; filename="backup-%d.tar.gz"`, b.ID)
	return gen.DownloadBackup200ApplicationgzipResponse{Body: f, ContentLength: b.Size,
		Headers: gen.DownloadBackup200ResponseHeaders{ContentDisposition: &disposition}}, nil
}

// RestoreBackup checks a backup, asks for it to be restored at the next
// start and restarts the gateway.
func (s *Server) RestoreBackup(ctx context.Context, req gen.RestoreBackupRequestObject) (gen.RestoreBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	if a := s.control.Requested(); a != 0 {
		return nil, fault.New(fault.Conflict, "a %s is in progress; restore the backup once the gateway is back", a)
	}
	if err := m.Restore(ctx, req.BackupId); err != nil {
		return nil, err
	}
	s.lifecycle(ctx, system.Restart)
	return gen.RestoreBackup200JSONResponse{Id: req.BackupId,
		Message: fmt.Sprintf("Restoring backup %d; the gateway restarts", req.BackupId)}, nil
}

// UploadBackup stores an uploaded backup file as a new backup.
func (s *Server) UploadBackup(ctx context.Context, req gen.UploadBackupRequestObject) (gen.UploadBackupResponseObject, error) {
	m, err := s.backupsOrUnavailable()
	if err != nil {
		return nil, err
	}
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "the body must be a backup file")
	}
	b, err := m.Upload(ctx, req.Body)
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return nil, router.TooLarge(tooLarge.Limit)
	case err != nil && !isFault(err):
		return nil, fault.Wrap(fault.Invalid, err, "the backup file could not be read from the request")
	case err != nil:
		return nil, err
	}
	return gen.UploadBackup200JSONResponse(backupOut(b)), nil
}

func isFault(err error) bool {
	_, ok := fault.As(err)
	return ok
}
