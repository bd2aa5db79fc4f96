#!/usr/bin/env bash
# Usage: scripts/test-foreign-clients.sh
#
# Tries the contract as a third-party integrator does: clients generated
# from openapi.yaml by stock generators, pinned by version and run without
# name mappings or other options that bend the contract, compiled with
# their languages' own build tools, each driving a live gateway through a
# smoke program (conformance/foreign/<language>/): log in, create a user,
# page the audit log, create an http_south service, post readings to it,
# read the asset's readings and summary, list the south services with that
# one running, read the statistics, delete the service.
#
#   java    openapi-generator (Maven Central) -g java --library native, built with Maven
#   kotlin  openapi-generator -g kotlin (jvm-okhttp4), built with Maven and
#           the Kotlin Maven plugin (the generated Gradle build needs a
#           Gradle distribution, which no package registry here serves)
#   rust    openapi-generator -g rust --library reqwest, built with cargo
#   python  openapi-python-client (tools/python/requirements.txt)
#
# Everything is generated and built under build/foreign (ignored by git):
# the smoke programs are copied there beside their clients, so nothing in
# the tree changes. Maven keeps what it downloads in ~/.m2, cargo in
# ~/.cargo, and cargo's build output stays in build/foreign/rust/target
# between runs.
#
# The gateway: EDGE_URL names a running one (its admin password in
# EDGE_ADMIN_PASSWORD), as for the SDKs' tests; otherwise cmd/edged is built
# with `go build` and started on a temporary data directory and a free port,
# and stopped at the end.
#
# Environment: OPENAPI_GENERATOR_VERSION and FOREIGN_LANGS (the languages,
# default "java rust python", kotlin too when named; both set by the Makefile), FOREIGN_SPEC
# (the contract to generate from, default openapi.yaml).
set -euo pipefail

root=$(pwd)
version=${OPENAPI_GENERATOR_VERSION:?set OPENAPI_GENERATOR_VERSION (the Makefile does)}
spec=$(realpath "${FOREIGN_SPEC:-openapi.yaml}")
langs=${FOREIGN_LANGS:-java rust python}
out=$root/build/foreign
src=$root/conformance/foreign
py=$root/tools/python/.venv/bin/python
mkdir -p "$out"
work=$(mktemp -d)
gateway=
bg_pids=()
cleanup() {
	for pid in "${bg_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	if [ -n "$gateway" ]; then
		kill -TERM "$gateway" 2>/dev/null || true
		wait "$gateway" 2>/dev/null || true
	fi
	rm -rf "$work"
}
trap cleanup EXIT

has() { [[ " $langs " == *" $1 "* ]]; }
section() { echo "-- $*"; }

# info.version of the contract names the generated Java client's artifact.
contract_version=$(awk '/^info:/ { i = 1; next } i && /^[^ ]/ { exit } i && $1 == "version:" { gsub(/["'\'']/, "", $2); print $2; exit }' "$spec")

# openapi-generator's CLI, a self-contained jar from Maven Central, fetched
# once through Maven (and so from ~/.m2 after the first time).
jar=$out/openapi-generator-cli-$version.jar
if [ ! -f "$jar" ]; then
	section "fetch openapi-generator-cli $version"
	mvn -B -q -Dstyle.color=never dependency:copy -Dartifact="org.openapitools:openapi-generator-cli:$version" -DoutputDirectory="$out" -Dmdep.overWriteReleases=true
fi

# run NAME CMD...: runs CMD in the background, its output in $work/NAME.log.
run() {
	local name=$1
	shift
	date +%s > "$work/$name.start"
	# set -e holds inside CMD (it would not under `||`): its first failing
	# command ends it.
	(
		set +e
		(
			set -e
			"$@"
		) > "$work/$name.log" 2>&1
		rc=$?
		date +%s > "$work/$name.end"
		exit $rc
	) &
	bg_pids+=($!)
	eval "pid_$name=$!"
}
took() { echo $(($(cat "$work/$1.end") - $(cat "$work/$1.start"))); }
# finish NAME: waits for NAME's job, prints its log when it failed.
failed=()
finish() {
	local name=$1 pid rc=0
	eval "pid=\$pid_$name"
	wait "$pid" || rc=$?
	if [ "$rc" != 0 ]; then
		echo "== $name failed (exit $rc) in $(took "$name") s:"
		tail -n 60 "$work/$name.log"
		failed+=("$name")
		return 1
	fi
	echo "== $name: ready in $(took "$name") s"
}

generate() { # LANG GENERATOR [OPTIONS...]
	local lang=$1
	shift
	rm -rf "$out/$lang/client"
	mkdir -p "$out/$lang"
	java -jar "$jar" generate -i "$spec" -o "$out/$lang/client" -g "$@"
}

