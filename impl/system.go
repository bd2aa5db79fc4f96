package impl

import (
	"context"
	"errors"
	"fmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/configmgr"
	"github.com/edged/edged/internal/stats"
	"github.com/edged/edged/internal/system"
)

// Ping reports liveness, counters and the instance's identity. It reads
// the instance name and description and the authentication mode from
// configuration each time, so changes show at once.
func (s *Server) Ping(ctx context.Context, _ gen.PingRequestObject) (gen.PingResponseObject, error) {
	// The core answers this call, so it runs; storage runs if it answers.
	statuses := []string{system.StatusRunning, system.StatusRunning}
	if err := s.store.Ping(ctx); err != nil {
		s.log.WarnContext(ctx, "storage does not answer", "error", err)
		statuses[1] = system.StatusFailed
	}
	if s.services != nil { // the statuses of the started services
		statuses = append(statuses, s.services.Statuses()...)
	}
	read, err := s.counter(ctx, stats.Readings)
	if err != nil {
		return nil, err
	}
	purged, err := s.counter(ctx, stats.Purged)
	if err != nil {
		return nil, err
	}
	sent, err := s.store.NorthSentTotal(ctx)
	if err != nil {
		return nil, fmt.Errorf("ping: readings sent: %w", err)
	}
	instance, err := s.config.Category(ctx, configmgr.CategoryService)
	if err != nil {
		return nil, fmt.Errorf("ping: instance name: %w", err)
	}
	mode, err := s.config.Value(ctx, configmgr.CategoryRESTAPI, configmgr.ItemAuthentication)
	if err != nil {
		return nil, fmt.Errorf("ping: authentication mode: %w", err)
	}
	return gen.Ping200JSONResponse{
		Uptime:                 float32(s.instance.Uptime(s.now())),
		DataRead:               int(read),
		DataSent:               int(sent),
		DataPurged:             int(purged),
		AuthenticationOptional: mode != configmgr.AuthenticationMandatory,
		ServiceName:            instance.Items[configmgr.ItemServiceName].Value,
		ServiceDescription:     instance.Items[configmgr.ItemServiceDescription].Value,
		HostName:               system.HostName(),
		IpAddresses:            system.IPAddresses(),
		Health:                 gen.PingHealth(system.Health(statuses)),
		SafeMode:               s.instance.SafeMode,
		Version:                s.instance.Version,
	}, nil
}

// counter returns a statistic's value; a counter not created yet is 0.
func (s *Server) counter(ctx context.Context, key string) (int64, error) {
	st, err := s.store.GetStatistic(ctx, key)
	if errors.Is(err, db.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read statistic %s: %w", key, err)
	}
	return st.Value, nil
}
