package impl

import (
	"context"

	"github.com/edged/edged/gen"
)

// ListStatistics (GET /edge/statistics) returns every counter sorted by
// key, including the readings ingested up to the call (the service
// runtime's in-memory counters are flushed first).
func (s *Server) ListStatistics(ctx context.Context, _ gen.ListStatisticsRequestObject) (gen.ListStatisticsResponseObject, error) {
	list, err := s.services.Statistics(ctx)
	if err != nil {
		return nil, err
	}
	out := make(gen.ListStatistics200JSONResponse, 0, len(list))
	for _, st := range list {
		out = append(out, gen.Statistic{Key: st.Key, Description: st.Description, Value: st.Value})
	}
	return out, nil
}
