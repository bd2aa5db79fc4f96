package packages

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
)

// Update starts moving every installed package to the newest (or pinned)
// version in the background, as a task: PKGUP per package updated, UPEXC
// at the end. At most Installation.maxUpdate updates start per 24 hours
// (429 beyond), and one at a time (429).
func (m *Manager) Update(ctx context.Context) (Started, error) {
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
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.busy[""] {
		return Started{}, fault.New(fault.TooMany, "an update is running")
	}
	recent, err := m.o.Store.ListTasks(ctx, db.TaskFilter{Name: TaskUpdate})
	if err != nil {
		return Started{}, fmt.Errorf("packages: read the tasks: %w", err)
	}
	since := m.o.Clock.Now().Add(-24 * time.Hour)
	n := 0
	for _, t := range recent {
		if t.StartTime.After(since) {
			n++
		}
	}
	if n >= maxUpdate {
		return Started{}, fault.New(fault.TooMany, "updates started in the last 24 hours: %d, the most Installation.%s allows", n, ItemMaxUpdate)
	}
	id, err := m.startTask(ctx, TaskUpdate)
	if err != nil {
		return Started{}, err
	}
	m.busy[""] = true
	lg := m.newLog("update")
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer m.release("")
		defer lg.close()
		bg := context.WithoutCancel(ctx)
		updated, err := m.update(bg, repo, version, lg)
		severity := "INFORMATION"
		details := map[string]any{"updated": updated}
		if err != nil {
			severity, details["error"] = "FAILURE", err.Error()
		}
		m.record(bg, auditUpdateEnd, severity, details)
		m.finishTask(bg, id, err)
	}()
	return Started{TaskID: id, Log: lg.name}, nil
}

// update moves each installed package to its newest version, restarting
// the services that use it; it goes on after a package fails and reports
// the failures together.
func (m *Manager) update(ctx context.Context, repo pkgrepo.Repo, version string, lg *interactionLog) ([]string, error) {
	ix, err := m.index(ctx, repo, lg)
	if err != nil {
		return nil, err
	}
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
		if !ok || pkgrepo.CompareVersions(p.Version, in.Version) == 0 {
			lg.printf("%s %s is current", in.Name, in.Version)
			continue
		}
		m.mu.Lock()
		m.busy[in.Name] = true
		m.mu.Unlock()
		err := m.installVersion(ctx, repo, p, lg, true)
		m.release(in.Name)
		if err != nil {
			m.record(ctx, auditUpdated, "FAILURE", map[string]any{"name": in.Name, "version": p.Version, "error": err.Error()})
			errs = append(errs, fmt.Errorf("%s: %w", in.Name, err))
			continue
		}
		m.record(ctx, auditUpdated, "INFORMATION", map[string]any{"name": in.Name, "from": in.Version, "version": p.Version})
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
