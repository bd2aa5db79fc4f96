// Package packages installs, updates and removes packages from the signed
// package repository (internal/pkgrepo) configured in the Installation
// category. An installed package is a directory under the gateway's
// package directory holding its manifest and its plugin executable; the
// plugin is registered in the plugin registry at once and at every start,
// so services use it like a built-in one. Installs and updates run in the
// background as tasks (GET /edge/task) and write a log of their repository
// interaction, which the gateway serves.
package packages

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/durable"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/external"
	"github.com/edged/edged/pkg/pkgindex"
)

// Items of the Installation category this package reads.
const (
	ItemRepositoryURL     = "repositoryURL"
	ItemRepositoryVersion = "repositoryVersion"
	ItemTrustedKeys       = configmgr.ItemTrustedKeys
	ItemMaxUpdate         = "maxUpdate"
)

// Task names and audit codes.
const (
	TaskInstall = "package install"
	TaskUpdate  = "package update"

	auditInstalled = auditcode.PackageInstalled
	auditUpdated   = auditcode.PackageUpdated
	auditRemoved   = auditcode.PackageRemoved
	auditUpdateEnd = auditcode.UpdateComplete
)

// Limits of what a package may be.
const (
	maxUnpacked = 512 << 20 // bytes a package's archive may unpack to
	executable  = "plugin"  // the plugin executable inside a package
	manifest    = "manifest.json"
)

// indexWait bounds the fetch of a repository's index and signature.
const indexWait = 20 * time.Second

// namePattern is what a package name may be: it names a directory.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$`)

// Store is the storage the manager needs: tasks, services and the index
// versions accepted per repository.
type Store interface {
	AcceptIndexVersion(ctx context.Context, repository string, version int64, at time.Time) (bool, int64, error)
	InsertTask(ctx context.Context, t db.Task) error
	FinishTask(ctx context.Context, id, state string, end time.Time, exitCode *int, reason string) (bool, error)
	ListTasks(ctx context.Context, f db.TaskFilter) ([]db.Task, error)
	ListServices(ctx context.Context, typ string) ([]db.Service, error)
}

// Auditor writes audit entries.
type Auditor interface {
	Record(ctx context.Context, source, severity string, details any) error
}

// Restarter restarts a service so it runs a plugin's new version.
type Restarter interface {
	Restart(ctx context.Context, service string) error
}

// Filters are the filter instances of the pipelines, which a package's
// filter plugin may be used by; *filter.Manager implements it.
type Filters interface {
	UsedBy(ctx context.Context, pluginName string) ([]string, error)
	Pipeline(ctx context.Context, service string) ([]string, error)
}

// Tasks finds the north tasks that run a plugin.
type Tasks interface {
	TasksUsing(ctx context.Context, pluginName string) ([]string, error)
}

// Options are the manager's dependencies.
type Options struct {
	Dir     string // the package directory
	Config  *configmgr.Manager
	Store   Store
	Audit   Auditor
	Plugins *plugin.Registry
	// Filters tells which filter instances use a plugin (the filter
	// pipelines find installed filter plugins in Plugins). nil: none.
	Filters Filters
	// Tasks finds the north tasks of a plugin, so that a package they
	// use is not removed; *north.Runtime implements it. nil: none.
	Tasks Tasks
	// Restart restarts the services of an updated plugin; nil: none.
	Restart Restarter
	Client  *http.Client
	Clock   clock.Clock
	Logger  *slog.Logger
}

// Manager is the package manager.
type Manager struct {
	o   Options
	log *slog.Logger
	mu  sync.Mutex
	// busy are the packages being installed, and "" while an update runs.
	busy map[string]bool
	wg   sync.WaitGroup
}

// New returns a manager over o.
func New(o Options) *Manager {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 5 * time.Minute}
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Manager{o: o, log: log, busy: map[string]bool{}}
}

// Wait waits for the background work to end (tests, shutdown).
func (m *Manager) Wait() { m.wg.Wait() }

// Stop waits for installs and updates in progress to end, at most until
// ctx ends (the gateway's stop budget); what is cut short is logged, and
// its staging directory is cleared at the next start.
func (m *Manager) Stop(ctx context.Context) {
	done := make(chan struct{})
	go func() {
		m.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		m.log.Warn("package installs or updates still running at stop")
	}
}

