package impl

import (
	"context"
	"strconv"

	"github.com/edged/edged/gen"
)

// GetStatisticsHistory returns the collection interval and the newest
// history entries, newest first.
func (s *Server) GetStatisticsHistory(ctx context.Context, req gen.GetStatisticsHistoryRequestObject) (gen.GetStatisticsHistoryResponseObject, error) {
	interval, snaps, err := s.history.Entries(ctx, valueOr(req.Params.Limit, defaultLimit))
	if err != nil {
		return nil, err
	}
	out := gen.GetStatisticsHistory200JSONResponse{Interval: interval, Statistics: make([]gen.HistoryEntry, 0, len(snaps))}
	for _, sn := range snaps {
		e := gen.HistoryEntry{HistoryTs: sn.TS.UTC().Format(eventTimeLayout), AdditionalProperties: make(map[string]int64, len(sn.Deltas))}
		for k, v := range sn.Deltas {
			e.AdditionalProperties[k] = v
		}
		out.Statistics = append(out.Statistics, e)
	}
	return out, nil
}

// GetStatisticsRate returns, per statistic and period, the rate in counts
// per minute.
func (s *Server) GetStatisticsRate(ctx context.Context, req gen.GetStatisticsRateRequestObject) (gen.GetStatisticsRateResponseObject, error) {
	rates, err := s.history.Rates(ctx, req.Params.Statistics, req.Params.Periods)
	if err != nil {
		return nil, err
	}
	out := gen.GetStatisticsRate200JSONResponse{Rates: make(map[string]map[string]float32, len(rates))}
	for k, byPeriod := range rates {
		m := make(map[string]float32, len(byPeriod))
		for p, r := range byPeriod {
			m[strconv.Itoa(p)] = float32(r)
		}
		out.Rates[k] = m
	}
	return out, nil
}
