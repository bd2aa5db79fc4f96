package metadata

// Config is the configuration of the metadata filter, its items.
type Config struct {
	Metadata string `item:"metadata" desc:"Datapoints to add: {\"site\": \"plant 4\", \"line\": 2}; a datapoint the reading already has keeps its value" display:"Metadata" default:"{}" order:"2" type:"JSON"`
}
