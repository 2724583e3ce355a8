"""Numbers with units in normalised text: value, unit, dimension, value in the dimension's base unit, ranges.

Works on a :class:`~hat_env.text.Mapped` text whose number words are already digits. Units come from the
locale's vocabulary (``units``: words after a number, currency signs before it). A bare number right after a
quantity in the same sentence takes that quantity's unit ("8 hours, 32 with the case"); the first number of a
range takes the unit of the second ("2 to 3 days", "2-3天"). Chinese money written ``129块9`` / ``5块9毛9`` reads
as 129.9 / 5.99; ``85折`` as 8.5折.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hat_env.scoring.claims.vocab import Unit, Vocab
from hat_env.text.offsets import Mapped

_NUM = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_GLUE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_RANGE = re.compile(r"\s*(?:-|~|to|至|到|或|or)\s*$", re.IGNORECASE)
_SENT = re.compile(r"[.!?。！？;；\n]")
#: What may stand between a quantity and a bare number that takes its unit: "8 hours, 32", "8 hours (32".
_LIST_GAP = re.compile(r"[\s,(/、+]*(?:and|or|with|up to|和|或|加|到)?[\s,(/、]*", re.IGNORECASE)
#: "a month", "an hour", "one year": the article counts as 1 before a time unit (not "once a day", "per hour").
_ONE_UNIT = re.compile(r"(?<!\bonce )(?<!\btwice )(?<!\btimes )(?<!\bper )(?<!\bpor )\b(an?|one|un|una|uno)\s+(?:full\s+|whole\s+)?"
                       r"(?=(?:year|month|week|day|hour|d[ií]a|hora|semana|mes|año)s?\b)", re.IGNORECASE)
#: A Han character after "元一"/"块一" that makes "一" one of a measure word ("168元一饼", "49.9元一箱"), not the
#: jiao digit ("三块一" = 3.1): any ideograph but the money and approximation words and 包 (包邮).
_PER_ONE = re.compile(r"[\u4e00-\u9fff](?<![毛分钱角多左右包])")
#: A minus sign before a temperature ("-7°C", "minus 7 °C", "menos 2 ºC"); a hyphen glued to a word is a range.
_MINUS = re.compile(r"(?:(?<![\w.])[-\u2212\u2013]|\b(?:minus|menos)\s+)$", re.IGNORECASE)
#: Words that may stand between a number and its unit without changing it ("2 full years", "8 whole hours").
_UNIT_FILLER = re.compile(r"\s+(?:full|whole|straight|entire|solid|long)(?=\s)", re.IGNORECASE)


@dataclass(slots=True)
class Quantity:
    """A number read from text.

    Attributes:
        value: the number as written (digits; ``85折`` gives 8.5).
        unit: the unit's name in the vocabulary (``money``, ``hours``, ``months``...), ``""`` for a bare number.
        dim: the unit's dimension (``money``, ``time_h``, ``time_m``, ``percent``, ``zhe``, ``count``, ``mass``...),
            ``plain`` for a bare number.
        base: the value in the dimension's base unit (days x 24 = hours, years x 12 = months, kg x 1000 = g).
        start: where the number starts in the normalised text.
        end: where the number and its unit end.
        lo: the lower end of a range (``2`` of ``2-3 days``), else ``None``.
        inherited: the unit was taken from a neighbouring quantity.
        more: written as "more than" the number ("300多件", "300+ units"): the number's order of magnitude above it.
    """

    value: float
    unit: str
    dim: str
    base: float
    start: int
    end: int
    lo: float | None = None
    inherited: bool = False
    more: bool = False


def _unit_after(vocab: Vocab, text: str, end: int) -> tuple[str, int] | None:
    """The unit right after a number ending at ``end``: ``(unit name, end of the unit)`` or ``None``."""
    m = vocab.unit_rx.match(text, end)
    if m is None or m.lastgroup is None:
        f = _UNIT_FILLER.match(text, end) if vocab.lang != "zh" else None
        if f is None:
            return None
        m = vocab.unit_rx.match(text, f.end())
        if m is None or m.lastgroup is None:
            return None
    u = m.group(m.lastgroup)
    e = m.end()
    # a unit word must not run into more letters ("hourse", "days" is fine: the regex took the whole word)
    if u and u[-1:].isalpha() and u.isascii() and e < len(text) and text[e].isascii() and text[e].isalpha():
        return None
    return m.lastgroup, e


#: What stands between the two numbers of a dimension (project code: fixed, linear).
_DIMS = re.compile(r"\s?(?:[×xX*]|乘以?|by)\s?")


_NEXT_WORD = re.compile(r"[ -]?([A-Za-z\u00c0-\u024f]{3,})")


def _own_noun(vocab: Vocab, text: str, end: int) -> bool:
    """Whether the number ending at ``end`` is followed by a noun it counts ("1700 watts, and four programs":
    four programs, not four watts): a word that is none of the locale's function words (``spec_labels_stop``,
    ``quantity_followers``).
    Chinese numbers take their measure words as units instead; one followed right away by another character
    counts that ("357克一饼": one cake, not one gram; "250克一罐")."""
    if vocab.lang == "zh":
        nxt = text[end : end + 1]
        return bool(nxt) and "\u4e00" <= nxt <= "\u9fff" and nxt not in _ZH_JOINERS
    w = _NEXT_WORD.match(text, end)
    if w is None:
        return False
    stop = {str(x).lower() for x in (*(vocab.raw.get("spec_labels_stop") or ()), *(vocab.raw.get("quantity_followers") or ()))}
    return w.group(1).lower() not in stop


#: Characters after a Chinese number that go on to another number or a bound, not a noun it counts.
_ZH_JOINERS = frozenset("到至和或与及加多左上以来余")


#: What joins the parts of a compound measure ("2 lb 6 oz", "6 ft 4 in", "1 h 30 min", "1 kg y 200 g").
_COMPOUND_GAP = re.compile(r"\s*(?:(?:and|y|,)\s*)?")
#: Dimensions whose measures are written in parts.
_COMPOUND_DIMS = frozenset({"mass", "length", "time_h", "time_m", "volume"})


def _compounds(text: str, qs: list[Quantity], units: dict[str, "Unit"]) -> list[Quantity]:
    """Merge a measure written in parts ("2 lb 6 oz" is 38 oz; "6 ft 4 in") into one quantity: a quantity of a
    smaller unit of the same dimension, less than one of the first unit, right after it."""
    out: list[Quantity] = []
    for q in qs:
        a = out[-1] if out else None
        if a is not None and a.unit and q.unit and a.unit != q.unit and a.dim == q.dim and a.dim in _COMPOUND_DIMS \
                and a.lo is None and units[q.unit].factor < units[a.unit].factor and 0 < q.base < units[a.unit].factor \
                and a.value.is_integer() and _COMPOUND_GAP.fullmatch(text[a.end : q.start]):
            ua = units[a.unit]
            a.base += q.base
            a.value = round((a.base - ua.offset) / ua.factor, 9)
            a.end = q.end
            continue
        out.append(q)
    return out


def read_quantities(m: Mapped, vocab: Vocab, spec: bool = False) -> list[Quantity]:
    """Every number of ``m.text`` with its unit (bare numbers too, as dimension ``plain``).

    Args:
        m: the normalised text.
        vocab: the locale's vocabulary (units, currency signs).
        spec: the text is data (a spec value, an FAQ answer): a bare number right after a quantity takes its
            unit even across brackets.

    Returns:
        The quantities in text order. Numbers glued to letters (``SPF50``, ``A1001``, ``IPX7``) are skipped.
    """
    text = m.text
    units = {u.name: u for u in vocab.units}
    units_dim = {u.name: u.dim for u in vocab.units}
    out: list[Quantity] = []
    ones = [(x.start(1), x.end(1)) for x in _ONE_UNIT.finditer(text)] if vocab.lang != "zh" else []
    matches: list[tuple[int, int, float]] = []
    for x in _NUM.finditer(text):
        s, e = x.span()
        if s and text[s - 1] == "." and s > 1 and text[s - 2].isdigit():
            continue
        if s and text[s - 1] in _GLUE:
            # glued to letters: a model or an id (SPF50, A1001, IPX7), unless money follows ("维C69元"), or a Chinese
            # numeral after a Latin word ("SUV两瓶": normalised to "SUV2瓶", a count, no code)
            ua = _unit_after(vocab, text, e)
            numeral = vocab.lang == "zh" and not any(ch.isdigit() for ch in m.original(s, e))
            if (ua is None or units_dim.get(ua[0]) != "money") and not numeral:
                continue
        g = x.group()
        matches.append((s, e, float(g.replace(",", ""))))
    for s, e in ones:
        matches.append((s, e, 1.0))
    matches.sort()
    consumed = 0
    for s, e, v in matches:
        if s < consumed:
            continue
        unit = ""
        end = e
        more = False
        ua = _unit_after(vocab, text, e)
        if ua is None and text[e : e + 1] in ("多", "+") and v >= 10:
            ua = _unit_after(vocab, text, e + 1)
            more = ua is not None
        if ua is not None:
            unit, end = ua
        else:
            pm = vocab.prefix_rx.search(text, max(0, s - 6), s)
            if pm is not None and pm.lastgroup:
                unit = pm.lastgroup
        if unit == "money" and vocab.lang == "zh" and v == 1 and text[e:end] == "块" and "count" in units \
                and m.original(s, e) == "一" and not re.match(r"\s*(?:钱|\d)", text[end:]):
            unit = "count"  # "送一块施工海绵", "海绵一块": a piece ("一块钱", "一块五" stay money)
        if unit == "money" and vocab.lang == "zh":
            # 129块9 / 5块9毛9 / 3毛
            cm = re.match(r"(\d)(?:毛(\d)?)?(?![\d.])", text[end:])
            if cm is not None and not cm.group(2) and _unit_after(vocab, text, end + cm.end()) is not None:
                cm = None  # "69元1瓶": a count, not cents
            elif cm is not None and cm.group(1) == "1" and not cm.group(2) and \
                    m.original(end, end + 1) == "一" and _PER_ONE.match(text, end + 1):
                cm = None  # "168元一饼", "49.9元一箱": the price of one (measure word), not 168.1
            if cm is not None and text[e:end] in ("块", "元"):
                cents = int(cm.group(1)) * 10 + (int(cm.group(2)) if cm.group(2) else 0)
                v = v + cents / 100.0
                end = end + cm.end()
        if unit == "metres" and vocab.lang == "zh" and v.is_integer():
            # 1米8: one metre eighty (a single digit after the unit, no unit of its own)
            dm = re.match(r"(\d)(?![\d.])", text[end:])
            if dm is not None and _unit_after(vocab, text, end + 1) is None:
                v = v + int(dm.group(1)) / 10.0
                end = end + 1
        if unit == "zhe" and v >= 10 and v < 100 and v.is_integer():
            v = v / 10.0
        if unit and units[unit].dim == "temperature":
            neg = _MINUS.search(text, max(0, s - 7), s)
            if neg is not None:  # below zero: the sign belongs to the number
                v, s = -v, neg.start()
        if unit:
            u = units[unit]
            q = Quantity(v, unit, u.dim, u.to_base(v), s, end)
        else:
            q = Quantity(v, "", "plain", v, s, end)
        q.more = more
        out.append(q)
        consumed = end
    out = _compounds(text, out, units)
    # ranges: "2 to 3 days", "2-3天": the first number takes the second's unit
    for a, b in zip(out, out[1:]):
        if a.unit == "" and b.unit and _RANGE.fullmatch(text[a.end : b.start] or "x"):
            u = units[b.unit]
            a.unit, a.dim, a.base, a.inherited = b.unit, u.dim, u.to_base(a.value), True
            b.lo = a.value
    # dimensions: "180乘30厘米", "20 x 30 cm": the first number takes the second's unit (a size, not money)
    for a, b in zip(out, out[1:]):
        if a.unit == "" and b.unit and b.dim != "money" and _DIMS.fullmatch(text[a.end : b.start] or "?"):
            u = units[b.unit]
            a.unit, a.dim, a.base, a.inherited = b.unit, u.dim, u.to_base(a.value), True
    # a bare number after a quantity in the same sentence takes its unit
    prev: Quantity | None = None
    gap_rx, money_gap_rx = vocab.rx.get("list_gap"), vocab.rx.get("money_list_gap")
    for q in out:
        if q.unit == "" and prev is not None and prev.unit == "money" and not spec and money_gap_rx is not None:
            gap = text[prev.end : q.start]
            # "1299 euros, y con el cupón 1279": the price after a deal said right after the price, its currency elided
            if money_gap_rx.fullmatch(gap) and "\n" not in gap and not _own_noun(vocab, text, q.end):
                u = units[prev.unit]
                q.unit, q.dim, q.base, q.inherited = prev.unit, u.dim, u.to_base(q.value), True
        elif q.unit == "" and prev is not None and prev.unit and prev.dim not in ("money",) or (
            q.unit == "" and prev is not None and prev.unit == "money" and spec
        ):
            assert prev is not None
            gap = text[prev.end : q.start]
            one = abs(prev.value - 1) < 1e-9 and not gap.strip()  # "一斤598": the price of one unit, not 598 斤
            listed = _LIST_GAP.fullmatch(gap) or (gap_rx is not None and gap_rx.fullmatch(gap))
            if listed and "\n" not in gap and not one and not _own_noun(vocab, text, q.end):  # a new line is a new item
                u = units[prev.unit]
                q.unit, q.dim, q.base, q.inherited = prev.unit, u.dim, u.to_base(q.value), True
        if q.unit:
            prev = q
    return out


__all__ = ["Quantity", "read_quantities"]
