package dispatch

import (
	"strings"
	"testing"
	"time"
)

func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		cfg     map[string]string
		timeout time.Duration
		queue   int
		bad     string // the item an error names
	}{
		{name: "defaults", cfg: nil, timeout: DefaultTimeout, queue: DefaultQueueLength},
		{name: "set", cfg: map[string]string{ItemTimeout: "5", ItemQueueLength: "2"}, timeout: 5 * time.Second, queue: 2},
		{name: "timeout not a number", cfg: map[string]string{ItemTimeout: "5s"}, bad: ItemTimeout},
		{name: "timeout zero", cfg: map[string]string{ItemTimeout: "0"}, bad: ItemTimeout},
		{name: "queue zero", cfg: map[string]string{ItemQueueLength: "0"}, bad: ItemQueueLength},
		{name: "queue huge", cfg: map[string]string{ItemQueueLength: "1000000"}, bad: ItemQueueLength},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			timeout, queue, err := Limits(tt.cfg)
			if tt.bad != "" {
				if err == nil || !strings.Contains(err.Error(), tt.bad) {
					t.Errorf("Limits = %v, want an error naming %s", err, tt.bad)
				}
				return
			}
			if err != nil || timeout != tt.timeout || queue != tt.queue {
				t.Errorf("Limits = %v, %d, %v; want %v, %d", timeout, queue, err, tt.timeout, tt.queue)
			}
		})
	}
}
