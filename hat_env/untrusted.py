"""Checks on values that come from models and agents, which are untrusted: JSON data, seconds, text.

A model writes garbage as often as not, and an agent adapter may hand over whatever its backend returned. The
request loop (:mod:`hat_env.harness.runtime`), the output parser (:mod:`hat_env.harness.parse`) and
:meth:`hat_env.types.Turn.of` read model output only through these checks, so that nothing a model or agent
sends can raise out of ``env.step``, put ``NaN`` into a score or make the JSONL trace invalid:

- :func:`json_problem`: is a value JSON data (what ``json.loads`` gives), finite, nested at most
  :data:`MAX_JSON_DEPTH` levels, with string keys (a cycle counts as too deep);
- :func:`loads`: ``json.loads`` that turns every failure (bad syntax, nesting past the interpreter's recursion
  limit, an integer past Python's digit limit) into one :class:`ValueError` with a message for the model;
- :func:`seconds_problem`: is a duration a real, finite number of seconds in ``[0, MAX_TURN_S]``;
- :func:`clean_text`: a string without lone surrogates (they cannot be written as UTF-8);
- :data:`MAX_OUTPUT_CHARS`, :data:`MAX_TOOL_CALLS`: the most one turn may hold.

This module imports nothing from the project (``hat_env.types`` uses it).
"""

from __future__ import annotations

import json
import math
import re
from numbers import Real
from typing import Any

#: Deepest nesting accepted in tool-call arguments and trace fields (a real tool call nests 2-4 levels).
MAX_JSON_DEPTH = 32
#: The longest model turn accepted, in seconds (a day; anything longer is a broken clock, not a slow model).
MAX_TURN_S = 86_400.0
#: The longest error text kept from an agent (an endpoint may put a whole HTML page in its error).
MAX_ERROR_CHARS = 2_000
#: The longest model output read, in characters (text, or one tool call's arguments); a longer one is refused
#: unread (a real output is a few thousand characters; this bounds the memory and time one turn can cost).
MAX_OUTPUT_CHARS = 1_000_000
#: The most tool calls one turn may make (a real turn makes one to five).
MAX_TOOL_CALLS = 64
#: Characters of a refused output kept in the conversation and the trace.
SHOWN_CHARS = 2_000

_SURROGATE = re.compile("[\ud800-\udfff]")


def clean_text(text: str) -> str:
    """``text`` with surrogate code points made valid: a high and low surrogate that form a pair become the
    character they encode, a lone one becomes U+FFFD. The same string (not a copy) when there are none."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def describe(value: Any) -> str:
    """A short, safe description of any value for an error message, never its full ``repr``: strings cut at 40
    characters, numbers as written (cut), containers and objects by their type name."""
    if isinstance(value, str):
        return repr(value[:40] + ("..." if len(value) > 40 else ""))
    if value is None or isinstance(value, bool):
        return "true" if value is True else "false" if value is False else "null"
    if isinstance(value, int):
        if value.bit_length() > 100:
            return f"an integer of {value.bit_length()} bits"
        return int.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value)
    return f"a {type(value).__name__}"


def json_problem(value: Any, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``value`` is not JSON data the env can use, or ``None`` when it is.

    JSON data is ``None``, ``bool``, ``int``, a finite ``float``, ``str``, a ``list`` of JSON data and a ``dict``
    with ``str`` keys and JSON data values, nested at most ``max_depth`` levels (containers inside containers).
    The walk stops at the first problem and never recurses deeper than ``max_depth + 1`` frames, so a cyclic or
    10,000-deep value is answered at once.

    Args:
        value: the value to check.
        max_depth: the deepest nesting accepted.

    Returns:
        A message naming where and what is wrong (``"at a.b[2]: ..."``), or ``None``.
    """

    def walk(v: Any, depth: int, where: str) -> str | None:
        t = type(v)
        if t is str or t is int or t is bool or v is None:
            return None
        if t is float:
            return None if math.isfinite(v) else f"at {where or 'the top'}: {v!r} is not a finite number"
        if t is dict or t is list:
            if depth >= max_depth:
                return f"at {where or 'the top'}: nested deeper than {max_depth} levels"
            if t is list:
                for i, x in enumerate(v):
                    got = walk(x, depth + 1, f"{where}[{i}]")
                    if got:
                        return got
                return None
            for k, x in v.items():
                if type(k) is not str:
                    return f"at {where or 'the top'}: the key {describe(k)} is not a string"
                got = walk(x, depth + 1, f"{where}.{k}" if where else k)
                if got:
                    return got
            return None
        return f"at {where or 'the top'}: {describe(v)} is not JSON data"

    return walk(value, 0, "")


def clean_json(value: Any) -> Any:
    """JSON data (already checked by :func:`json_problem`) with every string, keys included, made valid by
    :func:`clean_text`; the same object when no string needed it."""
    if type(value) is str:
        return clean_text(value)
    if type(value) is list:
        out = [clean_json(x) for x in value]
        return value if all(a is b for a, b in zip(out, value)) else out
    if type(value) is dict:
        items = [(clean_text(k), clean_json(x)) for k, x in value.items()]
        if all(k is k0 and x is x0 for (k, x), (k0, x0) in zip(items, value.items())):
            return value
        return dict(items)
    return value


def loads(text: str) -> Any:
    """``json.loads(text)`` with every failure as a :class:`ValueError` whose message suits the model.

    Raises:
        ValueError: not JSON (``"... at char N"``), nested past the interpreter's recursion limit, or a number
            Python refuses to read (an integer of more than 4,300 digits).
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{exc.msg} at char {exc.pos}") from None
    except RecursionError:
        raise ValueError("nested too deeply to read") from None
    except ValueError as exc:  # int() past sys.get_int_max_str_digits()
        raise ValueError(str(exc).split(";")[0]) from None


def seconds_problem(value: Any, name: str = "turn_seconds", max_s: float = MAX_TURN_S) -> str | None:
    """Why ``value`` is not a usable duration, or ``None`` when it is a real number in ``[0, max_s]``.

    ``bool`` is refused (``True`` is not one second); numpy and other :class:`numbers.Real` scalars are accepted.
    """
    if isinstance(value, bool) or not isinstance(value, Real):
        return f"{name} must be a number of seconds, got {describe(value)}"
    try:
        v = float(value)
    except (TypeError, ValueError, OverflowError):
        return f"{name} must be a number of seconds, got {describe(value)}"
    if not math.isfinite(v):
        return f"{name} must be a finite number of seconds, got {'NaN' if math.isnan(v) else v}"
    if v < 0:
        return f"{name} must not be negative, got {v:g}"
    if v > max_s:
        return f"{name} must be at most {max_s:g} s, got {v:g}"
    return None


def as_seconds(value: Any) -> float | int:
    """A duration that passed :func:`seconds_problem` as a plain ``int`` or ``float`` (the same object when it is
    one already, so traces of valid runs do not change)."""
    t = type(value)
    if t is float or t is int:
        return value
    return float(value)

