"""How close a stated quantity must be to the data: calendar conversions of times, approximate quantities,
ranges and values inside the data's ranges."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.amounts import EPS
from hat_env.scoring.claims.facts import NumFact
from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def convert_time(q: Quantity, dim: str) -> float | None:
    """A time in days/hours as months or the reverse, by the calendar's conventions (a month is 30 days, a year
    365 days): "a month to return it" for 30 days, "365 days of warranty" for 12 months; ``None`` when it does
    not convert to a whole number of the other dimension's units."""
    if q.dim == "time_m" and dim == "time_h":
        return q.value * 8760.0 if q.unit == "years" else q.base * 720.0
    if q.dim == "time_h" and dim == "time_m":
        days = q.base / 24.0
        if abs(days / 365.0 - round(days / 365.0)) < 1e-6 and days >= 365:
            return round(days / 365.0) * 12.0
        if abs(days / 30.0 - round(days / 30.0)) < 1e-6 and days >= 30:
            return float(round(days / 30.0))
    return None


def approximate(r: "Reading", q: Quantity, i: int) -> bool:
    """Whether the reply marks a (non-money) quantity as approximate ("about 540 g", "约30ml", "30ml左右")."""
    c = r.clauses[i]
    bef, aft = _approx_patterns(r.vocab.locale)
    before = r.text[max(c.start, q.start - 12) : q.start]
    after = r.text[q.end : min(c.end, q.end + 4)]
    return bool((bef is not None and bef.search(before)) or (aft is not None and aft.search(after)))


@lru_cache(maxsize=16)
def _approx_patterns(locale: str) -> tuple["re.Pattern[str] | None", "re.Pattern[str] | None"]:
    """The locale's ``approximate`` words split by where they stand: those anchored at the end of the text
    before a number, and those anchored at the start of the text after it (a sentence-final "~" after a number
    is a tone mark, not "about")."""
    from hat_env.scoring.claims.vocab import load_vocab

    words = [str(w) for w in load_vocab(locale).raw.get("approximate") or ()]
    aft = [w for w in words if w.startswith("^")]
    bef = [w for w in words if not w.startswith("^")]
    return (re.compile("|".join(bef), re.IGNORECASE) if bef else None,
            re.compile("|".join(aft), re.IGNORECASE) if aft else None)


#: How far an approximate quantity ("about half a kilo" for 540 g) may be from the data's value.
APPROX_TOLERANCE = 0.1


def range_fits(lo: float, hi: float, f: NumFact, facts: list[NumFact]) -> bool:
    """A range the reply states (``lo`` to ``hi``) against fact ``f``: inside one of the data's ranges when the
    data states one in that dimension ("25到30码" of "25-32码"; "25到34码" is not), else holding the data's value
    (a bound: "between $40 and $50" for 45)."""
    ranged = [g for g in facts if g.lo is not None]  # the data's ranges in this dimension (not an FAQ's one value)
    if ranged:
        return any(g.lo - EPS <= lo and hi <= g.value + EPS for g in ranged)
    return lo - EPS <= f.value <= hi + EPS


def within(v: float, f: NumFact, single: bool, approx: bool) -> bool:
    """A single value inside a range the data states ("a 12.9-inch iPad" on a stand that fits 4 to 13 inch), or
    an approximate value within :data:`APPROX_TOLERANCE` of the data's value."""
    if single and f.lo is not None and f.lo - EPS <= v <= f.value + EPS:
        return True
    return approx and f.value > 0 and abs(v - f.value) <= APPROX_TOLERANCE * f.value + EPS


__all__ = ["convert_time", "approximate", "range_fits", "within", "APPROX_TOLERANCE"]
