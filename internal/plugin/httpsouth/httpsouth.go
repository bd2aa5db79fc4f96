// Package httpsouth is the south plugin that receives readings over HTTP:
// it listens on its own port and accepts `POST /<uri>` with a JSON array of
// {timestamp, asset, readings}. It answers 200 only once the readings are
// committed to storage, so a sender that got 200 may forget them; a
// malformed batch is refused whole (400, nothing stored), a full ingest
// buffer answers 503 with Retry-After, and nothing is dropped silently.
// http_north of another gateway sends in this format.
package httpsouth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "http_south"

// Configuration items.
const (
	ItemPort   = "port"
	ItemURI    = "uri"
	ItemPrefix = "assetNamePrefix"
)

// Limits of a request.
const (
	// MaxBody is the largest request body accepted (413 beyond).
	MaxBody = 8 << 20
	// retryAfterFull is the Retry-After of a 503 for a full buffer.
	retryAfterFull = 1
	// retryAfterStopping is the Retry-After of a 503 while stopping.
	retryAfterStopping = 5
	// shutdownGrace bounds how long in-flight requests may take to finish
	// (waiting for their commit) when the service stops.
	shutdownGrace = 10 * time.Second
)

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindSouth, Checks: true,
		Description: "Readings posted over HTTP as a JSON array of {timestamp, asset, readings}",
		Items:       plugin.ItemsOf(Config{}),
		New:         newHTTPSouth,
	}
}

// HTTPSouth is a running instance.
type HTTPSouth struct {
	env  plugin.Env
	log  *slog.Logger
	port int
	path string // "/" + uri

	mu     sync.Mutex // guards prefix and ln
	prefix string
	ln     net.Listener
}

func newHTTPSouth(env plugin.Env, cfg plugin.Config) (plugin.South, error) {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return nil, err
	}
	if c.Port < 1 || c.Port > 65535 {
		return nil, fmt.Errorf("%s %d is not a TCP port", ItemPort, c.Port)
	}
	log := env.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &HTTPSouth{env: env, log: log, port: c.Port, path: "/" + strings.TrimLeft(c.URI, "/"),
		prefix: c.AssetNamePrefix}, nil
}

// Reconfigure applies a new asset name prefix at once; a new port or URI
// needs a new listener, so it asks for a restart.
func (h *HTTPSouth) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	if c.Port != h.port || "/"+strings.TrimLeft(c.URI, "/") != h.path {
		return plugin.ErrRestart
	}
	h.mu.Lock()
	h.prefix = c.AssetNamePrefix
	h.mu.Unlock()
	return nil
}

// Open binds the listening port, so the service counts as started only
// once it accepts connections.
func (h *HTTPSouth) Open(ctx context.Context) error {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", ":"+strconv.Itoa(h.port))
	if err != nil {
		return fmt.Errorf("http_south: listen on port %d: %w", h.port, err)
	}
	h.mu.Lock()
	h.ln = ln
	h.mu.Unlock()
	return nil
}

// Addr returns the address listened on, once Open succeeded.
func (h *HTTPSouth) Addr() net.Addr {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ln == nil {
		return nil
	}
	return h.ln.Addr()
}

// Run serves until ctx ends, then lets in-flight requests finish.
func (h *HTTPSouth) Run(ctx context.Context, sink plugin.Sink) error {
	h.mu.Lock()
	ln := h.ln
	h.mu.Unlock()
	if ln == nil {
		if err := h.Open(ctx); err != nil {
			return err
		}
		h.mu.Lock()
		ln = h.ln
		h.mu.Unlock()
	}
	srv := &http.Server{
		Handler:           h.Handler(sink),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(h.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- srv.Serve(ln) }()
	select {
	case err := <-serveErr:
		return fmt.Errorf("http_south: serve on port %d: %w", h.port, err)
	case <-ctx.Done():
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), shutdownGrace)
	defer cancel()
	if err := srv.Shutdown(stopCtx); err != nil {
		h.log.Warn("http_south: requests still running at shutdown", "port", h.port, "error", err)
		_ = srv.Close()
	}
	return nil
}

