package north

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/edged/edged/db"
	"github.com/edged/edged/db/dbtest"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/ingest"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/system"
)

// destination is what the fake north plugin delivers to: every reading it
// received, in order, and the script of its next failure.
type destination struct {
	mu       sync.Mutex
	got      []int // the "i" value of each reading received, duplicates included
	skip     int   // Sends that succeed before the scripted failure
	take     int   // on the failure: readings the destination receives first
	report   int   // … and how many of them Send reports accepted
	failing  bool  // a failure is scripted
	sends    chan int
	failures int
	// reject, when set, refuses for good the readings whose "i" it
	// returns true for.
	reject func(i int) bool
	// env is the environment of the last instance created.
	env plugin.NorthEnv
}

func newDestination() *destination { return &destination{sends: make(chan int, 100)} }

// failNext makes the next Send deliver take readings, report report of
// them and fail.
func (d *destination) failNext(take, report int) { d.failAfter(0, take, report) }

// failAfter makes the Send after skip successful ones fail like failNext.
func (d *destination) failAfter(skip, take, report int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failing, d.skip, d.take, d.report = true, skip, take, report
}

func (d *destination) received() []int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return slices.Clone(d.got)
}

// fakeNorth is a north plugin instance sending to a destination.
type fakeNorth struct{ d *destination }

func (f *fakeNorth) Send(_ context.Context, rs []plugin.Reading) (int, error) {
	f.d.mu.Lock()
	defer func() {
		f.d.mu.Unlock()
		f.d.sends <- len(rs)
	}()
	fail := f.d.failing && f.d.skip == 0
	if f.d.failing && f.d.skip > 0 {
		f.d.skip--
	}
	n, report := len(rs), len(rs)
	if fail {
		n, report = min(f.d.take, len(rs)), min(f.d.report, len(rs))
		f.d.failing = false
		f.d.failures++
	}
	for k, r := range rs[:n] {
		var v struct{ I int }
		if err := json.Unmarshal(r.Values, &v); err != nil {
			return 0, err
		}
		if f.d.reject != nil && f.d.reject(v.I) {
			return k, &plugin.RejectedError{Count: 1, Reason: fmt.Sprintf("answered 400: reading %d is invalid", v.I)}
		}
		f.d.got = append(f.d.got, v.I)
	}
	if fail {
		return report, errors.New("destination went away")
	}
	return n, nil
}

func (f *fakeNorth) Reconfigure(plugin.Config) error { return nil }

func fakeDefinition(d *destination) plugin.Definition {
	return plugin.Definition{
		Name: "fake_north", Version: "3.1.0", Kind: plugin.KindNorth, Description: "a test north plugin",
		Items: map[string]configmgr.Item{
			"url": {Description: "where to", Type: configmgr.TypeString, Default: "there"},
		},
		NewNorth: func(env plugin.NorthEnv, _ plugin.Config) (plugin.North, error) {
			d.mu.Lock()
			d.env = env
			d.mu.Unlock()
			return &fakeNorth{d: d}, nil
		},
	}
}

func southDefinition() plugin.Definition {
	return plugin.Definition{Name: "fake_south", Version: "1", Kind: plugin.KindSouth, Description: "south",
		New: func(plugin.Env, plugin.Config) (plugin.South, error) { return nil, errors.New("unused") }}
}

// schedules creates schedules straight in storage, as the scheduler would.
type schedules struct {
	d        *db.DB
	notified int
}

func (s *schedules) Create(ctx context.Context, sc db.Schedule) (db.Schedule, error) {
	sc.ID = uuid.NewString()
	out, err := s.d.CreateSchedule(ctx, sc)
	if errors.Is(err, db.ErrConflict) {
		return db.Schedule{}, fault.New(fault.Conflict, "a schedule named %q already exists", sc.Name)
	}
	return out, err
}

func (s *schedules) Notify() { s.notified++ }

// env is a Runtime over a real SQLite database with a fake clock.
type env struct {
	t        *testing.T
	db       *db.DB
	clk      *clock.Fake
	cfg      *configmgr.Manager
	rt       *Runtime
	dest     *destination
	counters *ingest.Counters
	sched    *schedules
}

