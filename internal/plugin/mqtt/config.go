package mqtt

// connectionConfig are the items of the connection to the broker, which both plugins have.
type connectionConfig struct {
	Broker          string `item:"broker" desc:"The broker: tcp://host:1883, or ssl://host:8883 for TLS" display:"Broker" default:"tcp://127.0.0.1:1883" mandatory:"true"`
	ClientID        string `item:"clientId" desc:"MQTT client identifier; empty: edged-<service name>. The broker keeps the session under it" display:"Client id" length:"128"`
	Username        string `item:"username" desc:"User name; empty: none" display:"User name"`
	Password        string `item:"password" desc:"Password" display:"Password" type:"password"`
	CACertificate   string `item:"caCertificate" desc:"PEM certificate(s) of the authority the broker's TLS certificate must chain to; empty: the system's" display:"CA certificate"`
	Timeout         int    `item:"timeout" desc:"Seconds a connection attempt or an acknowledgement may take" display:"Timeout (s)" default:"10" min:"1" max:"3600"`
	ProtocolVersion string `item:"protocolVersion" desc:"MQTT protocol version" display:"Protocol version" default:"3.1.1" type:"enumeration" options:"3.1.1|5"`
}

// SouthConfig is the configuration of the south plugin, its items.
type SouthConfig struct {
	connectionConfig
	Topics          []string `item:"topics" desc:"Topic filters to subscribe to, wildcards allowed: [\"plant/+/sensors/#\"]" display:"Topics" default:"[\"edged/#\"]" order:"10" type:"JSON"`
	QoS             string   `item:"qos" desc:"Subscription QoS: 0 (at most once) or 1 (at least once: a message is acknowledged to the broker only once its readings are stored)" display:"QoS" default:"1" order:"11" type:"enumeration" options:"0|1"`
	AssetTopicLevel int      `item:"assetTopicLevel" desc:"Which level of the topic names the asset, counted from 0; -1: the whole topic. Used unless assetField is set" display:"Asset topic level" default:"-1" order:"12" min:"-1" max:"100"`
	AssetField      string   `item:"assetField" desc:"Field of a JSON payload naming the asset (taken out of the datapoints); empty: the topic names it" display:"Asset field" order:"13"`
	TimestampField  string   `item:"timestampField" desc:"Field of a JSON payload holding the reading's time (the API's timestamp forms, RFC 3339, or seconds since 1970); empty or absent: the time of arrival" display:"Timestamp field" order:"14"`
	ValueName       string   `item:"valueName" desc:"Datapoint name of a plain numeric payload" display:"Value name" default:"value" order:"15" mandatory:"true"`
}

// NorthConfig is the configuration of the north plugin, its items.
type NorthConfig struct {
	connectionConfig
	Topic   string `item:"topic" desc:"Topic template, Go text/template: {{.Asset}}, {{.Service}}, {{.Timestamp}}, {{.Readings}} (the datapoints; {{index .Readings \"name\"}} one of them) and the function json" display:"Topic" default:"edged/{{.Asset}}" order:"10" mandatory:"true"`
	Payload string `item:"payload" desc:"Payload template, Go text/template: {{.Asset}}, {{.Service}}, {{.Timestamp}}, {{.Readings}} (the datapoints; {{index .Readings \"name\"}} one of them) and the function json; the default sends {asset, timestamp, readings}" display:"Payload" default:"{\"asset\": {{json .Asset}}, \"timestamp\": {{json .Timestamp}}, \"readings\": {{json .Readings}}}" order:"11" mandatory:"true"`
	Retain  bool   `item:"retain" desc:"Publish with the retain flag" display:"Retain" default:"false" order:"12"`
}
