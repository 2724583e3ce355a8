"""Claims read by how a clause matches the product's own data texts rather than by a word list:

- restating an FAQ answer or the after-sales note in other words ("叠了彩妆建议用卸妆产品" for "叠加彩妆时建议使用
  卸妆产品"): most of the clause's content words are the answer's words. Such a clause is true and answers a
  question about the product that the specs do not cover (an intent with ``attr`` unknown);
- the items of an enumerated spec value (shades, colours, ingredients: "01正红、02豆沙、03奶茶"): a reply that lists
  the product's items and adds one the data does not list ("正红、豆沙、奶茶、枫叶红") invents it, and a count it
  gives for them ("两个色号" for three) must be the number of items.

Words are jieba's for Chinese and letters-only tokens for other languages; nothing here is a phrase list.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state
from hat_env.text.cache import short_text_cache

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading

#: Share of a clause's content words that must be an answer's words for the clause to restate it.
RESTATE_SHARE = 0.6
#: Share of a policy note's content words a clause must hold to state the note's condition (a note is short
#: and its segmentation keeps stray pieces such as "后非").
NOTE_SHARE = 0.5
_LATIN = re.compile(r"[a-z]{3,}")
EN_STOP_WORDS = frozenset("the and for with you your our its it's this that are was can will just also from have has not "
                     "but they them then than into onto out any all one there here these those what which who".split())
_SPLIT = re.compile(r"[,、/，;；]|和|及|与|或| and | or ")
_CODE = re.compile(r"^\d{1,3}(?=[\u3400-\u9fff])")


#: single characters that are words of their own (not parts of a name jieba does not know)
_ZH_FUNCTION = frozenset("和与及或有是的了在也都就还很号个这那把被让给对从到跟同并且而不没无别吗呢吧啊哦呀哈啦嘛色款")
_CJK_ONE = re.compile(r"[\u3400-\u9fff]")


def _joined_singles(words: tuple[str, ...]) -> list[str]:
    """jieba's words with each run of two or more single Chinese characters that are no function words joined into
    one: a name jieba does not know ("雾霾蓝" cut as 雾/霾/蓝) is one content word, as in the data."""
    out: list[str] = []
    run: list[str] = []
    for w in (*words, ""):
        if len(w) == 1 and _CJK_ONE.match(w) and w not in _ZH_FUNCTION:
            run.append(w)
            continue
        if len(run) >= 2:
            out.append("".join(run))
        run = []
        if w:
            out.append(w)
    return out


@short_text_cache(maxsize=8192)
def content_words(text: str, lang: str) -> frozenset[str]:
    """The content words of ``text`` (lower-case): jieba words of two or more characters for Chinese, Latin
    words of three or more letters otherwise, without a few function words."""
    low = text.lower()
    if lang == "zh":
        from hat_env.text import segment

        return frozenset(w for w in _joined_singles(segment(low)) if len(w) >= 2 and not w.isdigit()
                         and re.search(r"[\u3400-\u9fffa-z]", w))
    return frozenset(w for w in _LATIN.findall(low) if w not in EN_STOP_WORDS)


def restates(clause: str, data: str, lang: str, negation: "re.Pattern[str] | None" = None, topic: str = "") -> bool:
    """Whether ``clause`` says what the data text ``data`` says in other words (see :data:`RESTATE_SHARE`), with
    the same polarity: a clause that negates what the data affirms (or the reverse) does not restate it.
    ``topic``: the question ``data`` answers (an FAQ's ``q``); a clause that repeats its words while giving the
    answer ("casi no sueltan pelusa tras el primer lavado" for "¿Sueltan pelusa?" / "Tras el primer lavado casi
    nada") restates it too. Polarity is the answer's alone (an A-not-A question holds a negation word)."""
    if negation is not None and bool(negation.search(clause)) != bool(negation.search(data)):
        return False
    cw = content_words(clause, lang)
    if len(cw) < 2:
        return False
    dw = content_words(data, lang) | (content_words(topic, lang) if topic else frozenset())
    hit = sum(1 for w in cw if w in dw or any(w in d or d in w for d in dw if len(d) >= 2 and len(w) >= 2))
    return hit >= 2 and hit / len(cw) >= RESTATE_SHARE


def covers_note(clause: str, note: str, lang: str, negation: "re.Pattern[str] | None" = None) -> bool:
    """Whether ``clause`` says the condition a policy note states, in other words and with its polarity: most
    of the note's content words (:data:`NOTE_SHARE`, at least two) are in the clause ("拆封后如果不是质量问题就
    不能退换了" for "拆封后非质量问题不支持退换"). A clause may add words of its own (如果, 就), unlike
    :func:`restates`, which measures the clause's share."""
    if negation is not None and bool(negation.search(clause)) != bool(negation.search(note)):
        return False
    nw = content_words(note, lang)
    if len(nw) < 2:
        return False
    cw = content_words(clause, lang)
    hit = sum(1 for w in nw if w in cw or any(w in c or c in w for c in cw if len(c) >= 2))
    return hit >= 2 and hit / len(nw) >= NOTE_SHARE


def restated_data(r: "Reading", i: int, pf: "ProductFacts") -> bool:
    """Whether clause ``i``, or the sentence holding it, restates one of ``pf``'s FAQ answers or its after-sales
    note (an answer said over clauses: "它更偏油皮和混合皮，干皮也可以用，上妆前先做好保湿就行" for "更适合油皮和混合皮，
    干皮建议先做好保湿再上妆")."""
    ct = r.ctext(i)
    pairs = [(f.a, f.q) for f in pf.product.faq] + ([(pf.product.returns.note, "")] if pf.product.returns.note else [])
    neg = r.vocab.rx.get("negation")
    if any(restates(ct, t, r.vocab.lang, neg, q) for t, q in pairs):
        return True
    if _one_part_said(r, ct, [t for t, _q in pairs]):
        return True
    st = r.stext(i)
    return st != ct and any(restates(st, t, r.vocab.lang, neg, q) for t, q in pairs)


_PART = re.compile(r"[,.;:!?，。；：！？]")


def _one_part_said(r: "Reading", clause: str, answers: list[str]) -> bool:
    """Whether a clause of one content word is, word for word, a whole part of one of the ``answers`` (an FAQ
    answer split at its punctuation), with the same polarity: "不透的" for "有半身内衬，不透。". A bare yes or no
    (the locale's ``yes_reply`` / ``no_reply``: "可以的", "不会") names nothing and restates no answer."""
    lang = r.vocab.lang
    cw = content_words(clause, lang)
    if len(cw) != 1:
        return False
    low = clause.lower()
    if r.vocab.find("yes_reply", low) is not None or r.vocab.find("no_reply", low) is not None:
        return False
    neg = r.vocab.rx.get("negation")
    for a in answers:
        for part in _PART.split(a):
            if content_words(part, lang) == cw and (neg is None or bool(neg.search(part)) == bool(neg.search(clause))):
                return True
    return False


def read_restatements(r: "Reading", i: int) -> None:
    """A stated clause that restates an FAQ answer (or the note) of the product it is about: a true claim that
    answers questions the specs do not cover."""
    if r.clauses[i].question:
        return
    c = r.clauses[i]
    pids, _how = r.subject(c.start, i)
    # the clause's own subject or a product asked about (a generic word like "洁面" may name another product)
    good = [pf for pf in r.pfs(dict.fromkeys((*pids, *r.scope))) if restated_data(r, i, pf)]
    if good:
        ct = r.ctext(i)
        neg = r.vocab.rx.get("negation")
        # a restated after-sales note ("final sale once installed") answers the after-sales question too
        notes = [pf for pf in good if pf.product.returns.note and restates(ct, pf.product.returns.note, r.vocab.lang, neg)]
        r.claim(c.start, c.end, tuple(pf.pid for pf in good), "faq", ct.strip(), "", True, "true", "",
                [a for pf in good for a in (("spec:unknown", pf.pid), ("spec:*", pf.pid))]
                + [("after_sales", pf.pid) for pf in notes])


def _affix(parts: list[str]) -> tuple[str, str]:
    """The prefix and suffix every part shares ("碎花" of "蓝底碎花、黑底碎花")."""
    import os

    pre = os.path.commonprefix(parts)
    suf = os.path.commonprefix([p[::-1] for p in parts])[::-1]
    return pre, suf


def _items(value: str) -> list[str]:
    """The items of an enumerated value, lower-case, with and without a leading code ("02豆沙", "豆沙") and
    without the affix all items share ("蓝底" of "蓝底碎花、黑底碎花")."""
    out: list[str] = []
    parts = [p.strip() for p in _SPLIT.split(value.lower()) if p.strip()]
    cores = [_CODE.sub("", p) for p in parts]
    pre, suf = _affix(cores) if len(cores) >= 2 else ("", "")
    for p, core in zip(parts, cores):
        out.append(p)
        head = re.split(r"[(（]", p)[0].strip()
        if head != p and len(head) >= 2:
            out.append(head)  # "鱼油" of "鱼油（EPA、DHA）": the item without what its brackets add
        if core != p and len(core) >= 2:
            out.append(core)
        bare = core[len(pre) : len(core) - len(suf)] if len(core) - len(pre) - len(suf) >= 1 else core
        if bare != core and len(bare) >= 1 and (len(pre) + len(suf)) >= 2:
            out.append(bare)
    return out


def read_enumerations(r: "Reading", i: int, key: str, pf: "ProductFacts", s: int, e: int) -> bool:
    """Check the list of ``pf``'s ``key`` items said in clause ``i`` (see the module docstring); returns whether a
    false claim was recorded."""
    value = pf.spec_text.get(key)
    if not value:
        return False
    parts = [p for p in _SPLIT.split(value) if p.strip()]
    if len(parts) < 2:
        return False
    items = _items(value)
    # Chinese lists stay inside a clause (、和及与 join items, commas end clauses); English lists cross the
    # clause words ("silver, space gray and rose gold"), and their invented values are the known-values check's
    low = (r.ctext(i) if r.vocab.lang == "zh" else r.stext(i)).lower()
    hits = [(low.find(x), x) for x in sorted(items, key=len, reverse=True) if x in low]
    if not hits:
        return False
    last_end = max(p + len(x) for p, x in hits)
    tail = low[last_end:]
    # an item after the last listed one, joined by a list separator: "奶茶、枫叶红", "烟酰胺和视黄醇"
    m = re.match(r"\s*(?:、|和|及|与|/|还有)\s*(\d{0,3}[\u3400-\u9fff]{2,6}?)(?=$|[、,，和及与/\d~～。!！?？\s]|(?:个|种|款|色号|颜色))",
                 tail) if r.vocab.lang == "zh" else None
    if m is None and r.vocab.lang == "zh":
        # or before the first listed one: "成分是鼠李糖乳杆菌和低聚果糖"
        first = min(p for p, _x in hits)
        m = re.search(r"(?:^|[是有含为：:，,\s])(\d{0,3}[\u3400-\u9fff]{2,8})\s*(?:、|和|及|与|/)\s*$", low[:first])
    if m is None and r.vocab.lang == "zh":
        # or in the clause next to it, joined by a list word: "香辣、五香、原味，还有孜然味的"; "有核桃的，还有腰果和榛子"
        m = _item_next_door(r, i, low, hits)
    if m is not None and claim_state(r, i, s):
        extra = m.group(1).strip()
        named = any(extra in x or x in extra for x in items)
        attr = r.room.vocabulary.attributes.get(key)
        label = (attr.labels.get(r.vocab.locale) or "").lower() if attr is not None else ""
        # "三档色温": the attribute itself (its label ends the item), no item; "成分是磷虾油" still is one
        named = named or (len(label) >= 2 and extra.lower().endswith(label))
        if not named and not any(w in extra for w in ("等", "其他", "多", "都")):
            r.claim(s, e, (pf.pid,), f"spec:{key}", extra, "", True, "false",
                    f"{r.label(pf.pid)}: '{extra}' but {key} is '{pf.product.specs.get(key, value)}'",
                    [(f"spec:{key}", pf.pid)])
            return True
    # a count of the items ("三个颜色", "two colours") must be theirs
    cnt = re.search(r"(\d+)\s*(?:个|种|款|colou?rs|shades|options)", low[max(0, last_end - 2):])
    if cnt is not None and int(cnt.group(1)) != len(parts) and len({x for _p, x in hits}) >= 1:
        r.claim(s, e, (pf.pid,), f"spec:{key}", int(cnt.group(1)), "", True, "false",
                f"{r.label(pf.pid)}: {cnt.group(1)} items but {key} is '{pf.product.specs.get(key, value)}'",
                [(f"spec:{key}", pf.pid)])
        return True
    return False


#: A clause that goes on with a list ("还有孜然味的", "以及羊绒"): the joiner, one short item, a particle at most.
_GOES_ON = re.compile(r"^\s*(?:还有|以及|另外\s*[,，]?\s*还有|也有)\s*(\d{0,3}[\u3400-\u9fff]{2,4}?)(?:味|色|款|口味|颜色|的)*"
                      r"\s*(?:哦|呢|啦|呀|噢|喔|哈)?\s*[~～!！。.\U0001F300-\U0001FAFF\u2600-\u27BF\ufe0f]*\s*$")
#: A clause that is one item said to be there ("有核桃的", "含酒精"), before a clause that goes on with the list.
_ONE_ITEM = re.compile(r"^\s*(?:有|含|含有|是)\s*(\d{0,3}[\u3400-\u9fff]{2,4}?)(?:的)?\s*(?:哦|呢|啦|呀)?\s*[,，]?\s*$")
_LIST_GOES_ON = re.compile(r"^\s*(?:还有|以及|另外\s*[,，]?\s*还有|也有)")


def _item_next_door(r: "Reading", i: int, low: str, hits: list[tuple[int, str]]) -> "re.Match[str] | None":
    """An item added to the product's items said in clause ``i`` (``low``: its lower-case text, ``hits``: where its
    items stand) from the clause after it ("还有孜然味的") or, when clause ``i`` goes on with a list ("还有腰果和榛子"),
    the clause before it ("有核桃的"); both in the same sentence. A chunk holding a deal, gift or stock word is no
    item ("还有满减哦")."""
    c = r.clauses[i]
    cand = None
    if i + 1 < len(r.clauses) and r.clauses[i + 1].sentence == c.sentence and max(p + len(x) for p, x in hits) >= len(low.rstrip(" ,，")) - 3:
        nxt = r.ctext(i + 1)
        if len(nxt.strip(" ,，")) <= 2 and i + 2 < len(r.clauses) and r.clauses[i + 2].sentence == c.sentence:
            nxt += r.ctext(i + 2)  # a clause word on its own ("另外", "还有孜然味的")
        cand = _GOES_ON.match(nxt.lower())
    if cand is None and i > 0 and r.clauses[i - 1].sentence == c.sentence and _LIST_GOES_ON.match(low):
        cand = _ONE_ITEM.match(r.ctext(i - 1).lower())
    if cand is None:
        return None
    word = cand.group(1)
    if any(r.vocab.find(n, word) is not None for n in ("deal_words", "gift_words", "in_stock", "sold_out", "negation")):
        return None
    return cand


_ITEM_SPLIT = re.compile(r"[、,，/]|和|或| and | or ")


#: A two-digit code that heads an item of a coded value ("01正红").
_TWO_DIGIT_CODE = re.compile(r"^\s*(\d{2})\s*\D")


def invented_items(ct: str, value: str) -> list[str]:
    """Items of an enumeration in ``ct`` shaped like the value's coded parts ("01正红") that are not among them."""
    parts = [p.strip() for p in _ITEM_SPLIT.split(value) if p.strip()]
    codes = {m.group(1) for p in parts if (m := _TWO_DIGIT_CODE.match(p))}
    if len(codes) < 2 or not any(p.lower() in ct.lower() for p in parts):
        return []  # the clause is not listing this attribute's values
    out = []
    for item in _ITEM_SPLIT.split(ct):
        mm = re.match(r"\s*(\d{2})(?=[\u3400-\u9fff])", item)
        if mm and mm.group(1) not in codes:
            out.append(item.strip())
    return out


#: A count of the items said with them ("3种口味", "three flavors"; numbers are digits after normalisation).
_COUNTED = re.compile(r"[\d一二两三四五六七八九十几]+\s*(?:种|个|款|样|色)|\b(?:two|three|four|five|six|dos|tres|cuatro|cinco|\d)\b(?=\s+[a-z])")


_EDGE_WORDS = re.compile(r"^(?:and|or|y|o|和|或|及|还有|以及)\s*|\s*(?:programs?|flavou?rs?|colou?rs?|options|modes)$")


def unlisted_items(r: "Reading", ct: str, value: str, rx: "re.Pattern[str]", known: "set[str] | frozenset[str]" = frozenset()) -> list[str]:
    """Items of a list the clause gives for an attribute ("smoothie, crush and soup programs", "香辣、五香和孜然三种
    口味") that are not the product's: when at least two of its chunks are items of the product's value, a chunk
    holding none of them, once the attribute's word, a count and joiners are taken off, is an added item (a few
    words or characters, no number). A chunk holding another known value of the attribute (``known``: "干皮" of
    "干皮也可以用") ends the list: that value is a claim of its own, checked as one."""
    items = [p.strip().lower() for p in _ITEM_SPLIT.split(value) if p.strip()]
    if len(items) < 2:
        return []
    low = ct.lower()
    chunks = [c for c in _ITEM_SPLIT.split(low)]
    has = [any(it in c for it in items) for c in chunks]
    if sum(has) < 2:
        return []
    first = has.index(True)
    out = []
    for c, h in zip(chunks[first + 1 :], has[first + 1 :]):
        if h:
            continue
        if any(k in c for k in known if len(k) >= 2):
            break
        # the list ends at its first chunk that is no item of the product: that chunk is checked, no later one
        t = _COUNTED.sub("", rx.sub("", c)).strip(" .,!?~。！？～:：")  # without the attribute word and a count
        t = _EDGE_WORDS.sub("", t).strip(" .,!?~。！？～")
        t = re.sub(r"[^\w\s'&+-]+", " ", t).strip()  # an emoji or a markdown mark ends a chunk, as punctuation does
        if not t:
            continue
        if re.search(r"\d", t):
            break  # a chunk with a quantity of its own ("all at 1200 W") is no item: the list has ended
        if any(t in it or it in t for it in items):
            continue  # an item said without its affix ("酒红" for "酒红色")
        short = len(t.split()) <= 3 if t.isascii() else len(t) <= 4
        if short:
            out.append(t)
        break
    return out


__all__ = ["EN_STOP_WORDS", "RESTATE_SHARE", "content_words", "invented_items", "read_enumerations", "read_restatements",
           "restated_data", "restates", "unlisted_items"]


# the old private names, for code that still imports them
_words = content_words
_EN_STOP = EN_STOP_WORDS
_invented_items = invented_items
_unlisted_items = unlisted_items