// Handler returns the HTTP handler delivering posted readings to sink.
func (h *HTTPSouth) Handler(sink plugin.Sink) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != h.path {
			writeJSON(w, http.StatusNotFound, message{Message: fmt.Sprintf("no such path %q; readings are posted to %q", r.URL.Path, h.path)})
			return
		}
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", http.MethodPost)
			writeJSON(w, http.StatusMethodNotAllowed, message{Message: fmt.Sprintf("method %s not allowed; use POST", r.Method)})
			return
		}
		h.mu.Lock()
		prefix := h.prefix
		h.mu.Unlock()
		readings, status, err := decode(http.MaxBytesReader(w, r.Body, MaxBody), prefix, r.ContentLength)
		if err != nil {
			writeJSON(w, status, message{Message: err.Error()})
			return
		}
		submitted, err := submitAndWait(r.Context(), sink, readings)
		switch {
		case submitted:
		case errors.Is(err, plugin.ErrBufferFull):
			w.Header().Set("Retry-After", strconv.Itoa(retryAfterFull))
			writeJSON(w, http.StatusServiceUnavailable, message{Message: "the ingest buffer is full; nothing was stored, retry later"})
			return
		case errors.Is(err, plugin.ErrStopped):
			w.Header().Set("Retry-After", strconv.Itoa(retryAfterStopping))
			writeJSON(w, http.StatusServiceUnavailable, message{Message: "the service is stopping; nothing was stored, retry later"})
			return
		case errors.Is(err, plugin.ErrAssetCode):
			// The service's filters renamed a reading to a code the
			// gateway does not take (decode checked the posted ones).
			writeJSON(w, http.StatusBadRequest, message{Message: fmt.Sprintf("after the service's filters, %v; nothing was stored", err)})
			return
		case errors.Is(err, plugin.ErrTooLarge):
			writeJSON(w, http.StatusRequestEntityTooLarge, message{Message: fmt.Sprintf("%d readings in one request are more than the ingest buffer holds; send smaller batches", len(readings))})
			return
		default:
			h.log.Error("http_south: submit readings", "error", err)
			writeJSON(w, http.StatusServiceUnavailable, message{Message: "the readings could not be buffered; retry later"})
			return
		}
		if err != nil {
			if r.Context().Err() != nil {
				return // the sender went away; it will retry
			}
			if errors.Is(err, plugin.ErrRefused) {
				// Validation let through a value storage cannot hold: the
				// same request can never succeed, so it is not a 503.
				h.log.Warn("http_south: storage refused readings", "readings", len(readings), "error", err)
				writeJSON(w, http.StatusBadRequest, message{Message: "storage refused a value of these readings; nothing was stored, and sending them again will not help"})
				return
			}
			h.log.Error("http_south: readings not stored", "readings", len(readings), "error", err)
			w.Header().Set("Retry-After", strconv.Itoa(retryAfterFull))
			writeJSON(w, http.StatusServiceUnavailable, message{Message: "the readings could not be stored; retry later"})
			return
		}
		writeJSON(w, http.StatusOK, stored{Message: fmt.Sprintf("%d readings stored", len(readings)), Readings: len(readings)})
	})
}

// submitAndWait submits readings to sink and waits for their commit, in
// one call where sink offers it (plugin.DirectSink: a lone request is then
// written on the request's own goroutine). submitted is false when the
// submission was refused, err being Submit's error; otherwise err is the
// commit's outcome.
func submitAndWait(ctx context.Context, sink plugin.Sink, readings []plugin.Reading) (submitted bool, err error) {
	if d, ok := sink.(plugin.DirectSink); ok {
		return d.SubmitAndWait(ctx, readings)
	}
	receipt, err := sink.Submit(readings)
	if err != nil {
		return false, err
	}
	return true, receipt.Wait(ctx)
}

type message struct {
	Message string `json:"message"`
}

type stored struct {
	Message  string `json:"message"`
	Readings int    `json:"readings"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South   = (*HTTPSouth)(nil)
	_ edgeplugin.Opener  = (*HTTPSouth)(nil)
	_ edgeplugin.Checker = (*HTTPSouth)(nil)
)
