#!/usr/bin/env python3
"""Would a request-level decision say `not_found` better than the engine's cut on its best tool?

An analysis of issue 10, on dev data only (never a test set). Input: the (request, candidate) rows that
`toolscout calibrate --rows FILE` writes for the dev sets of `scripts/quality.sh calibrate` (each row: the
candidate's FEATURES and whether it serves the request; `~nm` queries are near-miss negatives).

1. The tool-level logistic model, cross-fitted (5 folds by query, as `toolscout calibrate` folds): P(serves)
   for every candidate, each set weighing the same.
2. Baseline: `found` when the best candidate's P reaches a cut.
3. A request-level model over the candidate set (best and second P, their gap, the mass of the top five,
   whether any candidate agrees in action / covers the request / comes from a named service, the best
   candidate's features): logistic regression and gradient-boosted trees, cross-fitted the same way and
   also leave-one-set-out (each set judged by a model that never saw its catalog's style).

For each: ROC-AUC of answerable vs not per set, and the best not-found F1 whose recall@5 cost (mean over
sets) stays within 2 points — the budget `toolscout calibrate` uses.

    python3 -m venv /tmp/ana && /tmp/ana/bin/pip install scikit-learn numpy
    toolscout calibrate --set ... --rows .work/rows-dev.jsonl --out /tmp/ignored.json   # quality.sh's sets
    /tmp/ana/bin/python benches/eval/request_gate.py .work/rows-dev.jsonl service/src/features.rs
"""

import collections
import json
import re
import sys

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

FOLDS = 5
BUDGET = 0.02


