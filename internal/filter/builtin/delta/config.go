package delta

// Config is the configuration of the delta filter, its items.
type Config struct {
	Tolerance float64 `item:"tolerance" desc:"Smallest change of a numeric datapoint that is passed on (absolute); other values pass when they change" display:"Tolerance" default:"0" order:"2" min:"0"`
	MaxPeriod int     `item:"maxPeriod" desc:"Seconds, by the readings' timestamps, after which a datapoint is passed on even unchanged; 0: never" display:"Maximum period (s)" default:"0" order:"3" min:"0"`
}
