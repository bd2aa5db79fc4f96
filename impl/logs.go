package impl

import (
	"context"
	"time"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/logging"
	"github.com/edged/edged/internal/plugin"
)

// ListLogEntries returns the gateway's log lines newest first, filtered and
// paged, with the count of all lines matching the filters.
func (s *Server) ListLogEntries(_ context.Context, req gen.ListLogEntriesRequestObject) (gen.ListLogEntriesResponseObject, error) {
	p := req.Params
	q := logging.Query{
		Source: valueOr(p.Source, ""),
		Level:  logging.AllLevels,
		Limit:  valueOr(p.Limit, defaultLimit),
		Skip:   valueOr(p.Skip, defaultSkip),
	}
	if p.Level != nil {
		l, err := logging.ParseLevel(string(*p.Level))
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "Query parameter level must be one of debug, info, warning, error")
		}
		q.Level = l
	}
	var err error
	if q.Since, err = logTime("since", p.Since); err != nil {
		return nil, err
	}
	if q.Until, err = logTime("until", p.Until); err != nil {
		return nil, err
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && q.Since.After(q.Until) {
		return nil, fault.New(fault.Invalid, "Query parameter since (%s) is after until (%s)",
			q.Since.Format(readingTimeLayout), q.Until.Format(readingTimeLayout))
	}
	entries, total, err := s.logs.Query(q)
	if err != nil {
		// the disk under the data directory failing, as storage can
		return nil, &fault.Fault{Kind: fault.Unavailable, Cause: err, RetryAfterSeconds: StorageRetryAfter,
			Message: "The log file could not be read; try again later"}
	}
	out := gen.ListLogEntries200JSONResponse{Count: int64(total), Logs: make([]gen.LogEntry, 0, len(entries))}
	for _, e := range entries {
		attrs := e.Attrs
		if attrs == nil {
			attrs = map[string]any{}
		}
		out.Logs = append(out.Logs, gen.LogEntry{
			Timestamp: e.Time.UTC().Format(eventTimeLayout),
			Level:     gen.LogLevel(logging.LevelName(e.Level)),
			Source:    e.Source,
			Message:   e.Message,
			Attrs:     attrs,
		})
	}
	return out, nil
}

// logTime parses the time of query parameter name in the forms ingest
// takes; absent is the zero time.
func logTime(name string, v *string) (t time.Time, err error) {
	if v == nil {
		return t, nil
	}
	if t, err = plugin.ParseTimestamp(*v); err != nil {
		return t, fault.New(fault.Invalid, "Query parameter %s: %v", name, err)
	}
	return t, nil
}
