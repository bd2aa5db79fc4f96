package natsnorth

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	Servers         string `item:"servers" desc:"NATS servers, comma-separated: nats://host:4222 (tls://host:4222 for TLS)" display:"Servers" default:"nats://127.0.0.1:4222" mandatory:"true"`
	Subject         string `item:"subject" desc:"Subject template (it must be bound to a JetStream stream), Go text/template: {{.Asset}}, {{.Service}}, {{.Timestamp}}, {{.Readings}} (the datapoints; {{index .Readings \"name\"}} one of them) and the function json" display:"Subject" default:"edged.{{.Asset}}" mandatory:"true"`
	Payload         string `item:"payload" desc:"Payload template, Go text/template: {{.Asset}}, {{.Service}}, {{.Timestamp}}, {{.Readings}} (the datapoints; {{index .Readings \"name\"}} one of them) and the function json" display:"Payload" default:"{\"asset\": {{json .Asset}}, \"timestamp\": {{json .Timestamp}}, \"readings\": {{json .Readings}}}" mandatory:"true"`
	CredentialsFile string `item:"credentialsFile" desc:"Path of a NATS credentials file (user JWT and seed); empty: none" display:"Credentials file"`
	Token           string `item:"token" desc:"Authentication token; empty: none" display:"Token" type:"password"`
	Username        string `item:"username" desc:"User name; empty: none" display:"User name"`
	Password        string `item:"password" desc:"Password" display:"Password" type:"password"`
	CACertificate   string `item:"caCertificate" desc:"PEM certificate(s) of the authority the servers' TLS certificates must chain to; empty: the system's (TLS only with tls:// servers or when the server requires it)" display:"CA certificate"`
	Timeout         int    `item:"timeout" desc:"Seconds a connection attempt or an acknowledgement may take" display:"Timeout (s)" default:"10" min:"1" max:"3600"`
}
