package packages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
)

// Update starts moving every installed package to the newest (or pinned)
// version in the background, as a task: PKGUP per package updated, UPEXC
// at the end. At most Installation.maxUpdate updates start per 24 hours
// (429 beyond), and one at a time (429). The index is fetched and checked
// before the task starts: a repository that fails or is refused answers
// 502 and starts nothing. An update never moves a package to a lower
// version unless the repository setting pins a version and the caller
// allows a downgrade (allowDowngrade); such a move is audited PKGUP
// WARNING with "downgrade": true.
func (m *Manager) Update(ctx context.Context, allowDowngrade bool) (Started, error) {
	repo, version, err := m.repo(ctx)
	if err != nil {
		return Started{}, err
	}
	maxRaw, err := m.o.Config.Value(ctx, CategoryInstallation, ItemMaxUpdate)
	if err != nil {
		return Started{}, err
	}
	maxUpdate, err := strconv.Atoi(maxRaw)
	if err != nil {
		return Started{}, fmt.Errorf("item Installation.%s = %q: %w", ItemMaxUpdate, maxRaw, err)
	}
	if err := m.claimUpdate(ctx, maxUpdate); err != nil {
		return Started{}, err
	}
	started := false
	defer func() {
		if !started {
			m.release("")
		}
	}()
	lg := m.newLog("update")
	ix, err := m.index(ctx, repo, lg, auditUpdateEnd, map[string]any{"updated": []string{}})
	if err != nil {
		lg.close()
		return Started{}, err
	}
	id, err := m.startTask(ctx, TaskUpdate)
	if err != nil {
		lg.close()
		return Started{}, err
	}
	started = true
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer m.release("")
		defer lg.close()
		bg := context.WithoutCancel(ctx)
		updated, err := m.update(bg, repo, ix, version, allowDowngrade, lg)
		severity := auditcode.Information
		details := map[string]any{"updated": updated}
		if err != nil {
			severity, details["error"] = auditcode.Failure, err.Error()
		}
		m.record(bg, auditUpdateEnd, severity, details)
		m.finishTask(bg, id, err)
	}()
	return Started{TaskID: id, Log: lg.name}, nil
}

// claimUpdate marks an update running, unless one runs or maxUpdate
// started within 24 hours (429).
func (m *Manager) claimUpdate(ctx context.Context, maxUpdate int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.busy[""] {
		return fault.New(fault.TooMany, "an update is running")
	}
	recent, err := m.o.Store.ListTasks(ctx, db.TaskFilter{Name: TaskUpdate})
	if err != nil {
		return fmt.Errorf("packages: read the tasks: %w", err)
	}
	since := m.o.Clock.Now().Add(-24 * time.Hour)
	n := 0
	for _, t := range recent {
		if t.StartTime.After(since) {
			n++
		}
	}
	if n >= maxUpdate {
		return fault.New(fault.TooMany, "updates started in the last 24 hours: %d, the most Installation.%s allows", n, ItemMaxUpdate)
	}
	m.busy[""] = true
	return nil
}

// pinned tells whether the repository setting version pins a release.
func pinned(version string) bool { return version != "" && version != "latest" }

// update moves each installed package to its newest (or pinned) version
// in ix, restarting the services that use it; it goes on after a package
// fails and reports the failures together. A package the repository
// offers only at a lower version stays as it is unless version is pinned
// and allowDowngrade.
func (m *Manager) update(ctx context.Context, repo pkgrepo.Repo, ix *pkgrepo.Index, version string, allowDowngrade bool, lg *interactionLog) ([]string, error) {
	installed, err := m.List()
	if err != nil {
		return nil, err
	}
	var (
		updated []string
		errs    []error
	)
	for _, in := range installed {
		p, ok := ix.Latest(in.Name, version)
		cmp := 0
		if ok {
			cmp = pkgrepo.CompareVersions(p.Version, in.Version)
		}
		if cmp == 0 {
			lg.printf("%s %s is current", in.Name, in.Version)
			continue
		}
		downgrade := cmp < 0
		if downgrade && (!pinned(version) || !allowDowngrade) {
			lg.printf("%s %s kept: the repository offers %s, a lower version; only a pinned version (POST /edge/repository) "+
				"with allowDowngrade moves a package down", in.Name, in.Version, p.Version)
			continue
		}
		m.mu.Lock()
		m.busy[in.Name] = true
		m.mu.Unlock()
		if downgrade {
			err = m.downgrade(ctx, repo, in.Package, p, lg)
		} else {
			err = m.upgrade(ctx, repo, in.Package, p, lg)
		}
		m.release(in.Name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", in.Name, err))
			continue
		}
		updated = append(updated, in.Name+" "+p.Version)
		if err := m.restartUsers(ctx, in.Name, lg); err != nil {
			errs = append(errs, err)
		}
	}
	return updated, errors.Join(errs...)
}

