package httpnorth

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	URL              string `item:"url" desc:"URL readings are posted to: another gateway's http_south" display:"URL" default:"http://localhost:6683/sensor-reading" type:"URL"`
	BlockSize        int    `item:"blockSize" desc:"Most readings sent in one request" display:"Block size" default:"500" min:"1" max:"10000"`
	Timeout          int    `item:"timeout" desc:"Seconds one request may take before it counts as failed" display:"Request timeout (s)" default:"10" min:"1" max:"3600"`
	MaxRetryInterval int    `item:"maxRetryInterval" desc:"Longest wait, in seconds, between retries while the destination is unreachable" display:"Maximum retry interval (s)" default:"30" min:"1" max:"3600"`
	RejectAfter      int    `item:"rejectAfter" desc:"Times in a row the destination may refuse a reading as invalid (400, 422) before it is set aside and forwarding goes on" display:"Refusals before setting aside" default:"3" min:"1" max:"100"`
}
