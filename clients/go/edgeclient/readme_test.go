package edgeclient_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// goExample is a code block of the README marked "go example".
var goExample = regexp.MustCompile("(?ms)^```go example\n(.*?)^```$")

// TestREADMEExamples builds every example of ../README.md, and the Go
// request samples of the docs page (scripts/sdkgen samples), in a module of
// its own outside the source tree, which requires this module through a
// replace directive as a user's module would, checks them with go vet, and
// runs the examples against a gateway: EDGE_URL (with EDGE_ADMIN_PASSWORD),
// or one built from the repository (EDGE_REPO_ROOT, by default three levels
// up) and started on a free port.
func TestREADMEExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the README's examples against a gateway; not in -short mode")
	}
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	examples := goExample.FindAllSubmatch(readme, -1)
	if len(examples) < 3 {
		t.Fatalf("README.md has %d go example blocks, want at least 3", len(examples))
	}
	module, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	consumer := t.TempDir()
	goMod := fmt.Sprintf("module example.com/consumer\n\ngo 1.24.0\n\nrequire github.com/edged/edged/clients/go/v2 v2.0.0\n\nreplace github.com/edged/edged/clients/go/v2 => %s\n", module)
	write(t, filepath.Join(consumer, "go.mod"), goMod)
	for i, m := range examples {
		write(t, filepath.Join(consumer, fmt.Sprintf("example%d", i+1), "main.go"), string(m[1]))
	}
	root := repoRoot(t)
	samples := t.TempDir()
	run(t, root, nil, "go", "run", "./scripts/sdkgen", "samples", "-o", filepath.Join(samples, "docs.yaml"), "-check", samples, "openapi.yaml")
	code, err := os.ReadFile(filepath.Join(samples, "go", "samples.go"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(consumer, "samples", "samples.go"), string(code))
	run(t, consumer, nil, "go", "mod", "tidy")
	run(t, consumer, nil, "go", "vet", "./...")
	run(t, consumer, nil, "go", "build", "-o", filepath.Join(consumer, "bin")+string(filepath.Separator), "./...")

	url, password := gatewayFor(t)
	for i := range examples {
		t.Run(fmt.Sprintf("example %d", i+1), func(t *testing.T) {
			out := run(t, consumer, []string{"EDGE_URL=" + url, "EDGE_ADMIN_PASSWORD=" + password},
				filepath.Join(consumer, "bin", fmt.Sprintf("example%d", i+1)))
			t.Logf("output:\n%s", out)
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// run runs a command in dir and fails the test unless it succeeds.
func run(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	}
	return out.String()
}

// repoRoot is the repository of the gateway: EDGE_REPO_ROOT, by default
// three levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root := os.Getenv("EDGE_REPO_ROOT")
	if root == "" {
		root = filepath.Join("..", "..", "..")
	}
	root, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// gatewayFor returns the gateway the examples run against and its admin
// password: EDGE_URL, or a gateway built from the repository and started
// for the test.
func gatewayFor(t *testing.T) (string, string) {
	t.Helper()
	if url := os.Getenv("EDGE_URL"); url != "" {
		return url, os.Getenv("EDGE_ADMIN_PASSWORD")
	}
	root := repoRoot(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "edged")
	build := exec.Command("go", "build", "-o", bin, "./cmd/edged")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the gateway in %s: %v\n%s", root, err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	_ = l.Close()
	const password = "Go-Sdk-Passw0rd!"
	ctx, cancel := context.WithCancel(context.Background())
	gw := exec.CommandContext(ctx, bin, "--data", filepath.Join(dir, "data"), "--port", fmt.Sprint(port))
	gw.Env = append(os.Environ(), "EDGE_ADMIN_PASSWORD="+password)
	var log bytes.Buffer
	gw.Stdout, gw.Stderr = &log, &log
	if err := gw.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = gw.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = gw.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			cancel()
			<-exited
		}
		cancel()
		if t.Failed() {
			t.Logf("gateway log:\n%s", log.String())
		}
	})
	url := fmt.Sprintf("http://127.0.0.1:%d", port)
	// Poll until the gateway answers: its start has no signal to wait for
	// from outside the process.
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-exited:
			t.Fatalf("the gateway exited:\n%s", log.String())
		default:
		}
		if conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", port), time.Second); err == nil {
			_ = conn.Close()
			return url, password
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gateway did not listen within 30 s:\n%s", log.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
