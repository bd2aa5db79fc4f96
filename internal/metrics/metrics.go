// Package metrics exposes the gateway's metrics to Prometheus (GET
// /edge/metrics) with the official client library: the readings counters
// (from the gateway's statistics, filter pipelines' drops included), ingest
// buffer depth and commit latency per south service, north lag, readings
// sent, set aside and send errors per stream, service status, API requests
// by operation and status with their durations, and storage errors and
// availability, besides the Go runtime's and the process's own metrics.
//
// Values that live elsewhere (statistics, service states, stream lags) are
// read once per scrape through small interfaces, with the scrape's
// context; events (requests, commits, send errors) are counted as they
// happen by the hooks this package implements.
package metrics

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/common/expfmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/filter"
	"github.com/edged/edged/internal/stats"
)

// Statistics lists the gateway's statistics, every reading committed so
// far counted; *service.Manager implements it.
type Statistics interface {
	Statistics(ctx context.Context) ([]db.Statistic, error)
}

// Service is one service as the metrics show it.
type Service struct {
	Name   string
	Type   string // Southbound, Northbound, …
	Status string // running, failed, unresponsive or shutdown
}

// Services lists the services and the depth of the south services' ingest
// buffers.
type Services interface {
	// Services returns every service with its status.
	Services(ctx context.Context) ([]Service, error)
	// BufferDepths returns the readings each started south service's
	// ingest buffer holds, by service name.
	BufferDepths() map[string]int
}

// Streams reports the readings north services and tasks have not sent;
// *db.DB implements it.
type Streams interface {
	StreamLags(ctx context.Context) (map[string]int64, error)
}

// Storage reports whether storage is usable, from memory; *db.DB
// implements it.
type Storage interface {
	Health() db.Health
}

// Sources are what a scrape reads; a nil source leaves its metrics out.
type Sources struct {
	Statistics Statistics
	Services   Services
	Streams    Streams
	Storage    Storage
	// StorageErrors counts the failed storage calls of the process
	// (db.Failures).
	StorageErrors func() db.ErrorCounts
}

// Statuses are the states a service can be in, each a series of
// edged_service_status (1 for the current state, 0 for the others).
var Statuses = []string{"running", "failed", "unresponsive", "shutdown"}

// durationBuckets span 0.5 ms to 10 s: API calls and readings commits
// range from sub-millisecond SQLite writes to multi-second purges.
var durationBuckets = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}

// Metrics is the gateway's metrics registry. It is safe for concurrent
// use; create one per gateway run.
type Metrics struct {
	src Sources
	log *slog.Logger
	reg *prometheus.Registry

	requests   *prometheus.CounterVec
	durations  *prometheus.HistogramVec
	commits    *prometheus.HistogramVec
	failed     *prometheus.CounterVec
	sendErrors *prometheus.CounterVec

	// scrape serialises scrapes: each reads the sources into snap, then
	// gathers, so the collector emits one consistent snapshot.
	scrape sync.Mutex
	snap   snapshot
}

// snapshot is what one scrape read from the sources; a source that failed
// or is not set leaves its part nil.
type snapshot struct {
	stats         map[string]int64
	services      []Service
	depths        map[string]int
	lags          map[string]int64
	health        *db.Health
	storageErrors *db.ErrorCounts
}

