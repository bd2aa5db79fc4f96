#!/usr/bin/env bash
# Usage: scripts/with-postgres.sh CMD [ARG...]
#
# Runs CMD with a throwaway PostgreSQL cluster and exports EDGE_TEST_PG, a
# lib/pq key=value DSN for its database "edged":
#   host=<socket dir> port=<port> user=postgres dbname=edged sslmode=disable
# The cluster listens on a unix socket only, in its own mktemp directory, so
# concurrent runs never collide even on the same port number. It is stopped
# and its directory removed when the script exits, whatever happens; the
# script exits with CMD's status.
#
# Environment:
#   PGBIN   directory of initdb/pg_ctl/psql (default: newest /usr/lib/postgresql/*/bin)
#   PGPORT  port number for the socket name (default 54329)
#
# As root, initdb refuses to run, so the server runs as the "postgres" system
# user (created if missing) through runuser; otherwise as the calling user.
# Durability is switched off (fsync, synchronous_commit, full_page_writes):
# the data is thrown away anyway.
set -euo pipefail

if [ "$#" -eq 0 ]; then
  echo "usage: $0 CMD [ARG...]" >&2
  exit 2
fi

PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)}
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/initdb" ] || [ ! -x "$PGBIN/pg_ctl" ] || [ ! -x "$PGBIN/psql" ]; then
  echo "$0: no PostgreSQL server binaries found (looked for initdb, pg_ctl and psql in ${PGBIN:-/usr/lib/postgresql/*/bin})." >&2
  echo "$0: install the server (e.g. apt-get install postgresql) or set PGBIN to its bin directory." >&2
  exit 127
fi
PGPORT=${PGPORT:-54329}

# Keep the path short: a unix socket path is limited to about 107 bytes.
PGROOT=$(mktemp -d /tmp/pgtest.XXXXXX)
PGDATA=$PGROOT/data

RUN=()
if [ "$(id -u)" = 0 ]; then
  if ! id -u postgres >/dev/null 2>&1; then
    useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres
  fi
  chown postgres: "$PGROOT"
  RUN=(runuser -u postgres --)
fi

# pg runs a PostgreSQL tool as the cluster's owner, from a directory that
# owner can read (initdb fails when it cannot read the current directory).
pg() { (cd / && "${RUN[@]}" "$@"); }

stop() {
  local rc=$?
  trap - EXIT INT TERM HUP
  if [ -f "$PGDATA/postmaster.pid" ]; then
    local pid
    pid=$(head -1 "$PGDATA/postmaster.pid" 2>/dev/null || true)
    pg "$PGBIN/pg_ctl" -D "$PGDATA" -m fast -w -t 30 stop >/dev/null 2>&1 ||
      pg "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true
    # Wait (up to 5 s) until the postmaster is gone, reaped included, so
    # nothing of the cluster outlives the script.
    for _ in $(seq 50); do
      [ -n "$pid" ] && [ -e "/proc/$pid" ] || break
      sleep 0.1
    done
  fi
  rm -rf "$PGROOT"
  exit "$rc"
}
trap stop EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

if ! pg "$PGBIN/initdb" -D "$PGDATA" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$PGROOT/initdb.log" 2>&1; then
  echo "$0: initdb failed:" >&2
  cat "$PGROOT/initdb.log" >&2
  exit 1
fi
if ! pg "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGROOT/server.log" -w -t 30 \
  -o "-p $PGPORT -k $PGROOT -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null; then
  echo "$0: PostgreSQL did not start; server log:" >&2
  cat "$PGROOT/server.log" >&2 || true
  exit 1
fi
"$PGBIN/psql" -h "$PGROOT" -p "$PGPORT" -U postgres -d postgres -qAtX -v ON_ERROR_STOP=1 \
  -c "CREATE DATABASE edged" >/dev/null

export EDGE_TEST_PG="host=$PGROOT port=$PGPORT user=postgres dbname=edged sslmode=disable"

# Run CMD in the background (stdin kept) so a signal to this script is
# handled at once: it is passed on to CMD, and the EXIT trap cleans up after
# CMD ends. In the foreground, bash would defer the trap until CMD finished.
"$@" <&0 &
child=$!
trap 'kill -INT "$child" 2>/dev/null || true' INT
trap 'kill -TERM "$child" 2>/dev/null || true' TERM
trap 'kill -HUP "$child" 2>/dev/null || true' HUP
while :; do
  wait "$child" && rc=0 || rc=$?
  # wait also returns when a trapped signal arrives; go on until CMD is gone
  # (kill -0 still succeeds while it is an unreaped zombie).
  kill -0 "$child" 2>/dev/null || break
done
exit "$rc"
