"""Bounded, safe YAML loading with line numbers, and validation errors that name the file, the field path and the line.

Every data file the project reads (scenarios, harness packs' ``harness.yaml`` and ``SKILL.md`` front matter, rule
packs, training configs) is untrusted and goes through :func:`load_yaml`:

- read as UTF-8 (a leading UTF-8 byte-order mark is dropped); another encoding is an error naming the file and
  the line of the first undecodable byte;
- at most :data:`MAX_FILE_BYTES` bytes, :data:`MAX_NODES` values and :data:`MAX_DEPTH` levels of nesting,
  checked on the parser's event stream before any tree is built, so no file can make the loader use much memory
  or recurse deeply;
- aliases (``*name``) are refused: expanding them is how a few hundred bytes become billions of values;
- only the standard YAML tags; ``!!python/...`` and custom tags are refused (``yaml.SafeLoader`` semantics, so no
  tag can build a Python object or run code);
- a key given twice in one mapping is an error naming both lines (YAML says keys are unique; PyYAML would keep
  the last one silently).

Every error is a :class:`FileError` whose problems read ``FILE:LINE: FIELD: REASON``.
"""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)

#: libyaml's safe loader when available (same safety as ``yaml.SafeLoader``, several times faster).
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

#: Largest data file read, in bytes (the built-in files are a few kB to a few tens of kB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most values (scalars, lists and mappings together) in one document.
MAX_NODES = 200_000
#: Deepest nesting of lists and mappings (libyaml itself stops at 1000; Python code walking data recurses).
MAX_DEPTH = 100
#: Longest integer literal, in digits (Python refuses to convert more than 4300 digits).
MAX_INT_DIGITS = 1000

_STD = "tag:yaml.org,2002:"
#: The tags a data file may write explicitly: the YAML types ``yaml.SafeLoader`` builds.
ALLOWED_TAGS = frozenset(
    _STD + t
    for t in ("null", "bool", "int", "float", "binary", "timestamp", "omap", "pairs", "set", "str", "seq", "map")
)
_MERGE_TAGS = (_STD + "merge", _STD + "value")


class FileError(ValueError):
    """A data file could not be used. ``problems`` holds one ``(field, line, reason)`` per error found.

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


class FileErrors(FileError):
    """Problems found in several files at once (a harness pack's ``harness.yaml`` and its ``SKILL.md`` files).

    ``errors`` holds one :class:`FileError` per file; ``path`` and ``problems`` are the first one's (for callers
    that read one file), and ``str(err)`` lists every problem of every file.
    """

    def __init__(self, errors: list[FileError]):
        self.errors = list(errors)
        first = self.errors[0]
        super().__init__(first.path, first.problems)
        self.args = ("\n".join(str(e) for e in self.errors),)

    def __str__(self) -> str:
        return str(self.args[0])


def file_errors(exc: FileError) -> list[FileError]:
    """The per-file errors of ``exc``: its :attr:`FileErrors.errors`, or ``[exc]``."""
    return list(getattr(exc, "errors", None) or [exc])


class FieldError(ValueError):
    """Raised by a model's cross-field check to say which field is wrong: ``loc`` is the field path below the
    model that raised it (``("catalog", "products", 2, "specs", "wattage")``), so :func:`validate` reports that
    field and its line instead of the model's."""

    def __init__(self, loc: tuple[str | int, ...], message: str):
        super().__init__(message)
        self.loc = tuple(loc)


