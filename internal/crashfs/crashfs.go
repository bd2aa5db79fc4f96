// Package crashfs is a FUSE file system for power-loss tests: it holds
// everything in memory and keeps, beside what programs see, what a disk
// would still hold after the power is cut. Writes, truncations and
// directory changes are volatile until they are synced: a file's contents
// survive from its last fsync, a directory's entries from its last fsync
// (the strict POSIX reading, where fsync of a file does not make its name
// durable). Cut drops everything not synced, as pulling the plug does;
// the test then mounts again and starts its program on what remains.
//
// Locks are left to the kernel (the file system does not take part in
// them), and shared memory maps work through the page cache, so SQLite in
// WAL mode runs on it.
package crashfs

import (
	"context"
	"maps"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/hanwen/go-fuse/v2/fs"
	"github.com/hanwen/go-fuse/v2/fuse"
)

// FS is the file system's contents. It outlives mounts: Mount serves it,
// Cut forgets what was not synced, and Mount serves it again. It is safe
// for concurrent use.
type FS struct {
	mu     sync.Mutex // guards every node
	root   *node
	nextID uint64
	syncs  int // fsync calls of files and directories, for tests
}

// maxFileSize bounds a file: everything is held in memory.
const maxFileSize = 1 << 30

// node is a file or a directory.
type node struct {
	id    uint64
	dir   bool
	mode  uint32 // permission bits
	mtime time.Time

	data   []byte // a file's contents as programs see them
	synced []byte // what survives a cut

	entries       map[string]*node // a directory's entries as programs see them
	syncedEntries map[string]*node // what survives a cut
}

// New returns an empty file system whose root directory exists durably.
func New() *FS {
	f := &FS{nextID: 2}
	f.root = &node{id: 1, dir: true, mode: 0o755, mtime: time.Now(),
		entries: map[string]*node{}, syncedEntries: map[string]*node{}}
	return f
}

func (f *FS) newNode(dir bool, mode uint32) *node {
	n := &node{id: f.nextID, dir: dir, mode: mode & 0o7777, mtime: time.Now()}
	f.nextID++
	if dir {
		n.entries, n.syncedEntries = map[string]*node{}, map[string]*node{}
	}
	return n
}

// Cut forgets everything that was not synced: every directory gets back
// the entries of its last fsync and every file the contents of its last
// fsync (a file never synced is empty). Nodes no synced entry reaches are
// gone. Call it while nothing is mounted.
func (f *FS) Cut() {
	f.mu.Lock()
	defer f.mu.Unlock()
	var walk func(n *node)
	walk = func(n *node) {
		if !n.dir {
			n.data = slices.Clone(n.synced)
			return
		}
		n.entries = maps.Clone(n.syncedEntries)
		for _, c := range n.entries {
			walk(c)
		}
	}
	walk(f.root)
}

// Syncs returns how many fsync calls the file system has served.
func (f *FS) Syncs() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.syncs
}

// Mount serves f at dir (as root, with mount(2); else through fusermount)
// until the returned server is unmounted.
func (f *FS) Mount(dir string) (*fuse.Server, error) {
	zero := time.Duration(0)
	return fs.Mount(dir, &inode{fsys: f, n: f.root}, &fs.Options{
		// No attribute or entry caching: what the kernel shows is always
		// the model's, also right after a remount.
		EntryTimeout: &zero, AttrTimeout: &zero, NegativeTimeout: &zero,
		MountOptions: fuse.MountOptions{DirectMount: true, FsName: "crashfs", Name: "crashfs",
			DisableXAttrs: true, MaxBackground: 64},
	})
}

// inode is the FUSE face of a node.
type inode struct {
	fs.Inode
	fsys *FS
	n    *node
}

var (
	_ fs.NodeLookuper       = (*inode)(nil)
	_ fs.NodeGetattrer      = (*inode)(nil)
	_ fs.NodeSetattrer      = (*inode)(nil)
	_ fs.NodeOpener         = (*inode)(nil)
	_ fs.NodeReader         = (*inode)(nil)
	_ fs.NodeWriter         = (*inode)(nil)
	_ fs.NodeFsyncer        = (*inode)(nil)
	_ fs.NodeFlusher        = (*inode)(nil)
	_ fs.NodeAllocater      = (*inode)(nil)
	_ fs.NodeCreater        = (*inode)(nil)
	_ fs.NodeMkdirer        = (*inode)(nil)
	_ fs.NodeUnlinker       = (*inode)(nil)
	_ fs.NodeRmdirer        = (*inode)(nil)
	_ fs.NodeRenamer        = (*inode)(nil)
	_ fs.NodeOpendirHandler = (*inode)(nil)
	_ fs.NodeStatfser       = (*inode)(nil)
)

