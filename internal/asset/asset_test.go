package asset

import (
	"context"
	"errors"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/db"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/stats"
)

// now is the fake clock's time; it has nanoseconds to show that windows
// are computed at microsecond precision.
var now = time.Date(2024, 5, 1, 12, 0, 0, 123456789, time.UTC)

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

// fakeStore records what the service asked for and answers what the test
// set up.
type fakeStore struct {
	assets    []db.AssetCount
	readings  []db.Reading
	values    []db.ReadingValue
	summary   db.Summary
	summaries []db.DatapointSummary
	series    []db.SeriesPoint
	timespans map[string]db.Timespan
	purged    int64
	purgeErr  error // returned by the purges
	err       error // returned by every read when set

	gotCode, gotKey string
	gotWindow       db.Window
	gotBucket       db.Bucket
	calls           []string
	added           []map[string]int64
	addErr          error
}

func (f *fakeStore) ListAssets(context.Context) ([]db.AssetCount, error) {
	f.calls = append(f.calls, "ListAssets")
	return f.assets, f.err
}

func (f *fakeStore) AssetReadings(_ context.Context, code string, w db.Window) ([]db.Reading, error) {
	f.calls = append(f.calls, "AssetReadings")
	f.gotCode, f.gotWindow = code, w
	return f.readings, f.err
}

func (f *fakeStore) AssetReadingValues(_ context.Context, code, key string, w db.Window) ([]db.ReadingValue, error) {
	f.calls = append(f.calls, "AssetReadingValues")
	f.gotCode, f.gotKey, f.gotWindow = code, key, w
	return f.values, f.err
}

func (f *fakeStore) ReadingSummary(_ context.Context, code, key string) (db.Summary, error) {
	f.calls = append(f.calls, "ReadingSummary")
	f.gotCode, f.gotKey = code, key
	return f.summary, f.err
}

func (f *fakeStore) AssetSummaries(_ context.Context, code string) ([]db.DatapointSummary, error) {
	f.calls = append(f.calls, "AssetSummaries")
	f.gotCode = code
	return f.summaries, f.err
}

func (f *fakeStore) ReadingSeries(_ context.Context, code, key string, b db.Bucket, w db.Window) ([]db.SeriesPoint, error) {
	f.calls = append(f.calls, "ReadingSeries")
	f.gotCode, f.gotKey, f.gotBucket, f.gotWindow = code, key, b, w
	return f.series, f.err
}

func (f *fakeStore) AssetTimespan(_ context.Context, code string) (db.Timespan, error) {
	f.calls = append(f.calls, "AssetTimespan")
	ts, ok := f.timespans[code]
	if !ok {
		return db.Timespan{}, db.ErrNotFound
	}
	return ts, nil
}

func (f *fakeStore) AllTimespans(context.Context) ([]db.Timespan, error) {
	f.calls = append(f.calls, "AllTimespans")
	out := []db.Timespan{}
	for _, ts := range f.timespans {
		out = append(out, ts)
	}
	return out, f.err
}

func (f *fakeStore) PurgeAssetReadings(_ context.Context, code string) (int64, error) {
	f.calls = append(f.calls, "PurgeAssetReadings")
	f.gotCode = code
	return f.purged, f.purgeErr
}

func (f *fakeStore) PurgeAllReadings(context.Context) (int64, error) {
	f.calls = append(f.calls, "PurgeAllReadings")
	return f.purged, f.purgeErr
}

func (f *fakeStore) AddStatistics(_ context.Context, deltas map[string]int64) error {
	f.added = append(f.added, deltas)
	return f.addErr
}

type auditEntry struct {
	source, severity string
	details          any
}

type fakeAuditor struct {
	entries []auditEntry
	err     error
}

func (a *fakeAuditor) Record(_ context.Context, source, severity string, details any) error {
	a.entries = append(a.entries, auditEntry{source, severity, details})
	return a.err
}

func newService(st *fakeStore, au *fakeAuditor) *Service {
	return New(st, au, fixedClock{now}, nil)
}

func ptr(v int) *int { return &v }

