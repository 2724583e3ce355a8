"""Metrics over result records: per suite and per category, pass^k, IFEval accuracies, latency percentiles.

Scores are reported on 0-100 as the HAT paper does: ``accuracy`` (share of pass), ``effectiveness`` (mean of
0 / 0.5 / 1), ``avg`` (their mean: the paper's headline number), the composite rubric score and each other
component. The summary depends only on the set of records, never on their order, so a resumed run ends with the
same summary as an uninterrupted one.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any, Iterable

COMPONENTS = ("tool_rationality", "skill_selection", "compliance", "constraints", "latency")
UNDER_S = 15.0


def percentile(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile ``q`` (0-100) of ``values``; ``None`` when empty."""
    if not values:
        return None
    v = sorted(values)
    k = max(0, min(len(v) - 1, math.ceil(q / 100.0 * len(v)) - 1))
    return round(v[k], 4)


def pass_hat_k(successes: dict[str, list[bool]], k: int) -> float | None:
    """tau-bench's pass^k: mean over cases of C(c, k) / C(n, k) for c successes in n trials."""
    vals = []
    for trials in successes.values():
        n, c = len(trials), sum(trials)
        if n >= k:
            vals.append(math.comb(c, k) / math.comb(n, k))
    return round(sum(vals) / len(vals), 4) if vals else None


def _success(r: dict[str, Any]) -> bool:
    comp = r["components"]
    return comp.get("accuracy", 0.0) >= 1.0 and comp.get("effectiveness", 0.0) >= 1.0


def _scores(records: list[dict[str, Any]], trials: int) -> dict[str, Any]:
    n = len(records)
    mean = lambda key: round(100.0 * sum(r["components"].get(key, 0.0) for r in records) / n, 2)  # noqa: E731
    acc, eff = mean("accuracy"), mean("effectiveness")
    out: dict[str, Any] = {
        "cases": len({r["case_id"] for r in records}),
        "records": n,
        "avg": round((acc + eff) / 2, 2),
        "accuracy": acc,
        "effectiveness": eff,
        "composite": round(sum(r["composite"] for r in records) / n, 2),
        **{c: mean(c) for c in COMPONENTS},
        "fallbacks": sum(1 for r in records if r.get("fallback")),
        "errors": sum(1 for r in records if r.get("errors")),
    }
    by_case: dict[str, list[bool]] = defaultdict(list)
    for r in sorted(records, key=lambda r: (r["case_id"], r["trial"])):
        by_case[r["case_id"]].append(_success(r))
    for k in range(1, max(1, trials) + 1):
        out[f"pass^{k}"] = pass_hat_k(by_case, k)
    ife = [r["ifeval"] for r in records if r.get("ifeval")]
    if ife:
        from hat_env.evaluation.ifeval import aggregate_dicts

        out["ifeval"] = aggregate_dicts(ife)
    return out


def latency(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-request latency: total (model turns + tools, as the agent reported them) and time to first token,
    P50/P95/P99, share under 15 s. The harness's own wall time per case stays in the records (``wall_s``): it
    is not part of the summary, which must not depend on how busy the machine was."""
    tot = [float(r["latency_s"]) for r in records if r.get("latency_s") is not None]
    ttft = [float(r["ttft_s"]) for r in records if r.get("ttft_s") is not None]
    return {
        "requests": len(tot),
        "p50_s": percentile(tot, 50),
        "p95_s": percentile(tot, 95),
        "p99_s": percentile(tot, 99),
        "mean_s": round(sum(tot) / len(tot), 4) if tot else None,
        "under_15s": round(sum(1 for x in tot if x < UNDER_S) / len(tot), 4) if tot else None,
        "ttft_p50_s": percentile(ttft, 50),
        "ttft_p95_s": percentile(ttft, 95),
    }


def summarize(records: Iterable[dict[str, Any]], trials: int = 1) -> dict[str, Any]:
    """``{"suites": {ID: {..., "categories": {CAT: {...}}}}, "latency": {...}}`` from result records."""
    recs = sorted(records, key=lambda r: (r["suite"], r["case_id"], r["trial"]))
    by_suite: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in recs:
        by_suite[r["suite"]].append(r)
    suites = {}
    for sid, rs in sorted(by_suite.items()):
        s = _scores(rs, trials)
        cats: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for r in rs:
            cats[r["category"]].append(r)
        s["categories"] = {c: _scores(v, trials) for c, v in sorted(cats.items())}
        suites[sid] = s
    return {"suites": suites, "latency": latency(recs), "trials": trials}