build_java() {
	generate java java --library native
	rm -rf "$out/java/smoke"
	cp -r "$src/java" "$out/java/smoke"
	# The generated project and the smoke program in one reactor build.
	cat > "$out/java/pom.xml" <<-EOF
		<project xmlns="http://maven.apache.org/POM/4.0.0">
		  <modelVersion>4.0.0</modelVersion>
		  <groupId>edged.foreign</groupId>
		  <artifactId>java-reactor</artifactId>
		  <version>0</version>
		  <packaging>pom</packaging>
		  <modules><module>client</module><module>smoke</module></modules>
		</project>
	EOF
	mvn -B -q -Dstyle.color=never -f "$out/java/pom.xml" -Dclient.version="$contract_version" -Dmaven.test.skip=true -Dmaven.javadoc.skip=true package
}

build_kotlin() {
	generate kotlin kotlin
	rm -rf "$out/kotlin/smoke"
	cp -r "$src/kotlin" "$out/kotlin/smoke"
	mvn -B -q -Dstyle.color=never -f "$out/kotlin/smoke/pom.xml" package
}

build_rust() {
	generate rust rust --library reqwest
	mkdir -p "$out/rust/smoke"
	# Copied file by file, so that cargo's lock file, updated in the copy
	# when the generated crate's version moves, is kept only there.
	cp "$src/rust/Cargo.toml" "$src/rust/Cargo.lock" "$out/rust/smoke/"
	rm -rf "$out/rust/smoke/src"
	cp -r "$src/rust/src" "$out/rust/smoke/src"
	CARGO_TARGET_DIR=$out/rust/target cargo build --quiet --manifest-path "$out/rust/smoke/Cargo.toml"
}

build_python() {
	# --meta none writes the package alone, named by its folder.
	rm -rf "$out/python/edged_api_client"
	mkdir -p "$out/python"
	PATH="$root/tools/python/.venv/bin:$PATH" "$root/tools/python/.venv/bin/openapi-python-client" generate \
		--path "$spec" --meta none --output-path "$out/python/edged_api_client"
}

build_gateway() {
	CGO_ENABLED=0 go build -o "$work/edged" ./cmd/edged
}

section "generate and build: $langs (openapi-generator $version; logs in build/foreign/logs)"
t0=$(date +%s)
[ -n "${EDGE_URL:-}" ] || run gateway build_gateway
for lang in $langs; do
	declare -F "build_$lang" >/dev/null || { echo "unknown language $lang (FOREIGN_LANGS)" >&2; exit 2; }
	run "$lang" "build_$lang"
done
built=()
for lang in $langs; do
	if finish "$lang"; then built+=("$lang"); fi
done
if [ -z "${EDGE_URL:-}" ]; then
	finish gateway || exit 1
fi
mkdir -p "$out/logs"
cp "$work"/*.log "$out/logs/"
echo "generated and built in $(($(date +%s) - t0)) s"

if [ -n "${EDGE_URL:-}" ]; then
	url=${EDGE_URL%/}
	password=${EDGE_ADMIN_PASSWORD:-}
else
	password=Foreign-Passw0rd!
	port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	EDGE_ADMIN_PASSWORD=$password "$work/edged" --data "$work/data" --port "$port" > "$work/edged.log" 2>&1 &
	gateway=$!
	url=http://127.0.0.1:$port
	deadline=$(($(date +%s) + 30))
	until curl -fsS -o /dev/null "$url/edge/ping" 2>/dev/null; do
		kill -0 "$gateway" 2>/dev/null || { cat "$work/edged.log"; echo "edged exited" >&2; exit 1; }
		[ "$(date +%s)" -lt "$deadline" ] || { cat "$work/edged.log"; echo "edged not answering ping within 30 s" >&2; exit 1; }
		sleep 0.05 # polling for the gateway's listener
	done
fi

smoke_java() { java -cp "$(cat "$out/java/smoke/target/classpath.txt"):$out/java/smoke/target/classes" edged.smoke.Smoke; }
smoke_kotlin() { java -cp "$(cat "$out/kotlin/smoke/target/classpath.txt"):$out/kotlin/smoke/target/classes" edged.smoke.SmokeKt; }
smoke_rust() { "$out/rust/target/debug/edged-smoke"; }
smoke_python() { PYTHONPATH="$out/python" "$py" "$src/python/smoke.py"; }

passed=0
for lang in "${built[@]}"; do
	section "the $lang smoke program against $url"
	if EDGE_URL=$url EDGE_ADMIN_PASSWORD=$password "smoke_$lang"; then
		passed=$((passed + 1))
		echo "== $lang: passed"
	else
		failed+=("$lang smoke")
		echo "== $lang: FAILED"
	fi
done
if [ -n "$gateway" ] && [ "${#failed[@]}" -gt 0 ]; then
	echo "-- the gateway's log (tail)"
	tail -n 40 "$work/edged.log"
fi
echo "foreign clients: $passed passed, ${#failed[@]} failed"
[ "${#failed[@]}" = 0 ] || { echo "failed: ${failed[*]}"; exit 1; }
