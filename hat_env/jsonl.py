"""Reading JSON Lines files of objects: one reader for cases, calibration sets, imported logs and training rows.

Lines are split on ``\\n`` alone (``str.splitlines`` would also split at U+2028 and other separators, which JSON
allows raw inside a string), a trailing ``\\r`` is dropped, blank lines are skipped, and every line must hold one
JSON object. :func:`object_lines` reports a bad line and goes on (for readers that list every problem);
:func:`read_objects` stops at the first one with an error naming the file and line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator


@dataclass(frozen=True)
class BadLine:
    """A line that is not one JSON object: ``reason`` says why (bad JSON with its column, too deep, not an
    object, too long)."""

    reason: str


def object_lines(text: str, max_chars: int | None = None) -> Iterator[tuple[int, dict[str, Any] | BadLine]]:
    """The JSON objects of a JSON Lines text, with their 1-based line numbers.

    Args:
        text: the whole file's text.
        max_chars: a line longer than this is a :class:`BadLine` without being parsed (None: no limit).

    Yields:
        ``(line, object)`` for each non-blank line, or ``(line, BadLine)`` where the line is not one JSON object.
    """
    for n, line in enumerate(text.split("\n"), 1):
        line = line.removesuffix("\r")
        if not line.strip():
            continue
        if max_chars is not None and len(line) > max_chars:
            yield n, BadLine(f"line longer than {max_chars:,} characters")
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            yield n, BadLine(f"not valid JSON: {exc.msg} at column {exc.colno}")
            continue
        except RecursionError:
            yield n, BadLine("JSON nested too deeply")
            continue
        if not isinstance(obj, dict):
            yield n, BadLine(f"expected a JSON object, got {type(obj).__name__}")
            continue
        yield n, obj


def read_objects(path: str | Path) -> list[tuple[int, dict[str, Any]]]:
    """The ``(line, object)`` pairs of a JSON Lines file of objects.

    Args:
        path: the file (UTF-8).

    Returns:
        One pair per non-blank line, in file order.

    Raises:
        ValueError: the first line that is not one JSON object, as ``"PATH:LINE: reason"``.
        OSError: the file cannot be read.
    """
    out = []
    for n, obj in object_lines(Path(path).read_text(encoding="utf-8")):
        if isinstance(obj, BadLine):
            raise ValueError(f"{path}:{n}: {obj.reason}")
        out.append((n, obj))
    return out


__all__ = ["BadLine", "object_lines", "read_objects"]
