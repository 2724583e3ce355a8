"""Spec values written next to their attribute's label ("材质是高硼硅玻璃", "是天然乳胶材质的", "成分是鼠李糖乳杆菌加
菊粉", "产地在东莞"): a room's own words, checked against that product's own value of the attribute.

The value words a locale or a room lists (``values`` of the claims vocabulary, the room's spec values) are read
by :func:`hat_env.scoring.claims.check_product._spec_values`; a room nobody wrote a word list for (a baby room's
PPSU bottle, a formula's ingredients) states values no list holds. Here the phrase the label introduces is
read instead, by the locale's ``label_value`` connectors (data in ``claims/vocab/<locale>.yaml``: words after
a label, "材质是 ...", and words before a value that the label follows, "是 ... 材质"), split into items ("A加B",
"A、B"), and each item is compared with the product's data by what they share: a Latin word, or two Chinese
characters in a row. An item that shares nothing with the product's value of that attribute, nor with any of
its data (title, specs, FAQ answers, note), is a false value; one that does is a true one (it answers a spec
question about the attribute). Numbers are left to the number checker, negated and hedged clauses assert
nothing here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

#: Declared attribute types whose values are not words (numbers, ranges and yes/no are read elsewhere).
_NOT_WORDS = frozenset({"number", "range", "bool"})

#: What splits a value phrase into items ("A加B", "A、B", "A/B", "A and B").
_ITEMS = re.compile(r"\s*(?:[、,，/+＋;；]|和|加|及|与|以及|\band\b|\bplus\b)\s*", re.IGNORECASE)
_LATIN = re.compile(r"[a-z][a-z0-9\-]*|[0-9]+[a-z]+[a-z0-9]*")
_CJK = re.compile(r"[\u3400-\u9fff]+")
_DIGIT = re.compile(r"\d")


def _pieces(s: str) -> set[str]:
    """What a phrase is compared by: its Latin words (``ppsu``, ``a2``) and its pairs of adjacent Chinese
    characters (``硅胶``, ``胶材``), lower-case."""
    low = s.lower()
    out = set(_LATIN.findall(low))
    for run in _CJK.findall(low):
        out |= {run[k : k + 2] for k in range(len(run) - 1)}
        if len(run) == 1:
            out.add(run)
    return out


@lru_cache(maxsize=8)
def _connectors(locale: str) -> tuple["re.Pattern[str] | None", ...]:
    """The locale's ``label_value`` words as patterns: ``after`` (a label, then one of them, then the value),
    ``before`` (one of them, the value, then the label), ``stop`` (what ends a value phrase), ``not_value``
    (words that make a phrase a sentence, not a value: pronouns, modal verbs); ``None`` where the locale lists
    none."""
    from hat_env.scoring.claims.vocab import load_vocab

    lv = load_vocab(locale).raw.get("label_value") or {}

    def alt(key: str) -> "re.Pattern[str] | None":
        words = sorted((str(w) for w in lv.get(key) or ()), key=len, reverse=True)
        return re.compile("|".join(map(re.escape, words)), re.IGNORECASE) if words else None

    return alt("after"), alt("before"), alt("stop"), alt("not_value")


def _labels(r: "Reading") -> dict[str, "re.Pattern[str]"]:
    """Attribute key -> its label pattern, for the attributes whose values are words: the locale's attribute
    words and the room's declared attributes (their labels and words), skipping numbers, ranges and yes/no."""
    from hat_env.scoring.claims.room_vocab import room_attributes

    out: dict[str, re.Pattern[str]] = {}
    for key, (rx, typ) in room_attributes(r).items():
        if typ not in _NOT_WORDS:
            out[key] = rx
    declared = getattr(getattr(r.room, "vocabulary", None), "attributes", {}) or {}
    for key, rx in r.vocab.attributes.items():
        a = declared.get(key)
        if key not in out and (a is None or a.type not in _NOT_WORDS):
            out[key] = rx
    return out