def read_text(path: str | Path, limit: int = MAX_FILE_BYTES) -> str:
    """Read a data file as UTF-8 text, bounded in size.

    Args:
        path: the file.
        limit: the most bytes accepted.

    Returns:
        The text, without a leading UTF-8 byte-order mark.

    Raises:
        FileError: the file cannot be read, is larger than ``limit``, or is not UTF-8 (the line of the first bad
            byte is given).
    """
    p = Path(path)
    try:
        if not stat.S_ISREG(p.stat().st_mode):  # a FIFO would block, a device never ends
            raise FileError(p, [("", None, "not a regular file")])
        with p.open("rb") as fh:
            raw = fh.read(limit + 1)
    except OSError as exc:
        raise FileError(p, [("", None, f"cannot read file: {exc.strerror or exc}")]) from None
    if len(raw) > limit:
        raise FileError(p, [("", None, f"file is larger than {limit:,} bytes; data files must be smaller")])
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileError(p, [("", 1, "file is UTF-16 (it starts with a UTF-16 byte-order mark); save it as UTF-8")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        bad = raw[exc.start : exc.start + 1].hex()
        raise FileError(p, [("", line, f"not UTF-8 text: byte 0x{bad} at offset {exc.start} cannot be decoded; "
                                       "save the file as UTF-8")]) from None
    return text[1:] if text.startswith("\ufeff") else text


def _field(path: tuple) -> str:
    """A dotted field path; a very deep one is shortened to its first and last parts."""
    parts = [str(x) for x in path]
    if len(parts) > 12:
        parts = parts[:6] + [f"...({len(parts) - 9} more)..."] + parts[-3:]
    return ".".join(parts)


def _scan_events(text: str) -> list[tuple[str, int | None, str]]:
    """Check the event stream of ``text`` for aliases, foreign tags, size and depth, without building a tree.

    Returns:
        The problems found (at most one: the scan stops at the first), as ``(field, line, reason)``.

    Raises:
        yaml.YAMLError: the text is not valid YAML.
    """
    loader = SAFE_LOADER(text)
    # one frame per open collection: [is_mapping, expecting_key, current_key_or_index, path, is_a_key]
    stack: list[list[Any]] = []
    nodes = 0
    try:
        while True:
            ev = loader.get_event()
            if isinstance(ev, yaml.StreamEndEvent):
                return []
            if isinstance(ev, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                done = stack.pop()
                if stack:
                    _after_node(stack[-1], done[4])
                continue
            if not isinstance(ev, yaml.NodeEvent):
                continue
            line = ev.start_mark.line + 1
            path, is_key = _event_path(stack)
            nodes += 1
            if nodes > MAX_NODES:
                return [(_field(path), line, f"more than {MAX_NODES:,} values; data files must be smaller")]
            if isinstance(ev, yaml.AliasEvent):
                return [(_field(path), line, f"YAML aliases are not allowed (*{ev.anchor}): an alias repeats a "
                                             "value and aliases of aliases grow without bound; write the value out")]
            tag = getattr(ev, "tag", None)
            if tag is not None and tag not in ALLOWED_TAGS and tag not in _MERGE_TAGS:
                shown = "!!" + tag[len(_STD):] if tag.startswith(_STD) else tag
                return [(_field(path), line, f"invalid YAML: tag {shown} is not allowed; data files may use only "
                                             "the standard YAML types (no Python objects, no custom tags)")]
            if isinstance(ev, yaml.ScalarEvent):
                if is_key:
                    stack[-1][2] = ev.value
                if stack:
                    _after_node(stack[-1], is_key)
                continue
            if len(stack) >= MAX_DEPTH:  # a collection starts
                return [(_field(path), line, f"nested deeper than {MAX_DEPTH} levels; flatten the data")]
            if is_key:  # a list or mapping used as a key: refused when the tree is built
                stack[-1][2] = "?"
            stack.append([isinstance(ev, yaml.MappingStartEvent), True, 0, path, is_key])
    finally:
        loader.dispose()


def _event_path(stack: list[list[Any]]) -> tuple[tuple, bool]:
    """The field path of the next node, and whether it is a mapping key."""
    if not stack:
        return (), False
    is_map, expecting_key, cur, path, _ = stack[-1]
    if is_map:
        return (path if expecting_key else path + (cur,)), expecting_key
    return path + (cur,), False


def _after_node(frame: list[Any], was_key: bool) -> None:
    """Advance the enclosing collection past one finished node (a mapping's key, or a value)."""
    if frame[0]:
        frame[1] = not was_key
    else:
        frame[2] += 1


def _index_tree(loader: Any, root: yaml.Node, lines: dict[tuple, int]) -> list[tuple[str, int | None, str]]:
    """Fill ``lines`` (field path -> 1-based line) from the composed tree and find duplicate or unusable keys.

    The tree is walked with an explicit stack (no recursion); :func:`_scan_events` already bounded its size.
    """
    problems: list[tuple[str, int | None, str]] = []
    todo: list[tuple[yaml.Node, tuple, int | None]] = [(root, (), None)]
    while todo:
        node, path, key_line = todo.pop()
        lines[path] = key_line if key_line is not None else node.start_mark.line + 1
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, int] = {}
            for k, v in node.value:
                kline = k.start_mark.line + 1
                if not isinstance(k, yaml.ScalarNode):
                    problems.append((_field(path), kline, "a mapping key must be a plain value, not a list or mapping"))
                    continue
                if k.tag in _MERGE_TAGS:
                    todo.append((v, path + (k.value,), kline))
                    continue
                key = loader.construct_object(k)
                try:
                    first = seen.get(key)
                except TypeError:
                    first = None
                if first is not None:
                    problems.append((_field(path + (k.value,)), kline,
                                     f"duplicate key {k.value!r} (first at line {first}); a key may appear once"))
                    continue
                seen[key] = kline
                todo.append((v, path + (k.value,), kline))
        elif isinstance(node, yaml.SequenceNode):
            for i, v in enumerate(node.value):
                todo.append((v, path + (i,), None))
        elif node.tag == _STD + "int" and len(node.value) > MAX_INT_DIGITS:
            problems.append((_field(path), node.start_mark.line + 1,
                             f"integer with {len(node.value):,} digits; the limit is {MAX_INT_DIGITS}"))
    problems.sort(key=lambda p: p[1] or 0)
    return problems


def _yaml_problem(exc: yaml.YAMLError, text: str) -> tuple[str, int | None, str]:
    """The parser's error as one ``(field, line, reason)`` line."""
    if isinstance(exc, yaml.reader.ReaderError):  # a character YAML forbids; libyaml counts UTF-8 bytes
        upto = text.encode("utf-8", "surrogatepass")[: exc.position] if SAFE_LOADER is not yaml.SafeLoader else text[: exc.position]
        line = upto.count(b"\n" if isinstance(upto, bytes) else "\n") + 1
        return "", line, f"invalid YAML: character #x{exc.character:04x} at line {line}: {exc.reason}"
    mark = getattr(exc, "problem_mark", None)
    line = mark.line + 1 if mark is not None else None
    reason = " ".join(str(getattr(exc, "problem", None) or exc).split())
    return "", line, f"invalid YAML: {reason}"


def load_yaml(path: str | Path, text: str | None = None) -> tuple[Any, dict[tuple, int]]:
    """Read a YAML file safely and within bounds (see the module docstring for the limits).

    Args:
        path: the file to read (also used in error messages).
        text: the file's text, if already read (e.g. the front matter of a ``SKILL.md``).

    Returns:
        ``(data, lines)`` where ``lines`` maps a field path tuple (``("catalog", "products", 0, "price")``) to
        its 1-based line number.

    Raises:
        FileError: the file is missing, too large, not UTF-8, not valid YAML, uses aliases or foreign tags, nests
            too deeply, or repeats a key (the line, field and reason are given).
    """
    p = Path(path)
    if text is None:
        text = read_text(p)
    elif len(text) > MAX_FILE_BYTES:
        raise FileError(p, [("", None, f"text is larger than {MAX_FILE_BYTES:,} characters")])
    try:
        problems = _scan_events(text)
        if problems:
            raise FileError(p, problems)
        loader = SAFE_LOADER(text)
        try:
            node = loader.get_single_node()
            lines: dict[tuple, int] = {}
            if node is None:
                return None, lines
            problems = _index_tree(loader, node, lines)
            if problems:
                raise FileError(p, problems)
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        raise FileError(p, [_yaml_problem(exc, text)]) from None
    except (ValueError, OverflowError, RecursionError, MemoryError) as exc:
        if isinstance(exc, FileError):
            raise
        raise FileError(p, [("", None, f"invalid YAML: {type(exc).__name__}: {exc}")]) from None
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