func newEnv(t *testing.T, block int) *env {
	t.Helper()
	d := dbtest.SQLite(t)
	clk := clock.NewFake(time.Date(2024, 5, 1, 10, 0, 0, 0, time.UTC))
	auditLog := audit.New(d, nil)
	cfg := configmgr.New(d, auditLog, nil)
	if err := cfg.Seed(t.Context()); err != nil {
		t.Fatal(err)
	}
	dest := newDestination()
	reg, err := plugin.NewRegistry(fakeDefinition(dest), southDefinition())
	if err != nil {
		t.Fatal(err)
	}
	counters := ingest.NewCounters(d, nil)
	tracker := ingest.NewTracker(d, func(ctx context.Context) (string, error) {
		return cfg.Value(ctx, configmgr.CategoryService, configmgr.ItemServiceName)
	}, clk)
	rt := New(Options{Store: d, Config: cfg, Audit: auditLog, Plugins: reg, Tracker: tracker,
		Clock: clk, Block: block})
	sched := &schedules{d: d}
	rt.SetSchedules(sched)
	t.Cleanup(func() { rt.Shutdown(context.Background()) })
	return &env{t: t, db: d, clk: clk, cfg: cfg, rt: rt, dest: dest, counters: counters, sched: sched}
}

// insert stores readings with "i" values from..to-1, one batch.
func (e *env) insert(from, to int) {
	e.t.Helper()
	var rs []db.Reading
	for i := from; i < to; i++ {
		rs = append(rs, db.Reading{AssetCode: fmt.Sprintf("asset-%d", i%3), Reading: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)),
			UserTS: time.Date(2024, 1, 1, 0, 0, i, 0, time.UTC)})
	}
	if err := e.db.InsertReadings(e.t.Context(), rs); err != nil {
		e.t.Fatal(err)
	}
}

// service registers the north service name (as the service runtime's
// create does) and its stream position.
func (e *env) service(name string) {
	e.t.Helper()
	sc := db.Schedule{ID: uuid.NewString(), Name: name, ProcessName: "north_C", Type: db.ScheduleStartup, Enabled: true}
	if _, err := e.db.CreateService(e.t.Context(), db.Service{Name: name, Type: db.ServiceNorth, Plugin: "fake_north"}, sc); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.cfg.Create(e.t.Context(), configmgr.CategoryInput{Key: name, Description: "north",
		Items: taskItems(fakeDefinition(e.dest))}); err != nil {
		e.t.Fatal(err)
	}
	if err := e.rt.Prepare(e.t.Context(), name); err != nil {
		e.t.Fatal(err)
	}
}

func (e *env) stream(name string) *Stream {
	return e.rt.stream(name, "fake_north", &fakeNorth{d: e.dest}, nil)
}

func (e *env) statistic(key string) int64 {
	e.t.Helper()
	if err := e.counters.Flush(e.t.Context()); err != nil {
		e.t.Fatal(err)
	}
	s, err := e.db.GetStatistic(e.t.Context(), key)
	if errors.Is(err, db.ErrNotFound) {
		return 0
	}
	if err != nil {
		e.t.Fatal(err)
	}
	return s.Value
}

