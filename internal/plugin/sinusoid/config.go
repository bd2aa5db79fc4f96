package sinusoid

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	AssetName        string `item:"assetName" desc:"Name of the asset the readings are stored under" display:"Asset name" default:"sinusoid" length:"255" mandatory:"true"`
	DataPointsPerSec int    `item:"dataPointsPerSec" desc:"Readings produced per second" display:"Data points per second" default:"1" min:"1" max:"1000000"`
}
