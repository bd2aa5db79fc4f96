package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/edged/edged/pluginsdk/go/edgeplugin"
	"github.com/edged/edged/pluginsdk/go/plugintest"
)

func TestScales(t *testing.T) {
	h := plugintest.New(t, edgeplugin.Plugin{Info: Info(), Filter: &Scale{}})
	if err := h.Start(h.Config(edgeplugin.Config{"factor": "2", "offset": "1"}), json.RawMessage(`{"scaled":5}`)); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC)
	in := []edgeplugin.Reading{{Asset: "a/b", Timestamp: ts, Values: json.RawMessage(`{"t":20.5,"s":"on"}`)}}
	out, err := h.Client.Ingest(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Asset != "a/b" || !out[0].Timestamp.Equal(ts) || string(out[0].Values) != `{"s":"on","t":42}` {
		t.Errorf("out = %+v", out)
	}
	if st := h.State(); string(st) != `{"scaled":6}` {
		t.Errorf("state = %s", st)
	}
	if err := h.Client.Reconfigure(t.Context(), edgeplugin.Config{"factor": "x", "offset": "0"}); err == nil {
		t.Error("Reconfigure with a bad factor = nil")
	}
}
