#!/usr/bin/env bash
# Generates the plugin contract's code from proto/ into OUT (default: the
# repository): Go into pluginsdk/go/pluginpb, Python into
# pluginsdk/python/edged_plugin/pb. protoc comes from grpcio-tools in
# pluginsdk/python/.venv (make plugin-tools); protoc-gen-go and
# protoc-gen-go-grpc are tools of the pluginsdk/go module, so every version
# is pinned. `make generate` runs it; `make check-generated` runs it into a
# temporary directory and compares.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root}
py=$root/pluginsdk/python/.venv/bin/python
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
(cd "$root/pluginsdk/go" && go build -o "$bin/" google.golang.org/protobuf/cmd/protoc-gen-go google.golang.org/grpc/cmd/protoc-gen-go-grpc)
mkdir -p "$out/pluginsdk/go/pluginpb" "$out/pluginsdk/python/edged_plugin/pb"
cd "$root/proto"
"$py" -m grpc_tools.protoc -I . \
  --plugin=protoc-gen-go="$bin/protoc-gen-go" --plugin=protoc-gen-go-grpc="$bin/protoc-gen-go-grpc" \
  --go_out="$out/pluginsdk/go/pluginpb" --go_opt=paths=source_relative,Medged/plugin/v1/plugin.proto=github.com/edged/edged/pluginsdk/go/pluginpb \
  --go-grpc_out="$out/pluginsdk/go/pluginpb" --go-grpc_opt=paths=source_relative,Medged/plugin/v1/plugin.proto=github.com/edged/edged/pluginsdk/go/pluginpb \
  edged/plugin/v1/plugin.proto
# source_relative keeps the proto's directories; the Go package is flat.
mv "$out/pluginsdk/go/pluginpb/edged/plugin/v1/"*.go "$out/pluginsdk/go/pluginpb/"
rm -rf "$out/pluginsdk/go/pluginpb/edged"
# Python: the modules live in edged_plugin.pb; the generated imports are
# made relative to it.
tmp=$(mktemp -d)
"$py" -m grpc_tools.protoc -I . --python_out="$tmp" --grpc_python_out="$tmp" edged/plugin/v1/plugin.proto
sed 's/^from edged\.plugin\.v1 import plugin_pb2/from . import plugin_pb2/' "$tmp/edged/plugin/v1/plugin_pb2_grpc.py" \
  > "$out/pluginsdk/python/edged_plugin/pb/plugin_pb2_grpc.py"
cp "$tmp/edged/plugin/v1/plugin_pb2.py" "$out/pluginsdk/python/edged_plugin/pb/plugin_pb2.py"
rm -rf "$tmp"
