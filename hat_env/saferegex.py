"""Linear-time regular expressions for every pattern that comes from data (google-re2).

Patterns written in data files (compliance rule ``patterns``, hook ``matcher``s, JSON Schema ``pattern`` and
``patternProperties`` in tool schemas) run against text a model or a viewer wrote. Python's ``re`` backtracks:
``^(a+)+$`` takes seconds on 27 characters and doubles with each one. RE2 runs in time linear in the text for any
pattern, so these patterns are compiled here, never with ``re``. RE2's syntax is Python's without lookaround
(``(?=``, ``(?!``, ``(?<=``, ``(?<!``) and backreferences (``\\1``); a pattern using them is refused with the
reason, which validation reports with the file, field and line.

In RE2, ``\\d``, ``\\s``, ``\\w`` and ``\\b`` are ASCII. :func:`python_classes` rewrites ``\\d``, ``\\s`` and
``\\w`` (and their negations) to the Unicode classes Python's ``re`` uses, for pattern languages that promise
Python's meaning (compliance rules: full-width digits and the ideographic space count). ``\\b`` stays an ASCII
word boundary.

Strings given to a pattern may hold lone surrogates (JSON ``"\\ud800"``); RE2 reads UTF-8, so :func:`clean`
replaces each with U+FFFD first (one character for one: offsets stay the same).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Iterable

import re2

#: Longest pattern accepted (characters): the shipped ones are under 300.
MAX_PATTERN_CHARS = 4000
#: Memory RE2 may use for one compiled pattern (its default; a pattern that needs more is refused).
MAX_MEM = 8 << 20

Regex = Any  # re2._Regexp: search / match / finditer / groupindex, like re.Pattern


class RegexError(ValueError):
    """A pattern is not accepted; the message gives the reason."""


def _options(ignorecase: bool, max_mem: int = MAX_MEM) -> "re2.Options":
    o = re2.Options()
    o.log_errors = False
    o.case_sensitive = not ignorecase
    o.max_mem = max_mem
    return o


def _reason(exc: Exception) -> str:
    msg = exc.args[0] if exc.args else exc
    if isinstance(msg, bytes):
        msg = msg.decode("utf-8", "replace")
    msg = str(msg)
    if "(?<" in msg or "(?=" in msg or "(?!" in msg:
        msg += " (lookaround is not supported: RE2 runs in linear time and has no lookahead or lookbehind)"
    elif any(f"escape sequence: \\{d}" in msg for d in "123456789"):
        msg += " (backreferences are not supported)"
    return msg


@lru_cache(maxsize=4096)
def compile(pattern: str, ignorecase: bool = False) -> Regex:  # noqa: A001 - mirrors re.compile
    """Compile ``pattern`` with RE2 (cached).

    Args:
        pattern: RE2 syntax (Python's without lookaround and backreferences).
        ignorecase: match case-insensitively (Unicode simple case folding).

    Returns:
        A compiled pattern with ``search``, ``match``, ``fullmatch``, ``finditer`` and ``groupindex`` like
        ``re.Pattern``; its match objects have ``group``, ``span``, ``start`` and ``end``.

    Raises:
        RegexError: not a string, longer than :data:`MAX_PATTERN_CHARS`, or not valid RE2 (the reason is given).
    """
    if not isinstance(pattern, str):
        raise RegexError(f"a regular expression must be a string, not {type(pattern).__name__}")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise RegexError(f"regular expression of {len(pattern):,} characters; the limit is {MAX_PATTERN_CHARS:,}")
    try:
        return re2.compile(pattern, _options(ignorecase))
    except re2.error as exc:
        raise RegexError(f"not a valid RE2 regular expression: {_reason(exc)}") from None


def compile_uncached(pattern: str, ignorecase: bool = False) -> Regex:
    """:func:`compile` without its cache, for a pattern built from data that changes from room to room (a catalog's
    product names): the caller keeps it as long as it needs it, and it never pushes the fixed patterns (rule packs,
    vocabularies) out of the shared cache nor holds RE2's native memory after the caller lets it go.

    Raises:
        RegexError: as :func:`compile`.
    """
    return compile.__wrapped__(pattern, ignorecase)


def problem(pattern: Any, ignorecase: bool = False) -> str | None:
    """Why ``pattern`` is refused, or ``None`` when :func:`compile` accepts it."""
    try:
        compile(pattern, ignorecase)
    except RegexError as exc:
        return str(exc)
    return None


def clean(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (same length, so match offsets are unchanged)."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)
    return text


def search(pattern: str, text: str, ignorecase: bool = False) -> Any:
    """``compile(pattern, ignorecase).search(clean(text))``: the first match or ``None``."""
    return compile(pattern, ignorecase).search(clean(text))


# -- Python's Unicode classes in RE2 --------------------------------------------------------------------------
# Python's \s is str.isspace(): \t-\r, \x1c-\x1f, space, \x85 and the Unicode separators (Z*: \xa0, \u1680,
# \u2000-\u200a, \u2028, \u2029, \u202f, \u205f, \u3000). \d is the decimal digits (Nd); \w letters, numbers and
# the underscore. tests/test_saferegex.py checks these against Python's re over every code point.
_SPACE = r"\t-\r\x{1c}-\x{20}\x{85}\p{Z}"
_DIGIT = r"\p{Nd}"
_WORD = r"\p{L}\p{N}_"
_IN_CLASS = {"d": _DIGIT, "s": _SPACE, "w": _WORD}
_OUTSIDE = {"d": _DIGIT, "s": f"[{_SPACE}]", "w": f"[{_WORD}]", "D": r"\P{Nd}", "S": f"[^{_SPACE}]",
            "W": f"[^{_WORD}]"}


def python_classes(pattern: str) -> str:
    """Rewrite ``\\d``, ``\\s``, ``\\w``, ``\\D``, ``\\S`` and ``\\W`` to the Unicode classes Python's ``re`` gives
    them, so an RE2 pattern keeps the meaning it has in Python.

    Args:
        pattern: RE2 syntax.

    Returns:
        The pattern with those escapes replaced (outside and inside ``[...]``); ``\\Q...\\E`` quoted text,
        ``\\p{..}`` and ``\\x{..}`` escapes are left alone.

    Raises:
        RegexError: ``\\D``, ``\\S`` or ``\\W`` inside a character class (write ``[^...]`` instead).
    """
    out: list[str] = []
    i, n = 0, len(pattern)
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\" and i + 1 < n:
            d = pattern[i + 1]
            if d == "Q":
                end = pattern.find("\\E", i + 2)
                end = n if end < 0 else end + 2
                out.append(pattern[i:end])
                i = end
                continue
            if d in "pPx" and i + 2 < n and pattern[i + 2] == "{":
                end = pattern.find("}", i + 3)
                end = n if end < 0 else end + 1
                out.append(pattern[i:end])
                i = end
                continue
            if d in _OUTSIDE:
                if in_class:
                    if d not in _IN_CLASS:
                        raise RegexError(f"\\{d} inside [...] is not supported; write a negated class [^...] instead")
                    out.append(_IN_CLASS[d])
                else:
                    out.append(_OUTSIDE[d])
                i += 2
                continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if in_class:
            if c == "[" and pattern.startswith("[:", i):  # [[:alpha:]]
                end = pattern.find(":]", i + 2)
                end = n if end < 0 else end + 2
                out.append(pattern[i:end])
                i = end
                continue
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            out.append(c)
            i += 1
            if i < n and pattern[i] == "^":
                out.append("^")
                i += 1
            if i < n and pattern[i] == "]":  # a leading ] is literal
                out.append("]")
                i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


class PatternSet:
    """Many patterns searched in one pass (RE2's ``Set``): which of them match somewhere in a text.

    Args:
        patterns: RE2 patterns (already accepted by :func:`compile`).
        ignorecase: match case-insensitively.

    RE2's set matcher runs a DFA that gives up when its memory runs out, and then reports nothing. A sentinel
    pattern that matches every text tells the two apart: when it is missing, :meth:`matching` answers ``None``
    ("unknown") and the caller checks each pattern itself.
    """

    def __init__(self, patterns: Iterable[str], ignorecase: bool = False):
        self._set = re2.Set.SearchSet(_options(ignorecase, 64 << 20))
        self.size = 0
        try:
            for p in patterns:
                self._set.Add(p)
                self.size += 1
            self._sentinel = self._set.Add(r"\z")
            self._set.Compile()
        except re2.error as exc:
            raise RegexError(f"cannot build the pattern set: {_reason(exc)}") from None

    def matching(self, text: str | bytes) -> set[int] | None:
        """The indices of the patterns that match somewhere in ``text`` (a :func:`clean` str, or UTF-8 bytes), or
        ``None`` when the matcher gave up (then any pattern may match)."""
        data = text.encode("utf-8") if isinstance(text, str) else text
        got = self._set.Match(data) or []
        if self._sentinel not in got:
            return None
        return {i for i in got if i != self._sentinel}
