package conformance

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/clients/go/v2/edgeclient"
)

// backupWait bounds how long a test waits for a backup to end.
const backupWait = 2 * time.Minute

// waitBackup polls backup id at c until it is no longer RUNNING and
// returns it; it fails the test unless it is COMPLETED.
func waitBackup(t testing.TB, c *edgeclient.ClientWithResponses, id int64) edgeclient.Backup {
	t.Helper()
	var b edgeclient.Backup
	eventually(t, backupWait, "backup "+strconv.FormatInt(id, 10)+" ending", func() bool {
		resp, err := c.GetBackupWithResponse(t.Context(), id)
		must(t, err)
		wantStatus(t, "getBackup", resp.StatusCode(), resp.Body, http.StatusOK)
		b = *resp.JSON200
		return b.Status != edgeclient.RUNNING
	})
	if b.Status != edgeclient.COMPLETED {
		t.Fatalf("backup %d ended %s: %s", id, b.Status, valueOf(b.Reason))
	}
	return b
}

func valueOf(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// createBackup starts a backup at c and waits for it to complete. The
// task of the previous backup may still be ending after its record says
// COMPLETED (the backup schedule is exclusive): a 409 then is retried
// until it has ended.
func createBackup(t testing.TB, c *edgeclient.ClientWithResponses) edgeclient.Backup {
	t.Helper()
	var resp *edgeclient.CreateBackupResponse
	eventually(t, backupWait, "the backup schedule's previous task ending", func() bool {
		var err error
		resp, err = c.CreateBackupWithResponse(t.Context())
		must(t, err)
		return resp.StatusCode() != http.StatusConflict
	})
	wantStatus(t, "createBackup", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200.Id < 1 || resp.JSON200.Message == "" {
		t.Fatalf("createBackup answered %s", resp.Body)
	}
	return waitBackup(t, c, resp.JSON200.Id)
}

// backupEntries reads a downloaded backup: its manifest and the lines of
// each entry.
func backupEntries(t testing.TB, data []byte) (map[string]any, map[string][]string) {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the backup file is not gzip: %v", err)
	}
	tr := tar.NewReader(gz)
	var manifest map[string]any
	lines := map[string][]string{}
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("the backup file is not a tar archive: %v", err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "manifest.json" {
			if err := json.Unmarshal(body, &manifest); err != nil {
				t.Fatalf("manifest %s: %v", body, err)
			}
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(body))
		sc.Buffer(nil, 16<<20)
		lines[h.Name] = []string{}
		for sc.Scan() {
			lines[h.Name] = append(lines[h.Name], sc.Text())
		}
	}
	if manifest == nil {
		t.Fatal("the backup file has no manifest.json")
	}
	return manifest, lines
}

// setBackupItem sets an item of BACKUP through the admin token and puts
// its value back when the test ends.
func setBackupItem(t *testing.T, admin, item, value string) {
	t.Helper()
	orig := getItem(t, "BACKUP", item).Value
	t.Cleanup(func() { setItemAs(t, admin, "BACKUP", item, orig) })
	setItemAs(t, admin, "BACKUP", item, value)
}

// ingestUntil posts readings of asset to an http_south service on port
// until stop is closed, and returns once the first batch was accepted, so
// that what follows runs while readings arrive. The function it returns
// waits for the last post and says how many readings were accepted.
func ingestUntil(t testing.TB, host string, port int, asset string, stop <-chan struct{}) func() int {
	t.Helper()
	var wg sync.WaitGroup
	var accepted atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			status, _, err := postIngest(ctx, host, port, "sensor-reading", readingsBody(asset, 20, time.Now()))
			cancel()
			if err == nil && status == http.StatusOK {
				accepted.Add(20)
			}
		}
	}()
	eventually(t, 15*time.Second, "readings accepted while the test goes on", func() bool { return accepted.Load() > 0 })
	return func() int { wg.Wait(); return int(accepted.Load()) }
}

