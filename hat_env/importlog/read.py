"""Reading a log of real comments (CSV or JSON Lines): one comment a row, with its time, its user and its text.

The file is untrusted: it is read with the bounded reader (:func:`hat_env.yamlio.read_text`: UTF-8, at most
:data:`MAX_LOG_BYTES`), parsed with :mod:`csv` or :mod:`json` only (nothing in it is evaluated), and each row is
checked: a time (seconds, or an ISO 8601 time), a user (at most 64 characters), a text (at most 2,000 characters,
no control characters but tab and newline) and, optionally, intents (a list of ``{"kind", "link", ...}``). Every
problem names the file, the line and the field; up to :data:`MAX_PROBLEMS` are reported at once.

Times: a number is seconds of room time as written (``--relative`` makes them relative to the earliest); an ISO
time (``2024-05-01T20:00:03``, ``...+08:00``, ``...Z``) is made relative to the earliest one of the file. A file
mixes neither kinds nor ISO times with and without a time zone. ``offset`` is added to every time.
"""

from __future__ import annotations

import csv
import io
import json
import math
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter, ValidationError

from hat_env.jsonl import BadLine, object_lines
from hat_env.sim.timeline import MAX_COMMENT_CHARS, CommentText, ScriptedIntent, ViewerName
from hat_env.yamlio import FileError, read_text

#: Largest log file read, in bytes.
MAX_LOG_BYTES = 16 * 1024 * 1024
#: Most rows read from one file (before a time window is cut).
MAX_ROWS = 500_000
#: Longest CSV field or JSON line, in characters.
MAX_FIELD_CHARS = 20_000
#: Most problems listed in one error.
MAX_PROBLEMS = 20

_TEXT: TypeAdapter[str] = TypeAdapter(CommentText)
_USER: TypeAdapter[str] = TypeAdapter(ViewerName)
_INTENTS: TypeAdapter[list[ScriptedIntent]] = TypeAdapter(list[ScriptedIntent])


@dataclass(slots=True)
class Columns:
    """Which column (CSV header) or key (JSON Lines) holds each value; ``intents`` is optional in the file."""

    time: str = "t"
    user: str = "user"
    text: str = "text"
    intents: str = "intents"


@dataclass(slots=True)
class Row:
    """One comment of the log: its line in the file, room time (seconds), user, text and intents (or ``None``)."""

    line: int
    t: float
    user: str
    text: str
    intents: list[dict[str, Any]] | None = None


@dataclass(slots=True)
class Log:
    """What :func:`read_log` read: the rows in time order (ties in file order) and the rows it skipped."""

    path: str
    rows: list[Row] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def log_format(path: str | Path, fmt: str | None = None) -> Literal["csv", "tsv", "jsonl"]:
    """The format of ``path``: ``fmt`` when given, else by its extension (``.csv``, ``.tsv``, ``.jsonl`` /
    ``.ndjson`` / ``.json``).

    Raises:
        FileError: neither given nor known from the extension.
    """
    if fmt:
        if fmt not in ("csv", "tsv", "jsonl"):
            raise FileError(path, [("", None, f"unknown format {fmt!r}; use csv, tsv or jsonl")])
        return fmt  # type: ignore[return-value]
    ext = Path(path).suffix.lower()
    known = {".csv": "csv", ".tsv": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}
    if ext not in known:
        raise FileError(path, [("", None, f"cannot tell the format from {ext or 'no extension'!r}: give --format "
                                          "csv, tsv or jsonl")])
    return known[ext]  # type: ignore[return-value]


