package pkgrepo

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// maxIndexBytes bounds the index and signature a repository may serve.
const maxIndexBytes = 16 << 20

// Repo is a repository at a URL, trusted under keys.
type Repo struct {
	URL    *url.URL
	Keys   []ed25519.PublicKey
	Client *http.Client
}

// get fetches rel under the repository's URL, at most limit bytes.
func (r Repo) get(ctx context.Context, rel string, limit int64) ([]byte, error) {
	u := r.URL.JoinPath(rel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, &StatusError{URL: u.String(), Status: resp.StatusCode}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %d bytes", u, limit)
	}
	return b, nil
}

// StatusError is an HTTP answer other than 200 from the repository.
type StatusError struct {
	URL    string
	Status int
}

func (e *StatusError) Error() string { return fmt.Sprintf("%s answered %d", e.URL, e.Status) }

// Index fetches and verifies the repository's index. A missing signature
// file is ErrUnsigned.
func (r Repo) Index(ctx context.Context) (*Index, error) {
	index, err := r.get(ctx, IndexFile, maxIndexBytes)
	if err != nil {
		return nil, err
	}
	sig, err := r.get(ctx, SignatureFile, 1024)
	if se := (*StatusError)(nil); errors.As(err, &se) && se.Status == http.StatusNotFound {
		return nil, ErrUnsigned
	}
	if err != nil {
		return nil, err
	}
	return Verify(index, sig, r.Keys)
}

// Download fetches artifact a and checks it against the index.
func (r Repo) Download(ctx context.Context, a Artifact) ([]byte, error) {
	data, err := r.get(ctx, a.Path, a.Size)
	if err != nil {
		return nil, err
	}
	if err := Check(a, data); err != nil {
		return nil, err
	}
	return data, nil
}
