package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// The languages of the request samples, in the order the docs show them.
var sampleLangs = []struct{ lang, label string }{
	{"Shell", "curl"},
	{"Go", "Go"},
	{"Python", "Python"},
	{"JavaScript", "TypeScript"},
}

// samplesIntro is added to the docs page's introduction: what the samples
// assume.
const samplesIntro = `

## Request samples
Each operation shows how to call it with ` + "`curl`" + ` and with the SDKs
(generated from this contract, so the samples cannot drift from them). The
samples assume a gateway on ` + "`http://localhost:8081`" + ` and, where a token
is needed, a logged-in client:
- **curl**: ` + "`TOKEN`" + ` holds a token from ` + "`POST /edge/login`" + `.
- **Go** (` + "`github.com/edged/edged/clients/go/v2/edgeclient`" + `):
  ` + "`c, err := edgeclient.New(\"http://localhost:8081\")`" + `, then
  ` + "`c.Login(ctx, \"admin\", password)`" + `; every call returns an
  ` + "`*edgeclient.APIError`" + ` for an error status.
- **Python** (` + "`edged_client`" + `): ` + "`client = Client(\"http://localhost:8081\")`" + `, then
  ` + "`client.login(\"admin\", password)`" + `; every call raises an ` + "`ApiError`" + ` for an error status.
- **TypeScript** (` + "`@edged/client`" + `):
  ` + "`const edge = createEdgeClient({ baseUrl: \"http://localhost:8081\" })`" + `, then
  ` + "`await edge.login(\"admin\", password)`" + `; every call throws an ` + "`EdgeApiError`" + ` for an error status.
`

// sample is one operation's request samples.
type sample struct {
	opID   string
	method string
	path   string
	code   map[string]string // by lang
	// goImports are the packages the Go sample uses besides edgeclient.
	goImports []string
}

type sampleSet struct {
	samples []sample
}

// buildSamples makes the samples of every operation of the SDKs' view of
// the contract.
func buildSamples(doc *yaml.Node) (*sampleSet, error) {
	set := &sampleSet{}
	for _, o := range operations(doc) {
		s, err := newSample(doc, o)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", strings.ToUpper(o.method), o.path, err)
		}
		set.samples = append(set.samples, s)
	}
	return set, nil
}

// addCodeSamples sets x-codeSamples on every operation of doc (the
// contract as written) and explains the samples in the introduction.
func addCodeSamples(doc *yaml.Node, samples *sampleSet) {
	byOp := map[string]sample{}
	for _, s := range samples.samples {
		byOp[s.method+" "+s.path] = s
	}
	for _, o := range operations(doc) {
		s, ok := byOp[o.method+" "+o.path]
		if !ok {
			continue
		}
		list := &yaml.Node{Kind: yaml.SequenceNode}
		for _, l := range sampleLangs {
			entry := &yaml.Node{Kind: yaml.MappingNode}
			set(entry, "lang", scalar(l.lang))
			set(entry, "label", scalar(l.label))
			set(entry, "source", &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s.code[l.label], Style: yaml.LiteralStyle})
			list.Content = append(list.Content, entry)
		}
		set(o.op, "x-codeSamples", list)
	}
	if info := get(doc, "info"); info != nil {
		if d := get(info, "description"); d != nil {
			d.Value = strings.TrimRight(d.Value, "\n") + samplesIntro
		}
	}
}