// New returns the metrics of a gateway; log may be nil. Until ReadFrom
// names its sources, scrapes show only what the hooks counted.
func New(log *slog.Logger) *Metrics {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Metrics{log: log, reg: prometheus.NewRegistry()}
	m.requests = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "edged_http_requests_total",
		Help: "API requests answered, by operationId (none: outside the API contract) and HTTP status.",
	}, []string{"operation", "status"})
	m.durations = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "edged_http_request_duration_seconds",
		Help:    "Time to answer API requests, by operationId.",
		Buckets: durationBuckets,
	}, []string{"operation"})
	m.commits = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "edged_ingest_commit_duration_seconds",
		Help:    "Time to write one batch of readings to storage, by south service.",
		Buckets: durationBuckets,
	}, []string{"service"})
	m.failed = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "edged_ingest_commit_failures_total",
		Help: "Batches of readings a south service's buffer could not write to storage (their readings are discarded).",
	}, []string{"service"})
	m.sendErrors = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "edged_north_send_errors_total",
		Help: "Failed sends of readings north, by north service or task.",
	}, []string{"stream"})
	m.reg.MustRegister(m.requests, m.durations, m.commits, m.failed, m.sendErrors,
		collector{m},
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// ReadFrom sets the sources every later scrape reads. The services and
// streams that report to the hooks are built with the Metrics, so the
// sources are named once they exist.
func (m *Metrics) ReadFrom(src Sources) {
	m.scrape.Lock()
	defer m.scrape.Unlock()
	m.src = src
}

// Request counts one answered API request; it is the router's observer.
func (m *Metrics) Request(operation string, status int, d time.Duration) {
	if operation == "" {
		operation = "none"
	}
	m.requests.WithLabelValues(operation, strconv.Itoa(status)).Inc()
	m.durations.WithLabelValues(operation).Observe(d.Seconds())
}

// Committed records one write of an ingest buffer (ingest.Observer).
func (m *Metrics) Committed(service string, d time.Duration, ok bool) {
	m.commits.WithLabelValues(service).Observe(d.Seconds())
	if !ok {
		m.failed.WithLabelValues(service).Inc()
	}
}

// SendFailed counts a failed send of a north stream (north.SendErrors).
func (m *Metrics) SendFailed(stream string) {
	m.sendErrors.WithLabelValues(stream).Inc()
}

// Expose reads the sources and returns every metric in the Prometheus
// text format, version 0.0.4. A source that fails is logged and its metrics are left
// out; the rest are still exposed.
func (m *Metrics) Expose(ctx context.Context) ([]byte, error) {
	m.scrape.Lock()
	defer m.scrape.Unlock()
	m.snap = m.read(ctx)
	families, err := m.reg.Gather()
	if err != nil {
		return nil, fmt.Errorf("metrics: gather: %w", err)
	}
	var buf bytes.Buffer
	enc := expfmt.NewEncoder(&buf, expfmt.FmtText)
	for _, f := range families {
		if err := enc.Encode(f); err != nil {
			return nil, fmt.Errorf("metrics: encode %s: %w", f.GetName(), err)
		}
	}
	return buf.Bytes(), nil
}

// read takes the snapshot of one scrape.
func (m *Metrics) read(ctx context.Context) snapshot {
	var s snapshot
	if m.src.Storage != nil {
		h := m.src.Storage.Health()
		s.health = &h
	}
	if m.src.StorageErrors != nil {
		c := m.src.StorageErrors()
		s.storageErrors = &c
	}
	if m.src.Statistics != nil {
		list, err := m.src.Statistics.Statistics(ctx)
		if err != nil {
			m.log.WarnContext(ctx, "metrics: statistics not read", "error", err)
		} else {
			s.stats = make(map[string]int64, len(list))
			for _, st := range list {
				s.stats[st.Key] = st.Value
			}
		}
	}
	if m.src.Services != nil {
		svcs, err := m.src.Services.Services(ctx)
		if err != nil {
			m.log.WarnContext(ctx, "metrics: services not read", "error", err)
		} else {
			s.services = svcs
		}
		s.depths = m.src.Services.BufferDepths()
	}
	if m.src.Streams != nil {
		lags, err := m.src.Streams.StreamLags(ctx)
		if err != nil {
			m.log.WarnContext(ctx, "metrics: north lag not read", "error", err)
		} else {
			s.lags = lags
		}
	}
	return s
}

// Descriptions of the metrics read at scrape time.
var (
	descReceived = prometheus.NewDesc("edged_readings_received_total",
		"Readings received by south services (statistic READINGS).", nil, nil)
	descStored = prometheus.NewDesc("edged_readings_stored_total",
		"Readings a south service stored in the buffer (statistic <service>-Ingest).", []string{"service"}, nil)
	descDiscarded = prometheus.NewDesc("edged_readings_discarded_total",
		"Readings discarded before they were stored: buffer full or a failed write (statistic DISCARDED).", nil, nil)
	descPurged = prometheus.NewDesc("edged_readings_purged_total",
		"Readings removed from the buffer by purges (statistic PURGED).", nil, nil)
	descBuffered = prometheus.NewDesc("edged_readings_buffered",
		"Readings held in storage (statistic BUFFERED).", nil, nil)
	descDepth = prometheus.NewDesc("edged_ingest_buffer_depth",
		"Readings in a started south service's ingest buffer, queued or being written.", []string{"service"}, nil)
	descFiltered = prometheus.NewDesc("edged_readings_filtered_total",
		"Readings a service's filter pipeline dropped (statistic <service>-Filtered).", []string{"service"}, nil)
	descLag = prometheus.NewDesc("edged_north_lag_readings",
		"Buffered readings a north service or task has not sent yet (set-aside readings are behind its position, not counted).",
		[]string{"stream"}, nil)
	descSent = prometheus.NewDesc("edged_north_sent_readings_total",
		"Readings a north service or task delivered (statistic <stream>).", []string{"stream"}, nil)
	descSetAside = prometheus.NewDesc("edged_north_set_aside_readings_total",
		"Readings a north service's or task's destination refused for good, set aside (statistic <stream>-SetAside).",
		[]string{"stream"}, nil)
	descStatus = prometheus.NewDesc("edged_service_status",
		"The status of each service: 1 for its current status, 0 for the others.", []string{"service", "type", "status"}, nil)
	descStorageErrors = prometheus.NewDesc("edged_storage_errors_total",
		"Storage calls that failed, by kind: unavailable (storage could not be used: the API answers 503) or other "+
			"(the database or its driver failed otherwise; missing rows, conflicts and refused values are not errors).",
		[]string{"kind"}, nil)
	descStorageAvailable = prometheus.NewDesc("edged_storage_available",
		"1 while storage is usable, 0 from a call that found it unavailable until a later call succeeds.", nil, nil)
)

// collector emits the snapshot of the scrape in progress.
type collector struct{ m *Metrics }

func (c collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{descReceived, descStored, descDiscarded, descPurged, descBuffered, descFiltered,
		descDepth, descLag, descSent, descSetAside, descStatus, descStorageErrors, descStorageAvailable} {
		ch <- d
	}
}

func (c collector) Collect(ch chan<- prometheus.Metric) {
	s := c.m.snap // Collect runs inside Expose, under the scrape lock
	if s.stats != nil {
		for key, desc := range map[string]*prometheus.Desc{
			stats.Readings: descReceived, stats.Discarded: descDiscarded, stats.Purged: descPurged,
		} {
			ch <- prometheus.MustNewConstMetric(desc, prometheus.CounterValue, float64(s.stats[key]))
		}
		ch <- prometheus.MustNewConstMetric(descBuffered, prometheus.GaugeValue, float64(s.stats[stats.Buffered]))
		for _, svc := range s.services {
			if v, ok := s.stats[stats.IngestKey(svc.Name)]; ok && isSouth(svc.Type) {
				ch <- prometheus.MustNewConstMetric(descStored, prometheus.CounterValue, float64(v), svc.Name)
			}
			if v, ok := s.stats[filter.FilteredKey(svc.Name)]; ok {
				ch <- prometheus.MustNewConstMetric(descFiltered, prometheus.CounterValue, float64(v), svc.Name)
			}
		}
		for name := range s.lags { // every north service and task has a stream position
			ch <- prometheus.MustNewConstMetric(descSent, prometheus.CounterValue, float64(s.stats[name]), name)
			ch <- prometheus.MustNewConstMetric(descSetAside, prometheus.CounterValue, float64(s.stats[db.SetAsideKey(name)]), name)
		}
	}
	for name, n := range s.depths {
		ch <- prometheus.MustNewConstMetric(descDepth, prometheus.GaugeValue, float64(n), name)
	}
	for name, n := range s.lags {
		ch <- prometheus.MustNewConstMetric(descLag, prometheus.GaugeValue, float64(n), name)
	}
	for _, svc := range s.services {
		for _, st := range Statuses {
			v := 0.0
			if strings.EqualFold(svc.Status, st) {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(descStatus, prometheus.GaugeValue, v, svc.Name, svc.Type, st)
		}
	}
	if e := s.storageErrors; e != nil {
		ch <- prometheus.MustNewConstMetric(descStorageErrors, prometheus.CounterValue, float64(e.Unavailable), "unavailable")
		ch <- prometheus.MustNewConstMetric(descStorageErrors, prometheus.CounterValue, float64(e.Other), "other")
	}
	if h := s.health; h != nil {
		v := 0.0
		if h.Available {
			v = 1
		}
		ch <- prometheus.MustNewConstMetric(descStorageAvailable, prometheus.GaugeValue, v)
	}
}

// isSouth reports whether a service type is a south service's.
func isSouth(typ string) bool {
	return slices.Contains([]string{"southbound", "south"}, strings.ToLower(typ))
}
