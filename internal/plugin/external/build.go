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
	bin := filepath.Join(out, dir)
	cmd := exec.CommandContext(ctx, "go", //nolint:gosec // the packager's own build of an example of this tree
		"build", "-trimpath", "-ldflags", "-X main.Version="+version, "-o", bin, "./examples/"+dir)
	cmd.Dir = filepath.Join(root, "pluginsdk", "go")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s: %w: %s", dir, err, strings.TrimSpace(string(b)))
	}
	return bin, nil
}
