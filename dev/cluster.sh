#!/usr/bin/env bash
# A production-shaped Temporal on this machine: the server built from the Go module go.temporal.io/server (pinned),
# on PostgreSQL 15 (Debian's) with the default store and SQL visibility, its frontend, history, matching and worker
# services in one process, 4 history shards, all on 127.0.0.1.
#
#   dev/cluster.sh up        build (once, cached), start PostgreSQL and the server; prints 127.0.0.1:PORT (the frontend)
#                            as its last line: export TEMPORAL_ADDRESS=$(dev/cluster.sh up | tail -n1). Idempotent.
#   dev/cluster.sh down      stop the server and PostgreSQL (the data stays; `up` brings the same runs back)
#   dev/cluster.sh status    what runs, and where
#   dev/cluster.sh destroy   down, then forget every run (the PostgreSQL data folder)
# For the durable tests (test/cluster/): kill-server (SIGKILL the server process), restart-pg (PostgreSQL stopped
# with `-m fast` and started again on the same port).
#
# State: ~/.cache/llm-evals/cluster/ (LLM_EVALS_CLUSTER_DIR): bin-VERSION/ (server, temporal-sql-tool), config.yaml,
# ports, logs. PostgreSQL refuses to run as root: then it runs as the user `postgres`, its data folder in
# /var/tmp/llm-evals-cluster-UID/ (root's home is closed to other users), linked from the state folder.
set -euo pipefail

SERVER_VERSION=v1.32.2
# v1.32's go.mod needs a newer Go than Debian's: the go command fetches this toolchain from the Go module proxy.
export GOTOOLCHAIN="${GOTOOLCHAIN:-go1.27.3}"
state="${LLM_EVALS_CLUSTER_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/llm-evals/cluster}"
bin="$state/bin-$SERVER_VERSION"
pgbin="${LLM_EVALS_PG_BIN:-/usr/lib/postgresql/15/bin}"
[ -x "$pgbin/initdb" ] || pgbin="$(dirname "$(command -v initdb 2>/dev/null || echo /nonexistent/initdb)")"
temporal_cli="${LLM_EVALS_TEMPORAL_CLI:-}"
namespace="${TEMPORAL_NAMESPACE:-default}"
# The search attributes llm-evals writes (temporal/server-settings.ts registers the same on the embedded server).
search_attributes=(LlmEvalsRunId LlmEvalsSuite LlmEvalsState LlmEvalsProject LlmEvalsSchedule)

say() { echo "cluster: $*" >&2; }
die() {
  echo "cluster: $*" >&2
  exit 2
}

# --- PostgreSQL ------------------------------------------------------------------------------------------------------

if [ "$(id -u)" -eq 0 ]; then
  pguser=postgres
  pgdata="/var/tmp/llm-evals-cluster-$(id -u)/pg"
  as_pg() { runuser -u "$pguser" -- "$@"; }
else
  pguser="$(id -un)"
  pgdata="$state/pg"
  as_pg() { "$@"; }
fi
pgsock="$(dirname "$pgdata")/sock"

pg_running() { [ -f "$pgdata/postmaster.pid" ] && as_pg "$pgbin/pg_ctl" -D "$pgdata" status >/dev/null 2>&1; }

pg_start() {
  if pg_running; then return 0; fi
  mkdir -p "$state" "$(dirname "$pgdata")"
  if [ "$pguser" = postgres ]; then chown "$pguser" "$(dirname "$pgdata")"; fi
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    say "initdb $pgdata (as $pguser)"
    as_pg "$pgbin/initdb" -D "$pgdata" -U postgres -A trust -E UTF8 --no-locale >"$state/initdb.log" 2>&1 ||
      { cat "$state/initdb.log" >&2; die "initdb failed (log: $state/initdb.log)"; }
    ln -sfn "$pgdata" "$state/pg"
  fi
  as_pg mkdir -p "$pgsock"
  say "PostgreSQL on 127.0.0.1:$pg_port"
  # Sized for Temporal's pools (maxConns 20 + 2 per service), fsync kept on: a restart must not lose a commit.
  as_pg "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -t 60 start \
    -o "-h 127.0.0.1 -p $pg_port -k $pgsock -c max_connections=200 -c shared_buffers=128MB" >/dev/null ||
    { tail -n 20 "$pgdata/server.log" >&2; die "PostgreSQL did not start (log: $pgdata/server.log)"; }
}

pg_stop() {
  if pg_running; then
    say "stopping PostgreSQL"
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null
  fi
}

psql_pg() { as_pg psql -h 127.0.0.1 -p "$pg_port" -U postgres -v ON_ERROR_STOP=1 -qAt "$@"; }

# --- the server ------------------------------------------------------------------------------------------------------

