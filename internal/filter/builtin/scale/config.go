package scale

// Config is the configuration of the scale filter, its items.
type Config struct {
	Rules []scaleRuleConfig `item:"rules" desc:"Rules tried in order, the first matching a datapoint applies: [{\"asset\": \"*\", \"datapoint\": \"temp*\", \"factor\": 0.1, \"offset\": -40}]; asset defaults to \"*\"; * and ? are wildcards" display:"Rules" default:"[{\"datapoint\": \"*\", \"factor\": 1, \"offset\": 0}]" order:"2" type:"JSON"`
}

// scaleRuleConfig is one rule of the scale filter's item rules.
type scaleRuleConfig struct {
	Asset     string   `json:"asset"`
	Datapoint string   `json:"datapoint"`
	Factor    *float64 `json:"factor"`
	Offset    float64  `json:"offset"`
}
