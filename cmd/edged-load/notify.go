package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The notification section: ingest 4 × 100 with the notification service
// evaluating 100 threshold rules on the ingested assets, beside the same
// load with the service stopped, and the time from a probe reading's
// commit (its POST answered) to its webhook's arrival while that load
// runs.

// rulesPerRun is how many threshold rules the section evaluates.
const rulesPerRun = 100

// packageRepo is the package repository the section installs the
// notification service from: built once per run by `go run ./cmd/edgepkg`
// from the source tree in the working directory, served on loopback.
type packageRepo struct {
	url, pub string
	close    func()
}

// buildRepo builds and serves the repository.
func (s *system) buildRepo(ctx context.Context) (*packageRepo, error) {
	dir := filepath.Join(s.o.work, "repository")
	key := filepath.Join(s.o.work, "repository.key")
	for _, args := range [][]string{{"keygen", "-out", key}, {"build", "-key", key, "-out", dir}} {
		cmd := exec.CommandContext(ctx, "go", append([]string{"run", "./cmd/edgepkg"}, args...)...) //nolint:gosec // the packager of this source tree, with paths in the working directory
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("edgepkg %s (run edged-load from the source tree's root): %w\n%s", args[0], err, out)
		}
	}
	b, err := os.ReadFile(key) //nolint:gosec // the key just made in the working directory
	if err != nil {
		return nil, err
	}
	seed, err := base64.StdEncoding.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(seed) != ed25519.SeedSize {
		return nil, errors.New("edgepkg wrote a key that is not a seed")
	}
	pub := ed25519.NewKeyFromSeed(seed).Public().(ed25519.PublicKey)
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &packageRepo{url: "http://" + ln.Addr().String(), pub: base64.StdEncoding.EncodeToString(pub),
		close: func() { _ = srv.Close() }}, nil
}

// api calls the gateway's API as the admin (token) and decodes a JSON
// answer into out (nil: none wanted).
func (g *gateway) api(ctx context.Context, token, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, g.url+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return failed(method+" "+path, resp.StatusCode, string(b), nil)
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// installNotification logs in as the admin, installs the notification
// service package from repo and creates the service, and returns the
// admin's token once the service runs.
func (g *gateway) installNotification(ctx context.Context, repo *packageRepo) (string, error) {
	var login struct{ Token string }
	if err := g.api(ctx, "", http.MethodPost, "/edge/login", map[string]string{"username": "admin", "password": g.password}, &login); err != nil {
		return "", err
	}
	tok := login.Token
	if err := g.api(ctx, tok, http.MethodPut, "/edge/category/Installation/trustedKeys", map[string]string{"value": repo.pub}, nil); err != nil {
		return "", err
	}
	if err := g.api(ctx, tok, http.MethodPost, "/edge/repository", map[string]string{"url": repo.url}, nil); err != nil {
		return "", err
	}
	var started struct{ ID string }
	if err := g.api(ctx, tok, http.MethodPost, "/edge/service?action=install", map[string]string{"format": "repository", "name": "notification"}, &started); err != nil {
		return "", err
	}
	if err := g.await(ctx, "the install", func() (bool, error) {
		var task struct {
			State    string
			ExitCode *int
			Reason   string
		}
		if err := g.api(ctx, tok, http.MethodGet, "/edge/task/"+started.ID, nil, &task); err != nil {
			return false, err
		}
		if task.State == "Complete" && (task.ExitCode == nil || *task.ExitCode != 0) {
			return false, fmt.Errorf("install failed: %s", task.Reason)
		}
		return task.State == "Complete", nil
	}); err != nil {
		return "", err
	}
	if err := g.api(ctx, tok, http.MethodPost, "/edge/service", map[string]any{"name": "notify", "type": "notification", "enabled": true}, nil); err != nil {
		return "", err
	}
	return tok, g.awaitNotification(ctx, tok, true)
}

// awaitNotification waits until the notification service runs (or, with
// running false, does not).
func (g *gateway) awaitNotification(ctx context.Context, tok string, running bool) error {
	return g.await(ctx, "the notification service", func() (bool, error) {
		var list struct {
			Services []struct{ Name, Status string }
		}
		if err := g.api(ctx, tok, http.MethodGet, "/edge/service", nil, &list); err != nil {
			return false, err
		}
		for _, svc := range list.Services {
			if svc.Name == "notify" {
				return (svc.Status == "running") == running, nil
			}
		}
		return false, nil
	})
}

// await polls done for a minute.
func (g *gateway) await(ctx context.Context, what string, done func() (bool, error)) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		sleep(ctx, 100*time.Millisecond)
	}
	return fmt.Errorf("%s: not done within a minute", what)
}

// hookArrivals is a webhook receiver that notes when each document
// arrives.
type hookArrivals struct {
	mu  sync.Mutex
	at  []time.Time
	url string
}

func startHook(ctx context.Context) (*hookArrivals, func(), error) {
	h := &hookArrivals{}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, nil, err
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		if r.URL.Path != "/hook" {
			return
		}
		now := time.Now()
		h.mu.Lock()
		h.at = append(h.at, now)
		h.mu.Unlock()
	})}
	go func() { _ = srv.Serve(ln) }()
	h.url = "http://" + ln.Addr().String() + "/hook"
	return h, func() { _ = srv.Close() }, nil
}

