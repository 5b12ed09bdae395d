#!/usr/bin/env bash
# Crawls every server of a manifest like ../shared/mcp-servers.json (141 npm/PyPI packages): installs
# each one with the exact command the manifest records (pinned versions; failures are reported and
# skipped), then crawls them all inside loopback-only network namespaces. Not part of CI: it downloads
# several GB and takes about an hour on 2 cores. Usage: scripts/crawl-manifest.sh [MANIFEST] [MCP_HOME]
set -euo pipefail
cd "$(dirname "$0")/.."
MANIFEST="${1:-../shared/mcp-servers.json}"
export MCP_HOME="$(mkdir -p "${2:-.deps/manifest}" && cd "${2:-.deps/manifest}" && pwd)"
mkdir -p "$MCP_HOME/work" "$MCP_HOME/home" .work
python3 - "$MANIFEST" <<'PY' > "$MCP_HOME/install.sh"
import json, shlex, sys
for s in json.load(open(sys.argv[1])):
    if s.get("install"):
        print(f"echo '== {s['name']}'; ( {s['install']} ) >/dev/null 2>&1 || echo 'install failed: {s['name']}'")
PY
PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 bash "$MCP_HOME/install.sh"
cargo build --release --workspace
HOME="$MCP_HOME/home" target/release/toolscout crawl --config "$MANIFEST" --var "MCP_HOME=$MCP_HOME" --isolate \
  --concurrency 2 --timeout 90 --out .work/manifest-crawl.jsonl --report .work/manifest-crawl-report.json
