#!/usr/bin/env bash
# Makes the plugin SDKs' release artefacts into OUTDIR:
#   edged-pluginsdk-go-VERSION.tar.gz   the Go plugin SDK's module
#       (github.com/edged/edged/pluginsdk/go) in a folder of that name;
#       unpacked, a plugin uses it with
#       go mod edit -replace github.com/edged/edged/pluginsdk/go=FOLDER
#   edged_plugin-PYVERSION-py3-none-any.whl   the Python plugin SDK
#       (pip install it; its runtime requirements come with it)
# VERSION defaults to git describe's; the wheel's version is VERSION without
# a leading v when that is a release version (1.2.3), else 0.0.0+VERSION.
# PYTHON builds the wheel (it needs setuptools; the plugin SDK's virtualenv
# has it: make plugin-tools). Prints the artefacts' paths.
# Usage: scripts/plugin-sdk-dist.sh OUTDIR [VERSION] [PYTHON]
set -euo pipefail
out=${1:?usage: scripts/plugin-sdk-dist.sh OUTDIR [VERSION] [PYTHON]}
version=${2:-}
python=${3:-pluginsdk/python/.venv/bin/python}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -n "$version" ] || version=$(git describe --tags --always --dirty 2>/dev/null || echo dev)
if [[ $version =~ ^v?[0-9]+(\.[0-9]+)*$ ]]; then
  pyversion=${version#v}
else
  pyversion="0.0.0+$(printf '%s' "$version" | tr 'A-Z' 'a-z' | tr -c 'a-z0-9\n' '.')"
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The Go plugin SDK: the module's files as the tree holds them (tracked or
# new, not ignored), the licence beside them.
name=edged-pluginsdk-go-$version
mkdir -p "$tmp/$name"
git ls-files -z --cached --others --exclude-standard -- pluginsdk/go | while IFS= read -r -d '' f; do
  [ -e "$f" ] || continue # deleted in the work tree
  mkdir -p "$tmp/$name/$(dirname "${f#pluginsdk/go/}")"
  cp -p "$f" "$tmp/$name/${f#pluginsdk/go/}"
done
cp LICENSE "$tmp/$name/LICENSE"
tar -C "$tmp" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"

# The Python plugin SDK: its package built from a copy, so the tree gets no
# build output, at the release's version.
mkdir -p "$tmp/py"
cp -r pluginsdk/python/pyproject.toml pluginsdk/python/README.md pluginsdk/python/edged_plugin LICENSE "$tmp/py/"
find "$tmp/py" -name __pycache__ -prune -exec rm -rf {} +
sed -i "s/^version = \".*\"/version = \"$pyversion\"/" "$tmp/py/pyproject.toml"
"$python" -m pip wheel --quiet --disable-pip-version-check --no-deps --no-build-isolation --no-index -w "$tmp/wheel" "$tmp/py" >&2
wheel=$(ls "$tmp"/wheel/edged_plugin-*.whl)
cp "$wheel" "$out/"
echo "$out/$(basename "$wheel")"
