package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/edged/edged/clients/go/v2/edgeclient"
	"github.com/edged/edged/internal/fleetconfig"
)

// configUsage is the help of `edged config`.
const configUsage = `usage: edged config export|plan|apply [flags]

  export  write the configuration of the gateway at --url (YAML, or JSON with --format json)
  plan    show what applying the document --file would change on each --url
  apply   make each gateway named by --url hold the document --file

Secrets in the document ({fromEnv: NAME}, {fromFile: PATH}, a relative
PATH taken from the document's folder) are resolved here, on this machine,
and sent to the gateways as values; the gateways never read them.
Credentials: --user with the password in EDGE_PASSWORD or --password-file,
or a session token in --token / EDGE_TOKEN. Exit status: 0 done, 1 a
gateway refused or failed, 2 bad usage, 3 (plan with --exit-code) a
gateway differs from the document.

flags:
`

// urls is a repeatable --url flag.
type urls []string

func (u *urls) String() string     { return strings.Join(*u, ",") }
func (u *urls) Set(v string) error { *u = append(*u, v); return nil }

// runConfig runs `edged config …` with args (after "config") and returns
// the exit status: 0 done, 1 a gateway refused or failed, 2 bad usage.
func runConfig(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || (args[0] != "export" && args[0] != "plan" && args[0] != "apply") {
		_, _ = fmt.Fprint(stderr, configUsage)
		return 2
	}
	verb := args[0]
	fs := flag.NewFlagSet("edged config "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	var targets urls
	fs.Var(&targets, "url", "gateway base URL, e.g. http://gw1:8081 (repeat for a fleet; default EDGE_URL)")
	userName := fs.String("user", os.Getenv("EDGE_USER"), "user name to log in with (EDGE_USER); the password comes from EDGE_PASSWORD or --password-file")
	passwordFile := fs.String("password-file", "", "file holding the password of --user")
	token := fs.String("token", os.Getenv("EDGE_TOKEN"), "session token instead of --user (EDGE_TOKEN)")
	file := fs.String("file", "", "the document (YAML or JSON); plan and apply: required; export: the output (default standard output)")
	format := fs.String("format", "yaml", "export: yaml or json")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit of each call")
	exitCode := fs.Bool("exit-code", false, "plan: exit with 3 when a gateway differs from the document (drift)")
	fs.Usage = func() { _, _ = fmt.Fprint(stderr, configUsage); fs.PrintDefaults() }
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		_, _ = fmt.Fprintf(stderr, "edged config %s: unexpected argument %q\n", verb, fs.Arg(0))
		return 2
	}
	if len(targets) == 0 && os.Getenv("EDGE_URL") != "" {
		targets = urls{os.Getenv("EDGE_URL")}
	}
	fail := func(format string, a ...any) int {
		_, _ = fmt.Fprintf(stderr, "edged config %s: %s\n", verb, fmt.Sprintf(format, a...))
		return 1
	}
	switch {
	case len(targets) == 0:
		_, _ = fmt.Fprintf(stderr, "edged config %s: --url is required\n", verb)
		return 2
	case verb == "export" && len(targets) > 1:
		_, _ = fmt.Fprintln(stderr, "edged config export: give one --url")
		return 2
	case verb != "export" && *file == "":
		_, _ = fmt.Fprintf(stderr, "edged config %s: --file is required\n", verb)
		return 2
	case *format != "yaml" && *format != "json":
		_, _ = fmt.Fprintf(stderr, "edged config %s: --format is yaml or json, not %q\n", verb, *format)
		return 2
	}
	password := os.Getenv("EDGE_PASSWORD")
	if *passwordFile != "" {
		b, err := os.ReadFile(*passwordFile) //nolint:gosec // the file the operator named
		if err != nil {
			return fail("read the password: %v", err)
		}
		password = strings.TrimSuffix(string(b), "\n")
	}
	creds := credentials{user: *userName, password: password, token: *token, timeout: *timeout}

	if verb == "export" {
		c, err := creds.client(ctx, targets[0])
		if err != nil {
			return fail("%s: %v", targets[0], err)
		}
		out, err := exportDocument(ctx, c, *format)
		if err != nil {
			return fail("%s: %v", targets[0], err)
		}
		if *file == "" {
			_, err = stdout.Write(out)
		} else {
			err = os.WriteFile(*file, out, 0o600) //nolint:gosec // the file the operator named
		}
		if err != nil {
			return fail("%v", err)
		}
		return 0
	}

	doc, err := readDocument(*file)
	if err != nil {
		return fail("%v", err)
	}
	if err := resolveSecrets(&doc, filepath.Dir(*file), os.LookupEnv); err != nil {
		return fail("%v", err)
	}
	body, err := json.Marshal(doc)
	if err != nil {
		return fail("%v", err)
	}
	status, drift := 0, false
	for _, u := range targets {
		c, err := creds.client(ctx, u)
		var n int
		if err == nil {
			n, err = planOrApply(ctx, c, verb, u, body, stdout)
		}
		if err != nil {
			_, _ = fmt.Fprintf(stderr, "edged config %s: %s: %v\n", verb, u, err)
			status = 1
		}
		drift = drift || n > 0
	}
	if status == 0 && drift && verb == "plan" && *exitCode {
		return 3
	}
	return status
}

// credentials log a client in to each gateway.
type credentials struct {
	user, password, token string
	timeout               time.Duration
}

func (cr credentials) client(ctx context.Context, url string) (*edgeclient.Client, error) {
	c, err := edgeclient.New(url, edgeclient.WithToken(cr.token), edgeclient.WithTimeout(cr.timeout))
	if err != nil {
		return nil, err
	}
	if cr.user != "" {
		if _, err := c.Login(ctx, cr.user, cr.password); err != nil {
			return nil, fmt.Errorf("log in as %s: %w", cr.user, err)
		}
	}
	return c, nil
}