func (h *hookArrivals) arrivals() []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.at)
}

// notificationIngest measures the section once.
func (s *system) notificationIngest(ctx context.Context, rep int, repo *packageRepo) error {
	gw, err := startGateway(ctx, s.o.edged, filepath.Join(s.o.work, fmt.Sprintf("notify-%d", rep)), "", nil)
	if err != nil {
		return err
	}
	defer gw.stop()
	url, err := gw.httpSouth(ctx, "plain")
	if err != nil {
		return err
	}
	tok, err := gw.installNotification(ctx, repo)
	if err != nil {
		return err
	}
	hook, stopHook, err := startHook(ctx)
	if err != nil {
		return err
	}
	defer stopHook()
	// Rules that never hold on the load's assets: their cost is the
	// evaluation, never a delivery.
	for i := range rulesPerRun {
		asset := "n-" + strconv.Itoa(i%10)
		if err := gw.api(ctx, tok, http.MethodPost, "/edge/notification", map[string]any{
			"name": fmt.Sprintf("rule-%d", i), "rule": "threshold", "channel": "webhook", "notification_type": "one shot",
			"rule_config":     map[string]string{"asset": asset, "datapoint": "sinusoid", "condition": ">", "value": strconv.Itoa(2 + i)},
			"delivery_config": map[string]string{"url": hook.url + "/never", "retries": "0"},
		}, nil); err != nil {
			return err
		}
	}
	// The probe: every change of its level sends a webhook.
	if err := gw.api(ctx, tok, http.MethodPost, "/edge/notification", map[string]any{
		"name": "probe", "rule": "threshold", "channel": "webhook", "notification_type": "toggled",
		"rule_config":     map[string]string{"asset": "probe", "datapoint": "level", "condition": ">", "value": "0.5"},
		"delivery_config": map[string]string{"url": hook.url, "retries": "0"},
	}, nil); err != nil {
		return err
	}
	rates := map[string]float64{}
	order := []string{"stopped", "rules"}
	if rep%2 == 1 {
		order = []string{"rules", "stopped"}
	}
	var latencies []time.Duration
	for k, which := range order {
		enable := which == "rules"
		path := "/edge/schedule/disable"
		if enable {
			path = "/edge/schedule/enable"
		}
		if err := gw.api(ctx, tok, http.MethodPut, path, map[string]string{"schedule_name": "notify"}, nil); err != nil {
			return err
		}
		if err := gw.awaitNotification(ctx, tok, enable); err != nil {
			return err
		}
		var probe *probeRun
		if enable {
			probe = startProbe(ctx, url)
		}
		res, _, _, err := s.ingest(ctx, gw, ingestLoad{URL: url, Senders: 4, Batch: 100, Assets: 10, Prefix: "n-", First: int64(k) << 32})
		if probe != nil {
			acks := probe.stop()
			latencies = matchArrivals(acks, hook.arrivals())
		}
		if err != nil {
			return fmt.Errorf("ingest 4x100, notification service %s: %w", which, err)
		}
		rates[which] = res.Rate
	}
	s.add("notify-stopped", rates["stopped"])
	s.add("notify-rules", rates["rules"])
	s.add("notify/ingest", rates["rules"]/rates["stopped"])
	if len(latencies) < 10 {
		s.notes = append(s.notes, fmt.Sprintf("notification latency: only %d webhooks matched their probe readings", len(latencies)))
		return nil
	}
	slices.Sort(latencies)
	s.add("notify-p95-ms", float64(latencies[len(latencies)*95/100])/float64(time.Millisecond))
	s.add("notify-p50-ms", float64(latencies[len(latencies)/2])/float64(time.Millisecond))
	return nil
}

// probeRun posts a probe reading every 100 ms, its level alternating
// between 0 and 1, and notes when each POST was answered (the reading
// committed).
type probeRun struct {
	cancel context.CancelFunc
	done   chan []time.Time
}

func startProbe(ctx context.Context, url string) *probeRun {
	ctx, cancel := context.WithCancel(ctx)
	p := &probeRun{cancel: cancel, done: make(chan []time.Time, 1)}
	go func() {
		var acks []time.Time
		client := newClient(1)
		for i := 0; ctx.Err() == nil; i++ {
			body := fmt.Sprintf(`[{"timestamp":%q,"asset":"probe","readings":{"level":%d}}]`,
				time.Now().UTC().Format("2006-01-02 15:04:05.000000"), (i+1)%2)
			status, _, err := post(ctx, client, url, []byte(body))
			if err == nil && status == http.StatusOK {
				acks = append(acks, time.Now())
			}
			sleep(ctx, 100*time.Millisecond)
		}
		p.done <- acks
	}()
	return p
}

func (p *probeRun) stop() []time.Time {
	p.cancel()
	return <-p.done
}

// matchArrivals pairs the k-th committed probe reading with the k-th
// webhook (each one toggles the notification, so each sends once, in
// order) and returns the delays; pairs that arrived before their commit
// was answered count as zero.
func matchArrivals(acks, arrivals []time.Time) []time.Duration {
	n := min(len(acks), len(arrivals))
	out := make([]time.Duration, 0, n)
	for k := range n {
		out = append(out, max(arrivals[k].Sub(acks[k]), 0))
	}
	return out
}
