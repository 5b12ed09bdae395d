#!/usr/bin/env bash
# The main job on the bundled real data: set up, build, index data/catalog (14 real MCP servers crawled
# by toolscout + the 70 LiveMCPBench servers), print how to connect an MCP host, and serve the REST API
# on 127.0.0.1 (ADDR to change). Ctrl-C stops it.
set -euo pipefail
cd "$(dirname "$0")/.."
ADDR="${ADDR:-127.0.0.1:7070}"
INDEX="${INDEX:-.work/demo-index}"
scripts/setup-models.sh >/dev/null
cargo build --workspace
BIN="$PWD/target/debug/toolscout"
export TOOLSCOUT_MODEL_DIR="$PWD/.deps/models/all-minilm-l6-v2-int8" ORT_DYLIB_PATH="$PWD/.deps/libonnxruntime.so"
mkdir -p "$(dirname "$INDEX")"
"$BIN" index --catalog data/catalog/reference-servers.jsonl data/catalog/livemcpbench-tools.json --out "$INDEX"
INDEX_ABS="$(cd "$INDEX" && pwd)"
cat <<EOT

== Connect an MCP host (Claude Desktop, Cursor, ...): add this to its mcpServers config
{
  "mcpServers": {
    "toolscout": {
      "command": "$BIN",
      "args": ["mcp", "--index", "$INDEX_ABS"],
      "env": {"TOOLSCOUT_MODEL_DIR": "$TOOLSCOUT_MODEL_DIR", "ORT_DYLIB_PATH": "$ORT_DYLIB_PATH"}
    }
  }
}

== Try the REST API (in another terminal)
curl -s http://$ADDR/v1/discover -H 'content-type: application/json' -d '{"query": "find a route between two cities", "limit": 3}'
curl -s http://$ADDR/v1/servers
$BIN search --index $INDEX_ABS "take a screenshot of a web page"

EOT
exec "$BIN" serve --index "$INDEX" --addr "$ADDR"
