package httpsouth

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	Port            int    `item:"port" desc:"TCP port to listen on" display:"Port" default:"6683" min:"1" max:"65535"`
	URI             string `item:"uri" desc:"Path the readings are posted to, without the leading slash" display:"URI" default:"sensor-reading" length:"255"`
	AssetNamePrefix string `item:"assetNamePrefix" desc:"Prefix added to every asset name" display:"Asset name prefix" length:"255"`
}
