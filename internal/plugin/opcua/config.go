package opcua

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	Endpoint           string   `item:"endpoint" desc:"The server's endpoint URL" display:"Endpoint" default:"opc.tcp://127.0.0.1:4840" mandatory:"true"`
	SecurityPolicy     string   `item:"securityPolicy" desc:"Security policy" display:"Security policy" default:"None" type:"enumeration" options:"None|Basic256Sha256"`
	SecurityMode       string   `item:"securityMode" desc:"Message security mode (None goes with the policy None)" display:"Security mode" default:"None" type:"enumeration" options:"None|Sign|SignAndEncrypt"`
	Certificate        string   `item:"certificate" desc:"The gateway's client certificate (PEM) for a secure channel; empty: a self-signed one made at each start, which the server must be set to accept" display:"Client certificate"`
	PrivateKey         string   `item:"privateKey" desc:"The client certificate's RSA private key (PEM)" display:"Client private key" type:"password"`
	Username           string   `item:"username" desc:"User name identity; empty: anonymous" display:"User name"`
	Password           string   `item:"password" desc:"Password of the user name identity" display:"Password" type:"password"`
	Nodes              []string `item:"nodes" desc:"Variables to monitor: [\"ns=2;s=Plant.Temperature\", \"ns=2;i=1001\"]" display:"Nodes" default:"[]" type:"JSON"`
	BrowseRoot         string   `item:"browseRoot" desc:"A node under which every variable (folders and objects followed, 10 levels deep at most) is monitored too; empty: none" display:"Browse root"`
	PublishingInterval int      `item:"publishingInterval" desc:"Publishing interval of the subscription, in milliseconds" display:"Publishing interval (ms)" default:"1000" min:"10" max:"3600000"`
	AssetNaming        string   `item:"assetNaming" desc:"node: one asset per variable (its browse name), datapoint value; parent: one asset per parent node (its browse name), a datapoint per variable" display:"Asset naming" default:"node" type:"enumeration" options:"node|parent"`
	AssetPrefix        string   `item:"assetPrefix" desc:"Prefix of every asset name" display:"Asset prefix"`
	MethodsParent      string   `item:"methodsParent" desc:"The object whose methods control operations may call: an operation is named by a method's browse name, its parameters by the method's input argument names; empty: no operations" display:"Methods object"`
}
