// Package stats names the gateway's statistics: the fixed counters every
// gateway has, and the rules for the per-asset, per-service and per-north
// counters created as data flows.
package stats

import "github.com/edged/edged/db"

// The fixed statistics keys of the API specification.
const (
	Buffered   = "BUFFERED"
	Discarded  = "DISCARDED"
	Purged     = "PURGED"
	Readings   = "READINGS"
	Unsent     = "UNSENT"
	UnsentPurg = "UNSNPURGED"
)

// Fixed returns the fixed statistics with their descriptions and a zero
// value, for seeding at start.
func Fixed() []db.Statistic {
	return []db.Statistic{
		{Key: Buffered, Description: "Readings currently in the buffer"},
		{Key: Discarded, Description: "Readings discarded by a south service before buffering"},
		{Key: Purged, Description: "Readings removed by the purge process"},
		{Key: Readings, Description: "Readings received"},
		{Key: Unsent, Description: "Readings filtered out in the send process"},
		{Key: UnsentPurg, Description: "Readings purged before being sent"},
	}
}

// IngestKey returns the name of the statistic counting the readings a south
// service ingested.
func IngestKey(service string) string { return service + "-Ingest" }
