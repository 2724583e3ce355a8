"""Which of its own spec keys a question about a product asks when no spec word names one: the key whose value (or
key name) the question's own words write ("夏凉被是天丝的么": the fabric is 莱赛尔天丝; "does this one do steam": a
program listed; "how long does the stove take to boil water": ``boil_time``). No word list: the room's data says.

A ``spec(attr="unknown")`` of a product becomes that key when exactly one of the product's keys shares the most
words with the clause, outside its product names: Latin words of three letters or more that are not common words
of a locale file, a number with its Chinese counter ("60支"), Chinese character pairs whose characters are not function characters.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.types import Intent
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Mention
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon import Lexicon

_LATIN = re.compile(r"[a-z\u00e0-\u00ff]{3,}")
_COUNTED = re.compile(r"\d+(?:\.\d+)?[\u4e00-\u9fff]")
_HAN_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")


def _words(text: str, lex: Lexicon) -> set[str]:
    """The content words of folded ``text`` (module docstring)."""
    out = {w for w in _LATIN.findall(text) if w not in lex.common and w not in lex.name_stop}
    out.update(_COUNTED.findall(text))  # "60支"
    for run in _HAN_RUN.findall(text):
        for i in range(len(run) - 1):
            pair = run[i:i + 2]
            if not any(ch in lex.function_chars for ch in pair) and pair not in lex.common:
                out.add(pair)
    return out


_CACHE: dict[tuple[int, int, int], tuple[tuple[str, frozenset[str]], ...]] = {}


def _key_words(cat: Catalog, link: int, lex: Lexicon) -> tuple[tuple[str, frozenset[str]], ...]:
    """``(key, words of its value and its name)`` per spec key of product ``link``."""
    ck = (id(cat), link, id(lex))
    if ck in _CACHE:
        return _CACHE[ck]
    if len(_CACHE) > 4096:
        _CACHE.clear()
    out = []
    for e in cat.entries:
        if e.link != link:
            continue
        for k, v in e.specs:
            out.append((k, frozenset(_words(fold(str(v)), lex) | {w for w in k.split("_") if len(w) >= 4})))
    _CACHE[ck] = tuple(out)
    return _CACHE[ck]


def resolve_unknown(f: str, found: list[tuple[int, Intent]], mentions: list[Mention], bounds: list[int],
                    cat: Catalog | None, lex: Lexicon) -> list[tuple[int, Intent]]:
    """``found`` with each ``spec(attr="unknown")`` of one product made the key its clause's words write, when one
    key of the product shares more of them than any other, and more than the words no spec of the product writes
("come with a water bladder" asks the bladder, not the material that is water-resistant); the others as they
are."""
    if cat is None or not cat.specs_known:
        return found
    out = []
    for p, it in found:
        if it.kind == "spec" and it.attr == "unknown" and it.link is not None:
            c = bisect_right(bounds, p)
            lo = bounds[c - 1] + 1 if c > 0 else 0
            hi = bounds[c] if c < len(bounds) else len(f)
            chars = list(f[lo:hi])
            for a, b, _, _ in mentions:
                for i in range(max(a, lo), min(b, hi)):
                    chars[i - lo] = " "
            words = _words("".join(chars), lex)
            if words:
                owned = {k for k, _ in _key_words(cat, it.link, lex) if any(x.attr == k and x.link == it.link
                                                                           for _, x in found)}
                scores = sorted(((len(words & ws), k) for k, ws in _key_words(cat, it.link, lex) if k not in owned),
                                reverse=True)
                every = set().union(*(ws for _, ws in _key_words(cat, it.link, lex)))
                if scores and scores[0][0] > 0 and (len(scores) == 1 or scores[1][0] < scores[0][0]) \
                        and len(words - every) < scores[0][0]:  # "come with a water bladder": the bladder is asked
                    out.append((p, Intent("spec", link=it.link, attr=scores[0][1])))
                    continue
        out.append((p, it))
    return out


__all__ = ["resolve_unknown"]
