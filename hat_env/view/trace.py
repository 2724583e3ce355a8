"""Reading a session trace (the JSONL that ``hat-env run``, ``LiveRoom-v0`` and the PettingZoo room write).

A trace is untrusted input as far as the viewer is concerned: every line must be a JSON object with a ``type``;
``request`` records must carry the fields the page shows. A problem is reported as a
:class:`~hat_env.yamlio.FileError` naming the file, the line, the field and the reason. A last line cut short by
a crash (the writer flushes per record) is dropped with a warning rather than refused; unknown record types are
kept aside (counted), so a newer trace still opens.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hat_env.yamlio import FileError

#: Fields a ``request`` record must have, with the JSON type each must be.
REQUEST_FIELDS: dict[str, type | tuple[type, ...]] = {
    "request_id": str,
    "t": (int, float),
    "comments": list,
    "messages": list,
    "calls": list,
    "hook_events": list,
    "reply": str,
    "scores": dict,
}


@dataclass
class Trace:
    """The records of one trace file, by kind.

    Attributes:
        path: the file read.
        start: the ``session_start`` record (``{}`` when missing).
        end: the ``session_end`` record, or ``None`` when the session did not finish.
        requests: ``request`` records in file order, each with ``_line`` (its 1-based line number).
        patches: ``harness_patch`` records.
        ticks: ``tick`` records (PettingZoo room: viewer events per tick).
        other: counts of record types the viewer does not know.
        warnings: problems that did not stop the reading (a cut last line).
    """

    path: Path
    start: dict[str, Any] = field(default_factory=dict)
    end: dict[str, Any] | None = None
    requests: list[dict[str, Any]] = field(default_factory=list)
    patches: list[dict[str, Any]] = field(default_factory=list)
    ticks: list[dict[str, Any]] = field(default_factory=list)
    other: dict[str, int] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def _check_request(rec: dict[str, Any], line: int) -> list[tuple[str, int | None, str]]:
    problems: list[tuple[str, int | None, str]] = []
    for name, typ in REQUEST_FIELDS.items():
        if name not in rec:
            problems.append((f"request.{name}", line, "missing"))
        elif not isinstance(rec[name], typ) or isinstance(rec[name], bool):
            want = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
            problems.append((f"request.{name}", line, f"must be {want}, got {type(rec[name]).__name__}"))
    for i, c in enumerate(rec.get("comments") or []):
        if not isinstance(c, dict) or not isinstance(c.get("text"), str):
            problems.append((f"request.comments.{i}.text", line, "each comment must be an object with a text"))
    for i, m in enumerate(rec.get("messages") or []):
        if not isinstance(m, dict) or "role" not in m:
            problems.append((f"request.messages.{i}", line, "each message must be an object with a role"))
    return problems


def read_trace(path: str | Path) -> Trace:
    """Read and check a trace file.

    Args:
        path: a ``.jsonl`` trace.

    Returns:
        The :class:`Trace`.

    Raises:
        FileError: the file is not a trace (a line that is not a JSON object, a record without ``type``, a
            ``request`` record missing a field or with a field of the wrong type); every problem is listed.
        OSError: the file cannot be read.
    """
    p = Path(path)
    tr = Trace(path=p)
    problems: list[tuple[str, int | None, str]] = []
    with p.open(encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    last = max((i for i, s in enumerate(lines) if s.strip()), default=-1)
    for i, text in enumerate(lines):
        if not text.strip():
            continue
        n = i + 1
        try:
            rec = json.loads(text)
        except json.JSONDecodeError as exc:
            if i == last and n > 1:
                tr.warnings.append(f"{p}:{n}: last line is cut short (a crash while writing?): dropped")
                continue
            problems.append(("<line>", n, f"not JSON: {exc.msg} at column {exc.colno}"))
            continue
        if not isinstance(rec, dict):
            problems.append(("<line>", n, f"must be a JSON object, got {type(rec).__name__}"))
            continue
        kind = rec.get("type")
        if not isinstance(kind, str):
            problems.append(("type", n, "missing: every record needs a type"))
            continue
        if kind == "session_start":
            tr.start = rec
        elif kind == "session_end":
            tr.end = rec
        elif kind == "request":
            found = _check_request(rec, n)
            if found:
                problems += found
                continue
            tr.requests.append({**rec, "_line": n})
        elif kind == "harness_patch":
            tr.patches.append(rec)
        elif kind == "tick":
            tr.ticks.append(rec)
        else:
            tr.other[kind] = tr.other.get(kind, 0) + 1
        if len(problems) >= 20:
            problems.append(("<file>", None, "stopped after 20 problems"))
            break
    if problems:
        raise FileError(p, problems)
    if not tr.start and not tr.requests:
        raise FileError(p, [("<file>", None, "no session_start and no request records: not a hat-env trace")])
    return tr
