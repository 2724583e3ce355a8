"""Units of measure: which spec of a product a question that names a unit asks for ("how many watts" is the
air fryer's ``power`` because its value is "1700 W"; "de cuántos cm" the pan's ``size``, "28 cm").

The words are data (``data/units.yaml``, loaded safely): per canonical unit, the words a spec value writes after
its number and the words a viewer asks with. The catalog's side is read from the products' own spec values, so a
room's new spec key in a known unit needs no word list.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml

from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import alternation

_DATA = Path(__file__).with_name("data") / "units.yaml"


@lru_cache(maxsize=1)
def _units_data() -> dict[str, Any]:
    """``data/units.yaml`` as loaded (safely, once).

    Raises:
        ValueError: it is not a mapping with ``units`` (the message names the file).
    """
    with _DATA.open(encoding="utf-8") as fh:
        data: Any = yaml.safe_load(fh)
    if not isinstance(data, dict) or not isinstance(data.get("units"), dict):
        raise ValueError(f"{_DATA}: expected a mapping with 'units' (unit -> {{value, ask}})")
    return data


@lru_cache(maxsize=1)
def unit_tables() -> tuple[dict[str, str], re.Pattern[str], dict[str, str], re.Pattern[str]]:
    """``(value word -> unit, pattern of a number then a value word, asking word -> unit, pattern of the asking
    words)``, all folded; a Chinese asking word is matched only right after one of ``han_ask_after``.

    Raises:
        ValueError: ``data/units.yaml`` is not ``{han_ask_after: [...], units: {unit: {value: [...], ask:
            [...]}}}`` (the message names the file, the unit and the field).
    """
    data = _units_data()
    after = data.get("han_ask_after", [])
    if not isinstance(after, list) or not all(isinstance(w, str) and w.strip() for w in after):
        raise ValueError(f"{_DATA}: field 'han_ask_after': expected a list of words")
    value: dict[str, str] = {}
    ask: dict[str, str] = {}
    for unit, spec in data["units"].items():
        if not isinstance(spec, dict):
            raise ValueError(f"{_DATA}: unit {unit!r}: expected a mapping with 'value' and 'ask'")
        for field, table in (("value", value), ("ask", ask)):
            words = spec.get(field)
            if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
                raise ValueError(f"{_DATA}: unit {unit!r}, field {field!r}: expected a list of words")
            for w in words:
                table[fold(w.strip())] = str(unit)
    vals = sorted(value, key=len, reverse=True)
    value_re = re.compile(r"\d(?:[\d.,]*\d)?\s*(" + "|".join(re.escape(w) for w in vals) + r")(?![a-z])")
    latin = sorted(w for w in ask if w[:1].isascii())
    han = sorted(w for w in ask if not w[:1].isascii())
    parts = [alternation(latin)] if latin else []
    if han and after:
        pre = "|".join(re.escape(fold(w)) for w in sorted(after, key=len, reverse=True))
        parts.append(rf"(?:{pre})(?P<h>{'|'.join(re.escape(w) for w in sorted(han, key=len, reverse=True))})")
        # a Latin unit written right after a Chinese asking word asks it too ("支持多少W", "几mAh")
        short = sorted((w for w in value if w.isascii() and w.isalpha() and w not in ask), key=len, reverse=True)
        for w in short:
            ask.setdefault(w, value[w])
        if short:
            parts.append(rf"(?:{pre})\s*(?P<s>{'|'.join(re.escape(w) for w in short)})(?![a-z])")
    return value, value_re, ask, re.compile("|".join(parts) if parts else r"(?!x)x")


@lru_cache(maxsize=1)
def unit_dimensions() -> dict[str, str]:
    """Unit -> what it measures (``"mass"`` for kg and 斤), from ``data/units.yaml``'s optional ``dimension`` fields.

    Raises:
        ValueError: a unit's ``dimension`` is not a word (the message names the file and the unit).
    """
    out: dict[str, str] = {}
    for unit, spec in _units_data()["units"].items():
        dim = spec.get("dimension") if isinstance(spec, dict) else None
        if dim is None:
            continue
        if not isinstance(dim, str) or not dim.strip():
            raise ValueError(f"{_DATA}: unit {unit!r}, field 'dimension': expected a word")
        out[str(unit)] = dim.strip()
    return out


def same_dimension_keys(units: dict[str, frozenset[str]], unit: str) -> frozenset[str]:
    """The spec keys of one product (``units``: unit -> its keys in that unit, :func:`units_of`) whose value is in
    another unit of ``unit``'s dimension ("5kg" for a question in 斤); empty when the unit has no dimension."""
    dims = unit_dimensions()
    dim = dims.get(unit)
    if dim is None:
        return frozenset()
    return frozenset(k for u, ks in units.items() if u != unit and dims.get(u) == dim for k in ks)


def units_of(specs: Iterable[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Unit -> the spec keys whose value has a number in that unit, for one product's ``(key, value)`` specs."""
    value, value_re, _, _ = unit_tables()
    out: dict[str, set[str]] = {}
    for key, v in specs:
        for m in value_re.finditer(fold(v)):
            out.setdefault(value[m.group(1)], set()).add(key)
    return {u: frozenset(ks) for u, ks in out.items()}


def asked_units(folded: str) -> list[tuple[int, int, str]]:
    """``(start, end, unit)`` of each asking word of a unit in a folded comment (not right after a digit: "65w"
    and "250g" name a product or a size, they do not ask)."""
    _, _, ask, ask_re = unit_tables()
    out = []
    for m in ask_re.finditer(folded):
        g = "h" if m.groupdict().get("h") else "s" if m.groupdict().get("s") else 0
        a, b = m.span(g)
        if not (a > 0 and folded[a - 1].isdigit()):
            out.append((a, b, ask[m.group(g)]))
    return out


def stated_units(folded: str) -> list[tuple[int, int, str]]:
    """``(start, end, unit)`` of each number written with a unit in a folded comment ("38db", "28 in", "100w"): in a
    question about a product it asks whether the product's spec in that unit holds it ("fridge 38db really?")."""
    value, value_re, _, _ = unit_tables()
    return [(m.start(), m.end(), value[m.group(1)]) for m in value_re.finditer(folded)]


__all__ = ["asked_units", "same_dimension_keys", "stated_units", "unit_dimensions", "unit_tables", "units_of"]
