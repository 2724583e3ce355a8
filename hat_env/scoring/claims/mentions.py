"""Which product a reply talks about, where: link numbers, link ranges, titles, brands, short names, orders.

Names come from the catalog: for English, the words of a product's title (and its brand) that no other
product's title or spec values use, plus reply words that end such a word ("watch" for "Smartwatch", "buds" for
"Earbuds"); for Chinese, the 2-4 character pieces of the title that no other title has. A word that several
products share never names one of them. The aliases of a room are computed once per catalog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.vocab import Vocab

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState

#: A name word: Latin letters with or without diacritics ("Sartén", "Sábanas", "Algodón"), so an accent does not cut
#: a Spanish (or any Latin-script) title word in two.
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ'-]*")
_HAN_RUN = re.compile(r"[\u3400-\u9fff]+")
#: A model code of a title ("G5", "M3", "UL2", "S2"): one to three letters, then digits, written as one token. A code
#: any product's spec values also write ("SPF50", "A2") is a value, not a name.
_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z]{1,3}\d{1,4}[A-Za-z]{0,2}(?![A-Za-z0-9])")
#: A size ending a title: a number and one or two short unit words ("4.5 cu ft", "24 lb", "24 in", "28 cm", "5 L").
_TRAILING_SIZE = re.compile(r"\s\d[\d.,]*\s*[^\W\d_]{1,5}(?:\s[^\W\d_]{1,5})?\s*$")


@dataclass(frozen=True, slots=True)
class Mention:
    """One reference to products in the normalised reply.

    Attributes:
        start: where it starts.
        end: where it ends.
        pids: the products it names (several for a range or "everything").
        how: ``link``, ``range``, ``name``, ``group`` or ``order``.
        order_id: the order named, for ``order`` mentions.
    """

    start: int
    end: int
    pids: tuple[str, ...]
    how: str
    order_id: str | None = None


#: A parenthesis ending a title ("... Miter Saw (Open Box)", "Impact Driver (Tool Only)").
_TRAILING_TAG = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def _stem(w: str) -> str:
    """A lower-case word without a possessive or plural ending."""
    w = w.lower().strip("'-")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 4 and w.endswith("es") and w[-3] in "sxz":
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        return w[:-1]
    return w


def _catalog_key(room: "RoomState") -> tuple:
    """What the names of a room depend on (cached per catalog)."""
    return tuple((p.product_id, p.link, p.title, p.brand, tuple(sorted(p.specs.items()))) for p in room.products)


@lru_cache(maxsize=64)
def _aliases(key: tuple, lang: str, stop: frozenset[str],
             heads: tuple[str, ...] = ()) -> tuple[dict[str, str], re.Pattern[str] | None]:
    """alias (lower-case) -> product id, and one regex for all aliases (longest first). An alias two products
    share, or that another product's spec values use, names neither. ``heads``: the locale's noun suffixes that,
    after the last character of a Chinese title run, name the product by its head noun (子, 果: "芒果" for "贵妃芒",
    "裤子" for "牛仔裤")."""
    counts: dict[str, set[str]] = {}
    #: alias -> the products whose brand alone (not their title) gives it
    brand_only: dict[str, set[str]] = {}
    spec_words: dict[str, set[str]] = {}
    for pid, _link, title, brand, specs in key:
        words: set[str] = set()
        derived: set[str] = set()
        if lang == "zh":
            for run in _HAN_RUN.findall(title):
                for n in range(2, 5):
                    for i in range(len(run) - n + 1):
                        words.add(run[i : i + n])
                if len(run) >= 2:
                    derived.update(run[-1] + h for h in heads if h != run[-1])
            words |= derived
            if brand and _HAN_RUN.fullmatch(brand):
                words.add(brand)
            for w in _WORD.findall(title):
                if len(w) >= 3:
                    words.add(_stem(w))
        else:
            # the name-like words of a title: its first word (a model or line name), its head noun (the last
            # word), its last two words as a phrase ("power bank"), and the brand; descriptors in between
            # ("Aluminum", "3-Port", "Wireless") are not names
            # the head noun is the last word before a trailing size: "cu ft" of "Washer 4.5 cu ft" is its capacity,
            # "washer" its name
            # a trailing parenthesis is a tag of its condition or kit ("(Open Box)", "(Tool Only)"), not its name:
            # "out of the box" names no miter saw
            head = _TRAILING_TAG.sub("", title) or title
            tail = _TRAILING_SIZE.search(head)
            tw = [w for w in _WORD.findall(head[: tail.start()] if tail else head) if len(w) >= 2] or \
                [w for w in _WORD.findall(title) if len(w) >= 2]
            # the first word that is not a stop word ("Juego de Sábanas ...": "sábanas")
            first = [w for w in tw if _stem(w) not in stop and w.lower() not in stop][:1]
            cands = [*tw[:1], *first, *tw[-1:], *_WORD.findall(brand)]
            for w in cands:
                s = _stem(w)
                if len(s) >= 3 and s not in stop:
                    words.add(s)
            if len(tw) >= 2:
                words.add(f"{_stem(tw[-2])} {_stem(tw[-1])}")
        words.update(c.lower() for c in _CODE.findall(title))
        # the aliases the title itself gives (its name-like words and codes; for Chinese, any piece of it), apart from
        # those only the brand gives: a brand word the title writes among its descriptors ("Nube" of "Juego de
        # Sábanas Nube Algodón", brand Nube like the towels) is still the brand's
        in_title = {_stem(w) for w in (tw[:1] + first + tw[-1:])} if lang != "zh" else {w for w in words if w in title}
        in_title |= {c.lower() for c in _CODE.findall(title)}
        if lang != "zh" and len(tw) >= 2:
            in_title.add(f"{_stem(tw[-2])} {_stem(tw[-1])}")
        for w in words:
            counts.setdefault(w, set()).add(pid)
            if w not in in_title and w not in derived:
                brand_only.setdefault(w, set()).add(pid)
        sw: set[str] = set()
        for _k, v in specs:
            for w in _WORD.findall(str(v)):
                sw.add(_stem(w))
            if lang == "zh":
                sw.add(str(v))
        spec_words[pid] = sw
    spec_text = " ".join(str(v) for *_x, specs in key for _k, v in specs).lower()
    out: dict[str, str] = {}
    for w, pids in counts.items():
        # a word one title uses and other products have only in their shared brand names the titled one: "Azahar" of
        # "Azahar de Sevilla Eau de Parfum" (brand "Casa Azahar"), not the house's other scent
        titled = pids - brand_only.get(w, set())
        if len(pids) > 1 and len(titled) == 1:
            pids = titled
        if len(pids) != 1 or w.lower() in stop:
            continue
        (pid,) = pids
        if any(w in sw for other, sw in spec_words.items() if other != pid):
            continue
        if _CODE.fullmatch(w) and re.search(rf"(?<![a-z0-9]){re.escape(w)}(?![a-z0-9])", spec_text):
            continue  # "SPF50" of "清透防晒霜 SPF50" is the SPF value its specs write, not a model name
        out[w.lower()] = pid
    if not out:
        return out, None
    alts = sorted(out, key=len, reverse=True)
    if lang == "zh":
        # a Latin model code inside Chinese text stands alone ("G5电竞椅"), never inside a longer code ("G50")
        rx = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(a)}(?![A-Za-z0-9])" if a.isascii() else re.escape(a)
                                 for a in alts), re.IGNORECASE)
    else:
        # a reply word ending a title word ("watch" for "smartwatch"): at least 4 letters
        rx = re.compile(r"\b(?:" + "|".join(re.escape(a).replace(r"\ ", r"\s+") + r"(?:e?s|'s)?" for a in alts) + r")\b",
                        re.IGNORECASE)
    return out, rx


@lru_cache(maxsize=64)
def _suffix_table(key: tuple, lang: str, stop: frozenset[str]) -> dict[str, str]:
    """Endings of name words that also name the product ("watch" of "smartwatch"), unless two products share one."""
    al, _ = _aliases(key, lang, stop)
    out: dict[str, str] = {}
    if lang == "zh":
        return out
    # a brand (or a title's first word, a brand or line name) is a proper name: its tail names nothing ("right" of
    # "Sealright", "well" of "Pourwell"); the tail of a title's common-noun compound does ("watch" of "Smartwatch")
    proper: set[str] = set()
    for _pid, _link, title, brand, _specs in key:
        ws = _WORD.findall(title)
        proper.update(_stem(w) for w in _WORD.findall(brand))
        if len(ws) > 1:
            proper.add(_stem(ws[0]))
    clash: set[str] = set()
    for a, pid in al.items():
        if a in proper:
            continue
        for i in range(1, len(a) - 3):
            suf = a[i:]
            if suf in out and out[suf] != pid:
                clash.add(suf)
            out.setdefault(suf, pid)
    for c in clash:
        out.pop(c, None)
    for a in al:
        out.pop(a, None)
    return out


#: Where a descriptor word of a title stands as a name: at the start of the reply or a clause, or after a determiner or
#: a joining word ("Sunscreen is $24", "the tint is $32", "Adult bag ...", "vs the impact driver").
_NAME_SLOT = re.compile(r"(?:^|[.!?,;:—–(/]\s*|\b(?:the|this|that|these|those|your|our|its|and|or|vs\.?|versus|plus|while|but)\s+)$",
                        re.IGNORECASE)


@lru_cache(maxsize=64)
def _descriptor_names(key: tuple, lang: str, stop: frozenset[str], others: tuple[str, ...]) -> dict[str, str]:
    """Title words between a title's first and last name word ("Sunscreen" of "SunVeil Mineral Sunscreen SPF 50",
    "Impact" of "... 1/4 in. Impact Driver (Tool Only)") that name one product when they stand as a noun phrase's
    first word (:data:`_NAME_SLOT`): four letters or more, in no other product's title, spec values or
    ``others`` (each product's FAQ and note text, so a word the room's data uses to describe things is no name),
    and not already a name."""
    if lang == "zh":
        return {}
    al, _ = _aliases(key, lang, stop)
    titles = _title_words(key)
    spec_words: dict[str, set[str]] = {pid: {_stem(w) for _k, v in specs for w in _WORD.findall(str(v))}
                                       for pid, _l, _t, _b, specs in key}
    text_words: dict[str, set[str]] = {pid: {_stem(w) for w in _WORD.findall(o)}
                                       for (pid, *_r), o in zip(key, others)}
    out: dict[str, str] = {}
    for pid, ws in titles.items():
        for w in sorted(ws):
            if len(w) < 4 or w in stop or w in al or any(w in t for o, t in titles.items() if o != pid):
                continue
            if any(w in sw for o, sw in spec_words.items() if o != pid) or \
                    any(w in tw for o, tw in text_words.items() if o != pid):
                continue
            out[w] = pid
    return out


#: (catalog key, language) -> descriptor names: the FAQ and note texts are read once per catalog, not per reply
_DESC: dict[tuple, dict[str, str]] = {}


def _descriptors_of(room: "RoomState", key: tuple, vocab: Vocab) -> dict[str, str]:
    """:func:`_descriptor_names` of ``room`` (catalog ``key``), cached per catalog and language."""
    k = (key, vocab.lang)
    got = _DESC.get(k)
    if got is None:
        if len(_DESC) > 64:
            _DESC.clear()
        got = _DESC[k] = _descriptor_names(key, vocab.lang, vocab.name_stopwords, _others_text(room))
    return got


def _others_text(room: "RoomState") -> tuple[str, ...]:
    """Each product's FAQ and after-sales note, in catalog order (what :func:`_descriptor_names` checks against)."""
    out = []
    for p in room.products:
        faq = " ".join(f"{f.q} {f.a}" for f in (getattr(p, "faq", None) or ()))
        note = getattr(getattr(p, "returns", None), "note", None) or ""
        out.append(f"{faq} {note}")
    return tuple(out)


