package impl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edged/edged/db"
	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/auth"
	"github.com/edged/edged/internal/fault"
)

// controlRequest is a control request as the dispatcher service's process
// takes it (methods `write` and `operation`).
type controlRequest struct {
	Destination string                     `json:"destination"`
	Name        string                     `json:"name,omitempty"`
	Values      map[string]json.RawMessage `json:"values,omitempty"`
	Operation   string                     `json:"operation,omitempty"`
	Parameters  map[string]json.RawMessage `json:"parameters,omitempty"`
	Caller      string                     `json:"caller"`
}

// rawValues returns the values as the JSON they arrived in, so numbers
// keep every digit on their way to the device.
func rawValues(in map[string]gen.ControlValue) (map[string]json.RawMessage, error) {
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		b, err := v.MarshalJSON()
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "value of %q is not a number, boolean or string", k)
		}
		out[k] = b
	}
	return out, nil
}

// callerName names the caller of ctx for the audit trail.
func callerName(ctx context.Context) string {
	if p, ok := auth.PrincipalFrom(ctx); ok {
		return p.Username
	}
	return "anonymous"
}

// dispatch hands a control request to the running dispatcher service.
func (s *Server) dispatch(ctx context.Context, method string, req controlRequest) (gen.ControlResults, error) {
	body, err := json.Marshal(req)
	if err != nil {
		return gen.ControlResults{}, fmt.Errorf("control request: %w", err)
	}
	out, err := s.services.Call(ctx, db.ServiceDispatcher, method, body)
	if err != nil {
		return gen.ControlResults{}, err
	}
	var res gen.ControlResults
	if err := json.Unmarshal(out, &res); err != nil {
		return gen.ControlResults{}, fmt.Errorf("answer of the dispatcher service: %w", err)
	}
	if res.Results == nil {
		res.Results = []gen.ControlResult{}
	}
	return res, nil
}

// ControlWrite (POST /edge/control/write) writes setpoints through the
// dispatcher service.
func (s *Server) ControlWrite(ctx context.Context, req gen.ControlWriteRequestObject) (gen.ControlWriteResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	values, err := rawValues(req.Body.Values)
	if err != nil {
		return nil, err
	}
	res, err := s.dispatch(ctx, "write", controlRequest{Destination: string(req.Body.Destination), Name: valueOr(req.Body.Name, ""),
		Values: values, Caller: callerName(ctx)})
	if err != nil {
		return nil, err
	}
	return gen.ControlWrite200JSONResponse(res), nil
}

// ControlOperation (POST /edge/control/operation) runs an operation
// through the dispatcher service.
func (s *Server) ControlOperation(ctx context.Context, req gen.ControlOperationRequestObject) (gen.ControlOperationResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	params, err := rawValues(valueOr(req.Body.Parameters, nil))
	if err != nil {
		return nil, err
	}
	res, err := s.dispatch(ctx, "operation", controlRequest{Destination: string(req.Body.Destination), Name: valueOr(req.Body.Name, ""),
		Operation: req.Body.Operation, Parameters: params, Caller: callerName(ctx)})
	if err != nil {
		return nil, err
	}
	return gen.ControlOperation200JSONResponse(res), nil
}
