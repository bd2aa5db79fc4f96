// Package cors holds the origins whose browser pages may call the API
// (rest_api.allowedOrigins), kept current as the item changes, and decides
// for a request's Origin header whether it is one of them.
package cors

import (
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strings"

	"github.com/edged/edged/internal/configmgr"
)

// Any is the entry that allows every origin.
const Any = "*"

// Policy is a parsed allowedOrigins value.
type Policy struct {
	any     bool
	origins map[string]bool // lower case, without a trailing slash
}

// Parse reads a comma-separated list of origins (scheme://host[:port]) or
// "*". Entries are trimmed and compared ignoring case; empty entries are
// skipped. Entries that are not origins can never match a browser's Origin
// header; they are returned in invalid so that the caller can say so.
func Parse(value string) (p Policy, invalid []string) {
	p.origins = map[string]bool{}
	for _, e := range strings.Split(value, ",") {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
		case e == Any:
			p.any = true
		case !isOrigin(e):
			invalid = append(invalid, e)
		default:
			p.origins[normalise(e)] = true
		}
	}
	return p, invalid
}

// isOrigin reports whether s is an origin: a scheme and a host, with
// nothing after the port but an optional "/".
func isOrigin(s string) bool {
	u, err := url.Parse(s)
	return err == nil && u.Scheme != "" && u.Host != "" && u.User == nil &&
		(u.Path == "" || u.Path == "/") && u.RawQuery == "" && u.Fragment == ""
}

func normalise(origin string) string {
	return strings.ToLower(strings.TrimSuffix(origin, "/"))
}

// Allow returns the Access-Control-Allow-Origin value for a request from
// origin ("*" when every origin is allowed, else the origin itself) and
// whether origin is allowed.
func (p Policy) Allow(origin string) (string, bool) {
	switch {
	case p.any:
		return Any, true
	case p.origins[normalise(origin)]:
		return origin, true
	}
	return "", false
}

// ConfigSource is the part of the configuration manager Origins needs.
type ConfigSource = configmgr.Source

// Origins is the current policy of rest_api.allowedOrigins; a change
// applies to the next request, without a restart. Safe for concurrent use.
type Origins struct {
	cur *configmgr.Followed[Policy]
}

// Watch reads rest_api.allowedOrigins from src and follows its changes
// until Close. Entries that are not origins are logged as warnings.
func Watch(ctx context.Context, src ConfigSource, log *slog.Logger) (*Origins, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cur, err := configmgr.Follow(ctx, src, configmgr.CategoryRESTAPI, func(c configmgr.Category) Policy {
		p, invalid := Parse(c.Items[configmgr.ItemAllowedOrigins].Value)
		if len(invalid) > 0 {
			log.WarnContext(ctx, "rest_api.allowedOrigins entries that are not origins (scheme://host[:port]) never match",
				"entries", invalid)
		}
		return p
	})
	if err != nil {
		return nil, fmt.Errorf("cors: read %s.%s: %w", configmgr.CategoryRESTAPI, configmgr.ItemAllowedOrigins, err)
	}
	return &Origins{cur: cur}, nil
}

// Allow is Policy.Allow on the current policy.
func (o *Origins) Allow(origin string) (string, bool) { return o.cur.Load().Allow(origin) }

// Close ends the subscription.
func (o *Origins) Close() { o.cur.Close() }
