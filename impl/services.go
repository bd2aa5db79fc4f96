package impl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/google/uuid"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
	"github.com/edged/edged/internal/service"
)

// ListServices (GET /edge/service) returns the core, storage and every
// registered service, optionally of one type (case-insensitive).
func (s *Server) ListServices(ctx context.Context, req gen.ListServicesRequestObject) (gen.ListServicesResponseObject, error) {
	recs, err := s.services.Records(ctx, valueOr(req.Params.Type, ""))
	if err != nil {
		return nil, err
	}
	out := gen.ListServices200JSONResponse{Services: make([]gen.ServiceRecord, 0, len(recs))}
	for _, r := range recs {
		rec := gen.ServiceRecord{Name: r.Name, Type: r.Type, Address: r.Address,
			ManagementPort: r.ManagementPort, ServicePort: r.ServicePort, Protocol: r.Protocol, Status: gen.ServiceStatus(r.Status)}
		if r.Reason != "" {
			rec.Reason = &r.Reason
		}
		out.Services = append(out.Services, rec)
	}
	return out, nil
}

// ListSouthServices (GET /edge/south) returns every south service with its
// assets, plugin and schedule state.
func (s *Server) ListSouthServices(ctx context.Context, _ gen.ListSouthServicesRequestObject) (gen.ListSouthServicesResponseObject, error) {
	recs, err := s.services.South(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListSouthServices200JSONResponse{Services: make([]gen.SouthService, 0, len(recs))}
	for _, r := range recs {
		assets := make([]gen.SouthAsset, 0, len(r.Assets))
		for _, a := range r.Assets {
			assets = append(assets, gen.SouthAsset{Asset: a.Asset, Count: a.Count})
		}
		rec := gen.SouthService{Name: r.Name, Address: r.Address, Protocol: r.Protocol, Assets: assets,
			Plugin:          gen.PluginInfo{Name: r.Plugin, Version: r.PluginVersion},
			ScheduleEnabled: r.ScheduleEnabled}
		if err := southState(&rec, r.Record, r.ScheduleEnabled); err != nil {
			return nil, err
		}
		out.Services = append(out.Services, rec)
	}
	return out, nil
}

// southState fills the fields of a south record that a disabled service
// shows as "" (spec §2.6): address, protocol, both ports and status. The
// contract leaves the ports' JSON type open (an integer, null or ""), so
// they are set as the values the wire carries.
func southState(out *gen.SouthService, r service.Record, enabled bool) error {
	if !enabled {
		out.Address, out.Protocol = "", ""
		var empty gen.OptionalPortOrEmpty = ""
		out.ManagementPort, out.ServicePort, out.Status = "", &empty, gen.ServiceStatusOrEmptyEmpty
		return nil
	}
	out.ManagementPort = r.ManagementPort
	out.Status = gen.ServiceStatusOrEmpty(r.Status)
	if r.ServicePort != nil { // else nil, null
		var port gen.OptionalPortOrEmpty = *r.ServicePort
		out.ServicePort = &port
	}
	return nil
}

// ListInstalledServices (GET /edge/service/installed) returns the kinds of
// service this gateway can run.
func (s *Server) ListInstalledServices(context.Context, gen.ListInstalledServicesRequestObject) (gen.ListInstalledServicesResponseObject, error) {
	return gen.ListInstalledServices200JSONResponse{Services: s.services.Installed()}, nil
}

// CreateService (POST /edge/service) creates a service, or installs a
// service package in the background when the body is a package install.
func (s *Server) CreateService(ctx context.Context, req gen.CreateServiceRequestObject) (gen.CreateServiceResponseObject, error) {
	// The body decides (the contract's oneOf never matches both): an
	// install body installs, with or without the specification's
	// ?action=install, which the router's rights already made admin-only.
	if isInstallBody(req.Body) {
		body, err := req.Body.AsPackageInstallRequest()
		if err != nil || body.Name == "" {
			return nil, fault.New(fault.Invalid, "an install body is {\"format\": \"repository\", \"name\": …}")
		}
		out, err := s.install(ctx, pkgrepo.TypeService, body)
		if err != nil {
			return nil, err
		}
		return gen.CreateService200JSONResponse(out), nil
	}
	in, err := createRequest(req.Body)
	if err != nil {
		return nil, err
	}
	c, err := s.services.Create(ctx, in)
	if err != nil {
		return nil, err
	}
	id, err := uuid.Parse(c.ScheduleID)
	if err != nil {
		return nil, fmt.Errorf("schedule id %q of service %q: %w", c.ScheduleID, c.Name, err)
	}
	msg := fmt.Sprintf("Service %s created", c.Name)
	if in.Enabled && !c.Started {
		msg += "; it is not started in safe mode"
	}
	return gen.CreateService200JSONResponse{Message: msg, Name: c.Name, Id: id}, nil
}

// isInstallBody reports whether body is a package install: it has
// `format` and no `type`.
func isInstallBody(body *gen.CreateServiceJSONRequestBody) bool {
	if body == nil {
		return false
	}
	raw, err := body.MarshalJSON()
	if err != nil {
		return false
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(raw, &fields) != nil {
		return false
	}
	_, format := fields["format"]
	_, typ := fields["type"]
	return format && !typ
}

// createRequest reads a create body. The contract's validator checked the
// types of the fields present; an install body sent without action=install
// passes it, so the fields every create needs are checked here.
func createRequest(body *gen.CreateServiceJSONRequestBody) (service.CreateRequest, error) {
	if body == nil {
		return service.CreateRequest{}, fault.New(fault.Invalid, "request body is required")
	}
	raw, err := body.MarshalJSON()
	if err != nil {
		return service.CreateRequest{}, fault.Wrap(fault.Invalid, err, "request body could not be decoded")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return service.CreateRequest{}, fault.Wrap(fault.Invalid, err, "request body must be a JSON object")
	}
	for _, f := range []string{"name", "type", "enabled"} {
		if _, ok := fields[f]; !ok {
			return service.CreateRequest{}, fault.New(fault.Invalid, "request body field %q is required", f)
		}
	}
	b, err := body.AsServiceCreateRequest()
	if err != nil {
		return service.CreateRequest{}, fault.Wrap(fault.Invalid, err, "request body is not a service to create")
	}
	in := service.CreateRequest{Name: b.Name, Type: b.Type, Plugin: valueOr(b.Plugin, ""), Enabled: b.Enabled}
	if b.Config != nil {
		in.Config = make(map[string]string, len(*b.Config))
		for item, v := range *b.Config {
			in.Config[item] = v.Value
		}
	}
	return in, nil
}

// DeleteService (DELETE /edge/service/{service_name}) stops and removes a
// service; its readings stay.
func (s *Server) DeleteService(ctx context.Context, req gen.DeleteServiceRequestObject) (gen.DeleteServiceResponseObject, error) {
	if err := s.services.Delete(ctx, req.ServiceName); err != nil {
		return nil, err
	}
	return gen.DeleteService200JSONResponse{Message: fmt.Sprintf("Service %s deleted successfully", req.ServiceName)}, nil
}
