//go:build !linux

package systeminfo

import "errors"

// statfs is only implemented on Linux; elsewhere the disk figure is left
// out of the readings.
func statfs(string) (DiskUsage, error) {
	return DiskUsage{}, errors.New("disk figures are read on Linux only")
}
