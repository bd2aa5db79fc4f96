// Package logging keeps the gateway's log level in step with the
// configuration item LOGGING.logLevel (read at start and set again whenever
// the item changes, without a restart) and keeps the gateway's log lines
// for GET /edge/syslog: a Journal, fed by a slog handler wrapper, holds the
// recent lines in memory and appends every line to the log file that
// LOGGING.logFileSize and logFileCount describe.
package logging

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/edged/edged/internal/configmgr"
)

// ConfigSource is the part of the configuration manager Follow needs;
// *configmgr.Manager implements it.
type ConfigSource interface {
	Value(ctx context.Context, key, item string) (string, error)
	Subscribe(key string, fn func(ctx context.Context, c configmgr.Category) error) (cancel func())
}

// ParseLevel returns the level named by s: debug, info, warning (or warn)
// or error, in any case; the values of LOGGING.logLevel and of the
// --log-level flag.
func ParseLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case configmgr.LogLevelDebug:
		return slog.LevelDebug, nil
	case configmgr.LogLevelInfo:
		return slog.LevelInfo, nil
	case configmgr.LogLevelWarning, "warn":
		return slog.LevelWarn, nil
	case configmgr.LogLevelError:
		return slog.LevelError, nil
	}
	return 0, fmt.Errorf("log level %q is not one of debug, info, warning, error", s)
}

// Follow makes level follow LOGGING.logLevel: it sets level from the item
// now, unless keep is true (the level was chosen for this run, e.g. on the
// command line), and on every later change of the item, until the returned
// cancel is called. Changes are logged to log; a stored value that is not
// a level (only a damaged store holds one: writes are validated) is logged
// and leaves the level as it is. Errors are those of reading the item.
func Follow(ctx context.Context, src ConfigSource, level *slog.LevelVar, keep bool, log *slog.Logger) (cancel func(), err error) {
	if !keep {
		v, err := src.Value(ctx, configmgr.CategoryLogging, configmgr.ItemLogLevel)
		if err != nil {
			return nil, fmt.Errorf("logging: read %s.%s: %w", configmgr.CategoryLogging, configmgr.ItemLogLevel, err)
		}
		if l, err := ParseLevel(v); err == nil {
			level.Set(l)
		} else {
			log.WarnContext(ctx, "log level not changed", "error", err)
		}
	}
	return src.Subscribe(configmgr.CategoryLogging, func(ctx context.Context, c configmgr.Category) error {
		it, ok := c.Items[configmgr.ItemLogLevel]
		if !ok {
			return nil
		}
		l, err := ParseLevel(it.Value)
		if err != nil {
			return fmt.Errorf("logging: %s.%s: %w", configmgr.CategoryLogging, configmgr.ItemLogLevel, err)
		}
		if l != level.Level() {
			level.Set(l)
			log.InfoContext(ctx, "log level changed", "level", it.Value)
		}
		return nil
	}), nil
}

// FollowFile makes j write its log file, dir/FileName, as
// LOGGING.logFileSize (MiB at which it rotates; 0: no file) and
// LOGGING.logFileCount (rotated files kept) say: now, and on every later
// change of the items, until the returned cancel is called, which stops
// writing the file. A file that cannot be opened at start is logged and
// the gateway runs without one; errors are those of reading the items.
func FollowFile(ctx context.Context, src ConfigSource, j *Journal, dir string, log *slog.Logger) (cancel func(), err error) {
	size, err := src.Value(ctx, configmgr.CategoryLogging, configmgr.ItemLogFileSize)
	if err != nil {
		return nil, fmt.Errorf("logging: read %s.%s: %w", configmgr.CategoryLogging, configmgr.ItemLogFileSize, err)
	}
	count, err := src.Value(ctx, configmgr.CategoryLogging, configmgr.ItemLogFileCount)
	if err != nil {
		return nil, fmt.Errorf("logging: read %s.%s: %w", configmgr.CategoryLogging, configmgr.ItemLogFileCount, err)
	}
	path := filepath.Join(dir, FileName)
	if err := setFile(j, path, size, count); err != nil {
		log.ErrorContext(ctx, "the log file is not written", "path", path, "error", err)
	}
	unsubscribe := src.Subscribe(configmgr.CategoryLogging, func(_ context.Context, c configmgr.Category) error {
		return setFile(j, path, c.Items[configmgr.ItemLogFileSize].Value, c.Items[configmgr.ItemLogFileCount].Value)
	})
	return func() {
		unsubscribe()
		_ = j.SetFile("", 0, 0)
	}, nil
}

// setFile sets j's log file from the items' values.
func setFile(j *Journal, path, size, count string) error {
	mib, err := strconv.Atoi(size)
	if err != nil || mib < 0 {
		return fmt.Errorf("logging: %s.%s %q is not a size in MiB", configmgr.CategoryLogging, configmgr.ItemLogFileSize, size)
	}
	keep, err := strconv.Atoi(count)
	if err != nil || keep < 0 {
		return fmt.Errorf("logging: %s.%s %q is not a count", configmgr.CategoryLogging, configmgr.ItemLogFileCount, count)
	}
	return j.SetFile(path, int64(mib)<<20, keep)
}
