package dbtest

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster is a throwaway PostgreSQL server of one test, which the test may
// stop and start again (an outage, or a crash): initdb in a fresh
// directory, listening on a unix socket in that directory only, durable
// against a crash of the server but not of the machine. It is stopped and
// removed when the test ends.
type Cluster struct {
	bin  string // directory of initdb and pg_ctl
	root string // the cluster's directory: data, socket, log
	as   []string
	port int
}

// clusterPort is the port number in the socket's name; the socket lives in
// the cluster's own directory, so clusters never collide.
const clusterPort = 5432

// NewCluster creates and starts a throwaway cluster with a database named
// edged. It skips the test when PostgreSQL's server programs are not
// installed (PGBIN, or the newest /usr/lib/postgresql/*/bin), and fails it
// when the cluster cannot be created. As root, the server runs as the
// system user postgres (created if missing), as scripts/with-postgres.sh
// does: initdb refuses to run as root.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	bin := postgresBin()
	if bin == "" {
		t.Skip("PostgreSQL server programs (initdb, pg_ctl) are not installed; set PGBIN or install postgresql")
	}
	// Keep the path short: a unix socket path is limited to about 107 bytes.
	root, err := os.MkdirTemp("", "pgclu.")
	if err != nil {
		t.Fatalf("dbtest: cluster directory: %v", err)
	}
	c := &Cluster{bin: bin, root: root, port: clusterPort}
	t.Cleanup(func() {
		if out, err := c.stop("immediate"); err != nil {
			t.Errorf("dbtest: stop the cluster: %v\n%s", err, out)
		}
		_ = os.RemoveAll(root)
	})
	if os.Geteuid() == 0 {
		if err := ensurePostgresUser(t.Context()); err != nil {
			t.Fatalf("dbtest: %v", err)
		}
		if out, err := exec.CommandContext(t.Context(), "chown", "postgres:", root).CombinedOutput(); err != nil { //nolint:gosec // root is the test's own temporary directory
			t.Fatalf("dbtest: chown %s: %v: %s", root, err, out)
		}
		c.as = []string{"runuser", "-u", "postgres", "--"}
	}
	if out, err := c.run("initdb", "-D", c.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8",
		"--locale=C", "--no-sync"); err != nil {
		t.Fatalf("dbtest: initdb: %v\n%s", err, out)
	}
	c.Start(t)
	admin, err := sql.Open("postgres", c.dsn("postgres"))
	if err != nil {
		t.Fatalf("dbtest: %v", err)
	}
	defer func() { _ = admin.Close() }()
	ctx, cancel := context.WithTimeout(context.Background(), setupTimeout)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE edged"); err != nil {
		t.Fatalf("dbtest: create database: %v", err)
	}
	return c
}

// DSN is the lib/pq key=value DSN of the cluster's database edged.
func (c *Cluster) DSN() string { return c.dsn("edged") }

func (c *Cluster) dsn(dbname string) string {
	return fmt.Sprintf("host=%s port=%d user=postgres dbname=%s sslmode=disable", c.root, c.port, dbname)
}

func (c *Cluster) data() string { return filepath.Join(c.root, "data") }

// Start starts the server and waits until it accepts connections.
func (c *Cluster) Start(t testing.TB) {
	t.Helper()
	// A commit is acknowledged once its WAL reached the operating system
	// (synchronous_commit on): a server that crashes (Stop "immediate")
	// loses nothing it acknowledged. Nothing is forced to disk (fsync
	// off): only a crash of the machine would lose data.
	opts := fmt.Sprintf("-p %d -k %s -c listen_addresses='' -c fsync=off -c full_page_writes=off",
		c.port, c.root)
	if out, err := c.run("pg_ctl", "-D", c.data(), "-l", filepath.Join(c.root, "server.log"), "-w", "-t", "60",
		"-o", opts, "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(c.root, "server.log"))
		t.Fatalf("dbtest: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
}

// Stop stops the server the way mode says ("fast": sessions are ended and
// the server shuts down cleanly; "immediate": as if it crashed) and waits
// until it is gone.
func (c *Cluster) Stop(t testing.TB, mode string) {
	t.Helper()
	if out, err := c.stop(mode); err != nil {
		t.Fatalf("dbtest: pg_ctl stop: %v\n%s", err, out)
	}
}

func (c *Cluster) stop(mode string) ([]byte, error) {
	if !isFile(filepath.Join(c.data(), "postmaster.pid")) {
		return nil, nil // not running
	}
	return c.run("pg_ctl", "-D", c.data(), "-m", mode, "-w", "-t", "60", "stop")
}

// isFile reports whether path names an existing file.
func isFile(path string) bool {
	fi, err := os.Stat(path) //nolint:gosec // paths of the test's own cluster directory
	return err == nil && !fi.IsDir()
}

// run runs a PostgreSQL program as the cluster's owner, from a directory
// that owner can read.
func (c *Cluster) run(program string, args ...string) ([]byte, error) {
	argv := append(slices.Clone(c.as), filepath.Join(c.bin, program))
	argv = append(argv, args...)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...) //nolint:gosec // test helper running PostgreSQL's own programs
	cmd.Dir = "/"
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.Bytes(), err
}

// postgresBin returns the directory of PostgreSQL's server programs, or ""
// when they are not installed.
func postgresBin() string {
	dirs := []string{os.Getenv("PGBIN")}
	if dirs[0] == "" {
		found, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
		slices.SortFunc(found, func(a, b string) int { return majorOf(b) - majorOf(a) })
		dirs = found
	}
	for _, d := range dirs {
		if isExecutable(filepath.Join(d, "initdb")) && isExecutable(filepath.Join(d, "pg_ctl")) {
			return d
		}
	}
	return ""
}

// majorOf returns the major version in /usr/lib/postgresql/<major>/bin.
func majorOf(dir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(dir)))
	return n
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path) //nolint:gosec // PostgreSQL's program directories

	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// ensurePostgresUser creates the system user postgres when it is missing.
func ensurePostgresUser(ctx context.Context) error {
	if _, err := user.Lookup("postgres"); err == nil {
		return nil
	}
	out, err := exec.CommandContext(ctx, "useradd", "--system", "--user-group", "--no-create-home",
		"--shell", "/usr/sbin/nologin", "postgres").CombinedOutput()
	if err != nil && !strings.Contains(string(out), "already exists") {
		return fmt.Errorf("create the postgres system user: %w: %s", err, out)
	}
	return nil
}
