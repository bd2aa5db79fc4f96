package main

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
)

// scaffolds holds the templates of edgepkg init: scaffold/LANG holds the
// files of every kind, scaffold/LANG/KIND those of one kind.
//
//go:embed scaffold
var scaffolds embed.FS

// namePattern is what a plugin's name may be: it names the package, the
// plugin in the gateway and, in Go, the module.
var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,62}$`)

// scaffold writes a new plugin of kind in lang, named name (default: dir's
// base name), into dir.
func scaffold(dir, lang, kind, name string, out io.Writer) error {
	if name == "" {
		name = strings.ReplaceAll(strings.ToLower(filepath.Base(filepath.Clean(dir))), "-", "_")
	}
	if !namePattern.MatchString(name) {
		return fmt.Errorf("init: the name %q is not lower-case letters, digits and _, starting with a letter (-name)", name)
	}
	kinds, err := fs.ReadDir(scaffolds, path.Join("scaffold", lang))
	if err != nil {
		return fmt.Errorf("init: -lang %q is neither go nor python", lang)
	}
	if _, err := fs.Stat(scaffolds, path.Join("scaffold", lang, kind)); err != nil || kind == "" {
		var have []string
		for _, k := range kinds {
			if k.IsDir() {
				have = append(have, k.Name())
			}
		}
		return fmt.Errorf("init: -kind %q: a %s plugin is one of %s", kind, lang, strings.Join(have, ", "))
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("init: %s is not empty", dir)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("init: %w", err)
	}
	data := struct{ Name, Kind string }{name, kind}
	var files []string
	for _, root := range []string{path.Join("scaffold", lang), path.Join("scaffold", lang, kind)} {
		err := fs.WalkDir(scaffolds, root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if p != root && root == path.Join("scaffold", lang) {
					return fs.SkipDir // another kind's files
				}
				return nil
			}
			rel := strings.TrimSuffix(strings.TrimPrefix(p, root+"/"), ".tmpl")
			src, err := fs.ReadFile(scaffolds, p)
			if err != nil {
				return err
			}
			// [[ ]]: Go composite literals hold {{ }}.
			tmpl, err := template.New(p).Delims("[[", "]]").Parse(string(src))
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := tmpl.Execute(&b, data); err != nil {
				return err
			}
			mode := os.FileMode(0o644)
			if strings.HasSuffix(rel, ".py") && !strings.Contains(rel, "/") {
				mode = 0o755
			}
			if err := writeStaged(dir, filepath.FromSlash(rel), b.Bytes(), mode); err != nil {
				return err
			}
			files = append(files, rel)
			return nil
		})
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
	}
	_, err = fmt.Fprintf(out, "wrote the %s %s plugin %s into %s: %s\n", lang, kind, name, filepath.Clean(dir), strings.Join(files, ", "))
	return err
}
