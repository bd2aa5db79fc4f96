package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoClient(t *testing.T) {
	gen := `package edgeclient

import (
	"context"
	"io"
	"net/http"
)

type ClientWithResponses struct{ ClientInterface }

func (c *ClientWithResponses) PingWithResponse(ctx context.Context, reqEditors ...RequestEditorFn) (*PingResponse, error) {
	return nil, nil
}

func (c *ClientWithResponses) UploadBackupWithBodyWithResponse(ctx context.Context, contentType string, body io.Reader, reqEditors ...RequestEditorFn) (*UploadBackupResponse, error) {
	return nil, nil
}

func (c *Client) Ping(ctx context.Context, reqEditors ...RequestEditorFn) (*http.Response, error) { return nil, nil }
`
	dir := t.TempDir()
	in, out := filepath.Join(dir, "client.gen.go"), filepath.Join(dir, "out.go")
	if err := os.WriteFile(in, []byte(gen), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := goClient(in, out); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	got := string(b)
	for _, want := range []string{
		"func (c *Client) PingWithResponse(ctx context.Context, reqEditors ...RequestEditorFn) (*PingResponse, error) {\n\trsp, err := c.Raw.Ping(ctx, reqEditors...)\n\treturn checked(rsp, err, ParsePingResponse)\n}",
		"func (c *Client) UploadBackupWithBodyWithResponse(ctx context.Context, contentType string, body io.Reader, reqEditors ...RequestEditorFn) (*UploadBackupResponse, error) {\n\trsp, err := c.Raw.UploadBackupWithBody(ctx, contentType, body, reqEditors...)\n\treturn checked(rsp, err, ParseUploadBackupResponse)\n}",
		"\"context\"", "\"io\"",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the output lacks\n%s\n\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "net/http") || strings.Contains(got, "func (c *Client) Ping(") {
		t.Errorf("the output wraps or imports more than the WithResponse methods need:\n%s", got)
	}
}
