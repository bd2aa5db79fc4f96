package httpsouth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
)

// checkClient makes the health checks: one connection per check, none
// kept open between them.
var checkClient = &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}

// Check asks the service's own listener, over loopback, for its ingest path
// (a GET, which it refuses with 405 without touching storage): the service
// is healthy when its server accepts and answers, whatever the status.
func (h *HTTPSouth) Check(ctx context.Context) error {
	addr := h.Addr()
	if addr == nil {
		return errors.New("http_south: not listening")
	}
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return fmt.Errorf("http_south: listening on %s, not TCP", addr)
	}
	url := "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(tcp.Port)) + h.path
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("http_south: health check: %w", err)
	}
	resp, err := checkClient.Do(req)
	if err != nil {
		return fmt.Errorf("http_south: port %d does not answer: %w", tcp.Port, err)
	}
	return resp.Body.Close()
}