def find_mentions(text: str, room: "RoomState", vocab: Vocab) -> list[Mention]:
    """Every product and order reference in the normalised reply ``text``, in order, overlaps resolved to the
    longest (a link range beats a link, a link beats a name inside it)."""
    by_link = room.by_link
    found: list[Mention] = []
    for rx in vocab.range_patterns:
        for m in rx.finditer(text):
            a, b = int(m.group(1)), int(m.group(2))
            if a < b <= a + 50:
                pids = tuple(by_link[k].product_id for k in range(a, b + 1) if k in by_link)
                if pids:
                    found.append(Mention(m.start(), m.end(), pids, "range"))
    more = vocab.rx.get("link_list_more")
    for rx in vocab.link_patterns:
        for m in rx.finditer(text):
            n = int(m.group(1))
            if n in by_link:
                found.append(Mention(m.start(), m.end(), (by_link[n].product_id,), "link"))
                end = m.end()
                while more is not None:
                    mm = more.match(text, end)
                    if mm is None or int(mm.group(1)) not in by_link:
                        break
                    found.append(Mention(mm.start(1), mm.end(), (by_link[int(mm.group(1))].product_id,), "link"))
                    end = mm.end()
    for g in vocab.all("group_words", text):
        found.append(Mention(g.start(), g.end(), tuple(p.product_id for p in room.products), "group"))
    key = _catalog_key(room)
    heads = tuple(str(h) for h in (vocab.raw.get("head_noun_suffixes") or ()))
    al, names = _aliases(key, vocab.lang, vocab.name_stopwords, heads)
    if names is not None:
        for m in names.finditer(text):
            w = m.group().lower()
            w = re.sub(r"\s+", " ", w)
            pid = al.get(w) or al.get(_stem(w)) or al.get(w.rstrip("s")) or al.get(" ".join(_stem(x) for x in w.split()))
            if pid is not None and m.start() > 0 and text[m.start() - 1].isdigit() and \
                    vocab.unit_rx.match(text, m.start()) is not None:
                continue  # "10斤装": the tail of a quantity, not "5斤装" of another title
            if pid is not None and vocab.lang != "zh" and " " not in w and _modified_by_other(text, m.start(), pid, key):
                continue  # "the adult chicken recipe": a word of another product's title before a bare head noun
            if pid is not None and vocab.lang == "zh" and len(w) == 2 and _straddles(text, m.start(), m.end()):
                continue  # "绒棉" inside "防绒棉布" (防绒/棉布): two characters of two words, not "长绒棉" of a title
            if pid is not None and " " not in w and w in _shared_attribute_words(room, pid) and \
                    (len(w) >= 3 or _labels_title_measure(room, pid, w)):
                continue  # "no sirve para inducción": the induction spec other products have, not "Sartén ... Inducción"
            if pid is not None:
                found.append(Mention(m.start(), m.end(), (pid,), "name"))
    if vocab.lang != "zh":
        desc = _descriptors_of(room, key, vocab)
        if desc:
            for m in _WORD.finditer(text):
                pid = desc.get(_stem(m.group()))
                if pid is not None and _NAME_SLOT.search(text[max(0, m.start() - 12) : m.start()]):
                    found.append(Mention(m.start(), m.end(), (pid,), "name"))
        suf = _suffix_table(key, vocab.lang, vocab.name_stopwords)
        if suf:
            subj = vocab.rx.get("subject_pronouns")
            for m in _WORD.finditer(text):
                s = _stem(m.group())
                if len(s) >= 4 and s in suf:
                    if subj is not None and subj.search(text, max(0, m.start() - 8), m.start()):
                        continue  # "it packs to 8 x 15 in": a verb after its subject, not "pack" of "backpack"
                    found.append(Mention(m.start(), m.end(), (suf[s],), "name"))
    low = text.lower()
    for oid, o in room.orders.items():
        i = low.find(oid.lower())
        while i >= 0:
            pids = (o.product_id,) if o.product_id in room.by_id else ()
            found.append(Mention(i, i + len(oid), pids, "order", oid))
            i = low.find(oid.lower(), i + 1)
    # a name inside an attribute's label is the label ("防晒" of "防晒指数", the SPF of the foundation)
    labels = [(m.start(), m.end()) for rx in vocab.attributes.values() for m in rx.finditer(text)
              if m.end() - m.start() >= 3]
    if labels:
        found = [f for f in found if f.how != "name" or not any(a <= f.start and f.end <= b and (a, b) != (f.start, f.end)
                                                                 for a, b in labels)]
        # a one-word name that is an attribute's word, with a measure of its own ("una batería de 5000 mAh", "5000
        # mAh de batería", "a 5000 mAh battery"), is that attribute, not the product titled with it ("Batería Externa")
        found = [f for f in found if f.how != "name" or (f.start, f.end) not in labels
                 or not (_MEASURE_AFTER.match(text, f.end) or _MEASURE_BEFORE.search(text, max(0, f.start - 24), f.start))]
    found.sort(key=lambda x: (x.start, -(x.end - x.start)))
    out: list[Mention] = []
    for f in found:
        if out and f.start < out[-1].end:
            continue
        if f.how == "name" and out and out[-1].how == "link" and f.pids != out[-1].pids \
                and _POSSESSIVE.fullmatch(text[out[-1].end : f.start]):
            continue  # "4号链接的防晒指数", "link 4's sunscreen rating": the name word is an attribute of that link
        out.append(f)
    return out


