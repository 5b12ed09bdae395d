#!/usr/bin/env bash
# Installs the official Python MCP SDK (PyPI `mcp`, pinned) into $DEPS_DIR/py-sdk/venv (default .deps,
# git-ignored): the third-party MCP client the least-privilege tests drive `toolscout mcp` with
# (tests/clients/mcp_session.py), elicitation callback included; and the vendor SDKs whose request types
# the tail formats must pass (tests/clients/vendor_types.py); and the OpenAPI checkers (openapi-spec-validator,
# schemathesis) the REST API is held to.
# Idempotent: a second run only checks a stamp (~0 s).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$(mkdir -p "${DEPS_DIR:-.deps}" && cd "${DEPS_DIR:-.deps}" && pwd)"
D="$DEPS/py-sdk"
PY="${PYTHON:-python3}"
PKGS=(mcp==2.3.0 openai==3.57.0 anthropic==2.14.0 openapi-spec-validator==0.9.0 schemathesis==4.32.5)
STAMP="$D/.done-$(echo "${PKGS[*]}" | sha256sum | cut -c1-12)"
if [ ! -f "$STAMP" ] || [ ! -x "$D/venv/bin/python" ]; then
  rm -rf "$D"
  mkdir -p "$D"
  "$PY" -m venv "$D/venv"
  "$D/venv/bin/pip" install --quiet --disable-pip-version-check --root-user-action=ignore "${PKGS[@]}"
  touch "$STAMP"
fi
"$D/venv/bin/python" -c 'import mcp, mcp_types, openai, anthropic'
echo "$D/venv/bin/python"
