#!/usr/bin/env bash
# Usage: scripts/check-system.sh
#
# Checks that the programs `make test` needs and cannot install itself are
# present: Go, Node 20+ with npm, Python 3.11+ with its venv module,
# PostgreSQL's server programs, openssl (the Python SDK's certificate login
# test makes its certificates with it), Chromium, the mosquitto and NATS
# brokers with mosquitto's clients, the Prometheus server (the metrics
# test scrapes a gateway with it) and OpenLDAP's slapd (the LDAP login
# tests start a directory with it). Everything else (the root and
# clients/typescript npm packages, the Python virtualenv, the Go tools) is
# installed by make from the project's lock files. Prints nothing and exits 0
# when all is there; otherwise prints one line naming what is missing, with
# the Debian package that provides it, and exits 1.
#
# Environment: PGBIN (as for scripts/with-postgres.sh), EDGE_CHROMIUM (a
# Chromium binary, as for the docs page's browser test).
set -uo pipefail

missing=()

command -v go >/dev/null 2>&1 || missing+=("go (Go 1.26, https://go.dev/dl)")
command -v git >/dev/null 2>&1 || missing+=("git (apt-get install git)")

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  missing+=("node and npm (Node 20+, apt-get install nodejs npm)")
elif ! node -e 'process.exit(Number(process.versions.node.split(".")[0]) >= 20 ? 0 : 1)' 2>/dev/null; then
  missing+=("Node 20+ (found $(node --version))")
fi

if ! command -v python3 >/dev/null 2>&1; then
  missing+=("python3 (Python 3.11+, apt-get install python3 python3-venv)")
elif ! python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)' 2>/dev/null; then
  missing+=("Python 3.11+ (found $(python3 --version 2>&1))")
elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=("Python's venv module (apt-get install python3-venv)")
fi

pgbin=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)}
if [ -z "$pgbin" ] || [ ! -x "$pgbin/initdb" ] || [ ! -x "$pgbin/pg_ctl" ] || [ ! -x "$pgbin/psql" ]; then
  missing+=("PostgreSQL server programs initdb, pg_ctl, psql (apt-get install postgresql, or set PGBIN)")
fi

command -v openssl >/dev/null 2>&1 || missing+=("openssl (apt-get install openssl)")
# docs/plugins.md's walkthrough, which the conformance suite runs as
# written, talks to the gateway with curl.
command -v curl >/dev/null 2>&1 || missing+=("curl (apt-get install curl)")
# The brokers the protocol plugins are tested against, mosquitto's
# command-line clients, which the conformance suite publishes and
# subscribes with, the Prometheus server the metrics test starts, and the
# LDAP directory (slapd) the LDAP login tests start.
for prog in mosquitto:mosquitto mosquitto_passwd:mosquitto mosquitto_pub:mosquitto-clients mosquitto_sub:mosquitto-clients \
  prometheus:prometheus slapd:slapd; do
  name=${prog%%:*}
  command -v "$name" >/dev/null 2>&1 || [ -x "/usr/sbin/$name" ] || missing+=("$name (apt-get install ${prog#*:})")
done

chromium=${EDGE_CHROMIUM:-}
if [ -z "$chromium" ]; then
  for c in chromium chromium-browser google-chrome google-chrome-stable; do
    if command -v "$c" >/dev/null 2>&1; then
      chromium=$c
      break
    fi
  done
fi
[ -n "$chromium" ] || missing+=("Chromium (apt-get install chromium, or set EDGE_CHROMIUM)")

if [ "${#missing[@]}" -gt 0 ]; then
  line=$(printf '%s; ' "${missing[@]}")
  echo "make test needs programs only the system can provide, missing: ${line%; }" >&2
  exit 1
fi
