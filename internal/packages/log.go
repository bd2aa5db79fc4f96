package packages

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sync/atomic"

	"github.com/edged/edged/internal/fault"
	"github.com/edged/edged/internal/pkgrepo"
)

// logDir is the directory of the interaction logs inside the package
// directory (not a package name: it has no manifest).
const logDir = "log"

var (
	logSeq     atomic.Int64
	logPattern = regexp.MustCompile(`^[0-9]{6}-[0-9]{2}-[0-9]{2}-[0-9]{2}-[0-9]+-[a-z0-9_.-]+\.log$`)
)

// interactionLog is the log of one interaction with the repository; a
// failure to write it is logged, never fatal.
type interactionLog struct {
	m    *Manager
	name string
	f    *os.File
}

func (m *Manager) newLog(what string) *interactionLog {
	name := fmt.Sprintf("%s-%d-%s.log", m.o.Clock.Now().UTC().Format("060102-15-04-05"), logSeq.Add(1), sanitize(what))
	lg := &interactionLog{m: m, name: name}
	dir := filepath.Join(m.o.Dir, logDir)
	if err := os.MkdirAll(dir, 0o750); err == nil {
		lg.f, err = os.Create(filepath.Join(dir, name)) //nolint:gosec // name is made here from a sanitised word
		if err != nil {
			m.log.Warn("repository log not written", "error", err)
		}
	}
	return lg
}

func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		safe := c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.'
		if !safe {
			b[i] = '_'
		}
	}
	return string(b)
}

func (l *interactionLog) printf(format string, args ...any) {
	if l.f != nil {
		_, _ = fmt.Fprintf(l.f, "%s %s\n", l.m.o.Clock.Now().UTC().Format("2006-01-02T15:04:05.000Z"), fmt.Sprintf(format, args...))
	}
}

// fail logs err, with the full cause of a repository failure, and
// returns it (its message names only the failure's category).
func (l *interactionLog) fail(err error) error {
	l.printf("failed: %s", pkgrepo.Detail(err))
	return err
}

func (l *interactionLog) close() {
	if l.f != nil {
		_ = l.f.Close()
	}
}

// Log returns the content of the interaction log name.
func (m *Manager) Log(name string) ([]byte, error) {
	if !logPattern.MatchString(name) {
		return nil, fault.New(fault.NotFound, "no repository log %q", name)
	}
	b, err := os.ReadFile(filepath.Join(m.o.Dir, logDir, name)) //nolint:gosec // name matched logPattern: no separator, no ".."
	if err != nil {
		return nil, fault.New(fault.NotFound, "no repository log %q", name)
	}
	return b, nil
}