// Installed is an installed package.
type Installed struct {
	pkgrepo.Package
	Dir string
	// Digest is the hex SHA-256 of its plugin executable as installed:
	// the executable is checked against it at every start.
	Digest string
}

// installedManifest is the manifest.json of an installed package: the
// index's manifest and the digest of the executable it installed.
type installedManifest struct {
	pkgrepo.Package
	Executable string `json:"executableSha256,omitempty"`
}

// List returns the installed packages, by name.
func (m *Manager) List() ([]Installed, error) {
	entries, err := os.ReadDir(m.o.Dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Installed
	for _, e := range entries {
		if !e.IsDir() || !namePattern.MatchString(e.Name()) {
			continue
		}
		dir := filepath.Join(m.o.Dir, e.Name())
		b, err := os.ReadFile(filepath.Join(dir, manifest)) //nolint:gosec // dir is an entry of the package directory matching namePattern
		if err != nil {
			continue // not a package (the log directory) or half removed
		}
		var p installedManifest
		if err := json.Unmarshal(b, &p); err != nil || p.Name != e.Name() {
			m.log.Warn("package directory with a damaged manifest ignored", "dir", dir)
			continue
		}
		out = append(out, Installed{Package: p.Package, Dir: dir, Digest: p.Executable})
	}
	return out, nil
}

// Load registers the plugins of every installed package; a package whose
// plugin does not start is logged and skipped.
func (m *Manager) Load(ctx context.Context) {
	// Staging directories of installs a stop interrupted are garbage.
	if stale, err := filepath.Glob(filepath.Join(m.o.Dir, ".staging-*")); err == nil {
		for _, dir := range stale {
			if err := os.RemoveAll(dir); err != nil {
				m.log.Warn("staging directory not removed", "dir", dir, "error", err)
			}
		}
	}
	pkgs, err := m.List()
	if err != nil {
		m.log.Error("installed packages not read", "dir", m.o.Dir, "error", err)
		return
	}
	for _, p := range pkgs {
		if p.Digest == "" {
			// Installed before executables were checked: what is there now
			// is what is checked from now on.
			if p.Digest, err = m.recordDigest(p); err != nil {
				m.log.Error("installed package not loaded", "package", p.Name, "error", err)
				continue
			}
			m.log.Warn("installed package had no executable digest; the current executable's is recorded", "package", p.Name)
		}
		err := m.register(ctx, p.Dir, p.Digest, false)
		if errors.Is(err, external.ErrChanged) {
			// Registered all the same, as a plugin whose every start fails
			// with the reason: its services fail saying why.
			m.log.Error("installed package's executable changed: it is not started", "package", p.Name, "error", err)
			err = m.addDefinition(refused(p.Package, err), false)
		}
		if err != nil {
			m.log.Error("installed package not loaded", "package", p.Name, "error", err)
		}
	}
}

// register describes the plugin in dir, whose executable must hash to
// digest, and adds it to the registry (replacing the one of its name when
// replace).
func (m *Manager) register(ctx context.Context, dir, digest string, replace bool) error {
	def, err := external.LoadWith(ctx, filepath.Join(dir, executable), external.Options{
		Log: m.log.With("package", filepath.Base(dir)), Environment: m.pluginEnvironment, Digest: digest})
	if err != nil {
		return err
	}
	return m.addDefinition(def, replace)
}

// addDefinition adds def to the registry (the filter pipelines find a
// filter plugin there too).
func (m *Manager) addDefinition(def plugin.Definition, replace bool) error {
	if replace {
		return m.o.Plugins.Replace(def)
	}
	return m.o.Plugins.Add(def)
}

// SetRepository configures the repository at rawURL, following version
// ("latest" or "" for the newest, else a release to pin).
func (m *Manager) SetRepository(ctx context.Context, rawURL, version string) error {
	u, err := url.Parse(rawURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return fault.New(fault.Invalid, "url %q is not an http or https URL of a repository", rawURL)
	}
	if version == "" {
		version = "latest"
	}
	if strings.TrimSpace(version) != version || len(version) > 64 {
		return fault.New(fault.Invalid, "version %q is not latest or a release", version)
	}
	if _, err := m.o.Config.SetValue(ctx, CategoryInstallation, ItemRepositoryURL, u.String()); err != nil {
		return err
	}
	_, err = m.o.Config.SetValue(ctx, CategoryInstallation, ItemRepositoryVersion, version)
	return err
}

// CategoryInstallation is the category of the repository's settings.
const CategoryInstallation = configmgr.CategoryInstallation

// pluginEnvironment returns Installation.pluginEnvironment, the allow-list
// of the environment of the plugin processes; read at every start of one.
func (m *Manager) pluginEnvironment(ctx context.Context) (string, error) {
	return m.o.Config.Value(ctx, CategoryInstallation, configmgr.ItemPluginEnvironment)
}

// repo returns the configured repository and version, or an Invalid fault
// (400, as the design decisions fix it) saying how to configure one.
func (m *Manager) repo(ctx context.Context) (pkgrepo.Repo, string, error) {
	cat, err := m.o.Config.Category(ctx, CategoryInstallation)
	if err != nil {
		return pkgrepo.Repo{}, "", err
	}
	raw := cat.Items[ItemRepositoryURL].Value
	if raw == "" {
		return pkgrepo.Repo{}, "", fault.New(fault.Invalid,
			"no package repository is configured: POST /edge/repository {\"url\": \"https://…\"} first")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return pkgrepo.Repo{}, "", fault.New(fault.Invalid, "the configured repository URL %q is not valid", raw)
	}
	keys, err := pkgindex.ParseKeys(cat.Items[ItemTrustedKeys].Value)
	if err != nil {
		return pkgrepo.Repo{}, "", fault.New(fault.Invalid, "Installation.%s: %v", ItemTrustedKeys, err)
	}
	if len(keys) == 0 {
		return pkgrepo.Repo{}, "", fault.New(fault.Invalid,
			"no trusted repository key is configured: set Installation.%s to the repository's public key", ItemTrustedKeys)
	}
	return pkgrepo.Repo{URL: u, Keys: keys, Client: m.o.Client}, cat.Items[ItemRepositoryVersion].Value, nil
}

// index fetches the verified index, checks it is not expired and not
// older than the last accepted from the repository, and records its
// version as accepted, logging to lg. Errors are faults: a refused index
// (signature, version, expiry) is audited FAILURE under source with
// details.
func (m *Manager) index(ctx context.Context, repo pkgrepo.Repo, lg *interactionLog, source string, details map[string]any) (*pkgrepo.Index, error) {
	lg.printf("GET %s", repo.URL.JoinPath(pkgrepo.IndexFile))
	// The index is fetched while an API call waits for it: a repository
	// that does not answer must not hold the call for the download timeout.
	ictx, cancel := context.WithTimeout(ctx, indexWait)
	defer cancel()
	ix, err := repo.Index(ictx)
	if err == nil {
		err = m.accept(ctx, repo, ix)
	}
	if err != nil {
		lg.printf("refused: %s", pkgrepo.Detail(err))
		if isRefusal(err) {
			details["error"] = err.Error()
			m.record(ctx, source, auditcode.Failure, details)
		}
		return nil, repoFault(err)
	}
	lg.printf("index verified: version %d, expiring %s, %d package versions", ix.Version,
		ix.Expires.UTC().Format(time.RFC3339), len(ix.Packages))
	return ix, nil
}

// accept checks that ix is not expired and not older than the index last
// accepted from repo, and records its version as accepted.
func (m *Manager) accept(ctx context.Context, repo pkgrepo.Repo, ix *pkgrepo.Index) error {
	now := m.o.Clock.Now()
	if err := ix.Check(now, 0); err != nil {
		return err
	}
	ok, highest, err := m.o.Store.AcceptIndexVersion(ctx, repo.URL.String(), ix.Version, now)
	if err != nil {
		return err
	}
	if !ok {
		return ix.Check(now, highest)
	}
	return nil
}

// isRefusal tells whether err is an index the gateway refused to trust.
func isRefusal(err error) bool {
	for _, e := range []error{pkgrepo.ErrUnsigned, pkgrepo.ErrBadSignature, pkgrepo.ErrRollback, pkgrepo.ErrExpired, pkgrepo.ErrInvalidIndex} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// repoFault is the fault a failed index fetch answers: 502 naming the
// reason, a refusal or the category of a transport failure, never the
// network's own error; anything else (storage) as it is.
func repoFault(err error) error {
	if isRefusal(err) {
		return fault.Wrap(fault.BadGateway, err, "package repository refused: %v", err)
	}
	if fe := (*pkgrepo.FetchError)(nil); errors.As(err, &fe) {
		return fault.Wrap(fault.BadGateway, err, "%v", fe)
	}
	return err
}

// Available returns the packages of type typ in the repository not yet
// installed, and the name of the log of the interaction.
func (m *Manager) Available(ctx context.Context, typ string) ([]string, string, error) {
	repo, version, err := m.repo(ctx)
	if err != nil {
		return nil, "", err
	}
	lg := m.newLog("available")
	defer lg.close()
	ix, err := m.index(ctx, repo, lg, auditInstalled, map[string]any{"available": typ})
	if err != nil {
		return nil, lg.name, err
	}
	installed, err := m.List()
	if err != nil {
		return nil, lg.name, err
	}
	var names []string
	for _, p := range ix.Packages {
		if p.Type != typ || slices.Contains(names, p.Name) || slices.ContainsFunc(installed, func(i Installed) bool { return i.Name == p.Name }) {
			continue
		}
		if latest, ok := ix.Latest(p.Name, version); ok {
			if _, ok := latest.Artifact(runtime.GOOS, runtime.GOARCH); ok {
				names = append(names, p.Name)
			}
		}
	}
	slices.Sort(names)
	lg.printf("available %s packages: %s", typ, strings.Join(names, ", "))
	return names, lg.name, nil
}

// Started is a background install or update that started.
type Started struct {
	TaskID string
	Log    string // the name of its log
}

// Install starts installing package name of type typ in the background,
// at version (or, when "", the version the repository setting follows).
// It checks what it can at once: a repository configured (400), the
// package there (404), not installed (409), not being installed (429).
// An installed package is installed again only to move it down
// (allowDowngrade), to the version the repository setting pins
// (moveDown).
func (m *Manager) Install(ctx context.Context, typ, name, version string, allowDowngrade bool) (Started, error) {
	if !namePattern.MatchString(name) {
		return Started{}, fault.New(fault.Invalid, "%q is not a package name", name)
	}
	repo, following, err := m.repo(ctx)
	if err != nil {
		return Started{}, err
	}
	if version == "" {
		version = following
	}
	current, installed := m.installed(name)
	switch {
	case installed && !allowDowngrade:
		return Started{}, fault.New(fault.Conflict, "package %q is installed", name)
	case installed:
		if err := moveDown(name, version, following); err != nil {
			return Started{}, err
		}
	default:
		if _, ok := m.o.Plugins.Lookup(name); ok {
			return Started{}, fault.New(fault.Conflict, "a plugin named %q is built in", name)
		}
	}
	lg := m.newLog("install-" + name)
	ix, err := m.index(ctx, repo, lg, auditInstalled, map[string]any{"name": name})
	if err != nil {
		lg.close()
		return Started{}, err
	}
	p, ok := ix.Latest(name, version)
	if !ok || p.Type != typ {
		lg.printf("no %s package %q (version %s) in the repository", typ, name, version)
		lg.close()
		return Started{}, fault.New(fault.NotFound, "the repository has no %s package %q (version %s)", typ, name, version)
	}
	if installed && pkgrepo.CompareVersions(p.Version, current.Version) >= 0 {
		lg.close()
		return Started{}, fault.New(fault.Conflict, "package %q is installed at %s; %s is no downgrade (PUT /edge/update moves packages up)",
			name, current.Version, p.Version)
	}
	m.mu.Lock()
	if m.busy[name] || (installed && m.busy[""]) { // an update may be replacing it
		m.mu.Unlock()
		lg.close()
		return Started{}, fault.New(fault.TooMany, "package %q is being installed or updated", name)
	}
	m.busy[name] = true
	m.mu.Unlock()
	id, err := m.startTask(ctx, TaskInstall)
	if err != nil {
		m.release(name)
		lg.close()
		return Started{}, err
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer m.release(name)
		defer lg.close()
		bg := context.WithoutCancel(ctx)
		if installed {
			err := m.downgrade(bg, repo, current.Package, p, lg)
			if err == nil {
				err = m.restartUsers(bg, name, lg)
			}
			m.finishTask(bg, id, err)
			return
		}
		err := m.installVersion(bg, repo, p, lg, false)
		if err == nil {
			m.record(bg, auditInstalled, auditcode.Information, map[string]any{"name": p.Name, "version": p.Version, "type": p.Type})
		} else {
			m.record(bg, auditInstalled, auditcode.Failure, map[string]any{"name": p.Name, "version": p.Version, "error": err.Error()})
		}
		m.finishTask(bg, id, err)
	}()
	return Started{TaskID: id, Log: lg.name}, nil
}

func (m *Manager) release(name string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.busy, name)
}

// installVersion downloads, verifies, unpacks and registers p; nothing of
// it stays on failure. replace swaps an installed version for p.
func (m *Manager) installVersion(ctx context.Context, repo pkgrepo.Repo, p pkgrepo.Package, lg *interactionLog, replace bool) error {
	a, ok := p.Artifact(runtime.GOOS, runtime.GOARCH)
	if !ok {
		return lg.fail(fmt.Errorf("package %s %s has no artifact for %s/%s", p.Name, p.Version, runtime.GOOS, runtime.GOARCH))
	}
	if err := os.MkdirAll(m.o.Dir, 0o750); err != nil {
		return lg.fail(err)
	}
	if err := durable.SyncDir(filepath.Dir(m.o.Dir)); err != nil { // the packages directory's own name
		return lg.fail(err)
	}
	staging, err := os.MkdirTemp(m.o.Dir, ".staging-")
	if err != nil {
		return lg.fail(err)
	}
	defer func() { _ = os.RemoveAll(staging) }()
	// Downloaded to a file and unpacked from it entry by entry: neither
	// the artifact nor what it unpacks to is ever held in memory.
	lg.printf("GET %s (%d bytes, sha256 %s)", repo.URL.JoinPath(a.Path), a.Size, a.SHA256)
	artifact, err := repo.Download(ctx, a, staging)
	if err != nil {
		return lg.fail(err)
	}
	lg.printf("artifact verified")
	unpacked := filepath.Join(staging, "pkg")
	err = pkgrepo.Unpack(artifact, unpacked, maxUnpacked)
	_ = artifact.Close()
	_ = os.Remove(artifact.Name())
	if err != nil {
		return lg.fail(err)
	}
	digest, err := external.FileDigest(filepath.Join(unpacked, executable))
	if err != nil {
		return lg.fail(fmt.Errorf("the package has no plugin executable: %w", err))
	}
	// The index's manifest is the verified one; it replaces the archive's.
	b, err := json.MarshalIndent(installedManifest{Package: p, Executable: digest}, "", "  ")
	if err != nil {
		return lg.fail(err)
	}
	if err := os.WriteFile(filepath.Join(unpacked, manifest), b, 0o600); err != nil {
		return lg.fail(err)
	}
	def, err := external.LoadWith(ctx, filepath.Join(unpacked, executable),
		external.Options{Log: m.log, Environment: m.pluginEnvironment, Digest: digest})
	if err != nil {
		return lg.fail(fmt.Errorf("the package's plugin does not start: %w", err))
	}
	if def.Name != p.Name {
		return lg.fail(fmt.Errorf("the package %q holds plugin %q", p.Name, def.Name))
	}
	// Synced before it takes its name, and its name synced after: a power
	// cut leaves the previous version or this one, whole.
	if err := durable.SyncTree(unpacked); err != nil {
		return lg.fail(err)
	}
	final := filepath.Join(m.o.Dir, p.Name)
	old := filepath.Join(staging, "old")
	if replace {
		if err := os.Rename(final, old); err != nil {
			return lg.fail(err)
		}
	}
	if err := os.Rename(unpacked, final); err != nil {
		if replace {
			_ = os.Rename(old, final)
		}
		return lg.fail(err)
	}
	if err := durable.SyncDir(m.o.Dir); err != nil {
		_ = os.RemoveAll(final)
		if replace {
			_ = os.Rename(old, final)
		}
		return lg.fail(err)
	}
	if err := m.register(ctx, final, digest, replace); err != nil {
		_ = os.RemoveAll(final)
		if replace {
			_ = os.Rename(old, final)
		}
		return lg.fail(err)
	}
	lg.printf("installed %s %s (executable sha256 %s)", p.Name, p.Version, digest)
	return nil
}

// Remove removes the installed package name. A package whose plugin a
// service, north task or filter instance uses is refused (Conflict, naming
// each of them) and stays as it was.
func (m *Manager) Remove(ctx context.Context, name string) error {
	if !namePattern.MatchString(name) {
		return fault.New(fault.NotFound, "package %q is not installed", name)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.busy[name] || m.busy[""] {
		return fault.New(fault.TooMany, "package %q is being installed or updated", name)
	}
	dir := filepath.Join(m.o.Dir, name)
	b, err := os.ReadFile(filepath.Join(dir, manifest)) //nolint:gosec // name matched namePattern: no separator, no ".."
	if err != nil {
		return fault.New(fault.NotFound, "package %q is not installed", name)
	}
	var p pkgrepo.Package
	_ = json.Unmarshal(b, &p)
	// The plugin (of any kind: the one registry holds filters too) is
	// unregistered before its users are looked for, and services, tasks
	// and filters look the plugin up again once recorded:
	// so either a user created meanwhile is found here, or its creation
	// finds the plugin gone. Put back when the package stays.
	def, registered := m.o.Plugins.Lookup(name)
	m.o.Plugins.Remove(name)
	restore := func() {
		if registered {
			if err := m.o.Plugins.Add(def); err != nil {
				m.log.Error("plugin of a package kept not registered again", "package", name, "error", err)
			}
		}
	}
	users, err := m.users(ctx, name)
	if err != nil {
		restore()
		return err
	}
	if len(users) > 0 {
		restore()
		return fault.New(fault.Conflict, "package %q is in use: its plugin is used by %s; delete them first",
			name, strings.Join(users, ", "))
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := durable.SyncDir(m.o.Dir); err != nil { // else a power cut could bring it back
		return err
	}
	m.record(ctx, auditRemoved, auditcode.Information, map[string]any{"name": name, "version": p.Version})
	return nil
}

// users names everything that uses the plugin name: services (their type
// said), north tasks and filter instances.
func (m *Manager) users(ctx context.Context, name string) ([]string, error) {
	var out []string
	svcs, err := m.o.Store.ListServices(ctx, "")
	if err != nil {
		return nil, err
	}
	for _, s := range svcs {
		if s.Plugin == name {
			out = append(out, fmt.Sprintf("%s service %q", s.Type, s.Name))
		}
	}
	if m.o.Tasks != nil {
		tasks, err := m.o.Tasks.TasksUsing(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, t := range tasks {
			out = append(out, fmt.Sprintf("north task %q", t))
		}
	}
	if m.o.Filters != nil {
		filters, err := m.o.Filters.UsedBy(ctx, name)
		if err != nil {
			return nil, err
		}
		for _, f := range filters {
			out = append(out, fmt.Sprintf("filter %q", f))
		}
	}
	return out, nil
}

func (m *Manager) record(ctx context.Context, source, severity string, details any) {
	if err := m.o.Audit.Record(ctx, source, severity, details); err != nil {
		m.log.Error("audit entry not written", "source", source, "error", err)
	}
}

// startTask records a running task.
func (m *Manager) startTask(ctx context.Context, name string) (string, error) {
	id := uuid.NewString()
	err := m.o.Store.InsertTask(ctx, db.Task{ID: id, Name: name, ProcessName: name, State: db.TaskRunning,
		StartTime: m.o.Clock.Now().UTC(), PID: os.Getpid()})
	if err != nil {
		return "", fmt.Errorf("packages: record the task: %w", err)
	}
	return id, nil
}

// finishTask records a task's end: Complete with exit code 0, or 1 and
// the reason.
func (m *Manager) finishTask(ctx context.Context, id string, err error) {
	code, reason := 0, ""
	if err != nil {
		code, reason = 1, err.Error()
	}
	if _, ferr := m.o.Store.FinishTask(ctx, id, db.TaskComplete, m.o.Clock.Now().UTC(), &code, reason); ferr != nil {
		m.log.Error("task end not recorded", "task", id, "error", ferr)
	}
}