// newSample builds the samples of one operation.
func newSample(doc *yaml.Node, o operation) (sample, error) {
	opID := str(o.op, "operationId")
	if opID == "" {
		return sample{}, fmt.Errorf("no operationId")
	}
	s := sample{opID: opID, method: o.method, path: o.path, code: map[string]string{}}
	secured := get(o.op, "security") == nil || len(get(o.op, "security").Content) > 0

	var pathParams, queryParams []param
	for _, list := range []*yaml.Node{get(o.item, "parameters"), get(o.op, "parameters")} {
		if list == nil {
			continue
		}
		for _, pn := range list.Content {
			p := resolve(doc, pn)
			pr := param{name: str(p, "name"), schema: resolve(doc, get(p, "schema")), ref: refName(get(p, "schema"))}
			pr.example = exampleOf(doc, p, pr.schema)
			switch str(p, "in") {
			case "path":
				pathParams = append(pathParams, pr)
			case "query":
				// Optional query parameters are left out: the gateway applies
				// their documented defaults.
				if str(p, "required") == "true" {
					queryParams = append(queryParams, pr)
				}
			}
		}
	}
	// Path parameters in the order of the path.
	slices.SortStableFunc(pathParams, func(a, b param) int {
		return strings.Index(o.path, "{"+a.name+"}") - strings.Index(o.path, "{"+b.name+"}")
	})
	hasQuery := paramsIn(o, doc, "query")

	var body *bodyInfo
	if rb := resolve(doc, get(o.op, "requestBody")); rb != nil {
		if media := get(get(rb, "content"), "application/json"); media != nil {
			schema := get(media, "schema")
			body = &bodyInfo{schema: schema, example: bodyExample(doc, media, schema)}
		}
	}

	s.code["curl"] = curlSample(o, pathParams, queryParams, body, secured)
	if special, ok := layerSamples[opID]; ok {
		s.code["Go"], s.code["Python"], s.code["TypeScript"] = special[0], special[1], special[2]
		s.goImports = layerImports[opID]
		return s, nil
	}
	goCode, imports, err := goSample(doc, opID, pathParams, queryParams, hasQuery, body, answersJSON(doc, o))
	if err != nil {
		return s, err
	}
	s.code["Go"], s.goImports = goCode, imports
	pyCode, err := pySample(doc, o, opID, pathParams, queryParams, body)
	if err != nil {
		return s, err
	}
	s.code["Python"] = pyCode
	s.code["TypeScript"] = tsSample(o, pathParams, queryParams, body)
	return s, nil
}

// layerSamples are the operations whose samples use the SDKs' convenience
// layer rather than the generated call: Go, Python, TypeScript.
var layerSamples = map[string][3]string{
	"login": {
		"res, err := c.Login(ctx, \"admin\", password) // later requests send res.Token\nif err != nil {\n\treturn err\n}\nfmt.Println(res.Uid, res.Admin)",
		"result = client.login(\"admin\", password)  # later requests send result.token\nprint(result.uid, result.admin)",
		"const result = await edge.login(\"admin\", password); // later requests send result.token\nconsole.log(result.uid, result.admin);",
	},
	"authenticate": {
		"// c presents its client certificate: edgeclient.WithTLSConfig(&tls.Config{Certificates: …})\nres, err := c.LoginWithCertificate(ctx)\nif err != nil {\n\treturn err\n}\nfmt.Println(res.Uid, res.Admin)",
		"# client presents its client certificate: Client(url, cert=(\"me.pem\", \"me.key\"), verify=\"ca.pem\")\nresult = client.login_with_certificate()\nprint(result.uid, result.admin)",
		"// edge's fetch presents the client certificate (a browser's own, or an undici Agent's in Node)\nconst result = await edge.loginWithCertificate();\nconsole.log(result.uid, result.admin);",
	},
	"logout": {
		"if err := c.Logout(ctx); err != nil {\n\treturn err\n}",
		"client.logout()",
		"await edge.logout();",
	},
	// A backup file is a gzip'd tar, not JSON, both ways.
	"downloadBackup": {
		"resp, err := c.DownloadBackupWithResponse(ctx, 1)\nif err != nil {\n\treturn err\n}\n" +
			"if err := os.WriteFile(\"backup-1.tar.gz\", resp.Body, 0o600); err != nil {\n\treturn err\n}",
		"from edged_client.api.backup import download_backup\n\n" +
			"response = download_backup.sync_detailed(backup_id=1, client=client)\n" +
			"with open(\"backup-1.tar.gz\", \"wb\") as f:\n    f.write(response.content)",
		"const { data, response } = await edge.raw.GET(\"/edge/backup/{backup_id}/download\", {\n" +
			"  params: { path: { backup_id: 1 } },\n  parseAs: \"blob\",\n});\n" +
			"if (!response.ok || data === undefined) throw new Error(`download failed: ${response.status}`);\n" +
			"console.log(data.size); // the backup file, a Blob: keep it, or upload it to another gateway",
	},
	"uploadBackup": {
		"f, err := os.Open(\"backup-1.tar.gz\")\nif err != nil {\n\treturn err\n}\ndefer func() { _ = f.Close() }()\n" +
			"resp, err := c.UploadBackupWithBodyWithResponse(ctx, \"application/octet-stream\", f)\nif err != nil {\n\treturn err\n}\n" +
			"fmt.Println(resp.JSON200)",
		"from edged_client.api.backup import upload_backup\nfrom edged_client.types import File\n\n" +
			"with open(\"backup-1.tar.gz\", \"rb\") as f:\n    result = upload_backup.sync(client=client, body=File(payload=f))\nprint(result)",
		"const file = new Blob([]); // the backup file's bytes, e.g. the Blob a download gave\n" +
			"const { data, response } = await edge.raw.POST(\"/edge/backup/upload\", {\n" +
			"  body: file as unknown as string,\n  bodySerializer: (body) => body as unknown as Blob,\n" +
			"  headers: { \"Content-Type\": \"application/octet-stream\" },\n});\n" +
			"if (!response.ok) throw new Error(`upload failed: ${response.status}`);\nconsole.log(data);",
	},
}

