"""Which of a product's own spec keys a spec question no spec word names asks, by what the question and the room's
data share.

A viewer asks about a room's own attributes in words no locale file lists: "sunscreen white cast?" (the product's
``finish`` says "slight white cast"), "kestrel pack fit a 21 inch torso?" (``torso_fit``), "毛毯能丢洗衣机不"
(``washing``: 可机洗). The parser first reads such a question as
``spec(attr="unknown")`` about the product; :func:`resolve_unknown_specs` then compares the words of the question's
part of the comment (without the product's name, question words and function words) with each of the product's
spec entries (the key's own words and the value) and gives the question the one key that shares the most with it:
Latin words (a plural is its singular), a number with its Chinese counter ("60支"), or two or more Han characters (one shared character, "片" of "60片", "色"
of a colour, says too little). Nothing is changed when no key shares enough or two keys tie: the question stays
``unknown`` (any true answer about the product serves it). A hyphenated word of a value ("USB-C", "cross-cut") is
also matched as a viewer writes it, a space or nothing for the hyphen ("is it usb c", "crosscut?").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.catalog import Catalog
from hat_env.understanding.clauses import Hit, Mention
from hat_env.understanding.fold import fold

_LATIN = re.compile(r"[a-z][a-z'-]*[a-z]|[a-z]")
_HAN = re.compile(r"[\u3400-\u9fff]")
#: a number with its Chinese counter ("60支"): a word of its own, the same in the question and the value
_COUNTED = re.compile(r"\d+(?:\.\d+)?[\u4e00-\u9fff]")

#: Latin words that say how a question is asked, not what it is about (English, Spanish)
_LATIN_STOP = frozenset("""
a an the is are was be been am do does did can could will would should shall may might must has have had it its
this that these those there here what which who whom how when where why whats wheres hows u ur you your yours i me
my we our they their them he she his her and or but if so too very just only any some much many more most also not
no yes yeah ok okay pls plz please thanks thx bro sis guys hey hi hello lol lmao omg of in on at to for from with w
by about into onto over under than then like get got gets one two still really actually even ever come comes came
go goes going gonna wanna need needs want wants know tell say said make made work works use used using fine good
bad right left new link lnk item number no
el la los las un una unos unas es son esta este estos estas eso esa ese y o pero si no que qué cómo como cuál cual
de del al en con sin por para se le lo me te mi tu su hay tiene tienen viene vienen puede pueden sirve vale va
muy más mas también tambien ya aun aún algo nada bien mal hola gracias porfa oye enlace link
""".split())

#: Han characters that say how a question is asked (question and function words, pronouns, measure words of
#: asking), never what it is about
_HAN_STOP = frozenset(
    "吗呢吧啊呀哦嘛么的了是不没有能会可以要用个几多少怎样什啥这那还就都也很太和跟与或请问一下点些上里"
    "我你他她它们咱主播宝家亲姐哥妹们求问想知道说看给买拍下单链接号款件"
    "大小好行对吃穿带")


def _latin_stem(w: str) -> str:
    """A Latin word without its plural ending ("initials" -> "initial", "batteries" -> "battery")."""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if len(w) > 3 and w.endswith("es") and w[-3] in "sxz":
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _same_word(a: str, b: str) -> bool:
    """Whether two stemmed Latin words are one word (equal, or one a 5+ letter start of the other: "waterproof"
    and "waterproofing"; not "water" and "water-resistant")."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    # a compound's first part is no word of its own ("water" of "water-resistant" asks nothing about the coating)
    return len(short) >= 5 and long_.startswith(short) and long_[len(short)].isalpha()


@lru_cache(maxsize=4096)
def _evidence(key: str, value: str) -> tuple[frozenset[str], frozenset[str]]:
    """The Latin word stems (of its key's own words, "torso_fit", and of its value), the counted numbers of its value
    ("60支") and the Han characters of its value a spec entry is written with. The vocabulary's words for the attribute are not evidence: the parser
    reads those already, and a question none of them names is about what the value says."""
    text = fold(f"{key.replace('_', ' ')} {value}")
    latin = frozenset(_latin_stem(w) for w in _LATIN.findall(text) if len(w) >= 3 and w not in _LATIN_STOP)
    han = frozenset(c for c in _HAN.findall(fold(value)) if c not in _HAN_STOP)
    return latin | frozenset(_COUNTED.findall(fold(value))), han


