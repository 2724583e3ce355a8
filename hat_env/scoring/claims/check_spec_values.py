"""Spec values a reply names of a product ("纯棉", "dogs", "4K"): each must be the product's (its spec for that
attribute, a word of its title or FAQ answers, a value the locale or the room knows for the attribute); a value the
clause denies, the viewer's own condition ("干皮的话"), a word of a gift or of another attribute is no claim; a
listed value next to the product's own that is not one of them is invented; a value said as the whole of the product
("纯羊毛", "100% wool") where the data gives it a share is false."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state
from hat_env.scoring.claims.check_lists import (content_words, invented_items, read_enumerations, restated_data,
                                                unlisted_items)
from hat_env.scoring.claims.commitment import named_subject
from hat_env.scoring.claims.room_vocab import closed_values, room_attributes, room_values
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab


_TOKEN = re.compile(r"[a-z]+|[\u3400-\u9fff]+")


def _tokens(s: str) -> set[str]:
    """Latin words and Chinese runs of ``s``, lower-case."""
    return set(_TOKEN.findall(s.lower()))


def _quantity_word(v: "Vocab", w: str) -> bool:
    """Whether a known value is a number with a unit ("7天", "12个月", "250g"): the number checker reads it, by
    the topic word nearest to it, so another product's shelf life is not a value word of this clause."""
    m = re.match(r"\d+(?:\.\d+)?", w)
    if m is None:
        return False
    u = v.unit_rx.match(w, m.end())
    return u is not None and u.end() == len(w)