// wantFault fails unless err is a fault of kind whose message contains
// every one of words.
func wantFault(t *testing.T, err error, kind *fault.Kind, words ...string) {
	t.Helper()
	f, ok := fault.As(err)
	if !ok || !errors.Is(err, kind) {
		t.Fatalf("error = %v, want a %v fault", err, kind)
	}
	for _, w := range words {
		if !strings.Contains(f.Message, w) {
			t.Errorf("message %q does not name %q", f.Message, w)
		}
	}
}

func TestWindow(t *testing.T) {
	us := now.Truncate(time.Microsecond)
	cases := []struct {
		name string
		q    Query
		want db.Window
	}{
		{name: "defaults", q: Query{}, want: db.Window{Limit: 20}},
		{name: "limit and skip", q: Query{Limit: ptr(5), Skip: ptr(10)}, want: db.Window{Limit: 5, Skip: 10}},
		{name: "skip alone keeps the default limit", q: Query{Skip: ptr(3)}, want: db.Window{Limit: 20, Skip: 3}},
		{name: "largest limit", q: Query{Limit: ptr(MaxLimit)}, want: db.Window{Limit: MaxLimit}},
		{name: "seconds", q: Query{Seconds: ptr(30)}, want: db.Window{From: us.Add(-30 * time.Second)}},
		{name: "minutes", q: Query{Minutes: ptr(2)}, want: db.Window{From: us.Add(-2 * time.Minute)}},
		{name: "hours", q: Query{Hours: ptr(3)}, want: db.Window{From: us.Add(-3 * time.Hour)}},
		{name: "seconds with previous", q: Query{Seconds: ptr(30), Previous: ptr(120)},
			want: db.Window{From: us.Add(-150 * time.Second), To: us.Add(-120 * time.Second)}},
		{name: "hours with previous", q: Query{Hours: ptr(1), Previous: ptr(2)},
			want: db.Window{From: us.Add(-3 * time.Hour), To: us.Add(-2 * time.Hour)}},
		{name: "previous zero is now, open ended", q: Query{Minutes: ptr(1), Previous: ptr(0)},
			want: db.Window{From: us.Add(-time.Minute)}},
		{name: "huge hours are capped", q: Query{Hours: ptr(1 << 40)}, want: db.Window{From: us.Add(-maxSpan)}},
		{name: "huge previous is capped", q: Query{Hours: ptr(1), Previous: ptr(1 << 40)},
			want: db.Window{From: us.Add(-maxSpan - time.Hour), To: us.Add(-maxSpan)}},
	}
	s := newService(&fakeStore{}, &fakeAuditor{})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := s.Window(c.q)
			if err != nil {
				t.Fatalf("Window: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Window(%+v) = %+v, want %+v", c.q, got, c.want)
			}
		})
	}
}

func TestWindowRules(t *testing.T) {
	cases := []struct {
		name  string
		q     Query
		words []string // what the message must name
	}{
		{name: "seconds with limit", q: Query{Seconds: ptr(10), Limit: ptr(5)}, words: []string{"seconds", "limit"}},
		{name: "minutes with skip", q: Query{Minutes: ptr(10), Skip: ptr(0)}, words: []string{"minutes", "skip"}},
		{name: "hours with limit and skip", q: Query{Hours: ptr(1), Limit: ptr(5), Skip: ptr(1)}, words: []string{"hours", "limit"}},
		{name: "seconds and minutes", q: Query{Seconds: ptr(1), Minutes: ptr(1)}, words: []string{"seconds", "minutes"}},
		{name: "minutes and hours", q: Query{Minutes: ptr(1), Hours: ptr(1)}, words: []string{"minutes", "hours"}},
		{name: "all three", q: Query{Seconds: ptr(1), Minutes: ptr(1), Hours: ptr(1)}, words: []string{"seconds", "minutes", "hours"}},
		{name: "previous alone", q: Query{Previous: ptr(5)}, words: []string{"previous", "seconds", "minutes", "hours"}},
		{name: "previous with limit", q: Query{Previous: ptr(5), Limit: ptr(5)}, words: []string{"previous"}},
		{name: "limit zero", q: Query{Limit: ptr(0)}, words: []string{"limit", "1"}},
		{name: "limit too large", q: Query{Limit: ptr(MaxLimit + 1)}, words: []string{"limit", "10000"}},
		{name: "negative skip", q: Query{Skip: ptr(-1)}, words: []string{"skip"}},
		{name: "seconds zero", q: Query{Seconds: ptr(0)}, words: []string{"seconds"}},
		{name: "negative previous", q: Query{Seconds: ptr(1), Previous: ptr(-1)}, words: []string{"previous"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &fakeStore{}
			s := newService(st, &fakeAuditor{})
			_, err := s.Readings(t.Context(), "pump", c.q)
			wantFault(t, err, fault.Invalid, c.words...)
			_, err = s.Values(t.Context(), "pump", "v", c.q)
			wantFault(t, err, fault.Invalid, c.words...)
			_, err = s.Series(t.Context(), "pump", "v", "", c.q)
			wantFault(t, err, fault.Invalid, c.words...)
			if len(st.calls) != 0 {
				t.Errorf("storage was called (%v) for an invalid query", st.calls)
			}
		})
	}
}

