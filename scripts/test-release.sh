#!/usr/bin/env bash
# test-release.sh: runs make release into a temporary folder, then installs
# each SDK from it the way the READMEs say, in a fresh consumer project
# outside the tree, and uses it: every install line below must appear,
# word for word, in the README named beside it, and is run as written with
# EDGE_RELEASE set to the release folder (as the READMEs tell the reader to
# set it). make test-release runs it (part of make test).
set -euo pipefail

root=$(pwd)
py="$root/tools/python/.venv/bin/python"
version=$("$py" -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["info"]["version"])' openapi.yaml)
major=${version%%.*}
gomod=github.com/edged/edged/clients/go
[ "$major" -lt 2 ] || gomod="$gomod/v$major"
pluginsdk_version=${PLUGINSDK_VERSION:-1.0.0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export EDGE_RELEASE="$work/release"

go run ./cmd/edgepkg keygen -out "$work/key" > /dev/null
echo "-- make release refuses a VERSION that is not the contract's and the SDKs'"
wrong="$((major + 1)).0.0"
if make --no-print-directory release VERSION="$wrong" KEY="$work/key" RELEASE_DIR="$work/wrong" RELEASED="$work/wrong.yaml" > "$work/wrong.log" 2>&1; then
	cat "$work/wrong.log"; echo "make release VERSION=$wrong succeeded"; exit 1
fi
grep -q "info.version is $version" "$work/wrong.log" || { cat "$work/wrong.log"; echo "make release VERSION=$wrong did not say why it refused"; exit 1; }
[ ! -e "$work/wrong" ] && [ ! -e "$work/wrong.yaml" ] || { echo "a refused release wrote files"; exit 1; }
tail -n 1 "$work/wrong.log"

echo "-- make release VERSION=$version into $EDGE_RELEASE"
make --no-print-directory release VERSION="$version" KEY="$work/key" RELEASE_DIR="$EDGE_RELEASE" RELEASED="$work/released.yaml" > "$work/release.log" 2>&1 ||
	{ cat "$work/release.log"; exit 1; }
tail -n 12 "$work/release.log"
cmp -s openapi.yaml "$work/released.yaml" || { echo "make release did not write the released contract to RELEASED"; exit 1; }

echo "-- SHA256SUMS covers every file and matches"
(cd "$EDGE_RELEASE" && sha256sum --quiet -c SHA256SUMS)
listed=$(cut -d' ' -f3- "$EDGE_RELEASE/SHA256SUMS" | LC_ALL=C sort)
present=$(cd "$EDGE_RELEASE" && find . -type f ! -name SHA256SUMS -printf '%P\n' | LC_ALL=C sort)
[ "$listed" = "$present" ] || { echo "SHA256SUMS does not list exactly the release's files"; diff <(echo "$listed") <(echo "$present"); exit 1; }
for f in "edged_client-$version-py3-none-any.whl" "edged_client-$version.tar.gz" "edged-client-$version.tgz" \
	"goproxy/$gomod/@v/v$version.zip" "goproxy/github.com/edged/edged/pluginsdk/go/@v/v$pluginsdk_version.zip" \
	packages/index.json openapi.yaml; do
	[ -f "$EDGE_RELEASE/$f" ] || { echo "the release has no $f"; ls -R "$EDGE_RELEASE" | head -40; exit 1; }
done

# readme FILE LINE DIR: LINE must be in FILE; it runs in DIR.
readme() {
	grep -qF -- "$2" "$1" || { echo "$1 does not show the install line: $2"; exit 1; }
	echo "-- ($1) $2"
	(cd "$3" && bash -euo pipefail -c "$2")
}

echo "== the Go SDK and the Go plugin SDK, from the release's module proxy"
mkdir "$work/go"
(cd "$work/go" && go mod init example.com/consumer > /dev/null 2>&1)
readme clients/go/README.md "GOPROXY=file://\$EDGE_RELEASE/goproxy,https://proxy.golang.org GONOSUMDB=github.com/edged/edged go get $gomod@v$version" "$work/go"
readme README.md "GOPROXY=file://\$EDGE_RELEASE/goproxy,https://proxy.golang.org GONOSUMDB=github.com/edged/edged go get $gomod@v$version" "$work/go"
readme docs/plugins.md "GOPROXY=file://\$EDGE_RELEASE/goproxy,https://proxy.golang.org GONOSUMDB=github.com/edged/edged go get github.com/edged/edged/pluginsdk/go@v$pluginsdk_version" "$work/go"
grep -qF "\"$gomod/edgeclient\"" README.md || { echo "README.md does not show the Go import path $gomod/edgeclient"; exit 1; }
cat > "$work/go/main.go" <<GO
package main

import (
	"fmt"

	"$gomod/edgeclient"
	"github.com/edged/edged/pluginsdk/go/edgeplugin"
)

func main() {
	c, err := edgeclient.New("http://localhost:8081")
	if err != nil {
		panic(err)
	}
	var info edgeplugin.Info
	fmt.Println(c != nil, info.Name == "")
}
GO
(cd "$work/go" && go mod tidy > /dev/null 2>&1 && go vet . && go run .)
grep -q "$gomod v$version" "$work/go/go.mod" || { echo "the consumer does not require $gomod v$version"; exit 1; }

echo "== the Python SDK, wheel and sdist, each in a fresh virtualenv"
for kind in wheel sdist; do
	"${PYTHON:-python3}" -m venv "$work/py-$kind"
	case $kind in
	wheel) line="python3 -m pip install \"\$EDGE_RELEASE/edged_client-$version-py3-none-any.whl\"" ;;
	sdist) line="python3 -m pip install \"\$EDGE_RELEASE/edged_client-$version.tar.gz\"" ;;
	esac
	for f in clients/python/README.md README.md; do
		grep -qF -- "$line" "$f" || { echo "$f does not show the install line: $line"; exit 1; }
	done
	mkdir "$work/py-$kind-project"
	PATH="$work/py-$kind/bin:$PATH" readme clients/python/README.md "$line" "$work/py-$kind-project"
	(cd "$work/py-$kind-project" && "$work/py-$kind/bin/python" -c '
import sys
from importlib.metadata import version
import edged_client
from edged_client import Client, NotFoundError
assert version("edged-client") == sys.argv[1], version("edged-client")
print("edged-client", version("edged-client"), "imports", Client.__name__, NotFoundError.__name__)
' "$version")
done

echo "== the TypeScript SDK, in a fresh npm project"
mkdir "$work/ts"
(cd "$work/ts" && npm init -y > /dev/null && npm pkg set type=module)
line="npm install \"\$EDGE_RELEASE/edged-client-$version.tgz\""
grep -qF -- "$line" README.md || { echo "README.md does not show the install line: $line"; exit 1; }
readme clients/typescript/README.md "$line" "$work/ts"
(cd "$work/ts" && node -e '
import("@edged/client").then((m) => {
  const c = m.createEdgeClient({ baseUrl: "http://localhost:8081" });
  if (typeof c.get !== "function") throw new Error("no client");
  const v = JSON.parse(require("fs").readFileSync("node_modules/@edged/client/package.json")).version;
  if (v !== process.argv[1]) throw new Error("version " + v);
  console.log("@edged/client", v, "imports createEdgeClient");
});' "$version")

echo "== the Python plugin SDK"
if ls "$EDGE_RELEASE"/edged_plugin*.whl > /dev/null 2>&1; then
	"${PYTHON:-python3}" -m venv "$work/py-plugin"
	"$work/py-plugin/bin/python" -m pip install --quiet --disable-pip-version-check "$EDGE_RELEASE"/edged_plugin*.whl
	"$work/py-plugin/bin/python" -c 'import edged_plugin; print("edged_plugin imports")'
else
	echo "not in the release: pluginsdk/python is not a package yet (no pyproject.toml)"
fi
echo "the release installs as the READMEs say"