def fold_of(query_id):
    """The fold `toolscout calibrate` gives a query (FNV-1a of its id, near miss with its original)."""
    h = 0xCBF29CE484222325
    for b in query_id.replace("~nm", "").encode():
        h = ((h ^ b) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h % FOLDS


def feature_names(features_rs):
    text = open(features_rs, encoding="utf-8").read()
    block = text[text.index("pub const FEATURES") : text.index("];", text.index("pub const FEATURES"))]
    return re.findall(r'"([a-z_0-9]+)"', block)


def logit(p):
    p = min(max(p, 1e-6), 1 - 1e-6)
    return float(np.log(p / (1 - p)))


def load_rows(rows_path):
    """The rows by (set, query) in file order; the set names; the query keys; then one entry per row:
    features, label, set index, fold, query index (numpy arrays)."""
    by_query = collections.OrderedDict()
    for line in open(rows_path, encoding="utf-8"):
        r = json.loads(line)
        by_query.setdefault((r["set"], r["query"]), []).append(r)
    sets = sorted({k[0] for k in by_query})
    keys = list(by_query)
    X, Y, S, F, Q = [], [], [], [], []
    for qi, k in enumerate(keys):
        for r in by_query[k]:
            X.append(r["features"])
            Y.append(r["label"])
            S.append(sets.index(k[0]))
            F.append(fold_of(k[1]))
            Q.append(qi)
    X, Y, S, F, Q = map(np.array, (X, Y, S, F, Q))
    return by_query, sets, keys, X.astype(float), Y, S, F, Q


def main(rows_path, features_rs):
    names = feature_names(features_rs)
    ix = {n: i for i, n in enumerate(names)}
    by_query, sets, keys, X, Y, S, F, Q = load_rows(rows_path)

    # 1. Tool-level model, cross-fitted.
    w = np.zeros(len(Y))
    for s in range(len(sets)):
        w[S == s] = 1.0 / max((S == s).sum(), 1)
    w *= len(Y) / w.sum()
    Xs = (X - X.mean(0)) / (X.std(0) + 1e-9)
    p = np.zeros(len(Y))
    for f in range(FOLDS):
        train = F != f
        model = LogisticRegression(C=1.0, max_iter=2000).fit(Xs[train], Y[train], sample_weight=w[train])
        p[F == f] = model.predict_proba(Xs[F == f])[:, 1]

    # Request-level features.
    none, qset, qfold, hit5, R = [], [], [], [], []
    for qi, k in enumerate(keys):
        rows = by_query[k]
        m = np.where(Q == qi)[0]
        order = m[np.argsort(-p[m])]
        none.append(rows[0]["kind"] == "none" or k[1].endswith("~nm"))
        qset.append(sets.index(k[0]))
        qfold.append(fold_of(k[1]))
        hit5.append(bool(Y[order[:5]].any()))
        p1 = p[order[0]]
        p2 = p[order[1]] if len(order) > 1 else 1e-6
        named = X[m, ix["service_named"]]
        R.append(
            [
                logit(p1),
                logit(p2),
                logit(p1) - logit(p2),
                p[order[:5]].sum(),
                X[m, ix["action_same"]].max(),
                X[m, ix["named_same"]].max(),
                X[m, ix["cover_any"]].max(),
                X[m, ix["object_cover"]].max(),
                X[m, ix["tool_dense"]].max(),
                X[order[:10], ix["action_conflict"]].mean(),
                named.max(),
                float(named.max() > 0 and X[m, ix["named_same"]].max() == 0),
            ]
            + list(X[order[0]])
        )
    none, qset, qfold, hit5, R = map(np.array, (none, qset, qfold, hit5, R))
    qw = np.zeros(len(none))
    for s in range(len(sets)):
        qw[qset == s] = 1.0 / max((qset == s).sum(), 1)
    qw *= len(qw) / qw.sum()

    def metrics(score, cut):
        recall, nf = [], []
        for s in range(len(sets)):
            m = qset == s
            pos, neg, found = m & ~none, m & none, score >= cut
            if pos.sum():
                recall.append((hit5 & found & pos).sum() / pos.sum())
            if neg.sum():
                said, right = (~found) & m, (~found) & neg
                prec = right.sum() / said.sum() if said.sum() else 0.0
                rec = right.sum() / neg.sum()
                nf.append((prec, rec, 2 * prec * rec / (prec + rec) if prec + rec else 0.0))
        return float(np.mean(recall)), np.array(nf).mean(0)

    def report(label, score):
        base, _ = metrics(score, -np.inf)
        best = None
        for cut in np.quantile(score, np.linspace(0, 0.6, 121)):
            r, nf = metrics(score, cut)
            if base - r <= BUDGET + 1e-9 and (best is None or nf[2] > best[1][2]):
                best = (r, nf)
        aucs = []
        for s in range(len(sets)):
            m = qset == s
            if none[m].any() and (~none[m]).any():
                aucs.append(roc_auc_score(~none[m], score[m]))
        r, nf = best
        print(
            f"{label:34} R@5 {base:.3f} -> {r:.3f}  not-found P {nf[0]:.3f} R {nf[1]:.3f} F1 {nf[2]:.3f}  "
            f"AUC per set: {' '.join(f'{a:.2f}' for a in aucs)}"
        )

    print("sets:", " | ".join(sets))
    report("best tool P (the engine's rule)", R[:, 0])
    Rz = (R - R.mean(0)) / (R.std(0) + 1e-9)
    for label, make, split in [
        ("request LR, 5 folds", lambda: LogisticRegression(C=1.0, max_iter=3000), "fold"),
        ("request LR, leave one set out", lambda: LogisticRegression(C=1.0, max_iter=3000), "set"),
        ("request GBT, 5 folds", lambda: HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15), "fold"),
        ("request GBT, leave one set out", lambda: HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15), "set"),
    ]:
        q = np.zeros(len(none))
        groups = range(FOLDS) if split == "fold" else range(len(sets))
        for g in groups:
            held = (qfold == g) if split == "fold" else (qset == g)
            model = make().fit(Rz[~held], ~none[~held], sample_weight=qw[~held])
            q[held] = model.predict_proba(Rz[held])[:, 1]
        report(label, q)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "service/src/features.rs")