def _question_words(part: str, title: str, brand: str) -> tuple[set[str], set[str]]:
    """The Latin word stems and Han characters of the folded ``part`` of a comment that may say what is asked:
    without the product's title and brand words (Latin), the runs of two or more characters its title holds (Han:
    "冻干" of 冻干鸡胸肉粒, not the 猫 of 猫咪), question words and function words."""
    t = fold(f"{title} {brand}")
    title_words = {_latin_stem(w) for w in _LATIN.findall(t)}
    latin = {s for w in _LATIN.findall(part) if len(w) >= 3 and w not in _LATIN_STOP
             and (s := _latin_stem(w)) not in title_words}
    latin.update(_COUNTED.findall(part))  # "四件套是60支的吗": the yarn count, also when the title writes it
    named = [False] * len(part)
    for i in range(len(part) - 1):
        for n in (4, 3, 2):
            piece = part[i : i + n]
            if len(piece) == n and _HAN.fullmatch(piece[0]) and piece in t:
                for k in range(i, i + n):
                    named[k] = True
                break
    han = {c for i, c in enumerate(part) if _HAN.fullmatch(c) and not named[i] and c not in _HAN_STOP}
    return latin, han


#: a word of a value written with hyphens ("usb-c", "cross-cut", "p-4")
_COMPOUND = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+")


@lru_cache(maxsize=4096)
def _compounds(value: str) -> tuple[re.Pattern[str], ...]:
    """Patterns of the hyphenated words of a spec value as a viewer writes them: the parts joined by a hyphen, a
    space or nothing ("USB-C": "usb c", "usbc"; "cross-cut": "cross cut")."""
    return tuple(re.compile(r"(?<![a-z0-9])" + r"[\s-]?".join(map(re.escape, w.split("-"))) + r"(?![a-z0-9])")
                 for w in dict.fromkeys(_COMPOUND.findall(fold(value))) if any(c.isalpha() for c in w))


def _only_head(w: str, key: str, value: str) -> bool:
    """Whether the question word stem ``w`` is, of the spec entry ``key: value``, only the last part of a key of two or
    more parts ("level" of ``security_level``, "hours" of ``cold_hours``): the head noun a key shares with many
    questions, what the question asks the level or the hours of being said by its other words."""
    parts = [_latin_stem(x) for x in fold(key).split("_") if x]
    if len(parts) < 2 or not _same_word(w, parts[-1]):
        return False
    return not any(_same_word(w, _latin_stem(x)) for x in _LATIN.findall(fold(value)))


def best_key(part: str, entry: Any) -> str | None:
    """The spec key of ``entry`` (a :class:`~hat_env.understanding.catalog.Entry`) that the folded comment part
    ``part`` shares the most words (Latin) or characters (Han, two or more) with; ``None`` when none shares enough or
    two tie."""
    latin, han = _question_words(part, entry.title, entry.brand)
    if not latin and not han and not any(c.isalpha() for c in part):
        return None
    scores: list[tuple[int, str]] = []
    evidence = {key: _evidence(key, str(value))[0] for key, value in entry.specs}
    loose = {w for w in latin if not any(_same_word(w, e) for ev in evidence.values() for e in ev)}
    for key, value in entry.specs:
        ev_latin, ev_han = _evidence(key, str(value))
        shared_han = len(han & ev_han)
        shared = [w for w in latin if any(_same_word(w, e) for e in ev_latin)]
        if loose and shared and all(_only_head(w, key, str(value)) for w in shared):
            shared = []  # "what level of noise": "level" of security_level, the question about something else
        n = len(shared) + (shared_han if shared_han >= 2 else 0)
        n += sum(1 for c in _compounds(str(value)) if c.search(part))  # "is it usb c": "USB-C PD 22.5W"
        if n:
            scores.append((n, key))
    if not scores:
        return _typo_key(loose, entry)
    scores.sort(reverse=True)
    if len(scores) > 1 and scores[1][0] == scores[0][0]:
        return None
    return scores[0][1]


#: the shortest word a one-edit typo is read in ("colr" is too short to say which word it misspells)
_TYPO_MIN = 5