def spec_values(r: "Reading", i: int) -> None:
    """Spec values named in a clause: each must be the product's (its spec for that attribute, or a value the
    locale or the room knows for the attribute); a listed value next to the product's own values that is not
    one of them is invented ("01正红、02豆沙、04枫叶红")."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    low = ct.lower()
    asked = {it.attr for it in r.intents if it.kind == "spec" and it.attr}
    declared = room_attributes(r)
    pur = v.rx.get("purity")
    for key, rx in {**{k: x for k, (x, t) in declared.items() if t != "bool"}, **v.attributes}.items():
        m = rx.search(ct)
        # a value said as the whole of the product names its attribute by itself ("100%纯羊毛的")
        pure = m is None and pur is not None and _purity_value(r, key, low)
        if m is None and key not in asked and not pure:
            continue
        s = c0 + (m.start() if m is not None else 0)
        e = c0 + (m.end() if m is not None else len(ct))
        pids, how = r.subject(s, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        if how not in ("clause", "group"):
            # weakly attributed: the product (of those it may be about) that has this attribute
            pfs = [x for x in pfs if key in x.spec_text] or pfs
        pf = pfs[0]
        if m is None and not pure and not any(it.attr == key and r.room.by_link.get(it.link or -1) is pf.product
                                              for it in r.intents):
            continue
        # value words, not bare numbers ("2" of "30ml×2": numbers are checked as quantities)
        # a closed set's value that reads like a quantity ("2K", "4K", "1080P" of a resolution) is still a value
        closed = closed_values(r, key)
        known = {w for w in set(v.values.get(key, ())) | room_values(r, key) if not re.fullmatch(r"[\d.\s]+", w)
                 and (not _quantity_word(v, w) or w in closed)}
        # "dogs" says dog; a Latin value of a closed set is bounded by Latin letters and digits only ("4K超清")
        said = [w for w in sorted(known, key=lambda w: (-len(w), w)) if w and re.search(
            ((r"(?<![a-z0-9])" + re.escape(w) + r"(?:s|es)?(?![a-z0-9])") if w in closed else
             (r"\b" + re.escape(w) + r"(?:s|es)?\b")) if w.isascii() else re.escape(w), low)]
        # drop words inside a longer word said ("棉" inside "棉涤混纺")
        said = [w for w in said if not any(w != o and w in o for o in said)]
        # a value the clause denies by itself ("made for cats, not dogs", "不是涤纶，是纯棉") is not claimed
        said = [w for w in said if not _denied(r, i, low, w)]
        if how not in ("clause", "group") and said:
            fits = [x for x in pfs if key in x.spec_text and all(w in x.spec_text[key].lower() for w in said)]
            pf = fits[0] if fits else pf
        value = pf.spec_text.get(key)
        invented = invented_items(ct, value) if value else []
        if value and not invented and m is not None:
            # the list may run over the sentence's clauses ("smoothie, crush and soup programs")
            invented = unlisted_items(r, r.stext(i), value, rx, known)
        if not invented and value and read_enumerations(r, i, key, pf, s, e):
            continue
        if not said and not invented:
            continue
        if value is None:
            if said and any(all(w.lower() in x.text for w in said) for x in r.pfs(r.scope or (pf.pid,))):
                # "填充是聚酯纤维" (filling: 聚酯纤维), FAQ "燕麦色和雾霾蓝两个颜色": the asked product's own field says
                # it (a value word of another product is still read as that product's)
                continue
            if said and claim_state(r, i, s) and not r.cfind("honest_unknown", i) and m is not None and named_subject(r, how):
                r.claim(s, e, pids, f"spec:{key}", said[0], "", True, "unsupported",
                        f"{r.label(pf.pid)}: '{r.m.original(s, e)}': the data has no {key}")
            continue
        vl = value.lower()
        title = _title_text(r, pf)
        # a value word of the product's own title or FAQ answers is the product's ("混纺" of "羊毛混纺针织围巾")
        wrong = [w for w in said if w not in vl and not any(w in part for part in _tokens(vl))
                 and not any(x in vl for x in _variants(v, w)) and w not in title and not _faq_value(r, pf, key, w)]
        wrong = [w for w in wrong if not any(w != k and w in k and k in vl for k in known)]
        if wrong and v.find("all_values", vl) is not None and r.cfind("exclusive", i) is None:
            # "所有肤质", "all skin types": any one of them is the product's ("敏感肌能用"), not it alone ("只适合油皮")
            wrong = []
            invented = []
        if wrong and restated_data(r, i, pf):
            wrong = []  # the clause restates the product's FAQ answer or note ("干皮建议先做好保湿")
        wrong = [w for w in wrong if not _viewer_condition(r, i, low, w, pf)]
        if wrong and pf.gifts and r.cfind("gift_words", i) is not None:
            # "lleva de regalo una gamuza de microfibra": a word of the gift that comes with it describes the gift
            gifts = [normalize(g, v.locale).text.lower() for g in pf.gifts]
            wrong = [w for w in wrong if not any(w in g for g in gifts)]
        wrong += invented
        # a word the product's data gives another attribute ("green tea" of key_ingredients in "made for oily skin
        # with 2% salicylic acid, green tea and zinc PCA") is that attribute's value, listed on, not a wrong one
        others = [normalize(str(x), v.locale).text.lower() for k, x in pf.product.specs.items() if k != key]
        wrong = [w for w in wrong if not any(w.strip().lower() in o for o in others)]
        if not wrong:
            wrong = _purity_claims(r, i, low, said, pf.product.specs.get(key, value))
        if wrong and claim_state(r, i, s):
            r.claim(s, e, pids, f"spec:{key}", wrong[0], "", True, "false",
                    f"{r.label(pf.pid)}: '{wrong[0]}' but {key} is '{pf.product.specs.get(key, value)}'",
                    [(f"spec:{key}", pf.pid)])
        elif not wrong:
            r.claim(s, e, pids, f"spec:{key}", said[0], "", True, "true", "", [(f"spec:{key}", pf.pid)])


def _denied(r: "Reading", i: int, low: str, w: str) -> bool:
    """Whether every occurrence of value word ``w`` in clause ``i`` (``low``: its lower-case text) stands right after
    a negation of its own ("made for cats, not dogs", "no es de acero", "不是涤纶") or right before the locale's
    negation of a verb of having ("en beige no las tenemos": ``negation_after``)."""
    c0 = r.clauses[i].start
    na = r.vocab.rx.get("negation_after")
    pos = [(m.start(), m.end()) for m in re.finditer(re.escape(w), low)]
    return bool(pos) and all(r.negated(i, c0 + p) or (na is not None and na.match(low[e:]) is not None)
                             for p, e in pos)


def _purity_value(r: "Reading", key: str, low: str) -> bool:
    """Whether clause text ``low`` names, right after a ``purity`` word, a value some product gives ``key`` as a
    share ("5号小黄车直接拍，89元，100%纯羊毛的": 羊毛 of "50%羊毛 50%腈纶"): such a clause claims that attribute
    without naming it."""
    pur = r.vocab.rx.get("purity")
    if pur is None:
        return False
    for p in r.room.products:
        val = p.specs.get(key)
        if val is None or "%" not in str(val):
            continue
        for w in re.findall(r"%\s*([^\d%\s,、，]+)", normalize(str(val), r.vocab.locale).text.lower()):
            k = low.find(w)
            if len(w) >= 2 and k >= 0 and pur.search(low[max(0, k - 6) : k]):
                return True
    return False


def _purity_claims(r: "Reading", i: int, low: str, said: list[str], value: object) -> list[str]:
    """Value words said as the whole of the product (a ``purity`` word right before them: "纯羊毛", "100% wool",
    "pure cotton") where the data gives them a share under 100% ("50%羊毛 50%腈纶", "algodón 60%"): each such
    word, with its purity word, is a false claim."""
    pur = r.vocab.rx.get("purity")
    if pur is None or not said:
        return []
    val = normalize(str(value), r.vocab.locale).text.lower()
    out = []
    for w in said:
        share = re.search(r"(\d+(?:\.\d+)?)\s*%\s*" + re.escape(w) + r"|" + re.escape(w) + r"\s*(\d+(?:\.\d+)?)\s*%", val)
        items = [x for x in re.split(r"[、,，/;；]|和|及|与| and ", val) if x.strip()]
        others = [x for x in items if w not in x] if any(w in x for x in items) else []
        if share is None and not others:
            continue  # one item, or no share: the whole of the product may be it
        if share is not None and float(share.group(1) or share.group(2)) >= 100:
            continue
        for m in re.finditer(re.escape(w), low):
            head = pur.search(low[max(0, m.start() - 6) : m.start()])
            if head is not None and not r.negated(i, r.clauses[i].start + m.start()):
                out.append(head.group().strip() + w)
                break
    return out


def _title_text(r: "Reading", pf: "ProductFacts") -> str:
    """The product's title, normalised as replies are, lower-case (a value word there is the data's: "混纺" of
    "羊毛混纺针织围巾")."""
    return normalize(pf.product.title, r.vocab.locale).text.lower()


def _viewer_condition(r: "Reading", i: int, low: str, w: str, pf: "ProductFacts") -> bool:
    """Whether value word ``w`` in clause ``i`` (``low``: its lower-case text) is the viewer's condition, not the
    product's value: a ``conditional`` word next to it ("干皮的话", "如果是干皮", "if you have dry skin") in a
    sentence that advises or follows an FAQ answer saying ``w`` (two more of its words: "干皮的话先把保湿做好再上粉底"
    for "干皮建议先做好保湿再上妆"). A condition followed by a plain assurance ("如果是干皮，完全没问题") is read."""
    cond = r.vocab.rx.get("conditional")
    k = low.find(w)
    if cond is None or k < 0 or cond.search(low[max(0, k - 12) : k + len(w) + 4]) is None:
        return False
    st = r.stext(i)
    if r.vocab.find("advice", st) is not None:
        return True
    said = content_words(st, r.vocab.lang) - {w}
    for f in pf.product.faq:
        a = normalize(f.a, r.vocab.locale).text.lower()
        if w in a and len(said & (content_words(a, r.vocab.lang) - {w})) >= 2:
            return True
    return False


def _faq_value(r: "Reading", pf: "ProductFacts", key: str, w: str) -> bool:
    """Whether an FAQ answer of the product says value word ``w`` of one of its own ``key`` items, plainly: in one
    clause with such an item and no caution or advice word ("香辣味微辣": the 香辣 flavour is 微辣; not "干皮建议先做好
    保湿", which advises dry skin).""" 
    items = [x.strip().lower() for x in re.split(r"[,、，/]| and | or |和|或", pf.spec_text.get(key, "")) if x.strip()]
    cau = r.vocab.rx.get("caution")
    for f in pf.product.faq:
        for c in re.split(r"[,，。.;；!！?？]", normalize(f.a, r.vocab.locale).text.lower()):
            if w in c and any(x in c and x != w for x in items) and (cau is None or cau.search(c) is None) \
                    and r.vocab.find("advice", c) is None:
                return True
    return False


def _variants(v, word: str) -> tuple[str, ...]:  # noqa: ANN001 - a Vocab
    """Other spellings or names of a value word (the locale's ``value_synonyms`` groups: grey / gray)."""
    groups = v.raw.get("value_synonyms") or ()
    out: list[str] = []
    for g in groups:
        low = [str(x).lower() for x in g]
        hit = [x for x in low if x in word]
        if hit:
            h = max(hit, key=len)
            out += [word.replace(h, x) for x in low if x != h]
    return tuple(out)


__all__ = ["spec_values"]