build() {
  if [ -x "$bin/server" ] && [ -x "$bin/temporal-sql-tool" ]; then return 0; fi
  command -v go >/dev/null || die "no go command: install Debian's golang-go (the toolchain $GOTOOLCHAIN is fetched)"
  say "building go.temporal.io/server $SERVER_VERSION (server and temporal-sql-tool; ~6 min and 1.7 GB of modules cold)"
  local started=$SECONDS
  mkdir -p "$bin.tmp"
  GOBIN="$bin.tmp" go install "go.temporal.io/server/cmd/server@$SERVER_VERSION" \
    "go.temporal.io/server/cmd/tools/sql@$SERVER_VERSION" >&2
  mv "$bin.tmp/sql" "$bin.tmp/temporal-sql-tool"
  rm -rf "$bin" && mv "$bin.tmp" "$bin"
  say "built in $((SECONDS - started)) s"
}

schema_dir() {
  local mod
  mod="$(go env GOMODCACHE)/go.temporal.io/server@$SERVER_VERSION/schema/postgresql/v12"
  [ -d "$mod" ] || GOFLAGS=-mod=mod go mod download "go.temporal.io/server@$SERVER_VERSION" >&2
  echo "$mod"
}

sql_tool() {
  "$bin/temporal-sql-tool" --plugin postgres12 --ep 127.0.0.1 -p "$pg_port" -u temporal --pw temporal "$@"
}

setup_schemas() {
  psql_pg -c "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'temporal') THEN
    CREATE ROLE temporal LOGIN SUPERUSER PASSWORD 'temporal'; END IF; END \$\$;"
  local schemas db
  schemas="$(schema_dir)"
  for db in temporal temporal_visibility; do
    local dir=temporal
    [ "$db" = temporal_visibility ] && dir=visibility
    if [ -z "$(psql_pg -c "SELECT 1 FROM pg_database WHERE datname = '$db'")" ]; then
      say "schema $db"
      { sql_tool --db "$db" create-database && sql_tool --db "$db" setup-schema -v 0.0; } >"$state/schema-$db.log" 2>&1 ||
        { cat "$state/schema-$db.log" >&2; die "setup-schema $db failed"; }
    fi
    # Brings an existing database up to this server's schema, and is a no-op when it is there already.
    sql_tool --db "$db" update-schema -d "$schemas/$dir/versioned" >>"$state/schema-$db.log" 2>&1 ||
      { cat "$state/schema-$db.log" >&2; die "update-schema $db failed"; }
  done
}

# Below 32768: the cluster_membership table keeps a service's membership port in a smallint.
free_port() {
  python3 -c '
import random, socket
while True:
    port = random.randrange(20000, 32000)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port)); print(port); break
    except OSError:
        pass
    finally:
        s.close()'
}

# Ports are chosen once and kept: a restarted server answers where its clients and workers look for it.
load_ports() {
  if [ ! -f "$state/ports" ]; then
    mkdir -p "$state"
    {
      for name in pg_port frontend_port frontend_http history_port matching_port worker_port \
        frontend_member history_member matching_member worker_member pprof_port metrics_port; do
        echo "$name=$(free_port)"
      done
    } >"$state/ports.tmp"
    mv "$state/ports.tmp" "$state/ports"
  fi
  # shellcheck disable=SC1091
  . "$state/ports"
}

write_config() {
  cat >"$state/dynamicconfig.yaml" <<'YAML'
# What llm-evals runs with on the embedded server (temporal/server-settings.ts), and Worker Versioning.
frontend.enableUpdateWorkflowExecution:
  - value: true
system.enableActivityEagerExecution:
  - value: true
history.MaxBufferedQueryCount:
  - value: 100
frontend.workerVersioningWorkflowAPIs:
  - value: true
system.enableDeploymentVersions:
  - value: true
# Each suite's queue is a Worker Deployment; the tests make a queue per test, and the data folder keeps them across
# runs: Temporal's default of 100 per namespace would refuse new workers after a few runs.
matching.maxDeployments:
  - value: 10000
YAML
  cat "${LLM_EVALS_CLUSTER_DYNAMIC_CONFIG:-/dev/null}" >>"$state/dynamicconfig.yaml"
  cat >"$state/config.yaml" <<YAML
log:
  stdout: true
  level: warn
persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:
      sql:
        pluginName: postgres12
        databaseName: temporal
        connectAddr: "127.0.0.1:$pg_port"
        connectProtocol: tcp
        user: temporal
        password: temporal
        maxConns: 20
        maxIdleConns: 20
        maxConnLifetime: 1h
    postgres-visibility:
      sql:
        pluginName: postgres12
        databaseName: temporal_visibility
        connectAddr: "127.0.0.1:$pg_port"
        connectProtocol: tcp
        user: temporal
        password: temporal
        maxConns: 4
        maxIdleConns: 4
        maxConnLifetime: 1h
global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: 127.0.0.1
  pprof:
    port: $pprof_port
  metrics:
    prometheus:
      framework: tally
      timerType: histogram
      listenAddress: "127.0.0.1:$metrics_port"
services:
  frontend:
    rpc: { grpcPort: $frontend_port, membershipPort: $frontend_member, bindOnLocalHost: true, httpPort: $frontend_http }
  matching:
    rpc: { grpcPort: $matching_port, membershipPort: $matching_member, bindOnLocalHost: true }
  history:
    rpc: { grpcPort: $history_port, membershipPort: $history_member, bindOnLocalHost: true }
  worker:
    rpc: { grpcPort: $worker_port, membershipPort: $worker_member, bindOnLocalHost: true }
clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: active
  currentClusterName: active
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: frontend
      rpcAddress: "127.0.0.1:$frontend_port"
dcRedirectionPolicy:
  policy: noop
dynamicConfigClient:
  filepath: "$state/dynamicconfig.yaml"
  pollInterval: 10s
YAML
}