// child returns the FUSE inode of node c, a child of i.
func (i *inode) child(ctx context.Context, c *node, out *fuse.EntryOut) *fs.Inode {
	attr(c, &out.Attr)
	mode := uint32(fuse.S_IFREG)
	if c.dir {
		mode = fuse.S_IFDIR
	}
	return i.NewInode(ctx, &inode{fsys: i.fsys, n: c}, fs.StableAttr{Mode: mode, Ino: c.id})
}

// attr fills a with n's attributes; the FS's lock is held.
func attr(n *node, a *fuse.Attr) {
	a.Ino = n.id
	if n.dir {
		a.Mode = fuse.S_IFDIR | n.mode
		a.Nlink = 2
	} else {
		a.Mode = fuse.S_IFREG | n.mode
		a.Nlink = 1
		a.Size = uint64(len(n.data))
		a.Blocks = (a.Size + 511) / 512
	}
	a.Blksize = 4096
	a.SetTimes(&n.mtime, &n.mtime, &n.mtime)
}

func (i *inode) Lookup(ctx context.Context, name string, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	c := i.n.entries[name]
	if c == nil {
		return nil, syscall.ENOENT
	}
	return i.child(ctx, c, out), 0
}

func (i *inode) Getattr(_ context.Context, _ fs.FileHandle, out *fuse.AttrOut) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	attr(i.n, &out.Attr)
	return 0
}

func (i *inode) Setattr(_ context.Context, _ fs.FileHandle, in *fuse.SetAttrIn, out *fuse.AttrOut) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if size, ok := in.GetSize(); ok {
		switch {
		case i.n.dir:
			return syscall.EISDIR
		case size > maxFileSize:
			return syscall.EFBIG
		}
		i.n.data = resize(i.n.data, int(size))
	}
	if mode, ok := in.GetMode(); ok {
		i.n.mode = mode & 0o7777
	}
	if mtime, ok := in.GetMTime(); ok {
		i.n.mtime = mtime
	} else {
		i.n.mtime = time.Now()
	}
	attr(i.n, &out.Attr)
	return 0
}

// resize returns b with length size, zero-filled when it grows.
func resize(b []byte, size int) []byte {
	if size <= len(b) {
		return b[:size]
	}
	return append(b, make([]byte, size-len(b))...)
}

func (i *inode) Open(_ context.Context, flags uint32) (fs.FileHandle, uint32, syscall.Errno) {
	if flags&syscall.O_TRUNC != 0 {
		i.fsys.mu.Lock()
		i.n.data = i.n.data[:0]
		i.fsys.mu.Unlock()
	}
	return nil, 0, 0
}

func (i *inode) Read(_ context.Context, _ fs.FileHandle, dest []byte, off int64) (fuse.ReadResult, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if off >= int64(len(i.n.data)) {
		return fuse.ReadResultData(nil), 0
	}
	end := min(off+int64(len(dest)), int64(len(i.n.data)))
	return fuse.ReadResultData(slices.Clone(i.n.data[off:end])), 0
}

func (i *inode) Write(_ context.Context, _ fs.FileHandle, data []byte, off int64) (uint32, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if off < 0 || off+int64(len(data)) > maxFileSize {
		return 0, syscall.EFBIG
	}
	end := int(off) + len(data)
	if end > len(i.n.data) {
		i.n.data = resize(i.n.data, end)
	}
	copy(i.n.data[off:], data)
	i.n.mtime = time.Now()
	return uint32(len(data)), 0 //nolint:gosec // a FUSE write is at most a few hundred KiB
}

// Fsync makes the file's contents durable.
func (i *inode) Fsync(_ context.Context, _ fs.FileHandle, _ uint32) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	i.fsys.syncs++
	if i.n.dir {
		i.n.syncedEntries = maps.Clone(i.n.entries)
	} else {
		i.n.synced = slices.Clone(i.n.data)
	}
	return 0
}

func (i *inode) Flush(context.Context, fs.FileHandle) syscall.Errno { return 0 }

func (i *inode) Allocate(_ context.Context, _ fs.FileHandle, off, size uint64, mode uint32) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	const keepSize = 1 // FALLOC_FL_KEEP_SIZE
	if mode&^keepSize != 0 {
		return syscall.EOPNOTSUPP
	}
	if off+size > maxFileSize {
		return syscall.EFBIG
	}
	if end := int(off + size); mode&keepSize == 0 && end > len(i.n.data) { //nolint:gosec // bounded by maxFileSize above
		i.n.data = resize(i.n.data, end)
	}
	return 0
}

