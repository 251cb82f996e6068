#!/usr/bin/env bash
# CI: the product's first start against a PostgreSQL server that never saw Kestrel, as a newcomer
# runs it (`DATABASE_URL=postgres://postgres@host/kestrel npm start`): a brand-new cluster
# (initdb into a temporary folder, trust authentication, its own port), the start until /healthz
# answers 200 and the README's demo login works, then a second start on the same cluster (the
# restart path). Everything it made is stopped and removed on exit. Skipped when the PostgreSQL
# server binaries (initdb) are not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

PG_BIN="${PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
if [ -z "$PG_BIN" ] || [ ! -x "$PG_BIN/initdb" ]; then
  echo "› no PostgreSQL server binaries (initdb); skipping the fresh-cluster start"
  exit 0
fi

# initdb and postgres refuse to run as root: then they run as the postgres OS user
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
free_port() {
  node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}

TMP="$(mktemp -d /tmp/kestrel-fresh-cluster.XXXXXX)"
chmod 755 "$TMP"
[ "$(id -u)" = 0 ] && chown postgres: "$TMP"
SERVER_PID=""
cleanup() {
  local code=$?
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM -- "-$SERVER_PID" 2>/dev/null || true
    sleep 1
    kill -KILL -- "-$SERVER_PID" 2>/dev/null || true
  fi
  if [ -f "$TMP/data/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$TMP/data" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$TMP"
  exit "$code"
}
trap cleanup EXIT INT TERM

PG_PORT="$(free_port)"
as_pg "$PG_BIN/initdb" -D "$TMP/data" -A trust -U postgres --no-sync >"$TMP/initdb.log" 2>&1 ||
  { cat "$TMP/initdb.log"; exit 1; }
as_pg "$PG_BIN/pg_ctl" -D "$TMP/data" -l "$TMP/postgres.log" -w \
  -o "-k $TMP -p $PG_PORT -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
as_pg "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_PORT" -U postgres kestrel

DB_URL="postgres://postgres@127.0.0.1:$PG_PORT/kestrel"
# npm start runs in production, which on PostgreSQL refuses to start without its encryption keys
# (README, 'Encryption at rest'): made here as a deployment would, the same for both starts
random_key() { node -e 'console.log(require("crypto").randomBytes(32).toString("base64"))'; }
ENCRYPTION_KEYS="k1:$(random_key)"
ENCRYPTION_INDEX_KEY="$(random_key)"
export ENCRYPTION_KEYS ENCRYPTION_INDEX_KEY
PORT="$(free_port)"
BASE="http://127.0.0.1:$PORT"

# one start: `npm start` with the fresh cluster, until /healthz and the demo login answer
start_once() {
  local label="$1" log="$TMP/server-$1.log"
  echo "› fresh-cluster start ($label): DATABASE_URL=$DB_URL PORT=$PORT npm start"
  # its own process group, so that the start and the server it runs stop together
  DATABASE_URL="$DB_URL" PORT="$PORT" LOG_LEVEL=warn setsid node scripts/start.mjs >"$log" 2>&1 &
  SERVER_PID=$!
  local deadline=$((SECONDS + 120)) status=""
  while [ "$SECONDS" -lt "$deadline" ]; do
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then
      echo "✖ the start exited before /healthz answered:"; tail -n 40 "$log"; return 1
    fi
    status="$(curl -s -o /dev/null -w '%{http_code}' "$BASE/healthz" || true)"
    [ "$status" = 200 ] && break
    sleep 1
  done
  if [ "$status" != 200 ]; then
    echo "✖ /healthz did not answer 200 within 120 s (last: ${status:-none}):"; tail -n 40 "$log"
    return 1
  fi
  # the README's curl recipe: check-session gives the CSRF token, then the login
  local jar="$TMP/jar-$label" csrf login
  csrf="$(curl -s -c "$jar" "$BASE/api/accounts/check-session/" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).csrf_token??""))')"
  if [ -z "$csrf" ]; then echo "✖ check-session gave no csrf_token"; return 1; fi
  login="$(curl -s -o "$TMP/login-$label.json" -w '%{http_code}' -b "$jar" -c "$jar" \
    -H 'Content-Type: application/json' -H "X-CSRFToken: $csrf" \
    -d '{"username":"admin@acme.test","password":"kestrel-demo-2026"}' "$BASE/api/accounts/login/")"
  if [ "$login" != 200 ]; then
    echo "✖ the demo login answered $login: $(cat "$TMP/login-$label.json")"; tail -n 40 "$log"
    return 1
  fi
  echo "  /healthz 200 and the demo login 200 after $((SECONDS - deadline + 120)) s"
  kill -TERM -- "-$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}

start_once first
start_once restart
echo "› fresh-cluster start: passed"
