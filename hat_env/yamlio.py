"""Safe YAML loading with line numbers, and validation errors that name the file, the field path and the line.

Scenario and harness files are data: they are read with ``yaml.SafeLoader`` only, so no tag in them can build a
Python object or run code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

#: libyaml's safe loader when available (same safety as ``yaml.SafeLoader``, several times faster).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class FileError(ValueError):
    """A data file could not be used. ``problems`` holds one ``(path, field, line, reason)`` per error found.

    ``str(err)`` lists every problem as ``FILE:LINE: FIELD: REASON``.
    """

    def __init__(self, path: str | Path, problems: list[tuple[str, int | None, str]]):
        self.path = str(path)
        self.problems = problems
        lines = []
        for fld, line, reason in problems:
            where = f"{self.path}:{line}" if line else self.path
            lines.append(f"{where}: {fld or '<root>'}: {reason}")
        super().__init__("\n".join(lines))


class FieldError(ValueError):
    """Raised by a model's cross-field check to say which field is wrong: ``loc`` is the field path below the
    model that raised it (``("catalog", "products", 2, "specs", "wattage")``), so :func:`validate` reports that
    field and its line instead of the model's."""

    def __init__(self, loc: tuple[str | int, ...], message: str):
        super().__init__(message)
        self.loc = tuple(loc)


def _index_lines(node: yaml.Node, prefix: tuple, out: dict[tuple, int]) -> None:
    out[prefix] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            key = k.value
            out[prefix + (key,)] = k.start_mark.line + 1
            _index_lines(v, prefix + (key,), out)
            out[prefix + (key,)] = k.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _index_lines(v, prefix + (i,), out)


def load_yaml(path: str | Path, text: str | None = None) -> tuple[Any, dict[tuple, int]]:
    """Read a YAML file safely.

    Args:
        path: the file to read (also used in error messages).
        text: the file's text, if already read.

    Returns:
        ``(data, lines)`` where ``lines`` maps a field path tuple (``("catalog", "products", 0, "price")``) to
        its 1-based line number.

    Raises:
        FileError: the file is missing or is not valid YAML (the line and the parser's reason are given).
    """
    p = Path(path)
    if text is None:
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise FileError(p, [("", None, f"cannot read file: {exc.strerror or exc}")]) from None
    try:
        node = yaml.compose(text, Loader=SAFE_LOADER)
        data = yaml.load(text, Loader=SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        reason = f"invalid YAML: {getattr(exc, 'problem', None) or exc}"
        raise FileError(p, [("", line, reason)]) from None
    lines: dict[tuple, int] = {}
    if node is not None:
        _index_lines(node, (), lines)
    return data, lines


def line_of(lines: dict[tuple, int], loc: tuple) -> int | None:
    """The line of the deepest known prefix of ``loc`` (pydantic error locations may go deeper than the YAML)."""
    loc = tuple(loc)
    while loc:
        if loc in lines:
            return lines[loc]
        loc = loc[:-1]
    return lines.get(())


def validate(model: type[M], data: Any, path: str | Path, lines: dict[tuple, int]) -> M:
    """Validate ``data`` against a pydantic ``model``.

    Raises:
        FileError: listing every validation error with its dotted field path and line.
    """
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            loc = tuple(x for x in err["loc"] if not (isinstance(x, str) and x.startswith("function-")))
            reason = err["msg"]
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, FieldError):
                loc += cause.loc
                reason = str(cause)
            fld = ".".join(str(x) for x in loc)
            if err["type"] == "extra_forbidden":
                reason = "unknown field"
            problems.append((fld, line_of(lines, loc), reason))
        raise FileError(path, problems) from None


def load_model(model: type[M], path: str | Path) -> M:
    """Read a YAML file and validate it against ``model`` in one step (see :func:`load_yaml`, :func:`validate`)."""
    data, lines = load_yaml(path)
    return validate(model, data, path, lines)
