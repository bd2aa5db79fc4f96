package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/app"
	"github.com/edged/edged/internal/simtest"
)

// diskFullSize is the size of the small file system the full-disk test
// fills: room for the database, its log, its reserve and the readings
// the test stores.
const diskFullSize = 64 << 20

// TestFullDisk runs a gateway on SQLite in a small tmpfs, stores readings,
// and fills the file system. Then API calls that write answer 503 (storage
// unavailable), never 500; ping stays red while storage cannot write, over
// several probes of the storage watcher; and the operator can still free
// room through the API: they log in, and DELETE /edge/asset/{code} and
// DELETE /edge/asset remove readings on the full disk (the disk reserve gives them room).
// Once they freed enough, the gateway writes again and ping is green
// without anything else deleted; once the file system has room again, the
// reserve is made again.
//
// It needs the right to mount a tmpfs (root); elsewhere it skips, unless
// EDGE_REQUIRE_SIMULATORS is set (make test sets it), when it fails.
func TestFullDisk(t *testing.T) {
	mnt := mountTmpfs(t, diskFullSize)
	dataDir := filepath.Join(mnt, "data")
	apiPort, southPort := freePort(t), freePort(t)
	api := runGateway(t, app.Config{DataDir: dataDir, Port: apiPort, AdminPassword: "Disk-Full-Admin-1"}, slog.LevelInfo)
	reserve := filepath.Join(dataDir, db.DefaultFile+"-reserve")
	if fi, err := os.Stat(reserve); err != nil || fi.Size() != db.ReserveSize {
		t.Fatalf("the disk reserve %s: %v, %v; want a file of %d bytes", reserve, fi, err, db.ReserveSize)
	}
	// Probe every second, so "stays red" spans several probes.
	if status, body := call(t, http.MethodPut, api+"/edge/category/SMNTR/sleep_interval", `{"value": "1"}`); status != http.StatusOK {
		t.Fatalf("set sleep_interval: %d %s", status, body)
	}
	status, body := call(t, http.MethodPost, api+"/edge/service", fmt.Sprintf(`{"name": "line", "type": "south",
		"plugin": "http_south", "enabled": true, "config": {"port": {"value": "%d"}}}`, southPort))
	if status != http.StatusOK {
		t.Fatalf("create the http_south service: %d %s", status, body)
	}
	eventually(t, "the http_south service listens", func() bool {
		return postBatch(t.Context(), southPort, "full/probe", 1, 0) == http.StatusOK
	})
	// Two assets of readings, some 16 MiB of database each.
	const batch, batches = 500, 180
	for _, asset := range []string{"full/a", "full/b"} {
		for i := range batches {
			if code := postBatch(t.Context(), southPort, asset, batch, i); code != http.StatusOK {
				t.Fatalf("ingest %s batch %d: %d", asset, i, code)
			}
		}
	}

	fill(t, filepath.Join(mnt, "filler"))
	bigDetails := `{"source": "ASTDP", "severity": "INFORMATION", "details": {"pad": "` + strings.Repeat("x", 64<<10) + `"}}`
	first := 0
	for i := 0; first == 0; i++ {
		if i == 1000 {
			t.Fatal("1000 audit entries of 64 KiB were stored on a full disk")
		}
		resp := do(t, http.MethodPost, api+"/edge/audit", bigDetails)
		switch resp.status {
		case http.StatusOK:
		case http.StatusServiceUnavailable:
			first = i + 1
			wantUnavailable(t, "createAuditEntry on a full disk", resp)
		default:
			t.Fatalf("createAuditEntry on a full disk = %d %s; want 200 until the disk is full, then 503", resp.status, resp.body)
		}
	}
	// Now every write but a deletion of readings is refused, small ones too.
	resp := do(t, http.MethodPost, api+"/edge/audit", `{"source": "ASTDP", "severity": "INFORMATION", "details": {}}`)
	wantUnavailable(t, "a small createAuditEntry on a full disk", resp)
	if code := postBatch(t.Context(), southPort, "full/c", 10, 0); code != http.StatusServiceUnavailable {
		t.Errorf("ingest on a full disk = %d, want 503", code)
	}
	eventually(t, "ping red on a full disk", func() bool { return ping(t, api) == "red" })
	// Red must hold across the watcher's probes (every second here).
	for until := time.Now().Add(3500 * time.Millisecond); time.Now().Before(until); {
		if h := ping(t, api); h != "red" {
			t.Fatalf("ping health = %q while the disk is full, want red", h)
		}
		time.Sleep(100 * time.Millisecond) // sampling a state that must not change, not waiting for one
	}

	// The operator logs in and frees room through the API.
	status, body = call(t, http.MethodPost, api+"/edge/login", `{"username": "admin", "password": "Disk-Full-Admin-1"}`)
	if status != http.StatusOK {
		t.Fatalf("login on a full disk = %d %s, want 200", status, body)
	}
	var login struct{ Token string }
	if err := json.Unmarshal(body, &login); err != nil || login.Token == "" {
		t.Fatalf("login answer %s: %v", body, err)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodDelete, api+"/edge/asset/full%2Fa", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", login.Token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	_ = res.Body.Close()
	status = res.StatusCode
	if status != http.StatusOK {
		t.Fatalf("purgeAssetReadings on a full disk = %d %s, want 200", status, body)
	}
	if n := purged(t, body); n != batch*batches {
		t.Errorf("purgeAssetReadings removed %d readings, want %d", n, batch*batches)
	}
	status, body = call(t, http.MethodDelete, api+"/edge/asset", "")
	if status != http.StatusOK {
		t.Fatalf("purgeAllReadings on a full disk = %d %s, want 200", status, body)
	}
	if n := purged(t, body); n < batch*batches {
		t.Errorf("purgeAllReadings removed %d readings, want at least %d", n, batch*batches)
	}
	// What they freed inside the database is room to write again.
	eventually(t, "ping green once readings were deleted", func() bool { return ping(t, api) == "green" })
	resp = do(t, http.MethodPost, api+"/edge/audit", `{"source": "ASTDP", "severity": "INFORMATION", "details": {"after": "deletion"}}`)
	if resp.status != http.StatusOK {
		t.Errorf("createAuditEntry after the deletions = %d %s, want 200", resp.status, resp.body)
	}
	if code := postBatch(t.Context(), southPort, "full/c", 10, 0); code != http.StatusOK {
		t.Errorf("ingest after the deletions = %d, want 200", code)
	}
	if _, err := os.Stat(reserve); err == nil {
		t.Errorf("the reserve %s is back although the file system has no room for it", reserve)
	}

	// Room on the file system again: the reserve is made again.
	if err := os.Remove(filepath.Join(mnt, "filler")); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the disk reserve made again", func() bool {
		fi, err := os.Stat(reserve)
		return err == nil && fi.Size() == db.ReserveSize
	})
	if h := ping(t, api); h != "green" {
		t.Errorf("ping health = %q with room on the disk, want green", h)
	}
	t.Logf("the disk was full after %d audit entries of 64 KiB", first)
}