// restartUsers restarts the enabled services that run plugin name, or
// whose filter pipeline holds an instance of it.
func (m *Manager) restartUsers(ctx context.Context, name string, lg *interactionLog) error {
	if m.o.Restart == nil {
		return nil
	}
	svcs, err := m.o.Store.ListServices(ctx, "")
	if err != nil {
		return err
	}
	var instances []string
	if m.o.Filters != nil {
		if instances, err = m.o.Filters.UsedBy(ctx, name); err != nil {
			return err
		}
	}
	var errs []error
	for _, s := range svcs {
		if !s.ScheduleEnabled {
			continue
		}
		uses := s.Plugin == name
		if !uses && len(instances) > 0 {
			pipe, err := m.o.Filters.Pipeline(ctx, s.Name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			uses = slices.ContainsFunc(pipe, func(f string) bool { return slices.Contains(instances, f) })
		}
		if !uses {
			continue
		}
		lg.printf("restarting service %q", s.Name)
		if err := m.o.Restart.Restart(ctx, s.Name); err != nil {
			errs = append(errs, fmt.Errorf("restart service %q: %w", s.Name, err))
		}
	}
	return errors.Join(errs...)
}

// upgrade moves installed package from up to p, audited PKGUP; the
// caller restarts the services using it.
func (m *Manager) upgrade(ctx context.Context, repo pkgrepo.Repo, from, p pkgrepo.Package, lg *interactionLog) error {
	details := map[string]any{"name": p.Name, "from": from.Version, "version": p.Version}
	if err := m.installVersion(ctx, repo, p, lg, true); err != nil {
		details["error"] = err.Error()
		m.record(ctx, auditUpdated, auditcode.Failure, details)
		return err
	}
	m.record(ctx, auditUpdated, auditcode.Information, details)
	return nil
}

// installed returns the manifest of installed package name.
func (m *Manager) installed(name string) (Installed, bool) {
	b, err := os.ReadFile(filepath.Join(m.o.Dir, name, manifest)) //nolint:gosec // name matched namePattern: no separator, no ".."
	if err != nil {
		return Installed{}, false
	}
	var p installedManifest
	if json.Unmarshal(b, &p) != nil {
		return Installed{}, false
	}
	return Installed{Package: p.Package, Dir: filepath.Join(m.o.Dir, name), Digest: p.Executable}, true
}

// moveDown checks an install call asking to move installed package name
// down to version: only to the release the repository setting (following)
// pins, so that a downgrade takes the admin's pin and the call's flag.
func moveDown(name, version, following string) error {
	if !pinned(following) {
		return fault.New(fault.Conflict, "package %q is installed; moving it down needs the release pinned first: "+
			`POST /edge/repository {"url": …, "version": "…"}`, name)
	}
	if version != following {
		return fault.New(fault.Invalid, "version %q is not the pinned release %q: a package moves down only to the pinned release", version, following)
	}
	return nil
}

// downgrade moves installed package from down to p, as an admin asked,
// audited PKGUP WARNING with "downgrade": true; the caller restarts the
// services using it.
func (m *Manager) downgrade(ctx context.Context, repo pkgrepo.Repo, from, p pkgrepo.Package, lg *interactionLog) error {
	details := map[string]any{"name": p.Name, "from": from.Version, "version": p.Version, "downgrade": true}
	if err := m.installVersion(ctx, repo, p, lg, true); err != nil {
		details["error"] = err.Error()
		m.record(ctx, auditUpdated, auditcode.Failure, details)
		return err
	}
	lg.printf("%s moved down from %s to %s, as the admin asked", p.Name, from.Version, p.Version)
	m.record(ctx, auditUpdated, auditcode.Warning, details)
	return nil
}
