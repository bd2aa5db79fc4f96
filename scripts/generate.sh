#!/usr/bin/env bash
# generate.sh OUT: writes everything generated from the contract,
# openapi.yaml, under OUT, laid out as in the repository: the server code
# (gen/), the Go, Python and TypeScript SDKs and the docs page. `make
# generate` runs it with OUT=. (the repository itself); `make
# check-generated` with a temporary directory, then compares. Run it from the
# repository root, with the Python and TypeScript tools installed (make tools).
#
# The operator console's build (web/console/build.mjs: three tsc runs and
# esbuild, most of the time this script takes) runs in the background as
# soon as the TypeScript SDK it bundles is written, beside the other
# generators; its output is printed when it ends.
set -euo pipefail

out=${1:?usage: scripts/generate.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
root=$(pwd)
tmp=$(mktemp -d)
console=
trap '[ -z "$console" ] || { kill "$console" 2>/dev/null; wait "$console" || true; }; rm -rf "$tmp"' EXIT

sdkgen() { go run ./scripts/sdkgen "$@"; }
venv=tools/python/.venv
tsdir=clients/typescript

# The SDKs: from their view of the contract (scripts/sdkgen spec).
sdkgen spec -o "$tmp/sdk.yaml" openapi.yaml
sdkgen spec -timestamp-format date-time -o "$tmp/sdk-python.yaml" openapi.yaml

# The TypeScript SDK first: the console bundles it.
mkdir -p "$out/$tsdir/src"
node "$tsdir/scripts/generate.mjs" "$tmp/sdk.yaml" "$out/$tsdir/src"
sdkgen timestamps -o "$out/$tsdir/src/timestamps.ts" openapi.yaml
cp LICENSE "$out/$tsdir/LICENSE"

# The operator console: web/console bundled with the SDK's built package and
# uPlot (web/console/build.mjs), for the binary to embed. In the background.
mkdir -p "$out/internal/portal"
node web/console/build.mjs "$out/internal/portal/console" > "$tmp/console.log" 2>&1 &
console=$!

# The server: from the contract as written.
mkdir -p "$out/gen"
sed "s#^output:.*#output: $out/gen/server.gen.go#" gen/server.cfg.yaml > "$tmp/server.cfg.yaml"
go tool oapi-codegen -config "$tmp/server.cfg.yaml" openapi.yaml

mkdir -p "$out/clients/go/edgeclient"
sed "s#^output:.*#output: $out/clients/go/edgeclient/client.gen.go#" clients/go/edgeclient/client.cfg.yaml > "$tmp/client.cfg.yaml"
go tool oapi-codegen -config "$tmp/client.cfg.yaml" "$tmp/sdk.yaml"
# The convenience Client's methods: each generated call through Check.
sdkgen goclient -o "$out/clients/go/edgeclient/client.convenience.gen.go" "$out/clients/go/edgeclient/client.gen.go"

# openapi-python-client writes a whole project; clients/python/tests and
# clients/python/CHANGELOG.md are ours.
PATH="$root/$venv/bin:$PATH" "$venv/bin/openapi-python-client" generate \
	--path "$tmp/sdk-python.yaml" --config tools/python/openapi-python-client.yaml \
	--custom-template-path tools/python/templates --meta pdm --overwrite \
	--output-path "$tmp/python" > "$tmp/python.log" 2>&1 || { cat "$tmp/python.log"; exit 1; }
rm -rf "$tmp/python/.ruff_cache"
cp LICENSE "$tmp/python/LICENSE"
mkdir -p "$out/clients/python"
find "$out/clients/python" -mindepth 1 -maxdepth 1 ! -name tests ! -name CHANGELOG.md -exec rm -rf {} +
cp -a "$tmp/python/." "$out/clients/python/"

# The docs page: the contract with every operation's request samples.
sdkgen samples -o "$tmp/docs.yaml" openapi.yaml
npx --no-install redocly build-docs "$tmp/docs.yaml" --inlineBundle \
	--output "$tmp/redoc.html" > "$tmp/redoc.log" 2>&1 || { cat "$tmp/redoc.log"; exit 1; }
sdkgen offline -o "$out/internal/portal/redoc.html" "$tmp/redoc.html"

rc=0
wait "$console" || rc=$?
console=
if [ "$rc" != 0 ]; then
	cat "$tmp/console.log"
	echo "the console's build failed (exit $rc)" >&2
	exit 1
fi
tail -n 1 "$tmp/console.log"
