package expression

import (
	"context"
	"fmt"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"

	"github.com/edged/edged/internal/plugin"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

// ItemExpressions is the expression filter's list of computed datapoints.
const ItemExpressions = "expressions"

// Definition describes the filter plugin.
func Definition() plugin.Definition {
	return plugin.Definition{
		Kind: plugin.KindFilter,
		Name: "expression", Version: "1.0.0",
		Description: "Computes datapoints from a reading's datapoints with expressions (expr-lang)",
		Items:       plugin.ItemsOf(Config{}),
		NewFilter: func(_ plugin.FilterEnv, cfg plugin.Config) (plugin.Filter, error) {
			e := &expression{}
			return e, e.Reconfigure(cfg)
		},
	}
}

type compiled struct {
	name string
	prog *vm.Program
}

// expression evaluates programs compiled once per configuration, on one
// reused VM (the pipeline runs a filter from one goroutine at a time).
type expression struct {
	exprs []compiled
	vm    vm.VM
}

func (e *expression) Reconfigure(cfg plugin.Config) error {
	var c Config
	if err := plugin.Decode(cfg, &c); err != nil {
		return err
	}
	raw := c.Expressions
	out := make([]compiled, 0, len(raw))
	for i, r := range raw {
		if r.Name == "" {
			return fmt.Errorf("expression %d has no name", i+1)
		}
		prog, err := expr.Compile(r.Expression, expr.Env(map[string]any{}), expr.AllowUndefinedVariables())
		if err != nil {
			// expr's message draws the position on further lines; the
			// first says what is wrong and where.
			first, _, _ := strings.Cut(err.Error(), "\n")
			return fmt.Errorf("expression %q: %s", r.Name, first)
		}
		out = append(out, compiled{name: r.Name, prog: prog})
	}
	e.exprs = out
	return nil
}

func (e *expression) Process(_ context.Context, points []plugin.Point) ([]plugin.Point, error) {
	for _, p := range points {
		for _, c := range e.exprs {
			v, err := e.vm.Run(c.prog, p.Values)
			if err != nil || v == nil {
				continue // a datapoint missing, or a type mismatch: nothing to compute
			}
			switch x := v.(type) {
			case int:
				v = int64(x)
			case float32:
				v = float64(x)
			case int32:
				v = int64(x)
			}
			p.Values[c.name] = v
		}
	}
	return points, nil
}

// The plugin implements the plugin SDK's interfaces, the ones plugins in
// their own processes implement too.
var (
	_ edgeplugin.Filter = (*expression)(nil)
)
