#!/usr/bin/env python3
"""Offline checks of signals drawn from the embedding space, before building any (issue 10; dev data only).

Reads the indexes of `scripts/quality.sh data` directly (`vectors.f16` and `tools.jsonl` of the live snapshot)
and embeds requests with the same two ONNX models the engine uses (MiniLM + USE-m3, mean-pooled, each
L2-normalised, concatenated and scaled by 1/sqrt(2): the vector `toolscout` stores). A request is embedded
whole (the engine also embeds intents, respellings and unquoted forms; their vectors are not reproduced).
Tools are matched to eval labels by name (a name shared by several servers counts each of them).

    python3 -m venv /tmp/ana && /tmp/ana/bin/pip install scikit-learn numpy onnxruntime tokenizers
    # 1. a query-side linear adapter (q + Aq), trained on MetaTool train (and BFCL train), dense-only R@1/R@5:
    /tmp/ana/bin/python benches/eval/dense_signals.py adapter --train mt-train --l2 0.1
    # 2. features appended to the rows of `toolscout calibrate --rows ROWS` (scripts/quality.sh's sets), then
    #    judged by request_gate.py with the extended feature list it writes:
    /tmp/ana/bin/python benches/eval/dense_signals.py rows ROWS OUT.jsonl FEATURES.rs member|rank|hub|background
    /tmp/ana/bin/python benches/eval/request_gate.py OUT.jsonl FEATURES.rs

Near-miss twins (`~nm` queries) are judged without their right tools, as `toolscout eval --near-miss-only`
does: every catalog-wide figure (ranks, neighbourhoods) masks those tools, or the twin would be told apart by
the missing tool itself. The background catalog drops each tool within `--dup` cosine of any tool of the
evaluated catalog (copies of the same server in other registries).
"""

import argparse
import collections
import glob
import json
import os
import re
import sys

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODELS = os.path.join(ROOT, ".deps", "models")
WORK = os.path.join(ROOT, ".work")
MINILM_DIM = 384


