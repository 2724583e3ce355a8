"""Text with a map back to the original: every normalisation step keeps where each character came from.

A :class:`Mapped` text holds the normalised string and, for each of its characters, the span of the original
text it was made from. Steps replace pieces (:meth:`Mapped.replace`); spans compose, so a note can always quote
the reply as written (:meth:`Mapped.original`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable


@dataclass(frozen=True, slots=True)
class Mapped:
    """A normalised text and where each character came from.

    Attributes:
        text: the normalised text.
        source: the original text.
        starts: for each character of ``text``, the start offset in ``source`` of the piece that produced it.
        ends: for each character of ``text``, the end offset in ``source`` of that piece.
    """

    text: str
    source: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    @classmethod
    def of(cls, text: str) -> "Mapped":
        """The identity mapping of ``text`` (nothing normalised yet)."""
        idx = tuple(range(len(text)))
        return cls(text, text, idx, tuple(i + 1 for i in idx))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original text that produced ``text[start:end]`` (``(start, start)`` when empty)."""
        if not self.text:
            return (0, 0)
        start = max(0, min(start, len(self.text) - 1))
        if end <= start:
            s = self.starts[start]
            return (s, s)
        end = min(end, len(self.text))
        return (self.starts[start], max(self.ends[start:end]))

    def original(self, start: int, end: int) -> str:
        """The original text behind ``text[start:end]``, as written."""
        s, e = self.span(start, end)
        return self.source[s:e]

    def replace(self, pieces: Iterable[tuple[int, int, str]]) -> "Mapped":
        """A new mapping where each ``(start, end, new)`` piece of ``text`` (sorted, not overlapping) is replaced
        by ``new``; every character of ``new`` maps to the original span of the replaced piece."""
        out: list[str] = []
        st: list[int] = []
        en: list[int] = []
        pos = 0
        text, starts, ends = self.text, self.starts, self.ends
        changed = False
        for s, e, new in pieces:
            if s < pos or e < s:
                raise ValueError(f"pieces overlap or are out of order at {s}:{e}")
            out.append(text[pos:s])
            st.extend(starts[pos:s])
            en.extend(ends[pos:s])
            if e > s:
                o_s, o_e = starts[s], max(ends[s:e])
            else:  # an insertion: it maps to the character it precedes
                o_s = starts[s] if s < len(text) else (ends[-1] if ends else 0)
                o_e = o_s
            out.append(new)
            st.extend([o_s] * len(new))
            en.extend([o_e] * len(new))
            pos = e
            changed = True
        if not changed:
            return self
        out.append(text[pos:])
        st.extend(starts[pos:])
        en.extend(ends[pos:])
        return Mapped("".join(out), self.source, tuple(st), tuple(en))

    def map_chars(self, fn: Callable[[str], str]) -> "Mapped":
        """A new mapping where each character ``c`` becomes ``fn(c)`` (which may be longer, shorter or empty)."""
        pieces = []
        for i, ch in enumerate(self.text):
            new = fn(ch)
            if new != ch:
                pieces.append((i, i + 1, new))
        return self.replace(pieces) if pieces else self


__all__ = ["Mapped"]
