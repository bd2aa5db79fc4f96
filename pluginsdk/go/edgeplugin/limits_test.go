package edgeplugin

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	hplugin "github.com/hashicorp/go-plugin"
	"google.golang.org/grpc"

	"github.com/edged/edged/pluginsdk/go/pluginpb"
)

// testRoleEnv names the role this test binary plays when a test starts it
// as a plugin process (TestMain); roles are served by serveRole.
const testRoleEnv = "EDGEPLUGIN_TEST_ROLE"

// bigBatch is 200 readings of 1 MiB each, sharing one value, so the
// plugin process does not hold 200 MiB before it sends them.
func bigBatch() []Reading {
	v := append(append([]byte(`{"x":"`), bytes.Repeat([]byte("a"), 1<<20)...), `"}`...)
	rs := make([]Reading, 200)
	for i := range rs {
		rs[i] = Reading{Asset: "big", Timestamp: time.Unix(1, 0), Values: v}
	}
	return rs
}

// bigSouth submits one batch of 200 MiB through the SDK's Sink and ends
// its run with Submit's error.
type bigSouth struct{}

func (bigSouth) Start(context.Context, Start) error { return nil }
func (bigSouth) Reconfigure(Config) error           { return nil }
func (bigSouth) Run(ctx context.Context, sink Sink) error {
	if _, err := sink.Submit(bigBatch()); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}

// rawSouth sends a batch of 200 MiB past the SDK's check, as a plugin
// written without the SDK could.
type rawSouth struct {
	pluginpb.UnimplementedSouthServer
}

func (rawSouth) Start(context.Context, *pluginpb.StartRequest) (*pluginpb.StartReply, error) {
	return &pluginpb.StartReply{}, nil
}

func (rawSouth) Run(_ *pluginpb.RunRequest, stream grpc.ServerStreamingServer[pluginpb.Batch]) error {
	if err := stream.Send(&pluginpb.Batch{Readings: toPB(bigBatch())}); err != nil {
		return err
	}
	<-stream.Context().Done()
	return nil
}

// rawPlugin serves rawSouth.
type rawPlugin struct {
	hplugin.NetRPCUnsupportedPlugin
}

func (rawPlugin) GRPCServer(_ *hplugin.GRPCBroker, s *grpc.Server) error {
	pluginpb.RegisterPluginServer(s, &describeServer{info: Info{Name: "raw", Version: "1", Kind: KindSouth}})
	pluginpb.RegisterSouthServer(s, rawSouth{})
	return nil
}

func (rawPlugin) GRPCClient(context.Context, *hplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, nil
}

// describeOnly serves Describe only, as info.
type describeOnly struct {
	hplugin.NetRPCUnsupportedPlugin
	info Info
}

func (d describeOnly) GRPCServer(_ *hplugin.GRPCBroker, s *grpc.Server) error {
	pluginpb.RegisterPluginServer(s, &describeServer{info: d.info})
	return nil
}

func (describeOnly) GRPCClient(context.Context, *hplugin.GRPCBroker, *grpc.ClientConn) (any, error) {
	return nil, nil
}

// TestProtocolVersions: the gateway and an SDK plugin agree on
// ProtocolVersion; a south plugin of version 1 still runs; a service of
// version 1 is refused, saying why.
func TestProtocolVersions(t *testing.T) {
	p, err := launchRole(t, "big-sdk")
	if err != nil {
		t.Fatal(err)
	}
	if p.Version != ProtocolVersion {
		t.Errorf("an SDK plugin speaks version %d, want %d", p.Version, ProtocolVersion)
	}
	p, err = launchRole(t, "v1-south")
	if err != nil {
		t.Fatalf("a south plugin of version 1: %v", err)
	}
	if p.Version != 1 || p.Info.Name != "old" {
		t.Errorf("a south plugin of version 1 = version %d, %+v", p.Version, p.Info)
	}
	_, err = launchRole(t, "v1-service")
	if err == nil || !strings.Contains(err.Error(), "a notification service speaks protocol version 1; it needs 2 or later") {
		t.Errorf("a service of version 1 = %v", err)
	}
}