// wantUnavailable fails t unless resp is 503 with Retry-After and a
// message saying storage is unavailable.
func wantUnavailable(t *testing.T, what string, resp answer) {
	t.Helper()
	var msg struct{ Message string }
	_ = json.Unmarshal(resp.body, &msg)
	if resp.status != http.StatusServiceUnavailable || resp.header.Get("Retry-After") == "" ||
		!strings.Contains(msg.Message, "storage is unavailable") {
		t.Errorf("%s = %d, Retry-After %q, %s; want 503, Retry-After and a message saying storage is unavailable",
			what, resp.status, resp.header.Get("Retry-After"), resp.body)
	}
}

// purged returns the count of a purge's answer.
func purged(t *testing.T, body []byte) int {
	t.Helper()
	var p struct{ Purged int }
	if err := json.Unmarshal(body, &p); err != nil {
		t.Fatalf("purge answer %s: %v", body, err)
	}
	return p.Purged
}

// mountTmpfs mounts a tmpfs of size bytes on a new directory and unmounts
// it when the test ends. Where mounting is not possible it skips t, or
// fails it when EDGE_REQUIRE_SIMULATORS is set.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	mnt := t.TempDir()
	out, err := exec.CommandContext(t.Context(), "mount", "-t", "tmpfs", "-o", "size="+strconv.Itoa(size)+",mode=0700", "tmpfs", mnt).CombinedOutput()
	if err != nil {
		const why = "a small tmpfs cannot be mounted here (needs root or CAP_SYS_ADMIN); the full-disk test needs one"
		if os.Getenv(simtest.RequireEnv) != "" {
			t.Fatalf("%s (%s is set, so this is a failure): mount: %v: %s", why, simtest.RequireEnv, err, out)
		}
		t.Skipf("%s: mount: %v: %s", why, err, out)
	}
	t.Cleanup(func() {
		// Lazily: the gateway's files may still be closing.
		if out, err := exec.Command("umount", "-l", mnt).CombinedOutput(); err != nil { //nolint:noctx // the test's context has ended
			t.Errorf("umount %s: %v: %s", mnt, err, out)
		}
	})
	return mnt
}

// fill writes path until the file system is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path) //nolint:gosec // the test's own mount
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	chunk := make([]byte, 1<<20)
	for {
		if _, err := f.Write(chunk); err != nil {
			if errors.Is(err, syscall.ENOSPC) {
				break
			}
			t.Fatal(err)
		}
	}
	// The last partial chunk may have left a few blocks; take them too.
	for _, n := range []int{64 << 10, 4 << 10, 512, 1} {
		for {
			if _, err := f.Write(chunk[:n]); err != nil {
				break
			}
		}
	}
}
