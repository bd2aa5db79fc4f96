package modbus

// Config is the configuration of the plugin, its items: the definition derives them from the tags (edgeplugin.ItemsOf) and an instance gets its configuration decoded into it.
type Config struct {
	URL                  string `item:"url" desc:"The device: tcp://host:port (Modbus TCP) or rtu:///dev/ttyUSB0 (RTU over a serial line)" display:"Device URL" default:"tcp://127.0.0.1:502" mandatory:"true"`
	Map                  string `item:"map" desc:"What to read: [{\"asset\": \"boiler\", \"datapoint\": \"temperature\", \"slave\": 1, \"type\": \"holding\", \"address\": 0, \"format\": \"int16\", \"wordOrder\": \"high\", \"scale\": 0.1, \"offset\": 0}]; type is coil, discrete, holding or input; format (registers only) int16, uint16 (default), int32, uint32, float32 or float64; wordOrder high (default: high word first) or low; a coil or discrete input reads as 0 or 1" display:"Register map" default:"[]" type:"JSON"`
	PollInterval         int    `item:"pollInterval" desc:"Milliseconds between two polls of the map" display:"Poll interval (ms)" default:"1000" min:"10" max:"86400000"`
	Timeout              int    `item:"timeout" desc:"Milliseconds a request may take" display:"Request timeout (ms)" default:"1000" min:"10" max:"60000"`
	ReconnectMaxInterval int    `item:"reconnectMaxInterval" desc:"Longest wait, in seconds, between attempts to reopen a lost connection" display:"Maximum reconnect interval (s)" default:"30" min:"1" max:"3600"`
	BaudRate             int    `item:"baudRate" desc:"Serial line speed (RTU only)" display:"Baud rate" default:"19200" min:"300" max:"921600"`
	Parity               string `item:"parity" desc:"Serial line parity (RTU only)" display:"Parity" default:"even" type:"enumeration" options:"none|even|odd"`
	StopBits             int    `item:"stopBits" desc:"Serial line stop bits (RTU only); 0 picks the standard's: 1 with parity, 2 without" display:"Stop bits" default:"0" min:"0" max:"2"`
}
