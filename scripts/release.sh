#!/usr/bin/env bash
# release.sh VERSION OUT KEY RELEASED: builds into OUT the artefacts users
# install for release VERSION (make release runs it; see
# docs/compatibility.md):
#
#   goproxy/              the Go SDK (github.com/edged/edged/clients/go/vN)
#                         at vVERSION and the Go plugin SDK
#                         (github.com/edged/edged/pluginsdk/go) at
#                         vPLUGINSDK_VERSION, as a Go module proxy directory
#                         (GOPROXY=file://OUT/goproxy), zips made by
#                         golang.org/x/mod/zip
#   edged_client-VERSION-py3-none-any.whl, edged_client-VERSION.tar.gz
#                         the Python SDK, wheel and sdist
#   edged-client-VERSION.tgz
#                         the TypeScript SDK (npm pack)
#   edged_plugin-*        the Python plugin SDK, wheel and sdist, when
#                         pluginsdk/python is a package (has pyproject.toml)
#   packages/             the gateway's own plugins as a package repository
#                         signed with KEY (make packages), packages at VERSION
#   openapi.yaml          the contract the SDKs implement
#   SHA256SUMS            the SHA-256 of every file above (sha256sum -c)
#
# VERSION must be the contract's info.version and the version every SDK
# declares. RELEASED is then refreshed to the contract: the copy the
# breaking-change check (make test-compat) compares later contracts with.
set -euo pipefail

version=${1:?usage: scripts/release.sh VERSION OUT KEY RELEASED}
out=${2:?usage: scripts/release.sh VERSION OUT KEY RELEASED}
key=${3:?usage: scripts/release.sh VERSION OUT KEY RELEASED}
released=${4:?usage: scripts/release.sh VERSION OUT KEY RELEASED}
pluginsdk_version=${PLUGINSDK_VERSION:-1.0.0}
root=$(pwd)
py="$root/tools/python/.venv/bin/python"

fail() { echo "release: $*" >&2; exit 1; }

[[ $version =~ ^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] ||
	fail "VERSION=$version is not a release version MAJOR.MINOR.PATCH"
major=${BASH_REMATCH[1]}
[ -r "$key" ] || fail "KEY=$key: no such key file (go run ./cmd/edgepkg keygen -out KEYFILE makes one)"

# Every version the release names must be VERSION.
contract=$("$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' openapi.yaml)
pyver=$("$py" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["project"]["version"])' clients/python/pyproject.toml)
tsver=$(node -p 'require("./clients/typescript/package.json").version')
gopath=$(cd clients/go && go list -m)
want_gopath=github.com/edged/edged/clients/go
[ "$major" -lt 2 ] || want_gopath="$want_gopath/v$major"
bad=
[ "$contract" = "$version" ] || bad="$bad openapi.yaml info.version is $contract;"
[ "$pyver" = "$version" ] || bad="$bad clients/python/pyproject.toml version is $pyver;"
[ "$tsver" = "$version" ] || bad="$bad clients/typescript/package.json version is $tsver;"
[ "$gopath" = "$want_gopath" ] || bad="$bad clients/go/go.mod declares $gopath, version $version needs $want_gopath;"
for c in clients/go clients/python clients/typescript; do
	grep -q "^## $version\b" "$c/CHANGELOG.md" || bad="$bad $c/CHANGELOG.md has no '## $version' section;"
done
[ -z "$bad" ] || fail "VERSION=$version does not match:$bad"

rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "-- the Go SDK and the Go plugin SDK, as a Go module proxy directory"
go run ./scripts/modproxy -module clients/go -version "v$version" -out "$out/goproxy"
go run ./scripts/modproxy -module pluginsdk/go -version "v$pluginsdk_version" -out "$out/goproxy"

echo "-- the Python SDK: wheel and sdist"
# From a copy, so the tree gets no build leftovers.
cp -a clients/python "$work/python"
rm -rf "$work/python/tests" "$work/python/.pdm-build" "$work/python/dist"
(cd "$work/python" && "$py" -c 'import sys, pdm.backend as b; b.build_sdist(sys.argv[1]); b.build_wheel(sys.argv[1])' "$out" > /dev/null)

echo "-- the TypeScript SDK: npm pack"
# From a copy with the package's installed tools: npm pack builds dist/,
# which would otherwise be written in the tree.
mkdir "$work/typescript"
(cd clients/typescript && tar -c --exclude=./node_modules --exclude=./dist .) | tar -x -C "$work/typescript"
ln -s "$root/clients/typescript/node_modules" "$work/typescript/node_modules"
(cd "$work/typescript" && npm pack --silent --pack-destination "$out" > /dev/null)

if [ -f pluginsdk/python/pyproject.toml ]; then
	echo "-- the Python plugin SDK: wheel and sdist"
	cp -a pluginsdk/python "$work/pluginsdk-python"
	rm -rf "$work/pluginsdk-python/.venv" "$work/pluginsdk-python/tests"
	backend=$("$py" -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb")).get("build-system", {}).get("build-backend", ""))' pluginsdk/python/pyproject.toml)
	if [ "$backend" = pdm.backend ]; then
		(cd "$work/pluginsdk-python" && "$py" -c 'import sys, pdm.backend as b; b.build_sdist(sys.argv[1]); b.build_wheel(sys.argv[1])' "$out")
	else
		"$py" -m pip wheel --quiet --disable-pip-version-check --no-deps -w "$out" "$work/pluginsdk-python"
		echo "the Python plugin SDK's build backend ($backend) is not pdm.backend: its wheel only, no sdist"
	fi
else
	echo "-- the Python plugin SDK: pluginsdk/python has no pyproject.toml, so it is not a package yet; left out"
fi

echo "-- the gateway's plugins: a package repository signed with $key"
"${MAKE:-make}" --no-print-directory packages KEY="$key" REPO_DIR="$out/packages" VERSION="$version"

cp openapi.yaml "$out/openapi.yaml"
(cd "$out" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort | xargs -d '\n' sha256sum > SHA256SUMS)

if ! cmp -s openapi.yaml "$released"; then
	mkdir -p "$(dirname "$released")"
	cp openapi.yaml "$released"
	echo "-- $released is now contract $version: commit it (the breaking-change check compares later contracts with it)"
fi
echo "release $version in $out:"
(cd "$out" && ls -1)
