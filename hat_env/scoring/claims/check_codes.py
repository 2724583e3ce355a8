"""Labelled numbers: versions, ratings and counted parts the catalog writes as a word and a number
("Bluetooth 5.3", "iOS 15 or later", "IPX7", "SPF50", "2x USB-C", "3-Port").

The labels are read from the room's own data, never from a list in code: a word directly before a number
(``bluetooth 5.3``, ``ipx7``) or a part counted with ``Nx`` / ``N-`` (``2x usb-c``, ``3-port``). A reply that
uses such a label with a number states that product's value: it is true when the product's data gives the label
that number (or a number it bounds: "iOS 15 or later" makes "iOS 16" true), false when the data gives it another
one ("Bluetooth 5.0" for 5.3, "IPX5" for IPX7, "three USB-C ports" for 2x USB-C), and unsupported when the reply
names the product and the product's data has no such label at all ("the charger is IPX4").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.sim.room import RoomState

#: ``label number`` (label-first: "bluetooth 5.3", "ipx7", "ios 15").
LABEL_NUMBER = re.compile(r"(?<![A-Za-z0-9])([A-Za-z][A-Za-z]{1,14})[ -]?(\d+(?:\.\d+)?)(?![\d.,]*\d)")
#: ``N x label`` / ``N-label`` in data ("2x USB-C", "3-Port").
_NUM_LABEL_DATA = re.compile(r"(?<![\d.])(\d+)(?:\s*[x×]\s*|-)([A-Za-z][A-Za-z]*(?:-[A-Za-z])?)(?![A-Za-z])")
#: ``N label`` in a reply ("2 USB-C ports", "3 ports", "2x USB-C").
_NUM_LABEL = re.compile(r"(?<![\d.])(\d+)(?:\s*[x×]\s*|-|\s+)([A-Za-z][A-Za-z]*(?:-[A-Za-z])?)(?![A-Za-z])")
#: A Latin letter next to a digit (the cheap test before the label tables are built).
_ANY = re.compile(r"[A-Za-z][ -]?\d|\d(?:\s*[x×]\s*|-|\s+)[A-Za-z]")
#: After a value in the data: the value is a lower bound ("iOS 15 or later", "Android 9+").
_BOUND = re.compile(r"^\s*(?:\+|or (?:later|newer|above|higher|up)|and (?:up|above|later)|以上)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class LabelValue:
    """One labelled number of a product's data: the number, whether it is a lower bound, and the spec key it
    came from (``None``: the title or an FAQ answer)."""

    value: float
    at_least: bool
    key: str | None


def _stem(w: str) -> str:
    """A lower-case label without a plural ``s``."""
    w = w.lower()
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def data_texts(p) -> list[tuple[str | None, str]]:  # noqa: ANN001 - a catalog Product
    """A product's data texts with the spec key each comes from."""
    return [(None, p.title), *((k, str(v)) for k, v in p.specs.items()), *((None, f.a) for f in p.faq)]


_GLUED_UNIT = re.compile(r"[A-Za-z%\"]")


def _has_unit(text: str, end: int, units: frozenset[str], locale: str | None = None) -> bool:
    """Whether the number ending at ``end`` carries a unit ("4000mAh", "22.5W", "20 hours", "3 años"): a
    quantity, not a labelled value. ``units`` are the locale's unit words; with ``locale`` a word is also a unit
    when one of the locale's unit patterns matches it whole (accented words: "años", a one-letter "W")."""
    if end < len(text) and _GLUED_UNIT.match(text, end):
        return True
    w = re.match(r"\s*([^\W\d_]+)", text[end : end + 16])
    if w is None:
        return False
    word = w.group(1).lower()
    if word in units or _stem(word) in units:
        return True
    return locale is not None and _unit_pattern(locale).fullmatch(word) is not None


@lru_cache(maxsize=16)
def _unit_pattern(locale: str) -> re.Pattern[str]:
    """The locale's unit words as one pattern, matched against a whole word."""
    from hat_env.scoring.claims.vocab import load_vocab

    return re.compile("|".join(f"(?:{u.words.pattern})" for u in load_vocab(locale).units), re.IGNORECASE)


@lru_cache(maxsize=64)
def _tables(key: tuple, stop: frozenset[str], units: frozenset[str], locale: str) -> tuple[
        dict[str, dict[str, list[LabelValue]]], dict[str, dict[str, list[LabelValue]]]]:
    """Per product id: label -> its values, for label-first numbers and for counted parts."""
    first: dict[str, dict[str, list[LabelValue]]] = {}
    counted: dict[str, dict[str, list[LabelValue]]] = {}
    for pid, texts in key:
        f: dict[str, list[LabelValue]] = {}
        c: dict[str, list[LabelValue]] = {}
        for k, text in texts:
            for m in LABEL_NUMBER.finditer(text):
                lab = m.group(1).lower()
                if lab in stop or lab in units or _has_unit(text, m.end(), units, locale):
                    continue
                if len(lab) < 4 and m.group(1).islower() and text[m.end(1)] == " ":
                    continue  # a short lower-case word before a number is a function word ("de 4"), not a code
                    # like "IP68", "iOS 15", "PD 3.0" (those carry a capital or are written glued)
                f.setdefault(lab, []).append(LabelValue(float(m.group(2)), bool(_BOUND.match(text[m.end():])), k))
            for m in _NUM_LABEL_DATA.finditer(text):
                lab = _stem(m.group(2))
                if lab in stop or lab in units:
                    continue
                c.setdefault(lab, []).append(LabelValue(float(m.group(1)), False, k))
        # the same parts counted in words elsewhere in its data ("from one USB-C port" in an FAQ answer)
        for k, text in texts:
            for m in _NUM_LABEL.finditer(normalize(text, locale).text):
                lab = _stem(m.group(2))
                if lab in c and not any(abs(x.value - float(m.group(1))) < 1e-6 for x in c[lab]):
                    c[lab].append(LabelValue(float(m.group(1)), False, k))
        first[pid] = f
        counted[pid] = c
    return first, counted


