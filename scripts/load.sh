#!/usr/bin/env bash
# Load test of the REST API: `toolscout serve` (release build) on loopback under wrk, bounded in time.
#
# For each catalog (LiveMCPBench: 527 tools, MCP-Zero: 2,792 tools), mode and concurrency it starts a fresh
# server on a free port (127.0.0.1:0, so every run starts with an empty query cache), runs wrk for
# $DURATION, checks every answer (HTTP 200 with a "status" field), stops the server, and prints one table
# of throughput and p50 / p90 / p99 latency with the load average before and after each run.
#   cold: requests take the distinct queries of data/eval/*.jsonl in turn (~2,000): each one is embedded
#         (until the pool wraps, which the `distinct` column shows) — the realistic case;
#   warm: the same 20 queries over and over: embedding is answered by the engine's query cache, so this is
#         what the rest of the request costs (BM25, HNSW, fusion, JSON, HTTP).
#   reload: as cold, while `POST /v1/admin/reload` swaps in a freshly loaded snapshot every RELOAD_EVERY
#         seconds (the `reloads` column counts them); every request must still succeed.
# Indexes are built into .work/load/ when missing. Needs wrk (Debian: `apt-get install -y wrk`; installed
# here when running as root), python3 and curl.
#
# Env: DURATION (20s), CONNS ("1 4 16"), WARM_CONNS ("1 16"), RELOAD_CONNS ("4"), RELOAD_EVERY (2),
#      CATALOGS ("live mcpzero"),
#      TOOLSCOUT_BIN (target/release/toolscout), TOOLSCOUT_SHARED (../shared); TOOLSCOUT_MODEL_DIR and
#      ORT_DYLIB_PATH as for the binary (default .deps/…).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-20s}
CONNS=${CONNS:-"1 4 16"}
WARM_CONNS=${WARM_CONNS:-"1 16"}
RELOAD_CONNS=${RELOAD_CONNS:-"4"}
RELOAD_EVERY=${RELOAD_EVERY:-2}
CATALOGS=${CATALOGS:-"live mcpzero"}
BIN=${TOOLSCOUT_BIN:-target/release/toolscout}
SHARED=${TOOLSCOUT_SHARED:-../shared}
WORK=.work/load
mkdir -p "$WORK"

log() { printf '[load] %s\n' "$*" >&2; }

if [ ! -x "$BIN" ]; then
  log "building the release binary"
  cargo build --release --workspace
fi
if ! command -v wrk >/dev/null; then
  if [ "$(id -u)" = 0 ]; then
    log "installing wrk (apt)"
    apt-get install -y wrk >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y wrk >/dev/null; }
  else
    echo "wrk is needed: apt-get install -y wrk" >&2
    exit 1
  fi
fi

catalog_file() {
  case "$1" in
    live) echo "$SHARED/data/livemcpbench/tools.json" ;;
    mcpzero) echo "$SHARED/data/mcp-zero-mcptools/mcp_tools.jsonl" ;;
    *) echo "unknown catalog $1 (live, mcpzero)" >&2; exit 1 ;;
  esac
}

# Request bodies: every distinct query of the evaluation sets, in a fixed shuffled order.
python3 - "$WORK/bodies-cold.txt" "$WORK/bodies-warm.txt" <<'EOF'
import glob, json, random, sys
seen, queries = set(), []
for path in sorted(glob.glob("data/eval/*.jsonl")):
    if "catalog" in path:
        continue
    for line in open(path, encoding="utf-8"):
        if line.strip():
            q = json.loads(line)["query"].strip()[:16384]  # the API's MAX_QUERY_CHARS
            if q and q not in seen:
                seen.add(q)
                queries.append(q)
random.Random(0).shuffle(queries)
bodies = [json.dumps({"query": q, "limit": 5}) for q in queries]
open(sys.argv[1], "w").write("\n".join(bodies) + "\n")
open(sys.argv[2], "w").write("\n".join(bodies[:20]) + "\n")
EOF
POOL=$(wc -l <"$WORK/bodies-cold.txt")
log "$POOL distinct queries"

# wrk script: bodies from a file in turn, every answer checked, one machine-readable line at the end.
LUA=$WORK/discover.lua
cat >"$LUA" <<'EOF'
local threads, count = {}, 0
function setup(thread)
  thread:set("id", count)
  count = count + 1
  table.insert(threads, thread)
end
function init(args)
  bodies = {}
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
  pool, sent, bad = #bodies, 0, 0
  offset = (id or 0) * 7919
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end
function request()
  local body = bodies[((offset + sent) % pool) + 1]
  sent = sent + 1
  return wrk.format(nil, nil, nil, body)