// layerImports are the packages the Go samples of layerSamples use
// besides edgeclient.
var layerImports = map[string][]string{
	"downloadBackup": {"os"},
	"uploadBackup":   {"fmt", "os"},
}

type param struct {
	name    string
	schema  *yaml.Node
	ref     string // the component the schema refers to, if any
	example any
}

type bodyInfo struct {
	schema  *yaml.Node
	example any
}

// paramsIn reports whether the operation has parameters in loc.
func paramsIn(o operation, doc *yaml.Node, loc string) bool {
	for _, list := range []*yaml.Node{get(o.item, "parameters"), get(o.op, "parameters")} {
		if list == nil {
			continue
		}
		for _, pn := range list.Content {
			if str(resolve(doc, pn), "in") == loc {
				return true
			}
		}
	}
	return false
}

// decode turns a YAML node into plain Go values (maps, slices, strings,
// numbers, booleans).
func decode(n *yaml.Node) any {
	if n == nil {
		return nil
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil
	}
	return normalize(v)
}

// normalize makes YAML-decoded values JSON-like: map[string]any, []any.
func normalize(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalize(e)
		}
		return v
	case []any:
		for i, e := range v {
			v[i] = normalize(e)
		}
		return v
	}
	return v
}

// exampleOf is the example of a parameter: its own, its schema's, or one
// made from its type.
func exampleOf(doc, p, schema *yaml.Node) any {
	if ex := get(p, "example"); ex != nil {
		return decode(ex)
	}
	return synth(doc, schema, 0)
}

// bodyExample is the example of a JSON body: the media type's, the first
// of its examples, or one made from the schema.
func bodyExample(doc, media, schema *yaml.Node) any {
	if ex := get(media, "example"); ex != nil {
		return decode(ex)
	}
	if exs := get(media, "examples"); exs != nil && len(exs.Content) >= 2 {
		return decode(get(resolve(doc, exs.Content[1]), "value"))
	}
	return synth(doc, schema, 0)
}