func TestReadingsAndValues(t *testing.T) {
	st := &fakeStore{
		readings: []db.Reading{{ID: 1, AssetCode: "a/b"}},
		values:   []db.ReadingValue{{Value: []byte(`1`)}},
	}
	s := newService(st, &fakeAuditor{})
	rs, err := s.Readings(t.Context(), "a/b", Query{Limit: ptr(5)})
	if err != nil || !reflect.DeepEqual(rs, st.readings) || st.gotCode != "a/b" || st.gotWindow != (db.Window{Limit: 5}) {
		t.Errorf("Readings = %v, %v; store got %q %+v", rs, err, st.gotCode, st.gotWindow)
	}
	vs, err := s.Values(t.Context(), "50%", "temp.c", Query{Seconds: ptr(10)})
	wantW := db.Window{From: now.Truncate(time.Microsecond).Add(-10 * time.Second)}
	if err != nil || !reflect.DeepEqual(vs, st.values) || st.gotCode != "50%" || st.gotKey != "temp.c" || st.gotWindow != wantW {
		t.Errorf("Values = %v, %v; store got %q %q %+v", vs, err, st.gotCode, st.gotKey, st.gotWindow)
	}

	t.Run("timestamp key", func(t *testing.T) {
		_, err := s.Values(t.Context(), "pump", "timestamp", Query{})
		wantFault(t, err, fault.Invalid, "timestamp")
	})
	t.Run("storage error is not a fault", func(t *testing.T) {
		st.err = errors.New("disk on fire")
		_, err := s.Readings(t.Context(), "pump", Query{})
		if _, ok := fault.As(err); ok || err == nil {
			t.Errorf("Readings with a failing store = %v, want a plain error (a 500)", err)
		}
		st.err = nil
	})
}