func (e *env) auditCount(source string) int {
	e.t.Helper()
	_, n, err := e.db.ListAudit(e.t.Context(), db.AuditFilter{Source: source})
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// each returns 0..n-1.
func each(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// missing returns the values of want absent from got.
func missing(want, got []int) []int {
	var out []int
	for _, w := range want {
		if !slices.Contains(got, w) {
			out = append(out, w)
		}
	}
	return out
}

// sendErrors counts failed sends by stream.
type sendErrors map[string]int

func (s sendErrors) SendFailed(stream string) { s[stream]++ }

func TestStreamSavesThePositionOnlyAfterAcceptance(t *testing.T) {
	tests := []struct {
		name       string
		skip       int // blocks sent before the failing one
		take       int // readings of the failing block the destination got
		report     int // of which Send reported accepted
		wantPos    int // readings behind the saved position
		wantResent int // readings the destination gets twice
	}{
		{name: "fails before anything", take: 0, report: 0, wantPos: 0},
		{name: "fails mid-block", take: 4, report: 4, wantPos: 4},
		{name: "destination got more than reported", take: 5, report: 3, wantPos: 3, wantResent: 2},
		{name: "fails in the second block", skip: 1, take: 2, report: 2, wantPos: 7},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, 5)
			e.service("up")
			e.insert(0, 10)
			e.dest.failAfter(tc.skip, tc.take, tc.report)
			s := e.stream("up")
			errs := sendErrors{}
			s.Errors = errs
			sent, err := s.Drain(t.Context())
			if err == nil {
				t.Fatal("Drain succeeded through a failing destination")
			}
			if errs["up"] != 1 {
				t.Errorf("send errors counted = %v, want up: 1", errs)
			}
			pos, perr := e.db.GetStreamPosition(t.Context(), "up")
			if perr != nil {
				t.Fatal(perr)
			}
			all, _ := e.db.ReadStream(t.Context(), db.StreamPosition{}, 100)
			switch {
			case tc.wantPos == 0 && pos.Sent:
				t.Errorf("position saved (%+v) though nothing was accepted", pos)
			case tc.wantPos > 0 && (!pos.Sent || pos.ID != all[tc.wantPos-1].ID):
				t.Errorf("position = %+v, want after reading %d", pos, tc.wantPos-1)
			case sent != int64(tc.wantPos) || e.statistic("up") != int64(tc.wantPos):
				t.Errorf("sent %d, statistic %d; want %d", sent, e.statistic("up"), tc.wantPos)
			}

			// A new instance (after a restart) resends from the saved
			// position: every reading arrives, none is skipped.
			if _, err := e.stream("up").Drain(t.Context()); err != nil {
				t.Fatal(err)
			}
			got := e.dest.received()
			if m := missing(each(10), got); len(m) > 0 {
				t.Fatalf("readings lost: %v (received %v)", m, got)
			}
			if dup := len(got) - 10; dup != tc.wantResent {
				t.Errorf("%d readings received twice, want %d (received %v)", dup, tc.wantResent, got)
			}
			if n := e.statistic("up"); n != 10 {
				t.Errorf("statistic up = %d, want 10", n)
			}
		})
	}
}

func TestStreamTracksEgressAndSendsInOrder(t *testing.T) {
	e := newEnv(t, 4)
	e.service("up")
	e.insert(0, 6)
	e.insert(6, 9)
	sent, err := e.stream("up").Drain(t.Context())
	if err != nil || sent != 9 {
		t.Fatalf("Drain = %d, %v", sent, err)
	}
	if got := e.dest.received(); !slices.Equal(got, each(9)) {
		t.Errorf("received %v, want in stream order", got)
	}
	ev, err := e.db.ListTrackingEvents(t.Context(), db.TrackingFilter{Service: "up", Event: db.EventEgress})
	if err != nil {
		t.Fatal(err)
	}
	var assets []string
	for _, x := range ev {
		if x.Plugin != "fake_north" {
			t.Errorf("egress event %+v has the wrong plugin", x)
		}
		assets = append(assets, x.Asset)
	}
	slices.Sort(assets)
	if !slices.Equal(assets, []string{"asset-0", "asset-1", "asset-2"}) {
		t.Errorf("egress assets = %v", assets)
	}
	// Caught up: nothing more is sent.
	if sent, err := e.stream("up").Drain(t.Context()); err != nil || sent != 0 {
		t.Errorf("second Drain = %d, %v; want nothing", sent, err)
	}
}

// waitSends waits until the destination received n readings in all.
func (e *env) waitSends(n int) {
	e.t.Helper()
	total := 0
	for total < n {
		select {
		case k := <-e.dest.sends:
			total += k
		case <-time.After(10 * time.Second):
			e.t.Fatalf("the destination received %d readings, want %d", total, n)
		}
	}
}

func TestServiceSendsContinuouslyAndRestartsAfterFailure(t *testing.T) {
	e := newEnv(t, 100)
	e.service("up")
	e.insert(0, 3)
	if err := e.rt.Start(t.Context(), "up", "fake_north"); err != nil {
		t.Fatal(err)
	}
	e.waitSends(3)
	// Caught up, it waits for the next commit: no clock needed.
	e.insert(3, 5)
	e.waitSends(2)
	if got := e.rt.Status("up"); got != system.StatusRunning {
		t.Errorf("status = %s", got)
	}

	// A failure after one reading: the service fails, is restarted after
	// the backoff and resends from its position.
	e.dest.failNext(1, 1)
	e.insert(5, 8)
	e.waitSends(3) // the failed attempt
	e.clk.BlockUntil(1)
	if got := e.rt.Status("up"); got != system.StatusFailed {
		t.Errorf("status after the failure = %s, want failed", got)
	}
	if n := e.auditCount("SRVFL"); n != 1 {
		t.Errorf("SRVFL entries = %d", n)
	}
	e.clk.Advance(DefaultBackoff.Initial)
	e.waitSends(2)
	if got := e.dest.received(); !slices.Equal(got, each(8)) {
		t.Errorf("received %v, want 0..7 once each", got)
	}
	e.rt.Stop(t.Context(), "up")
	if e.rt.Running("up") || e.rt.Status("up") != system.StatusShutdown {
		t.Error("stopped service still listed as started")
	}
	if e.auditCount("SRVRG") != 1 || e.auditCount("SRVUN") != 1 {
		t.Errorf("SRVRG %d, SRVUN %d; want 1 each", e.auditCount("SRVRG"), e.auditCount("SRVUN"))
	}
	if n := e.statistic("up"); n != 8 {
		t.Errorf("statistic = %d, want 8", n)
	}
}

