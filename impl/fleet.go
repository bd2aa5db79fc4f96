package impl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/fleetconfig"
)

// FleetConfig exports, plans and applies configuration documents;
// *fleetconfig.Manager implements it.
type FleetConfig interface {
	Export(ctx context.Context) (fleetconfig.Document, error)
	Plan(ctx context.Context, want fleetconfig.Document) (fleetconfig.Result, error)
	Apply(ctx context.Context, want fleetconfig.Document) (fleetconfig.Result, error)
}

// convert moves a value between its wire and domain forms through their
// common JSON: the document's schema in the contract and the domain's
// JSON tags describe the same document.
func convert[T any](from any) (T, error) {
	var out T
	b, err := json.Marshal(from)
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return out, err
	}
	return out, nil
}

// documentIn reads a request's document.
func documentIn(body *gen.FleetDocument) (fleetconfig.Document, error) {
	if body == nil {
		return fleetconfig.Document{}, fault.New(fault.Invalid, "request body is required")
	}
	d, err := convert[fleetconfig.Document](body)
	if err != nil {
		return fleetconfig.Document{}, fault.Wrap(fault.Invalid, err, "the configuration document could not be read: %v", err)
	}
	return d, nil
}

// ExportConfig (GET /edge/config/export) returns the configuration document.
func (s *Server) ExportConfig(ctx context.Context, _ gen.ExportConfigRequestObject) (gen.ExportConfigResponseObject, error) {
	d, err := s.fleet.Export(ctx)
	if err != nil {
		return nil, err
	}
	out, err := convert[gen.FleetDocument](d)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return gen.ExportConfig200JSONResponse(out), nil
}

// PlanConfig (POST /edge/config/plan) lists what applying a document
// would change.
func (s *Server) PlanConfig(ctx context.Context, req gen.PlanConfigRequestObject) (gen.PlanConfigResponseObject, error) {
	d, err := documentIn(req.Body)
	if err != nil {
		return nil, err
	}
	r, err := s.fleet.Plan(ctx, d)
	if err != nil {
		return nil, err
	}
	out, err := convert[gen.FleetChanges](r)
	if err != nil {
		return nil, fmt.Errorf("plan: %w", err)
	}
	return gen.PlanConfig200JSONResponse(out), nil
}

// ApplyConfig (POST /edge/config/apply) makes the gateway hold a document.
func (s *Server) ApplyConfig(ctx context.Context, req gen.ApplyConfigRequestObject) (gen.ApplyConfigResponseObject, error) {
	d, err := documentIn(req.Body)
	if err != nil {
		return nil, err
	}
	r, err := s.fleet.Apply(ctx, d)
	if err != nil {
		return nil, err
	}
	out, err := convert[gen.FleetChanges](r)
	if err != nil {
		return nil, fmt.Errorf("apply: %w", err)
	}
	return gen.ApplyConfig200JSONResponse(out), nil
}