// exportDocument fetches the document and writes it as YAML or JSON.
func exportDocument(ctx context.Context, c *edgeclient.Client, format string) ([]byte, error) {
	resp, err := c.ExportConfigWithResponse(ctx)
	if err != nil {
		return nil, err
	}
	var doc any
	if err := json.Unmarshal(resp.Body, &doc); err != nil {
		return nil, fmt.Errorf("the gateway's document: %w", err)
	}
	if format == "json" {
		out, err := json.MarshalIndent(doc, "", "  ")
		return append(out, '\n'), err
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), enc.Close()
}

// readDocument reads a YAML or JSON document (JSON is YAML), refusing
// unknown fields.
func readDocument(path string) (fleetconfig.Document, error) {
	b, err := os.ReadFile(path) //nolint:gosec // the document the operator named
	if err != nil {
		return fleetconfig.Document{}, err
	}
	var tree any
	if err := yaml.Unmarshal(b, &tree); err != nil {
		return fleetconfig.Document{}, fmt.Errorf("%s: %w", path, err)
	}
	j, err := json.Marshal(tree)
	if err != nil {
		return fleetconfig.Document{}, fmt.Errorf("%s: %w", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	var doc fleetconfig.Document
	if err := dec.Decode(&doc); err != nil {
		return fleetconfig.Document{}, fmt.Errorf("%s: %w", path, err)
	}
	return doc, nil
}

// resolveSecrets replaces every secret reference of doc by the value it
// names: an environment variable (lookup) or a file, relative to dir when
// not absolute, its final newline dropped.
func resolveSecrets(doc *fleetconfig.Document, dir string, lookup func(string) (string, bool)) error {
	resolve := func(where string, v *fleetconfig.Value) error {
		if v == nil || v.Ref == nil {
			return nil
		}
		r := *v.Ref
		if r.FromEnv != "" {
			s, ok := lookup(r.FromEnv)
			if !ok {
				return fmt.Errorf("%s: environment variable %s is not set", where, r.FromEnv)
			}
			*v = fleetconfig.Plain(s)
			return nil
		}
		p := r.FromFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		// The operator's own document names the file, read on the
		// operator's machine: that is the point of a reference.
		b, err := os.ReadFile(p) //nolint:gosec // a file the document names
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		*v = fleetconfig.Plain(strings.TrimSuffix(string(b), "\n"))
		return nil
	}
	values := func(where string, vs fleetconfig.Values) error {
		for item, v := range vs {
			if err := resolve(where+", item "+item, &v); err != nil {
				return err
			}
			vs[item] = v
		}
		return nil
	}
	var errs []error
	for _, c := range doc.Categories {
		errs = append(errs, values("category "+c.Name, c.Items))
	}
	for _, s := range doc.Services {
		errs = append(errs, values("service "+s.Name, s.Config))
	}
	for _, f := range doc.Filters {
		errs = append(errs, values("filter "+f.Name, f.Config))
	}
	for _, n := range doc.Notifications {
		errs = append(errs, values("notification "+n.Name+" rule", n.RuleConfig), values("notification "+n.Name+" delivery", n.DeliveryConfig))
		for _, c := range n.Channels {
			errs = append(errs, values("channel "+n.Name+"/"+c.Name, c.Config))
		}
	}
	for i := range doc.Users {
		errs = append(errs, resolve("user "+doc.Users[i].Name+", password", doc.Users[i].Password))
	}
	return errors.Join(errs...)
}

// planOrApply sends the document to one gateway, prints the changes and
// returns how many there are.
func planOrApply(ctx context.Context, c *edgeclient.Client, verb, url string, body []byte, out io.Writer) (int, error) {
	var (
		res *edgeclient.FleetChanges
		err error
	)
	if verb == "plan" {
		var r *edgeclient.PlanConfigResponse
		r, err = c.PlanConfigWithBodyWithResponse(ctx, "application/json", bytes.NewReader(body))
		if err == nil {
			res = r.JSON200
		}
	} else {
		var r *edgeclient.ApplyConfigResponse
		r, err = c.ApplyConfigWithBodyWithResponse(ctx, "application/json", bytes.NewReader(body))
		if err == nil {
			res = r.JSON200
		}
	}
	if err != nil {
		return 0, err
	}
	if res == nil {
		return 0, fmt.Errorf("the gateway's answer holds no changes")
	}
	_, _ = fmt.Fprint(out, formatChanges(verb, url, *res))
	return len(res.Changes), nil
}

// formatChanges writes changes one a line: + create, ~ change, - remove.
func formatChanges(verb, url string, r edgeclient.FleetChanges) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s:\n", url)
	sign := map[edgeclient.FleetChangeAction]string{edgeclient.FleetActionCreate: "+", edgeclient.FleetActionChange: "~", edgeclient.FleetActionRemove: "-"}
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "  %s %s %s", sign[c.Action], c.Kind, c.Name)
		if c.Field != nil {
			fmt.Fprintf(&b, " %s: %q → %q", *c.Field, deref(c.From), deref(c.To))
		}
		b.WriteString("\n")
	}
	what := "would be"
	if verb == "apply" {
		what = "were"
	}
	if len(r.Changes) == 0 {
		fmt.Fprintf(&b, "  no changes\n")
		return b.String()
	}
	fmt.Fprintf(&b, "  %d %s created, %d changed, %d removed\n", r.Summary.Create, what, r.Summary.Change, r.Summary.Remove)
	return b.String()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
