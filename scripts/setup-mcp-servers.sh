#!/usr/bin/env bash
# Installs the pinned real MCP servers of tests/mcp-servers (npm only, no browser downloads, no install scripts)
# into DEST and writes DEST/mcpServers.json, a standard MCP host config whose every server runs inside
# `unshare -n` (a fresh network namespace with only a down loopback), so nothing a server tries leaves the machine.
# Usage: scripts/setup-mcp-servers.sh [DEST]   (DEST default: .deps/mcp-servers under the repo root)
# Idempotent: `npm ci` is skipped when DEST/.lock-sha256 matches the lockfile; a re-run takes about a second.
set -euo pipefail
DEST_ARG="${1:-}"
[ -z "$DEST_ARG" ] || DEST_ARG="$(mkdir -p "$DEST_ARG" && cd "$DEST_ARG" && pwd)"   # relative to the caller's cwd
cd "$(dirname "$0")/.."
SRC=tests/mcp-servers
DEST="${DEST_ARG:-$(mkdir -p .deps/mcp-servers && cd .deps/mcp-servers && pwd)}"

command -v npm >/dev/null || { echo "setup-mcp-servers: npm (Node >= 20) is required" >&2; exit 1; }
command -v unshare >/dev/null || { echo "setup-mcp-servers: unshare (util-linux) is required" >&2; exit 1; }

SHA="$(sha256sum "$SRC/package-lock.json" | cut -d' ' -f1)"
if [ "$(cat "$DEST/.lock-sha256" 2>/dev/null)" != "$SHA" ] || [ ! -d "$DEST/node_modules/.bin" ]; then
  rm -f "$DEST/.lock-sha256"
  cp "$SRC/package.json" "$SRC/package-lock.json" "$DEST/"
  # --ignore-scripts: the only install script in the tree (@drawio/mcp's postinstall) tries a CDN download.
  (cd "$DEST" && PUPPETEER_SKIP_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
     npm ci --no-audit --no-fund --ignore-scripts --loglevel=error)
  echo "$SHA" > "$DEST/.lock-sha256"
fi

# Dummy files the servers need at startup. memory.jsonl is only a path: the memory server creates it on first write.
W="$DEST/work"
mkdir -p "$W/fsroot/notes"
printf '# Fixture root\nFiles the filesystem MCP server may read in toolscout tests.\n' > "$W/fsroot/README.md"
printf 'buy milk\nfile the quarterly report\n' > "$W/fsroot/notes/todo.txt"
cat > "$W/kubeconfig" <<'EOF'
apiVersion: v1
kind: Config
clusters:
- name: dummy
  cluster:
    server: https://127.0.0.1:6443
    insecure-skip-tls-verify: true
users:
- name: dummy
  user:
    token: dummy
contexts:
- name: dummy
  context:
    cluster: dummy
    user: dummy
    namespace: default
current-context: dummy
EOF

BIN="$DEST/node_modules/.bin"
python3 - "$BIN" "$W" "$DEST/mcpServers.json" <<'EOF'
import json, sys
bin_dir, work, out = sys.argv[1:]
def server(exe, *args, **env):
    return {"command": "unshare", "args": ["-n", f"{bin_dir}/{exe}", *args], "env": env}
config = {"mcpServers": {
    "filesystem": server("mcp-server-filesystem", f"{work}/fsroot"),
    "memory": server("mcp-server-memory", MEMORY_FILE_PATH=f"{work}/memory.jsonl"),
    "sequential-thinking": server("mcp-server-sequential-thinking"),
    "github": server("mcp-server-github", GITHUB_PERSONAL_ACCESS_TOKEN="dummy"),
    "slack": server("mcp-server-slack", SLACK_BOT_TOKEN="xoxb-dummy", SLACK_TEAM_ID="T00000000"),
    "google-maps": server("mcp-server-google-maps", GOOGLE_MAPS_API_KEY="dummy"),
    "brave-search": server("mcp-server-brave-search", BRAVE_API_KEY="dummy"),
    "postgres": server("mcp-server-postgres", "postgresql://127.0.0.1:5432/postgres"),
    "time": server("time-mcp"),
    "playwright": server("playwright-mcp", "--headless"),
    "kubernetes": server("kubernetes-mcp-server", KUBECONFIG=f"{work}/kubeconfig"),
    "pdf-reader": server("pdf-reader-mcp"),
    "drawio": server("drawio-mcp"),
    "everything": server("mcp-server-everything", "stdio"),
}}
with open(out, "w") as f:
    json.dump(config, f, indent=2)
    f.write("\n")
EOF
echo "$DEST/mcpServers.json"
