package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// clockTick is the unit of the CPU times in /proc/PID/stat (USER_HZ,
// 100 on every Linux the gateway runs on).
const clockTick = 10 * time.Millisecond

// procCPU returns the CPU time, user and system, process pid has used.
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name may hold spaces; the fields after it do not.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, errors.New("unexpected /proc stat format")
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, errors.New("unexpected /proc stat format")
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14 of the line
	stime, err2 := strconv.ParseInt(f[12], 10, 64) // field 15
	if err1 != nil || err2 != nil {
		return 0, errors.New("unexpected /proc stat format")
	}
	return time.Duration(utime+stime) * clockTick, nil
}

// procRSS returns the resident set size of process pid, in bytes.
func procRSS(pid int) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer func() { _ = f.Close() }()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, errors.New("no VmRSS in /proc status")
}

// rssPeak samples process pid's resident size every 100 ms until ctx ends
// and returns the largest.
func rssPeak(ctx context.Context, pid int) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		var peak int64
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		for {
			if rss, err := procRSS(pid); err == nil {
				peak = max(peak, rss)
			}
			select {
			case <-ctx.Done():
				out <- peak
				return
			case <-t.C:
			}
		}
	}()
	return out
}

// gateway is an edged process the benchmark started.
type gateway struct {
	cmd      *exec.Cmd
	url      string
	dir      string
	password string // the admin's
	done     chan error
}

// startGateway starts bin on a free port with its data in dir and storage
// dsn ("" for SQLite in dir), with extra environment, and waits until it
// answers ping.
func startGateway(ctx context.Context, bin, dir, dsn string, env []string) (*gateway, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	//nolint:gosec // the benchmark's own directory
	logFile, err := os.OpenFile(filepath.Join(dir, "edged.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	defer func() { _ = logFile.Close() }() // the child holds its own descriptor
	//nolint:gosec // bin is the gateway binary the benchmark was told to run
	cmd := exec.CommandContext(ctx, bin, "--data", dir, "--port", strconv.Itoa(port), "--db", dsn, "--log-level", "warn")
	password := "Pw-" + randomHex(16)
	cmd.Env = append(append(os.Environ(), "EDGE_ADMIN_PASSWORD="+password), env...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", bin, err)
	}
	g := &gateway{cmd: cmd, url: "http://127.0.0.1:" + strconv.Itoa(port), dir: dir, password: password, done: make(chan error, 1)}
	go func() { g.done <- cmd.Wait() }()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case err := <-g.done:
			return nil, fmt.Errorf("edged exited at start (see %s): %w", filepath.Join(dir, "edged.log"), err)
		default:
		}
		if status, err := get(ctx, http.DefaultClient, g.url+"/edge/ping"); err == nil && status == http.StatusOK {
			return g, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	g.stop()
	return nil, errors.New("edged did not answer ping within a minute")
}

// pid is the gateway's process id.
func (g *gateway) pid() int { return g.cmd.Process.Pid }

// stop ends the gateway with SIGTERM and waits for it (SIGKILL after 30 s).
func (g *gateway) stop() {
	_ = g.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-g.done:
		_ = err // a SIGTERM exit status says nothing the benchmark needs
	case <-time.After(30 * time.Second):
		_ = g.cmd.Process.Kill()
		<-g.done //nolint:errcheck // killed: the exit status says nothing
	}
}

// httpSouth creates an enabled http_south service named name and returns
// the URL readings are posted to, once its port accepts connections.
func (g *gateway) httpSouth(ctx context.Context, name string) (string, error) {
	port, err := freePort()
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]any{"name": name, "type": "south", "plugin": "http_south", "enabled": true,
		"config": map[string]any{"port": map[string]string{"value": strconv.Itoa(port)}}})
	status, msg, err := post(ctx, http.DefaultClient, g.url+"/edge/service", body)
	if err != nil || status != http.StatusOK {
		return "", failed("create service "+name, status, msg, err)
	}
	target := "http://127.0.0.1:" + strconv.Itoa(port) + "/sensor-reading"
	for range 100 {
		dialer := net.Dialer{Timeout: time.Second}
		if c, err := dialer.DialContext(ctx, "tcp", "127.0.0.1:"+strconv.Itoa(port)); err == nil {
			_ = c.Close()
			return target, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "", fmt.Errorf("service %s does not listen on port %d", name, port)
}

// pipedSouth creates the filters scale, expression and delta (over the
// load's sinusoid and seq datapoints) and an http_south service named name
// whose pipeline they form, and returns the URL readings are posted to.
func (g *gateway) pipedSouth(ctx context.Context, name string) (string, error) {
	filters := []struct {
		plugin string
		config map[string]string
	}{
		{"scale", map[string]string{"rules": `[{"datapoint":"sinusoid","factor":100,"offset":5}]`}},
		{"expression", map[string]string{"expressions": `[{"name":"double","expression":"sinusoid * 2"}]`}},
		{"delta", map[string]string{"tolerance": "0"}},
	}
	var names []string
	for _, f := range filters {
		fname := name + "-" + f.plugin
		body, _ := json.Marshal(map[string]any{"name": fname, "plugin": f.plugin, "filter_config": f.config})
		if status, msg, err := post(ctx, http.DefaultClient, g.url+"/edge/filter", body); err != nil || status != http.StatusOK {
			return "", failed("create filter "+fname, status, msg, err)
		}
		names = append(names, fname)
	}
	target, err := g.httpSouth(ctx, name)
	if err != nil {
		return "", err
	}
	body, _ := json.Marshal(map[string]any{"pipeline": names})
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, g.url+"/edge/filter/"+name+"/pipeline", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	msg, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", failed("set the pipeline of "+name, resp.StatusCode, string(msg), nil)
	}
	return target, nil
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

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// child runs this program with args and decodes the JSON object it prints
// into out.
func child(ctx context.Context, out any, args ...string) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	//nolint:gosec // this program itself
	cmd := exec.CommandContext(ctx, self, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("edged-load %s: %w: %s", args[0], err, stderr.String())
	}
	return json.Unmarshal(b, out)
}

// bareServer starts `edged-load bare` and returns its base URL
// (http://host:port) and a stop function.
func bareServer(ctx context.Context) (string, func(), error) {
	self, err := os.Executable()
	if err != nil {
		return "", nil, err
	}
	//nolint:gosec // this program itself
	cmd := exec.CommandContext(ctx, self, "bare")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop := func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
	}
	var addr struct {
		Addr string `json:"addr"`
	}
	if err := json.NewDecoder(stdout).Decode(&addr); err != nil {
		stop()
		return "", nil, fmt.Errorf("bare server: %w", err)
	}
	go func() { _, _ = io.Copy(io.Discard, stdout) }()
	return "http://" + addr.Addr, stop, nil
}

// withDatabase returns dsn naming database name instead of its own, for a
// lib/pq key=value DSN or a postgres:// URL.
func withDatabase(dsn, name string) (string, error) {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			return "", err
		}
		u.Path = "/" + name
		return u.String(), nil
	}
	re := regexp.MustCompile(`(^|\s)dbname=\S+`)
	if re.MatchString(dsn) {
		return re.ReplaceAllString(dsn, "${1}dbname="+name), nil
	}
	return dsn + " dbname=" + name, nil
}
