package auditcode

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSpelledOnce: the gateway's hand-written Go code spells the
// severities only here; everything else uses the constants. (Generated
// code, tests and the conformance suite, which checks the wire as a
// client sees it, are left out.)
func TestSpelledOnce(t *testing.T) {
	literal := regexp.MustCompile(`"(SUCCESS|FAILURE|WARNING|INFORMATION)"`)
	root := filepath.Join("..", "..")
	for _, dir := range []string{"internal", "impl", "cmd"} {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") ||
				filepath.Dir(path) == "." || strings.Contains(filepath.ToSlash(path), "internal/auditcode/") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(b), "\n") {
				if m := literal.FindString(line); m != "" {
					t.Errorf("%s:%d spells %s: use package auditcode's constant", path, i+1, m)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}