// synth makes an example value of a schema: its example, or one built from
// its type (objects from their required properties).
func synth(doc, s *yaml.Node, depth int) any {
	s = resolve(doc, s)
	if s == nil || depth > 8 {
		return nil
	}
	if ex := get(s, "example"); ex != nil {
		return decode(ex)
	}
	if def := get(s, "default"); def != nil {
		return decode(def)
	}
	if enum := get(s, "enum"); enum != nil && len(enum.Content) > 0 {
		return decode(enum.Content[0])
	}
	for _, k := range []string{"oneOf", "anyOf", "allOf"} {
		if list := get(s, k); list != nil && len(list.Content) > 0 {
			return synth(doc, list.Content[0], depth+1)
		}
	}
	switch str(s, "type") {
	case "object":
		// The required properties; without any, the first one, so that the
		// sample shows what the body is about.
		out := map[string]any{}
		props := get(s, "properties")
		if req := get(s, "required"); req != nil && len(req.Content) > 0 {
			for _, r := range req.Content {
				out[r.Value] = synth(doc, get(props, r.Value), depth+1)
			}
		} else if props != nil && len(props.Content) >= 2 {
			out[props.Content[0].Value] = synth(doc, props.Content[1], depth+1)
		}
		return out
	case "array":
		return []any{synth(doc, get(s, "items"), depth+1)}
	case "integer":
		return 1
	case "number":
		return 1.5
	case "boolean":
		return true
	case "string":
		if str(s, "format") == "uuid" {
			return "6f7a2a61-8d0b-4c63-9d9e-5bd7a7f2e0c1"
		}
		return "example"
	}
	return nil
}

// jsonText renders v as compact JSON with sorted keys.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// filledPath is the path with its parameters replaced by their examples,
// percent-encoded.
func filledPath(path string, params []param) string {
	for _, p := range params {
		path = strings.ReplaceAll(path, "{"+p.name+"}", urlEscape(fmt.Sprint(p.example)))
	}
	return path
}

func urlEscape(s string) string {
	var b strings.Builder
	for _, c := range []byte(s) {
		if c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)) || strings.IndexByte("-._~", c) >= 0) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

func curlSample(o operation, path, query []param, body *bodyInfo, secured bool) string {
	url := "http://localhost:8081" + filledPath(o.path, path)
	if len(query) > 0 {
		var qs []string
		for _, q := range query {
			qs = append(qs, q.name+"="+urlEscape(fmt.Sprint(q.example)))
		}
		url += "?" + strings.Join(qs, "&")
	}
	parts := []string{"curl -s"}
	if o.method != "get" {
		parts = append(parts, "-X "+strings.ToUpper(o.method))
	}
	parts = append(parts, shellQuote(url))
	if secured {
		parts = append(parts, `-H "authorization: $TOKEN"`)
	}
	if o.op != nil && str(o.op, "operationId") == "authenticate" {
		parts = append(parts, "--cert me.pem --key me.key --cacert ca.pem")
	}
	if body != nil {
		parts = append(parts, "-H 'Content-Type: application/json'", "-d "+shellQuote(jsonText(body.example)))
	}
	return strings.Join(parts, " \\\n  ")
}

// goName is oapi-codegen's Go name of a schema, property or operation:
// each run of letters and digits capitalised, the rest dropped.
func goName(s string) string {
	var b strings.Builder
	up := true
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			up = true
			continue
		}
		if up {
			r = unicode.ToUpper(r)
			up = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// snake is openapi-python-client's snake case of a name.
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		switch {
		case r == ' ' || r == '-' || r == '.':
			b.WriteRune('_')
		case unicode.IsUpper(r):
			if i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || (i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1]))) {
				b.WriteRune('_')
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// refName is the component name a schema node refers to, or "".
func refName(s *yaml.Node) string {
	ref := str(s, "$ref")
	if i := strings.LastIndex(ref, "/"); i >= 0 {
		return ref[i+1:]
	}
	return ""
}

// goLiteral renders a JSON-like value as a Go expression of type any.
func goLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		return strconv.Quote(v)
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			parts = append(parts, strconv.Quote(k)+": "+goLiteral(v[k]))
		}
		return "map[string]any{" + strings.Join(parts, ", ") + "}"
	case []any:
		var parts []string
		for _, e := range v {
			parts = append(parts, goLiteral(e))
		}
		return "[]any{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprint(v)
}

// goScalar renders a string, number or boolean as an untyped Go constant.
func goScalar(v any) (string, bool) {
	switch v.(type) {
	case string, bool, int, float64:
		return goLiteral(v), true
	}
	return "", false
}

