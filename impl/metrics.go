package impl

import (
	"context"
	"net/http"

	"github.com/edged/edged/gen"
)

// Exposer renders the Prometheus metrics; *metrics.Metrics implements it.
type Exposer interface {
	// Expose returns the metrics in the Prometheus text format.
	Expose(ctx context.Context) ([]byte, error)
}

// metricsContentType is the media type of the Prometheus text format
// (version 0.0.4) that Expose writes.
const metricsContentType = "text/plain; version=0.0.4; charset=utf-8"

// GetMetrics (GET /edge/metrics) answers the Prometheus metrics.
func (s *Server) GetMetrics(ctx context.Context, _ gen.GetMetricsRequestObject) (gen.GetMetricsResponseObject, error) {
	if s.metrics == nil {
		return nil, notImplemented("getMetrics")
	}
	body, err := s.metrics.Expose(ctx)
	if err != nil {
		return nil, err
	}
	return metricsResponse(body), nil
}

// metricsResponse is the exposition, sent with the version parameter
// Prometheus reads the format by (the generated text response would say
// only text/plain).
type metricsResponse []byte

func (m metricsResponse) VisitGetMetricsResponse(w http.ResponseWriter) error {
	w.Header().Set("Content-Type", metricsContentType)
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(m)
	return err
}
