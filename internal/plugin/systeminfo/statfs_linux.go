//go:build linux

package systeminfo

import (
	"fmt"
	"syscall"
)

// statfs reports the filesystem holding path.
func statfs(path string) (DiskUsage, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(path, &st); err != nil {
		return DiskUsage{}, fmt.Errorf("statfs %s: %w", path, err)
	}
	bs := uint64(st.Bsize) //nolint:gosec // block sizes are positive
	return DiskUsage{Total: st.Blocks * bs, Free: st.Bfree * bs, Available: st.Bavail * bs}, nil
}
