"""Claims about a product's size chart (``size_chart``: :class:`hat_env.sim.after_sales.SizeChart`): "42码对应
26.5cm", "size 9 is 27 cm", "la talla 14 son 54 mm", "120码适合身高115到125cm".

A clause naming a size of its subject product's chart (any of the row's ``sizes``, matched as region names are,
:mod:`hat_env.sim.room_words`) is about that size: each length said in it (a measure of the length dimension,
in any unit the locale reads) is paired with the size named last before it (else the first after) and must lie
within that row's measure (its value, or its ``min``-``max``), within rounding (0.8%, a unit conversion's
rounding). A true one answers a spec question on the product; a false one is false. The size's own words ("size
9", "29码", "talla 14") are a name, not a number: claims read inside them are dropped. A clause naming no size
of the chart keeps its usual reading.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_in_clause
from hat_env.sim.after_sales import CHART_UNITS_MM
from hat_env.sim.room_words import regions_named
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: a decimal part right after a size name ("size 8.5" does not name "size 8")
_DECIMAL = re.compile(r"[.,]\d")
#: relative rounding allowed between a said length and the chart's
_TOL = 0.008


def read_size_charts(r: "Reading", stated: list[int]) -> None:
    """Judge every stated clause of ``r`` that names a size of its subject product's chart (see the module
    docstring)."""
    if not any(p.size_chart is not None for p in r.room.products):
        return
    for i in stated:
        _clause(r, i)


def _clause(r: "Reading", i: int) -> None:
    """Judge the lengths of clause ``i`` when it names a size of its subject product's chart."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    charted = [p for p in r.room.products if p.size_chart is not None]
    best = None
    for p in charted:
        rows = p.size_chart.rows  # type: ignore[union-attr]
        hits = [(k, s, e) for k, s, e in regions_named(ct, [[normalize(n, r.vocab.locale).text for n in row.sizes]
                                                             for row in rows]) if not _DECIMAL.match(ct, e)]
        if hits:
            pids, _how = r.subject(c0 + hits[0][1], i)
            if p.product_id in pids and (best is None or pids.index(p.product_id) < best[2]):
                best = (p, hits, pids.index(p.product_id))
    if best is None:
        return
    p, hits, _rank = best
    chart = p.size_chart
    assert chart is not None
    names = [r.m.span(c0 + s, c0 + e) for _k, s, e in hits]
    # the size's own words are its name: a number read inside them is no claim ("size 9", "29码", "talla 14")
    r.report.claims[:] = [x for x in r.report.claims if not (
        claim_in_clause(r, x, i) and any(a <= x.span[0] and x.span[1] <= b for a, b in names))]
    scale = CHART_UNITS_MM[chart.unit]
    keys = [("spec:*", p.product_id), ("spec:size", p.product_id)]
    for x in r.report.claims:
        if x.attribute != "length" or not claim_in_clause(r, x, i) or not isinstance(x.value, (int, float)):
            continue
        before = [h for h, sp in zip(hits, names) if sp[1] <= x.span[0]]
        k, s, e = before[-1] if before else hits[0]
        row = chart.rows[k]
        lo, hi = row.low * scale, row.high * scale
        v = float(x.value)
        ok = lo * (1 - _TOL) <= v <= hi * (1 + _TOL)
        size = r.m.original(c0 + s, c0 + e)
        want = f"{row.value:g} {chart.unit}" if row.value is not None else f"{row.min:g}-{row.max:g} {chart.unit}"
        x.verdict = "true" if ok else "false"
        x.reason = "" if ok else f"{r.label(p.product_id)}: '{x.text}' for {size} but its {chart.measure} is {want}"
        x.answers = frozenset(keys)


__all__ = ["read_size_charts"]
