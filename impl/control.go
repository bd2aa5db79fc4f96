package impl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/audit"
	"github.com/edged/edged/internal/auth"
	"github.com/edged/edged/internal/dispatch"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/router"
	"github.com/edged/edged/internal/service"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// controlValues returns the values as the dispatcher service takes them:
// numbers as json.Number in the digits they arrived in, so they keep every
// digit on their way to the device; strings; booleans.
func controlValues(in map[string]gen.ControlValue) (map[string]any, error) {
	out := make(map[string]any, len(in))
	for k, v := range in {
		b, err := v.MarshalJSON()
		var x any
		if err == nil {
			dec := json.NewDecoder(bytes.NewReader(b))
			dec.UseNumber()
			err = dec.Decode(&x)
		}
		switch x.(type) {
		case json.Number, string, bool:
		default:
			err = fmt.Errorf("%T", x)
		}
		if err != nil {
			return nil, fault.Wrap(fault.Invalid, err, "value of %q is not a number, boolean or string", k)
		}
		out[k] = x
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

// controlAudit is the audit source of each control operation, by
// operationId in lower case (the router's spelling differs in case).
var controlAudit = map[string]string{
	"controlwrite":     dispatch.AuditWrite,
	"controloperation": dispatch.AuditOperation,
}

// RefusedCall audits a control request the router refused before its
// handler ran (the caller's role, no or a bad token, an invalid body), as
// the dispatcher audits those it refuses: CTLWR or CTLOP, FAILURE, with
// the caller and the refusal's message. Other operations are not audited
// here. It is router.Options.Refused.
func (s *Server) RefusedCall(r *http.Request, op router.Operation, err error) {
	source, ok := controlAudit[strings.ToLower(op.ID)]
	if !ok {
		return
	}
	s.auditRefused(r.Context(), source, dispatch.AuditDetails{}, err)
}

// auditRefused records a control request refused before it reached the
// dispatcher; details name what is known of the request.
func (s *Server) auditRefused(ctx context.Context, source string, details dispatch.AuditDetails, err error) {
	_, msg := StatusOf(err)
	details.Caller, details.Outcome, details.Error = callerName(ctx), dispatch.OutcomeRefused, msg
	if aerr := s.audit.Record(context.WithoutCancel(ctx), source, audit.Failure, details); aerr != nil {
		s.log.WarnContext(ctx, "refused control request not audited", "source", source, "caller", details.Caller, "error", aerr)
	}
}

// dispatch hands a control request to the running dispatcher service
// (write or, when operation, an operation). A request that cannot reach it
// (none runs) is audited here, since no dispatcher sees it.
func (s *Server) dispatch(ctx context.Context, operation bool, req edgeplugin.ControlRequest) (gen.ControlResults, error) {
	source := dispatch.AuditWrite
	if operation {
		source = dispatch.AuditOperation
	}
	details := dispatch.AuditDetails{Destination: req.Destination, Name: req.Name, Operation: req.Operation}
	// A malformed request is refused as such whether or not a dispatcher
	// runs, with the dispatcher's own checks.
	if err := dispatch.Check(req, operation); err != nil {
		s.auditRefused(ctx, source, details, err)
		return gen.ControlResults{}, err
	}
	d, err := s.services.Dispatcher()
	if errors.Is(err, service.ErrNotRunning) {
		s.auditRefused(ctx, source, details, err)
	}
	if err != nil {
		return gen.ControlResults{}, err
	}
	call := d.Write
	if operation {
		call = d.Operate
	}
	out, err := call(ctx, req)
	if err != nil {
		return gen.ControlResults{}, err
	}
	res := gen.ControlResults{Results: make([]gen.ControlResult, len(out))}
	for i, r := range out {
		res.Results[i] = gen.ControlResult{Service: r.Service}
		if r.Asset != "" {
			res.Results[i].Asset = &out[i].Asset
		}
		if r.Error != "" {
			res.Results[i].Error = &out[i].Error
		}
	}
	return res, nil
}

// ControlWrite (POST /edge/control/write) writes setpoints through the
// dispatcher service.
func (s *Server) ControlWrite(ctx context.Context, req gen.ControlWriteRequestObject) (gen.ControlWriteResponseObject, error) {
	if req.Body == nil {
		err := fault.New(fault.Invalid, "request body is required")
		s.auditRefused(ctx, dispatch.AuditWrite, dispatch.AuditDetails{}, err)
		return nil, err
	}
	values, err := controlValues(req.Body.Values)
	if err != nil {
		s.auditRefused(ctx, dispatch.AuditWrite, dispatch.AuditDetails{Destination: string(req.Body.Destination),
			Name: valueOr(req.Body.Name, "")}, err)
		return nil, err
	}
	res, err := s.dispatch(ctx, false, edgeplugin.ControlRequest{Destination: string(req.Body.Destination), Name: valueOr(req.Body.Name, ""),
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
		err := fault.New(fault.Invalid, "request body is required")
		s.auditRefused(ctx, dispatch.AuditOperation, dispatch.AuditDetails{}, err)
		return nil, err
	}
	params, err := controlValues(valueOr(req.Body.Parameters, nil))
	if err != nil {
		s.auditRefused(ctx, dispatch.AuditOperation, dispatch.AuditDetails{Destination: string(req.Body.Destination),
			Name: valueOr(req.Body.Name, ""), Operation: req.Body.Operation}, err)
		return nil, err
	}
	res, err := s.dispatch(ctx, true, edgeplugin.ControlRequest{Destination: string(req.Body.Destination), Name: valueOr(req.Body.Name, ""),
		Operation: req.Body.Operation, Parameters: params, Caller: callerName(ctx)})
	if err != nil {
		return nil, err
	}
	return gen.ControlOperation200JSONResponse(res), nil
}
