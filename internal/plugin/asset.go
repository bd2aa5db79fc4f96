package plugin

import (
	"errors"
	"fmt"
	"unicode/utf8"
)

// MaxAssetCode is the longest asset code the gateway takes, in characters
// (Unicode code points): what the API's {code} path parameters accept
// (openapi.yaml, maxLength of AssetCode). Every reading passes the ingest
// buffer, which refuses longer codes (CheckAsset), so whatever is stored
// can be named in the API, and both stores index every code (PostgreSQL's
// btree refuses a key of more than about 2,700 bytes).
const MaxAssetCode = 255

// ErrAssetCode means a reading's asset code is empty or longer than
// MaxAssetCode. Sending the reading again cannot succeed.
var ErrAssetCode = errors.New("asset code not allowed")

// CheckAsset returns an error wrapping ErrAssetCode, naming the code
// (shortened), when code is empty or longer than MaxAssetCode characters;
// nil otherwise. It is the one check of an asset code's length: the ingest
// buffer applies it to every reading, whichever plugin or filter made it.
func CheckAsset(code string) error {
	if code == "" {
		return &assetError{"the asset code is empty"}
	}
	// A code of at most MaxAssetCode bytes has at most as many
	// characters: the common case costs no counting.
	if len(code) <= MaxAssetCode {
		return nil
	}
	if n := utf8.RuneCountInString(code); n > MaxAssetCode {
		return &assetError{fmt.Sprintf("asset code %s has %d characters, more than the %d the gateway takes",
			ShortAsset(code), n, MaxAssetCode)}
	}
	return nil
}

// assetError is an error of CheckAsset: its message names the code.
type assetError struct{ msg string }

func (e *assetError) Error() string        { return e.msg }
func (e *assetError) Is(target error) bool { return target == ErrAssetCode }

// ShortAsset quotes code for a message or a log line, shortened to its
// first 32 characters when longer.
func ShortAsset(code string) string {
	const keep = 32
	i, n := 0, 0
	for i < len(code) && n < keep {
		_, size := utf8.DecodeRuneInString(code[i:])
		i += size
		n++
	}
	if i >= len(code) {
		return fmt.Sprintf("%q", code)
	}
	return fmt.Sprintf("%q…", code[:i])
}
