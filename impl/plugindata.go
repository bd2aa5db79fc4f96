package impl

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
)

// ListPersistentPlugins (GET /edge/service/{service_name}/persist) names
// the service's plugin instances that persist data.
func (s *Server) ListPersistentPlugins(ctx context.Context, req gen.ListPersistentPluginsRequestObject) (gen.ListPersistentPluginsResponseObject, error) {
	names, err := s.services.PersistentPlugins(ctx, req.ServiceName)
	if err != nil {
		return nil, err
	}
	return gen.ListPersistentPlugins200JSONResponse{Persistent: names}, nil
}

// GetPluginData (GET /edge/service/{service_name}/plugin/{plugin_name}/data)
// returns a plugin instance's persisted data.
func (s *Server) GetPluginData(ctx context.Context, req gen.GetPluginDataRequestObject) (gen.GetPluginDataResponseObject, error) {
	data, err := s.services.PluginData(ctx, req.ServiceName, req.PluginName)
	if err != nil {
		return nil, err
	}
	return gen.GetPluginData200JSONResponse{Data: data}, nil
}

// SetPluginData (POST /edge/service/{service_name}/plugin/{plugin_name}/data)
// stores data for a plugin instance of a stopped service.
func (s *Server) SetPluginData(ctx context.Context, req gen.SetPluginDataRequestObject) (gen.SetPluginDataResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	data, err := json.Marshal(req.Body.Data)
	if err != nil {
		return nil, fault.Wrap(fault.Invalid, err, `request body field "data" is not JSON`)
	}
	if err := s.services.SetPluginData(ctx, req.ServiceName, req.PluginName, data); err != nil {
		return nil, err
	}
	return gen.SetPluginData200JSONResponse{Message: fmt.Sprintf("Persisted data for plugin %s written", req.PluginName)}, nil
}

// DeletePluginData (DELETE /edge/service/{service_name}/plugin/{plugin_name}/data)
// removes a plugin instance's persisted data.
func (s *Server) DeletePluginData(ctx context.Context, req gen.DeletePluginDataRequestObject) (gen.DeletePluginDataResponseObject, error) {
	if err := s.services.DeletePluginData(ctx, req.ServiceName, req.PluginName); err != nil {
		return nil, err
	}
	return gen.DeletePluginData200JSONResponse{Message: fmt.Sprintf("Persisted data for plugin %s deleted", req.PluginName)}, nil
}
