package conformance

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"
)

// pluginPythonEnv names the Python that runs Python plugins (the
// launcher of a Python plugin package reads it).
const pluginPythonEnv = "EDGED_PLUGIN_PYTHON"

// pluginPython returns the plugin SDK's Python, if make plugin-tools has
// installed it.
func pluginPython() (string, bool) {
	venv, err := filepath.Abs(filepath.Join("..", "pluginsdk", "python", ".venv"))
	if err != nil {
		return "", false
	}
	if _, err := os.Stat(filepath.Join(venv, ".installed")); err != nil {
		return "", false
	}
	return filepath.Join(venv, "bin", "python"), true
}

// gatewayBinary is set once the suite has built cmd/edged.
var gatewayBinary string

func buildGateway(dir string) (string, error) {
	bin := filepath.Join(dir, "edged")
	cmd := exec.Command("go", "build", "-o", bin, "../cmd/edged")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build edged: %w\n%s", err, out)
	}
	gatewayBinary = bin
	return bin, nil
}

// gateway is an edged process the suite started.
type gateway struct {
	url     string
	cmd     *exec.Cmd
	logPath string
	done    chan error
}

// startGateway runs bin on dataDir and a free port and waits until it
// answers ping.
func startGateway(bin, dataDir, dbURL string) (*gateway, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, err
	}
	logPath := filepath.Join(dataDir, "edged.log")
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	// The child process holds its own descriptor; ours is not needed.
	defer func() { _ = logFile.Close() }()
	cmd := exec.Command(bin, "--data", dataDir, "--port", strconv.Itoa(port), "--db", dbURL, "--log-level", "debug")
	cmd.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD="+adminPassword,
		"EDGE_DELETE_TASK_READINGS="+strconv.Itoa(deleteTaskReadings))
	if py, ok := pluginPython(); ok && os.Getenv(pluginPythonEnv) == "" {
		// Python plugins installed from packages run on the plugin
		// SDK's Python (make plugin-tools), as an operator would set it.
		cmd.Env = append(cmd.Env, pluginPythonEnv+"="+py)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start edged: %w", err)
	}
	gw := &gateway{url: "http://127.0.0.1:" + strconv.Itoa(port), cmd: cmd, logPath: logPath, done: make(chan error, 1)}
	go func() { gw.done <- cmd.Wait() }()
	if err := gw.waitReady(30 * time.Second); err != nil {
		_ = cmd.Process.Kill()
		gw.dumpLog()
		return nil, err
	}
	return gw, nil
}

func (g *gateway) waitReady(limit time.Duration) error {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		select {
		case err := <-g.done:
			return fmt.Errorf("edged exited before it was ready: %w", err)
		default:
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.url+"/edge/ping", nil)
		resp, err := http.DefaultClient.Do(req)
		cancel()
		if err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("edged did not answer ping within " + limit.String())
}

// stop ends the gateway with SIGTERM, as an operator would, and waits for a
// clean exit.
func (g *gateway) stop() error {
	if err := g.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case err := <-g.done:
		return err
	case <-time.After(20 * time.Second):
		_ = g.cmd.Process.Kill()
		return errors.New("edged did not stop within 20s of SIGTERM")
	}
}

func (g *gateway) dumpLog() {
	b, err := os.ReadFile(g.logPath)
	if err != nil {
		return
	}
	if len(b) > 20000 {
		b = b[len(b)-20000:]
	}
	fmt.Fprintf(os.Stderr, "--- edged log (%s) ---\n%s\n--- end of log ---\n", g.logPath, b)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
