package supervisor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/backoff"
	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/system"
)

// guard bounds every wait of these tests; reaching it is a failure, never
// a way to synchronise.
const guard = 10 * time.Second

func recv[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatalf("timed out waiting for %s", what)
		panic("unreachable")
	}
}

// audits records the audit entries a supervisor writes.
type audits struct {
	ch chan map[string]any
}

func newAudits() *audits { return &audits{ch: make(chan map[string]any, 100)} }

func (a *audits) record(_ context.Context, source, _ string, details any) {
	if source == AuditFailed {
		a.ch <- details.(map[string]any)
	}
}

// fixture is a supervisor of a test unit on a fake clock.
type fixture struct {
	clk      *clock.Fake
	audit    *audits
	attempts chan int   // each attempt's number, as it begins
	checked  chan error // each health check's recorded outcome
	s        *Supervisor
}

// start supervises a unit whose attempt n runs run(ctx, up, n).
func start(t *testing.T, set Settings, run func(ctx context.Context, up func(), n int) error, check func(context.Context) error) *fixture {
	t.Helper()
	f := &fixture{clk: clock.NewFake(time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)), audit: newAudits(),
		attempts: make(chan int, 100), checked: make(chan error, 100)}
	var n atomic.Int32
	u := Unit{Name: "svc", Plugin: "p", Check: check, Run: func(ctx context.Context, up func()) error {
		i := int(n.Add(1))
		f.attempts <- i
		return run(ctx, up, i)
	}}
	f.s = Start(t.Context(), Options{Clock: f.clk, Settings: Static(set), Audit: f.audit.record,
		Backoff: backoff.Policy{Initial: time.Second, Max: time.Second, ResetAfter: time.Hour},
		checked: func(err error) { f.checked <- err }}, u)
	t.Cleanup(func() {
		if !f.s.Stop(context.Background(), clock.Real{}.NewTimer(guard)) {
			t.Error("the supervisor did not stop")
		}
	})
	return f
}

func failing(context.Context, func(), int) error { return errors.New("boom") }

func running(ctx context.Context, up func(), _ int) error {
	up()
	<-ctx.Done()
	return nil
}

// noMore fails when another attempt begins or a timer is pending: the
// supervisor has given up.
func (f *fixture) noMore(t *testing.T) {
	t.Helper()
	if n := f.clk.Pending(); n != 0 {
		t.Errorf("%d timers pending after the supervisor gave up, want none", n)
	}
	select {
	case n := <-f.attempts:
		t.Errorf("attempt %d after the supervisor gave up", n)
	default:
	}
	if got := f.s.Status(); got != system.StatusFailed {
		t.Errorf("status = %s, want failed", got)
	}
}

func TestRestartFailed(t *testing.T) {
	for _, tc := range []struct {
		name    string
		restart bool
	}{
		{name: "auto restarts a failed service", restart: true},
		{name: "manual leaves it failed", restart: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set := DefaultSettings
			set.RestartFailed = tc.restart
			f := start(t, set, failing, nil)
			recv(t, f.attempts, "the first attempt")
			first := recv(t, f.audit.ch, "SRVFL of the failure")
			if first["error"] != "boom" {
				t.Errorf("SRVFL details = %v", first)
			}
			if !tc.restart {
				why := recv(t, f.audit.ch, "SRVFL saying it is not restarted")
				if !strings.Contains(fmt.Sprint(why["error"]), "restart_failed is manual") {
					t.Errorf("SRVFL details = %v", why)
				}
				f.noMore(t)
				return
			}
			f.clk.BlockUntil(1) // the backoff
			if got := f.s.Status(); got != system.StatusFailed {
				t.Errorf("status during the backoff = %s, want failed", got)
			}
			f.clk.Advance(time.Second)
			if n := recv(t, f.attempts, "the restart"); n != 2 {
				t.Errorf("attempt %d, want 2", n)
			}
		})
	}
}

func TestMaxAttempts(t *testing.T) {
	for _, max := range []int{1, 3} {
		t.Run(fmt.Sprintf("max_attempts %d", max), func(t *testing.T) {
			set := DefaultSettings
			set.MaxAttempts = max
			f := start(t, set, failing, nil)
			recv(t, f.attempts, "the first attempt")
			for i := range max {
				f.clk.BlockUntil(1)
				f.clk.Advance(time.Second)
				if n := recv(t, f.attempts, "a restart"); n != i+2 {
					t.Fatalf("attempt %d, want %d", n, i+2)
				}
			}
			for range max + 1 {
				recv(t, f.audit.ch, "SRVFL of a failure")
			}
			why := recv(t, f.audit.ch, "SRVFL saying it is not restarted")
			if want := fmt.Sprintf("%d restarts in a row failed", max); !strings.Contains(fmt.Sprint(why["error"]), want) {
				t.Errorf("SRVFL details = %v, want %q", why, want)
			}
			f.noMore(t)
		})
	}
}

