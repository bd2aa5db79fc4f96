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
# The smoke programs run under pytest (conformance/foreign/test_smoke.py),
# against the gateway of the Python SDK's tests, whose fixture
# conformance/foreign/conftest.py loads: EDGE_URL names a running one (its
# admin password in EDGE_ADMIN_PASSWORD); otherwise cmd/edged is built with
# `go build`, started on a temporary data directory and a free port, and
# stopped at the end.
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
bg_pids=()
cleanup() {
	for pid in "${bg_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT

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

section "generate and build: $langs (openapi-generator $version; logs in build/foreign/logs)"
t0=$(date +%s)
for lang in $langs; do
	declare -F "build_$lang" >/dev/null || { echo "unknown language $lang (FOREIGN_LANGS)" >&2; exit 2; }
	run "$lang" "build_$lang"
done
built=()
for lang in $langs; do
	if finish "$lang"; then built+=("$lang"); fi
done
mkdir -p "$out/logs"
cp "$work"/*.log "$out/logs/"
echo "generated and built in $(($(date +%s) - t0)) s"

# The smoke programs, one pytest case each, against the gateway of the
# Python SDK's tests (conformance/foreign/conftest.py loads its fixture).
if [ "${#built[@]}" -gt 0 ]; then
	section "the smoke programs: ${built[*]}"
	rc=0
	(cd "$src" && FOREIGN_BUILD=$out FOREIGN_LANGS="${built[*]}" EDGE_REPO_ROOT=$root \
		"$py" -m pytest -p no:cacheprovider -v -rs test_smoke.py) || rc=$?
	[ "$rc" = 0 ] || failed+=("smoke programs")
fi
[ "${#failed[@]}" = 0 ] || { echo "foreign clients: failed: ${failed[*]}"; exit 1; }