end
function response(status, headers, body)
  if status ~= 200 or not string.find(body, '"status":"', 1, true) then bad = bad + 1 end
end
function done(summary, latency, requests)
  local sent_all, bad_all = 0, 0
  for _, t in ipairs(threads) do
    sent_all = sent_all + t:get("sent")
    bad_all = bad_all + t:get("bad")
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d rps=%.1f p50=%.2f p90=%.2f p99=%.2f max=%.2f sent=%d bad=%d errors=%d\n",
    summary.requests, summary.requests / seconds, latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, sent_all, bad_all + e.status,
    e.connect + e.read + e.write + e.timeout))
end
EOF

SERVER=
RELOADER=
stop_server() {
  if [ -n "$RELOADER" ]; then
    kill "$RELOADER" 2>/dev/null || true
    wait "$RELOADER" 2>/dev/null || true
    RELOADER=
  fi
  if [ -n "$SERVER" ]; then
    kill "$SERVER" 2>/dev/null || true
    wait "$SERVER" 2>/dev/null || true
    SERVER=
  fi
}
trap stop_server EXIT

# start_server INDEX LOG: starts the server on a free loopback port; sets SERVER and ADDR.
start_server() {
  # Loopback only, and the reload mode needs the admin route: served without a token here.
  "$BIN" serve --index "$1" --addr 127.0.0.1:0 --admin-without-token 2>"$2" &
  SERVER=$!
  ADDR=
  for _ in $(seq 1 600); do
    ADDR=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$2" | head -n 1 || true)
    [ -n "$ADDR" ] && break
    if ! kill -0 "$SERVER" 2>/dev/null; then
      cat "$2" >&2
      exit 1
    fi
    sleep 0.1
  done
  [ -n "$ADDR" ] || { echo "server did not start: $2" >&2; exit 1; }
  curl -fsS "$ADDR/healthz" >/dev/null
}

load1() { cut -d' ' -f1 /proc/loadavg; }

ROWS=()
for name in $CATALOGS; do
  index=$WORK/idx-$name
  if [ ! -f "$index/CURRENT" ]; then
    log "indexing $name"
    "$BIN" index --catalog "$(catalog_file "$name")" --out "$index" >&2
  fi
  for mode in cold warm reload; do
    conns=$CONNS
    [ "$mode" = warm ] && conns=$WARM_CONNS
    [ "$mode" = reload ] && conns=$RELOAD_CONNS
    bodies=$WORK/bodies-$mode.txt
    [ "$mode" = reload ] && bodies=$WORK/bodies-cold.txt
    for c in $conns; do
      start_server "$index" "$WORK/serve-$name.log"
      if [ "$mode" = warm ]; then
        while IFS= read -r body; do
          curl -fsS -H 'content-type: application/json' -d "$body" "$ADDR/v1/discover" >/dev/null
        done <"$bodies"
      fi
      reloads=-
      if [ "$mode" = reload ]; then
        : >"$WORK/reloads.txt"
        (while sleep "$RELOAD_EVERY"; do
          curl -fsS -X POST -H 'content-type: application/json' -d '{}' "$ADDR/v1/admin/reload" >>"$WORK/reloads.txt" && echo >>"$WORK/reloads.txt"
        done) &
        RELOADER=$!
      fi
      before=$(load1)
      log "$name $mode c=$c for $DURATION on $ADDR (load $before)"
      out=$(wrk -t1 -c"$c" -d"$DURATION" --timeout 10s -s "$LUA" "$ADDR/v1/discover" -- "$bodies")
      after=$(load1)
      stop_server
      [ "$mode" = reload ] && reloads=$(grep -c '"reloaded"' "$WORK/reloads.txt" || true)
      result=$(grep '^RESULT' <<<"$out" || { echo "$out" >&2; exit 1; })
      val() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$result"; }
      pool=$(wc -l <"$bodies")
      sent=$(val sent)
      distinct=$((sent < pool ? sent : pool))
      ROWS+=("$(printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s/%s | %s | %s | %s → %s |' \
        "$name" "$mode" "$c" "$(val requests)" "$(val rps)" "$(val p50)" "$(val p90)" "$(val p99)" "$(val max)" \
        "$distinct" "$sent" "$(( $(val bad) + $(val errors) ))" "$reloads" "$before" "$after")")
      printf '%s\n' "${ROWS[-1]}" >&2
    done
  done
done

echo
echo "wrk -t1, $DURATION per row, fresh server per row; latency in ms; distinct = distinct queries / requests sent"
echo "| catalog | mode | conns | requests | req/s | p50 | p90 | p99 | max | distinct | failed | reloads | load1 before → after |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