var backupDate = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$`)

// TestBackupLifecycle makes a backup while readings arrive and checks its
// record, the list, the file, the task and the audit trail, then deletes
// it; and the errors of each call.
func testBackupLifecycle(t *testing.T) {
	admin := adminToken(t)
	c := apiAs(t, admin)
	setBackupItem(t, admin, "includeReadings", "true")

	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	name, asset := unique("conf-backup"), unique("conf-backup")
	createSouth(t, api(t), southDef{name: name, plugin: "http_south", enabled: true, config: map[string]string{"port": strconv.Itoa(port)}})
	host := gatewayHost(t, baseURL)
	eventually(t, 15*time.Second, "the first readings accepted", func() bool {
		status, _, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(asset, 10, time.Now()))
		return err == nil && status == http.StatusOK
	})
	stop := make(chan struct{})
	accepted := ingestUntil(t, host, port, asset, stop)

	cr, err := c.CreateBackupWithResponse(t.Context())
	must(t, err)
	wantStatus(t, "createBackup", cr.StatusCode(), cr.Body, http.StatusOK)
	if cr.JSON200.Status != edgeclient.RUNNING && cr.JSON200.Status != edgeclient.COMPLETED {
		t.Errorf("createBackup answered status %s, want RUNNING", cr.JSON200.Status)
	}
	id := cr.JSON200.Id
	b := waitBackup(t, c, id)
	close(stop)
	if accepted() == 0 {
		t.Error("no readings were accepted while the backup ran")
	}
	t.Cleanup(func() { _, _ = c.DeleteBackupWithResponse(context.Background(), id) })

	t.Run("record", func(t *testing.T) {
		if b.Size <= 0 || !b.Readings || b.Date.IsZero() || time.Since(b.Date.Time) > time.Hour {
			t.Errorf("backup record %+v: want a size, readings true and the date it was made", b)
		}
		resp, err := c.GetBackupWithResponse(t.Context(), id)
		must(t, err)
		wantTimestamps(t, "getBackup", resp.Body, backupDate, "date")
	})
	t.Run("list", func(t *testing.T) {
		for _, tc := range []struct {
			status string
			want   bool
		}{{"", true}, {"COMPLETED", true}, {"completed", true}, {"FAILED", false}, {"RUNNING", false}} {
			p := edgeclient.ListBackupsParams{Limit: ptr(10000)}
			if tc.status != "" {
				p.Status = ptr(tc.status)
			}
			resp, err := c.ListBackupsWithResponse(t.Context(), &p)
			must(t, err)
			wantStatus(t, "listBackups", resp.StatusCode(), resp.Body, http.StatusOK)
			found := slices.ContainsFunc(resp.JSON200.Backups, func(x edgeclient.Backup) bool { return x.Id == id })
			if found != tc.want {
				t.Errorf("listBackups status=%q lists backup %d: %v, want %v", tc.status, id, found, tc.want)
			}
		}
		resp, err := c.ListBackupsWithResponse(t.Context(), &edgeclient.ListBackupsParams{Status: ptr("lost")})
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusBadRequest)
	})
	t.Run("statuses", func(t *testing.T) {
		resp, err := c.ListBackupStatusesWithResponse(t.Context())
		must(t, err)
		wantStatus(t, "listBackupStatuses", resp.StatusCode(), resp.Body, http.StatusOK)
		var names []string
		for _, s := range resp.JSON200.BackupStatus {
			names = append(names, string(s.Name))
		}
		if want := []string{"RUNNING", "COMPLETED", "FAILED", "INTERRUPTED"}; !slices.Equal(names, want) {
			t.Errorf("statuses %v, want %v", names, want)
		}
	})
	t.Run("download", func(t *testing.T) {
		resp, err := c.DownloadBackupWithResponse(t.Context(), id)
		must(t, err)
		wantStatus(t, "downloadBackup", resp.StatusCode(), resp.Body, http.StatusOK)
		if ct := resp.HTTPResponse.Header.Get("Content-Type"); ct != "application/gzip" {
			t.Errorf("download Content-Type %q, want application/gzip", ct)
		}
		if int64(len(resp.Body)) != b.Size {
			t.Errorf("downloaded %d bytes, the record says %d", len(resp.Body), b.Size)
		}
		manifest, lines := backupEntries(t, resp.Body)
		if manifest["readings"] != true || manifest["schemaVersion"] == nil || manifest["store"] == nil {
			t.Errorf("manifest %v", manifest)
		}
		var admins, mine int
		for _, l := range lines["tables/users.jsonl"] {
			var u map[string]any
			if json.Unmarshal([]byte(l), &u) == nil && u["username"] == "admin" {
				admins++
			}
		}
		for _, l := range lines["tables/readings.jsonl"] {
			var r map[string]any
			if json.Unmarshal([]byte(l), &r) == nil && r["asset_code"] == asset {
				mine++
			}
		}
		if admins != 1 || mine < 10 {
			t.Errorf("the backup holds %d admin users and %d readings of %s, want 1 and at least the 10 before it", admins, mine, asset)
		}
		for _, table := range []string{"categories", "schedules", "services", "installed_packages"} {
			if _, ok := lines["tables/"+table+".jsonl"]; !ok {
				t.Errorf("the backup has no table %s", table)
			}
		}
	})
	t.Run("task and audit", func(t *testing.T) {
		tasks := listTasks(t, c, edgeclient.ListTasksParams{Name: ptr("backup"), Limit: ptr(10000)})
		if len(tasks) == 0 {
			t.Error("no task of the backup schedule")
		}
		if !hasAudit(t, edgeclient.BKEXC, "id", float64(id)) {
			t.Errorf("no BKEXC audit entry for backup %d", id)
		}
	})
	t.Run("rights", func(t *testing.T) {
		strictCase(t)
		resp, err := apiAnonymous(t).DownloadBackupWithResponse(t.Context(), id)
		must(t, err)
		checkError(t, resp.StatusCode(), resp.Body, http.StatusUnauthorized)
		u, pw := newUser(t, admin, 2, "")
		user := apiAs(t, loginUser(t, u.UserName, pw).Token)
		lr, err := user.ListBackupsWithResponse(t.Context(), nil)
		must(t, err)
		checkError(t, lr.StatusCode(), lr.Body, http.StatusForbidden)
	})
	t.Run("delete", func(t *testing.T) {
		resp, err := c.DeleteBackupWithResponse(t.Context(), id)
		must(t, err)
		wantStatus(t, "deleteBackup", resp.StatusCode(), resp.Body, http.StatusOK)
		g, err := c.GetBackupWithResponse(t.Context(), id)
		must(t, err)
		checkError(t, g.StatusCode(), g.Body, http.StatusNotFound)
		d, err := c.DeleteBackupWithResponse(t.Context(), id)
		must(t, err)
		checkError(t, d.StatusCode(), d.Body, http.StatusNotFound)
		dl, err := c.DownloadBackupWithResponse(t.Context(), id)
		must(t, err)
		checkError(t, dl.StatusCode(), dl.Body, http.StatusNotFound)
		r, err := c.RestoreBackupWithResponse(t.Context(), id)
		must(t, err)
		checkError(t, r.StatusCode(), r.Body, http.StatusNotFound)
	})
	t.Run("invalid id", func(t *testing.T) {
		strictCase(t)
		resp := doRaw(t, rawRequest{method: http.MethodGet, path: "/edge/backup/abc", headers: map[string]string{"authorization": admin}})
		checkError(t, resp.status, resp.body, http.StatusBadRequest)
	})
}

// TestBackupRetention makes three backups with BACKUP.retainCount 2: each
// runs as a task of the backup schedule, whose process keeps only the
// newest two.
func testBackupRetention(t *testing.T) {
	admin := adminToken(t)
	c := apiAs(t, admin)
	setBackupItem(t, admin, "retainCount", "2")
	setBackupItem(t, admin, "includeReadings", "false")
	var ids []int64
	for range 3 {
		b := createBackup(t, c)
		ids = append(ids, b.Id)
		if b.Readings {
			t.Errorf("backup %d holds readings with includeReadings false", b.Id)
		}
	}
	t.Cleanup(func() {
		for _, id := range ids {
			_, _ = c.DeleteBackupWithResponse(context.Background(), id)
		}
	})
	resp, err := c.ListBackupsWithResponse(t.Context(), &edgeclient.ListBackupsParams{Status: ptr("COMPLETED"), Limit: ptr(10000)})
	must(t, err)
	wantStatus(t, "listBackups", resp.StatusCode(), resp.Body, http.StatusOK)
	var got []int64
	for _, b := range resp.JSON200.Backups {
		got = append(got, b.Id)
	}
	if want := []int64{ids[2], ids[1]}; !slices.Equal(got, want) {
		t.Errorf("complete backups after three with retainCount 2: %v, want %v (newest first)", got, want)
	}
}

// freshStore returns the database a gateway of the test's own runs on:
// "" (SQLite in its data directory) when the suite's gateway runs on
// SQLite, else a new, empty PostgreSQL database on the server of
// EDGE_CONFORMANCE_DB, made with PostgreSQL's createdb program and
// dropped when the test ends, so that the test runs on the suite's store
// kind.
func freshStore(t *testing.T) string {
	t.Helper()
	dsn := os.Getenv("EDGE_CONFORMANCE_DB")
	if dsn == "" || !ownGateway {
		return ""
	}
	conn := map[string]string{}
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		conn["host"], conn["port"], conn["user"] = u.Hostname(), u.Port(), u.User.Username()
		if q := u.Query().Get("host"); q != "" {
			conn["host"] = q
		}
	} else {
		for _, kv := range strings.Fields(dsn) {
			if k, v, ok := strings.Cut(kv, "="); ok {
				conn[k] = v
			}
		}
	}
	program := "createdb"
	if found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/createdb"); len(found) > 0 {
		slices.Sort(found)
		program = found[len(found)-1]
	}
	name := strings.ReplaceAll(unique("conf_restore"), "-", "_")
	args := []string{}
	for flag, key := range map[string]string{"-h": "host", "-p": "port", "-U": "user"} {
		if conn[key] != "" {
			args = append(args, flag, conn[key])
		}
	}
	cmd := exec.CommandContext(t.Context(), program, append(args, name)...) //nolint:gosec // PostgreSQL's own program
	cmd.Env = append(os.Environ(), "PGPASSWORD="+conn["password"])
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("a fresh PostgreSQL database for a gateway of the test's own cannot be made (%v: %s)", err, out)
	}
	t.Cleanup(func() {
		// After the gateways of the test stopped (cleanups run last first).
		drop := exec.Command(strings.Replace(program, "createdb", "dropdb", 1), append(args, "--if-exists", name)...) //nolint:gosec // as above
		drop.Env = cmd.Env
		if out, err := drop.CombinedOutput(); err != nil {
			t.Logf("drop database %s: %v: %s", name, err, out)
		}
	})
	conn["dbname"] = name
	parts := []string{}
	for k, v := range conn {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

// TestBackupRestore restores a backup on a gateway of the test's own whose
// configuration, users and readings changed after the backup was made
// while readings arrived: the gateway restarts on the backup's state
// (BKRST then BKRSC), the users and configuration are the backup's, and
// the readings are those the backup holds.
func testBackupRestore(t *testing.T) {
	dbURL := freshStore(t)
	gw, _, _ := ownGatewayOn(t, dbURL)
	// The restore ends every session: the client sends the newest admin
	// token, so clean-ups run after it too.
	admin := loginAt(t, gw.url, "admin", adminPass()).Token
	c, err := edgeclient.NewClientWithResponses(gw.url, edgeclient.WithHTTPClient(checkingDoer{t: t}),
		edgeclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
			req.Header.Set("authorization", admin)
			return nil
		}))
	must(t, err)
	setItem := func(key, item, value string) {
		t.Helper()
		resp, err := c.SetCategoryItemWithResponse(t.Context(), key, item, edgeclient.SetCategoryItemJSONRequestBody{Value: value})
		must(t, err)
		wantStatus(t, "setCategoryItem "+key+"."+item, resp.StatusCode(), resp.Body, http.StatusOK)
	}
	setItem("BACKUP", "includeReadings", "true")
	users := func() []string {
		t.Helper()
		resp, err := c.ListUsersWithResponse(t.Context(), nil)
		must(t, err)
		wantStatus(t, "listUsers", resp.StatusCode(), resp.Body, http.StatusOK)
		var names []string
		for _, u := range resp.JSON200.Users {
			names = append(names, u.UserName)
		}
		slices.Sort(names)
		return names
	}
	addUser := func(name string) {
		t.Helper()
		resp, err := c.CreateUserWithResponse(t.Context(), edgeclient.UserCreate{Username: name, Password: "Pw-" + unique("x"), RoleId: ptr(2)})
		must(t, err)
		wantStatus(t, "createUser", resp.StatusCode(), resp.Body, http.StatusOK)
	}
	description := func() string {
		t.Helper()
		resp, err := c.GetCategoryItemWithResponse(t.Context(), "service", "description")
		must(t, err)
		wantStatus(t, "getCategoryItem", resp.StatusCode(), resp.Body, http.StatusOK)
		return resp.JSON200.Value
	}

	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	asset := unique("conf-restore")
	createSouth(t, c, southDef{name: unique("conf-restore"), plugin: "http_south", enabled: true, config: map[string]string{"port": strconv.Itoa(port)}})
	host := gatewayHost(t, gw.url)
	eventually(t, 15*time.Second, "the first readings accepted", func() bool {
		status, _, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(asset, 10, time.Now()))
		return err == nil && status == http.StatusOK
	})
	addUser(unique("before"))
	setItem("service", "description", "before the backup")
	wantUsers := users()

	stop := make(chan struct{})
	accepted := ingestUntil(t, host, port, asset, stop)
	b := createBackup(t, c)
	close(stop)
	accepted()
	dl, err := c.DownloadBackupWithResponse(t.Context(), b.Id)
	must(t, err)
	wantStatus(t, "downloadBackup", dl.StatusCode(), dl.Body, http.StatusOK)
	manifest, lines := backupEntries(t, dl.Body)
	if want := map[bool]string{true: "sqlite", false: "postgres"}[dbURL == ""]; manifest["store"] != want {
		t.Errorf("the backup's store is %v, want %s: the test's gateways run on the suite's store kind", manifest["store"], want)
	}
	inBackup := 0
	for _, l := range lines["tables/readings.jsonl"] {
		var r map[string]any
		if json.Unmarshal([]byte(l), &r) == nil && r["asset_code"] == asset {
			inBackup++
		}
	}

	// Changes after the backup, which the restore undoes.
	addUser(unique("after"))
	setItem("service", "description", "after the backup")
	if status, body, err := postIngest(t.Context(), host, port, "sensor-reading", readingsBody(asset, 7, time.Now())); err != nil || status != http.StatusOK {
		t.Fatalf("ingest after the backup: %d %s %v", status, body, err)
	}
	ends, _ := sourceCount(gw.url, edgeclient.BKRSC)

	resp, err := c.RestoreBackupWithResponse(t.Context(), b.Id)
	must(t, err)
	wantStatus(t, "restoreBackup", resp.StatusCode(), resp.Body, http.StatusOK)
	if resp.JSON200.Id != b.Id || resp.JSON200.Message == "" {
		t.Errorf("restoreBackup answered %s", resp.Body)
	}
	eventually(t, 60*time.Second, "the restore (a BKRSC entry after the restart)", func() bool {
		n, ok := sourceCount(gw.url, edgeclient.BKRSC)
		return ok && n == ends+1
	})
	admin = loginAt(t, gw.url, "admin", adminPass()).Token

	t.Run("audit", func(t *testing.T) {
		list := listAuditAt(t, c, edgeclient.BKRSC)
		if len(list) == 0 || list[0].Severity != edgeclient.SUCCESS {
			t.Errorf("BKRSC entries %+v, want the newest SUCCESS", list)
		}
		if len(listAuditAt(t, c, edgeclient.BKRST)) == 0 {
			t.Error("no BKRST entry")
		}
	})
	t.Run("users", func(t *testing.T) {
		if got := users(); !slices.Equal(got, wantUsers) {
			t.Errorf("users after the restore %v, want the backup's %v", got, wantUsers)
		}
	})
	t.Run("configuration", func(t *testing.T) {
		if got := description(); got != "before the backup" {
			t.Errorf("service.description after the restore %q, want the backup's", got)
		}
	})
	t.Run("readings", func(t *testing.T) {
		counts, _ := assetCounts(t, c)
		if counts[asset] != inBackup {
			t.Errorf("%s holds %d readings after the restore, want the backup's %d", asset, counts[asset], inBackup)
		}
	})

	// The same file uploaded to a fresh gateway and restored there gives
	// it the first gateway's users, configuration and readings.
	t.Run("onto a fresh gateway", func(t *testing.T) {
		fresh, _, _ := ownGatewayOn(t, freshStore(t))
		token := loginAt(t, fresh.url, "admin", adminPass()).Token
		f, err := edgeclient.NewClientWithResponses(fresh.url, edgeclient.WithHTTPClient(checkingDoer{t: t}),
			edgeclient.WithRequestEditorFn(func(_ context.Context, req *http.Request) error {
				req.Header.Set("authorization", token)
				return nil
			}))
		must(t, err)
		up, err := f.UploadBackupWithBodyWithResponse(t.Context(), "application/octet-stream", bytes.NewReader(dl.Body))
		must(t, err)
		wantStatus(t, "uploadBackup", up.StatusCode(), up.Body, http.StatusOK)
		if up.JSON200.Status != edgeclient.COMPLETED || up.JSON200.Size != int64(len(dl.Body)) || !up.JSON200.Readings {
			t.Errorf("uploadBackup answered %s", up.Body)
		}
		ends, _ := sourceCount(fresh.url, edgeclient.BKRSC)
		r, err := f.RestoreBackupWithResponse(t.Context(), up.JSON200.Id)
		must(t, err)
		wantStatus(t, "restoreBackup", r.StatusCode(), r.Body, http.StatusOK)
		eventually(t, 60*time.Second, "the restore on the fresh gateway", func() bool {
			n, ok := sourceCount(fresh.url, edgeclient.BKRSC)
			return ok && n == ends+1
		})
		token = loginAt(t, fresh.url, "admin", adminPass()).Token
		c = f // users() and description() read the fresh gateway now
		if got := users(); !slices.Equal(got, wantUsers) {
			t.Errorf("users of the fresh gateway %v, want the backup's %v", got, wantUsers)
		}
		if got := description(); got != "before the backup" {
			t.Errorf("service.description of the fresh gateway %q, want the backup's", got)
		}
		counts, _ := assetCounts(t, f)
		if counts[asset] != inBackup {
			t.Errorf("the fresh gateway holds %d readings of %s, want the backup's %d", counts[asset], asset, inBackup)
		}
	})
}

// rewriteManifest returns the backup file data with its manifest changed
// by change.
func rewriteManifest(t testing.TB, data []byte, change func(m map[string]any)) []byte {
	t.Helper()
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var out bytes.Buffer
	zw := gzip.NewWriter(&out)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "manifest.json" {
			var m map[string]any
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			change(m)
			body, _ = json.Marshal(m)
			h.Size = int64(len(body))
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(body); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestBackupRestoreRefused uploads backups this gateway must not restore
// (a newer schema version, the other store kind) and files that are no
// backup: the restore is 400 naming the reason, and nothing restarts.
func testBackupRestoreRefused(t *testing.T) {
	admin := adminToken(t)
	c := apiAs(t, admin)
	b := createBackup(t, c)
	t.Cleanup(func() { _, _ = c.DeleteBackupWithResponse(context.Background(), b.Id) })
	dl, err := c.DownloadBackupWithResponse(t.Context(), b.Id)
	must(t, err)
	wantStatus(t, "downloadBackup", dl.StatusCode(), dl.Body, http.StatusOK)
	starts := auditCount(t, edgeclient.START)

	for _, tc := range []struct {
		name, want string
		change     func(m map[string]any)
	}{
		{name: "newer schema", want: "newer than this gateway's", change: func(m map[string]any) {
			m["schemaVersion"] = m["schemaVersion"].(float64) + 1
		}},
		{name: "other store", want: "store", change: func(m map[string]any) {
			m["store"] = map[string]string{"sqlite": "postgres", "postgres": "sqlite"}[m["store"].(string)]
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up, err := c.UploadBackupWithBodyWithResponse(t.Context(), "application/octet-stream", bytes.NewReader(rewriteManifest(t, dl.Body, tc.change)))
			must(t, err)
			wantStatus(t, "uploadBackup", up.StatusCode(), up.Body, http.StatusOK)
			t.Cleanup(func() { _, _ = c.DeleteBackupWithResponse(context.Background(), up.JSON200.Id) })
			r, err := c.RestoreBackupWithResponse(t.Context(), up.JSON200.Id)
			must(t, err)
			if msg := checkError(t, r.StatusCode(), r.Body, http.StatusBadRequest); !strings.Contains(msg, tc.want) {
				t.Errorf("restore refused with %q, want it to name %q", msg, tc.want)
			}
		})
	}
	t.Run("not a backup", func(t *testing.T) {
		for _, body := range [][]byte{[]byte("not a backup"), {}} {
			up, err := c.UploadBackupWithBodyWithResponse(t.Context(), "application/octet-stream", bytes.NewReader(body))
			must(t, err)
			checkError(t, up.StatusCode(), up.Body, http.StatusBadRequest)
		}
	})
	t.Run("no restart", func(t *testing.T) {
		if n := auditCount(t, edgeclient.START); n != starts {
			t.Errorf("START entries %d → %d: a refused restore restarted the gateway", starts, n)
		}
	})
}