server_pid() {
  local pid
  pid="$(cat "$state/server.pid" 2>/dev/null)" || return 1
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && grep -q "$bin/server" "/proc/$pid/cmdline" 2>/dev/null &&
    echo "$pid"
}

find_cli() {
  if [ -z "$temporal_cli" ]; then
    temporal_cli="$(command -v temporal 2>/dev/null || true)"
    [ -n "$temporal_cli" ] || temporal_cli="$(ls -d "${XDG_CACHE_HOME:-$HOME/.cache}"/llm-evals/temporal-*/temporal 2>/dev/null | tail -n1)"
    [ -x "$temporal_cli" ] || die "no temporal CLI (run: node bin/llm-evals.mjs server install)"
  fi
}

tctl() { "$temporal_cli" --address "127.0.0.1:$frontend_port" "$@"; }

server_start() {
  if server_pid >/dev/null; then return 0; fi
  write_config
  say "Temporal $SERVER_VERSION on 127.0.0.1:$frontend_port (4 history shards)"
  setsid "$bin/server" --config-file "$state/config.yaml" --allow-no-auth start \
    --service frontend --service history --service matching --service worker \
    >>"$state/server.log" 2>&1 </dev/null &
  echo $! >"$state/server.pid"
}

wait_ready() {
  local deadline=$((SECONDS + ${1:-90}))
  until tctl operator cluster health >/dev/null 2>&1; do
    server_pid >/dev/null || { tail -n 30 "$state/server.log" >&2; die "the server exited (log: $state/server.log)"; }
    [ $SECONDS -lt $deadline ] || die "the server did not answer in time (log: $state/server.log)"
    sleep 0.5
  done
}

register() {
  if ! tctl operator namespace describe --namespace "$namespace" >/dev/null 2>&1; then
    say "namespace $namespace"
    tctl operator namespace create --namespace "$namespace" --retention 72h >/dev/null
  fi
  local have name
  # The namespace cache takes a few seconds to see a new namespace: wait until its search attributes can be read.
  local deadline=$((SECONDS + 60))
  until have="$(tctl operator search-attribute list --namespace "$namespace" -o json 2>/dev/null)"; do
    [ $SECONDS -lt $deadline ] || die "the cluster refuses the namespace $namespace"
    sleep 1
  done
  for name in "${search_attributes[@]}"; do
    if ! grep -q "\"$name\"" <<<"$have"; then
      tctl operator search-attribute create --namespace "$namespace" --name "$name" --type Keyword >/dev/null
    fi
  done
  # A workflow can be started only once the namespace (and its attributes) reached every service's cache.
  until tctl workflow list --namespace "$namespace" --limit 1 --query "LlmEvalsRunId = 'x'" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || die "the cluster refuses the namespace $namespace"
    sleep 1
  done
}

up() {
  build
  find_cli
  load_ports
  pg_start
  setup_schemas
  server_start
  wait_ready 120
  register
  echo "127.0.0.1:$frontend_port"
}

down() {
  local pid
  if pid="$(server_pid)"; then
    say "stopping the server ($pid)"
    kill -TERM "$pid"
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$state/server.pid"
  [ -f "$state/ports" ] && load_ports && pg_stop
  return 0
}

status() {
  local pid code=0
  if [ -f "$state/ports" ]; then load_ports; fi
  if pid="$(server_pid)"; then
    echo "server: running (pid $pid) $SERVER_VERSION, frontend 127.0.0.1:$frontend_port"
  else
    echo "server: stopped"
    code=3
  fi
  if [ -n "${pg_port:-}" ] && pg_running; then
    echo "postgresql: running on 127.0.0.1:$pg_port, data $pgdata"
  else
    echo "postgresql: stopped"
    code=3
  fi
  if [ -x "$bin/server" ]; then echo "binaries: $bin"; else echo "binaries: not built yet (dev/cluster.sh up builds them)"; fi
  return $code
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  destroy)
    down
    rm -rf "$pgdata" "$state/pg" "$state/ports" "$state/server.log"
    ;;
  kill-server)
    pid="$(server_pid)" || die "the server is not running"
    kill -KILL "$pid"
    ;;
  restart-pg)
    load_ports
    as_pg "$pgbin/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null
    pg_start
    ;;
  *)
    echo "usage: dev/cluster.sh up|down|status|destroy" >&2
    exit 2
    ;;
esac
