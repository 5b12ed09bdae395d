#!/usr/bin/env bash
# The 100K-tool scale run: builds the scale corpus (real catalogs + marked variants, see benches/src/scale.rs),
# indexes it (timed, peak memory), then on the real queries inside it compares quality and latency with the
# same catalogs indexed alone, engine and baselines in the same run, and measures the serving process's memory.
#
# Env: TOOLS (100000), WORK (.work/scale), TOOLSCOUT_BIN (target/release/toolscout), TOOLSCOUT_SHARED (../shared).
# Takes about 25 minutes on a quiet 2-core machine (embedding ~108K documents dominates).
set -euo pipefail
cd "$(dirname "$0")/.."

TOOLS=${TOOLS:-100000}
WORK=${WORK:-.work/scale}
BIN=${TOOLSCOUT_BIN:-target/release/toolscout}
SHARED=${TOOLSCOUT_SHARED:-../shared}
mkdir -p "$WORK"
log() { printf '[scale] %s\n' "$*" >&2; }

[ -x "$BIN" ] || cargo build --release --workspace
MCPZERO=$SHARED/data/mcp-zero-mcptools/mcp_tools.jsonl
LIVE=$SHARED/data/livemcpbench/tools.json
CORPUS=$WORK/scale-$TOOLS.jsonl
INDEX=$WORK/idx-$TOOLS

if [ ! -f "$CORPUS" ]; then
  "$(dirname "$BIN")/toolscout-bench" scale-corpus --keep "$MCPZERO" --keep "$LIVE" \
    --base "$SHARED/mcp-crawl.json" --base "$SHARED/data/docker-mcp-registry/servers_with_tools.jsonl" \
    --base data/eval/metatool-catalog.jsonl --tools "$TOOLS" --out "$CORPUS"
fi
if [ ! -f "$INDEX/CURRENT" ]; then
  log "indexing $CORPUS"
  /usr/bin/time -v "$BIN" index --catalog "$CORPUS" --out "$INDEX" 2>"$WORK/index.log"
  grep -E "Elapsed|Maximum resident" "$WORK/index.log" >&2
fi
for alone in mcpzero live; do
  [ -f "$WORK/idx-$alone/CURRENT" ] && continue
  file=$MCPZERO
  [ $alone = live ] && file=$LIVE
  "$BIN" index --catalog "$file" --out "$WORK/idx-$alone"
done

cat data/eval/mcpzero-test.jsonl data/eval/bfcl-none-test.jsonl >"$WORK/mcpzero-test-plus-bfcl.jsonl"
for pair in "mcpzero:$WORK/mcpzero-test-plus-bfcl.jsonl" "live:data/eval/livemcpbench.jsonl"; do
  name=${pair%%:*}
  queries=${pair#*:}
  log "eval $queries on $WORK/idx-$name (alone)"
  "$BIN" eval --index "$WORK/idx-$name" --queries "$queries" --baseline all
  # At scale the mcp-zero baseline is left out: it embeds every tool description at setup (~100K texts).
  for ranker in engine engine-no-collapse bm25-flat dense-flat; do
    log "eval $queries on $INDEX: $ranker"
    extra=()
    case $ranker in
      engine) ;;
      engine-no-collapse) extra=(--no-collapse-mirrors) ;;  # mirrors answered separately: what collapsing adds
      *) extra=(--baseline $ranker) ;;
    esac
    "$BIN" eval --index "$INDEX" --queries "$queries" "${extra[@]}"
  done
done

# Memory of the serving process at 100K after a round of queries (VmRSS, peak, and per mapping).
TOOLSCOUT_BIN=$BIN scripts/serve-memory.sh "$INDEX"
