"""Quantities in spec values and replies: numbers with units ("1.5 kg", "22-44 lb", "24个月"), read with a unit
table that is data (the ``units`` of a catalog vocabulary, :mod:`hat_env.sim.vocabulary`), and compared across
units of one dimension ("2 years" equals "24 months", "10 kg" equals "22 lb" within :data:`REL_TOL`).

Only plain digits are read ("三年" is not a quantity here: spec values are written by scenario authors; the grader
normalises number words in replies before it compares).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

#: Relative tolerance of a quantity comparison: a converted, rounded figure ("22 lb" for 10 kg) still matches.
REL_TOL = 0.03

#: A number: digits with an optional decimal part, or thousands groups ("1,800", "12,000.5").
_NUM = r"\d{1,3}(?:,\d{3})+(?!\d|,\d)(?:\.\d+)?|\d+(?:\.\d+)?"
#: What joins the two ends of a range: "22-44", "5–7", "5~7", "5 to 7", "5至7", "5到7".
_RANGE_SEP = r"\s*(?:-|–|—|~|～|to|至|到)\s*"


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: its ``name`` (a key of the vocabulary's ``units``), ``dimension`` (units of one dimension
    convert), ``factor`` (how many of the dimension's base unit one of it is) and the ``words`` that write it."""

    name: str
    dimension: str
    factor: float
    words: tuple[str, ...]
    #: added after the factor (an offset scale: a degree Fahrenheit is 5/9 of a degree Celsius, 0 °F is -17.78 °C)
    offset: float = 0.0

    def to_base(self, x: float) -> float:
        """``x`` of this unit in the dimension's base unit (``x * factor + offset``)."""
        return x * self.factor + self.offset


@dataclass(frozen=True, slots=True)
class Quantity:
    """A number or a range read from a text: ``low``..``high`` (equal for a single number) in ``unit`` (``None``
    for a bare number), and the text it was read from (``span``: start and end offsets)."""

    low: float
    high: float
    unit: Unit | None
    span: tuple[int, int]

    @property
    def is_range(self) -> bool:
        """Whether the quantity is a range ("22-44 lb") rather than one number."""
        return self.low != self.high

    def in_base(self) -> tuple[float, float]:
        """``(low, high)`` in the dimension's base unit (as written when the quantity has no unit)."""
        if self.unit is None:
            return self.low, self.high
        return self.unit.to_base(self.low), self.unit.to_base(self.high)


def _word_pattern(w: str) -> str:
    esc = re.escape(w).replace(r"\ ", r"\s+")
    return esc + r"(?![A-Za-z])" if w[-1:].isascii() and w[-1:].isalpha() else esc


class UnitTable:
    """The units of a vocabulary and the one compiled pattern that reads quantities with them.

    Args:
        units: the units; a word may name one unit only (the first one listed keeps it).
    """

    def __init__(self, units: Iterable[Unit]):
        self.units: dict[str, Unit] = {}
        self._by_word: dict[str, Unit] = {}
        for u in units:
            self.units[u.name] = u
            for w in u.words:
                self._by_word.setdefault(w.casefold(), u)
        words = sorted(self._by_word, key=len, reverse=True)
        unit_alt = "|".join(_word_pattern(w) for w in words) if words else r"(?!x)x"
        self._re = re.compile(
            rf"(?<![\w.])({_NUM})(?:{_RANGE_SEP}({_NUM}))?(?:\s*({unit_alt}))?", re.IGNORECASE
        )

    def get(self, name: str) -> Unit | None:
        """The unit called ``name``, or ``None``."""
        return self.units.get(name)

    def quantities(self, text: str) -> list[Quantity]:
        """Every number or range in ``text``, with its unit when a unit word follows it, in order."""
        out = []
        for m in self._re.finditer(text):
            lo = float(m.group(1).replace(",", ""))
            hi = float(m.group(2).replace(",", "")) if m.group(2) else lo
            u = self._by_word.get(re.sub(r"\s+", " ", m.group(3)).casefold()) if m.group(3) else None
            out.append(Quantity(lo, hi, u, m.span()))
        return out


def same_amount(a: float, b: float, tol: float = REL_TOL) -> bool:
    """Whether two amounts in one base unit are equal within the relative tolerance ``tol``."""
    return abs(a - b) <= tol * max(abs(a), abs(b), 1e-9)


def same_quantity(a: Quantity, b: Quantity, default: Unit | None = None) -> bool:
    """Whether ``a`` and ``b`` state the same amount (both ends of a range): units of one dimension convert; a bare
    number is read in ``default`` (the attribute's unit), or compared as written when there is none."""
    ua, ub = a.unit or default, b.unit or default
    if ua is not None and ub is not None and ua.dimension != ub.dimension:
        return False
    def base(u: Unit | None, x: float) -> float:
        return u.to_base(x) if u is not None else x

    return same_amount(base(ua, a.low), base(ub, b.low)) and same_amount(base(ua, a.high), base(ub, b.high))


__all__ = ["Quantity", "REL_TOL", "Unit", "UnitTable", "same_amount", "same_quantity"]
