// Package impl implements the API contract: each method of
// gen.StrictServerInterface turns a generated request object into a domain
// call and the result into a generated response object. Handlers define no
// wire types of their own, and every error goes through the one table in
// errors.go.
package impl

import (
	"log/slog"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/asset"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/catalogue"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/logging"
	"github.com/edged/edged/internal/north"
	"github.com/edged/edged/internal/notification"
	"github.com/edged/edged/internal/packages"
	"github.com/edged/edged/internal/scheduler"
	"github.com/edged/edged/internal/service"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/system"
	"github.com/edged/edged/internal/user"
)

// Store is what the handlers ask storage directly: only its health, which
// it keeps in memory.
type Store interface {
	// Health reports whether storage was usable at the last calls.
	Health() db.Health
}

// Totals are the statistics' values kept in memory;
// *ingest.Counters implements it.
type Totals interface {
	Total(key string) int64
}

// Host gives the host's name and addresses, cached; *system.Host
// implements it.
type Host interface {
	Facts() (name string, addresses []string)
}

// Deps are the collaborators of a Server.
type Deps struct {
	Store Store
	// Ping's figures, each from memory: the statistics' totals, the
	// instance name and description (service.name, service.description),
	// the authentication settings and the host's facts.
	Totals       Totals
	InstanceName interface{ Value() string }
	InstanceDesc interface{ Value() string }
	AuthSettings user.SettingsSource
	Host         Host
	Config       *configmgr.Manager
	Audit        *audit.Logger
	Users        *user.Service
	Assets       *asset.Service
	Services     *service.Manager
	// North lists north services and tasks and creates north tasks.
	North *north.Runtime
	// Filters manages filter instances and pipelines.
	Filters *filter.Manager
	// Notifications keeps the notification instances.
	Notifications *notification.Manager
	// Fleet exports, plans and applies configuration documents.
	Fleet FleetConfig
	// Tasks answers the task operations; History the statistics history
	// and rates; Control carries shutdown and restart to the code running
	// the gateway.
	Tasks *scheduler.Scheduler
	// Packages installs, updates and removes packages.
	Packages *packages.Manager
	// Catalogue lists the plugins services and filters are made of.
	Catalogue *catalogue.Catalogue
	History   *stats.History
	Control   *system.Control
	Logger    *slog.Logger
	Version   string
	SafeMode  bool
	Started   time.Time
	// Metrics exposes the Prometheus metrics; nil answers 501.
	Metrics Exposer
	// Logs holds the gateway's log lines; nil: none are kept.
	Logs *logging.Journal
	// Backups makes and restores backups; nil answers 503.
	Backups Backups
}

// Server implements gen.StrictServerInterface. It is safe for concurrent
// use.
type Server struct {
	store         Store
	totals        Totals
	name          interface{ Value() string }
	desc          interface{ Value() string }
	authMode      user.SettingsSource
	host          Host
	config        *configmgr.Manager
	audit         *audit.Logger
	users         *user.Service
	assets        *asset.Service
	services      *service.Manager
	north         *north.Runtime
	filters       *filter.Manager
	notifications *notification.Manager
	fleet         FleetConfig
	tasks         *scheduler.Scheduler
	packages      *packages.Manager
	catalogue     *catalogue.Catalogue
	history       *stats.History
	control       *system.Control
	log           *slog.Logger
	instance      system.Instance
	now           func() time.Time
	metrics       Exposer
	logs          *logging.Journal
	backups       Backups
}

var _ gen.StrictServerInterface = (*Server)(nil)

// New returns a Server over deps.
func New(deps Deps) *Server {
	log := deps.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if deps.Logs == nil {
		deps.Logs = logging.NewJournal()
	}
	return &Server{
		store:         deps.Store,
		totals:        deps.Totals,
		name:          deps.InstanceName,
		desc:          deps.InstanceDesc,
		authMode:      deps.AuthSettings,
		host:          deps.Host,
		config:        deps.Config,
		audit:         deps.Audit,
		users:         deps.Users,
		assets:        deps.Assets,
		services:      deps.Services,
		packages:      deps.Packages,
		catalogue:     deps.Catalogue,
		north:         deps.North,
		filters:       deps.Filters,
		notifications: deps.Notifications,
		fleet:         deps.Fleet,
		tasks:         deps.Tasks,
		history:       deps.History,
		control:       deps.Control,
		log:           log,
		instance:      system.Instance{Started: deps.Started, Version: deps.Version, SafeMode: deps.SafeMode},
		now:           time.Now,
		metrics:       deps.Metrics,
		logs:          deps.Logs,
		backups:       deps.Backups,
	}
}

// Timestamp layouts of the wire (decisions §1): readings and asset tracking
// carry microseconds, audit, tasks and statistics history milliseconds.
const (
	readingTimeLayout = "2006-01-02 15:04:05.000000"
	eventTimeLayout   = "2006-01-02 15:04:05.000"
)

// Paging defaults of the contract.
const (
	defaultLimit = 20
	defaultSkip  = 0
)

// valueOr returns *p, or def when p is nil.
func valueOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// optional returns a pointer to s, or nil for "" (an absent attribute).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
