"""Times that are no attribute of a product: a deal's window ("the launch deal runs for ten minutes") and how
long a pack lasts at its daily dose ("一天一片大概能吃两个月")."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.facts import ProductFacts
from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def deal_time(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], pfs: list[ProductFacts],
               record_false: bool = True) -> bool:
    """A time in a clause about a deal ("the launch deal runs for the first ten minutes"): a deal of the product
    must last, have left, or end at that time (within a minute or 10%). Records the claim; returns whether the
    clause was about a deal that has a window."""
    t = r.room.t
    camps = [c for pf in pfs for c in (*pf.campaigns_active, *pf.campaigns_later)]
    if not camps:
        return False
    hours = [x / 3600.0 for c in camps for x in (c.end_s - c.start_s, c.end_s - t, c.end_s, c.start_s - t, c.start_s)
             if x > 0]
    ok = any(abs(q.base - h) <= max(1 / 60, 0.1 * h) for h in hours)
    if not ok and not record_false:
        return False
    orig = r.m.original(q.start, q.end)
    r.claim(q.start, q.end, pids, "deadline", q.base, q.unit, True, "true" if ok else "false",
            "" if ok else f"{r.label(pfs[0].pid)}: '{orig}' but no deal of it lasts, starts or ends then")
    return True


#: How far a stated supply duration may be from the pack's count over the daily dose (months differ in length).
SUPPLY_TOLERANCE = 0.15


def _dose_in(text: str, value: float, per_day: "re.Pattern[str]") -> bool:
    """Whether ``value`` stands in a data text right after a per-day word ("成人每天1片")."""
    k = text.find(f"{value:g}")
    return k > 0 and per_day.search(text[max(0, k - 6) : k]) is not None


def supply(r: "Reading", q: Quantity, i: int, pfs: list[ProductFacts]) -> bool:
    """"一天一片大概能吃两个月", "lasts about two months at one a day": a pack's count (its size or title) over the
    daily dose (a count after a per-day word in the reply's sentence, else in the product's FAQ) in days.
    Records a true or false claim and returns True; returns False (not read here) when no dose is known."""
    per_day, after = r.vocab.rx.get("per_day"), r.vocab.rx.get("per_day_after")
    if per_day is None:
        return False
    st_start = next(c.start for c in r.clauses if c.sentence == r.clauses[i].sentence)
    doses = [x.value for x in r.quantities if x.dim in ("count", "plain") and x.value > 0
             and st_start <= x.start and x.end <= r.clauses[i].end and x.start != q.start
             and (per_day.search(r.text[max(st_start, x.start - 6) : x.start])
                  or (after is not None and after.search(r.text[x.end : x.end + 12])))]
    for pf in pfs:
        packs = [f.value for f in pf.numbers if f.dim == "count" and f.value > 1
                 and (f.attr.startswith("spec:") or f.attr == "title")]
        dose = doses[-1] if doses else next((f.value for f in pf.numbers if f.attr == "faq" and f.dim == "count"
                                             and _dose_in(f.label, f.value, per_day)), None)
        if not packs or not dose:
            continue
        days = q.base / 24.0 if q.dim == "time_h" else q.base * 30.0
        ok = any(abs(days - n / dose) <= SUPPLY_TOLERANCE * (n / dose) for n in packs)
        orig = r.m.original(q.start, q.end)
        r.claim(q.start, q.end, (pf.pid,), "supply", days, "days", True, "true" if ok else "false",
                "" if ok else f"{r.label(pf.pid)}: '{orig}' but {packs[0]:g} at {dose:g} a day last {packs[0] / dose:g} days",
                [("spec:*", pf.pid), ("spec:unknown", pf.pid)] if ok else [])
        return True
    return False


__all__ = ["deal_time", "supply", "SUPPLY_TOLERANCE"]