def _shared_attribute_words(room: "RoomState", pid: str) -> frozenset[str]:
    """The words and labels (lower-case, every locale) of the room's declared spec attributes that a product other
    than ``pid`` has: a title word of ``pid`` that is one of them ("Inducción" of "Sartén ... Inducción", when the
    moka pot has an ``induction`` spec too) speaks of that attribute, not of ``pid``."""
    voc = getattr(room, "vocabulary", None)
    attrs = getattr(voc, "attributes", None) or {}
    if not attrs:
        return frozenset()
    return _attribute_words_of(id(voc), tuple((p.product_id, tuple(sorted(p.specs))) for p in room.products),
                               pid, voc)


@lru_cache(maxsize=256)
def _attribute_words_of(_voc_id: int, keys: tuple, pid: str, voc) -> frozenset[str]:
    """:func:`_shared_attribute_words`, cached per vocabulary, the products' spec keys and ``pid``."""
    others = {k for p, ks in keys if p != pid for k in ks}
    out: set[str] = set()
    for name, a in voc.attributes.items():
        if name not in others:
            continue
        for ws in a.words.values():
            out.update(str(w).lower() for w in ws)
        out.update(str(lb).lower() for lb in a.labels.values())
    # two Chinese characters are a whole word ("净重", "单果"); Latin words need three letters
    return frozenset(w for w in out if len(w) >= 3 or (len(w) == 2 and _HAN_RUN.fullmatch(w)))


