"""``hat-env compare RUN RUN...``: N bench runs side by side, per suite and per category, with seeded bootstrap
confidence intervals for each run's score and for each run's difference from the first (the baseline).

A case's value is the metric on 0-100 averaged over its trials (``avg`` = the mean of accuracy and effectiveness,
as the HAT paper reports; any component name works too). A run's interval resamples its cases; a difference is
paired: it resamples the cases both runs share, so it is not blurred by case-to-case spread. Runs whose case sets
differ are compared on the shared cases for differences, and a warning says how many cases each side lacks. Every
resample stream is derived from the seed and the row's name, so a seed fixes the whole table.
"""

from __future__ import annotations

import zlib
from collections import defaultdict
from typing import Any

from hat_env.evaluation.runs import Run, run_labels

#: Metrics a case can be scored by (``avg`` plus every rubric component and the composite).
METRIC_HELP = "avg (mean of accuracy and effectiveness), composite, or a component (accuracy, effectiveness, ...)"


def case_values(records: list[dict[str, Any]], metric: str = "avg") -> dict[str, dict[str, Any]]:
    """Per case: its suite, category and metric value (0-100, mean over trials).

    Args:
        records: result records of one run.
        metric: ``avg``, ``composite`` or a component name.

    Returns:
        ``{case_id: {"suite", "category", "value"}}``.

    Raises:
        ValueError: the metric is in none of the records.
    """
    acc: dict[str, list[float]] = defaultdict(list)
    meta: dict[str, tuple[str, str]] = {}
    found = False
    for r in records:
        comp = r["components"]
        if metric == "avg":
            v = 50.0 * (comp.get("accuracy", 0.0) + comp.get("effectiveness", 0.0))
            found = found or "accuracy" in comp
        elif metric == "composite":
            v, found = float(r["composite"]), True
        else:
            if metric in comp:
                found = True
            v = 100.0 * comp.get(metric, 0.0)
        acc[r["case_id"]].append(v)
        meta[r["case_id"]] = (r["suite"], r["category"])
    if records and not found:
        raise ValueError(f"metric {metric!r} is in no record; metrics: {METRIC_HELP}")
    return {cid: {"suite": meta[cid][0], "category": meta[cid][1], "value": sum(v) / len(v)} for cid, v in acc.items()}


def _rng(seed: int, key: str) -> Any:
    import numpy as np

    return np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])