// crashingStart panics in Start, in a goroutine of its own, which ends
// the process.
type crashingStart struct{ bigSouth }

func (crashingStart) Start(context.Context, Start) error {
	done := make(chan struct{})
	go func() {
		defer close(done)
		panic("the device's certificate has expired")
	}()
	<-done
	return nil
}

// serveRole serves the plugin of role, or fails as it says.
func serveRole(role string) {
	switch role {
	case "big-sdk":
		Serve(Plugin{Info: Info{Name: "big", Version: "1", Kind: KindSouth}, South: bigSouth{}})
	case "big-raw":
		hplugin.Serve(&hplugin.ServeConfig{HandshakeConfig: Handshake,
			Plugins: hplugin.PluginSet{PluginName: rawPlugin{}}, GRPCServer: hplugin.DefaultGRPCServer})
	case "v1-south", "v1-service":
		// A plugin built before protocol version 2: it offers version 1
		// only.
		kind := KindSouth
		if role == "v1-service" {
			kind = KindNotification
		}
		v1 := Handshake
		v1.ProtocolVersion = 1
		hplugin.Serve(&hplugin.ServeConfig{HandshakeConfig: v1,
			Plugins: hplugin.PluginSet{PluginName: describeOnly{info: Info{Name: "old", Version: "1", Kind: kind}}}, GRPCServer: hplugin.DefaultGRPCServer})
	case "no-handshake":
		// What a Python plugin whose interpreter lacks a module does.
		fmt.Fprintln(os.Stderr, "Traceback (most recent call last):")
		fmt.Fprintln(os.Stderr, `  File "plugin.py", line 1, in <module>`)
		fmt.Fprintln(os.Stderr, "ModuleNotFoundError: No module named 'grpc'")
		os.Exit(1)
	case "start-crash":
		Serve(Plugin{Info: Info{Name: "crash", Version: "1", Kind: KindSouth}, South: crashingStart{}})
	case "env":
		env, _ := json.Marshal(os.Environ())
		Serve(Plugin{Info: Info{Name: "env", Version: "1", Kind: KindSouth, Description: string(env)}, South: bigSouth{}})
	}
}

// launchRole starts this test binary as a plugin process playing role,
// with only PATH and the role in its environment.
func launchRole(t *testing.T, role string) (*Process, error) {
	t.Helper()
	p, err := LaunchWith(t.Context(), os.Args[0], LaunchOptions{Env: []string{"PATH=" + os.Getenv("PATH"), testRoleEnv + "=" + role}})
	if err == nil {
		t.Cleanup(p.Kill)
	}
	return p, err
}

// peakRSS returns the peak resident set size of this process, in bytes.
func peakRSS(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("reads the peak resident set size from /proc")
	}
	defer func() { _ = f.Close() }()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM in /proc/self/status")
	return 0
}

// TestOversizedBatchRefused: a plugin's batch of 200 MiB is refused, by the
// SDK before it is sent and by the gateway's receive limit when a plugin
// sends it anyway; the run ends with an error that says so, and the
// gateway's memory does not grow by the batch.
func TestOversizedBatchRefused(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("measures memory through /proc")
	}
	cases := []struct {
		role, want string
	}{
		{"big-sdk", "more than the 4194304 a plugin may send at once"},
		{"big-raw", "the plugin sent a message larger than the 4194304 bytes a plugin may send at once"},
	}
	for _, tc := range cases {
		t.Run(tc.role, func(t *testing.T) {
			p, err := launchRole(t, tc.role)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Start(t.Context(), Start{Service: "s"}); err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			debug.FreeOSMemory()
			// Reset the peak to the current size where the kernel allows.
			_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
			before := peakRSS(t)
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			defer cancel()
			delivered := 0
			err = p.Run(ctx, func(rs []Reading) {
				delivered += len(rs)
				cancel() // the batch was taken: the run is over
			})
			if ctx.Err() != nil && delivered == 0 {
				t.Fatal("the run did not end within a minute")
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Run = %v, want an error saying %q", err, tc.want)
			}
			if delivered != 0 {
				t.Errorf("%d readings delivered", delivered)
			}
			if grew := peakRSS(t) - before; grew >= 64<<20 {
				t.Errorf("the gateway's peak memory grew by %d MiB, want under 64", grew>>20)
			}
		})
	}
}