def _records(text: str, fmt: str, cols: Columns, path: str,
             problems: list[tuple[str, int | None, str]]) -> list[tuple[int, dict[str, Any]]]:
    """``(line, record)`` of every row of the file (JSON objects, or CSV rows by header name)."""
    out: list[tuple[int, dict[str, Any]]] = []
    if fmt == "jsonl":
        for n, obj in object_lines(text, max_chars=MAX_FIELD_CHARS):
            if isinstance(obj, BadLine):
                problems.append(("", n, obj.reason))
                continue
            out.append((n, obj))
            if len(out) > MAX_ROWS:
                raise FileError(path, [("", n, f"more than {MAX_ROWS:,} rows; cut the log first")])
        return out
    old = csv.field_size_limit()
    csv.field_size_limit(MAX_FIELD_CHARS)
    try:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t" if fmt == "tsv" else ",", strict=True)
        try:
            header = next(reader, None)
        except csv.Error as exc:
            raise FileError(path, [("", reader.line_num or 1, f"not valid CSV: {exc}")]) from None
        if header is None:
            raise FileError(path, [("", None, "the file is empty (a header row names the columns)")])
        header = [h.strip() for h in header]
        for name in (cols.time, cols.user, cols.text):
            if name not in header:
                raise FileError(path, [("", 1, f"no column {name!r} in the header; columns: {header} (name them "
                                               "with --time-col, --user-col, --text-col)")])
        while True:
            try:
                row = next(reader)
            except StopIteration:
                break
            except csv.Error as exc:
                problems.append(("", reader.line_num, f"not valid CSV: {exc}"))
                if "field larger" in str(exc) or len(problems) > MAX_PROBLEMS:
                    break  # the reader cannot find the next row reliably after these
                continue
            if not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                problems.append(("", reader.line_num, f"{len(row)} fields, the header has {len(header)}"))
                continue
            out.append((reader.line_num, dict(zip(header, row))))
            if len(out) > MAX_ROWS:
                raise FileError(path, [("", reader.line_num, f"more than {MAX_ROWS:,} rows; cut the log first")])
    finally:
        csv.field_size_limit(old)
    return out


def _time(v: Any) -> float | datetime:
    """A time value: seconds (a number, or a string that is one) or an ISO 8601 time."""
    if isinstance(v, bool):
        raise ValueError("expected seconds or an ISO time, got a boolean")
    if isinstance(v, (int, float)):
        x = float(v)
    elif isinstance(v, str):
        s = v.strip()
        try:
            x = float(s)
        except ValueError:
            try:
                return datetime.fromisoformat(s)
            except ValueError:
                raise ValueError(f"{v[:40]!r} is neither seconds nor an ISO 8601 time "
                                 "(e.g. 12.5 or 2024-05-01T20:00:03)") from None
    else:
        raise ValueError(f"expected seconds or an ISO time, got {type(v).__name__}")
    if not math.isfinite(x):
        raise ValueError(f"{v!r} is not a finite number of seconds")
    return x


def _why(exc: ValidationError) -> str:
    return "; ".join((".".join(map(str, e["loc"])) + ": " if e["loc"] else "") + e["msg"] for e in exc.errors())


