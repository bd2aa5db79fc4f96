package external

import (
	"context"
	"errors"
	"fmt"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin/faultcode"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Controls tells what the plugin said it offers when described: the
// dispatcher sends writes and operations only to a plugin that offers
// them.
func (s *south) Controls() (writes, operates bool) { return s.writes, s.operates }

// Write sets datapoints of asset through the plugin's process.
func (s *south) Write(ctx context.Context, asset string, values map[string]any) error {
	p, err := s.running()
	if err != nil {
		return err
	}
	return s.controlFault(p.Write(ctx, asset, values))
}

// Operate runs operation through the plugin's process.
func (s *south) Operate(ctx context.Context, operation string, params map[string]any) error {
	p, err := s.running()
	if err != nil {
		return err
	}
	return s.controlFault(p.Operate(ctx, operation, params))
}

// running returns the process of the current run; Unavailable between
// runs (the service is restarting).
func (s *south) running() (*edgeplugin.Process, error) {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil {
		return nil, fault.New(fault.Unavailable, "the process of plugin %q is not running", s.name)
	}
	return p, nil
}

// controlFault turns the error of a write or operation into the gateway's
// by the one table of codes (faultcode): the plugin's refusals (invalid,
// not found, unsupported) are the caller's, its CodeFailed the device's, a
// process that is gone unavailable. The message names the service.
func (s *south) controlFault(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, edgeplugin.ErrCannotWrite) || errors.Is(err, edgeplugin.ErrCannotOperate) {
		return fault.New(fault.Invalid, "service %q's plugin does not support this control call", s.env.Service)
	}
	code := edgeplugin.CodeOf(err)
	if code == edgeplugin.CodeInternal {
		code = edgeplugin.CodeFailed // a plugin's plain error is its device's
	}
	if k := faultcode.KindOf(code); k != nil {
		return &fault.Fault{Kind: k, Message: fmt.Sprintf("service %q: %v", s.env.Service, err)}
	}
	return fault.Wrap(fault.BadGateway, err, "service %q: %v", s.env.Service, err)
}
