package downsample

// Config is the configuration of the downsample filter, its items.
type Config struct {
	Interval int    `item:"interval" desc:"Length of an interval, in seconds" display:"Interval (s)" default:"60" order:"2" min:"1" max:"86400"`
	Function string `item:"function" desc:"How numeric datapoints of an interval are combined" display:"Function" default:"average" order:"3" type:"enumeration" options:"average|min|max|last"`
}
