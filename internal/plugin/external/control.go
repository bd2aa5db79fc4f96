package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/plugin"
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
	strs, err := controlStrings(values)
	if err != nil {
		return fmt.Errorf("%w: %w", plugin.ErrNotWritable, err)
	}
	return s.controlFault(p.WriteAsset(ctx, asset, strs))
}

// Operate runs operation through the plugin's process.
func (s *south) Operate(ctx context.Context, operation string, params map[string]any) error {
	p, err := s.running()
	if err != nil {
		return err
	}
	strs, err := controlStrings(params)
	if err != nil {
		return fmt.Errorf("%w: %w", plugin.ErrBadParameters, err)
	}
	return s.controlFault(p.Operate(ctx, operation, strs))
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
// by the one table of codes (codeKinds): the plugin's refusals (invalid,
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
	for _, r := range codeKinds {
		if r.code == code {
			return &fault.Fault{Kind: r.kind, Message: fmt.Sprintf("service %q: %v", s.env.Service, err)}
		}
	}
	return fault.Wrap(fault.BadGateway, err, "service %q: %v", s.env.Service, err)
}

// controlStrings turns control values, as the API takes them (numbers,
// booleans, strings), into the strings the contract carries: a string as
// it is, anything else as JSON (21.5, true).
func controlStrings(values map[string]any) (map[string]string, error) {
	out := make(map[string]string, len(values))
	for k, v := range values {
		if str, ok := v.(string); ok {
			out[k] = str
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("value of %q: %w", k, err)
		}
		out[k] = string(b)
	}
	return out, nil
}
