package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/filter"
)

// filterOut converts a filter instance to its wire form.
func filterOut(f filter.Instance) gen.FilterInstance {
	users := f.Users
	if users == nil {
		users = []string{}
	}
	return gen.FilterInstance{Name: f.Name, Plugin: f.Plugin, Users: users}
}

// ListFilters (GET /edge/filter) returns every filter instance.
func (s *Server) ListFilters(ctx context.Context, _ gen.ListFiltersRequestObject) (gen.ListFiltersResponseObject, error) {
	fs, err := s.filters.List(ctx)
	if err != nil {
		return nil, err
	}
	out := gen.ListFilters200JSONResponse{Filters: make([]gen.FilterInstance, 0, len(fs))}
	for _, f := range fs {
		out.Filters = append(out.Filters, filterOut(f))
	}
	return out, nil
}

// CreateFilter (POST /edge/filter) creates a filter instance.
func (s *Server) CreateFilter(ctx context.Context, req gen.CreateFilterRequestObject) (gen.CreateFilterResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	f, err := s.filters.Create(ctx, req.Body.Name, req.Body.Plugin, valueOr(req.Body.FilterConfig, nil))
	if err != nil {
		return nil, err
	}
	return gen.CreateFilter200JSONResponse(filterOut(f)), nil
}

// GetFilter (GET /edge/filter/{filter_name}) returns one filter instance.
func (s *Server) GetFilter(ctx context.Context, req gen.GetFilterRequestObject) (gen.GetFilterResponseObject, error) {
	f, err := s.filters.Get(ctx, req.FilterName)
	if err != nil {
		return nil, err
	}
	return gen.GetFilter200JSONResponse(filterOut(f)), nil
}

// DeleteFilter (DELETE /edge/filter/{filter_name}) deletes a filter
// instance no pipeline holds.
func (s *Server) DeleteFilter(ctx context.Context, req gen.DeleteFilterRequestObject) (gen.DeleteFilterResponseObject, error) {
	if err := s.filters.Delete(ctx, req.FilterName); err != nil {
		return nil, err
	}
	return gen.DeleteFilter200JSONResponse{Message: "Filter " + req.FilterName + " deleted"}, nil
}

// GetPipeline (GET /edge/filter/{service_name}/pipeline) returns a
// service's pipeline.
func (s *Server) GetPipeline(ctx context.Context, req gen.GetPipelineRequestObject) (gen.GetPipelineResponseObject, error) {
	names, err := s.filters.Pipeline(ctx, req.ServiceName)
	if err != nil {
		return nil, err
	}
	return gen.GetPipeline200JSONResponse{Service: req.ServiceName, Pipeline: names}, nil
}

// SetPipeline (PUT /edge/filter/{service_name}/pipeline) sets or extends a
// service's pipeline.
func (s *Server) SetPipeline(ctx context.Context, req gen.SetPipelineRequestObject) (gen.SetPipelineResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	names, err := s.filters.SetPipeline(ctx, req.ServiceName, req.Body.Pipeline, valueOr(req.Params.Append, false))
	if err != nil {
		return nil, err
	}
	return gen.SetPipeline200JSONResponse{Service: req.ServiceName, Pipeline: names}, nil
}
