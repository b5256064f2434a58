#!/usr/bin/env bash
# GET /api/health's instructions a request, counted by callgrind (valgrind), which the machine's load
# does not move (docs/performance.md, Health):
#
#   bench/health-callgrind.sh service [distDir]     the service as `npm start` runs it (default dist/)
#   bench/health-callgrind.sh alone                 Fastify alone (bench/fastify-alone.ts)
#   bench/health-callgrind.sh plugins               Fastify with the same per-answer work (bench/fastify-plugins.ts)
#
# Only what runs inside libuv's socket read (uv__stream_io) is counted: the request, its hooks, the
# handler and the answer; timers, background polls and other threads are not. The server is warmed up
# uninstrumented (BENCH_WARMUP requests, 10000), then instrumented (BENCH_WARMUP_COUNTED, 2000), the
# counters zeroed, BENCH_REQUESTS (3000) sent at 10 connections and the total read from a dump.
# NODE_ARGS adds node flags (e.g. `--perf-basic-prof --interpreted-frames-native-stack`, whose
# /tmp/perf-<pid>.map names the JIT code callgrind_annotate shows as addresses). Prints the figure;
# the callgrind file is kept in the work directory it names. Takes 5–10 minutes under load.
set -euo pipefail
kind=${1:?service, alone or plugins}
dist=${2:-dist}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/health-callgrind-XXXXXX")
port=$(node -e "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
warmup=${BENCH_WARMUP:-10000}
counted_warmup=${BENCH_WARMUP_COUNTED:-2000}
requests=${BENCH_REQUESTS:-3000}
export USER=${USER:-$(id -un)}
valgrind=(valgrind --tool=callgrind --instr-atstart=no --toggle-collect=uv__stream_io "--callgrind-out-file=$work/callgrind.out")
cd "$root"
if [ "$kind" = service ]; then
  # callgrind_control finds the process by its user and HOST: the service's HOST is its listen address.
  control_host=127.0.0.1
  # shellcheck disable=SC2086
  env -i PATH="$PATH" USER="$USER" HOME="${HOME:-/tmp}" NODE_ENV=production LOG_LEVEL=warn \
    JWT_SECRET="$(node -e "console.log(require('node:crypto').randomBytes(32).toString('hex'))")" \
    APP_ORIGIN=http://app.bench.test DATA_DIR="$work/data" SHUTDOWN_DRAIN_MS=0 PORT="$port" HOST=127.0.0.1 \
    "${valgrind[@]}" node --v8-pool-size=1 ${NODE_ARGS:-} "$dist/main.js" >"$work/server.log" 2>&1 &
else
  control_host=${HOST:-}
  # A reference server as bench/processes.ts runs it (transpiled), given the service's health document:
  # `alone` is Fastify alone, `plugins` Fastify with the same per-answer work (bench/fastify-plugins.ts).
  case "$kind" in
    alone) script=fastify-alone.ts ;;
    plugins) script=fastify-plugins.ts ;;
    *) echo "unknown kind $kind: service, alone or plugins" >&2; exit 2 ;;
  esac
  server_js=$(npx tsx --eval "import { transpileReferenceServer } from './bench/processes.ts';
    console.log(transpileReferenceServer('$script'));")
  echo '{"health":{"version":"0.1.0","services":{"database":"connected","redis":"not_configured","kv":"not_configured","mail":"outbox"}}}' \
    >"$work/reference.json"
  # shellcheck disable=SC2086
  "${valgrind[@]}" node ${NODE_ARGS:-} "$server_js" "$work/reference.json" "$port" >"$work/server.log" 2>&1 &
fi
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
control() { env ${control_host:+HOST=$control_host} callgrind_control "$@" "$pid" >/dev/null; }
load() { node node_modules/autocannon/autocannon.js -t 120 -c 10 -a "$1" "http://127.0.0.1:$port/api/health" >"$work/load.txt" 2>&1; }
for _ in $(seq 600); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 1; done
load "$warmup"
control -i on
load "$counted_warmup"
control -z
load "$requests"
control -d
sleep 1
dump="$work/callgrind.out.1"
total=$(callgrind_annotate "$dump" 2>/dev/null | awk '/PROGRAM TOTALS/ && !seen { gsub(",", "", $1); print $1; seen = 1 }')
echo "$kind $dist: $((total / requests)) instructions a request ($total over $requests; $dump)"
