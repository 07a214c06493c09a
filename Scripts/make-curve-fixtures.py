#!/usr/bin/env python3
"""Reference ROC AUC and average precision for ThresholdCurve (TouchReports), computed with
scikit-learn and NumPy, independently of the Swift code.

Usage (from the repository root; needs numpy and scikit-learn, `pip install scikit-learn`):

    Scripts/make-curve-fixtures.py

Writes Tests/touchtraceTests/Fixtures/curves/curve-areas.json with two kinds of cases:

- "scored": seeded random scores (rounded to two decimals, so there are ties) and 0/1 labels, with
  scikit-learn's roc_auc_score and average_precision_score. A threshold at every distinct score
  plus one above the highest gives the points the Swift test builds (predicted positive when
  score >= threshold), on which ThresholdCurve's trapezoid sum and step sum must equal
  scikit-learn's values.
- "points": (fpr, recall, precision) points as a sweep of an event-based recognizer gives them
  (not monotone: a looser threshold can lose recall when actions come too early), with
  numpy.trapezoid over the points sorted by (fpr, recall) and the step sum
  sum((R_n - R_{n-1}) P_n) over the points sorted by recall ascending, precision descending
  ("average_precision", the recall-ordered sum). Each point also has a threshold "value"
  (ascending, the loosest first: FPR falls as the value rises), and
  "average_precision_threshold_order" is scikit-learn's own formula applied to the points in
  threshold order, arranged as precision_recall_curve returns them (thresholds increasing, then
  the final point precision 1, recall 0): -sum(diff(recall) * precision[:-1]), the body of
  sklearn.metrics._ranking._binary_uninterpolated_average_precision. Where recall is not monotone
  in the threshold the two differ. For the "scored" cases both equal average_precision_score.
"""
import json

import numpy as np
import sklearn
from sklearn.metrics import average_precision_score, roc_auc_score

OUT = "Tests/touchtraceTests/Fixtures/curves/curve-areas.json"


def scored_case(seed, n, positive_share, separation):
    rng = np.random.default_rng(seed)
    labels = (rng.random(n) < positive_share).astype(int)
    labels[0], labels[1] = 1, 0  # both classes present
    scores = np.round(rng.normal(0, 1, n) + separation * labels, 2)
    return {
        "name": f"scored seed={seed} n={n}",
        "scores": [float(s) for s in scores],
        "labels": [int(l) for l in labels],
        "roc_auc": float(roc_auc_score(labels, scores)),
        "average_precision": float(average_precision_score(labels, scores)),
    }


def points_case(seed, n):
    rng = np.random.default_rng(seed)
    fpr = np.round(np.sort(rng.random(n - 2)), 3)
    fpr = np.concatenate([[0.0], fpr, [1.0]])
    # Recall rises with FPR, then falls again at the loosest thresholds (early actions).
    recall = np.round(np.clip(np.sqrt(fpr) + rng.normal(0, 0.05, n) - 0.4 * np.maximum(fpr - 0.7, 0), 0, 1), 3)
    precision = np.round(np.clip(0.9 - 0.6 * fpr + rng.normal(0, 0.05, n), 0.01, 1), 3)
    order = np.lexsort((recall, fpr))  # by fpr, then recall
    roc = float(np.trapezoid(recall[order], fpr[order]))
    pr = sorted(zip(recall, precision), key=lambda p: (p[0], -p[1]))
    ap, previous = 0.0, 0.0
    for r, p in pr:
        ap += (r - previous) * p
        previous = r
    # Thresholds: the loosest (FPR 1) has the smallest value. Points are given by ascending FPR,
    # so the value falls as FPR rises.
    values = np.round(np.linspace(7.0, 0.0, n), 4)
    by_threshold = np.argsort(values, kind="stable")  # increasing threshold, as sklearn orders
    curve_precision = np.concatenate([precision[by_threshold], [1.0]])
    curve_recall = np.concatenate([recall[by_threshold], [0.0]])
    ap_threshold_order = -np.sum(np.diff(curve_recall) * curve_precision[:-1])
    return {
        "name": f"points seed={seed} n={n}",
        "value": [float(x) for x in values],
        "average_precision_threshold_order": float(ap_threshold_order),
        "fpr": [float(x) for x in fpr],
        "recall": [float(x) for x in recall],
        "precision": [float(x) for x in precision],
        "roc_auc": roc,
        "average_precision": float(ap),
    }


def main():
    document = {
        "generator": "Scripts/make-curve-fixtures.py",
        "numpy": np.__version__,
        "sklearn": sklearn.__version__,
        "scored": [scored_case(1, 40, 0.3, 1.0), scored_case(2, 200, 0.5, 0.5), scored_case(3, 25, 0.2, 1.2)],
        "points": [points_case(4, 12), points_case(5, 30)],
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=1)
        f.write("\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
