package assets

// Config is the configuration of the assets filter, its items.
type Config struct {
	Action string   `item:"action" desc:"include: only readings of matching assets pass; exclude: readings of matching assets are dropped" display:"Action" default:"include" order:"2" type:"enumeration" options:"include|exclude"`
	Assets []string `item:"assets" desc:"Asset code patterns: [\"line1/*\", \"pump?\"]; * and ? are wildcards" display:"Assets" default:"[\"*\"]" order:"3" type:"JSON"`
}
