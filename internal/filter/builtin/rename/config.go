package rename

// Config is the configuration of the rename filter, its items.
type Config struct {
	Assets     map[string]string `item:"assets" desc:"Asset codes to rename, old to new: {\"plc1\": \"boiler\"}" display:"Assets" default:"{}" order:"2" type:"JSON"`
	Datapoints map[string]string `item:"datapoints" desc:"Datapoints to rename, old to new: {\"hr100\": \"temperature\"}; a renamed datapoint replaces one of its new name" display:"Datapoints" default:"{}" order:"3" type:"JSON"`
}