def _phrase(ct: str, m: "re.Match[str]", after: "re.Pattern[str] | None", before: "re.Pattern[str] | None",
            stop: "re.Pattern[str] | None") -> tuple[int, int] | None:
    """The value phrase a label match introduces in clause text ``ct``: after it, past one connector
    ("材质是X"), up to a stop word or the clause end; else before it, after a connector ("是X材质"). Its span in
    ``ct``, or ``None``."""
    if after is not None:
        c = after.match(ct, m.end())
        if c is not None:
            s = c.end()
            e = len(ct)
            if stop is not None:
                st = stop.search(ct, s)
                e = st.start() if st is not None else e
            if e > s:
                return s, e
    if before is not None:
        head = ct[: m.start()]
        cs = [c for c in before.finditer(head)]
        if cs:
            s = cs[-1].end()
            if 1 < m.start() - s <= 12:
                return s, m.start()
    return None


def _item_fits(item: str, value: set[str], data: set[str], value_text: str, data_text: str) -> bool:
    """Whether one item of a value phrase is said by the data: inside the value or the data text, or sharing a
    piece with the value (or with the product's other data)."""
    low = item.lower()
    if low in value_text or low in data_text or (value_text and value_text in low):
        return True
    p = _pieces(item)
    return not p or bool(p & value) or bool(p & data)


def _known_words(r: "Reading", key: str) -> set[str]:
    """The value words the locale's ``values`` and the room (its products' values, its declared set) give
    attribute ``key``, lower-case, two characters or more."""
    from hat_env.scoring.claims.room_vocab import room_values

    return {w for w in (*r.vocab.values.get(key, ()), *room_values(r, key)) if len(w) >= 2}


def read_labelled_values(r: "Reading", i: int) -> None:
    """Check the value phrases that follow or precede an attribute's label in clause ``i`` against the product's
    own value of that attribute; record a true or false ``spec:<key>`` claim for each."""
    after, before, stop, noval = _connectors(r.vocab.locale)
    if after is None and before is None:
        return
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    if r.cfind("honest_unknown", i) is not None:
        return
    for key, rx in _labels(r).items():
        known = _known_words(r, key)
        for m in rx.finditer(ct):
            if m.end() - m.start() < 2:
                continue  # a one-character word ("色", "装") is no label on its own
            if m.group().lower() in known:
                continue  # a value word that a locale also lists among the attribute's words ("干皮")
            span = _phrase(ct, m, after, before, stop)
            if span is None:
                continue
            s, e = span
            text = ct[s:e].strip()
            if not text or _DIGIT.search(text):
                continue  # numbers ("容量是240ml") are the number checker's
            if noval is not None and noval.search(text):
                continue  # "它适合", "都可以": words of a sentence, not a value
            pos = c0 + min(s, m.start())
            if not claim_state(r, i, c0 + m.start()) or not claim_state(r, i, c0 + s):
                continue
            pids, how = r.subject(pos, i)
            pfs = [pf for pf in r.pfs(pids) if key in pf.spec_text]
            if not pfs:
                continue
            # a value word the locale or the room lists ("纯棉") is _spec_values' to check, with its synonyms
            items = [x for x in _ITEMS.split(text) if x and x.strip() and not any(w in x.lower() for w in known)]
            if not items:
                continue
            bad: list[str] = []
            for pf in pfs:
                vt = pf.spec_text[key].lower()
                value, data = _pieces(vt), _pieces(pf.text)
                miss = [x for x in items if not _item_fits(x, value, data, vt, pf.text)]
                if not miss:
                    r.claim(c0 + s, c0 + e, (pf.pid,), f"spec:{key}", text, "", True, "true", "",
                            [(f"spec:{key}", pf.pid)])
                    break
                bad = bad or miss
            else:
                pf = pfs[0]
                r.claim(c0 + s, c0 + e, (pf.pid,), f"spec:{key}", bad[0], "", True, "false",
                        f"{r.label(pf.pid)}: '{r.m.original(c0 + s, c0 + e).strip()}' but {key} is "
                        f"'{pf.product.specs.get(key)}'", [(f"spec:{key}", pf.pid), ("spec:*", pf.pid)])
            break


__all__ = ["read_labelled_values"]
