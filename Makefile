# edged — the edge data gateway. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
BIN       := bin/edged
DATA      ?= ./data
# golangci-lint, pinned in tools/go.mod. No package registry reachable here
# ships its prebuilt binary (PyPI, npm and Debian have none of v2), so it is
# built once from the Go module proxy's source into tools/bin, under a name
# that carries its version: a changed pin builds the new one, and nothing
# else ever rebuilds it.
LINTVERSION := $(shell awk '$$1 == "github.com/golangci/golangci-lint/v2" { print $$2 }' tools/go.mod)
LINT      := tools/bin/golangci-lint-$(LINTVERSION)
OAPI      := $(GO) tool oapi-codegen
# Verbose test output without the "=== RUN" noise: results (sqlite and
# postgres subtests included), logs and failures stay visible, so a run shows
# which databases were exercised. With pipefail, go test's status is kept.
TESTFILTER := { grep -v -E '^\s*=== (RUN|PAUSE|CONT|NAME)' || true; }
# The SDKs' and the docs page's generators. Python tools live in a
# project-local virtualenv built from tools/python/requirements.txt (pinned);
# the TypeScript SDK's tools in clients/typescript/node_modules (npm ci).
PYTHON    ?= python3
PYVENV    := tools/python/.venv
PY        := $(PYVENV)/bin/python
PYTOOLS   := $(PYVENV)/.installed
# The protocol simulators the plugin tests start (pymodbus, asyncua), in a
# virtualenv of their own so the SDK tools' pins are not disturbed.
SIMVENV   := tools/sim/.venv
SIMTOOLS  := $(SIMVENV)/.installed
# The NATS server the nats_north tests run as a three-node JetStream
# cluster and kill, built from its pinned release (Debian's is 2.9, whose
# clustering predates years of JetStream fixes).
NATSVERSION := v2.15.2
NATSSERVER  := tools/sim/bin/nats-server-$(NATSVERSION)
# The plugin contract's generator (protoc from grpcio-tools) and the Python
# plugin SDK's packages, in a virtualenv of their own.
PLUGVENV  := pluginsdk/python/.venv
PLUGTOOLS := $(PLUGVENV)/.installed
TSDIR     := clients/typescript
TSTOOLS   := $(TSDIR)/node_modules/.package-lock.json
REDOC     := internal/portal/redoc.html
# The operator console: TypeScript in web/console, bundled with the SDK and
# uPlot by its own pinned tools (web/console/node_modules, npm ci) into
# internal/portal/console, which the binary embeds.
CONSOLEDIR   := web/console
CONSOLEOUT   := internal/portal/console
CONSOLETOOLS := $(CONSOLEDIR)/node_modules/.package-lock.json
CONSOLESRC   := $(wildcard $(CONSOLEDIR)/src/* $(CONSOLEDIR)/src/*/* $(TSDIR)/src/*.ts) $(CONSOLEDIR)/index.html $(CONSOLEDIR)/build.mjs $(CONSOLEDIR)/package-lock.json
# What scripts/generate.sh writes from openapi.yaml.
GENERATED := gen/server.gen.go clients/go/edgeclient/client.gen.go clients/go/edgeclient/client.convenience.gen.go clients/python \
             $(TSDIR)/src/schema.d.ts $(TSDIR)/src/dated.d.ts $(TSDIR)/src/timestamps.ts $(TSDIR)/LICENSE $(REDOC) $(CONSOLEOUT)
# The root npm packages (the redocly CLI: spec lint and docs page), installed
# by `npm ci` whenever node_modules does not hold exactly what
# package-lock.json pins. Compared by content rather than by file times, so a
# fresh clone, a changed lock file and a checkout that predates the install
# are all handled.
ROOTTOOLS := root-tools
# What is in clients/python but not generated: the hand-written tests and
# CHANGELOG, and the leftovers of builds and test runs.
PYKEEP    := -x tests -x CHANGELOG.md -x __pycache__ -x .pytest_cache -x .ruff_cache -x .pdm-build -x build -x dist -x '*.egg-info'

.PHONY: help generate console check-generated build run test test-all-databases test-go-all test-conformance-pg test-tools test-go-tools test-unit \
        conformance lint lint-spec packages plugin-sdk-dist test-plugins plugin-tools bench clean tools sim-tools test-sdk-go test-sdk-python test-sdk-typescript test-portal \
        test-fuzz check-system root-tools bench-system test-compat release test-release test-foreign-clients

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

generate: $(PYTOOLS) $(TSTOOLS) $(ROOTTOOLS) $(CONSOLETOOLS) $(PLUGTOOLS) ## regenerate gen/, clients/, the docs page and the console from openapi.yaml and web/console, the plugin contract's code from proto/, and the built-in plugins' README.md and sample configurations
	scripts/generate.sh .
	scripts/gen-proto.sh
	$(GO) run ./internal/plugin/builtin/gendocs
	@echo "generated from openapi.yaml, proto/ and the built-in plugins' configuration structs"

# The plugin contract's generator runs beside the others (scripts/generate.sh
# runs the console's build beside the rest).
check-generated: $(PYTOOLS) $(TSTOOLS) $(ROOTTOOLS) $(CONSOLETOOLS) $(PLUGTOOLS) ## fail if gen/, clients/, the docs page, the console, the plugin contract's code or the built-in plugins' READMEs and samples differ from what their sources generate
	@tmp=$$(mktemp -d); proto=; trap '[ -z "$$proto" ] || { kill "$$proto" 2>/dev/null; wait "$$proto" || true; }; rm -rf "$$tmp"' EXIT; \
	scripts/gen-proto.sh "$$tmp/proto" > "$$tmp/proto.log" 2>&1 & proto=$$!; \
	scripts/generate.sh "$$tmp"; \
	stale=0; \
	for f in $(GENERATED); do \
	  diff -r $(PYKEEP) "$$tmp/$$f" "$$f" > "$$tmp/diff" 2>&1 || { head -40 "$$tmp/diff"; echo "$$f is stale: run 'make generate' and commit"; stale=1; }; \
	done; \
	rc=0; wait "$$proto" || rc=$$?; proto=; \
	cat "$$tmp/proto.log"; test $$rc = 0 || { echo "scripts/gen-proto.sh failed (exit $$rc)"; exit 1; }; \
	for f in pluginsdk/go/pluginpb/plugin.pb.go pluginsdk/go/pluginpb/plugin_grpc.pb.go \
	  pluginsdk/python/edged_plugin/pb/plugin_pb2.py pluginsdk/python/edged_plugin/pb/plugin_pb2_grpc.py; do \
	  cmp -s "$$f" "$$tmp/proto/$$f" || { echo "$$f is stale: run 'make generate' and commit"; stale=1; }; \
	done; \
	$(GO) run ./internal/plugin/builtin/gendocs -check || stale=1; \
	test $$stale = 0; \
	echo "generated code is current"

console: $(TSTOOLS) $(CONSOLETOOLS) ## rebuild the operator console (web/console) into internal/portal/console
	node $(CONSOLEDIR)/build.mjs $(CONSOLEOUT)

# make test sets CONSOLEDEP empty: see TESTJOBS.
CONSOLEDEP ?= $(CONSOLEOUT)/console.js
build: $(CONSOLEDEP) ## build bin/edged (pure Go, no cgo), the console first when its sources changed
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/edged

run: build ## run the gateway on port 8081 with the embedded SQLite store in ./data
	$(BIN) --data $(DATA)

# make test runs its steps side by side (scripts/side-by-side.sh), each a
# target below, at most TESTJOBS at once, each started as soon as the steps
# it needs have passed: the tools first (the Python and npm ones, and the
# Go-built ones, side by side), then the generated-code check, the lint and
# every suite. The two slowest suites, go test ./... and conformance on
# PostgreSQL, run side by side, each with a PostgreSQL cluster of its own.
# Order matters only where steps share files: the TypeScript SDK's test
# builds clients/typescript/dist, which check-generated's console build
# also writes, so it runs after it; and nothing rebuilds the console in the
# tree while other suites compile the gateway that embeds it (CONSOLEDEP=:
# check-generated fails instead when the committed console is stale). Each
# step's output is printed whole when it ends, go test ./...'s last, after
# the summary of every step's outcome and time (also in
# test-output/steps/). 4 fits 2 cores: most suites spend their time
# waiting on a gateway, a browser or the network rather than computing.
TESTJOBS ?= 4
TESTSTEPS := test-tools test-go-tools \
             test-go-all:test-tools,test-go-tools \
             check-generated:test-tools \
             lint:test-tools,test-go-tools \
             test-conformance-pg:test-tools,test-go-tools \
             test-sdk-python:test-tools \
             test-sdk-typescript:test-tools,check-generated \
             test-plugins:test-tools \
             test-sdk-go test-portal:test-tools \
             test-fuzz:test-tools \
             test-compat test-release:test-tools \
             test-foreign-clients:test-tools

test: check-system ## every test: the generated-code check, the lint, unit tests, the storage suite and conformance on SQLite and PostgreSQL, the SDKs, the foreign clients, the docs page, the fuzzer, the breaking-change check, the release installed as the READMEs say (side by side; TESTJOBS=4)
	CONSOLEDEP= MAKE='$(MAKE)' scripts/side-by-side.sh -j $(TESTJOBS) -last test-go-all $(TESTSTEPS)

# The tools the steps of make test share, installed before any of them
# runs: two steps building the same virtualenv or node_modules at once
# would break it.
test-tools: ## install the pinned Python and npm tools make test uses, side by side
	$(MAKE) --no-print-directory -j4 --output-sync=target $(PYTOOLS) $(PLUGTOOLS) $(SIMTOOLS) $(TSTOOLS) $(CONSOLETOOLS) root-tools

test-go-tools: $(LINT) $(NATSSERVER) ## build the pinned Go tools make test uses: golangci-lint and nats-server

test-plugins: $(PLUGTOOLS) ## the plugin SDKs and their example plugins: Go (its own module) and Python (pytest)
	@echo "== the Go plugin SDK (pluginsdk/go)"
	cd pluginsdk/go && CGO_ENABLED=0 $(GO) test -count=1 -v ./... 2>&1 | $(TESTFILTER)
	@echo "== the Python plugin SDK (pluginsdk/python)"
	cd pluginsdk/python && PYTHONPATH=. .venv/bin/python -m pytest -p no:cacheprovider -v tests

# The suites that run on both stores use the PostgreSQL cluster named by
# EDGE_TEST_PG, or start a throwaway one of their own
# (scripts/with-postgres.sh).
WITHPG = $(if $(EDGE_TEST_PG),,scripts/with-postgres.sh)

test-all-databases: test-go-all test-conformance-pg ## test-go-all, then test-conformance-pg

test-go-all: $(PLUGTOOLS) $(SIMTOOLS) $(NATSSERVER) ## go test ./...: unit tests, the storage suite on SQLite and PostgreSQL, conformance on SQLite
	@echo "== unit tests and the storage suite (SQLite and PostgreSQL), conformance on SQLite"
	EDGE_REQUIRE_SIMULATORS=1 CGO_ENABLED=0 $(WITHPG) $(GO) test -count=1 -v ./... 2>&1 | $(TESTFILTER)

test-conformance-pg: $(PLUGTOOLS) $(SIMTOOLS) $(NATSSERVER) ## the conformance suite on PostgreSQL
	@echo "== conformance on PostgreSQL"
	EDGE_REQUIRE_SIMULATORS=1 CGO_ENABLED=0 $(WITHPG) bash -c 'EDGE_CONFORMANCE_DB="$$EDGE_TEST_PG" exec $(GO) test -count=1 -v ./conformance' 2>&1 | $(TESTFILTER)

test-unit: ## unit tests, the storage suite and conformance on SQLite only (no PostgreSQL needed)
	CGO_ENABLED=0 $(GO) test -count=1 ./...

test-sdk-go: ## the Go SDK (its own module, clients/go): unit tests, and its README examples built in a consumer module and run against a gateway
	@echo "== the Go SDK (clients/go)"
	cd clients/go && CGO_ENABLED=0 $(GO) test -count=1 -v ./... 2>&1 | $(TESTFILTER)

test-sdk-python: $(PYTOOLS) ## the Python SDK as published: wheel and sdist, a fresh venv, mypy --strict, its tests and README examples against a gateway
	@echo "== the Python SDK (clients/python)"
	scripts/test-sdk-python.sh

test-sdk-typescript: $(TSTOOLS) ## the TypeScript SDK as published: npm pack, a fresh consumer project, tsc --strict, its tests and README examples against a gateway
	@echo "== the TypeScript SDK (clients/typescript)"
	cd $(TSDIR) && npm test --silent

test-portal: $(SIMTOOLS) ## the docs page and the console in headless Chromium (skip without a chromium binary; the console's plant test needs the Modbus simulator); output in test-output/
	@echo "== the documentation portal and the console in a browser"
	EDGE_REQUIRE_SIMULATORS=1 EDGE_BROWSER_TEST=1 CGO_ENABLED=0 $(GO) test -count=1 -v -run 'TestDocsInBrowser|TestConsoleInBrowser' ./internal/portal 2>&1 | $(TESTFILTER)

# The contract as integrators use it: clients generated from openapi.yaml by
# stock generators, pinned here (openapi-generator's CLI from Maven Central,
# through mvn into ~/.m2) and in tools/python/requirements.txt
# (openapi-python-client), with no name mappings or other options, built
# with their languages' own tools (Maven, the Kotlin Maven plugin, cargo)
# under build/foreign, each running a smoke program of
# conformance/foreign/<language> against the Python SDK tests' gateway
# (conformance/foreign/conftest.py; or EDGE_URL). FOREIGN_LANGS picks
# languages. See docs/development.md and docs/generators.md.
OPENAPI_GENERATOR_VERSION := 7.25.0
# Kotlin (FOREIGN_LANGS=kotlin) is generated and compiled, but its client
# cannot send createService's body yet: the Kotlin generator merges the two
# bodies of the oneOf ServiceRequest into one class that requires both
# `type` and `format` (docs/generators.md). It joins the list once the
# contract gives it a body it can send.
FOREIGN_LANGS ?= java rust python

test-foreign-clients: $(PYTOOLS) ## clients generated from openapi.yaml by stock generators (Java, Rust, Python; Kotlin with FOREIGN_LANGS), built and run against a gateway
	@echo "== foreign clients ($(FOREIGN_LANGS)): openapi-generator $(OPENAPI_GENERATOR_VERSION), openapi-python-client"
	OPENAPI_GENERATOR_VERSION=$(OPENAPI_GENERATOR_VERSION) FOREIGN_LANGS="$(FOREIGN_LANGS)" scripts/test-foreign-clients.sh

# Schemathesis (make test-fuzz) sends generated requests, valid and invalid,
# to every operation of the contract served by a gateway it starts, and checks
# each answer: no server error, and status, content type and body as the
# contract documents them. It runs once on SQLite and once on a throwaway
# PostgreSQL (text PostgreSQL cannot store shows up only there). Seeded, so CI
# runs are reproducible: a failure is replayed with the same FUZZ_SEED (make
# test-fuzz FUZZ_SEED=… to explore). FUZZ_EXAMPLES bounds the test cases per
# operation (each run takes about a minute on 2 cores, with one worker so
# that the requests repeat exactly).
FUZZ_SEED     ?= 20261122
FUZZ_EXAMPLES ?= 100
# Left out because they would end the run itself: shutdown and restart stop
# the gateway, restoreBackup restarts it on another state, logout ends the
# run's own session. (Ending all sessions of
# user 1, or deleting user 1, is filtered out per request in
# tools/python/fuzz_hooks.py; every other user id is fuzzed.)
FUZZ_EXCLUDE  := shutdown restart restoreBackup logout
# What still answers 501, as conformance/unbuilt.go lists it: whole
# operations, or OPERATION:NAME=VALUE for the requests of an operation whose
# query parameter or JSON body field NAME is VALUE (any case). The contract
# documents these 501s, so only the server-error check needs excusing, and
# only for these requests; every other check applies to them, and nothing is
# excused for anything else. Remove each as it gets built.
FUZZ_UNBUILT  :=

FUZZ          = $(PY) tools/python/fuzz.py --binary $(BIN) --seed $(FUZZ_SEED) --max-examples $(FUZZ_EXAMPLES) \
                --exclude "$(FUZZ_EXCLUDE)" --unbuilt "$(FUZZ_UNBUILT)"

test-fuzz: build $(PYTOOLS) ## Schemathesis against gateways it starts, on SQLite and PostgreSQL (seeded; FUZZ_SEED, FUZZ_EXAMPLES)
	@echo "== Schemathesis against the contract, on SQLite"
	$(FUZZ) --report-dir test-output/fuzz/sqlite
	@echo "== Schemathesis against the contract, on PostgreSQL"
	scripts/with-postgres.sh bash -c '$(FUZZ) --db "$$EDGE_TEST_PG" --report-dir test-output/fuzz/postgresql'

tools: $(PYTOOLS) $(TSTOOLS) $(ROOTTOOLS) $(CONSOLETOOLS) ## install the pinned Python, TypeScript SDK, root npm and console tools

check-system: ## fail with one line naming what make test needs and only the system can provide
	@scripts/check-system.sh

root-tools:
	@node scripts/npm-installed.js . || { \
	  if [ -L node_modules ]; then \
	    echo "node_modules is a link to $$(readlink -f node_modules) that does not hold what package-lock.json pins: run 'npm ci' there (npm ci here would empty it)"; exit 1; \
	  fi; \
	  npm ci --no-audit --no-fund; }

$(PYTOOLS): tools/python/requirements.txt
	rm -rf $(PYVENV)
	$(PYTHON) -m venv $(PYVENV)
	$(PY) -m pip install --quiet --disable-pip-version-check --require-virtualenv --no-deps -r tools/python/requirements.txt
	$(PY) -m pip check --disable-pip-version-check
	touch $@

sim-tools: $(SIMTOOLS) $(NATSSERVER) ## install the pinned protocol simulators (pymodbus, asyncua) into tools/sim/.venv and build the pinned nats-server into tools/sim/bin

$(NATSSERVER):
	mkdir -p tools/sim/bin
	rm -f tools/sim/bin/nats-server*
	GOBIN=$(CURDIR)/tools/sim/bin CGO_ENABLED=0 $(GO) install github.com/nats-io/nats-server/v2@$(NATSVERSION)
	mv tools/sim/bin/nats-server $@

$(SIMTOOLS): tools/sim/requirements.txt
	rm -rf $(SIMVENV)
	$(PYTHON) -m venv $(SIMVENV)
	$(SIMVENV)/bin/python -m pip install --quiet --disable-pip-version-check --require-virtualenv --no-deps -r tools/sim/requirements.txt
	$(SIMVENV)/bin/python -m pip check --disable-pip-version-check
	touch $@

# make build rebuilds the console when its sources are newer than the
# bundle and its tools are installed (make tools); it installs nothing
# itself. Otherwise the committed bundle, kept current by check-generated,
# is embedded as it is.
$(CONSOLEOUT)/console.js: $(CONSOLESRC)
	@if command -v node >/dev/null 2>&1 && [ -e $(CONSOLETOOLS) ] && [ -e $(TSTOOLS) ]; then \
	  node $(CONSOLEDIR)/build.mjs $(CONSOLEOUT); \
	else echo "the console's tools are not installed (make tools): embedding the committed console"; fi

$(CONSOLETOOLS): $(CONSOLEDIR)/package-lock.json $(TSTOOLS)
	cd $(CONSOLEDIR) && npm ci --no-audit --no-fund
	touch $@

# The plugin contract's generator (protoc from grpcio-tools) and the Python
# plugin SDK's packages, pinned in pluginsdk/python/requirements.txt, and
# the Python plugin SDK itself, installed from this tree (editable) as a
# plugin author installs its wheel; pip check holds the pins to the
# requirement ranges of its pyproject.toml.
plugin-tools: $(PLUGTOOLS) ## install the plugin contract's generator and the Python plugin SDK's packages (pinned)

$(PLUGTOOLS): pluginsdk/python/requirements.txt pluginsdk/python/pyproject.toml
	rm -rf $(PLUGVENV)
	$(PYTHON) -m venv $(PLUGVENV)
	$(PLUGVENV)/bin/python -m pip install --quiet --disable-pip-version-check --require-virtualenv --no-deps -r pluginsdk/python/requirements.txt
	$(PLUGVENV)/bin/python -m pip install --quiet --disable-pip-version-check --require-virtualenv --no-deps --no-build-isolation --no-index -e pluginsdk/python
	$(PLUGVENV)/bin/python -m pip check --disable-pip-version-check
	touch $@

# KEY is an ed25519 key file (go run ./cmd/edgepkg keygen -out KEYFILE);
# never commit one. The plugins and services of this tree are plugin
# directories like any author's: edgepkg builds each (the Python one with
# the plugin SDK's Python, which has this tree's SDK) and publishes them.
REPO_DIR ?= repository
PACKAGE_DIRS := pluginsdk/go/examples/csvsouth pluginsdk/go/examples/filenorth pluginsdk/go/examples/scalefilter \
                pluginsdk/python/examples/waveform cmd/edged-notification cmd/edged-dispatcher
# The packages' version: VERSION when given, else 1.0.0 (not git describe's).
PKGVERSION = $(if $(filter command line environment override,$(origin VERSION)),$(VERSION),1.0.0)
packages: $(PLUGTOOLS) ## build this repository's plugins and services into the signed package repository REPO_DIR with KEY
	@test -n "$(KEY)" || { echo "usage: make packages KEY=KEYFILE [REPO_DIR=dir] [VERSION=x.y.z]"; exit 2; }
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) build -o "$$tmp/edgepkg" ./cmd/edgepkg; \
	for d in $(PACKAGE_DIRS); do \
	  "$$tmp/edgepkg" build -python "$(CURDIR)/$(PLUGVENV)/bin/python" \
	    -version "$(PKGVERSION)" -out "$$tmp/dist" "$$d" > /dev/null; \
	done; \
	"$$tmp/edgepkg" publish -key "$(KEY)" -repo "$(REPO_DIR)" "$$tmp"/dist/*.tar.gz

# The plugin SDKs as a release ships them, into PLUGIN_SDK_OUT: the Go
# plugin SDK's module folder (edged-pluginsdk-go-V.tar.gz, used with
# `go mod edit -replace`) and the Python plugin SDK's wheel
# (edged_plugin-V-py3-none-any.whl). make release calls it.
PLUGIN_SDK_OUT ?= dist/pluginsdk
plugin-sdk-dist: $(PLUGTOOLS) ## the Go plugin SDK's module folder (tar.gz) and the Python plugin SDK's wheel, into PLUGIN_SDK_OUT (VERSION)
	scripts/plugin-sdk-dist.sh "$(PLUGIN_SDK_OUT)" "$(VERSION)" "$(PLUGVENV)/bin/python"

$(TSTOOLS): $(TSDIR)/package-lock.json
	cd $(TSDIR) && npm ci --no-audit --no-fund
	touch $@

conformance: ## the conformance suite against EDGE_URL, or a gateway it starts itself
	$(GO) test -count=1 -v ./conformance 2>&1 | $(TESTFILTER)

# The breaking-change check: openapi.yaml against the last released
# contract, committed as RELEASED (make release refreshes it), with oasdiff
# (pinned in tools/apicompat/go.mod, used as a library: see
# docs/compatibility.md). A break passes only under a higher major version.
RELEASED ?= api/released/openapi.yaml

test-compat: ## the breaking-change check (oasdiff): openapi.yaml against the released contract RELEASED, and the check's own tests
	@echo "== the breaking-change check (tools/apicompat)"
	cd tools/apicompat && CGO_ENABLED=0 $(GO) test -count=1 ./...
	cd tools/apicompat && CGO_ENABLED=0 $(GO) run . -released "$(abspath $(RELEASED))" -contract "$(CURDIR)/openapi.yaml"

# make release VERSION=x.y.z KEY=KEYFILE: the artefacts users install, into
# RELEASE_DIR with their SHA256SUMS (scripts/release.sh lists them), after
# checking that VERSION is the contract's and every SDK's version; then
# RELEASED becomes this contract (commit it). KEY signs the package
# repository (go run ./cmd/edgepkg keygen -out KEYFILE; never commit one).
RELEASE_DIR ?= dist/release-$(VERSION)

release: $(PYTOOLS) $(TSTOOLS) ## the release's artefacts (SDKs, plugin SDKs, signed package repository, SHA256SUMS) into dist/release-VERSION; refreshes RELEASED
	@test -n "$(KEY)" || { echo "usage: make release VERSION=x.y.z KEY=KEYFILE [RELEASE_DIR=dir]"; exit 2; }
	scripts/release.sh "$(VERSION)" "$(RELEASE_DIR)" "$(KEY)" "$(RELEASED)"

test-release: $(PYTOOLS) $(TSTOOLS) ## make release into a temporary folder, then each SDK installed from it in a fresh project by its README's install lines
	@echo "== the release: made, then installed as the READMEs say"
	scripts/test-release.sh

# golangci-lint runs once over the three modules (the gateway, the Go SDK
# and the Go plugin SDK), as a Go workspace made for the run, so that the
# packages they share are loaded and analysed once; go vet checks each
# module on its own, with the versions its own go.mod selects.
lint: lint-spec $(LINT) ## go vet, gofmt, golangci-lint (the gateway, the Go SDK and the Go plugin SDK, in one run) and the OpenAPI lint
	$(GO) vet ./...
	cd clients/go && $(GO) vet ./...
	cd pluginsdk/go && $(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi
	@work=$$(mktemp -d); trap 'rm -rf "$$work"' EXIT; \
	(cd "$$work" && GOWORK= $(GO) work init "$(CURDIR)" "$(CURDIR)/clients/go" "$(CURDIR)/pluginsdk/go"); \
	echo "$(LINT) run ./... ./clients/go/... ./pluginsdk/go/..."; \
	GOWORK="$$work/go.work" $(LINT) run ./... ./clients/go/... ./pluginsdk/go/...
	@# The breaking-change check is a module of its own whose oasdiff pin
	@# raises shared dependencies (kin-openapi), so it is vetted and linted
	@# on its own rather than in the workspace.
	cd tools/apicompat && $(GO) vet ./... && ../../$(LINT) run --config ../../.golangci.yml ./...

$(LINT): tools/go.mod tools/go.sum
	mkdir -p tools/bin
	rm -f tools/bin/golangci-lint-*
	cd tools && $(GO) build -o ../$@ github.com/golangci/golangci-lint/v2/cmd/golangci-lint
	$@ --version

lint-spec: $(ROOTTOOLS) ## lint openapi.yaml with the pinned redocly CLI (offline)
	npx --no-install redocly lint openapi.yaml

bench: ## benchmarks on SQLite and a throwaway PostgreSQL, 1M-reading cases included (see docs/benchmarks.md)
	EDGE_BENCH_LARGE=1 CGO_ENABLED=0 scripts/with-postgres.sh $(GO) test -run '^$$' -bench . -benchmem -timeout 60m ./...

# The whole-system benchmark (docs/benchmarks.md): the gateway as a process,
# on SQLite and on a throwaway PostgreSQL, against a raw driver loop and a
# bare net/http server measured in the same run, medians of 3 repetitions.
# About 15 minutes; BENCH_ARGS=-short for a run of a few minutes, or any
# flag of `bin/edged-load system -h`. Not part of make test.
BENCH_ARGS ?=

bench-system: build ## whole-system benchmark: gateway vs raw driver loop and bare net/http, SQLite and PostgreSQL (BENCH_ARGS=-short)
	CGO_ENABLED=0 $(GO) build -o bin/edged-load ./cmd/edged-load
	scripts/with-postgres.sh bin/edged-load system -edged $(BIN) $(BENCH_ARGS)

clean: ## remove build output
	rm -rf bin build $(TSDIR)/dist test-output
