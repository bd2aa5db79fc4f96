package impl

import (
	"context"
	"fmt"

	"github.com/edged/edged/gen"
)

// ListSetAsideReadings (GET /edge/north/{north_name}/setaside) returns one
// page of the readings a north service or task set aside.
func (s *Server) ListSetAsideReadings(ctx context.Context, req gen.ListSetAsideReadingsRequestObject) (gen.ListSetAsideReadingsResponseObject, error) {
	rs, total, err := s.north.SetAside(ctx, req.NorthName, valueOr(req.Params.Limit, defaultLimit), valueOr(req.Params.Skip, defaultSkip))
	if err != nil {
		return nil, err
	}
	out := gen.ListSetAsideReadings200JSONResponse{Total: int64(total), Readings: make([]gen.SetAsideReading, 0, len(rs))}
	for _, r := range rs {
		doc, err := readingObject(r.Reading)
		if err != nil {
			return nil, fmt.Errorf("set-aside reading %d of %q: %w", r.ID, r.Name, err)
		}
		out.Readings = append(out.Readings, gen.SetAsideReading{Id: r.ID, ReadingId: r.ReadingID, Asset: r.AssetCode,
			Timestamp: readingTime(r.UserTS), Reading: doc, Reason: r.Reason,
			SetAside: r.SetAt.UTC().Format(eventTimeLayout), Resend: r.Resend})
	}
	return out, nil
}

// ResendSetAsideReadings (PUT /edge/north/{north_name}/setaside/resend)
// marks set-aside readings to be sent again.
func (s *Server) ResendSetAsideReadings(ctx context.Context, req gen.ResendSetAsideReadingsRequestObject) (gen.ResendSetAsideReadingsResponseObject, error) {
	var ids []int64
	if req.Body != nil && req.Body.Ids != nil {
		ids = *req.Body.Ids
	}
	n, err := s.north.Resend(ctx, req.NorthName, ids)
	if err != nil {
		return nil, err
	}
	return gen.ResendSetAsideReadings200JSONResponse{Count: n,
		Message: fmt.Sprintf("%d set-aside readings of %s will be sent again", n, req.NorthName)}, nil
}

// DeleteSetAsideReadings (DELETE /edge/north/{north_name}/setaside)
// removes set-aside readings.
func (s *Server) DeleteSetAsideReadings(ctx context.Context, req gen.DeleteSetAsideReadingsRequestObject) (gen.DeleteSetAsideReadingsResponseObject, error) {
	var ids []int64
	if req.Params.Id != nil {
		ids = *req.Params.Id
	}
	n, err := s.north.DeleteSetAside(ctx, req.NorthName, ids)
	if err != nil {
		return nil, err
	}
	return gen.DeleteSetAsideReadings200JSONResponse{Count: n,
		Message: fmt.Sprintf("%d set-aside readings of %s deleted", n, req.NorthName)}, nil
}
