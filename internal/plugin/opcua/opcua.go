// Package opcua is the south plugin that subscribes to OPC UA variables:
// it connects to an endpoint (security None, or Basic256Sha256 with Sign or
// SignAndEncrypt; anonymous or user name identity), monitors a list of node
// ids or every variable found under a root node, and turns each data
// change into a reading stamped with the server's source timestamp. The
// asset is named after the node or after its parent folder. Variables can
// be written through plugin.Writer, and the methods of one object called
// through plugin.Operator.
package opcua

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gopcua/opcua"
	"github.com/gopcua/opcua/id"
	"github.com/gopcua/opcua/ua"

	"github.com/edged/edged/internal/clock"
	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// Name is the plugin's name.
const Name = "opcua"

// Configuration items.
const (
	ItemEndpoint       = "endpoint"
	ItemSecurityPolicy = "securityPolicy"
	ItemSecurityMode   = "securityMode"
	ItemCertificate    = "certificate"
	ItemPrivateKey     = "privateKey"
	ItemUsername       = "username"
	ItemPassword       = "password"
	ItemNodes          = "nodes"
	ItemBrowseRoot     = "browseRoot"
	ItemInterval       = "publishingInterval"
	ItemAssetNaming    = "assetNaming"
	ItemAssetPrefix    = "assetPrefix"
	ItemMethodsParent  = "methodsParent"
)

// Asset naming choices.
const (
	NamingNode   = "node"
	NamingParent = "parent"
)

// Definition describes the plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Name: Name, Version: "1.0.0", Kind: plugin.KindSouth,
		Description: "Subscribes to OPC UA variables; each data change becomes a reading stamped with the server's source timestamp",
		Items:       plugin.ItemsOf(Config{}),
		New:         func(env plugin.Env, cfg plugin.Config) (plugin.South, error) { return New(env, cfg) },
	}
}

// settings is a checked configuration.
type settings struct {
	endpoint, policy, mode string
	cert                   []byte // DER; nil: make one
	key                    *rsa.PrivateKey
	username, password     string
	nodes                  []*ua.NodeID
	root                   *ua.NodeID
	methods                *ua.NodeID // nil: no operations
	interval               time.Duration
	parent                 bool
	prefix                 string
}

func parse(cfg plugin.Config) (settings, error) {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return settings{}, err
	}
	s := settings{endpoint: c.Endpoint, policy: c.SecurityPolicy, mode: c.SecurityMode,
		username: c.Username, password: c.Password, parent: c.AssetNaming == NamingParent, prefix: c.AssetPrefix}
	if !strings.HasPrefix(s.endpoint, "opc.tcp://") {
		return s, fmt.Errorf("item %q = %q is not an opc.tcp:// URL", ItemEndpoint, s.endpoint)
	}
	switch {
	case s.policy == "None" && s.mode != "None":
		return s, fmt.Errorf("security mode %s needs the policy Basic256Sha256", s.mode)
	case s.policy != "None" && s.mode == "None":
		return s, fmt.Errorf("security policy %s needs the mode Sign or SignAndEncrypt", s.policy)
	}
	if cert, k := c.Certificate, c.PrivateKey; cert != "" || k != "" {
		pair, err := tls.X509KeyPair([]byte(cert), []byte(k))
		if err != nil {
			return s, fmt.Errorf("items %q and %q: %w", ItemCertificate, ItemPrivateKey, err)
		}
		key, ok := pair.PrivateKey.(*rsa.PrivateKey)
		if !ok {
			return s, fmt.Errorf("item %q is not an RSA key", ItemPrivateKey)
		}
		s.cert, s.key = pair.Certificate[0], key
	}
	for _, n := range c.Nodes {
		nid, err := ua.ParseNodeID(n)
		if err != nil {
			return s, fmt.Errorf("item %q: node id %q: %w", ItemNodes, n, err)
		}
		s.nodes = append(s.nodes, nid)
	}
	if r := c.BrowseRoot; r != "" {
		nid, err := ua.ParseNodeID(r)
		if err != nil {
			return s, fmt.Errorf("item %q: node id %q: %w", ItemBrowseRoot, r, err)
		}
		s.root = nid
	}
	if m := c.MethodsParent; m != "" {
		nid, err := ua.ParseNodeID(m)
		if err != nil {
			return s, fmt.Errorf("item %q: node id %q: %w", ItemMethodsParent, m, err)
		}
		s.methods = nid
	}
	if len(s.nodes) == 0 && s.root == nil {
		return s, fmt.Errorf("items %q and %q name no node to monitor", ItemNodes, ItemBrowseRoot)
	}
	if c.PublishingInterval < 1 {
		return s, fmt.Errorf("item %q must be a positive integer", ItemInterval)
	}
	s.interval = time.Duration(c.PublishingInterval) * time.Millisecond
	return s, nil
}

