"""Attributes the data may not have, read by a frame around them rather than by a word list of values:
suitability ("works with laptops", "compatible con cápsulas", "适用于..."), a feature named by a generic feature
noun ("has a rotisserie function", "有保鲜功能"), and being free of a substance ("PFAS-free", "不含麸质", "sin
BPA"). What the frame is said of must be written in the product's data (title, specs, FAQ answers, note) or asked
in an FAQ question whose answer says yes; an answer starting with a negation makes it false, and nothing in the
data makes it an invented attribute (unsupported). The frames are the locale's ``suits_frame``, ``feature_frame``
and ``free_of`` lists.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state
from hat_env.scoring.claims.check_product import hedged
from hat_env.scoring.claims.room_vocab import room_attributes
from hat_env.scoring.claims.check_unsupported import measure_in
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


_SUIT_WORD = re.compile(r"[^\W\d_][\w+'-]*|\d[\d.,]*", re.UNICODE)


def _suit_objects(r: "Reading", after: str) -> list[str]:
    """The content words of what a suitability frame is said of (``after``: the clause text after the frame, up to
    its first punctuation): up to three words, without the locale's ``suits_stop`` words, numbers and unit words;
    jieba words for Chinese."""
    after = re.split(r"[,.;:!?，。；：！？()（）]", after, maxsplit=1)[0]
    v = r.vocab
    stop = v.rx.get("suits_stop")
    if v.lang == "zh":
        from hat_env.text import segment

        toks = [w for w in segment(after) if len(w) >= 2]
    else:
        toks = _SUIT_WORD.findall(after.lower())
    out: list[str] = []
    for w in toks[:6]:
        if w[0].isdigit() or (stop is not None and stop.fullmatch(w)):
            if out:
                break
            continue
        if v.unit_rx.fullmatch(w) is not None:
            continue
        out.append(w)
        if len(out) == 3:
            break
    return out


def _stems(w: str) -> tuple[str, ...]:
    """A word and its singular forms ("laptops" -> "laptop", "cápsulas" -> "cápsula")."""
    out = [w]
    if len(w) > 4 and w.endswith("es"):
        out.append(w[:-2])
    if len(w) > 3 and w.endswith("s"):
        out.append(w[:-1])
    return tuple(out)


def _written(word: str, text: str) -> bool:
    """Whether ``word`` is written in ``text``: as a substring for Chinese, from a word start otherwise ("too" is
    not written in "bluetooth")."""
    if re.search(r"[\u3400-\u9fff]", word):
        return word in text
    return re.search(r"(?<!\w)" + re.escape(word), text) is not None


def _in_data(r: "Reading", pfs: "list[ProductFacts]", objs: list[str]) -> tuple[str, str]:
    """The verdict on a thing said of one of ``pfs`` (``objs``: its content words): ``true`` when a word is
    written in the product's data (title, specs, FAQ answers, note) or in an FAQ question whose answer does not
    start with a negation, ``false`` when that answer does ("¿Usa cápsulas?" "No, ..."), else ``unsupported``;
    with the reason."""
    neg = r.vocab.rx.get("negation")
    verdict, why = "unsupported", "the data does not say so"
    for pf in pfs:
        if _in_gift(r, pf.pid, objs):
            return "true", ""  # "comes with a free catnip mouse toy": the gift a campaign gives with it
        title = normalize(pf.product.title, r.vocab.locale).text.lower()
        inside = [w for w in objs if any(_written(x, pf.text) for x in _stems(w) if len(x) >= 2)]
        # a word only the product's own name holds ("litter" of the litter box in "works with any clumping
        # litter") supports nothing unless every word of the thing is written
        if len(inside) == len(objs) or any(not any(_written(x, title) for x in _stems(w) if len(x) >= 2)
                                           for w in inside):
            if inside:
                return "true", ""
        for f in pf.product.faq:
            q = normalize(f.q, r.vocab.locale).text.lower()
            if any(_written(x, q) for w in objs for x in _stems(w) if len(x) >= 2):
                a = normalize(f.a, r.vocab.locale).text.lower()
                if neg is not None and neg.search(a[:8]) is not None:
                    verdict, why = "false", f"the FAQ answers '{f.a}'"
                else:
                    return "true", ""
    return verdict, why


def _in_gift(r: "Reading", pid: str, objs: list[str]) -> bool:
    """Whether every word of ``objs`` is written in the title or gift of a campaign that covers product ``pid``
    (its ``products``, or every product when it lists none)."""
    for c in r.room.campaigns:
        if c.products and pid not in c.products:
            continue
        text = normalize(f"{c.title} {getattr(c, 'gift', None) or ''}", r.vocab.locale).text.lower()
        if objs and all(any(_written(x, text) for x in _stems(w) if len(x) >= 2) for w in objs):
            return True
    return False


def _asserted(r: "Reading", i: int, s: int) -> bool:
    """Whether a frame at offset ``s`` of clause ``i`` is asserted: not negated, not hedged, and not in a clause
    saying what the data lacks ("Whether it works with 220 V outlets isn't in the product info")."""
    return claim_state(r, i, s) and not hedged(r, i) and r.vocab.find("honest_unknown", r.stext(i)) is None


def _said_of(r: "Reading", i: int, s: int) -> "tuple[tuple[str, ...], list[ProductFacts]] | None":
    """The products a frame at ``s`` is said of, with their facts; None when it names none (a remark about the
    room, or products the data does not hold)."""
    pids, how = r.subject(s, i)
    if how == "room":
        return None
    pfs = r.pfs(pids)
    return (pids, pfs) if pfs else None


def _frame_claim(r: "Reading", s: int, e: int, said: "tuple[tuple[str, ...], list[ProductFacts]]", attr: str,
                 value: str, verdict: str, why: str) -> None:
    """Record the claim of a frame at ``s:e`` about ``said`` (from :func:`_said_of`): ``verdict`` true answers a
    question about an attribute the specs do not cover; otherwise the note names the product and ``why``."""
    pids, pfs = said
    r.claim(s, e, pids, attr, value, "", True, verdict,
            "" if verdict == "true" else f"{r.label(pfs[0].pid)}: '{r.m.original(s, e).strip()}': {why}",
            [("spec:unknown", pf.pid) for pf in pfs[:1]] if verdict == "true" else [])


def read_feature_named(r: "Reading", i: int) -> None:
    """"Has a rotisserie function", "有蒸汽功能", "tiene función de vapor": a feature the reply names by a generic
    feature noun (the locale's ``feature_frame``, group 1 what the feature is). Its words must be written in the
    product's data or an FAQ question answered yes (see :func:`_in_data`), else it is invented (unsupported)."""
    c0 = r.clauses[i].start
    for m in r.call("feature_frame", i):
        if not m.lastindex:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        if not _asserted(r, i, s):
            return
        objs = _suit_objects(r, m.group(m.lastindex))
        if not objs:
            continue
        said = _said_of(r, i, s)
        if said is None:
            return
        verdict, why = _in_data(r, said[1], objs)
        _frame_claim(r, s, e, said, "feature", " ".join(objs), verdict, why)
        return


#: Lists whose words make a suitability object a deal ("works with the coupon"), not a use of the product.
_DEAL_LISTS = ("coupon_words", "bundle_words", "deal_words", "flash_words", "gift_words", "promo_code", "stacking_words")


def read_suits(r: "Reading", i: int) -> None:
    """"Works with laptops", "compatible con cápsulas", "适用于笔记本": a suitability frame (the locale's
    ``suits_frame``) said of a thing; likewise what it comes with (``comes_with``: "comes with a carrying case",
    "viene con funda", "配有收纳袋") in a clause naming no gift. The thing must be written in the product's data (title, specs, FAQ answers,
    note: true), or in an FAQ question whose answer says yes (true) or no (false); otherwise it is an attribute the
    data does not have, stated as fact (unsupported). Negated, hedged and honest clauses claim nothing."""
    c0 = r.clauses[i].start
    ct = r.ctext(i)
    frames = r.call("suits_frame", i)
    inclusions = r.call("comes_with", i) if r.cfind("gift_words", i) is None else []
    # ("viene con un paquete de café de regalo": a clause naming a gift is the gift check's)
    frames = sorted(frames + inclusions, key=lambda x: x.start())
    for m in frames:
        s, e = c0 + m.start(), c0 + m.end()
        if not _asserted(r, i, s):
            return
        objs = _suit_objects(r, ct[m.end():])
        if not objs or any(r.vocab.find(n, " ".join(objs)) is not None for n in _DEAL_LISTS):
            continue  # "works with the $20 coupon", "stacks with the bundle": how deals combine, read elsewhere
        if any(typ == "bool" and rx.search(" ".join(objs)) for rx, typ in room_attributes(r).values()):
            continue  # "apto para celíacos": a yes/no attribute of the room, read with its value by its own check
        if m in inclusions and (_policy_or_spec(r, ct[m.end():]) or measure_in(r, e, r.clauses[i].end)):
            continue  # "comes with free shipping", "viene con 5 L de capacidad": read by their own checks
        said = _said_of(r, i, s)
        if said is None:
            return
        verdict, why = _in_data(r, said[1], objs)
        rest = ct[m.end():].lower()
        k = rest.find(objs[-1])
        end = e + (k + len(objs[-1]) if k >= 0 else 0)
        _frame_claim(r, s, end, said, "suits", " ".join(objs), verdict, why)
        return


#: Lists whose words make what a product "comes with" a policy (shipping, returns, warranty), read by its own check.
_POLICY_LISTS = ("ship_words", "free_shipping", "paid_shipping", "returns_words", "exchange_words", "warranty_words",
                 "lifetime_words")


def _policy_or_spec(r: "Reading", after: str) -> bool:
    """Whether what follows a ``comes_with`` frame (to the clause's first punctuation) is a policy read by its own
    check ("free shipping", "a 2-year warranty"; a measure, "5 L de capacidad", is told by :func:`measure_in`)."""
    obj = re.split(r"[,.;:!?，。；：！？()（）]", after, maxsplit=1)[0].lower()
    return any(r.vocab.find(n, obj) is not None for n in _POLICY_LISTS)


def _in_free_of_value(r: "Reading", pf: "ProductFacts", word: str, free_words: "re.Pattern[str]") -> bool:
    """Whether ``word`` (a substance the reply says the product is free of) is written in the value of one of
    ``pf``'s spec attributes whose key or label in the room's vocabulary is itself a free word (``free_of`` /
    "free of", "不含", "sin"): that attribute lists what the product is free of."""
    voc = r.room.vocabulary
    for key, val in pf.product.specs.items():
        a = voc.attributes.get(key)
        names = [key.replace("_", " "), *(a.labels.values() if a is not None else ())]
        if not any(free_words.search(str(n).lower()) for n in names):
            continue
        vt = normalize(str(val), r.vocab.locale).text.lower()
        if any(_written(x, vt) for x in _stems(word)):
            return True
    return False


def read_free_of(r: "Reading", i: int) -> None:
    """"PFAS-free", "不含麸质", "sin gluten": the product said to be free of a substance (the locale's ``free_of``
    patterns, group 1 the substance). The data must say so: the substance written there after a negation or a
    free word ("plástico sin BPA": true), or asked in an FAQ question answered no; written there plainly it is in
    the product (false); not written at all it is an attribute the data does not have (unsupported). A yes/no
    attribute of the room ("grain-free") is read by its own check; idioms ("hassle-free") are ``free_of_stop``."""
    c0 = r.clauses[i].start
    v = r.vocab
    stop = v.rx.get("free_of_stop")
    neg = v.rx.get("negation")
    declared = room_attributes(r)
    for m in r.call("free_of", i):
        if not m.lastindex:
            continue
        word = m.group(m.lastindex).strip().lower()
        if len(word) < 2 or (stop is not None and any(stop.fullmatch(w) for w in _stems(word))):
            continue  # an idiom, in the singular or the plural ("sin prisa" / "sin prisas")
        if any(rx.search(m.group()) for rx, _t in declared.values()):
            continue  # "grain-free": the room's own attribute
        s, e = c0 + m.start(), c0 + m.end()
        if not _asserted(r, i, s):
            return
        said = _said_of(r, i, s)
        if said is None:
            return
        pfs = said[1]
        verdict, why = "unsupported", "the data does not say so"
        free_words = re.compile(r"free|sin|libre|无|不含|没有|零")
        for pf in pfs:
            if _in_free_of_value(r, pf, word, free_words):
                verdict, why = "true", ""  # skincare_en free_of: "fragrance, talc, silicones" for "silicone-free"
                break
            hits = [x.start() for w in _stems(word) for x in re.finditer(re.escape(w), pf.text)]
            if hits:
                freed = any((neg is not None and neg.search(pf.text[max(0, k - 8) : k]))
                            or free_words.search(pf.text[max(0, k - 8) : k + len(word) + 6]) for k in hits)
                verdict, why = ("true", "") if freed else ("false", "the data lists it")
                break
            for f in pf.product.faq:
                q = normalize(f.q, v.locale).text.lower()
                if any(_written(x, q) for x in _stems(word)):
                    a = normalize(f.a, v.locale).text.lower()
                    said_no = neg is not None and neg.search(a[:8]) is not None
                    verdict, why = ("true", "") if said_no else ("false", f"the FAQ answers '{f.a}'")
                    break
            if verdict != "unsupported":
                break
        _frame_claim(r, s, e, said, "free_of", word, verdict, why)
        return


__all__ = ["read_feature_named", "read_free_of", "read_suits"]


# the old private names, for code that still imports them
_feature_named = read_feature_named
_free_of = read_free_of
_suits = read_suits
