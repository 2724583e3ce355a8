"""Swapped numbers of one spec value: a value that states two or more numbers of one kind, each after its own label
("保温12小时、保冷24小时", "front 12 MP, rear 48 MP", "待机30天，通话8小时"), read with each number beside the label of
another ("保温24小时、保冷12小时", "a 48 MP front camera").

Each number of the reply is on its own a number the data states, so the number checker finds it true; here the label
right before or after it in its clause is read, and a number that is another label's number (and not its own) is
false. The labels are the data's own words, nothing is listed: a segment of the value (split at 、，,;；/) holding one
number of a dimension is that number's, and its label is its words a reply can name: a run of two or more Chinese
characters, or an English or Spanish word of three letters or more that no other segment of the value has.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import read_quantities
from hat_env.scoring.claims.amounts import eq
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab

#: What splits a spec value into segments, one number each ("保温12小时、保冷24小时", "front 12MP, rear 48MP").
_SEGMENT = re.compile(r"[、,，;；/|]|\s(?:and|y|e)\s")
#: Chinese measure words a count puts before its noun ("4个品茗杯").
_MEASURE = frozenset("个只件套片瓶盒袋支条双张块根包")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]{2,}")
_WORD = re.compile(r"[a-z\u00e0-\u00ff]{3,}")
#: Words that label nothing (function words, generic words of a measure).
_STOP = frozenset({"the", "and", "with", "for", "about", "around", "approx", "approximately", "hours", "hour",
                   "minutes", "days", "per", "each", "one", "two", "up", "con", "por", "para", "unos", "hasta",
                   "cada", "del", "las", "los", "una", "uno", "horas", "días", "dias", "aprox"})
#: What a label and its number may not have between them: a digit, or a mark that ends a clause other than a
#: colon ("· 保冷：12个小时" heads a list item with its label), or a word that joins two items ("10 days typical
#: and 20 hours with GPS": "typical" is the first item's label, not the second's)
_BREAK = re.compile(r"[\d，,。.;；!！?？\n()（）、和及与]|\b(?:and|or|plus|y|e|o)\b")
#: How far a label may stand from its number in the reply: characters between them, no digit, no clause end.
_GAP = {"zh": 3, "en": 12, "es": 12}


_CACHE: dict[tuple[str, int], tuple["Vocab", tuple[tuple[str, str, float, tuple[str, ...]], ...]]] = {}


def _labelled(value: str, locale: str, vocab: "Vocab") -> tuple[tuple[str, str, float, tuple[str, ...]], ...]:
    """:func:`_read_labelled`, cached per value and vocabulary."""
    key = (value, id(vocab))
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is vocab:
        return hit[1]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    out = _read_labelled(value, locale, vocab)
    _CACHE[key] = (vocab, out)
    return out


def _read_labelled(value: str, locale: str, vocab: "Vocab") -> tuple[tuple[str, str, float, tuple[str, ...]], ...]:
    """The labelled numbers of one spec value: ``(dim, label text, base value, label words)`` per segment holding
    exactly one number of its dimension, for dimensions with two or more such segments of distinct values; empty
    when the value has no such pairs."""
    text = normalize(value, locale).text
    segs: list[tuple[int, int]] = []
    pos = 0
    for x in _SEGMENT.finditer(text):
        segs.append((pos, x.start()))
        pos = x.end()
    segs.append((pos, len(text)))
    if len(segs) < 2:
        return ()
    qs = [q for q in read_quantities(normalize(value, locale), vocab, spec=True) if q.dim not in ("plain", "money")]
    found: list[tuple[str, str, float, set[str]]] = []
    for a, b in segs:
        inside = [q for q in qs if a <= q.start and q.end <= b]
        for dim in {q.dim for q in inside}:
            one = [q for q in inside if q.dim == dim]
            if len(one) != 1:
                continue
            q = one[0]
            rest = (text[a : q.start] + " " + text[q.end : b]).lower()
            if vocab.lang == "zh":
                # a run, and the run less a leading measure word ("个品茗杯" is also "品茗杯")
                runs = _CJK_RUN.findall(rest)
                words = set(runs) | {w[1:] for w in runs if w[0] in _MEASURE and len(w) >= 3}
            else:
                words = {w for w in _WORD.findall(rest) if w not in _STOP}
            if words:
                found.append((dim, text[a:b], q.base, words))
    out: list[tuple[str, str, float, tuple[str, ...]]] = []
    for dim in {f[0] for f in found}:
        group = [f for f in found if f[0] == dim]
        if len(group) < 2 or len({round(f[2], 4) for f in group}) < len(group):
            continue
        for k, (d, seg, base, words) in enumerate(group):
            others = {w for j, g in enumerate(group) if j != k for w in g[3]}
            own = tuple(sorted(w for w in words if w not in others and not any(w in o or o in w for o in others)))
            if own:
                out.append((d, seg, base, own))
    return tuple(out) if len({o[2] for o in out}) >= 2 else ()


def read_swapped_numbers(r: "Reading") -> None:
    """Record a false claim for each number of the reply said beside the label of another number of the same spec
    value of its product ("保温24小时" where the data says "保温12小时、保冷24小时")."""
    gap = _GAP.get(r.vocab.lang, 12)
    low = r.text.lower()
    for q in r.quantities:
        if q.dim in ("plain", "money"):
            continue
        i = r.clause_at(q.start)
        c = r.clauses[i]
        if c.question:
            continue
        pids, _how = r.subject(q.start, i)
        verdicts: list[tuple[str, str, str, float]] = []
        for pf in r.pfs(pids):
            for key, value in pf.product.specs.items():
                pairs = [p for p in _labelled(str(value), r.vocab.locale, r.vocab) if p[0] == q.dim]
                if not pairs:
                    continue
                best: tuple[tuple[int, int], tuple[str, str, float, tuple[str, ...]]] | None = None
                for p in pairs:
                    for w in p[3]:
                        lo_, hi_ = max(0, q.start - gap - len(w)), min(len(low), q.end + gap + len(w))
                        for x in re.finditer(re.escape(w), low[lo_:hi_]):
                            s, e = lo_ + x.start(), lo_ + x.end()
                            if r.vocab.lang != "zh" and (s > 0 and low[s - 1].isalpha() or e < len(low) and low[e].isalpha()):
                                continue
                            between = low[e : q.start] if e <= q.start else low[q.end : s] if q.end <= s else None
                            if between is None or len(between) > gap or _BREAK.search(between):
                                continue
                            rank = (len(between), 0 if e <= q.start else 1)  # a tie: the label before it
                            if best is None or rank < best[0]:
                                best = (rank, p)
                if best is None:
                    continue
                p = best[1]
                if eq(q.base, p[2]):
                    verdicts.append(("true", key, p[1], p[2]))
                elif any(eq(q.base, o[2]) for o in pairs if o is not p):
                    verdicts.append(("false", key, p[1], p[2]))
        if verdicts and all(v[0] == "false" for v in verdicts):
            _v, key, seg, _base = verdicts[0]
            pf0 = next(pf for pf in r.pfs(pids) if key in pf.product.specs)
            orig = r.m.original(q.start, q.end)
            r.claim(q.start, q.end, (pf0.pid,), f"spec:{key}", q.base, q.unit, True, "false",
                    f"{r.label(pf0.pid)}: '{orig}' is the number of another part of {key} '{pf0.product.specs[key]}'"
                    f" ('{seg}')", [(f"spec:{key}", pf0.pid), ("spec:*", pf0.pid), ("spec:unknown", pf0.pid)])


__all__ = ["read_swapped_numbers"]
