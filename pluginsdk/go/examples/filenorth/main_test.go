package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
	"github.com/edged/edged/pluginsdk/go/plugintest"
)

func TestAppendsUntilFull(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.jsonl")
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), North: &File{}})
	if h.Info.Kind != edgeplugin.KindNorth {
		t.Fatalf("info = %+v", h.Info)
	}
	if err := h.Start(h.Config(edgeplugin.Config{"file": path, "maxBytes": "150"}), nil); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var rs []edgeplugin.Reading
	for i := range 3 {
		r, err := edgeplugin.NewReading("a", ts, map[string]any{"v": i})
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	n, err := h.Client.Send(t.Context(), rs)
	if n != 2 || err == nil || !strings.Contains(err.Error(), "full") {
		t.Errorf("Send = %d, %v; want 2 accepted and the file full", n, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"asset":"a","timestamp":"2026-01-01T00:00:00Z","readings":{"v":0}}` + "\n" +
		`{"asset":"a","timestamp":"2026-01-01T00:00:00Z","readings":{"v":1}}` + "\n"
	if string(b) != want {
		t.Errorf("file = %q, want %q", b, want)
	}
	if err := h.Client.Reconfigure(t.Context(), edgeplugin.Config{"file": path, "maxBytes": "0"}); err == nil {
		t.Error("Reconfigure with maxBytes 0 = nil")
	}
}