// goValue renders v as a Go expression of the generated type of schema s;
// ptr asks for a pointer (an optional field). ok is false where the sample
// generator does not know the generated type.
func goValue(doc, s *yaml.Node, v any, ptr bool) (string, bool) {
	name := refName(s)
	rs := resolve(doc, s)
	if rs == nil {
		return "", false
	}
	if get(rs, "oneOf") != nil || get(rs, "anyOf") != nil || get(rs, "allOf") != nil {
		return "", false
	}
	typ := str(rs, "type")
	switch typ {
	case "string", "integer", "number", "boolean":
		lit, ok := goScalar(v)
		if !ok || str(rs, "format") == "uuid" || str(rs, "format") == "timestamp" {
			return "", false
		}
		if !ptr {
			return lit, true
		}
		switch {
		case name != "":
			return "edgeclient.Ptr(edgeclient." + goName(name) + "(" + lit + "))", true
		case typ == "string" && get(rs, "enum") != nil:
			return "", false // an inline enum has a generated type of its own
		case typ == "integer" && (str(rs, "format") == "int64" || str(rs, "format") == "int32"):
			return "edgeclient.Ptr[" + str(rs, "format") + "](" + lit + ")", true
		case typ == "number" && str(rs, "format") == "double":
			return "edgeclient.Ptr[float64](" + lit + ")", true
		case typ == "number":
			return "edgeclient.Ptr[float32](" + lit + ")", true
		}
		return "edgeclient.Ptr(" + lit + ")", true
	case "array":
		list, ok := v.([]any)
		if !ok {
			return "", false
		}
		items := get(rs, "items")
		var elemType string
		switch {
		case refName(items) != "":
			elemType = "edgeclient." + goName(refName(items))
		case str(resolve(doc, items), "type") == "string" && get(resolve(doc, items), "enum") == nil:
			elemType = "string"
		default:
			return "", false
		}
		var parts []string
		for _, e := range list {
			ev, ok := goValue(doc, items, e, false)
			if !ok {
				return "", false
			}
			parts = append(parts, ev)
		}
		return amp(ptr) + "[]" + elemType + "{" + strings.Join(parts, ", ") + "}", true
	case "object", "":
		m, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		props := get(rs, "properties")
		ap := get(rs, "additionalProperties")
		if props == nil || len(props.Content) == 0 {
			// A named map schema has a generated type of its own.
			mapType := func(elem string) string {
				if name != "" {
					return "edgeclient." + goName(name)
				}
				return "map[string]" + elem
			}
			switch {
			case ap != nil && refName(ap) != "":
				var parts []string
				for _, k := range slices.Sorted(maps.Keys(m)) {
					ev, ok := goValue(doc, ap, m[k], false)
					if !ok {
						return "", false
					}
					parts = append(parts, strconv.Quote(k)+": "+ev)
				}
				return amp(ptr) + mapType("edgeclient."+goName(refName(ap))) + "{" + strings.Join(parts, ", ") + "}", true
			case ap != nil && ap.Kind == yaml.MappingNode && str(ap, "type") != "" && get(ap, "enum") == nil:
				elem := map[string]string{"string": "string", "integer": "int", "number": "float32", "boolean": "bool"}[str(ap, "type")]
				if elem == "" || str(ap, "format") != "" {
					return "", false
				}
				var parts []string
				for _, k := range slices.Sorted(maps.Keys(m)) {
					ev, ok := goScalar(m[k])
					if !ok {
						return "", false
					}
					parts = append(parts, strconv.Quote(k)+": "+ev)
				}
				return amp(ptr) + mapType(elem) + "{" + strings.Join(parts, ", ") + "}", true
			case name == "" && (ap == nil || ap.Kind != yaml.MappingNode || len(ap.Content) == 0):
				// A free-form object: map[string]interface{}.
				return amp(ptr) + goLiteral(m), true
			}
			return "", false
		}
		if name == "" {
			return "", false // an inline object has a generated type of its own
		}
		required := map[string]bool{}
		if req := get(rs, "required"); req != nil {
			for _, r := range req.Content {
				required[r.Value] = true
			}
		}
		var fields []string
		for i := 0; i+1 < len(props.Content); i += 2 {
			pname := props.Content[i].Value
			pv, present := m[pname]
			if !present {
				continue
			}
			ev, ok := goValue(doc, props.Content[i+1], pv, !required[pname])
			if !ok {
				if required[pname] {
					return "", false
				}
				continue // left out of the sample
			}
			fields = append(fields, goName(pname)+": "+ev)
		}
		return amp(ptr) + "edgeclient." + goName(name) + "{" + strings.Join(fields, ", ") + "}", true
	}
	return "", false
}