// TestStartFailureCarriesStderr: a plugin that fails before its handshake
// or in Start is reported with the last lines of its stderr.
func TestStartFailureCarriesStderr(t *testing.T) {
	t.Run("no handshake", func(t *testing.T) {
		_, err := launchRole(t, "no-handshake")
		if err == nil || !strings.Contains(err.Error(), "ModuleNotFoundError: No module named 'grpc'") {
			t.Fatalf("LaunchWith = %v, want the plugin's ModuleNotFoundError", err)
		}
	})
	t.Run("exits in Start", func(t *testing.T) {
		p, err := launchRole(t, "start-crash")
		if err != nil {
			t.Fatal(err)
		}
		err = p.Start(t.Context(), Start{Service: "s"})
		if err == nil || !strings.Contains(err.Error(), "panic: the device's certificate has expired") ||
			CodeOf(err) != CodeUnavailable {
			t.Fatalf("Start = %v (code %v), want CodeUnavailable with the end of the plugin's stderr", err, CodeOf(err))
		}
	})
}

// TestLaunchEnvironment: the process sees the environment LaunchWith was
// given, with go-plugin's handshake, and nothing else of the gateway's.
func TestLaunchEnvironment(t *testing.T) {
	t.Setenv("EDGE_ADMIN_PASSWORD", "canary-secret")
	p, err := launchRole(t, "env")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	if err := json.Unmarshal([]byte(p.Info.Description), &env); err != nil {
		t.Fatal(err)
	}
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "PATH", name == testRoleEnv, name == Handshake.MagicCookieKey, strings.HasPrefix(name, "PLUGIN_"):
		default:
			t.Errorf("the plugin's environment holds %s", kv)
		}
	}
}

func TestStderrTail(t *testing.T) {
	var log bytes.Buffer
	tail := newStderrTail(&log)
	src, other := tail.source(true), tail.source(false)
	_, _ = fmt.Fprint(other, "from the other stream ")
	for i := range 12 {
		_, _ = fmt.Fprintf(src, "line %d", i)
		_, _ = fmt.Fprint(src, "\n")
	}
	_, _ = fmt.Fprint(src, `{"@level":"info"}`+"\n[INFO] prefixed\n"+strings.Repeat("x", 1000)+"\npartial")
	got := tail.Lines()
	want := []string{"line 5", "line 6", "line 7", "line 8", "line 9", "line 10", "line 11",
		`{"@level":"info"}`, "[INFO] prefixed", strings.Repeat("x", tailLineSize), "partial", "from the other stream "}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Lines = %q\nwant %q", got, want)
	}
	_, _ = fmt.Fprint(other, "\n[WARN] not parsed\n")
	_, _ = fmt.Fprint(src, "\npanic: boom\ngoroutine 1 [running]:\n")
	logged := log.String()
	if strings.Contains(logged, "@level") || strings.Contains(logged, "[INFO]") || strings.Contains(logged, "boom") ||
		strings.Contains(logged, "goroutine") || !strings.Contains(logged, "line 0\n") || !strings.Contains(logged, "[WARN] not parsed\n") {
		t.Errorf("logged %q: want the plain lines of the file, and every line of the stdio stream", logged)
	}
}
