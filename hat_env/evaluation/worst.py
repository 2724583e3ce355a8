"""The worst cases of each category, with the grader's notes: the part of ``report.md`` that says why cases
failed (``hat-env show RUN CASE_ID`` prints one in full)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

#: Cases listed per category.
PER_CATEGORY = 3

#: Characters of notes shown per case.
NOTE_CHARS = 240


def worst_cases(records: list[dict[str, Any]], k: int = PER_CATEGORY) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """``{suite: {category: [row, ...]}}``: the ``k`` lowest-scoring rows below 100 of each category (lowest
    composite first, then case id and trial, so the choice does not depend on the order rows were written)."""
    groups: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(lambda: defaultdict(list))
    for r in records:
        if float(r.get("composite", 0.0)) < 100.0:
            groups[str(r.get("suite", ""))][str(r.get("category") or "-")].append(r)
    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for sid in sorted(groups):
        out[sid] = {}
        for cat in sorted(groups[sid]):
            rows = sorted(groups[sid][cat], key=lambda r: (float(r["composite"]), r["case_id"], r.get("trial", 0)))
            out[sid][cat] = rows[:k]
    return out


def _notes(r: dict[str, Any]) -> str:
    parts = [f"{comp}: {n}" for comp, items in sorted((r.get("notes") or {}).items()) for n in items]
    if r.get("errors"):
        parts.insert(0, f"agent error: {r['errors'][0]}")
    if r.get("fallback"):
        parts.insert(0, "fallback reply")
    text = "; ".join(parts) or "-"
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= NOTE_CHARS else text[: NOTE_CHARS - 1] + "…"


def markdown(records: list[dict[str, Any]], k: int = PER_CATEGORY, run: str = "RUN") -> str:
    """The ``## Worst cases`` section of ``report.md``: per suite and category, the worst ``k`` cases with their
    composite, the components that lost points and the grader's notes.

    Args:
        records: the run's result rows.
        k: cases per category.
        run: how the ``hat-env show`` hint names the run folder.
    """
    worst = worst_cases(records, k)
    lines = ["", "## Worst cases", "",
             f"The {k} lowest-scoring cases of each category (composite below 100); "
             f"`hat-env show {run} CASE_ID` prints one with its prompt, turns and scores.", ""]
    if not worst:
        lines += ["Every case scored 100.", ""]
        return "\n".join(lines)
    for sid, cats in worst.items():
        lines += [f"### {sid}", "", "| category | case | trial | composite | lost points | notes |",
                  "|---|---|---|---|---|---|"]
        for cat, rows in cats.items():
            for r in rows:
                lost = ", ".join(c for c, v in sorted((r.get("components") or {}).items()) if v < 1.0) or "-"
                lines.append(f"| {cat} | {r['case_id']} | {r.get('trial', 0)} | {float(r['composite']):.2f} | "
                             f"{lost} | {_notes(r)} |")
        lines.append("")
    return "\n".join(lines)


__all__ = ["markdown", "worst_cases"]