func (i *inode) Create(ctx context.Context, name string, _, mode uint32, out *fuse.EntryOut) (*fs.Inode, fs.FileHandle, uint32, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if c := i.n.entries[name]; c != nil {
		// O_CREAT of an existing file opens it (O_EXCL is checked by the
		// kernel through Lookup first).
		return i.child(ctx, c, out), nil, 0, 0
	}
	c := i.fsys.newNode(false, mode)
	i.n.entries[name] = c
	i.n.mtime = time.Now()
	return i.child(ctx, c, out), nil, 0, 0
}

func (i *inode) Mkdir(ctx context.Context, name string, mode uint32, out *fuse.EntryOut) (*fs.Inode, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if i.n.entries[name] != nil {
		return nil, syscall.EEXIST
	}
	c := i.fsys.newNode(true, mode)
	i.n.entries[name] = c
	i.n.mtime = time.Now()
	return i.child(ctx, c, out), 0
}

func (i *inode) Unlink(_ context.Context, name string) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	c := i.n.entries[name]
	switch {
	case c == nil:
		return syscall.ENOENT
	case c.dir:
		return syscall.EISDIR
	}
	delete(i.n.entries, name)
	i.n.mtime = time.Now()
	return 0
}

func (i *inode) Rmdir(_ context.Context, name string) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	c := i.n.entries[name]
	switch {
	case c == nil:
		return syscall.ENOENT
	case !c.dir:
		return syscall.ENOTDIR
	case len(c.entries) > 0:
		return syscall.ENOTEMPTY
	}
	delete(i.n.entries, name)
	i.n.mtime = time.Now()
	return 0
}

func (i *inode) Rename(_ context.Context, name string, newParent fs.InodeEmbedder, newName string, flags uint32) syscall.Errno {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	const noReplace = 1 // RENAME_NOREPLACE
	if flags&^noReplace != 0 {
		return syscall.EINVAL
	}
	to, ok := newParent.(*inode)
	if !ok || !to.n.dir {
		return syscall.EXDEV
	}
	c := i.n.entries[name]
	if c == nil {
		return syscall.ENOENT
	}
	if old := to.n.entries[newName]; old != nil {
		switch {
		case flags&noReplace != 0:
			return syscall.EEXIST
		case old.dir != c.dir:
			return syscall.EISDIR
		case old.dir && len(old.entries) > 0:
			return syscall.ENOTEMPTY
		}
	}
	delete(i.n.entries, name)
	to.n.entries[newName] = c
	i.n.mtime, to.n.mtime = time.Now(), time.Now()
	return 0
}

func (i *inode) Statfs(_ context.Context, out *fuse.StatfsOut) syscall.Errno {
	out.Bsize, out.Frsize = 4096, 4096
	out.Blocks, out.Bfree, out.Bavail = 1<<24, 1<<23, 1<<23
	out.Files, out.Ffree = 1<<20, 1<<19
	out.NameLen = 255
	return 0
}

// OpendirHandle returns a handle listing the directory as it is now, which
// also serves fsync of the directory.
func (i *inode) OpendirHandle(context.Context, uint32) (fs.FileHandle, uint32, syscall.Errno) {
	i.fsys.mu.Lock()
	defer i.fsys.mu.Unlock()
	if !i.n.dir {
		return nil, 0, syscall.ENOTDIR
	}
	names := slices.Sorted(maps.Keys(i.n.entries))
	list := make([]fuse.DirEntry, 0, len(names))
	for _, name := range names {
		c := i.n.entries[name]
		mode := uint32(fuse.S_IFREG)
		if c.dir {
			mode = fuse.S_IFDIR
		}
		list = append(list, fuse.DirEntry{Name: name, Ino: c.id, Mode: mode})
	}
	return &dirHandle{i: i, list: list}, 0, 0
}

// dirHandle is an open directory.
type dirHandle struct {
	i    *inode
	mu   sync.Mutex // guards next
	list []fuse.DirEntry
	next int
}

var (
	_ fs.FileReaddirenter = (*dirHandle)(nil)
	_ fs.FileFsyncdirer   = (*dirHandle)(nil)
	_ fs.FileSeekdirer    = (*dirHandle)(nil)
)

func (d *dirHandle) Readdirent(context.Context) (*fuse.DirEntry, syscall.Errno) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.next >= len(d.list) {
		return nil, 0
	}
	e := d.list[d.next]
	d.next++
	e.Off = uint64(d.next) //nolint:gosec // an index, never negative
	return &e, 0
}

func (d *dirHandle) Seekdir(_ context.Context, off uint64) syscall.Errno {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.next = int(min(off, uint64(len(d.list)))) //nolint:gosec // bounded by the list
	return 0
}

// Fsyncdir makes the directory's entries durable.
func (d *dirHandle) Fsyncdir(ctx context.Context, flags uint32) syscall.Errno {
	return d.i.Fsync(ctx, nil, flags)
}