// variable is a monitored node.
type variable struct {
	id        *ua.NodeID
	asset     string
	datapoint string
	kind      ua.TypeID // of its value when last read; writes convert to it
}

// OPCUA is a running instance.
type OPCUA struct {
	env plugin.Env
	log *slog.Logger
	clk clock.Clock
	s   settings

	mu     sync.Mutex // guards client and vars
	client *opcua.Client
	vars   []*variable // by client handle
}

var (
	_ plugin.South    = (*OPCUA)(nil)
	_ plugin.Writer   = (*OPCUA)(nil)
	_ plugin.Operator = (*OPCUA)(nil)
)

// New returns an instance for cfg; it connects when it runs.
func New(env plugin.Env, cfg plugin.Config) (*OPCUA, error) {
	s, err := parse(cfg)
	if err != nil {
		return nil, err
	}
	o := &OPCUA{env: env, log: env.Log(), clk: env.Time(), s: s}
	return o, nil
}

// Reconfigure asks for a new instance: any change needs a new session and
// subscription.
func (o *OPCUA) Reconfigure(cfg plugin.Config) error {
	if _, err := parse(cfg); err != nil {
		return err
	}
	return plugin.ErrRestart
}

// selfSigned makes a client certificate for one run.
func selfSigned(appURI string) ([]byte, *rsa.PrivateKey, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return nil, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial, Subject: pkix.Name{CommonName: "edged OPC UA client", Organization: []string{"edged"}},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageContentCommitment | x509.KeyUsageKeyEncipherment |
			x509.KeyUsageDataEncipherment | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth, x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
	}
	if u, err := url.Parse(appURI); err == nil {
		tmpl.URIs = append(tmpl.URIs, u)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	return der, key, err
}

// appURI is the application URI of the gateway as an OPC UA client; a
// client certificate must carry it.
const appURI = "urn:edged:gateway"

// connect opens a session.
func (o *OPCUA) connect(ctx context.Context) (*opcua.Client, error) {
	s := o.s
	eps, err := opcua.GetEndpoints(ctx, s.endpoint)
	if err != nil {
		return nil, fmt.Errorf("opcua: endpoints of %s: %w", s.endpoint, err)
	}
	mode := ua.MessageSecurityModeFromString(s.mode)
	ep, err := opcua.SelectEndpoint(eps, "http://opcfoundation.org/UA/SecurityPolicy#"+s.policy, mode)
	if err != nil || ep == nil {
		return nil, fmt.Errorf("opcua: %s offers no endpoint with policy %s and mode %s", s.endpoint, s.policy, s.mode)
	}
	ep.EndpointURL = s.endpoint // the server may announce a host name the gateway cannot resolve
	auth := ua.UserTokenTypeAnonymous
	opts := []opcua.Option{opcua.ApplicationURI(appURI), opcua.ApplicationName("edged"),
		opcua.AutoReconnect(true), opcua.ReconnectInterval(time.Second), opcua.RequestTimeout(10 * time.Second)}
	if s.username != "" {
		auth = ua.UserTokenTypeUserName
		opts = append(opts, opcua.AuthUsername(s.username, s.password))
	} else {
		opts = append(opts, opcua.AuthAnonymous())
	}
	if s.policy != "None" {
		cert, key := s.cert, s.key
		if cert == nil {
			if cert, key, err = selfSigned(appURI); err != nil {
				return nil, fmt.Errorf("opcua: client certificate: %w", err)
			}
		}
		opts = append(opts, opcua.Certificate(cert), opcua.PrivateKey(key))
	}
	opts = append(opts, opcua.SecurityFromEndpoint(ep, auth))
	c, err := opcua.NewClient(s.endpoint, opts...)
	if err != nil {
		return nil, fmt.Errorf("opcua: %w", err)
	}
	if err := c.Connect(ctx); err != nil {
		return nil, fmt.Errorf("opcua: connect to %s: %w", s.endpoint, err)
	}
	return c, nil
}