class Member:
    """One ONNX model of the ensemble: tokenise, run, mean-pool over the mask, normalise."""

    def __init__(self, name):
        self.tok = Tokenizer.from_file(os.path.join(MODELS, name, "tokenizer.json"))
        self.tok.enable_padding()
        self.tok.enable_truncation(256)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 2
        self.sess = ort.InferenceSession(os.path.join(MODELS, name, "model.onnx"), options)
        self.inputs = [i.name for i in self.sess.get_inputs()]

    def embed(self, texts, batch=32):
        out = []
        for i in range(0, len(texts), batch):
            enc = self.tok.encode_batch(texts[i : i + batch])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.sess.run(None, feed)[0]
            v = (hidden * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
            out.append(v / np.linalg.norm(v, axis=1, keepdims=True))
        return np.vstack(out)


_MEMBERS = []


def embed(texts):
    if not _MEMBERS:
        _MEMBERS.extend([Member("all-minilm-l6-v2-int8"), Member("use-multilingual-v3")])
    return np.hstack([m.embed(texts) for m in _MEMBERS]) / np.sqrt(2)


def snapshot(index):
    """Tool vectors and tool names of an index's newest snapshot."""
    folder = sorted(glob.glob(os.path.join(WORK, index, "snapshots", "*", "")))[-1]
    manifest = json.load(open(folder + "manifest.json"))
    v = np.fromfile(folder + "vectors.f16", dtype="<f2").astype(np.float32).reshape(-1, manifest["dimensions"])
    names = [json.loads(line)["name"] for line in open(folder + "tools.jsonl")]
    return v[manifest["servers"] :], names


def by_name(names):
    out = collections.defaultdict(list)
    for i, n in enumerate(names):
        out[n].append(i)
    return out


# ---------------------------------------------------------------------------------------------- adapter

ADAPTER_SETS = {
    "mt-train": ("idx-metatool", ".work/metatool-train.jsonl"),
    "bfcl-train": ("idx-bfcl", ".work/bfcl/bfcl-train.jsonl"),
    "metatool-dev": ("idx-metatool", "data/eval/metatool-dev.jsonl"),
    "metatool-holdout": ("idx-metatool-holdout", "data/eval/metatool-dev-holdout.jsonl"),
    "bfcl-dev": ("idx-bfcl", ".work/bfcl/bfcl-dev.jsonl"),
    "handdev-live": ("idx-live", "data/eval/handdev-live.jsonl"),
    "handdev-mcpzero": ("idx-mcpzero", "data/eval/handdev-mcpzero.jsonl"),
    "mcpzero-dev": ("idx-mcpzero", "data/eval/mcpzero-dev.jsonl"),
    "mcpzero-holdout": ("idx-mcpzero-holdout", "data/eval/mcpzero-dev-holdout.jsonl"),
    "handdev-demo": ("idx-demo", "data/eval/handdev-demo.jsonl"),
    "handdev-crawl": ("idx-crawl", "data/eval/handdev-crawl.jsonl"),
    "handdev-docker": ("idx-docker", "data/eval/handdev-docker.jsonl"),
    "crawl-tasks": ("idx-crawl", "data/eval/crawl-tasks-dev.jsonl"),
}


def answerable(path):
    out = []
    for line in open(os.path.join(ROOT, path)):
        r = json.loads(line)
        if r.get("kind") != "none" and r.get("relevant"):
            out.append((r["query"], {p["tool"] for g in r["relevant"] for p in g}))
    return out


def adapter(args):
    snaps, data = {}, {}
    for name, (index, path) in ADAPTER_SETS.items():
        if index not in snaps:
            snaps[index] = snapshot(index)
        T, names = snaps[index]
        where = by_name(names)
        rows = answerable(path)
        labels = [sorted(i for t in rel for i in where.get(t, [])) for _, rel in rows]
        keep = [i for i, l in enumerate(labels) if l]
        data[name] = (T, embed([rows[i][0] for i in keep]), [labels[i] for i in keep])

    def report(A, tag):
        line, ood = [], []
        for name in ADAPTER_SETS:
            if name.endswith("train"):
                continue
            T, Q, L = data[name]
            S = (Q + Q @ A.T) @ T.T
            top = np.argsort(-S, axis=1)[:, :5]
            r1 = np.mean([t[0] in l for t, l in zip(top, L)])
            r5 = np.mean([any(x in l for x in t) for t, l in zip(top, L)])
            line.append(f"{name} {r1:.3f}/{r5:.3f}")
            if not name.startswith("metatool"):
                ood.append((r1, r5))
        print(f"{tag}: " + "  ".join(line))
        print(f"{tag}: out-of-domain mean R@1 {np.mean([o[0] for o in ood]):.3f} R@5 {np.mean([o[1] for o in ood]):.3f}")

    dim = data["metatool-dev"][1].shape[1]
    A = np.zeros((dim, dim))
    report(A, "raw")
    train = [data[t] for t in args.train.split(",")]
    m, v = np.zeros_like(A), np.zeros_like(A)
    rng = np.random.default_rng(0)
    for step in range(1, args.steps + 1):
        grad = 2 * args.l2 * A
        for T, Q, L in train:
            b = rng.choice(len(Q), min(256, len(Q)), replace=False)
            q = Q[b]
            S = (q + q @ A.T) @ T.T / args.tau
            P = np.exp(S - S.max(1, keepdims=True))
            P /= P.sum(1, keepdims=True)
            Y = np.zeros_like(P)
            for j, i in enumerate(b):
                Y[j, L[i]] = 1 / len(L[i])
            grad += (((P - Y) / args.tau / len(b)) @ T).T @ q
        m = 0.9 * m + 0.1 * grad
        v = 0.999 * v + 0.001 * grad * grad
        A -= 1e-3 * (m / (1 - 0.9**step)) / (np.sqrt(v / (1 - 0.999**step)) + 1e-8)
        if step % 300 == 0:
            report(A, f"step {step}")


# ------------------------------------------------------------------------------------------ row features

EXTRA = {
    "member": ["minilm_cos", "use_cos"],
    "rank": ["rank_minilm", "rank_use", "rank_ensemble"],
    "hub": ["hub1", "hub5", "dense_minus_hub5", "crowd"],
    "background": ["bg_best", "bg_gap", "bg5_gap"],
}
CATALOGS = ["idx-bfcl", "idx-crawl", "idx-demo", "idx-docker", "idx-live", "idx-mcpzero", "idx-metatool"]


def rows(args):
    fitted = [json.loads(line) for line in open(args.rows)]
    requests = {}
    for r in fitted:
        path = r["set"].split("=")[1].replace("+near-misses", "")
        if path not in requests:
            parsed = (json.loads(line) for line in open(os.path.join(ROOT, path)))
            requests[path] = {q["id"]: q for q in parsed}
    keys = sorted({(r["set"], r["query"].replace("~nm", "")) for r in fitted})
    text = [requests[s.split("=")[1].replace("+near-misses", "")][q]["query"] for s, q in keys]
    vectors = dict(zip(keys, embed(text)))
    snaps = {}

    def snap(index):
        if index not in snaps:
            T, names = snapshot(index)
            snaps[index] = (T, by_name(names), None, None)
        return snaps[index]

    def neighbours(index):
        T, where, S, bg = snap(index)
        if S is None:
            S = T @ T.T
            np.fill_diagonal(S, -2)
            snaps[index] = (T, where, S, bg)
        return S

    def background(index):
        T, where, S, bg = snap(index)
        if bg is None:
            parts = []
            for other in CATALOGS:
                if other == index:
                    continue
                B = snap(other)[0]
                keep = np.concatenate([(B[i : i + 2000] @ T.T).max(1) < args.dup for i in range(0, len(B), 2000)])
                parts.append(B[keep])
            bg = np.vstack(parts)
            snaps[index] = (T, where, S, bg)
        return bg

    memo = {}
    with open(args.out, "w") as out:
        for r in fitted:
            index = r["set"].split("=")[0].split("/")[-1]
            T, where, _, _ = snap(index)
            key = (r["set"], r["query"].replace("~nm", ""))
            if (r["set"], r["query"]) not in memo:
                q = vectors[key]
                a, b = (T[:, :MINILM_DIM] @ q[:MINILM_DIM]) * 2, (T[:, MINILM_DIM:] @ q[MINILM_DIM:]) * 2
                mask = np.ones(len(T), bool)
                if r["query"].endswith("~nm"):
                    path = r["set"].split("=")[1].replace("+near-misses", "")
                    for group in requests[path][key[1]]["relevant"]:
                        for p in group:
                            mask[where.get(p["tool"], [])] = False
                bg = background(index) @ q if args.kind == "background" else None
                memo[(r["set"], r["query"])] = (a, b, mask, bg)
            a, b, mask, bg = memo[(r["set"], r["query"])]
            dense = r["features"][0]
            same = where.get(r["tool"], [])
            # The same-name tool whose ensemble cosine is the row's `tool_dense`.
            j = min(same, key=lambda i: abs((a[i] + b[i]) / 2 - dense)) if same else None
            rank = lambda x: float(np.log1p(((x > x[j]) & mask).sum()))  # noqa: E731
            if args.kind == "member":
                f = [a[j], b[j]] if j is not None else [0, 0]
            elif args.kind == "rank":
                f = [rank(a), rank(b), rank(a + b)] if j is not None else [5, 5, 5]
            elif args.kind == "hub":
                if j is None:
                    f = [0, 0, 0, 0]
                else:
                    s = np.where(mask, neighbours(index)[j], -2)
                    top = -np.sort(-s)[:5]
                    f = [top[0], top.mean(), dense - top.mean(), np.log1p((s > 0.7).sum())]
            else:
                f = [bg.max(), bg.max() - dense, np.sort(bg)[-5:].mean() - dense]
            r["features"] = r["features"] + [float(x) for x in f]
            out.write(json.dumps(r) + "\n")
    text = open(os.path.join(ROOT, "service", "src", "features.rs"), encoding="utf-8").read()
    block = text[text.index("pub const FEATURES") : text.index("];", text.index("pub const FEATURES"))]
    names = re.findall(r'"([a-z_0-9]+)"', block) + EXTRA[args.kind]
    with open(args.features, "w") as f:
        f.write("pub const FEATURES: [&str; 0] = [\n" + "".join(f'    "{n}",\n' for n in names) + "];\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("adapter")
    a.add_argument("--train", default="mt-train", help="comma-separated: mt-train, bfcl-train")
    a.add_argument("--l2", type=float, default=0.1)
    a.add_argument("--tau", type=float, default=0.05)
    a.add_argument("--steps", type=int, default=600)
    r = sub.add_parser("rows")
    r.add_argument("rows")
    r.add_argument("out")
    r.add_argument("features")
    r.add_argument("kind", choices=sorted(EXTRA))
    r.add_argument("--dup", type=float, default=0.95)
    args = p.parse_args()
    adapter(args) if args.command == "adapter" else rows(args)


if __name__ == "__main__":
    sys.exit(main())
