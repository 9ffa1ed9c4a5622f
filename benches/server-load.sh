#!/usr/bin/env bash
# The load targets of `tabletop serve` (docs/server.md, "Load testing"): starts a server
# on a loopback port over a fresh database, runs `tabletop loadtest` against it, samples
# the server's memory every second, and with --kills N kills the server with SIGKILL
# and starts it again N times during the run (the load test's players come back by
# themselves; its last line must still say lost 0 and duplicated 0).
#
#   benches/server-load.sh [--games N] [--seconds S] [--think-ms MS] [--kills N]
#                          [--database postgres://…] [--port P]
#
# Uses target/release/tabletop (cargo build --release -p tabletop-cli), or $TABLETOP.
set -euo pipefail

games=1000 seconds=60 think=200-1000 kills=0 database="" port=18181
while [ $# -gt 0 ]; do
  case "$1" in
    --games) games=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --think-ms) think=$2; shift 2 ;;
    --kills) kills=$2; shift 2 ;;
    --database) database=$2; shift 2 ;;
    --port) port=$2; shift 2 ;;
    *) echo "unknown argument $1 (see the top of $0)" >&2; exit 2 ;;
  esac
done
bin=${TABLETOP:-target/release/tabletop}
[ -x "$bin" ] || { echo "no $bin: cargo build --release -p tabletop-cli" >&2; exit 2; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/tabletop-load.XXXXXX")
database=${database:-sqlite://$dir/server.sqlite}
server=""
cleanup() {
  if [ -n "$server" ]; then kill -9 "$server" 2>/dev/null; wait "$server" 2>/dev/null; fi
  rm -rf "$dir"
}
trap cleanup EXIT

start() {
  "$bin" serve --listen "127.0.0.1:$port" --database "$database" >>"$dir/serve.log" 2>&1 &
  server=$!
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the server did not start: $(tail -n 3 "$dir/serve.log")" >&2
  exit 1
}

start
"$bin" loadtest "ws://127.0.0.1:$port/" --games "$games" --seconds "$seconds" \
  --think-ms "$think" >"$dir/load.out" &
load=$!
peak=0 kills_done=0 every=$((seconds / (kills + 1)))
for second in $(seq "$seconds"); do
  sleep 1
  rss=$(ps -o rss= -p "$server" 2>/dev/null | tr -d ' ' || true)
  if [ -n "$rss" ] && [ "$rss" -gt "$peak" ]; then peak=$rss; fi
  # The kills fall evenly inside the run.
  if [ "$kills_done" -lt "$kills" ] && [ $((second % every)) -eq 0 ]; then
    kill -9 "$server"; wait "$server" 2>/dev/null || true
    kills_done=$((kills_done + 1))
    echo "killed the server (SIGKILL) at ${second} s, starting it again"
    start
  fi
done
wait "$load"
cpu=$(ps -o cputime= -p "$server" | tr -d ' ')
echo "server: peak RSS $((peak / 1024)) MB, CPU $cpu since its last start, database ${database%%://*}"
cat "$dir/load.out"