func TestCreateTaskValidation(t *testing.T) {
	e := newEnv(t, 100)
	e.service("taken")
	tests := []struct {
		name string
		req  TaskRequest
		kind *fault.Kind
	}{
		{name: "empty name", req: TaskRequest{Plugin: "fake_north", Repeat: 1}, kind: fault.Invalid},
		{name: "leading space", req: TaskRequest{Name: " x", Plugin: "fake_north", Repeat: 1}, kind: fault.Invalid},
		{name: "zero repeat", req: TaskRequest{Name: "t", Plugin: "fake_north"}, kind: fault.Invalid},
		{name: "repeat over a year", req: TaskRequest{Name: "t", Plugin: "fake_north", Repeat: MaxRepeat + 1}, kind: fault.Invalid},
		{name: "no plugin", req: TaskRequest{Name: "t", Repeat: 1}, kind: fault.Invalid},
		{name: "unknown plugin", req: TaskRequest{Name: "t", Plugin: "nope", Repeat: 1}, kind: fault.NotFound},
		{name: "south plugin", req: TaskRequest{Name: "t", Plugin: "fake_south", Repeat: 1}, kind: fault.Invalid},
		{name: "unknown item", req: TaskRequest{Name: "t", Plugin: "fake_north", Repeat: 1, Config: map[string]string{"nope": "1"}}, kind: fault.Invalid},
		{name: "readonly item", req: TaskRequest{Name: "t", Plugin: "fake_north", Repeat: 1, Config: map[string]string{"plugin": "x"}}, kind: fault.Invalid},
		{name: "reserved name", req: TaskRequest{Name: "Edge Core", Plugin: "fake_north", Repeat: 1}, kind: fault.Conflict},
		{name: "name of a service", req: TaskRequest{Name: "taken", Plugin: "fake_north", Repeat: 1}, kind: fault.Conflict},
		{name: "name of a category", req: TaskRequest{Name: "SCHEDULER", Plugin: "fake_north", Repeat: 1}, kind: fault.Conflict},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.rt.CreateTask(t.Context(), tc.req)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("CreateTask = %v, want a %v fault", err, tc.kind)
			}
		})
	}
	if scheds, _ := e.db.ListSchedules(t.Context()); len(scheds) != 1 {
		t.Errorf("refused creates left schedules: %v", scheds)
	}
}

func TestTaskRunsSendWhatIsPendingAndEnd(t *testing.T) {
	e := newEnv(t, 4)
	sc, err := e.rt.CreateTask(t.Context(), TaskRequest{Name: "to-cloud", Plugin: "fake_north", Enabled: true, Repeat: 30,
		Config: map[string]string{"url": "elsewhere"}})
	if err != nil {
		t.Fatal(err)
	}
	if sc.ProcessName != db.NorthTaskProcess || sc.Type != db.ScheduleInterval || sc.RepeatSeconds != 30 || !sc.Enabled {
		t.Errorf("schedule = %+v", sc)
	}
	if v, err := e.cfg.Value(t.Context(), "to-cloud", "url"); err != nil || v != "elsewhere" {
		t.Errorf("url = %q, %v", v, err)
	}
	if _, err := e.rt.CreateTask(t.Context(), TaskRequest{Name: "to-cloud", Plugin: "fake_north", Repeat: 1}); err == nil {
		t.Error("a second task of the same name was created")
	}

	e.insert(0, 10)
	if err := e.rt.RunTask(t.Context(), "to-cloud"); err != nil {
		t.Fatal(err)
	}
	e.insert(10, 12)
	if err := e.rt.RunTask(t.Context(), "to-cloud"); err != nil {
		t.Fatal(err)
	}
	if got := e.dest.received(); !slices.Equal(got, each(12)) {
		t.Errorf("received %v, want 0..11 once each", got)
	}
	entries, _, err := e.db.ListAudit(t.Context(), db.AuditFilter{Source: "NHCOM"})
	if err != nil || len(entries) != 2 {
		t.Fatalf("NHCOM entries = %v, %v", entries, err)
	}
	var details struct {
		Name string
		Sent int
	}
	if err := json.Unmarshal(entries[0].Details, &details); err != nil || details.Name != "to-cloud" || details.Sent != 2 {
		t.Errorf("latest NHCOM = %s", entries[0].Details)
	}

	// A failing run ends with the error, keeps what was accepted and
	// writes no NHCOM.
	e.insert(12, 15)
	e.dest.failNext(1, 1)
	if err := e.rt.RunTask(t.Context(), "to-cloud"); err == nil {
		t.Error("a failing run succeeded")
	}
	if e.auditCount("NHCOM") != 2 {
		t.Error("a failed run wrote NHCOM")
	}
	if err := e.rt.RunTask(t.Context(), "to-cloud"); err != nil {
		t.Fatal(err)
	}
	if got := e.dest.received(); !slices.Equal(got, each(15)) {
		t.Errorf("received %v, want 0..14 once each", got)
	}

	if err := e.rt.RunTask(t.Context(), "nope"); err == nil {
		t.Error("RunTask of an unknown task succeeded")
	}
}