def _typo_key(latin: set[str], entry: Any) -> str | None:
    """The one spec key of ``entry`` a question word misspells a word of (one edit, rapidfuzz's Levenshtein
    distance, both words ``_TYPO_MIN`` letters or more and starting alike: "waterprof" of ``waterproof_rating``,
    "securty" of ``security_level``), when no key shares a word as written; ``None`` when none or two keys do.

    Args:
        latin: the question's Latin word stems (:func:`_question_words`) that are no word of any spec entry as
            written (a word a key shares is no typo of another key's word).
        entry: the product's catalog entry (its specs).
    """
    words = [w for w in latin if len(w) >= _TYPO_MIN and w.isalpha()]
    if not words:
        return None
    from rapidfuzz.distance import Levenshtein

    keys = {key for key, value in entry.specs
            if any(e[0] == w[0] and len(e) >= _TYPO_MIN and Levenshtein.distance(w, e, score_cutoff=1) <= 1
                   for w in words for e in _evidence(key, str(value))[0])}
    return next(iter(keys)) if len(keys) == 1 else None


def resolve_unknown_specs(f: str, found: list[tuple[int, Intent]], mentions: list[Mention], bounds: list[int],
                          cat: Catalog | None) -> list[tuple[int, Intent]]:
    """``found`` with each ``spec(attr="unknown")`` question about one product given the product's spec key its
    clause shares the most with (:func:`best_key`), when one does.

    Args:
        f: the folded comment.
        found: ``(position, intent)`` pairs read so far.
        mentions: the product mentions (their spans are blanked from the clause: a name says which product).
        bounds: the clause bounds.
        cat: the room's catalog (its entries' specs), or ``None`` (nothing changes).

    Returns:
        The pairs, in order, with resolved keys; an intent that would repeat one already there is left out.
    """
    if cat is None or not cat.specs_known or not any(
            it.kind == "spec" and it.attr == "unknown" and it.link is not None for _, it in found):
        return found
    entries = {e.link: e for e in cat.entries}
    out: list[tuple[int, Intent]] = []
    for p, it in found:
        e = entries.get(it.link) if it.kind == "spec" and it.attr == "unknown" and it.link is not None else None
        if e is not None and e.specs:
            c = bisect_right(bounds, p)
            a = bounds[c - 1] if c > 0 else 0
            b = bounds[c] if c < len(bounds) else len(f)
            part = list(f[a:b])
            for x, y, _, _ in mentions:
                for k in range(max(x, a), min(y, b)):
                    part[k - a] = " "
            key = best_key("".join(part), e)
            if key is not None:
                new = Intent("spec", link=it.link, attr=key)
                if not any(q == new for _, q in found):  # "battery life and can it get wet": a second question
                    it = new
        out.append((p, it))
    return out


def drop_idle_specs(f: str, hits: list[Hit], mentions: list[Mention], bounds: list[int], cat: Catalog | None,
                    lex: Any, vocabulary: Any = None) -> list[Hit]:
    """The keyword hits less the spec words that ask nothing of their own: one naming an attribute the product
    asked about lacks, when it is an emoji ("水彩送什么呀🎨": a decoration) or when its clause asks another
    attribute the product has ("¿vale para una niña de 6 años?" asks the age; "quién es la autora", the author).

    Args:
        f: the folded comment; hits: the keyword hits ``(start, end, type, value)``.
        mentions: the product mentions; bounds: the clause ends.
        cat: the room's catalog (nothing is dropped without one or with its specs unknown).
        lex: the compiled words; vocabulary: the room's catalog vocabulary, or ``None``.

    Returns:
        the hits, those spec words left out.
    """
    if cat is None or not cat.specs_known:
        return hits
    from hat_env.understanding.attributes import spec_attr
    from hat_env.understanding.clauses import is_emoji
    from hat_env.understanding.names import link_for

    def known(h: Hit) -> tuple[int, int | None, bool]:
        c = bisect_right(bounds, h[0])
        ln = link_for(h[0], c, mentions)
        return c, ln, spec_attr(cat, lex, ln, h[3], vocabulary) not in (None, "unknown")

    joints = [m.start() for m in lex.joint_re.finditer(f)]  # "size and warranty": two questions

    def one_part(a: Hit, b: Hit) -> bool:  # no joint between the two words
        lo, hi = min(a[1], b[1]), max(a[0], b[0])
        return (a[1] <= b[0] or b[1] <= a[0]) and not any(lo <= j < hi for j in joints)

    specs = {h: known(h) for h in hits if h[2] == "spec"}
    idle = set()
    for h, (c, ln, ok) in specs.items():
        if ok or ln is None or h[3] in lex.policy_attrs:  # "warranty" the product lacks is the shop's policy
            continue
        if all(is_emoji(ch) for ch in f[h[0]:h[1]]) or any(
                c2 == c and ln2 == ln and ok2 and one_part(h, h2) for h2, (c2, ln2, ok2) in specs.items()):
            idle.add(h)
    return [h for h in hits if h not in idle] if idle else hits
