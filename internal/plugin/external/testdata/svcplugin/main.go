// Command svcplugin is a dispatcher service the tests of package external
// run in its own process. Its methods:
//
//	echo    answers the request body
//	count   adds one to its counter (persisted) and answers it
//	fail    answers an error of the code {"code":n} names, a plain one for 0
//	ask     calls the gateway's {"method":m,"body":b} and answers
//	        {"body":…}, or {"code":n,"message":…} when it failed
//	relay   calls the gateway likewise and returns its answer or error as is
//
// Once Start returned it tells the gateway "started"
// {"service":…,"count":n} from a goroutine.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

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
		body, _ := json.Marshal(map[string]any{"service": st.Service, "count": state.Count})
		_, _ = host.Call(context.Background(), "started", body)
	}()
	return nil
}

func (s *svc) Call(ctx context.Context, method string, body []byte) ([]byte, error) {
	switch method {
	case "echo":
		return body, nil
	case "count":
		s.mu.Lock()
		defer s.mu.Unlock()
		s.count++
		return json.Marshal(s.count)
	case "fail":
		var req struct{ Code edgeplugin.Code }
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "fail: %v", err)
		}
		if req.Code == 0 {
			return nil, errors.New("a plain failure")
		}
		return nil, edgeplugin.Errorf(req.Code, "failure of code %d", req.Code)
	case "ask", "relay":
		var req struct {
			Method string
			Body   json.RawMessage
		}
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, edgeplugin.Errorf(edgeplugin.CodeInvalid, "%s: %v", method, err)
		}
		s.mu.Lock()
		host := s.host
		s.mu.Unlock()
		got, err := host.Call(ctx, req.Method, req.Body)
		switch {
		case method == "relay":
			return got, err
		case err != nil:
			return json.Marshal(map[string]any{"code": edgeplugin.CodeOf(err), "message": err.Error()})
		}
		return json.Marshal(map[string]json.RawMessage{"body": got})
	}
	return nil, edgeplugin.Errorf(edgeplugin.CodeUnsupported, "no method %q", method)
}

func (s *svc) Reconfigure(_ context.Context, cfg edgeplugin.Config) error {
	if cfg["restart"] != "" {
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
		NewService: func() edgeplugin.Service { return &svc{} },
	})
}
