#!/usr/bin/env bash
# The main job on the bundled real data: set up, build, index data/catalog (14 real MCP servers crawled
# by toolscout + the 70 LiveMCPBench servers), print how to connect an MCP host, and serve the REST API
# on 127.0.0.1 (ADDR to change). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
ADDR="${ADDR:-127.0.0.1:7070}"
INDEX="${INDEX:-.work/demo-index}"
cargo build --workspace
BIN="$PWD/target/debug/toolscout"
# Finds the model (a checkout's .deps, or the per-user data folder) or installs it there from PyPI.
eval "$("$BIN" setup)"
export TOOLSCOUT_MODEL_DIR ORT_DYLIB_PATH
mkdir -p "$(dirname "$INDEX")"
"$BIN" index --catalog data/catalog/reference-servers.jsonl data/catalog/livemcpbench-tools.json --out "$INDEX"
INDEX_ABS="$(cd "$INDEX" && pwd)"
echo
echo "== Connect an MCP host: add this to Claude Desktop's config (also: toolscout connect cursor|vscode|claude-code|codex)"
"$BIN" connect claude-desktop --index "$INDEX_ABS" 2>/dev/null
cat <<EOT

== Try the REST API (in another terminal)
curl -s http://$ADDR/v1/discover -H 'content-type: application/json' -d '{"query": "find a route between two cities", "limit": 3}'
curl -s http://$ADDR/v1/servers
$BIN search --index $INDEX_ABS "take a screenshot of a web page"

EOT
exec "$BIN" serve --index "$INDEX" --addr "$ADDR"
