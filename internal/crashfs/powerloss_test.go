package crashfs

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hanwen/go-fuse/v2/fuse"
	_ "modernc.org/sqlite" // the integrity check opens the database itself
)

// TestPowerLoss runs the gateway with its data directory on a crashfs
// mount, ingests through http_south with every acknowledgement counted and
// forwards north through http_north, and cuts the power at random moments:
// the gateway is killed and everything not synced is dropped. After each
// cut the gateway starts again on what remains. With durability power,
// every acknowledged reading must be there and the database must open
// cleanly, and north must deliver every stored reading (its position never
// moved past what was delivered); with durability process the test reports
// how many acknowledged readings were lost, the reason the setting exists.
//
// It needs /dev/fuse and the right to mount (root, or fusermount3); it
// skips only where /dev/fuse is missing. EDGE_POWERLOSS_SEED replays the
// cut moments of a run, EDGE_POWERLOSS_CUTS changes the number of cuts with
// durability power (20).
func TestPowerLoss(t *testing.T) {
	if _, err := os.Stat("/dev/fuse"); err != nil {
		t.Skip("/dev/fuse is missing, so no FUSE file system can be mounted here; the power-loss test needs it (modprobe fuse, or a container with /dev/fuse)")
	}
	if testing.Short() {
		t.Skip("the power-loss test takes a minute or two; not with -short")
	}
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("EDGE_POWERLOSS_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("EDGE_POWERLOSS_SEED: %v", err)
		}
	}
	cuts := 20
	if s := os.Getenv("EDGE_POWERLOSS_CUTS"); s != "" {
		var err error
		if cuts, err = strconv.Atoi(s); err != nil || cuts < 1 {
			t.Fatalf("EDGE_POWERLOSS_CUTS = %q", s)
		}
	}
	t.Logf("cut moments from seed %d (EDGE_POWERLOSS_SEED=%d replays them)", seed, seed)
	bin := buildGateway(t)

	t.Run("power", func(t *testing.T) {
		lost := runCuts(t, bin, "power", cuts, rand.New(rand.NewPCG(seed, 1)))
		if lost > 0 {
			t.Errorf("%d acknowledged readings lost with durability power", lost)
		}
	})
	t.Run("process", func(t *testing.T) {
		lost := runCuts(t, bin, "process", 5, rand.New(rand.NewPCG(seed, 2)))
		t.Logf("durability process: %d acknowledged readings lost over 5 cuts (power loses none)", lost)
	})
}

// buildGateway builds cmd/edged into the test's directory.
func buildGateway(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "edged")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "../../cmd/edged")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build edged: %v\n%s", err, out)
	}
	return bin
}

// machine is the gateway's disk and what the test knows of it.
type machine struct {
	t       *testing.T
	bin     string
	level   string
	fsys    *FS
	mnt     string
	server  *fuse.Server
	logPath string
	apiPort int
	inPort  int // http_south's
	north   *receiver
	acked   map[string][]int64 // asset → acknowledged seq numbers
	lost    map[string]bool    // "asset/seq" of acknowledged readings found missing
}

// runCuts cuts the power cuts times and returns how many acknowledged
// readings were missing after the restarts.
func runCuts(t *testing.T, bin, level string, cuts int, rng *rand.Rand) int {
	dir := t.TempDir()
	m := &machine{t: t, bin: bin, level: level, fsys: New(), mnt: filepath.Join(dir, "mnt"),
		logPath: filepath.Join(dir, "edged.log"), north: newReceiver(t), acked: map[string][]int64{}, lost: map[string]bool{}}
	if err := os.Mkdir(m.mnt, 0o700); err != nil {
		t.Fatal(err)
	}
	m.mount()
	t.Cleanup(func() {
		if m.server != nil {
			_ = m.server.Unmount()
		}
	})
	if level == "process" {
		// As an installer would, make the data directory durable first:
		// with process the gateway does not sync it, and losing the whole
		// directory would hide what the level loses commit by commit.
		if err := os.Mkdir(filepath.Join(m.mnt, "data"), 0o700); err != nil {
			t.Fatal(err)
		}
		syncPath(t, m.mnt)
	}
	var err error
	if m.apiPort, err = freePort(); err != nil {
		t.Fatal(err)
	}
	if m.inPort, err = freePort(); err != nil {
		t.Fatal(err)
	}

	for cut := range cuts {
		gw := m.start()
		m.ensureServices()
		m.checkAcked()
		// Ingest, and cut the power at a random moment while it runs.
		ctx, stop := context.WithCancel(t.Context())
		var wg sync.WaitGroup
		var mu sync.Mutex
		for s := range 2 {
			asset := fmt.Sprintf("cut%02d-s%d", cut, s)
			wg.Go(func() {
				for seq := int64(0); ctx.Err() == nil; seq += 10 {
					if m.post(ctx, asset, seq, 10) {
						mu.Lock()
						for k := range int64(10) {
							m.acked[asset] = append(m.acked[asset], seq+k)
						}
						mu.Unlock()
					}
				}
			})
		}
		time.Sleep(time.Duration(100+rng.IntN(1400)) * time.Millisecond) // the moment of the cut, not a synchronisation
		gw.kill()
		stop()
		wg.Wait()
		m.cut()
	}
	// After the last cut: the database opens cleanly and passes SQLite's
	// own check, every acknowledged reading is there, and north delivers
	// every stored reading.
	m.checkIntegrity()
	gw := m.start()
	m.ensureServices()
	m.checkAcked()
	m.waitNorth()
	gw.stop(t)
	total := 0
	for _, acked := range m.acked {
		total += len(acked)
	}
	t.Logf("durability %s: %d cuts, %d readings acknowledged, %d of them lost, %d fsyncs served", level, cuts, total, len(m.lost), m.fsys.Syncs())
	return len(m.lost)
}

