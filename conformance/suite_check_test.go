package conformance

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// unitTests are the tests of the suite's own machinery, which need no
// gateway and are not part of the suite list.
var unitTests = []string{"TestCoverageMatching", "TestSuiteWrappers", "TestStreamAndReports", "TestPrefixTransport", "TestUnbuiltMatching"}

// TestSuiteWrappers checks that suite_test.go has exactly one wrapper per
// entry of the suite list, and that no other Test function hides in a
// _test.go file, where edged-conformance would never run it, or in a
// non-test file, where go test would never run it.
func TestSuiteWrappers(t *testing.T) {
	track(t)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	wrappers := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !strings.HasPrefix(fn.Name.Name, "Test") || fn.Name.Name == "TestMain" {
				continue
			}
			switch {
			case !strings.HasSuffix(f, "_test.go"):
				t.Errorf("%s in %s: go test never runs a Test function outside a _test.go file; "+
					"name it test%s, list it in suite (suite.go) with its level and wrap it in suite_test.go",
					fn.Name.Name, f, strings.TrimPrefix(fn.Name.Name, "Test"))
			case f == "suite_test.go":
				wrappers[fn.Name.Name] = true
			case !slices.Contains(unitTests, fn.Name.Name):
				t.Errorf("%s in %s: a conformance test belongs in a .go file, listed in suite (suite.go) with its level, "+
					"with its wrapper in suite_test.go; otherwise edged-conformance never runs it", fn.Name.Name, f)
			}
		}
	}
	names := map[string]bool{}
	for _, s := range suite {
		if names[s.name] {
			t.Errorf("%s is listed twice in suite", s.name)
		}
		names[s.name] = true
		if !wrappers[s.name] {
			t.Errorf("%s has no wrapper in suite_test.go: add func %s(t *testing.T) { runSuiteTest(t) }", s.name, s.name)
		}
		if s.level != Seed && s.level != Strict {
			t.Errorf("%s has level %q", s.name, s.level)
		}
	}
	for name := range wrappers {
		if !names[name] {
			t.Errorf("suite_test.go wraps %s, which the suite list lacks", name)
		}
	}
}
