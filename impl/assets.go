package impl

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/asset"
)

// ListAssets lists every asset with buffered readings and its count, sorted
// by code.
func (s *Server) ListAssets(ctx context.Context, _ gen.ListAssetsRequestObject) (gen.ListAssetsResponseObject, error) {
	as, err := s.assets.Assets(ctx)
	if err != nil {
		return nil, err
	}
	out := make(gen.ListAssets200JSONResponse, 0, len(as))
	for _, a := range as {
		out = append(out, gen.AssetCount{AssetCode: a.AssetCode, Count: a.Count})
	}
	return out, nil
}

// ListAssetTimespans lists the oldest and newest reading time of every
// asset, sorted by code.
func (s *Server) ListAssetTimespans(ctx context.Context, _ gen.ListAssetTimespansRequestObject) (gen.ListAssetTimespansResponseObject, error) {
	ts, err := s.assets.Timespans(ctx)
	if err != nil {
		return nil, err
	}
	out := make(gen.ListAssetTimespans200JSONResponse, 0, len(ts))
	for _, t := range ts {
		out = append(out, gen.AssetTimespanEntry{AssetCode: t.AssetCode, Oldest: readingTime(t.Oldest), Newest: readingTime(t.Newest)})
	}
	return out, nil
}

// GetAssetTimespan returns the oldest and newest reading time of one asset.
func (s *Server) GetAssetTimespan(ctx context.Context, req gen.GetAssetTimespanRequestObject) (gen.GetAssetTimespanResponseObject, error) {
	t, err := s.assets.Timespan(ctx, req.Code)
	if err != nil {
		return nil, err
	}
	return gen.GetAssetTimespan200JSONResponse{Oldest: readingTime(t.Oldest), Newest: readingTime(t.Newest)}, nil
}

// GetAssetReadings returns an asset's readings newest first, by page or
// time window.
func (s *Server) GetAssetReadings(ctx context.Context, req gen.GetAssetReadingsRequestObject) (gen.GetAssetReadingsResponseObject, error) {
	p := req.Params
	rs, err := s.assets.Readings(ctx, req.Code, asset.Query{
		Limit: p.Limit, Skip: p.Skip, Seconds: p.Seconds, Minutes: p.Minutes, Hours: p.Hours, Previous: p.Previous,
	})
	if err != nil {
		return nil, err
	}
	out := make(gen.GetAssetReadings200JSONResponse, 0, len(rs))
	for _, r := range rs {
		doc, err := readingObject(r.Reading)
		if err != nil {
			return nil, fmt.Errorf("reading %d of asset %q: %w", r.ID, r.AssetCode, err)
		}
		out = append(out, gen.Reading{Timestamp: readingTime(r.UserTS), Reading: doc})
	}
	return out, nil
}

// GetAssetReadingValues returns the values of one reading key, newest
// first, by page or time window.
func (s *Server) GetAssetReadingValues(ctx context.Context, req gen.GetAssetReadingValuesRequestObject) (gen.GetAssetReadingValuesResponseObject, error) {
	p := req.Params
	vs, err := s.assets.Values(ctx, req.Code, req.Reading, asset.Query{
		Limit: p.Limit, Skip: p.Skip, Seconds: p.Seconds, Minutes: p.Minutes, Hours: p.Hours, Previous: p.Previous,
	})
	if err != nil {
		return nil, err
	}
	out := make(gen.GetAssetReadingValues200JSONResponse, 0, len(vs))
	for _, v := range vs {
		out = append(out, gen.ReadingValue{
			Timestamp:            readingTime(v.UserTS),
			AdditionalProperties: map[string]any{req.Reading: v.Value},
		})
	}
	return out, nil
}

// GetAssetReadingSummary returns minimum, maximum and average of the
// numeric values of one reading key.
func (s *Server) GetAssetReadingSummary(ctx context.Context, req gen.GetAssetReadingSummaryRequestObject) (gen.GetAssetReadingSummaryResponseObject, error) {
	sum, err := s.assets.Summary(ctx, req.Code, req.Reading)
	if err != nil {
		return nil, err
	}
	return gen.GetAssetReadingSummary200JSONResponse{
		req.Reading: gen.SummaryValues{Min: sum.Min, Max: sum.Max, Average: sum.Average},
	}, nil
}

// GetAssetSummary returns minimum, maximum and average of every reading key
// of an asset that has numeric values.
func (s *Server) GetAssetSummary(ctx context.Context, req gen.GetAssetSummaryRequestObject) (gen.GetAssetSummaryResponseObject, error) {
	sums, err := s.assets.Summaries(ctx, req.Code)
	if err != nil {
		return nil, err
	}
	out := make(gen.GetAssetSummary200JSONResponse, len(sums))
	for key, sum := range sums {
		out[key] = gen.SummaryValues{Min: sum.Min, Max: sum.Max, Average: sum.Average}
	}
	return out, nil
}

// GetAssetReadingSeries returns minimum, maximum and average of one
// reading key per second, minute or hour, newest first.
func (s *Server) GetAssetReadingSeries(ctx context.Context, req gen.GetAssetReadingSeriesRequestObject) (gen.GetAssetReadingSeriesResponseObject, error) {
	p := req.Params
	group := ""
	if p.Group != nil {
		group = string(*p.Group)
	}
	ps, err := s.assets.Series(ctx, req.Code, req.Reading, group, asset.Query{
		Limit: p.Limit, Skip: p.Skip, Seconds: p.Seconds, Minutes: p.Minutes, Hours: p.Hours, Previous: p.Previous,
	})
	if err != nil {
		return nil, err
	}
	out := make(gen.GetAssetReadingSeries200JSONResponse, 0, len(ps))
	for _, pt := range ps {
		out = append(out, gen.SeriesEntry{Timestamp: readingTime(pt.Start), Min: pt.Min, Max: pt.Max, Average: pt.Average})
	}
	return out, nil
}

// PurgeAllReadings removes the buffered readings of every asset.
func (s *Server) PurgeAllReadings(ctx context.Context, _ gen.PurgeAllReadingsRequestObject) (gen.PurgeAllReadingsResponseObject, error) {
	n, err := s.assets.PurgeAll(ctx)
	if err != nil {
		return nil, err
	}
	return gen.PurgeAllReadings200JSONResponse{Purged: int64(n)}, nil
}

// PurgeAssetReadings removes the buffered readings of one asset.
func (s *Server) PurgeAssetReadings(ctx context.Context, req gen.PurgeAssetReadingsRequestObject) (gen.PurgeAssetReadingsResponseObject, error) {
	n, err := s.assets.Purge(ctx, req.Code)
	if err != nil {
		return nil, err
	}
	return gen.PurgeAssetReadings200JSONResponse{Purged: int64(n)}, nil
}

// readingTime formats a reading's time for the wire.
func readingTime(t time.Time) string { return t.UTC().Format(readingTimeLayout) }

// readingObject returns a stored reading document as the wire's object: its
// top-level members stay raw JSON, so numbers keep every digit and nothing
// is decoded further than needed.
func readingObject(doc json.RawMessage) (map[string]any, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(doc, &members); err != nil {
		return nil, fmt.Errorf("stored reading is not a JSON object: %w", err)
	}
	out := make(map[string]any, len(members))
	for k, v := range members {
		out[k] = v
	}
	return out, nil
}
