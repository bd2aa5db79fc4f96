package impl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/audit"
)

// ListAuditEntries returns audit entries newest first, filtered and paged,
// with the count of all entries matching the filters.
func (s *Server) ListAuditEntries(ctx context.Context, req gen.ListAuditEntriesRequestObject) (gen.ListAuditEntriesResponseObject, error) {
	p := req.Params
	f := audit.Filter{
		Limit:    valueOr(p.Limit, defaultLimit),
		Skip:     valueOr(p.Skip, defaultSkip),
		Severity: valueOr(p.Severity, ""),
	}
	if p.Source != nil {
		f.Source = string(*p.Source)
	}
	entries, total, err := s.audit.List(ctx, f)
	if err != nil {
		return nil, err
	}
	out := gen.ListAuditEntries200JSONResponse{Audit: make([]gen.AuditEntry, 0, len(entries)), TotalCount: int64(total)}
	for _, e := range entries {
		we, err := auditEntryOut(e)
		if err != nil {
			return nil, err
		}
		out.Audit = append(out.Audit, we)
	}
	return out, nil
}

// CreateAuditEntry records an entry raised by a client.
func (s *Server) CreateAuditEntry(ctx context.Context, req gen.CreateAuditEntryRequestObject) (gen.CreateAuditEntryResponseObject, error) {
	b := req.Body
	e, err := s.audit.Create(ctx, string(b.Source), b.Severity, b.Details)
	if err != nil {
		return nil, err
	}
	we, err := auditEntryOut(e)
	if err != nil {
		return nil, err
	}
	return gen.CreateAuditEntry200JSONResponse(we), nil
}

// ListAuditLogCodes lists the audit source codes with their meaning.
func (s *Server) ListAuditLogCodes(context.Context, gen.ListAuditLogCodesRequestObject) (gen.ListAuditLogCodesResponseObject, error) {
	out := gen.ListAuditLogCodes200JSONResponse{LogCode: make([]gen.AuditLogCode, 0, len(audit.Codes))}
	for _, c := range audit.Codes {
		out.LogCode = append(out.LogCode, gen.AuditLogCode{Code: c.Code, Description: c.Description})
	}
	return out, nil
}

// ListAuditSeverities lists the audit severities with their indexes.
func (s *Server) ListAuditSeverities(context.Context, gen.ListAuditSeveritiesRequestObject) (gen.ListAuditSeveritiesResponseObject, error) {
	out := gen.ListAuditSeverities200JSONResponse{LogSeverity: make([]gen.AuditSeverityLevel, 0, len(audit.Severities))}
	for _, sev := range audit.Severities {
		out.LogSeverity = append(out.LogSeverity, gen.AuditSeverityLevel{Index: sev.Index, Name: gen.AuditSeverity(sev.Name)})
	}
	return out, nil
}

// auditEntryOut converts a stored entry to its wire form.
func auditEntryOut(e db.AuditEntry) (gen.AuditEntry, error) {
	details := map[string]any{}
	if len(e.Details) > 0 {
		if err := json.Unmarshal(e.Details, &details); err != nil {
			return gen.AuditEntry{}, fmt.Errorf("audit entry %d: details: %w", e.ID, err)
		}
	}
	return gen.AuditEntry{
		Timestamp: e.Timestamp.UTC().Format(eventTimeLayout),
		Source:    e.Source,
		Severity:  gen.AuditSeverity(e.Severity),
		Details:   details,
	}, nil
}
