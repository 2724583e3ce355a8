"""``hat-env show RUN CASE_ID``: one case of a bench run, as the agent saw it and as the grader judged it.

It reads the run folder: the case's row in ``results.jsonl`` (scores, the grader's notes, the reply), its turns in
``results.details.jsonl``, and ``run.json``, which says where the cases came from. The prompt (system message and
history) is rebuilt from the case itself, found in its suite (checked against the manifest hash the run recorded)
or in the case file the run read, so rows stay small.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hat_env.evaluation.provenance import read_run
from hat_env.evaluation.runner import details_path, read_details, read_results


def find_case(run: dict[str, Any] | None, case_id: str) -> tuple[dict[str, Any] | None, str]:
    """The case ``case_id`` of a run, from the sources its ``run.json`` names.

    Returns:
        ``(case, note)``: the case, or ``None`` with the reason it could not be found.
    """
    if run is None:
        return None, "the run folder has no run.json: the case's source is unknown"
    for src in run["config"].get("sources") or []:
        if "suite" in src and case_id.startswith(f"{src['suite']}/"):
            from hat_env.evaluation.suites import GENERATORS, load_suite, manifest_hash

            if src["suite"] not in GENERATORS:
                return None, f"suite {src['suite']} is not in this hat-env"
            if manifest_hash(src["suite"]) != src.get("hash"):
                return None, f"suite {src['suite']} changed since the run (manifest hash differs)"
            for c in load_suite(src["suite"]):
                if c["id"] == case_id:
                    return c, ""
        elif "path" in src:
            from hat_env.evaluation.cases import read_cases

            try:
                cases, digest = read_cases(src["path"])
            except ValueError as exc:
                return None, f"cannot read the run's case file: {exc}"
            if digest != src.get("hash"):
                return None, f"the case file {src['path']} changed since the run"
            for c in cases:
                if c["id"] == case_id:
                    return c, ""
    return None, f"no case {case_id!r} in the run's sources"


def gather(folder: str | Path, case_id: str, trial: int | None = None) -> dict[str, Any]:
    """Everything ``show`` prints, as one dict: ``case_id``, ``trial``, ``row``, ``case``, ``prompt`` (messages up
    to and including the viewers' request, or ``None`` with ``prompt_note``), ``tools`` (the names offered),
    ``turns`` (the messages after the request) and ``hook_events``.

    Raises:
        FileNotFoundError: no results file in ``folder``.
        KeyError: the run has no row for ``case_id`` (and ``trial``).
    """
    out = Path(folder)
    rpath = out / "results.jsonl"
    if not rpath.exists():
        raise FileNotFoundError(f"{out}: no results.jsonl (is it a bench output folder?)")
    rows = [r for r in read_results(rpath) if r.get("case_id") == case_id
            and (trial is None or r.get("trial") == trial)]
    if not rows:
        raise KeyError(f"{rpath}: no row for case {case_id!r}" + ("" if trial is None else f" trial {trial}"))
    row = rows[-1] if trial is not None else min(rows, key=lambda r: r.get("trial", 0))
    detail = read_details(details_path(rpath), case_id, row.get("trial"))
    run = read_run(out)
    case, note = find_case(run, case_id)
    prompt, tools = None, None
    if case is not None:
        from hat_env.evaluation.runner import build_session

        loop = build_session(case).loop
        assert loop is not None
        prompt = [dict(m) for m in loop.messages]
        tools = [t["function"]["name"] for t in loop.harness.openai_tools]
    turns: list[dict[str, Any]] = []
    if detail is not None:
        msgs = detail.get("messages") or []
        if prompt is None and msgs:
            prompt = [msgs[0]]
        turns = msgs[1:]
    return {"case_id": case_id, "trial": row.get("trial", 0), "row": row, "case": case, "prompt": prompt,
            "tools": tools, "prompt_note": note, "turns": turns, "hook_events": (detail or {}).get("hook_events") or [],
            "has_detail": detail is not None}


def _content(m: dict[str, Any]) -> str:
    c = m.get("content")
    return "" if c is None else str(c)


def render(info: dict[str, Any]) -> str:
    """The text ``show`` prints for :func:`gather`'s dict."""
    row, lines = info["row"], []
    lines.append(f"case {info['case_id']}  trial {info['trial']}  suite {row.get('suite')}  "
                 f"category {row.get('category') or '-'}  locale {row.get('locale')}  run {row.get('run_id', '-')}")
    case = info.get("case")
    if case is not None:
        lines.append(f"scenario {case.get('scenario')}  seed {case.get('seed')}  t {case.get('t')} s"
                     + (f"  hsa {json.dumps(case['hsa'], ensure_ascii=False)}" if case.get("hsa") else "")
                     + (f"  faults {json.dumps(case['faults'])}" if case.get("faults") else ""))
    lines += ["", "== prompt"]
    if info["prompt"] is None:
        lines.append(f"(not available: {info['prompt_note']})")
    else:
        if info.get("prompt_note"):
            lines.append(f"(system prompt not available: {info['prompt_note']}; the viewers' request:)")
        for m in info["prompt"]:
            lines += [f"--- {m['role']}", _content(m)]
        if info.get("tools"):
            lines.append(f"--- tools offered: {', '.join(info['tools'])}")
    lines += ["", "== turns"]
    if not info["has_detail"]:
        lines.append("(no details file for this case: a run from before hat-env kept turns)")
    for m in info["turns"]:
        if m["role"] == "assistant":
            head = "--- assistant"
            lines.append(head)
            if _content(m):
                lines.append(_content(m))
            for tc in m.get("tool_calls") or []:
                fn = tc.get("function", tc)
                lines.append(f"  call {fn.get('name')}({fn.get('arguments')})")
        elif m["role"] == "tool":
            lines += [f"--- tool {m.get('name', '')}", _content(m)]
        else:
            lines += [f"--- {m['role']}", _content(m)]
    for h in info["hook_events"]:
        lines.append(f"hook {h.get('event')} {h.get('check')}: {h.get('decision')}"
                     + (f" ({h.get('reason')})" if h.get("reason") else ""))
    lines += ["", "== reply" + ("  (the harness's fallback)" if row.get("fallback") else ""), str(row.get("reply", ""))]
    lines += ["", "== scores", f"composite {row.get('composite')}"]
    for k, v in sorted((row.get("components") or {}).items()):
        lines.append(f"  {k:18} {v}")
    if row.get("errors"):
        lines += ["", "== agent errors", *[f"- {e}" for e in row["errors"]]]
    lines += ["", "== grader's notes"]
    notes = row.get("notes") or {}
    if not notes:
        lines.append("(none: no component lost points)")
    for comp, items in sorted(notes.items()):
        for n in items:
            lines.append(f"- {comp}: {n}")
    return "\n".join(lines) + "\n"


__all__ = ["find_case", "gather", "render"]
