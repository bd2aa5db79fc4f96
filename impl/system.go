package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/system"
)

// Ping reports liveness, counters and the instance's identity, all from
// memory (decisions: ping never waits on storage): the statistics' totals
// the counters keep, what north sent as the north runtime counts it, the
// instance name and description and authentication mode as their
// configuration listeners last saw them, the host's cached facts, and the
// health of storage and of the services. Storage that is unavailable makes
// health red, like a failed service; an unresponsive service amber.
func (s *Server) Ping(_ context.Context, _ gen.PingRequestObject) (gen.PingResponseObject, error) {
	// The core answers this call, so it runs; storage runs while its
	// last calls succeeded.
	statuses := []string{system.StatusRunning, system.StatusRunning}
	if !s.store.Health().Available {
		statuses[1] = system.StatusFailed
	}
	if s.services != nil { // the statuses of the started services
		statuses = append(statuses, s.services.Statuses()...)
	}
	var sent int64
	if s.north != nil {
		sent = s.north.SentTotal()
	}
	host, addresses := s.host.Facts()
	return gen.Ping200JSONResponse{
		Uptime:                 float32(s.instance.Uptime(s.now())),
		DataRead:               s.totals.Total(stats.Readings),
		DataSent:               sent,
		DataPurged:             s.totals.Total(stats.Purged),
		AuthenticationOptional: !s.authMode.Settings().Mandatory,
		ServiceName:            s.name.Value(),
		ServiceDescription:     s.desc.Value(),
		HostName:               host,
		IpAddresses:            addresses,
		Health:                 gen.PingHealth(system.Health(statuses)),
		SafeMode:               s.instance.SafeMode,
		Version:                s.instance.Version,
	}, nil
}
