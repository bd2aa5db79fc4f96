package expression

// Config is the configuration of the expression filter, its items.
type Config struct {
	Expressions []expressionItem `item:"expressions" desc:"Datapoints to compute, in order, each from the reading's datapoints and those computed before it: [{\"name\": \"power\", \"expression\": \"voltage * current\"}]; an existing datapoint of that name is replaced. A reading lacking a datapoint an expression uses, or an expression giving nil, leaves that datapoint out" display:"Expressions" default:"[]" order:"2" type:"JSON"`
}

// expressionItem is one datapoint of the expression filter's item
// expressions.
type expressionItem struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}
