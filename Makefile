# edged — the edge data gateway. `make help` lists the targets.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

GO        ?= go
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -X main.version=$(VERSION)
BIN       := bin/edged
DATA      ?= ./data
LINT      := $(GO) tool -modfile=tools/go.mod golangci-lint
OAPI      := $(GO) tool oapi-codegen
# Verbose test output without the "=== RUN" noise: results (sqlite and
# postgres subtests included), logs and failures stay visible, so a run shows
# which databases were exercised. With pipefail, go test's status is kept.
TESTFILTER := { grep -v -E '^\s*=== (RUN|PAUSE|CONT|NAME)' || true; }

.PHONY: help generate check-generated build run test test-all-databases test-unit \
        conformance lint lint-spec bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'

generate: ## regenerate gen/ and clients/ from openapi.yaml
	$(GO) generate ./gen ./clients/go

check-generated: ## fail if gen/ or clients/ differ from what openapi.yaml generates
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	for pair in gen/server.cfg.yaml:gen/server.gen.go clients/go/client.cfg.yaml:clients/go/client.gen.go; do \
	  cfg=$${pair%%:*}; out=$${pair#*:}; \
	  sed "s#^output:.*#output: $$tmp/out.go#" "$$cfg" > "$$tmp/cfg.yaml"; \
	  $(OAPI) -config "$$tmp/cfg.yaml" openapi.yaml; \
	  cmp -s "$$out" "$$tmp/out.go" || { echo "$$out is stale: run 'make generate' and commit"; exit 1; }; \
	done; \
	echo "generated code is current"

build: ## build bin/edged (pure Go, no cgo)
	CGO_ENABLED=0 $(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/edged

run: build ## run the gateway on port 8081 with the embedded SQLite store in ./data
	$(BIN) --data $(DATA)

test: check-generated lint ## every test: unit tests, the storage suite and conformance on SQLite and PostgreSQL
	scripts/with-postgres.sh $(MAKE) --no-print-directory test-all-databases

test-all-databases:
	@test -n "$${EDGE_TEST_PG:-}" || { echo "EDGE_TEST_PG is not set: run 'make test'"; exit 1; }
	@echo "== unit tests and the storage suite (SQLite and PostgreSQL), conformance on SQLite"
	CGO_ENABLED=0 $(GO) test -count=1 -v ./... 2>&1 | $(TESTFILTER)
	@echo "== conformance on PostgreSQL"
	EDGE_CONFORMANCE_DB="$$EDGE_TEST_PG" CGO_ENABLED=0 $(GO) test -count=1 -v ./conformance 2>&1 | $(TESTFILTER)

test-unit: ## unit tests, the storage suite and conformance on SQLite only (no PostgreSQL needed)
	CGO_ENABLED=0 $(GO) test -count=1 ./...

conformance: ## the conformance suite against EDGE_URL, or a gateway it starts itself
	$(GO) test -count=1 -v ./conformance 2>&1 | $(TESTFILTER)

lint: lint-spec ## go vet, gofmt, golangci-lint and the OpenAPI lint
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files --cached --others --exclude-standard '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-formatted:"; echo "$$out"; exit 1; fi
	$(LINT) run ./...

lint-spec: ## lint openapi.yaml with the pinned redocly CLI (offline)
	npx --no-install redocly lint openapi.yaml

bench: ## benchmarks (see docs/benchmarks.md)
	CGO_ENABLED=0 $(GO) test -run '^$$' -bench . -benchmem ./...

clean: ## remove build output
	rm -rf bin
