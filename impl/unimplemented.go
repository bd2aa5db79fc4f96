package impl

import (
	"context"

	"github.com/edged/edged/gen"
)

// The operations below are routed and validated but not built yet: each
// answers 501 with a JSON message naming the operation. They are listed in
// the README and disappear from this file as they are built.

// SetRepository (POST /edge/repository) is not implemented yet.
func (s *Server) SetRepository(context.Context, gen.SetRepositoryRequestObject) (gen.SetRepositoryResponseObject, error) {
	return nil, notImplemented("setRepository")
}

// ListAvailablePackages (GET /edge/service/available) is not implemented yet.
func (s *Server) ListAvailablePackages(context.Context, gen.ListAvailablePackagesRequestObject) (gen.ListAvailablePackagesResponseObject, error) {
	return nil, notImplemented("listAvailablePackages")
}

// UpdatePackages (PUT /edge/update) is not implemented yet.
func (s *Server) UpdatePackages(context.Context, gen.UpdatePackagesRequestObject) (gen.UpdatePackagesResponseObject, error) {
	return nil, notImplemented("updatePackages")
}
