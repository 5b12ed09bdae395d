#!/usr/bin/env python3
"""Would gradient-boosted trees over the decision's features rank and decide better than its logistic model?

An analysis of issue 10, on dev data only (never a test set). Input: the (request, candidate) rows that
`toolscout calibrate --rows FILE` writes for the dev sets of `scripts/quality.sh calibrate`.

Per candidate, cross-fitted two ways — 5 folds by query (as `toolscout calibrate` folds) and leave one set
out (each set judged by a model that never saw its catalog) — each set weighing the same:
- the logistic regression the engine uses (scikit-learn's, on standardized features);
- PerpetualBooster (LogLoss; the Python build of the Rust crate `perpetual`), at a given budget.
Then, per request ordered by the model's probability: hit@1 / hit@5 (any serving candidate; the engine's
arrangement — intent slots, per-server cap — is not replayed), the ROC-AUC of the best probability for
answerable vs not (`none` and near misses), and the best not-found F1 whose recall@5 cost (mean over sets)
stays within a budget.

    python3 -m venv /tmp/ana && /tmp/ana/bin/pip install scikit-learn numpy perpetual
    scripts/quality.sh calibrate --rows .work/rows-dev.jsonl      # CAL_OUT=/tmp/x.json to keep built-in.json
    /tmp/ana/bin/python benches/eval/tree_ranker.py .work/rows-dev.jsonl 1.5
"""

import collections
import sys

import numpy as np
from perpetual import PerpetualBooster
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score

from request_gate import FOLDS, load_rows


def main(rows_path, budget):
    by_query, sets, keys, X, Y, S, F, Q = load_rows(rows_path)
    X = (X - X.mean(0)) / (X.std(0) + 1e-9)
    w = np.zeros(len(Y))
    for s in range(len(sets)):
        w[S == s] = 1.0 / max((S == s).sum(), 1)
    w *= len(Y) / w.sum()
    none = np.array([by_query[k][0]["kind"] == "none" or k[1].endswith("~nm") for k in keys])
    qset = np.array([sets.index(k[0]) for k in keys])
    members = collections.defaultdict(list)
    for i, q in enumerate(Q):
        members[q].append(i)

    def crossfit(fit_predict, split):
        p = np.zeros(len(Y))
        for g in range(FOLDS) if split == "fold" else range(len(sets)):
            held = (F == g) if split == "fold" else (S == g)
            p[held] = fit_predict(X[~held], Y[~held], w[~held], X[held])
        return p

    def lr(x, y, sw, xt):
        return LogisticRegression(C=1.0, max_iter=3000).fit(x, y, sample_weight=sw).predict_proba(xt)[:, 1]

    def trees(x, y, sw, xt):
        m = PerpetualBooster(objective="LogLoss", budget=budget, num_threads=2)
        m.fit(x, y.astype(float), sample_weight=sw)
        return m.predict_proba(xt)[:, 1]

    def report(label, p):
        best = np.zeros(len(keys))
        hit1, hit5 = np.zeros(len(keys), bool), np.zeros(len(keys), bool)
        for qi in range(len(keys)):
            m = np.array(members[qi])
            o = m[np.argsort(-p[m], kind="stable")]
            best[qi], hit1[qi], hit5[qi] = p[o[0]], Y[o[0]], Y[o[:5]].any()
        per_set = [(qset == s) & ~none for s in range(len(sets))]
        r1 = np.mean([hit1[m].mean() for m in per_set if m.any()])
        r5 = np.mean([hit5[m].mean() for m in per_set if m.any()])
        aucs = [roc_auc_score(~none[qset == s], best[qset == s]) for s in range(len(sets))
                if none[qset == s].any() and (~none[qset == s]).any()]

        def at(cut):
            rec, nf = [], []
            for s in range(len(sets)):
                m, found = qset == s, best >= cut
                pos, neg = m & ~none, m & none
                if pos.any():
                    rec.append((hit5 & found & pos).sum() / pos.sum())
                if neg.any():
                    said, right = (~found & m).sum(), (~found & neg).sum()
                    pr, rc = (right / said if said else 0.0), right / neg.sum()
                    nf.append(2 * pr * rc / (pr + rc) if pr + rc else 0.0)
            return np.mean(rec), np.mean(nf)

        base = at(-1.0)[0]
        f1 = {}
        for allowed in (0.02, 0.04):
            f1[allowed] = max(f for r, f in (at(c) for c in np.quantile(best, np.linspace(0, 0.6, 121)))
                              if base - r <= allowed + 1e-9)
        print(f"{label:28} hit@1 {r1:.3f} hit@5 {r5:.3f} AUC {np.mean(aucs):.3f}  "
              f"not-found F1 within 2 / 4 points: {f1[0.02]:.3f} / {f1[0.04]:.3f}")

    for split in ("fold", "set"):
        report(f"logistic, {split}", crossfit(lr, split))
        report(f"trees b={budget}, {split}", crossfit(trees, split))


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]) if len(sys.argv) > 2 else 1.5)
