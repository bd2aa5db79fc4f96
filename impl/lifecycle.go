package impl

import (
	"context"

	"github.com/edged/edged/gen"
	"github.com/edged/edged/internal/system"
)

// Shutdown asks the gateway to shut down; it answers first, then the
// gateway stops cleanly and the process exits.
func (s *Server) Shutdown(ctx context.Context, _ gen.ShutdownRequestObject) (gen.ShutdownResponseObject, error) {
	return gen.Shutdown200JSONResponse{Message: s.lifecycle(ctx, system.Shutdown)}, nil
}

// Restart asks the gateway to restart; it answers first, then the gateway
// stops cleanly and starts again in the same process.
func (s *Server) Restart(ctx context.Context, _ gen.RestartRequestObject) (gen.RestartResponseObject, error) {
	return gen.Restart200JSONResponse{Message: s.lifecycle(ctx, system.Restart)}, nil
}

// lifecycle requests a, and returns the answer's message: what is in
// progress (the earlier request when one was made already).
func (s *Server) lifecycle(ctx context.Context, a system.Action) string {
	if !s.control.Request(a) {
		a = s.control.Requested()
		s.log.InfoContext(ctx, "gateway "+a.String()+" already requested")
	} else {
		s.log.InfoContext(ctx, "gateway "+a.String()+" requested through the API")
	}
	if a == system.Restart {
		return "Restart in progress"
	}
	return "Shutdown in progress"
}