def _room_key(room: "RoomState") -> tuple:
    """What the label tables of a room depend on (cached per catalog)."""
    return tuple((p.product_id, tuple(data_texts(p))) for p in room.products)


def _unit_words(r: "Reading") -> frozenset[str]:
    """Words the locale reads as units (a unit is not a label: "20 hours")."""
    return _unit_words_of(r.vocab.locale)


@lru_cache(maxsize=16)
def _unit_words_of(locale: str) -> frozenset[str]:
    """:func:`_unit_words` of a locale (computed once)."""
    from hat_env.scoring.claims.vocab import load_vocab

    out: set[str] = set()
    for u in load_vocab(locale).units:
        for w in re.findall(r"[a-z]{2,}", u.words.pattern.lower()):
            out.add(w)
            out.add(_stem(w))
    return frozenset(out)


def _a_code_of(r: "Reading", said: str, pids: "tuple[str, ...]") -> bool:
    """Whether ``said``, letters glued to digits ("TR90"), is written so in the data of one of products ``pids``
    (the subject's or the asked ones'): a code or model name, no label with a number."""
    if not re.fullmatch(r"[A-Za-z]+\d+|\d+[A-Za-z]+", said):
        return False
    low = said.lower()
    return any(re.search(r"(?<![a-z0-9])" + re.escape(low) + r"(?![a-z0-9])", t.lower())
               for pf in r.pfs(tuple(dict.fromkeys(pids))) for _k, t in data_texts(pf.product))


def read_labelled_numbers(r: "Reading") -> None:
    """Check every labelled number of the reply against the data of the product it is about (appends claims)."""
    text = r.text
    if not _ANY.search(text):
        return  # no word next to a number: nothing labelled
    stop = frozenset(m.lower() for m in r.vocab.raw.get("spec_labels_stop") or ())
    units = _unit_words(r)
    first, counted = _tables(_room_key(r.room), stop, units, r.vocab.locale)
    labels_first = {lab for t in first.values() for lab in t}
    labels_counted = {lab for t in counted.values() for lab in t}
    if not labels_first and not labels_counted:
        return
    seen: list[tuple[int, int]] = []
    for rx, table, labels, num_group, lab_group in ((LABEL_NUMBER, first, labels_first, 2, 1),
                                                     (_NUM_LABEL, counted, labels_counted, 1, 2)):
        for m in rx.finditer(text):
            lab = m.group(lab_group).lower() if rx is LABEL_NUMBER else _stem(m.group(lab_group))
            if lab not in labels:
                continue
            s, e = m.span()
            if any(a < e and s < b for a, b in seen) or r.in_mention(s, e):
                continue
            if rx is LABEL_NUMBER and _has_unit(text, e, units, r.vocab.locale):
                continue
            seen.append((s, e))
            i = r.clause_at(s)
            if r.clauses[i].question or not claim_state(r, i, s):
                continue
            v = float(m.group(num_group))
            pids, how = r.subject(s, i)
            pfs = r.pfs(pids)
            if not pfs:
                continue
            have = [pf for pf in pfs if lab in table.get(pf.pid, {})]
            if how in ("clause", "group"):
                have = have[:1] if have and have[0] is pfs[0] else ([] if how == "clause" else have)
            if not have:
                if how == "clause" and not _a_code_of(r, text[s:e], (*r.scope, *pids)):
                    # "la montura es de TR90": a model code the data writes so is no label the data lacks
                    r.claim(s, e, (pfs[0].pid,), f"label:{lab}", v, "", True, "unsupported",
                            f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}': its data has no {lab}")
                continue
            good = [pf for pf in have if any(abs(x.value - v) < 1e-6 or (x.at_least and v >= x.value)
                                             for x in table[pf.pid][lab])]
            pf = (good or have)[0]
            keys = {x.key for x in table[pf.pid][lab]}
            answers = [(f"spec:{k}", pf.pid) for k in keys if k] + [("spec:*", pf.pid), ("spec:unknown", pf.pid)]
            if good:
                r.claim(s, e, (pf.pid,), f"label:{lab}", v, "", True, "true", "", answers)
            else:
                shown = ", ".join(f"{x.value:g}" for x in table[pf.pid][lab])
                r.claim(s, e, (pf.pid,), f"label:{lab}", v, "", True, "false",
                        f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but its data says {lab} {shown}", answers)


__all__ = ["LABEL_NUMBER", "LabelValue", "data_texts", "read_labelled_numbers"]


# the old private names, for code that still imports them
_LABEL_NUM = LABEL_NUMBER
_data_texts = data_texts