def _labels_title_measure(room: "RoomState", pid: str, w: str) -> bool:
    """Whether ``w`` (lower-case) labels a measure in ``pid``'s title: written right before a number there ("净重5斤",
    "单果4-5斤" of "泰国金枕榴莲 单果4-5斤"). Such a title word is the label of the product's net weight or fruit weight,
    not its name, so a reply's "2公斤净重" or "单果直径" names no product by it."""
    p = room.by_id.get(pid)
    if p is None:
        return False
    return re.search(re.escape(w) + r"\s*\d", p.title.lower()) is not None


def _straddles(text: str, s: int, e: int) -> bool:
    """Whether the two Chinese characters at ``[s, e)`` of ``text`` fall in two words of their run's segmentation
    (jieba): the characters end one word and start the next, so they name nothing."""
    a, b = s, e
    while a > 0 and _HAN_RUN.match(text, a - 1):
        a -= 1
    while b < len(text) and _HAN_RUN.match(text, b):
        b += 1
    if b - a < 4:
        return False
    from hat_env.text import segment

    pos = a
    for w in segment(text[a:b]):
        pos += len(w)
        if s < pos < e:
            return True
        if pos >= e:
            break
    return False


@lru_cache(maxsize=64)
def _title_words(key: tuple) -> dict[str, frozenset[str]]:
    """Each product's title words (stemmed, three letters or more)."""
    return {pid: frozenset(_stem(w) for w in _WORD.findall(title) if len(w) >= 3) for pid, _l, title, _b, _s in key}


