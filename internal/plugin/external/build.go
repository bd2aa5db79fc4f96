package external

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// BuildExample builds the example plugin dir of the Go plugin SDK
// (pluginsdk/go/examples/dir) into out and returns the executable's path,
// with version set as the plugin's version. root is the repository's root.
// Tests and `make packages` use it.
func BuildExample(ctx context.Context, root, dir, version, out string) (string, error) {
	return goBuild(ctx, filepath.Join(root, "pluginsdk", "go"), "./examples/"+dir, version, filepath.Join(out, dir))
}

// goBuild builds package pkg of the module in dir into bin.
func goBuild(ctx context.Context, dir, pkg, version, bin string) (string, error) {
	cmd := exec.CommandContext(ctx, "go", //nolint:gosec // the packager's own build of a program of this tree
		"build", "-trimpath", "-ldflags", "-X main.Version="+version, "-o", bin, pkg)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %w: %s", pkg, err, strings.TrimSpace(string(b)))
	}
	return bin, nil
}