func amp(ptr bool) string {
	if ptr {
		return "&"
	}
	return ""
}

func goSample(doc *yaml.Node, opID string, path, query []param, hasQuery bool, body *bodyInfo, jsonAnswer bool) (string, []string, error) {
	var pre []string
	imports := []string{"fmt"}
	args := []string{"ctx"}
	for _, p := range path {
		if str(p.schema, "format") == "uuid" {
			args = append(args, fmt.Sprintf("uuid.MustParse(%q)", fmt.Sprint(p.example)))
			imports = append(imports, "github.com/google/uuid")
			continue
		}
		lit, ok := goScalar(p.example)
		if !ok {
			return "", nil, fmt.Errorf("path parameter %s: no example", p.name)
		}
		args = append(args, lit)
	}
	if hasQuery {
		if len(query) == 0 {
			args = append(args, "nil")
		} else {
			var fields []string
			for _, q := range query {
				lit, ok := goScalar(q.example)
				if !ok {
					return "", nil, fmt.Errorf("query parameter %s: no example", q.name)
				}
				fields = append(fields, goName(q.name)+": "+lit)
			}
			args = append(args, "&edgeclient."+goName(opID)+"Params{"+strings.Join(fields, ", ")+"}")
		}
	}
	if body != nil {
		expr, stmts, bodyImports := goBody(doc, opID, body)
		pre = append(pre, stmts...)
		imports = append(imports, bodyImports...)
		args = append(args, expr)
	}
	code := strings.Join(pre, "\n")
	if code != "" {
		code += "\n"
	}
	answer := "resp.JSON200"
	if !jsonAnswer {
		answer = "string(resp.Body)" // the generated client decodes JSON answers only
	}
	code += "resp, err := c." + goName(opID) + "WithResponse(" + strings.Join(args, ", ") + ")\n" +
		"if err != nil {\n\treturn err\n}\nfmt.Println(" + answer + ")"
	return code, imports, nil
}

// answersJSON reports whether the operation's 200 answer is JSON.
func answersJSON(doc *yaml.Node, o operation) bool {
	ok := resolve(doc, get(get(o.op, "responses"), "200"))
	return ok == nil || get(get(ok, "content"), "application/json") != nil
}

// goBody renders the body argument: a literal of the generated type, a
// Union of a oneOf, or else JSON decoded into the body type.
func goBody(doc *yaml.Node, opID string, body *bodyInfo) (string, []string, []string) {
	rs := resolve(doc, body.schema)
	if variants := get(rs, "oneOf"); variants != nil && refName(body.schema) != "" {
		m, _ := body.example.(map[string]any)
		for _, vn := range variants.Content {
			if refName(vn) == "" || !hasRequired(resolve(doc, vn), m) {
				continue
			}
			if lit, ok := goValue(doc, vn, body.example, false); ok {
				return "body", []string{
					"body, err := edgeclient.Union[edgeclient." + goName(refName(body.schema)) + "](" + lit + ")",
					"if err != nil {\n\treturn err\n}",
				}, nil
			}
		}
	}
	if lit, ok := goValue(doc, body.schema, body.example, false); ok {
		return lit, nil, nil
	}
	return "body", []string{
		"var body edgeclient." + goName(opID) + "JSONRequestBody",
		"if err := json.Unmarshal([]byte(`" + jsonText(body.example) + "`), &body); err != nil {\n\treturn err\n}",
	}, []string{"encoding/json"}
}

