"""The room's catalog as the comment parser sees it: which words name which products, and which spec values each
product has.

A product is named by (all folded):

- Chinese: the 2-4 character pieces of its title's Chinese runs (``防晒`` of ``清透防晒霜``), the last character of
  each run with the noun suffix 子 (``裤子`` of ``牛仔裤``), and its brand;
- Latin script: its title's words and word pairs (``buds``, ``power bank``, ``powerbank``, ``s2``) and brand,
  except ordinary words (``common_words``) and the parser's keywords;
- every word of a product-noun concept (locale files, ``parser.nouns``) whose word its title holds: a title with
  ``Smartwatch`` is also ``watch``, ``手表``, ``reloj``, ``⌚``; one with ``鱼油`` is also ``fish oil``;
- what the room's vocabulary calls its category in the other locales (``categories.<key>.labels``: "phone case"
  for the 手机壳 of a zh room; an English plural also in the singular).

Also by sound (:func:`sound_name_table`: homophone typos of the Chinese names), by a size written in the title
("24 lb"), by a grade written across scripts ("jj级"); the room's gifts are named by :func:`gift_words`.

A word several products share names all of them (``花漾`` for both of its serums); the parser narrows it with
the next name or reads it as two products for a comparison. A piece that holds a keyword is never a name. Tables
are built once per catalog (cached by its content).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from hat_env.understanding.fold import fold, fuzzy_sound
from hat_env.understanding.lexicon import alternation, lexicon

#: the spec keys whose values are colours (a Spanish one also agrees in the feminine: "negra")
COLOUR_ATTRS = frozenset({"color", "colour", "colors", "colours", "shade", "shades", "tones"})
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
_WORD = re.compile(r"[a-z0-9][a-z0-9'-]*")
_CAMEL = re.compile(r"(?<![A-Za-z])[A-Z][a-z]+[A-Z][a-z]+(?![A-Za-z])")
_MODEL = re.compile(r"([a-z]{2,4})-?(\d{1,4}[a-z]?)")
_MIXED = re.compile(r"[a-z]{1,4}[\u3400-\u9fff]{1,2}|[\u3400-\u9fff]{1,2}[a-z]{1,4}")
_VALUE_SPLIT = re.compile(r"[、,，/;；|()（）\s]+|(?<=[\u4e00-\u9fff])[\d.%×x*]+|^[\d.%×x*-]+")


@dataclass(frozen=True)
class Entry:
    """One product: its link, and its spec keys and values (as given), and its category key ("dog_food")."""

    link: int
    title: str
    brand: str
    specs: tuple[tuple[str, str], ...]
    category: str = ""
    #: what the room's vocabulary calls its category, in each locale it labels ("phone case", "手机壳")
    labels: tuple[str, ...] = ()
    #: its FAQ's questions, folded (a viewer asking one names its product: :mod:`~hat_env.understanding.faq_names`)
    faq_q: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class Catalog:
    """The products of a room and the words that name them.

    Attributes:
        entries: the products.
        names: folded name -> the links it names.
        names_re: all names (``None`` without any).
        typo_names: Latin names of at least 5 letters (a typo of one names its products).
        spec_keys: link -> the product's spec keys.
        values: folded spec-value word -> ``(link, attr)`` pairs.
        values_re: all value words.
        specs_known: whether the products' specs are known (a catalog read from a prompt has titles only: a spec
            word then keeps its attribute instead of becoming ``"unknown"``).
    """

    entries: tuple[Entry, ...]
    names: dict[str, frozenset[int]]
    names_re: re.Pattern[str] | None
    typo_names: tuple[str, ...]
    spec_keys: dict[int, frozenset[str]]
    values: dict[str, tuple[tuple[int, str], ...]]
    values_re: re.Pattern[str] | None
    specs_known: bool = True
    #: link -> unit -> the product's spec keys whose value is in that unit (:mod:`hat_env.understanding.units`)
    units: dict[int, dict[str, frozenset[str]]] = field(default_factory=dict)

    def has_attr(self, link: int | None, attr: str) -> bool:
        """Whether product ``link`` has spec ``attr``."""
        return link is not None and attr in self.spec_keys.get(link, frozenset())


def _title_words(title: str) -> list[str]:
    return _WORD.findall(fold(title))


def _is_keyword(word: str, roles: dict[str, Any]) -> bool:
    rs = roles.get(word)
    return bool(rs) and any(r[0] in ("kind", "spec", "value", "cond", "qty", "deal") for r in rs)


def _han_keywords() -> tuple[str, ...]:
    lex = lexicon()
    return tuple(w for w in lex.roles if not w.isascii() and len(w) >= 2 and _is_keyword(w, lex.roles))


def _names_of(e: Entry) -> set[str]:
    """The names ``e`` is known by: pieces of its title and brand, and the words of each product noun its title
    has ("Smartwatch" is also "watch", "手表")."""
    lex = lexicon()
    t = fold(e.title)
    out: set[str] = set()
    for run in _HAN_RUN.findall(t):
        for n in range(2, 5):
            for i in range(len(run) - n + 1):
                out.add(run[i : i + n])
        if len(run) > 4:
            out.add(run)
        if len(run) >= 2 and run[-1] != "子":  # its head noun with the noun suffix ("裤子" of "牛仔裤", "被子" of "冬被")
            out.add(run[-1] + "子")
    b = fold(e.brand)
    if _HAN_RUN.fullmatch(b):
        out.add(b)
    for w in _CAMEL.findall(f"{e.brand} {e.title}"):  # a word in camel case is also two ("TrailPaw": "trail paw")
        parts = re.findall(r"[A-Z][a-z]+", w)
        if len(parts) == 2 and all(len(x) >= 3 for x in parts):
            out.add(" ".join(fold(x) for x in parts))
    for tok in t.split():  # a grade or model written across scripts names it ("jj级")
        if _MIXED.fullmatch(tok):
            out.add(tok)
    tw = _title_words(e.title)
    from hat_env.understanding.units import unit_tables

    unit_words = unit_tables()[0]
    for w in tw + _WORD.findall(b):
        if (len(w) >= 3 or any(c.isdigit() for c in w)) and not w.isdigit() and w not in unit_words:
            out.add(w)
    for w in tw:  # a hyphenated title word is also written with a space or none ("self cleaning", "french door")
        parts = [x for x in w.split("-") if x]
        if len(parts) > 1 and all(len(x) >= 2 and not x.isdigit() for x in parts):
            out.add(" ".join(parts))
            out.add("".join(parts))
    for w in tw:  # a model number is also written with a hyphen, a space or neither ("dx-20", "xr 500", "rs5")
        mm = _MODEL.fullmatch(w)
        if mm is not None:
            out.update(f"{mm.group(1)}{sep}{mm.group(2)}" for sep in ("", "-", " "))
    for a, c in zip(tw, tw[1:]):
        if not a.isdigit() and not c.isdigit() and f"{a} {c}" not in unit_words:  # "cu ft" is a unit
            out.add(f"{a} {c}")
            out.add(a + c)
        elif (a.isalpha() and len(a) >= 3 and c.isdigit() and len(c) <= 4 and a not in unit_words
              and a not in lex.common and not _is_keyword(a, lex.roles)):  # "SPF 50" is a value
            out.add(f"{a} {c}")  # a word and its model number ("Lumen 6", "Pixel 8"): "lumen 6", "lumen6"
            out.add(a + c)
    for m in unit_tables()[1].finditer(t):  # a size in the title names it ("the 24 lb bag", "5.8 qt")
        num = m.group()[: m.start(1) - m.start()].strip()
        if _WORD.fullmatch(m.group(1).replace(" ", "")) and not any(ch in num for ch in ",，"):
            out.add(f"{num} {m.group(1)}")
            out.add(f"{num}{m.group(1)}")
    for label in e.labels:  # what the room calls its category ("phone case" in a zh room, "duvets" -> "duvet")
        lw = fold(label).strip()
        if lw and len(lw) >= 2:
            out.add(lw)
            if lw.isascii() and lw.endswith("s") and len(lw) > 4:
                out.add(lw[:-1])
    out.update(_initials(t))
    own = {w for ws in lex.nouns.values() for w in ws}  # a title word that is a noun of its own ("dishwasher")
    ct = e.category.replace("_", " ").lower()  # a dog food is "dog food" whatever its title calls it
    cw = ct.split()
    for cid, words in lex.nouns.items():  # is not another one's compound ("washer")
        if any(_title_has(t, tw, w, own) or (ct and " " in w and _title_has(ct, cw, w)) for w in words):
            out.update(words)
            out.update(w.replace(" ", "") for w in words if w.isascii() and " " in w)  # "puppyfood", "catfood"
    return out


def _initials(title: str) -> set[str]:
    """Pinyin initials of a title's Chinese head nouns, as viewers abbreviate them ("cdb" for the 充电宝 of
    "磁吸充电宝"): the last three characters of each run of at least three, and a whole run of four; none that is
    an ordinary word."""
    from hat_env.understanding.fold import pinyin_of

    known = lexicon().known_words
    out: set[str] = set()
    for run in _HAN_RUN.findall(title):
        for piece in {run[-3:], run} if len(run) in (3, 4) else {run[-3:]} if len(run) > 4 else set():
            py = pinyin_of(piece)
            if py and all(py):
                abbr = "".join(x[0] for x in py)
                if abbr not in known:
                    out.add(abbr)
    return out


def _title_has(title: str, title_words: list[str], w: str, own: set[str] | frozenset[str] = frozenset()) -> bool:
    """Whether noun ``w`` is in the (folded) ``title``: a Latin word as a word, its plural, or the end of a
    compound ("smartwatch" has "watch") unless the compound is a noun of its own (``own``)."""
    if not w.isascii():
        return w in title
    if " " in w:
        return re.search(r"(?<![a-z])" + re.escape(w) + r"(?![a-z])", title) is not None
    return any(x == w or x == w + "s" or (len(w) >= 4 and x.endswith(w) and x not in own) for x in title_words)


def _value_words(v: str, colour: bool = False) -> list[str]:
    """The words of spec value ``v`` a viewer writes (``colour``: a colour, also in the feminine)."""
    out = []
    for piece in _VALUE_SPLIT.split(fold(v)):
        piece = piece.strip("-+.")
        if not piece or piece.replace(".", "").isdigit():
            continue
        for w in re.findall(r"[a-z][a-z0-9-]{1,}", piece):  # Latin words, also beside Chinese ("abs塑料"), and a
            out.append(w)  # plural also in the singular ("sulfates": "sulfate free")
            if len(w) > 4 and w.endswith("s") and not w.endswith("ss"):
                out.append(w[:-1])
            if colour and len(w) >= 4 and w.isalpha() and w.endswith("o") and not w.endswith("oo"):
                out.append(w[:-1] + "a")  # a Spanish colour agrees with its noun: "blanco", "la freidora blanca"
        for han in _HAN_RUN.findall(piece):  # each Chinese run ("浓缩+分离乳清": two); a long one also by its
            if len(han) >= 2:  # last two characters, its head ("莱赛尔天丝": "天丝", "广东东莞": "东莞")
                out.append(han)
            if len(han) >= 4:
                out.append(han[-2:])
    return out


@lru_cache(maxsize=64)
def _build(entries: tuple[Entry, ...], specs_known: bool = True) -> Catalog:
    lex = lexicon()
    han_kw = _han_keywords()
    by_name: dict[str, set[int]] = {}
    for e in entries:
        for w in _names_of(e):
            if w in lex.common or w in lex.name_stop or _is_keyword(w, lex.roles):
                continue
            if not w.isascii() and any(k in w for k in han_kw):
                continue
            by_name.setdefault(w, set()).add(e.link)
    names = {w: frozenset(s) for w, s in by_name.items()}
    names_re = re.compile(alternation(sorted(names), plural=True)) if names else None
    typo = tuple(sorted(w for w in names if w.isascii() and w.isalpha() and len(w) >= 5))
    values: dict[str, list[tuple[int, str]]] = {}
    for e in entries:
        for k, v in e.specs:
            for w in _value_words(v, k in COLOUR_ATTRS):
                if w in lex.common or (w.isascii() and len(w) < 3):
                    continue
                values.setdefault(w, []).append((e.link, k))
    vals = {w: tuple(dict.fromkeys(v)) for w, v in values.items()}
    values_re = re.compile(alternation(sorted(vals), plural=True)) if vals else None
    from hat_env.understanding.units import units_of

    return Catalog(entries, names, names_re, typo, {e.link: frozenset(k for k, _ in e.specs) for e in entries},
                   vals, values_re, specs_known, {e.link: units_of(e.specs) for e in entries})


def _labels(vocabulary: Any, category: str, locale: str | None) -> tuple[str, ...]:
    """The labels the room's ``vocabulary`` gives ``category`` in the locales other than the room's own ``locale``
    (its own titles name its products in its language; a category there is coarser than a product: "kayaks" for a
    paddle too); none without a vocabulary or a locale."""
    spec = vocabulary.category(category) if vocabulary is not None and category and locale else None
    return tuple(sorted({v for k, v in spec.labels.items() if k != locale})) if spec is not None else ()


def _entries(products: Iterable[Any], vocabulary: Any = None, locale: str | None = None) -> tuple[Entry, ...]:
    return tuple(Entry(int(p.link), str(p.title), str(getattr(p, "brand", "") or ""),
                       tuple((str(k), str(v)) for k, v in (getattr(p, "specs", None) or {}).items()),
                       str(getattr(p, "category", "") or ""),
                       _labels(vocabulary, str(getattr(p, "category", "") or ""), locale),
                       tuple(fold(str(getattr(x, "q", "") or "")) for x in (getattr(p, "faq", None) or ())))
                 for p in products)


def catalog_of(source: Any) -> Catalog | None:
    """The parser's view of ``source``: a :class:`Catalog` (returned as is), a room (anything with
    ``products``), or an iterable of products (objects with ``link``, ``title`` and optional ``brand`` and
    ``specs``). ``None`` gives ``None``."""
    if source is None or isinstance(source, Catalog):
        return source
    products = getattr(source, "products", source)
    return _build(_entries(products, getattr(source, "vocabulary", None), getattr(source, "locale", None)))


# the category is its key or the label the room's vocabulary gives it ("dog food", "狗粮")
_PROMPT_LINE = re.compile(r"link (\d{1,3}): (.+?) \(id [A-Za-z0-9_-]{1,40}, [^()\n]{1,60}\)")


def catalog_from_prompt(text: str) -> Catalog | None:
    """The catalog a model can read in a rendered system prompt (its ``- link N: TITLE (id X, category)`` product
    lines), or ``None`` when it lists no product. Titles only: brands and specs are not in the prompt."""
    found = {int(n): t.replace('\\"', '"') for n, t in _PROMPT_LINE.findall(text)}
    return catalog_from_titles(found)


def catalog_from_titles(titles: dict[int, str]) -> Catalog | None:
    """The catalog of products known by link and title alone (as a prompt lists them, whatever its wording), or
    ``None`` for no product. ``titles``: link -> title."""
    if not titles:
        return None
    return _build(tuple(Entry(n, t, "", ()) for n, t in sorted(titles.items())), specs_known=False)


@lru_cache(maxsize=64)
def sound_name_table(cat: Catalog) -> tuple[re.Pattern[str], dict[str, tuple[tuple[str, frozenset[int]], ...]]] | None:
    """The catalog's Chinese names of two characters or more by sound (fuzzy syllable codes,
    :func:`fold.fuzzy_sound`), longest first, and the names each sound stands for."""
    by: dict[str, list[tuple[str, frozenset[int]]]] = {}
    for w, links in cat.names.items():
        if len(w) < 2 or not all("\u4e00" <= c <= "\u9fff" for c in w):
            continue
        code = fuzzy_sound(w)
        if any("\u4e00" <= c <= "\u9fff" for c in code):  # a character without a reading
            continue
        by.setdefault(code, []).append((w, links))
    if not by:
        return None
    rx = re.compile("|".join(re.escape(k) for k in sorted(by, key=len, reverse=True)))
    return rx, {k: tuple(v) for k, v in by.items()}


def gift_words(campaigns: Any, cat: Catalog | None) -> tuple[str, ...]:
    """The words that name the gifts of the room's gift campaigns (folded): the end of each Chinese run of the gift
    text after the last product name in it ("冰袋", "发夹" of "同色系碎花发夹"; nothing of "同款精华"), Latin word
    pairs of three letters or more and words of five letters or more that are no product name, keyword or
    ordinary word ("catnip mouse", "cable")."""
    lex = lexicon()
    names = cat.names if cat is not None else {}
    out: set[str] = set()
    for c in campaigns:
        if getattr(c, "type", None) != "gift" or not getattr(c, "gift", None):
            continue
        g = fold(str(c.gift))
        for run in re.findall(r"[\u4e00-\u9fff]{2,}", g):
            for n in sorted((w for w in names if not w.isascii() and w in run), key=len, reverse=True):
                run = run.replace(n, " ")
            head = run.split()[-1] if run.strip() and not run.endswith(" ") else ""
            if len(head) >= 2 and head not in lex.roles:
                out.add(head)
        words = [w for w in re.findall(r"[a-z][a-z'-]*", g) if w not in lex.common and len(w) >= 3]
        out.update(f"{a} {b}" for a, b in zip(words, words[1:]))
        out.update(w for w in words if len(w) >= 5 and w not in names and w not in lex.roles)
    return tuple(sorted(out))


__all__ = ["Catalog", "Entry", "catalog_from_prompt", "catalog_from_titles", "catalog_of", "gift_words",
           "sound_name_table"]