// checker is a health check that reports each call and answers what its
// answer function says (blocking until ctx ends when that says so).
type checker struct {
	calls chan struct{}
	mu    sync.Mutex
	err   error
	hang  bool
}

func newChecker() *checker { return &checker{calls: make(chan struct{}, 100)} }

func (c *checker) set(err error, hang bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err, c.hang = err, hang
}

func (c *checker) check(ctx context.Context) error {
	c.calls <- struct{}{}
	c.mu.Lock()
	err, hang := c.err, c.hang
	c.mu.Unlock()
	if hang {
		<-ctx.Done()
		return ctx.Err()
	}
	return err
}

func TestSleepIntervalPacesHealthChecks(t *testing.T) {
	for _, interval := range []time.Duration{2 * time.Second, 5 * time.Second} {
		t.Run(interval.String(), func(t *testing.T) {
			set := DefaultSettings
			set.Interval = interval
			c := newChecker()
			f := start(t, set, running, c.check)
			if err := recv(t, f.s.Started(), "the start"); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				f.clk.BlockUntil(1) // the wait for the next check
				f.clk.Advance(interval - time.Millisecond)
				if f.clk.Pending() != 1 {
					t.Fatalf("checked before sleep_interval %v", interval)
				}
				f.clk.Advance(time.Millisecond)
				recv(t, c.calls, "a health check")
				if err := recv(t, f.checked, "the check's outcome"); err != nil {
					t.Errorf("check = %v", err)
				}
			}
		})
	}
}

func TestPingTimeoutMakesAServiceUnresponsive(t *testing.T) {
	for _, timeout := range []time.Duration{time.Second, 3 * time.Second} {
		t.Run(timeout.String(), func(t *testing.T) {
			set := DefaultSettings
			set.Interval, set.Timeout = time.Second, timeout
			c := newChecker()
			c.set(nil, true)
			f := start(t, set, running, c.check)
			if err := recv(t, f.s.Started(), "the start"); err != nil {
				t.Fatal(err)
			}
			f.clk.BlockUntil(1)
			f.clk.Advance(time.Second)
			recv(t, c.calls, "a health check")
			f.clk.BlockUntil(1) // ping_timeout
			f.clk.Advance(timeout - time.Millisecond)
			if got := f.s.Status(); got != system.StatusRunning || f.clk.Pending() != 1 {
				t.Fatalf("status %s before ping_timeout %v passed", got, timeout)
			}
			f.clk.Advance(time.Millisecond)
			if err := recv(t, f.checked, "the check's outcome"); !errors.Is(err, errCheckTimeout) {
				t.Errorf("outcome of a check slower than ping_timeout = %v", err)
			}
			if got := f.s.Status(); got != system.StatusUnresponsive {
				t.Errorf("status after a check took longer than ping_timeout = %s, want unresponsive", got)
			}

			c.set(nil, false)
			f.clk.BlockUntil(1)
			f.clk.Advance(time.Second)
			recv(t, c.calls, "the next health check")
			if err := recv(t, f.checked, "the check's outcome"); err != nil {
				t.Errorf("outcome of a passing check = %v", err)
			}
			if got := f.s.Status(); got != system.StatusRunning {
				t.Errorf("status after a check passed = %s, want running", got)
			}

			c.set(errors.New("port closed"), false)
			f.clk.BlockUntil(1)
			f.clk.Advance(time.Second)
			recv(t, c.calls, "a failing health check")
			if err := recv(t, f.checked, "the check's outcome"); err == nil {
				t.Error("outcome of a failing check = nil")
			}
			if got := f.s.Status(); got != system.StatusUnresponsive {
				t.Errorf("status after a check failed = %s, want unresponsive", got)
			}
		})
	}
}

// TestStorageOutageIsNoFailure: attempts that cannot run because storage
// is unavailable leave the service unresponsive and are retried every
// sleep_interval, whatever restart_failed and max_attempts say.
func TestStorageOutageIsNoFailure(t *testing.T) {
	set := Settings{Interval: 3 * time.Second, Timeout: time.Second, MaxAttempts: 1, RestartFailed: false}
	f := start(t, set, func(ctx context.Context, up func(), n int) error {
		if n <= 3 {
			return fmt.Errorf("read configuration: %w", db.ErrUnavailable)
		}
		return running(ctx, up, n)
	}, nil)
	for i := 1; i <= 3; i++ {
		recv(t, f.attempts, "an attempt")
		f.clk.BlockUntil(1)
		if got := f.s.Status(); got != system.StatusUnresponsive {
			t.Errorf("status while storage is unavailable = %s, want unresponsive", got)
		}
		f.clk.Advance(3*time.Second - time.Millisecond)
		if f.clk.Pending() != 1 {
			t.Fatal("retried before sleep_interval")
		}
		f.clk.Advance(time.Millisecond)
	}
	if n := recv(t, f.attempts, "the attempt after the outage"); n != 4 {
		t.Fatalf("attempt %d, want 4", n)
	}
	select {
	case d := <-f.audit.ch:
		t.Errorf("SRVFL %v for a storage outage", d)
	default:
	}
}

