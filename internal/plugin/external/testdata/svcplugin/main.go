// Command svcplugin is a dispatcher service the tests of package external
// run in its own process. Its Write does what the request's name says:
//
//	count   adds one to its counter (persisted) and answers it as the
//	        result's asset
//	fail    answers an error of the code of value "code", a plain one for 0
//	ask     writes to the gateway's service named by the destination (the
//	        asset: value "asset") and answers its error, if any, as the
//	        result's error "<code> <message>"
//	relay   writes likewise and returns the gateway's error as is
//
// Reconfigure with item "hang" set never returns. Once Start returned it
// tells the gateway, with an audit entry CTLWR {"service":…,"count":n},
// from a goroutine.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/edged/edged/internal/auditcode"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

type svc struct {
	mu    sync.Mutex
	host  edgeplugin.Host
	count int
}

func (s *svc) Start(ctx context.Context, st edgeplugin.Start, host edgeplugin.Host) error {
	if r := st.Config["refuse"]; r != "" {
		return edgeplugin.Errorf(edgeplugin.CodeInvalid, "refused: %s", r)
	}
	var state struct{ Count int }
	if st.State != nil {
		if err := json.Unmarshal(st.State, &state); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.host, s.count = host, state.Count
	s.mu.Unlock()
	// Start's ctx ends when the call has returned: the gateway's host
	// serves the process beyond it.
	go func() {
		<-ctx.Done()
		details, _ := json.Marshal(map[string]any{"service": st.Service, "count": state.Count})
		_ = host.Audit(context.Background(), edgeplugin.AuditEntry{Source: auditcode.ControlWrite, Severity: auditcode.Information, Details: details})
	}()
	return nil
}

func (s *svc) Write(ctx context.Context, req edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	switch req.Name {
	case "count":
		s.mu.Lock()
		defer s.mu.Unlock()
		s.count++
		return []edgeplugin.ControlResult{{Service: "count", Asset: strconv.Itoa(s.count)}}, nil
	case "fail":
		n, _ := strconv.Atoi(fmt.Sprint(req.Values["code"]))
		if n == 0 {
			return nil, errors.New("a plain failure")
		}
		return nil, edgeplugin.Errorf(edgeplugin.Code(n), "failure of code %d", n)
	case "ask", "relay":
		s.mu.Lock()
		host := s.host
		s.mu.Unlock()
		asset, _ := req.Values["asset"].(string)
		err := host.Write(ctx, req.Destination, asset, req.Values)
		switch {
		case req.Name == "relay" && err != nil:
			return nil, err
		case err != nil:
			return []edgeplugin.ControlResult{{Service: req.Destination, Error: fmt.Sprintf("%d %s", edgeplugin.CodeOf(err), err)}}, nil
		}
		return []edgeplugin.ControlResult{{Service: req.Destination}}, nil
	}
	return nil, edgeplugin.Errorf(edgeplugin.CodeUnsupported, "no request %q", req.Name)
}

func (s *svc) Operate(context.Context, edgeplugin.ControlRequest) ([]edgeplugin.ControlResult, error) {
	return nil, edgeplugin.Errorf(edgeplugin.CodeUnsupported, "no operations")
}

func (s *svc) Reconfigure(ctx context.Context, cfg edgeplugin.Config) error {
	switch {
	case cfg["hang"] != "":
		select {} // a plugin that never answers
	case cfg["restart"] != "":
		return edgeplugin.ErrRestart
	}
	return nil
}

func (s *svc) State(context.Context) (json.RawMessage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return json.Marshal(map[string]int{"count": s.count})
}

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{
		Info: edgeplugin.Info{Name: "test_dispatcher", Version: "0.1.0", Kind: edgeplugin.KindDispatcher,
			Description: "the dispatcher service of package external's tests", Persists: true},
		NewDispatcher: func() edgeplugin.Dispatcher { return &svc{} },
	})
}