// hasRequired reports whether m holds every required property of s.
func hasRequired(s *yaml.Node, m map[string]any) bool {
	req := get(s, "required")
	if req == nil {
		return true
	}
	for _, r := range req.Content {
		if _, ok := m[r.Value]; !ok {
			return false
		}
	}
	return true
}

// pyLiteral renders a JSON-like value as a Python expression.
func pyLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case string:
		b, _ := json.Marshal(v)
		return string(b)
	case bool:
		if v {
			return "True"
		}
		return "False"
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			parts = append(parts, pyLiteral(k)+": "+pyLiteral(v[k]))
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		var parts []string
		for _, e := range v {
			parts = append(parts, pyLiteral(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprint(v)
}

func pySample(doc *yaml.Node, o operation, opID string, path, query []param, body *bodyInfo) (string, error) {
	tags := get(o.op, "tags")
	if tags == nil || len(tags.Content) == 0 {
		return "", fmt.Errorf("no tag")
	}
	module := snake(opID)
	lines := []string{"from edged_client.api." + snake(tags.Content[0].Value) + " import " + module}
	var args []string
	// pyArg renders a parameter as the generated function takes it, or
	// reports that its generated type is not known here.
	pyArg := func(p param) (string, bool) {
		switch {
		case str(p.schema, "format") == "uuid":
			lines = append(lines, "from uuid import UUID")
			return snake(p.name) + "=UUID(" + pyLiteral(p.example) + ")", true
		case get(p.schema, "enum") != nil && p.ref != "":
			// An enum schema is a class of the models.
			lines = append(lines, "from edged_client.models import "+p.ref)
			return snake(p.name) + "=" + p.ref + "(" + pyLiteral(p.example) + ")", true
		case get(p.schema, "enum") != nil, get(p.schema, "oneOf") != nil, get(p.schema, "anyOf") != nil:
			return "", false
		}
		return snake(p.name) + "=" + pyLiteral(p.example), true
	}
	for _, p := range path {
		a, ok := pyArg(p)
		if !ok {
			return pyRawSample(o, path, query, body), nil
		}
		args = append(args, a)
	}
	args = append(args, "client=client")
	for _, q := range query {
		a, ok := pyArg(q)
		if !ok {
			return pyRawSample(o, path, query, body), nil
		}
		args = append(args, a)
	}
	if body != nil {
		name := refName(body.schema)
		rs := resolve(doc, body.schema)
		switch {
		case get(rs, "oneOf") != nil:
			m, _ := body.example.(map[string]any)
			name = ""
			for _, vn := range get(rs, "oneOf").Content {
				if refName(vn) != "" && hasRequired(resolve(doc, vn), m) {
					name = refName(vn)
					break
				}
			}
		case name == "" && (str(rs, "type") == "object" || get(rs, "properties") != nil):
			// An inline body's model is named after its operation.
			name = goName(opID) + "Body"
		}
		if name == "" {
			return pyRawSample(o, path, query, body), nil
		}
		lines = append(lines, "from edged_client.models import "+name)
		args = append(args, "body="+name+".from_dict("+pyLiteral(body.example)+")")
	}
	lines = append(lines, "", "result = "+module+".sync("+strings.Join(args, ", ")+")", "print(result)")
	return strings.Join(lines, "\n"), nil
}

// pyRawSample is the Python sample of an operation whose generated types
// the sample generator does not know: the request through the client's
// httpx client, which sends the token and raises nothing by itself.
func pyRawSample(o operation, path, query []param, body *bodyInfo) string {
	args := []string{strconv.Quote(strings.ToUpper(o.method)), strconv.Quote(filledPath(o.path, path))}
	if len(query) > 0 {
		m := map[string]any{}
		for _, q := range query {
			m[q.name] = q.example
		}
		args = append(args, "params="+pyLiteral(m))
	}
	if body != nil {
		args = append(args, "json="+pyLiteral(body.example))
	}
	return "response = client.get_httpx_client().request(" + strings.Join(args, ", ") + ")\nresponse.raise_for_status()\nprint(response.json())"
}

// tsLiteral renders a JSON-like value as a TypeScript expression.
func tsLiteral(v any) string {
	switch v := v.(type) {
	case map[string]any:
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(v)) {
			key := k
			if !isIdent(k) {
				key = strconv.Quote(k)
			}
			parts = append(parts, key+": "+tsLiteral(v[k]))
		}
		if len(parts) == 0 {
			return "{}"
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	case []any:
		var parts []string
		for _, e := range v {
			parts = append(parts, tsLiteral(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return jsonText(v)
}

func isIdent(s string) bool {
	for i, r := range s {
		if !unicode.IsLetter(r) && r != '_' && r != '$' && (i == 0 || !unicode.IsDigit(r)) {
			return false
		}
	}
	return s != ""
}

func tsSample(o operation, path, query []param, body *bodyInfo) string {
	var init []string
	var params []string
	if len(path) > 0 {
		m := map[string]any{}
		for _, p := range path {
			m[p.name] = p.example
		}
		params = append(params, "path: "+tsLiteral(m))
	}
	if len(query) > 0 {
		m := map[string]any{}
		for _, q := range query {
			m[q.name] = q.example
		}
		params = append(params, "query: "+tsLiteral(m))
	}
	if len(params) > 0 {
		init = append(init, "params: { "+strings.Join(params, ", ")+" }")
	}
	if body != nil {
		init = append(init, "body: "+tsLiteral(body.example))
	}
	args := strconv.Quote(o.path)
	if len(init) > 0 {
		args += ", { " + strings.Join(init, ", ") + " }"
	}
	return "const result = await edge." + o.method + "(" + args + ");\nconsole.log(result);"
}

// writeCheckSources writes the samples as sources the SDK tests compile:
// DIR/go/samples.go (package samples), DIR/python/samples.py and
// DIR/typescript/samples.ts, one function per operation.
func writeCheckSources(dir string, set *sampleSet) error {
	var g, py, ts strings.Builder
	imports := map[string]bool{"context": true, "github.com/edged/edged/clients/go/v2/edgeclient": true}
	for _, s := range set.samples {
		for _, i := range s.goImports {
			imports[i] = true
		}
	}
	g.WriteString("// Code generated by scripts/sdkgen from openapi.yaml: the docs' Go request samples, one function each; DO NOT EDIT.\n\npackage samples\n\nimport (\n")
	for _, i := range slices.Sorted(maps.Keys(imports)) {
		fmt.Fprintf(&g, "\t%q\n", i)
	}
	g.WriteString(")\n\n// password is the samples' admin password.\nvar password = \"\"\n")
	py.WriteString("# Generated by scripts/sdkgen from openapi.yaml: the docs' Python request samples, one function each.\nfrom edged_client import Client\n\npassword = \"\"\n")
	ts.WriteString("// Generated by scripts/sdkgen from openapi.yaml: the docs' TypeScript request samples, one function each.\nimport type { EdgeClient } from \"@edged/client\";\n\nconst password = \"\";\n")
	for _, s := range set.samples {
		fmt.Fprintf(&g, "\n// Sample%s is the sample of %s %s.\nfunc Sample%s(ctx context.Context, c *edgeclient.Client) error {\n%s\n\treturn nil\n}\n",
			goName(s.opID), strings.ToUpper(s.method), s.path, goName(s.opID), indent(s.code["Go"], "\t"))
		fmt.Fprintf(&py, "\n\ndef sample_%s(client: Client) -> None:\n%s\n", snake(s.opID), indent(s.code["Python"], "    "))
		fmt.Fprintf(&ts, "\nexport async function sample_%s(edge: EdgeClient): Promise<void> {\n%s\n}\n", s.opID, indent(s.code["TypeScript"], "  "))
	}
	for sub, content := range map[string]string{"go/samples.go": g.String(), "python/samples.py": py.String(), "typescript/samples.ts": ts.String()} {
		path := filepath.Join(dir, sub)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func indent(code, prefix string) string {
	lines := strings.Split(code, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
