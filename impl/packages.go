package impl

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
)

// SetRepository (POST /edge/repository) configures the package repository.
func (s *Server) SetRepository(ctx context.Context, req gen.SetRepositoryRequestObject) (gen.SetRepositoryResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	if err := s.packages.SetRepository(ctx, req.Body.Url, valueOr(req.Body.Version, "")); err != nil {
		return nil, err
	}
	return gen.SetRepository200JSONResponse{Message: "Package repository configured"}, nil
}

// ListAvailablePackages (GET /edge/service/available) lists the service
// packages the repository offers that are not installed.
func (s *Server) ListAvailablePackages(ctx context.Context, _ gen.ListAvailablePackagesRequestObject) (gen.ListAvailablePackagesResponseObject, error) {
	names, log, err := s.packages.Available(ctx, pkgrepo.TypeService)
	if err != nil {
		return nil, err
	}
	return gen.ListAvailablePackages200JSONResponse{Services: nonNil(names), Link: log}, nil
}

// ListAvailablePlugins (GET /edge/plugin/available) lists the plugin
// packages the repository offers that are not installed.
func (s *Server) ListAvailablePlugins(ctx context.Context, _ gen.ListAvailablePluginsRequestObject) (gen.ListAvailablePluginsResponseObject, error) {
	names, log, err := s.packages.Available(ctx, pkgrepo.TypePlugin)
	if err != nil {
		return nil, err
	}
	return gen.ListAvailablePlugins200JSONResponse{Plugins: nonNil(names), Link: log}, nil
}

func nonNil(names []string) []string {
	if names == nil {
		return []string{}
	}
	return names
}

// install starts installing a package of type typ.
func (s *Server) install(ctx context.Context, typ string, body gen.PackageInstallRequest) (gen.ServiceCreated, error) {
	if body.Format != gen.Repository {
		return gen.ServiceCreated{}, fault.New(fault.Invalid, "format must be repository")
	}
	started, err := s.packages.Install(ctx, typ, body.Name, valueOr(body.Version, ""), valueOr(body.AllowDowngrade, false))
	if err != nil {
		return gen.ServiceCreated{}, err
	}
	id, err := uuid.Parse(started.TaskID)
	if err != nil {
		return gen.ServiceCreated{}, fmt.Errorf("install task id %q: %w", started.TaskID, err)
	}
	link := "/edge/task/" + started.TaskID
	return gen.ServiceCreated{Message: fmt.Sprintf("Installing package %s", body.Name), Name: body.Name, Id: id,
		Link: &link, Log: &started.Log}, nil
}

// InstallPlugin (POST /edge/plugin) installs a plugin package in the
// background.
func (s *Server) InstallPlugin(ctx context.Context, req gen.InstallPluginRequestObject) (gen.InstallPluginResponseObject, error) {
	if req.Body == nil {
		return nil, fault.New(fault.Invalid, "request body is required")
	}
	out, err := s.install(ctx, pkgrepo.TypePlugin, *req.Body)
	if err != nil {
		return nil, err
	}
	return gen.InstallPlugin200JSONResponse(out), nil
}

// UpdatePackages (PUT /edge/update) starts the update task.
func (s *Server) UpdatePackages(ctx context.Context, req gen.UpdatePackagesRequestObject) (gen.UpdatePackagesResponseObject, error) {
	started, err := s.packages.Update(ctx, valueOr(req.Params.AllowDowngrade, false))
	if err != nil {
		return nil, err
	}
	id, err := uuid.Parse(started.TaskID)
	if err != nil {
		return nil, fmt.Errorf("update task id %q: %w", started.TaskID, err)
	}
	link := "/edge/task/" + started.TaskID
	return gen.UpdatePackages200JSONResponse{Message: "Package update started", Id: id, Link: &link, Log: &started.Log}, nil
}

// ListPackages (GET /edge/package) lists the installed packages.
func (s *Server) ListPackages(context.Context, gen.ListPackagesRequestObject) (gen.ListPackagesResponseObject, error) {
	pkgs, err := s.packages.List()
	if err != nil {
		return nil, fmt.Errorf("installed packages: %w", err)
	}
	out := gen.ListPackages200JSONResponse{Packages: []gen.InstalledPackage{}}
	for _, p := range pkgs {
		ip := gen.InstalledPackage{Name: p.Name, Version: p.Version, Type: p.Type, Description: p.Description}
		if p.Kind != "" {
			ip.Kind = &p.Kind
		}
		out.Packages = append(out.Packages, ip)
	}
	return out, nil
}

// RemovePackage (DELETE /edge/package/{name}) removes an installed package.
func (s *Server) RemovePackage(ctx context.Context, req gen.RemovePackageRequestObject) (gen.RemovePackageResponseObject, error) {
	if err := s.packages.Remove(ctx, req.Name); err != nil {
		return nil, err
	}
	return gen.RemovePackage200JSONResponse{Message: fmt.Sprintf("Package %s removed", req.Name)}, nil
}

// GetPackageLog (GET /edge/package/log/{name}) returns a repository log.
func (s *Server) GetPackageLog(_ context.Context, req gen.GetPackageLogRequestObject) (gen.GetPackageLogResponseObject, error) {
	b, err := s.packages.Log(req.Name)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(b) == 0 {
		lines = []string{}
	}
	return gen.GetPackageLog200JSONResponse{Name: req.Name, Lines: lines}, nil
}
