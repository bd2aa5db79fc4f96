package httpsouth

import (
	"context"
	"testing"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/internal/plugin/plugintest"
)

func TestCheck(t *testing.T) {
	if !Definition().Checks {
		t.Fatal("the definition does not declare the health check")
	}
	p := newPlugin(t, config(freePort(t), "sensor-reading", ""))
	var _ plugin.Checker = p
	if err := p.Check(t.Context()); err == nil {
		t.Error("Check before Open = nil, want an error")
	}
	if err := p.Open(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- p.Run(ctx, plugintest.NewSink(10)) }()
	if err := p.Check(t.Context()); err != nil {
		t.Errorf("Check while serving = %v", err)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := p.Check(t.Context()); err == nil {
		t.Error("Check after the server stopped = nil, want an error")
	}
}
