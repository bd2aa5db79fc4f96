package impl

import (
	"context"
	"fmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
)

// ListTrackingEvents (GET /edge/track) returns the asset tracking events,
// optionally filtered.
func (s *Server) ListTrackingEvents(ctx context.Context, req gen.ListTrackingEventsRequestObject) (gen.ListTrackingEventsResponseObject, error) {
	f := db.TrackingFilter{Asset: valueOr(req.Params.Asset, ""), Service: valueOr(req.Params.Service, "")}
	if req.Params.Event != nil {
		f.Event = string(*req.Params.Event)
	}
	events, err := s.services.TrackingEvents(ctx, f)
	if err != nil {
		return nil, err
	}
	out := gen.ListTrackingEvents200JSONResponse{Track: make([]gen.TrackingEvent, 0, len(events))}
	for _, e := range events {
		w := gen.TrackingEvent{Asset: e.Asset, Event: gen.TrackingEventType(e.Event), Service: e.Service, Edge: e.Edge,
			Plugin: e.Plugin, Timestamp: e.TS.UTC().Format(readingTimeLayout)}
		if !e.DeprecatedTS.IsZero() {
			w.DeprecatedTimestamp = e.DeprecatedTS.UTC().Format(readingTimeLayout)
		}
		out.Track = append(out.Track, w)
	}
	return out, nil
}

// DeprecateTrackingEvent (PUT /edge/track/service/{service_name}/asset/
// {asset_name}/event/{event_name}) deprecates one tracking event.
func (s *Server) DeprecateTrackingEvent(ctx context.Context, req gen.DeprecateTrackingEventRequestObject) (gen.DeprecateTrackingEventResponseObject, error) {
	if err := s.services.DeprecateTrackingEvent(ctx, req.ServiceName, req.AssetName, string(req.EventName)); err != nil {
		return nil, err
	}
	return gen.DeprecateTrackingEvent200JSONResponse{Message: fmt.Sprintf("Asset %s event %s of service %s deprecated",
		req.AssetName, req.EventName, req.ServiceName)}, nil
}