func TestDegradedAndPanics(t *testing.T) {
	upped := make(chan struct{}, 1)
	f := start(t, DefaultSettings, func(ctx context.Context, up func(), n int) error {
		if n == 1 {
			panic("plugin bug")
		}
		up()
		upped <- struct{}{}
		<-ctx.Done()
		return nil
	}, nil)
	recv(t, f.attempts, "the first attempt")
	if d := recv(t, f.audit.ch, "SRVFL of the panic"); !strings.Contains(fmt.Sprint(d["error"]), "plugin bug") {
		t.Errorf("SRVFL details = %v", d)
	}
	select {
	case <-f.s.Idle():
	default:
		t.Error("Idle is open between attempts")
	}
	f.clk.BlockUntil(1)
	f.clk.Advance(time.Second)
	recv(t, upped, "the restart")
	if got := f.s.Status(); got != system.StatusRunning {
		t.Errorf("status after the restart = %s, want running", got)
	}
	f.s.Degraded("the destination answers 503")
	if got := f.s.Status(); got != system.StatusUnresponsive {
		t.Errorf("status while degraded = %s", got)
	}
	f.s.Degraded("")
	if got := f.s.Status(); got != system.StatusRunning {
		t.Errorf("status after degradation ended = %s", got)
	}
}

func TestStopGrace(t *testing.T) {
	release := make(chan struct{})
	f := start(t, DefaultSettings, func(_ context.Context, up func(), _ int) error {
		up()
		<-release // ignores its context
		return nil
	}, nil)
	if err := recv(t, f.s.Started(), "the start"); err != nil {
		t.Fatal(err)
	}
	stopped := make(chan bool, 1)
	go func() { stopped <- f.s.Stop(context.Background(), f.clk.NewTimer(5*time.Second)) }()
	f.clk.BlockUntil(1)
	f.clk.Advance(5 * time.Second)
	if recv(t, stopped, "Stop") {
		t.Fatal("Stop reported a stop the unit never made")
	}
	if got := f.s.Status(); got != system.StatusUnresponsive {
		t.Errorf("status = %s, want unresponsive", got)
	}
	recv(t, f.audit.ch, "SRVFL of the stop that timed out")
	close(release)
	recv(t, f.s.Done(), "the supervisor's end")
}

func TestParseSettings(t *testing.T) {
	items := func(kv ...string) configmgr.Category {
		c := configmgr.Category{Key: configmgr.CategoryServiceMonitor, Items: map[string]configmgr.Item{}}
		for i := 0; i < len(kv); i += 2 {
			c.Items[kv[i]] = configmgr.Item{Value: kv[i+1]}
		}
		return c
	}
	for _, tc := range []struct {
		name string
		cat  configmgr.Category
		want Settings
	}{
		{name: "defaults", cat: items(), want: DefaultSettings},
		{name: "every item", cat: items(configmgr.ItemSleepInterval, "7", configmgr.ItemPingTimeout, "2",
			configmgr.ItemMaxAttempts, "3", configmgr.ItemRestartFailed, configmgr.RestartManual),
			want: Settings{Interval: 7 * time.Second, Timeout: 2 * time.Second, MaxAttempts: 3, RestartFailed: false}},
		{name: "values out of range keep the defaults", cat: items(configmgr.ItemSleepInterval, "0",
			configmgr.ItemMaxAttempts, "x"), want: DefaultSettings},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Parse(tc.cat); got != tc.want {
				t.Errorf("Parse = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// fakeConfig is a configuration source of the SMNTR category.
type fakeConfig struct {
	cat configmgr.Category
	fn  func(context.Context, configmgr.Category) error
}

func (c *fakeConfig) Category(context.Context, string) (configmgr.Category, error) { return c.cat, nil }
func (c *fakeConfig) Subscribe(_ string, fn func(context.Context, configmgr.Category) error) func() {
	c.fn = fn
	return func() {}
}

func TestWatchConfigFollowsChanges(t *testing.T) {
	src := &fakeConfig{cat: configmgr.Category{Items: map[string]configmgr.Item{configmgr.ItemMaxAttempts: {Value: "4"}}}}
	c, err := WatchConfig(t.Context(), src)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := c.Settings().MaxAttempts; got != 4 {
		t.Errorf("MaxAttempts = %d, want 4", got)
	}
	_ = src.fn(t.Context(), configmgr.Category{Items: map[string]configmgr.Item{configmgr.ItemRestartFailed: {Value: configmgr.RestartManual}}})
	if got := c.Settings(); got.RestartFailed || got.MaxAttempts != DefaultSettings.MaxAttempts {
		t.Errorf("settings after the change = %+v", got)
	}
}