func (m *machine) mount() {
	m.t.Helper()
	srv, err := m.fsys.Mount(m.mnt)
	if err != nil {
		m.t.Fatalf("mount crashfs at %s (needs root or fusermount3): %v", m.mnt, err)
	}
	m.server = srv
}

// cut drops what was not synced: the mount goes (with the kernel's caches
// of it), the file system forgets, and it is mounted again.
func (m *machine) cut() {
	m.t.Helper()
	if err := m.server.Unmount(); err != nil {
		m.t.Fatalf("unmount: %v", err)
	}
	m.server = nil
	m.fsys.Cut()
	m.mount()
}

// gateway is a running edged.
type gateway struct {
	cmd  *exec.Cmd
	done chan error
}

// start starts the gateway on the mount and waits until it answers.
func (m *machine) start() *gateway {
	m.t.Helper()
	logFile, err := os.OpenFile(m.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(m.bin, "--data", filepath.Join(m.mnt, "data"), "--port", strconv.Itoa(m.apiPort),
		"--durability", m.level, "--log-level", "warn")
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD=Power-loss-1")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		m.t.Fatal(err)
	}
	gw := &gateway{cmd: cmd, done: make(chan error, 1)}
	go func() { gw.done <- cmd.Wait() }()
	m.t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-gw.done //nolint:errcheck // killed: its status says nothing
		gw.done <- nil
	})
	for !m.ready(m.apiPort, "/edge/ping") {
		select {
		case err := <-gw.done:
			m.dumpLog()
			m.t.Fatalf("edged exited at start after a cut: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return gw
}

// ready reports whether port answers GET path with 200.
func (m *machine) ready(port int, path string) bool {
	resp, err := http.Get("http://127.0.0.1:" + strconv.Itoa(port) + path) //nolint:noctx // a probe
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

func (g *gateway) kill() {
	_ = g.cmd.Process.Signal(syscall.SIGKILL)
	err := <-g.done
	g.done <- err
}

func (g *gateway) stop(t *testing.T) {
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	err := <-g.done
	g.done <- err
	if err != nil {
		t.Errorf("edged stopped with %v", err)
	}
}

func (m *machine) dumpLog() {
	b, _ := os.ReadFile(m.logPath)
	m.t.Logf("edged log:\n%s", b)
}

// api sends a request to the gateway's API and decodes a 200 answer.
func (m *machine) api(method, path string, body any, out any) {
	m.t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(m.t.Context(), method, "http://127.0.0.1:"+strconv.Itoa(m.apiPort)+path, r)
	if err != nil {
		m.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		m.t.Fatalf("%s %s: %d %s", method, path, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			m.t.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

// ensureServices creates the http_south service senders post to and an
// http_north service forwarding to the receiver, unless they exist: with
// durability process a cut may take the whole database (its file's name
// is never synced), and the gateway then starts afresh.
func (m *machine) ensureServices() {
	m.t.Helper()
	var list struct {
		Services []struct {
			Name string `json:"name"`
		} `json:"services"`
	}
	m.api(http.MethodGet, "/edge/service", nil, &list)
	for _, s := range list.Services {
		if s.Name == "in" {
			return
		}
	}
	if m.level == "power" && len(m.acked) > 0 {
		m.t.Errorf("the services created before a cut are gone with durability power")
	}
	m.api(http.MethodPost, "/edge/service", map[string]any{"name": "in", "type": "south", "plugin": "http_south", "enabled": true,
		"config": map[string]any{"port": map[string]string{"value": strconv.Itoa(m.inPort)}}}, nil)
	m.api(http.MethodPost, "/edge/service", map[string]any{"name": "out", "type": "north", "plugin": "http_north", "enabled": true,
		"config": map[string]any{"url": map[string]string{"value": m.north.url}}}, nil)
}

// post sends readings seq … seq+n-1 of asset and reports whether they
// were acknowledged.
func (m *machine) post(ctx context.Context, asset string, seq, n int64) bool {
	var b bytes.Buffer
	b.WriteByte('[')
	for k := range n {
		if k > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"timestamp":"2024-05-01 10:00:00.%06d","asset":%q,"readings":{"seq":%d}}`, (seq+k)%1_000_000, asset, seq+k)
	}
	b.WriteByte(']')
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:"+strconv.Itoa(m.inPort)+"/sensor-reading", &b)
	if err != nil {
		return false
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		if ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond) // the service is not listening yet after a start
		}
		return false
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// stored returns the seq numbers of asset's readings in storage: none when
// storage has none of them (the asset is unknown, 404).
func (m *machine) stored(asset string) []int64 {
	var rs []struct {
		Reading struct {
			Seq int64 `json:"seq"`
		} `json:"reading"`
	}
	if !m.hasAsset(asset) {
		return nil
	}
	m.api(http.MethodGet, "/edge/asset/"+asset+"?limit=10000", nil, &rs)
	out := make([]int64, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.Reading.Seq)
	}
	return out
}

// hasAsset reports whether the asset list names asset: every read of an
// asset storage holds no reading of is 404.
func (m *machine) hasAsset(asset string) bool {
	var assets []struct {
		AssetCode string `json:"assetCode"`
	}
	m.api(http.MethodGet, "/edge/asset", nil, &assets)
	for _, a := range assets {
		if a.AssetCode == asset {
			return true
		}
	}
	return false
}

// checkAcked records every acknowledged reading storage lacks.
func (m *machine) checkAcked() {
	for asset, acked := range m.acked {
		have := m.stored(asset)
		slices.Sort(have)
		for _, seq := range acked {
			if _, ok := slices.BinarySearch(have, seq); !ok {
				m.lost[fmt.Sprintf("%s/%d", asset, seq)] = true
			}
		}
	}
}

// waitNorth waits until the receiver has got every reading in storage.
func (m *machine) waitNorth() {
	m.t.Helper()
	var assets []struct {
		AssetCode string `json:"assetCode"`
	}
	m.api(http.MethodGet, "/edge/asset", nil, &assets)
	deadline := time.Now().Add(2 * time.Minute)
	for _, a := range assets {
		for _, seq := range m.stored(a.AssetCode) {
			for !m.north.has(a.AssetCode, seq) {
				if time.Now().After(deadline) {
					m.dumpLog()
					m.t.Fatalf("north never delivered reading %d of %s, which is stored: its position moved past what was delivered", seq, a.AssetCode)
				}
				m.north.wait(time.Second)
			}
		}
	}
}

// checkIntegrity opens the database on the mount as it is after a cut and
// runs SQLite's integrity check. With durability process the database may
// be gone, which the lost readings already count.
func (m *machine) checkIntegrity() {
	m.t.Helper()
	path := filepath.Join(m.mnt, "data", "edged.db")
	if _, err := os.Stat(path); err != nil && m.level == "process" {
		m.t.Logf("durability process: the last cut took the database file (%v)", err)
		return
	}
	d, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		m.t.Fatal(err)
	}
	defer func() { _ = d.Close() }()
	var result string
	if err := d.QueryRowContext(m.t.Context(), "PRAGMA integrity_check").Scan(&result); err != nil || result != "ok" {
		m.t.Errorf("integrity check after the last cut: %q, %v", result, err)
	}
}

// receiver is the north destination: an HTTP server answering like
// http_south and recording what it got.
type receiver struct {
	url string

	mu     sync.Mutex
	got    map[string]map[int64]bool
	signal chan struct{}
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{got: map[string]map[int64]bool{}, signal: make(chan struct{}, 1)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var rs []struct {
			Asset    string `json:"asset"`
			Readings struct {
				Seq int64 `json:"seq"`
			} `json:"readings"`
		}
		if err := json.NewDecoder(req.Body).Decode(&rs); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.mu.Lock()
		for _, x := range rs {
			if r.got[x.Asset] == nil {
				r.got[x.Asset] = map[int64]bool{}
			}
			r.got[x.Asset][x.Readings.Seq] = true
		}
		r.mu.Unlock()
		select {
		case r.signal <- struct{}{}:
		default:
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"message":"%d readings stored","readings":%d}`, len(rs), len(rs))
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/sensor-reading"
	return r
}

func (r *receiver) has(asset string, seq int64) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.got[asset][seq]
}

// wait returns after the next delivery, or after d.
func (r *receiver) wait(d time.Duration) {
	select {
	case <-r.signal:
	case <-time.After(d):
	}
}

// freePort returns a loopback port that was free a moment ago.
func freePort() (int, error) {
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