def _modified_by_other(text: str, start: int, pid: str, key: tuple) -> bool:
    """Whether the word right before a one-word name at ``start`` is a title word of another product and not of
    ``pid`` ("chicken recipe" when only the chicken dog food's title says chicken): the modifier names that product."""
    # the word right before, with only spaces between ("Tablet stand: $24.99. Earbuds: ..." has none: the stand's
    # "stand" ends another sentence)
    prev = re.search(r"([A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ'-]*)\s+$", text[max(0, start - 30) : start])
    if prev is None:
        return False
    w = _stem(prev.group(1))
    words = _title_words(key)
    return len(w) >= 3 and w not in words.get(pid, frozenset()) and any(
        w in ws for other, ws in words.items() if other != pid)


#: A measure right after an attribute word ("batería de 5000 mAh", "battery: 5000 mAh") or right before it ("5000 mAh
#: de batería", "a 5000 mAh battery").
_MEASURE_AFTER = re.compile(r"\s*(?:de|of|:)?\s*(?:unos |unas |about |around |hasta |up to )?\d", re.IGNORECASE)
_MEASURE_BEFORE = re.compile(r"\d(?:[.,]\d+)?\s*[^\W\d_]{1,12}\s+(?:de\s+)?$", re.IGNORECASE)

#: What joins a product and its attribute: "4号链接的防晒指数", "link 4's sunscreen rating".
_POSSESSIVE = re.compile(r"\s*(?:的|之|'s|’s)\s*")


__all__ = ["Mention", "find_mentions"]
