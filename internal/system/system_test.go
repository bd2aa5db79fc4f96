package system

import (
	"net"
	"testing"
	"time"
)

func TestHealth(t *testing.T) {
	tests := []struct {
		name     string
		statuses []string
		want     string
	}{
		{name: "no services", statuses: nil, want: Green},
		{name: "all running", statuses: []string{StatusRunning, StatusRunning}, want: Green},
		{name: "shut down is healthy", statuses: []string{StatusRunning, StatusShutdown}, want: Green},
		{name: "unresponsive", statuses: []string{StatusRunning, StatusUnresponsive}, want: Amber},
		{name: "failed wins over unresponsive", statuses: []string{StatusUnresponsive, StatusFailed}, want: Red},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Health(tc.statuses); got != tc.want {
				t.Fatalf("Health(%v) = %s, want %s", tc.statuses, got, tc.want)
			}
		})
	}
}

func TestUptime(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	i := Instance{Started: start}
	if got := i.Uptime(start.Add(90 * time.Second)); got != 90 {
		t.Fatalf("Uptime = %v, want 90", got)
	}
}

func TestIPAddressesAreAddresses(t *testing.T) {
	for _, a := range IPAddresses() {
		if net.ParseIP(a) == nil {
			t.Errorf("%q is not an IP address", a)
		}
	}
}
