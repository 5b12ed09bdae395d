#!/usr/bin/env bash
# Where a serving process's memory is: starts `toolscout serve` (release) on an index on loopback, prints
# VmRSS and the resident size of each mapping (heap, anonymous maps, each snapshot file) after load and
# again after the first 200 queries of data/eval/mcpzero-test.jsonl, then stops it.
#
# Usage: scripts/serve-memory.sh INDEX [serve options, e.g. --sessions 1]
# Env: TOOLSCOUT_BIN (target/release/toolscout). BENCHMARKS.md "Where the serving memory is now".
set -euo pipefail
cd "$(dirname "$0")/.."
INDEX=${1:?usage: scripts/serve-memory.sh INDEX [serve options]}
shift
BIN=${TOOLSCOUT_BIN:-target/release/toolscout}
LOG=$(mktemp)
"$BIN" serve --index "$INDEX" --addr 127.0.0.1:0 "$@" 2>"$LOG" &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -f "$LOG"' EXIT
ADDR=
for _ in $(seq 1 1200); do
  ADDR=$(grep -o 'http://127\.0\.0\.1:[0-9]*' "$LOG" | head -n 1 || true)
  [ -n "$ADDR" ] && break
  sleep 0.1
done
[ -n "$ADDR" ] || { cat "$LOG" >&2; exit 1; }

mappings() {
  python3 - "$SERVER" <<'PY'
import collections, sys
resident = collections.Counter()
name = None
for line in open(f"/proc/{sys.argv[1]}/smaps"):
    f = line.split()
    if f and "-" in f[0] and all(c in "0123456789abcdef-" for c in f[0]):
        name = f[5].rsplit("/", 1)[-1] if len(f) > 5 else "[anonymous]"
    elif f and f[0] == "Rss:":
        resident[name] += int(f[1])
for name, kb in resident.most_common(10):
    print(f"  {kb / 1024:8.1f} MB  {name}")
PY
}

echo "after load: $(grep VmRSS "/proc/$SERVER/status")"
mappings
head -n 200 data/eval/mcpzero-test.jsonl | python3 -c '
import json, sys
for line in sys.stdin:
    print(json.dumps({"query": json.loads(line)["query"], "limit": 5}))' | while IFS= read -r body; do
  curl -fsS -H 'content-type: application/json' -d "$body" "$ADDR/v1/discover" >/dev/null
done
echo "after 200 queries: $(grep -E 'VmRSS|VmHWM' "/proc/$SERVER/status" | tr -s ' \t\n' ' ')"
mappings
