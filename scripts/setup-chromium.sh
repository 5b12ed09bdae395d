#!/usr/bin/env bash
# Installs Debian's chromium (headless), the real browser the HTML eval report is rendered in by the
# tests (tests/it/eval_html.rs). Needs root (apt); a no-op when chromium is already there.
set -euo pipefail
command -v chromium >/dev/null && exit 0
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 \
  || { apt-get update >/dev/null && apt-get install -y --no-install-recommends chromium >/dev/null; }
command -v chromium
