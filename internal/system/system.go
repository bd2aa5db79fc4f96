// Package system knows the facts about the running gateway that ping
// reports: how long it has run, where it runs, and how healthy its
// services are.
package system

import (
	"net"
	"os"
	"slices"
	"time"
)

// Health values reported by ping.
const (
	Green = "green" // every service is running or deliberately shut down
	Amber = "amber" // at least one service is unresponsive
	Red   = "red"   // at least one service has failed
)

// Service statuses, as the API reports them.
const (
	StatusRunning      = "running"
	StatusShutdown     = "shutdown"
	StatusUnresponsive = "unresponsive"
	StatusFailed       = "failed"
)

// Health returns red if any status is failed, amber if any is unresponsive,
// and green otherwise.
func Health(statuses []string) string {
	switch {
	case slices.Contains(statuses, StatusFailed):
		return Red
	case slices.Contains(statuses, StatusUnresponsive):
		return Amber
	default:
		return Green
	}
}

// Instance describes one run of the gateway. It is immutable after start.
type Instance struct {
	Started  time.Time
	Version  string
	SafeMode bool
}

// Uptime returns the seconds since the instance started, as of now.
func (i Instance) Uptime(now time.Time) float64 {
	return now.Sub(i.Started).Seconds()
}

// HostName returns the host's name, or "" when the OS will not tell.
func HostName() string {
	name, err := os.Hostname()
	if err != nil {
		return ""
	}
	return name
}

// IPAddresses returns the host's unicast IPv4 and IPv6 addresses, without
// loopback and link-local ones unless the host has nothing else.
func IPAddresses() []string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return []string{}
	}
	var global, local []string
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok {
			continue
		}
		ip := ipnet.IP
		switch {
		case ip.IsLoopback(), ip.IsLinkLocalUnicast():
			local = append(local, ip.String())
		case ip.IsGlobalUnicast():
			global = append(global, ip.String())
		}
	}
	if len(global) > 0 {
		return global
	}
	if local == nil {
		return []string{}
	}
	return local
}
