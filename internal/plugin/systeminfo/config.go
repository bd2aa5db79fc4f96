package systeminfo

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	AssetNamePrefix string `item:"assetNamePrefix" desc:"Prefix of the asset names" display:"Asset name prefix" default:"system/" length:"255"`
	PollInterval    int    `item:"pollInterval" desc:"Seconds between readings" display:"Poll interval" default:"10" min:"1" max:"86400"`
	DiskPath        string `item:"diskPath" desc:"A path on the disk to report" display:"Disk path" default:"/" mandatory:"true"`
}