def read_log(path: str | Path, fmt: str | None = None, columns: Columns | None = None, relative: bool = False,
             offset: float = 0.0, skip_bad: bool = False) -> Log:
    """Read a log of comments.

    Args:
        path: the CSV, TSV or JSON Lines file.
        fmt: ``csv``, ``tsv`` or ``jsonl``; ``None``: by the extension.
        columns: the column / key names (default ``t``, ``user``, ``text``, ``intents``).
        relative: make second times relative to the earliest too (ISO times always are).
        offset: seconds added to every time (where the log starts in the room).
        skip_bad: skip rows that fail their checks (listed in :attr:`Log.skipped`) instead of failing.

    Returns:
        The rows in time order (ties keep the file's order).

    Raises:
        FileError: the file cannot be read, or (without ``skip_bad``) any row is bad; every problem (up to
            :data:`MAX_PROBLEMS`) with its line, field and reason.
    """
    cols = columns or Columns()
    p = str(path)
    kind = log_format(path, fmt)
    if not math.isfinite(offset):
        raise FileError(p, [("", None, "offset must be a finite number of seconds")])
    text = read_text(path, MAX_LOG_BYTES)
    problems: list[tuple[str, int | None, str]] = []
    recs = _records(text, kind, cols, p, problems)
    rows: list[tuple[int, float | datetime, str, str, list[dict[str, Any]] | None]] = []
    bad: list[tuple[str, int | None, str]] = list(problems)
    time_kind: tuple[str, int] | None = None  # ("seconds" | "naive" | "aware", first line of that kind)
    for n, rec in recs:
        row_bad: list[tuple[str, int | None, str]] = []
        vals: dict[str, Any] = {}
        for fld, name in (("time", cols.time), ("user", cols.user), ("text", cols.text)):
            if name not in rec or rec[name] is None or (isinstance(rec[name], str) and not rec[name].strip()):
                row_bad.append((name, n, "missing"))
            else:
                vals[fld] = rec[name]
        if "time" in vals:
            try:
                vals["time"] = _time(vals["time"])
                k = ("seconds" if isinstance(vals["time"], float)
                     else "aware" if vals["time"].tzinfo is not None else "naive")
                if time_kind is None:
                    time_kind = (k, n)
                elif time_kind[0] != k:
                    row_bad.append((cols.time, n, f"a {k} time, but line {time_kind[1]} has a {time_kind[0]} one "
                                                  "(seconds, ISO times with a zone, ISO times without one: one kind "
                                                  "per file)"))
            except ValueError as exc:
                row_bad.append((cols.time, n, str(exc)))
        if "user" in vals:
            try:
                vals["user"] = _USER.validate_python(str(vals["user"]).strip()
                                                     if isinstance(vals["user"], (str, int)) else vals["user"])
            except ValidationError as exc:
                row_bad.append((cols.user, n, _why(exc)))
        if "text" in vals:
            t = vals["text"]
            if isinstance(t, str):
                t = t.replace("\r\n", "\n").replace("\r", "\n").strip()
            try:
                vals["text"] = _TEXT.validate_python(t)
            except ValidationError as exc:
                long = isinstance(t, str) and len(t) > MAX_COMMENT_CHARS
                row_bad.append((cols.text, n, f"{len(t):,} characters; at most {MAX_COMMENT_CHARS:,}" if long
                                else _why(exc)))
        intents = None
        raw = rec.get(cols.intents)
        if raw not in (None, ""):
            try:
                if isinstance(raw, str):
                    raw = json.loads(raw)
                intents = [i.model_dump(exclude_none=True) for i in _INTENTS.validate_python(raw)]
            except (json.JSONDecodeError, RecursionError):
                row_bad.append((cols.intents, n, "not a JSON list of intents ([{\"kind\": \"price\", \"link\": 2}])"))
            except ValidationError as exc:
                row_bad.append((cols.intents, n, _why(exc)))
        if row_bad:
            bad += row_bad
            continue
        rows.append((n, vals["time"], vals["user"], vals["text"], intents))
    if bad and not skip_bad:
        shown = sorted(bad, key=lambda b: b[1] or 0)[:MAX_PROBLEMS]
        if len(bad) > MAX_PROBLEMS:
            shown.append(("", None, f"... and {len(bad) - MAX_PROBLEMS} more problems (--skip-bad skips bad rows)"))
        raise FileError(p, shown)
    log = Log(p, skipped=[f"{p}:{line}: {fld or '<root>'}: {why}" for fld, line, why in bad])
    if not rows:
        if not bad:
            raise FileError(p, [("", None, "no comments in the file")])
        return log
    first = min(r[1] for r in rows)  # type: ignore[type-var]
    for n, tv, user, txt, intents in rows:
        if isinstance(tv, datetime):
            secs = (tv - first).total_seconds()  # type: ignore[operator]
        else:
            secs = tv - first if relative else tv  # type: ignore[operator]
        secs = round(secs + offset, 3)
        if secs < 0:
            if not skip_bad:
                raise FileError(p, [(cols.time, n, f"{secs:g}s is before the stream starts (give --relative or a "
                                                   "positive --offset)")])
            log.skipped.append(f"{p}:{n}: {cols.time}: before the stream starts")
            continue
        log.rows.append(Row(n, secs, user, txt, intents))
    log.rows.sort(key=lambda r: r.t)
    return log


__all__ = ["Columns", "Log", "MAX_LOG_BYTES", "MAX_ROWS", "Row", "log_format", "read_log"]
