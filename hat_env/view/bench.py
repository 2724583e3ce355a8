"""The data of a bench report page: one or more ``hat-env bench`` output folders side by side.

Each run gives its summary (``summary.json``, or one computed from the records) and every result record, made
compact for the page: the components as one list in a fixed order, tool results (``facts``) stored once and
referred to by index. The prompt of each case (its viewers' comments, the room moment, the harness variant, the
faults, the instructions) is not in the results: it is regenerated from the suite (suites are deterministic and
pinned by manifest hash) and checked against the records' categories, so a case's detail shows what the model
was asked.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Sequence

from hat_env.evaluation.runs import load_run, run_labels

#: Component order of the compact records (others found in the records follow, sorted).
COMPONENT_ORDER = ("accuracy", "effectiveness", "tool_rationality", "skill_selection", "compliance", "constraints",
                   "latency")


def _prompt(case: dict[str, Any]) -> dict[str, Any]:
    """What the model was asked in a case, for reading."""
    return {
        "scenario": case.get("scenario"), "t": case.get("t"), "seed": case.get("seed"),
        "comments": [{"viewer": c.get("viewer"), "persona": c.get("persona"), "text": c.get("text", ""),
                      "kinds": [i.get("kind") for i in c.get("intents") or []]} for c in case.get("comments") or []],
        "hsa": case.get("hsa"), "faults": case.get("faults"), "patch": case.get("patch"),
        "instructions": case.get("instructions"), "history": len(case.get("history") or ()), "gold": case.get("gold"),
    }


def suite_prompts(suite_ids: set[str], categories: dict[str, str]) -> tuple[dict[str, dict[str, Any]], list[str]]:
    """Prompts of every case of the given suites, regenerated, keyed by case id.

    Args:
        suite_ids: suites present in the runs.
        categories: case id -> category in the records (a regenerated case must agree, else the suite changed
            since the run and its prompts are left out).

    Returns:
        ``(prompts, warnings)``.
    """
    from hat_env.evaluation.suites import GENERATORS, load_suite

    out: dict[str, dict[str, Any]] = {}
    warnings = []
    for sid in sorted(suite_ids):
        if sid not in GENERATORS:
            warnings.append(f"suite {sid}: not a built-in suite, prompts not shown")
            continue
        cases = load_suite(sid)
        by_id = {c["id"]: c for c in cases}
        bad = [cid for cid, cat in categories.items() if cid.startswith(sid + "/") and
               (cid not in by_id or by_id[cid]["category"] != cat)]
        if bad:
            warnings.append(f"suite {sid}: {len(bad)} case(s) differ from the suite as generated now "
                            f"(first {bad[0]}): prompts not shown")
            continue
        for cid, cat in categories.items():
            if cid in by_id:
                out[cid] = _prompt(by_id[cid])
    return out, warnings


def bench_data(paths: Sequence[str | Path], prompts: bool = True) -> dict[str, Any]:
    """Everything the bench page shows, for one or more runs.

    Args:
        paths: bench output folders (or their ``summary.json`` / ``results.jsonl``).
        prompts: regenerate the suites to show each case's prompt (a few seconds for all 4,502 cases).

    Returns:
        ``{"kind": "bench", "runs": [{"label", "folder", "agent", "summary", "records"}], "cases": [{"id",
        "suite", "category", "locale"}], "components", "facts", "prompts", "warnings"}``. A compact record is
        ``{"c": case index, "k": trial, "s": composite, "m": components (in ``components`` order, ``None`` when
        absent), "lat", "ttft", "reply", "calls", "turns", "fb": fallback, "err": errors, "failed", "notes",
        "facts": index into ``facts``, "ifeval", "h": harness hash}``.

    Raises:
        FileError: a folder without results, or a malformed record.
    """
    loaded = [load_run(p) for p in paths]
    warnings: list[str] = [w for r in loaded for w in r.warnings]
    labels = run_labels([r.folder for r in loaded], [r.agent for r in loaded])
    comps = list(COMPONENT_ORDER)
    extra = sorted({k for run in loaded for r in run.records for k in r["components"]} - set(comps))
    comps += extra
    cases: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    categories: dict[str, str] = {}
    facts: list[Any] = []
    fact_index: dict[str, int] = {}
    runs: list[dict[str, Any]] = []
    for run, label in zip(loaded, labels):
        out = []
        for r in sorted(run.records, key=lambda r: (r["suite"], r["case_id"], r.get("trial", 0))):
            cid = r["case_id"]
            if cid not in index:
                index[cid] = len(cases)
                cases.append({"id": cid, "suite": r["suite"], "category": r["category"], "locale": r.get("locale")})
                categories[cid] = r["category"]
            fi = None
            if r.get("facts"):
                key = json.dumps(r["facts"], ensure_ascii=False, sort_keys=True)
                fi = fact_index.get(key)
                if fi is None:
                    fi = fact_index[key] = len(facts)
                    facts.append(r["facts"])
            out.append({"c": index[cid], "k": r.get("trial", 0), "s": r["composite"],
                        "m": [r["components"].get(c) for c in comps], "lat": r.get("latency_s"), "ttft": r.get("ttft_s"),
                        "reply": r.get("reply", ""), "calls": r.get("calls") or [], "turns": r.get("turns"),
                        "fb": bool(r.get("fallback")), "err": r.get("errors") or None, "failed": r.get("failed") or None,
                        "notes": r.get("notes") or None, "facts": fi, "ifeval": r.get("ifeval"), "h": r.get("harness")})
        runs.append({"label": label, "folder": str(run.folder), "agent": run.agent, "summary": run.summary,
                     "records": out})
    first = {r["c"] for r in runs[0]["records"]} if runs else set()
    for other in runs[1:]:
        ids = {r["c"] for r in other["records"]}
        if ids != first:
            warnings.append(f"case sets differ: {other['label']} has {len(ids - first)} case(s) that "
                            f"{runs[0]['label']} lacks and lacks {len(first - ids)} of its cases: the tables compare "
                            "each run's own cases (`hat-env compare` pairs the shared ones)")
    prompt_map: dict[str, dict[str, Any]] = {}
    if prompts:
        prompt_map, warn = suite_prompts({c["suite"] for c in cases}, categories)
        warnings += warn
    return {"kind": "bench", "runs": runs, "cases": cases, "components": comps, "facts": facts,
            "prompts": prompt_map, "warnings": warnings}