def bootstrap_ci(values: list[float], resamples: int, confidence: float, seed: int, key: str) -> tuple[float, float]:
    """Percentile bootstrap interval of the mean of ``values``.

    Args:
        values: one value per case.
        resamples: bootstrap resamples.
        confidence: e.g. 0.95.
        seed: the seed; with ``key`` it fixes the resample stream.
        key: names the row (suite/category/run), so each row has its own stream, independent of the order rows
            are computed in.

    Returns:
        ``(low, high)``; both the mean when there is one value.
    """
    import numpy as np

    v = np.asarray(values, dtype=float)
    if len(v) == 0:
        return (float("nan"), float("nan"))
    if len(v) == 1 or resamples <= 0:
        return (float(v.mean()), float(v.mean()))
    rng = _rng(seed, key)
    means = np.empty(resamples)
    step = max(1, 2_000_000 // len(v))  # bound the index matrix to ~16 MB
    for a in range(0, resamples, step):
        b = min(resamples, a + step)
        means[a:b] = v[rng.integers(0, len(v), size=(b - a, len(v)))].mean(axis=1)
    alpha = (1.0 - confidence) / 2
    lo, hi = np.quantile(means, [alpha, 1.0 - alpha])
    return (float(lo), float(hi))


def _cell(values: list[float], resamples: int, confidence: float, seed: int, key: str) -> dict[str, Any] | None:
    if not values:
        return None
    lo, hi = bootstrap_ci(values, resamples, confidence, seed, key)
    return {"value": round(sum(values) / len(values), 2), "ci": [round(lo, 2), round(hi, 2)], "cases": len(values)}


def _row(groups: list[dict[str, float]], name: str, resamples: int, confidence: float, seed: int) -> dict[str, Any]:
    """One table row: each run's value and CI over its cases, each later run's paired difference from the first."""
    runs = [_cell(list(g.values()), resamples, confidence, seed, f"{name}|run{j}") for j, g in enumerate(groups)]
    diffs: list[dict[str, Any] | None] = []
    base = groups[0]
    for j, g in enumerate(groups[1:], start=1):
        shared = sorted(set(base) & set(g))
        d = [g[c] - base[c] for c in shared]
        cell = _cell(d, resamples, confidence, seed, f"{name}|diff{j}")
        if cell is not None:
            cell["significant"] = not (cell["ci"][0] <= 0.0 <= cell["ci"][1])
        diffs.append(cell)
    cases = next((c["cases"] for c in runs if c is not None), 0)
    return {"cases": cases, "runs": runs, "diffs": diffs}


def compare_runs(runs: list[Run], metric: str = "avg", resamples: int = 1000, confidence: float = 0.95,
                 seed: int = 0) -> dict[str, Any]:
    """The comparison table of several runs.

    Args:
        runs: two or more runs (:func:`hat_env.evaluation.runs.load_run`); the first is the baseline.
        metric: ``avg``, ``composite`` or a component name (0-100).
        resamples: bootstrap resamples per row.
        confidence: the interval's coverage (0-1).
        seed: fixes every resample.

    Returns:
        ``{"labels", "metric", "resamples", "confidence", "seed", "warnings", "suites": {SUITE: {"cases", "runs":
        [{"value", "ci", "cases"} | None], "diffs": [{"value", "ci", "cases", "significant"} | None],
        "categories": {CAT: (the same)}}}, "latency": [{...} per run]}``.

    Raises:
        ValueError: fewer than two runs, a bad confidence, or an unknown metric.
    """
    if len(runs) < 2:
        raise ValueError("compare needs two or more runs")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    labels = run_labels([r.folder for r in runs], [r.agent for r in runs])
    values = [case_values(r.records, metric) for r in runs]
    warnings = [w for r in runs for w in r.warnings]
    base = set(values[0])
    for lab, v in zip(labels[1:], values[1:]):
        if set(v) != base:
            warnings.append(f"case sets differ: {lab} has {len(set(v) - base)} case(s) that {labels[0]} lacks and "
                            f"lacks {len(base - set(v))} of its {len(base)}; differences use the "
                            f"{len(base & set(v))} shared cases")
    suites: dict[str, Any] = {}
    for sid in sorted({c["suite"] for v in values for c in v.values()}):
        groups = [{cid: c["value"] for cid, c in v.items() if c["suite"] == sid} for v in values]
        row = _row(groups, sid, resamples, confidence, seed)
        cats = sorted({c["category"] for v in values for c in v.values() if c["suite"] == sid})
        row["categories"] = {
            cat: _row([{cid: c["value"] for cid, c in v.items() if c["suite"] == sid and c["category"] == cat}
                       for v in values], f"{sid}/{cat}", resamples, confidence, seed)
            for cat in cats}
        suites[sid] = row
    return {"labels": labels, "metric": metric, "resamples": resamples, "confidence": confidence, "seed": seed,
            "warnings": warnings, "suites": suites, "latency": [r.summary.get("latency") or {} for r in runs]}


def _fmt_cell(c: dict[str, Any] | None, sign: bool = False) -> str:
    if c is None:
        return "-"
    lo, hi = c["ci"]
    if sign:
        return f"{c['value']:+.1f} [{lo:+.1f},{hi:+.1f}]" + ("*" if c.get("significant") else " ")
    return f"{c['value']:.1f} [{lo:.1f},{hi:.1f}]"


def table_rows(table: dict[str, Any], categories: bool = True) -> tuple[list[str], list[list[str]]]:
    """The comparison as text rows: ``(header, rows)``; a row per suite (and per category, indented).

    Columns: suite/category, cases, each run's value with its interval, each later run's paired difference from
    the first run with its interval (``*`` when the interval excludes 0).
    """
    labels = table["labels"]
    header = ["suite / category", "cases", *labels, *(f"Δ {lab}" for lab in labels[1:])]
    rows = []
    for sid, s in table["suites"].items():
        rows.append([sid, str(s["cases"]), *(_fmt_cell(c) for c in s["runs"]), *(_fmt_cell(c, True) for c in s["diffs"])])
        if categories:
            for cat, c in s["categories"].items():
                rows.append([f"  {cat}", str(c["cases"]), *(_fmt_cell(x) for x in c["runs"]),
                             *(_fmt_cell(x, True) for x in c["diffs"])])
    return header, rows


def latency_rows(table: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """Per run latency figures as text rows: ``(header, rows)``."""
    keys = ("p50_s", "p95_s", "p99_s", "under_15s", "ttft_p50_s")
    rows = []
    for lab, lat in zip(table["labels"], table["latency"]):
        rows.append([lab, *("-" if lat.get(k) is None else f"{lat[k]:.3f}" for k in keys)])
    return ["run", *keys], rows
