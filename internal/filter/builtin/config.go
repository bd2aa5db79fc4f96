package builtin

// scaleConfig is the configuration of the scale filter, its items.
type scaleConfig struct {
	Rules []scaleRuleConfig `item:"rules" desc:"Rules tried in order, the first matching a datapoint applies: [{\"asset\": \"*\", \"datapoint\": \"temp*\", \"factor\": 0.1, \"offset\": -40}]; asset defaults to \"*\"; * and ? are wildcards" display:"Rules" default:"[{\"datapoint\": \"*\", \"factor\": 1, \"offset\": 0}]" order:"2" type:"JSON"`
}

// renameConfig is the configuration of the rename filter, its items.
type renameConfig struct {
	Assets     map[string]string `item:"assets" desc:"Asset codes to rename, old to new: {\"plc1\": \"boiler\"}" display:"Assets" default:"{}" order:"2" type:"JSON"`
	Datapoints map[string]string `item:"datapoints" desc:"Datapoints to rename, old to new: {\"hr100\": \"temperature\"}; a renamed datapoint replaces one of its new name" display:"Datapoints" default:"{}" order:"3" type:"JSON"`
}

// expressionConfig is the configuration of the expression filter, its items.
type expressionConfig struct {
	Expressions []expressionItem `item:"expressions" desc:"Datapoints to compute, in order, each from the reading's datapoints and those computed before it: [{\"name\": \"power\", \"expression\": \"voltage * current\"}]; an existing datapoint of that name is replaced. A reading lacking a datapoint an expression uses, or an expression giving nil, leaves that datapoint out" display:"Expressions" default:"[]" order:"2" type:"JSON"`
}

// deltaConfig is the configuration of the delta filter, its items.
type deltaConfig struct {
	Tolerance float64 `item:"tolerance" desc:"Smallest change of a numeric datapoint that is passed on (absolute); other values pass when they change" display:"Tolerance" default:"0" order:"2" min:"0"`
	MaxPeriod int     `item:"maxPeriod" desc:"Seconds, by the readings' timestamps, after which a datapoint is passed on even unchanged; 0: never" display:"Maximum period (s)" default:"0" order:"3" min:"0"`
}

// downsampleConfig is the configuration of the downsample filter, its items.
type downsampleConfig struct {
	Interval int    `item:"interval" desc:"Length of an interval, in seconds" display:"Interval (s)" default:"60" order:"2" min:"1" max:"86400"`
	Function string `item:"function" desc:"How numeric datapoints of an interval are combined" display:"Function" default:"average" order:"3" type:"enumeration" options:"average|min|max|last"`
}

// assetsConfig is the configuration of the assets filter, its items.
type assetsConfig struct {
	Action string   `item:"action" desc:"include: only readings of matching assets pass; exclude: readings of matching assets are dropped" display:"Action" default:"include" order:"2" type:"enumeration" options:"include|exclude"`
	Assets []string `item:"assets" desc:"Asset code patterns: [\"line1/*\", \"pump?\"]; * and ? are wildcards" display:"Assets" default:"[\"*\"]" order:"3" type:"JSON"`
}

// metadataConfig is the configuration of the metadata filter, its items.
type metadataConfig struct {
	Metadata string `item:"metadata" desc:"Datapoints to add: {\"site\": \"plant 4\", \"line\": 2}; a datapoint the reading already has keeps its value" display:"Metadata" default:"{}" order:"2" type:"JSON"`
}

// scaleRuleConfig is one rule of the scale filter's item rules.
type scaleRuleConfig struct {
	Asset     string   `json:"asset"`
	Datapoint string   `json:"datapoint"`
	Factor    *float64 `json:"factor"`
	Offset    float64  `json:"offset"`
}

// expressionItem is one datapoint of the expression filter's item
// expressions.
type expressionItem struct {
	Name       string `json:"name"`
	Expression string `json:"expression"`
}
