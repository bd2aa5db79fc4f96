package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/edged/edged/pkg/pkgindex"
)

// serve serves the repository in dir over HTTP on addr until ctx ends,
// writing its URL to out once it listens.
func serve(ctx context.Context, dir, addr string, out io.Writer) error {
	if _, err := os.Stat(filepath.Join(dir, pkgindex.IndexFile)); err != nil {
		return fmt.Errorf("serve: %s is not a repository (edgepkg publish makes one): %w", dir, err)
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir)), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	if _, err := fmt.Fprintf(out, "serving %s at http://%s\n", filepath.Clean(dir), ln.Addr()); err != nil {
		_ = srv.Close()
		return err
	}
	if f, ok := out.(*os.File); ok {
		_ = f.Sync()
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdown); err != nil {
		return err
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