func TestSummary(t *testing.T) {
	cases := []struct {
		name      string
		store     *fakeStore
		want      db.Summary
		wantKind  *fault.Kind
		wantWords []string
	}{
		{name: "numbers", store: &fakeStore{summary: db.Summary{Min: -1, Max: 1, Average: 0.5, Count: 3}},
			want: db.Summary{Min: -1, Max: 1, Average: 0.5, Count: 3}},
		{name: "unknown asset", store: &fakeStore{err: db.ErrNotFound},
			wantKind: fault.NotFound, wantWords: []string{`"pump"`, "no buffered readings"}},
		{name: "no numeric values", store: &fakeStore{err: db.ErrNotFound, timespans: map[string]db.Timespan{"pump": {AssetCode: "pump"}}},
			wantKind: fault.NotFound, wantWords: []string{`"v"`, `"pump"`, "no numeric values"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := newService(c.store, &fakeAuditor{}).Summary(t.Context(), "pump", "v")
			if c.wantKind != nil {
				wantFault(t, err, c.wantKind, c.wantWords...)
				return
			}
			if err != nil || got != c.want {
				t.Errorf("Summary = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}

func TestSummaries(t *testing.T) {
	two := []db.DatapointSummary{
		{Datapoint: "a", Summary: db.Summary{Min: 1, Max: 2, Average: 1.5, Count: 2}},
		{Datapoint: "b", Summary: db.Summary{Min: -1, Max: -1, Average: -1, Count: 1}},
	}
	pump := map[string]db.Timespan{"pump": {AssetCode: "pump"}}
	cases := []struct {
		name      string
		store     *fakeStore
		want      map[string]db.Summary
		wantKind  *fault.Kind
		wantWords []string
	}{
		{name: "every numeric datapoint", store: &fakeStore{summaries: two, timespans: pump},
			want: map[string]db.Summary{"a": {Min: 1, Max: 2, Average: 1.5, Count: 2}, "b": {Min: -1, Max: -1, Average: -1, Count: 1}}},
		{name: "readings without numbers", store: &fakeStore{summaries: []db.DatapointSummary{}, timespans: pump},
			want: map[string]db.Summary{}},
		{name: "unknown asset", store: &fakeStore{summaries: []db.DatapointSummary{}},
			wantKind: fault.NotFound, wantWords: []string{`"pump"`, "no buffered readings"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := newService(c.store, &fakeAuditor{}).Summaries(t.Context(), "pump")
			if c.wantKind != nil {
				wantFault(t, err, c.wantKind, c.wantWords...)
				return
			}
			if err != nil || !maps.Equal(got, c.want) || c.store.gotCode != "pump" {
				t.Errorf("Summaries = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
	t.Run("storage failure", func(t *testing.T) {
		_, err := newService(&fakeStore{timespans: pump, err: errors.New("disk gone")}, &fakeAuditor{}).Summaries(t.Context(), "pump")
		if err == nil || errors.Is(err, fault.NotFound) {
			t.Errorf("Summaries = %v, want the storage error", err)
		}
	})
}

func TestSeries(t *testing.T) {
	cases := []struct {
		name   string
		group  string
		q      Query
		bucket db.Bucket
		window db.Window
	}{
		{name: "default group and limit", group: "", bucket: db.BucketSecond, window: db.Window{Limit: 20}},
		{name: "seconds", group: "seconds", q: Query{Limit: ptr(3), Skip: ptr(2)}, bucket: db.BucketSecond, window: db.Window{Limit: 3, Skip: 2}},
		{name: "minutes", group: "minutes", bucket: db.BucketMinute, window: db.Window{Limit: 20}},
		{name: "hours in a window", group: "hours", q: Query{Hours: ptr(6)}, bucket: db.BucketHour,
			window: db.Window{From: now.Truncate(time.Microsecond).Add(-6 * time.Hour)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &fakeStore{series: []db.SeriesPoint{{Count: 1}}}
			got, err := newService(st, &fakeAuditor{}).Series(t.Context(), "pump", "v", c.group, c.q)
			if err != nil || len(got) != 1 || st.gotBucket != c.bucket || st.gotWindow != c.window {
				t.Errorf("Series = %v, %v; store got bucket %v window %+v; want %v %+v", got, err, st.gotBucket, st.gotWindow, c.bucket, c.window)
			}
		})
	}
	t.Run("unknown group", func(t *testing.T) {
		_, err := newService(&fakeStore{}, &fakeAuditor{}).Series(t.Context(), "pump", "v", "days", Query{})
		wantFault(t, err, fault.Invalid, "group", "days")
	})
}

func TestTimespan(t *testing.T) {
	st := &fakeStore{timespans: map[string]db.Timespan{"a/b": {AssetCode: "a/b", Oldest: now, Newest: now}}}
	s := newService(st, &fakeAuditor{})
	if ts, err := s.Timespan(t.Context(), "a/b"); err != nil || ts.AssetCode != "a/b" {
		t.Errorf("Timespan(a/b) = %+v, %v", ts, err)
	}
	_, err := s.Timespan(t.Context(), "50%")
	wantFault(t, err, fault.NotFound, `"50%"`)
	all, err := s.Timespans(t.Context())
	if err != nil || len(all) != 1 {
		t.Errorf("Timespans = %v, %v", all, err)
	}
}

func TestPurge(t *testing.T) {
	left := []db.AssetCount{{AssetCode: "x", Count: 4}, {AssetCode: "y", Count: 3}}
	cases := []struct {
		name        string
		all         bool
		purged      int64
		err         error
		wantDetails map[string]any
		wantAdded   []map[string]int64
		wantErr     bool
	}{
		{name: "asset", purged: 12, wantDetails: map[string]any{"asset": "a/b", "rowsRemoved": int64(12), "rowsRetained": int64(7)},
			wantAdded: []map[string]int64{{stats.Purged: 12, stats.Buffered: -12}}},
		{name: "unknown asset audits and adds nothing", purged: 0,
			wantDetails: map[string]any{"asset": "a/b", "rowsRemoved": int64(0), "rowsRetained": int64(7)}},
		{name: "all", all: true, purged: 30, wantDetails: map[string]any{"rowsRemoved": int64(30), "rowsRetained": int64(7)},
			wantAdded: []map[string]int64{{stats.Purged: 30, stats.Buffered: -30}}},
		{name: "failure part way still records what went", purged: 5, err: errors.New("lost connection"), wantErr: true,
			wantDetails: map[string]any{"asset": "a/b", "rowsRemoved": int64(5), "rowsRetained": int64(7)},
			wantAdded:   []map[string]int64{{stats.Purged: 5, stats.Buffered: -5}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := &fakeStore{purged: c.purged, purgeErr: c.err, assets: left}
			au := &fakeAuditor{}
			s := newService(st, au)
			var n int64
			var err error
			if c.all {
				n, err = s.PurgeAll(t.Context())
			} else {
				n, err = s.Purge(t.Context(), "a/b")
			}
			if (err != nil) != c.wantErr || n != c.purged {
				t.Errorf("purge = %d, %v; want %d, error %v", n, err, c.purged, c.wantErr)
			}
			if len(au.entries) != 1 || au.entries[0].source != "PURGE" || au.entries[0].severity != "INFORMATION" ||
				!reflect.DeepEqual(au.entries[0].details, c.wantDetails) {
				t.Errorf("audit = %+v, want one PURGE INFORMATION entry with %v", au.entries, c.wantDetails)
			}
			if !reflect.DeepEqual(st.added, c.wantAdded) {
				t.Errorf("statistics added %v, want %v", st.added, c.wantAdded)
			}
		})
	}
	t.Run("audit and statistics failures do not fail the purge", func(t *testing.T) {
		st := &fakeStore{purged: 3, addErr: errors.New("stats down")}
		n, err := newService(st, &fakeAuditor{err: errors.New("audit down")}).Purge(t.Context(), "a")
		if err != nil || n != 3 {
			t.Errorf("Purge = %d, %v; want 3, nil", n, err)
		}
	})
}

// TestUnknownAsset checks that every list read of one asset answers an
// asset without buffered readings with a fault.NotFound naming it, and an
// empty answer for a known asset (an empty window, an unknown key) with an
// empty list.
func TestUnknownAsset(t *testing.T) {
	reads := []struct {
		name string
		read func(s *Service) (int, error)
	}{
		{name: "readings", read: func(s *Service) (int, error) {
			rs, err := s.Readings(t.Context(), "pump", Query{Seconds: ptr(60)})
			return len(rs), err
		}},
		{name: "values", read: func(s *Service) (int, error) {
			vs, err := s.Values(t.Context(), "pump", "v", Query{})
			return len(vs), err
		}},
		{name: "series", read: func(s *Service) (int, error) {
			ps, err := s.Series(t.Context(), "pump", "v", "minutes", Query{})
			return len(ps), err
		}},
	}
	for _, r := range reads {
		t.Run(r.name+" of an unknown asset", func(t *testing.T) {
			_, err := r.read(newService(&fakeStore{}, &fakeAuditor{}))
			wantFault(t, err, fault.NotFound, `"pump"`, "no buffered readings")
		})
		t.Run(r.name+" of a known asset, nothing found", func(t *testing.T) {
			st := &fakeStore{timespans: map[string]db.Timespan{"pump": {AssetCode: "pump"}}}
			n, err := r.read(newService(st, &fakeAuditor{}))
			if err != nil || n != 0 {
				t.Errorf("= %d entries, %v; want none and no error", n, err)
			}
		})
		t.Run(r.name+" found: no extra look-up", func(t *testing.T) {
			st := &fakeStore{
				readings: []db.Reading{{ID: 1}}, values: []db.ReadingValue{{Value: []byte(`1`)}},
				series: []db.SeriesPoint{{Count: 1}},
			}
			n, err := r.read(newService(st, &fakeAuditor{}))
			if err != nil || n != 1 || slices.Contains(st.calls, "AssetTimespan") {
				t.Errorf("= %d entries, %v, store calls %v; want one entry and no AssetTimespan", n, err, st.calls)
			}
		})
	}
}
