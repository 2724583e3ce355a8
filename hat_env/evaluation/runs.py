"""Reading ``hat-env bench`` output folders: the checked result records, the summary, and labels that tell runs
apart (the report page and ``hat-env compare`` both read runs this way)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hat_env.yamlio import FileError

_RECORD_FIELDS = ("case_id", "suite", "category", "composite", "components")


def run_folder(path: str | Path) -> Path:
    """The bench output folder that ``path`` names (the folder, its ``summary.json`` or ``results.jsonl``).

    Raises:
        FileError: no ``results.jsonl`` there.
    """
    p = Path(path)
    folder = p if p.is_dir() else p.parent
    if not (folder / "results.jsonl").is_file():
        raise FileError(folder, [("results.jsonl", None, "missing: not a `hat-env bench` output folder")])
    return folder


def read_records(path: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """The result records of a ``results.jsonl`` and the warnings reading it.

    A last line cut short by a crash is dropped with a warning (``hat-env bench --resume`` does the same).

    Raises:
        FileError: a line that is not a JSON object, or a record missing a field the report needs.
    """
    recs: list[dict[str, Any]] = []
    warnings: list[str] = []
    problems: list[tuple[str, int | None, str]] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    last = max((i for i, s in enumerate(lines) if s.strip()), default=-1)
    for i, text in enumerate(lines):
        if not text.strip():
            continue
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as exc:
            if i == last:
                warnings.append(f"{path}:{i + 1}: last line is cut short (a crash while writing?): dropped")
                continue
            problems.append(("<line>", i + 1, f"not JSON: {exc.msg} at column {exc.colno}"))
            continue
        if not isinstance(rec, dict):
            problems.append(("<line>", i + 1, "must be a JSON object"))
            continue
        missing = [f for f in _RECORD_FIELDS if f not in rec]
        if missing:
            problems.append((missing[0], i + 1, "missing from the result record"))
        elif not isinstance(rec["components"], dict) or not isinstance(rec["composite"], (int, float)):
            problems.append(("components", i + 1, "must be an object (and composite a number)"))
        else:
            recs.append(rec)
        if len(problems) >= 20:
            break
    if problems:
        raise FileError(path, problems)
    return recs, warnings


def run_labels(folders: list[Path], agents: list[str]) -> list[str]:
    """Column labels: the folder name plus the agent (``bench_a (reference)``); folders with the same name get
    their parent's name in front, and any label still repeated gets ``#k``."""
    names = [f.name for f in folders]
    names = [f"{f.parent.name}/{f.name}" if names.count(f.name) > 1 else f.name for f in folders]
    labels = [f"{n} ({a})" if a else n for n, a in zip(names, agents)]
    seen: dict[str, int] = {}
    out = []
    for lab in labels:
        seen[lab] = seen.get(lab, 0) + 1
        out.append(lab if labels.count(lab) == 1 else f"{lab} #{seen[lab]}")
    return out


@dataclass
class Run:
    """One bench run.

    Attributes:
        folder: its output folder.
        records: the result records (checked).
        summary: ``summary.json``, or the summary computed from the records when the file is missing.
        warnings: problems that did not stop the reading.
    """

    folder: Path
    records: list[dict[str, Any]]
    summary: dict[str, Any]
    warnings: list[str] = field(default_factory=list)

    @property
    def agent(self) -> str:
        """The agent spec the run used (``""`` when the summary does not say)."""
        return str(self.summary.get("agent") or "")


def load_run(path: str | Path) -> Run:
    """Read a bench run.

    Args:
        path: the output folder, its ``summary.json`` or its ``results.jsonl``.

    Raises:
        FileError: no results there, a malformed record, or a ``summary.json`` that is not JSON.
    """
    from hat_env.evaluation.metrics import summarize

    folder = run_folder(path)
    recs, warnings = read_records(folder / "results.jsonl")
    sp = folder / "summary.json"
    if sp.is_file():
        try:
            summary = json.loads(sp.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise FileError(sp, [("<file>", exc.lineno, f"not JSON: {exc.msg}")]) from None
        if not isinstance(summary, dict) or not isinstance(summary.get("suites"), dict):
            raise FileError(sp, [("suites", None, "missing: not a bench summary")])
    else:
        warnings.append(f"{folder}: no summary.json: computed from results.jsonl")
        summary = summarize(recs, trials=max((int(r.get("trial", 0)) for r in recs), default=0) + 1)
    return Run(folder, recs, summary, warnings)