// name returns a node's browse name.
func name(ctx context.Context, n *opcua.Node) (string, error) {
	q, err := n.BrowseName(ctx)
	if err != nil {
		return "", err
	}
	return q.Name, nil
}

// parentName returns the browse name of the node that organises or holds
// n.
func parentName(ctx context.Context, c *opcua.Client, n *opcua.Node) (string, error) {
	parents, err := n.ReferencedNodes(ctx, id.HierarchicalReferences, ua.BrowseDirectionInverse, ua.NodeClassAll, true)
	if err != nil {
		return "", err
	}
	if len(parents) == 0 {
		return "", fmt.Errorf("node %s has no parent", n.ID)
	}
	return name(ctx, c.Node(parents[0].ID))
}

// resolve lists the variables to monitor with their assets and
// datapoints.
func (o *OPCUA) resolve(ctx context.Context, c *opcua.Client) ([]*variable, error) {
	var out []*variable
	seen := map[string]bool{}
	add := func(n *opcua.Node, parent string) error {
		if seen[n.ID.String()] {
			return nil
		}
		seen[n.ID.String()] = true
		bn, err := name(ctx, n)
		if err != nil {
			return fmt.Errorf("opcua: browse name of %s: %w", n.ID, err)
		}
		v := &variable{id: n.ID, asset: o.s.prefix + bn, datapoint: "value"}
		if o.s.parent {
			if parent == "" {
				if parent, err = parentName(ctx, c, n); err != nil {
					return fmt.Errorf("opcua: parent of %s: %w", n.ID, err)
				}
			}
			v.asset, v.datapoint = o.s.prefix+parent, bn
		}
		out = append(out, v)
		return nil
	}
	for _, nid := range o.s.nodes {
		if err := add(c.Node(nid), ""); err != nil {
			return nil, err
		}
	}
	if o.s.root != nil {
		if err := o.browse(ctx, c, c.Node(o.s.root), 0, add); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// browse calls add for every variable under n.
func (o *OPCUA) browse(ctx context.Context, c *opcua.Client, n *opcua.Node, depth int, add func(*opcua.Node, string) error) error {
	if depth > 10 {
		return nil
	}
	here, err := name(ctx, n)
	if err != nil {
		return fmt.Errorf("opcua: browse name of %s: %w", n.ID, err)
	}
	kids, err := n.ReferencedNodes(ctx, id.HierarchicalReferences, ua.BrowseDirectionForward, ua.NodeClassObject|ua.NodeClassVariable, true)
	if err != nil {
		return fmt.Errorf("opcua: browse %s: %w", n.ID, err)
	}
	for _, k := range kids {
		cls, err := k.NodeClass(ctx)
		if err != nil {
			return fmt.Errorf("opcua: class of %s: %w", k.ID, err)
		}
		switch cls {
		case ua.NodeClassVariable:
			if err := add(k, here); err != nil {
				return err
			}
		case ua.NodeClassObject:
			if err := o.browse(ctx, c, k, depth+1, add); err != nil {
				return err
			}
		}
	}
	return nil
}

// Run connects, subscribes and delivers readings until ctx ends. The
// client reconnects by itself and re-creates the subscription; a failure
// to connect or subscribe at the start ends Run with an error, so the
// runtime retries with backoff.
func (o *OPCUA) Run(ctx context.Context, sink plugin.Sink) error {
	c, err := o.connect(ctx)
	if err != nil {
		return err
	}
	defer func() { _ = c.Close(context.WithoutCancel(ctx)) }() // the session ends either way
	vars, err := o.resolve(ctx, c)
	if err != nil {
		return err
	}
	if len(vars) == 0 {
		return errors.New("opcua: no variable to monitor")
	}
	o.mu.Lock()
	o.client, o.vars = c, vars
	o.mu.Unlock()
	defer func() {
		o.mu.Lock()
		o.client = nil
		o.mu.Unlock()
	}()
	notes := make(chan *opcua.PublishNotificationData, 256)
	sub, err := c.Subscribe(ctx, &opcua.SubscriptionParameters{Interval: o.s.interval}, notes)
	if err != nil {
		return fmt.Errorf("opcua: subscribe: %w", err)
	}
	defer func() { _ = sub.Cancel(context.WithoutCancel(ctx)) }() // best effort; the session closes next
	reqs := make([]*ua.MonitoredItemCreateRequest, len(vars))
	for i, v := range vars {
		reqs[i] = opcua.NewMonitoredItemCreateRequestWithDefaults(v.id, ua.AttributeIDValue, uint32(i)) //nolint:gosec // i < len(vars)
		reqs[i].RequestedParameters.SamplingInterval = float64(o.s.interval) / float64(time.Millisecond)
	}
	res, err := sub.Monitor(ctx, ua.TimestampsToReturnBoth, reqs...)
	if err != nil {
		return fmt.Errorf("opcua: monitor: %w", err)
	}
	for i, r := range res.Results {
		if r.StatusCode != ua.StatusOK {
			o.log.Warn("opcua node not monitored", "node", vars[i].id.String(), "status", r.StatusCode.Error())
		}
	}
	o.log.Info("opcua subscribed", "endpoint", o.s.endpoint, "variables", len(vars))
	for {
		select {
		case <-ctx.Done():
			return nil
		case n := <-notes:
			if n.Error != nil {
				o.log.Warn("opcua subscription error", "error", n.Error)
				continue
			}
			if dc, ok := n.Value.(*ua.DataChangeNotification); ok {
				if rs := o.readings(dc); len(rs) > 0 {
					sink.Put(rs)
				}
			}
		}
	}
}

// readings turns one data change notification into readings: the values
// of one asset with one source timestamp form one reading.
func (o *OPCUA) readings(dc *ua.DataChangeNotification) []plugin.Reading {
	type key struct {
		asset string
		ts    time.Time
	}
	values := map[key]map[string]any{}
	var order []key
	o.mu.Lock()
	vars := o.vars
	o.mu.Unlock()
	for _, item := range dc.MonitoredItems {
		if int(item.ClientHandle) >= len(vars) || item.Value == nil || item.Value.Value == nil {
			continue
		}
		if item.Value.Status != ua.StatusOK {
			continue
		}
		v := vars[item.ClientHandle]
		ts := item.Value.SourceTimestamp
		if ts.IsZero() {
			ts = item.Value.ServerTimestamp
		}
		if ts.IsZero() {
			ts = o.clk.Now()
		}
		val, ok := jsonValue(item.Value.Value.Value())
		if !ok {
			continue
		}
		o.mu.Lock()
		v.kind = item.Value.Value.Type()
		o.mu.Unlock()
		k := key{v.asset, ts.UTC().Truncate(time.Microsecond)}
		if values[k] == nil {
			values[k] = map[string]any{}
			order = append(order, k)
		}
		values[k][v.datapoint] = val
	}
	out := make([]plugin.Reading, 0, len(order))
	for _, k := range order {
		raw, err := json.Marshal(values[k])
		if err != nil {
			continue
		}
		out = append(out, plugin.Reading{Asset: k.asset, Timestamp: k.ts, Values: raw})
	}
	return out
}

// jsonValue converts an OPC UA value to what a reading holds.
func jsonValue(v any) (any, bool) {
	switch x := v.(type) {
	case bool, string, int8, int16, int32, int64, uint8, uint16, uint32, uint64:
		return x, true
	case float32:
		return float64(x), !math.IsNaN(float64(x)) && !math.IsInf(float64(x), 0)
	case float64:
		return x, !math.IsNaN(x) && !math.IsInf(x, 0)
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano), true
	case *ua.LocalizedText:
		return x.Text, true
	}
	return fmt.Sprint(v), v != nil
}

// Write writes datapoints of asset to their variables, converting each
// value to the type the variable last held.
func (o *OPCUA) Write(ctx context.Context, asset string, values map[string]any) error {
	o.mu.Lock()
	c, vars := o.client, o.vars
	o.mu.Unlock()
	if c == nil {
		return errors.New("opcua: not connected")
	}
	req := &ua.WriteRequest{}
	for dp, val := range values {
		var target *variable
		for _, v := range vars {
			if (asset == "" || v.asset == asset) && v.datapoint == dp {
				if target != nil && target.asset != v.asset {
					return fmt.Errorf("%w: datapoint %q is in assets %q and %q: name the asset", plugin.ErrNotWritable, dp, target.asset, v.asset)
				}
				target = v
			}
		}
		if target == nil {
			return fmt.Errorf("%w: asset %q has no datapoint %q", plugin.ErrNotWritable, asset, dp)
		}
		o.mu.Lock()
		kind := target.kind
		o.mu.Unlock()
		variant, err := toVariant(val, kind)
		if err != nil {
			return fmt.Errorf("%w: datapoint %q: %w", plugin.ErrNotWritable, dp, err)
		}
		req.NodesToWrite = append(req.NodesToWrite, &ua.WriteValue{NodeID: target.id, AttributeID: ua.AttributeIDValue,
			Value: &ua.DataValue{EncodingMask: ua.DataValueValue, Value: variant}})
	}
	res, err := c.Write(ctx, req)
	if err != nil {
		return fmt.Errorf("opcua: write: %w", err)
	}
	for i, st := range res.Results {
		if st != ua.StatusOK {
			return fmt.Errorf("opcua: write of %s refused: %w", req.NodesToWrite[i].NodeID, st)
		}
	}
	return nil
}

// Operate calls the method named operation (its browse name) of the
// object the item methodsParent names, with params converted to the types
// of the method's input arguments, matched by name. It returns once the
// server answered: plugin.ErrNoOperation (wrapped) when no methods object
// is configured or it has no such method, plugin.ErrBadParameters
// (wrapped) for a missing, unknown or unconvertible parameter, otherwise
// the server's or the transport's error. The method is looked up at each
// call (operations are rare; the server's address space may change).
// Safe for concurrent use.
func (o *OPCUA) Operate(ctx context.Context, operation string, params map[string]any) error {
	if o.s.methods == nil {
		return fmt.Errorf("%w: item %q names no object whose methods may be called", plugin.ErrNoOperation, ItemMethodsParent)
	}
	o.mu.Lock()
	c := o.client
	o.mu.Unlock()
	if c == nil {
		return errors.New("opcua: not connected")
	}
	method, err := o.method(ctx, c, operation)
	if err != nil {
		return err
	}
	args, err := inputArguments(ctx, c, method)
	if err != nil {
		return err
	}
	in, err := callArguments(args, params)
	if err != nil {
		return err
	}
	res, err := c.Call(ctx, &ua.CallMethodRequest{ObjectID: o.s.methods, MethodID: method, InputArguments: in})
	if err != nil {
		return fmt.Errorf("opcua: call %s: %w", operation, err)
	}
	for i, st := range res.InputArgumentResults {
		if st != ua.StatusOK && i < len(args) {
			return fmt.Errorf("opcua: %s refused argument %q: %w", operation, args[i].Name, st)
		}
	}
	if res.StatusCode != ua.StatusOK {
		return fmt.Errorf("opcua: %s failed: %w", operation, res.StatusCode)
	}
	return nil
}

// method returns the id of the method of the methods object whose browse
// name is operation.
func (o *OPCUA) method(ctx context.Context, c *opcua.Client, operation string) (*ua.NodeID, error) {
	refs, err := c.Node(o.s.methods).References(ctx, id.HasComponent, ua.BrowseDirectionForward, ua.NodeClassMethod, true)
	if err != nil {
		return nil, fmt.Errorf("opcua: methods of %s: %w", o.s.methods, err)
	}
	for _, r := range refs {
		if r.BrowseName != nil && r.BrowseName.Name == operation && r.NodeID != nil {
			return r.NodeID.NodeID, nil
		}
	}
	return nil, fmt.Errorf("%w: %s has no method %q", plugin.ErrNoOperation, o.s.methods, operation)
}

// inputArguments reads a method's InputArguments property; a method
// without one takes no arguments.
func inputArguments(ctx context.Context, c *opcua.Client, method *ua.NodeID) ([]*ua.Argument, error) {
	props, err := c.Node(method).References(ctx, id.HasProperty, ua.BrowseDirectionForward, ua.NodeClassVariable, true)
	if err != nil {
		return nil, fmt.Errorf("opcua: properties of %s: %w", method, err)
	}
	for _, p := range props {
		if p.BrowseName == nil || p.BrowseName.Name != "InputArguments" || p.NodeID == nil {
			continue
		}
		v, err := c.Node(p.NodeID.NodeID).Value(ctx)
		if err != nil {
			return nil, fmt.Errorf("opcua: input arguments of %s: %w", method, err)
		}
		var out []*ua.Argument
		objs, _ := v.Value().([]*ua.ExtensionObject)
		if one, ok := v.Value().(*ua.ExtensionObject); ok {
			objs = []*ua.ExtensionObject{one}
		}
		for _, eo := range objs {
			a, ok := eo.Value.(*ua.Argument)
			if !ok {
				return nil, fmt.Errorf("opcua: input arguments of %s are not Arguments", method)
			}
			out = append(out, a)
		}
		return out, nil
	}
	return nil, nil
}

// callArguments converts params to the variants of args, in args' order.
func callArguments(args []*ua.Argument, params map[string]any) ([]*ua.Variant, error) {
	known := map[string]bool{}
	out := make([]*ua.Variant, 0, len(args))
	for _, a := range args {
		known[a.Name] = true
		val, ok := params[a.Name]
		if !ok {
			return nil, fmt.Errorf("%w: parameter %q is missing", plugin.ErrBadParameters, a.Name)
		}
		// Only scalars (ValueRank Scalar or ScalarOrOneDimension) are
		// passed: a parameter is one JSON value.
		if a.ValueRank != -1 && a.ValueRank != -3 {
			return nil, fmt.Errorf("%w: parameter %q takes an array or matrix, which operations do not pass", plugin.ErrBadParameters, a.Name)
		}
		// A built-in data type's node id in namespace 0 is its type id.
		dt := a.DataType
		if dt == nil || dt.Namespace() != 0 || dt.IntID() > uint32(ua.TypeIDDiagnosticInfo) ||
			dt.Type() != ua.NodeIDTypeNumeric && dt.Type() != ua.NodeIDTypeTwoByte && dt.Type() != ua.NodeIDTypeFourByte {
			return nil, fmt.Errorf("%w: parameter %q is of data type %v, which operations do not convert", plugin.ErrBadParameters, a.Name, dt)
		}
		v, err := toVariant(val, ua.TypeID(dt.IntID())) //nolint:gosec // a built-in type id fits
		if err != nil {
			return nil, fmt.Errorf("%w: parameter %q: %w", plugin.ErrBadParameters, a.Name, err)
		}
		out = append(out, v)
	}
	for name := range params {
		if !known[name] {
			return nil, fmt.Errorf("%w: the method takes no parameter %q", plugin.ErrBadParameters, name)
		}
	}
	return out, nil
}

// toVariant converts a value to a variant of kind (a variable's or an
// argument's type).
func toVariant(v any, kind ua.TypeID) (*ua.Variant, error) {
	f, isNum := plugin.Number(v)
	fail := fmt.Errorf("%v does not fit the type %s", v, kind)
	integer := func(lo, hi float64) (int64, error) {
		if !isNum || f != math.Trunc(f) || f < lo || f > hi {
			return 0, fail
		}
		return int64(f), nil
	}
	var out any
	switch kind {
	case ua.TypeIDDouble:
		if !isNum {
			return nil, fail
		}
		out = f
	case ua.TypeIDFloat:
		if !isNum {
			return nil, fail
		}
		out = float32(f)
	case ua.TypeIDSByte:
		n, err := integer(math.MinInt8, math.MaxInt8)
		if err != nil {
			return nil, err
		}
		out = int8(n) //nolint:gosec // range checked by integer
	case ua.TypeIDByte:
		n, err := integer(0, math.MaxUint8)
		if err != nil {
			return nil, err
		}
		out = uint8(n) //nolint:gosec // range checked by integer
	case ua.TypeIDInt16:
		n, err := integer(math.MinInt16, math.MaxInt16)
		if err != nil {
			return nil, err
		}
		out = int16(n) //nolint:gosec // range checked by integer
	case ua.TypeIDInt32:
		n, err := integer(math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, err
		}
		out = int32(n) //nolint:gosec // range checked by integer
	case ua.TypeIDInt64:
		n, err := integer(math.MinInt64, math.MaxInt64)
		if err != nil {
			return nil, err
		}
		out = n
	case ua.TypeIDUint16:
		n, err := integer(0, math.MaxUint16)
		if err != nil {
			return nil, err
		}
		out = uint16(n) //nolint:gosec // range checked by integer
	case ua.TypeIDUint32:
		n, err := integer(0, math.MaxUint32)
		if err != nil {
			return nil, err
		}
		out = uint32(n) //nolint:gosec // range checked by integer
	case ua.TypeIDBoolean:
		b, ok := v.(bool)
		if !ok {
			return nil, fail
		}
		out = b
	case ua.TypeIDString:
		s, ok := v.(string)
		if !ok {
			return nil, fail
		}
		out = s
	default:
		return nil, fmt.Errorf("values of type %s are not converted", kind)
	}
	return ua.NewVariant(out)
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.South    = (*OPCUA)(nil)
	_ edgeplugin.Writer   = (*OPCUA)(nil)
	_ edgeplugin.Operator = (*OPCUA)(nil)
)