func TestListAndDelete(t *testing.T) {
	e := newEnv(t, 100)
	e.service("svc")
	if _, err := e.rt.CreateTask(t.Context(), TaskRequest{Name: "a-task", Plugin: "fake_north", Enabled: false, Repeat: 60}); err != nil {
		t.Fatal(err)
	}
	e.insert(0, 3)
	if err := e.rt.RunTask(t.Context(), "a-task"); err != nil {
		t.Fatal(err)
	}
	if err := e.rt.Start(t.Context(), "svc", "fake_north"); err != nil {
		t.Fatal(err)
	}
	e.waitSends(3 + 3)
	if recs, err := e.rt.List(t.Context()); err != nil || len(recs) != 2 || recs[1].Status != system.StatusRunning {
		t.Fatalf("List while the service runs = %+v, %v", recs, err)
	}
	e.rt.Stop(t.Context(), "svc") // its last block is recorded once it stopped
	recs, err := e.rt.List(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := []Record{
		{Name: "a-task", Task: true, Plugin: "fake_north", PluginVersion: "3.1.0", Sent: 3, Status: system.StatusShutdown, Repeat: 60},
		{Name: "svc", Plugin: "fake_north", PluginVersion: "3.1.0", Sent: 3, Status: system.StatusShutdown, Enabled: true},
	}
	if len(recs) != len(want) {
		t.Fatalf("List = %+v", recs)
	}
	for i := range want {
		got := recs[i]
		if got.ScheduleID == "" {
			t.Errorf("record %d has no schedule id", i)
		}
		got.ScheduleID = ""
		if got != want[i] {
			t.Errorf("record %d = %+v, want %+v", i, got, want[i])
		}
	}

	if err := e.rt.DeleteTask(t.Context(), "a-task"); err != nil {
		t.Fatal(err)
	}
	if err := e.rt.DeleteTask(t.Context(), "a-task"); !errors.Is(err, fault.NotFound) {
		t.Errorf("second DeleteTask = %v, want NotFound", err)
	}
	if err := e.rt.DeleteTask(t.Context(), "svc"); !errors.Is(err, fault.NotFound) {
		t.Errorf("DeleteTask of a service = %v, want NotFound", err)
	}
	if recs, _ := e.rt.List(t.Context()); len(recs) != 1 || recs[0].Name != "svc" {
		t.Errorf("List after delete = %+v", recs)
	}
	if err := e.rt.Removed(t.Context(), "svc"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.db.GetStreamPosition(t.Context(), "svc"); !errors.Is(err, db.ErrNotFound) {
		t.Errorf("position after Removed: %v", err)
	}
}

// TestRejectedReadingsAreSetAsideAndResent: a reading the destination
// refuses for good is set aside (kept, counted, audited with its id) and
// the stream goes on; marked for resending, it is sent again once the
// destination takes it, and counted sent then.
func TestRejectedReadingsAreSetAsideAndResent(t *testing.T) {
	e := newEnv(t, 100)
	e.service("up")
	e.insert(0, 6)
	e.dest.reject = func(i int) bool { return i == 3 }
	if err := e.rt.Load(t.Context()); err != nil {
		t.Fatal(err)
	}
	if err := e.rt.Start(t.Context(), "up", "fake_north"); err != nil {
		t.Fatal(err)
	}
	e.waitSends(6)               // 0..2 accepted, 3 refused
	e.waitSends(2)               // 4 and 5, after 3 was set aside
	e.rt.Stop(t.Context(), "up") // what it sent is recorded once it stopped
	if got := e.dest.received(); !slices.Equal(got, []int{0, 1, 2, 4, 5}) {
		t.Errorf("received %v", got)
	}
	if got := e.statistic("up"); got != 5 {
		t.Errorf("sent statistic = %d, want 5", got)
	}
	if got := e.statistic(db.SetAsideKey("up")); got != 1 {
		t.Errorf("%s = %d, want 1", db.SetAsideKey("up"), got)
	}
	if got := e.rt.SentTotal(); got != 5 {
		t.Errorf("SentTotal = %d, want 5", got)
	}
	aside, total, err := e.rt.SetAside(t.Context(), "up", 0, 0)
	if err != nil || total != 1 || string(aside[0].Reading) != `{"i":3}` || !strings.Contains(aside[0].Reason, "400") {
		t.Fatalf("SetAside = %+v of %d, %v", aside, total, err)
	}
	entries, _, err := e.db.ListAudit(t.Context(), db.AuditFilter{Source: AuditRejected})
	if err != nil || len(entries) != 1 {
		t.Fatalf("NHREJ entries = %v, %v", entries, err)
	}
	var details struct {
		Name     string
		Readings []int64
	}
	if err := json.Unmarshal(entries[0].Details, &details); err != nil || details.Name != "up" ||
		!slices.Equal(details.Readings, []int64{aside[0].ReadingID}) {
		t.Errorf("NHREJ details = %s (%v)", entries[0].Details, err)
	}
	if n := e.auditCount("SRVFL"); n != 0 {
		t.Errorf("SRVFL entries = %d: a refused reading is no failure", n)
	}
	if _, _, err := e.rt.SetAside(t.Context(), "nope", 0, 0); !errors.Is(err, fault.NotFound) {
		t.Errorf("SetAside of an unknown service = %v, want NotFound", err)
	}

	// The destination takes it now: resend.
	e.dest.mu.Lock()
	e.dest.reject = nil
	e.dest.mu.Unlock()
	if err := e.rt.Start(t.Context(), "up", "fake_north"); err != nil {
		t.Fatal(err)
	}
	if n, err := e.rt.Resend(t.Context(), "up", nil); err != nil || n != 1 {
		t.Fatalf("Resend = %d, %v", n, err)
	}
	e.waitSends(1)
	e.rt.Stop(t.Context(), "up") // the stream's records are written before it stops
	if got := e.dest.received(); !slices.Equal(got, []int{0, 1, 2, 4, 5, 3}) {
		t.Errorf("received %v, want the set-aside reading last", got)
	}
	if _, total, _ := e.rt.SetAside(t.Context(), "up", 0, 0); total != 0 {
		t.Errorf("%d readings still set aside after they were delivered", total)
	}
	if got, want := e.statistic("up"), int64(6); got != want || e.rt.SentTotal() != want {
		t.Errorf("sent statistic = %d, SentTotal = %d; want %d", got, e.rt.SentTotal(), want)
	}
}

// TestServiceUnresponsiveWhileTheDestinationFails: the service's status
// follows what the plugin reports about its destination.
func TestServiceUnresponsiveWhileTheDestinationFails(t *testing.T) {
	e := newEnv(t, 100)
	e.service("up")
	if err := e.rt.Start(t.Context(), "up", "fake_north"); err != nil {
		t.Fatal(err)
	}
	e.dest.mu.Lock()
	env := e.dest.env
	e.dest.mu.Unlock()
	if got := e.rt.Status("up"); got != system.StatusRunning {
		t.Fatalf("status = %s", got)
	}
	env.ReportDestination(errors.New("answered 503"))
	if got := e.rt.Status("up"); got != system.StatusUnresponsive {
		t.Errorf("status while the destination fails = %s, want unresponsive", got)
	}
	if h := system.Health(e.rt.Statuses()); h != system.Amber {
		t.Errorf("health = %s, want amber", h)
	}
	env.ReportDestination(nil)
	if got := e.rt.Status("up"); got != system.StatusRunning {
		t.Errorf("status after the destination recovered = %s, want running", got)
	}
}
