package pkgrepo

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// maxIndexBytes bounds the index and signature a repository may serve.
const maxIndexBytes = 16 << 20

// Repo is a repository at a URL, trusted under keys.
type Repo struct {
	URL    *url.URL
	Keys   []ed25519.PublicKey
	Client *http.Client
}

// Categories of a failed request to a repository (FetchError.Category).
const (
	Unreachable = "unreachable" // no connection: name, route, port
	TimedOut    = "timed out"
	Refused     = "refused"   // an HTTP answer other than 200
	Oversized   = "oversized" // more bytes than the index allows
)

// FetchError is a failed request to the repository. Its message names
// only its category (and the HTTP status), never the address, the dial
// error or what the network said, so a caller learns nothing about the
// network behind the gateway; Err is the full error, for the package log
// an admin reads (Detail).
type FetchError struct {
	Category string
	Status   int // for Refused
	Err      error
}

func (e *FetchError) Error() string {
	switch e.Category {
	case Refused:
		return fmt.Sprintf("the package repository refused the request with status %d", e.Status)
	case TimedOut:
		return "the package repository timed out"
	case Oversized:
		return "the package repository served more than allowed"
	}
	return "the package repository is unreachable"
}

func (e *FetchError) Unwrap() error { return e.Err }

// Detail returns err with the full cause of a FetchError in it: the text
// for the package log, not for the caller.
func Detail(err error) string {
	if fe := (*FetchError)(nil); errors.As(err, &fe) && fe.Err != nil {
		return fmt.Sprintf("%v (%v)", err, fe.Err)
	}
	return err.Error()
}

// fetchError categorises err, which a request for u returned.
func fetchError(ctx context.Context, err error) error {
	if fe := (*FetchError)(nil); errors.As(err, &fe) {
		return err
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		return &FetchError{Category: TimedOut, Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return err // the caller gave up: no repository fault
	}
	return &FetchError{Category: Unreachable, Err: err}
}

// open requests rel under the repository's URL; the caller closes the
// body of the 200 answer it returns.
func (r Repo) open(ctx context.Context, rel string) (io.ReadCloser, error) {
	u := r.URL.JoinPath(rel)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, &FetchError{Category: Unreachable, Err: err}
	}
	resp, err := r.Client.Do(req)
	if err != nil {
		return nil, fetchError(ctx, err)
	}
	if resp.StatusCode != http.StatusOK {
		_ = resp.Body.Close()
		return nil, &FetchError{Category: Refused, Status: resp.StatusCode, Err: fmt.Errorf("%s answered %d", u, resp.StatusCode)}
	}
	return resp.Body, nil
}

// get fetches rel under the repository's URL, at most limit bytes.
func (r Repo) get(ctx context.Context, rel string, limit int64) ([]byte, error) {
	body, err := r.open(ctx, rel)
	if err != nil {
		return nil, err
	}
	defer func() { _ = body.Close() }()
	b, err := io.ReadAll(io.LimitReader(body, limit+1))
	if err != nil {
		return nil, fetchError(ctx, err)
	}
	if int64(len(b)) > limit {
		return nil, &FetchError{Category: Oversized, Err: fmt.Errorf("%s: more than %d bytes", r.URL.JoinPath(rel), limit)}
	}
	return b, nil
}

// Index fetches and verifies the repository's index. A missing signature
// file is ErrUnsigned. It does not Check the index's freshness: the
// caller knows the time and what it accepted before.
func (r Repo) Index(ctx context.Context) (*Index, error) {
	index, err := r.get(ctx, IndexFile, maxIndexBytes)
	if err != nil {
		return nil, err
	}
	sig, err := r.get(ctx, SignatureFile, 1024)
	if fe := (*FetchError)(nil); errors.As(err, &fe) && fe.Category == Refused && fe.Status == http.StatusNotFound {
		return nil, ErrUnsigned
	}
	if err != nil {
		return nil, err
	}
	return Verify(index, sig, r.Keys)
}

// Download streams artifact a into a new file in dir, hashing it on the
// way, and returns the file, positioned at its start, once its size and
// SHA-256 match the index: the artifact is never held in memory. The
// caller closes and removes the file; on error nothing is left in dir.
func (r Repo) Download(ctx context.Context, a Artifact, dir string) (*os.File, error) {
	body, err := r.open(ctx, a.Path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = body.Close() }()
	f, err := os.CreateTemp(dir, ".artifact-*")
	if err != nil {
		return nil, err
	}
	keep := false
	defer func() {
		if !keep {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(body, a.Size+1))
	if err != nil {
		if errors.As(err, new(*os.PathError)) {
			return nil, err // the local disk, not the repository
		}
		return nil, fetchError(ctx, err)
	}
	if n != a.Size || hex.EncodeToString(h.Sum(nil)) != strings.ToLower(a.SHA256) {
		return nil, fmt.Errorf("%s: %w", a.Path, ErrTampered)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	keep = true
	return f, nil
}
