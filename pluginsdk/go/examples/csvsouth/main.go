// Command csvsouth is a south plugin of the edged gateway that reads a CSV
// file at a configured rate: the header row names the reading keys, each
// further row is one reading (numbers become JSON numbers, other cells
// strings). At the end of the file it starts over when loop is true, and
// waits otherwise. Its position in the file persists across restarts.
package main

import "github.com/edged/edged/pluginsdk/go/edgeplugin"

func main() {
	edgeplugin.Serve(edgeplugin.Plugin{Info: Info(), South: &CSV{}})
}
