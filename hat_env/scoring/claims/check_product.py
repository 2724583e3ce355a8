"""Claims about a product's content: features ("waterproof", "孕妇能用") checked against the product's own specs,
FAQ answers, title and note; spec values (each value word with its denial, purity, the viewer's own condition, FAQ
values), yes/no attributes; the room's attributes and values as its vocabulary declares them are
:mod:`.room_vocab`.
Frames for attributes the data lacks are in :mod:`.check_unlisted`, invented list items in :mod:`.check_lists`,
claims no data supports in :mod:`.check_unsupported`, order status in :mod:`.check_orders`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import _negated_after, _state
from hat_env.scoring.claims.check_lists import _invented_items, _unlisted_items
from hat_env.scoring.claims.room_vocab import bool_value, closed_values, declared_bools, room_attributes, room_values
from hat_env.scoring.claims.check_lists import read_enumerations, restated_data, restates
from hat_env.scoring.claims.distinctions import attribute_value_said, distinguished
from hat_env.scoring.claims.faq_denied import faq_granted
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab


_TOKEN = re.compile(r"[a-z]+|[\u3400-\u9fff]+")


def _tokens(s: str) -> set[str]:
    """Latin words and Chinese runs of ``s``, lower-case."""
    return set(_TOKEN.findall(s.lower()))


#: A determiner right before a word, which makes the word a name ("for the carry-on", "this carry-on", "这款").
_NAMED_BY = re.compile(r"(?:\b(?:the|this|that|our|your|my)\s+|这款|这个|那款|那个)$", re.IGNORECASE)


def _title_word(said: str, pfs: "list[ProductFacts]") -> bool:
    """Whether ``said`` (a feature's words in the reply) is a whole word or phrase of one of ``pfs``' titles
    ("carry-on" of 'Atlas 21" Carry-On Spinner'): the reply names the product, it claims no feature."""
    w = said.strip().lower()
    if len(w) < 3:
        return False
    rx = re.compile(rf"(?<![\w-]){re.escape(w)}(?![\w-])")
    return any(rx.search(pf.product.title.lower()) for pf in pfs)


def _audience_framed(r: "Reading", s: int, e: int) -> bool:
    """Whether the audience word at ``[s, e)`` ("kids", "niños") stands in a suitability frame of the locale
    (``audience_before``: "for", "safe for", "apto para"; ``audience_after``: "can", "-friendly"), so the reply
    says whom the product suits. A locale without the lists frames every such word."""
    before, after = r.vocab.rx.get("audience_before"), r.vocab.rx.get("audience_after")
    if before is None and after is None:
        return True
    return bool((before is not None and before.search(r.text, max(0, s - 40), s))
                or (after is not None and after.match(r.text, e)))


def _features(r: "Reading", i: int, only: str | None = None) -> None:
    """Features ("waterproof", "noise cancelling", "孕妇能用") claimed, checked against the product's own data
    (its specs, FAQ answers, title, note): said there, denied there (or a ``data_no`` phrase), or not said."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    v = r.vocab
    neg = v.rx.get("negation")
    for name, rx in v.features.items():
        if only is not None and name != only:
            continue
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        pol = _state(r, i, s)
        if r.cfind("condition", i) is not None:
            continue  # "宝宝皮肤敏感的话建议先咨询医生": the viewer's case a piece of advice is for, no product fact
        if pol and hedged(r, i):
            continue  # "敏感的话建议先小面积试": advice, no claim
        if name in ("child", "pets") and r.cfind("health_denial", i) is not None:
            continue  # "不能治猫藓", "孩子咳嗽要看医生": who has the ailment a health effect is denied for, no feature
        if name in ("child", "pets") and not _audience_framed(r, s, e):
            continue  # "kids go wild for it", "with my own kids": people in the story, not who the product suits
        if (pol and r.cfind("honest_unknown", i) is not None) or r.cfind("data_lacks", i) is not None                 or r.cfind("unavailable", i) is not None:
            # "资料里没有孕妇适用的说明", "暂时没有孕妇使用的相关信息", "It doesn't say anything about a 16-inch
            # MacBook", "沾杯的问题我稍后再确认": what the data lacks or a question put off, no claim either way
            continue
        vow = r.cfind("hedged_vow", i)
        if vow is not None and vow.start() < m.start():
            continue  # "so I can't guarantee every airline": the host vouches for nothing, it denies nothing
        pids, how = r.subject(s, i)
        if how == "room":
            continue  # nothing asked, nothing named: a feature of no product ("just with a really good mic")
        pfs = r.pfs(pids)
        if not pfs:
            continue
        if _title_word(r.text[s:e], pfs) and _NAMED_BY.search(r.text, max(c0, s - 12), s):
            continue  # "for the carry-on" of the "Carry-On Spinner": the product named by its own title, no feature
        absolute = r.cfind("absolute_degree", i) is not None
        verdicts = []
        no = v.features_no.get(name)
        says_no = no is not None and no.search(r.stext(i)) is not None  # the reply restates the data's "no"
        bools = declared_bools(r, name, m.group())
        for pf in pfs:
            said_by = next((x for k in bools if (x := bool_value(pf, k)) is not None), None)
            if said_by is not None:
                # "no sirve para inducción" of a pot whose declared yes/no spec induction is "no": the spec decides
                # (its key and value, not a word search of the product's text, which finds the key's own label)
                verdicts.append(("true", "") if said_by is pol else
                                ("false", "the data says it does not" if pol else "the data says it does"))
                continue
            dm = rx.search(pf.text)
            if no is not None and no.search(pf.text):
                data = False
                if says_no:
                    verdicts.append(("true", ""))
                    continue
            elif dm is None:
                yes = v.features_yes.get(name)
                data = True if yes is not None and yes.search(pf.text) else None  # said in other words
            else:
                # the data's own sentences are well formed: a negation a few words back in its clause still
                # governs it ("不能长时间泡水")
                lo = max(0, dm.start() - max(v.negation_window, 8))
                seg = pf.text[lo : dm.start()]
                cut = max(seg.rfind("."), seg.rfind(","), seg.rfind("。"), seg.rfind(","))
                seg = seg[cut + 1 :] if cut >= 0 else seg
                data = not (neg is not None and neg.search(seg))
            if pol and data is None and _covered_by_all(r, m.group(), pf):
                data = True  # "敏感肌" of skin_type "所有肤质": every skin type is the product's
            if pol and data is None and faq_granted(r, i, rx, pf):
                data = True  # "Dishwasher safe?" - "Top rack only; ...": the data's question, its answer said back
            if pol:
                if data is True:
                    ab = absolute and v.find("absolute_degree", pf.text) is None
                    if not ab and _cautioned(r, i, rx, pf):
                        verdicts.append(("unsupported", "the data says it only with a caution"))
                        continue
                    verdicts.append(("unsupported", f"'{ct.strip()}' goes beyond the data") if ab else ("true", ""))
                elif data is False:
                    verdicts.append(("false", "the data says it does not"))
                else:
                    verdicts.append(("unsupported", "the data does not say so"))
            else:
                if data is True and dm is not None and distinguished(r, i, m.group(), dm.group()):
                    verdicts.append(("true", ""))  # "water-resistant, not waterproof": the data's own word, the other denied
                elif data is True:
                    verdicts.append(("false", "the data says it does"))
                elif data is False or r.report.honest_unknown or r.cfind("honest_unknown", i):
                    verdicts.append(("true", ""))
                elif attribute_value_said(r, i, m.group(), pf):
                    verdicts.append(("true", ""))  # "防泼水…不是全防水" for waterproof: 防泼水: its own value, the stronger denied
                else:
                    verdicts.append(("unsupported", "the data does not say so"))
        if not any(x[0] == "true" for x in verdicts):
            for pf in pfs:
                if any(rx.search(normalize(f.q, v.locale).text.lower()) and restates(ct, f.a, v.lang, neg)
                       for f in pf.product.faq):
                    verdicts.insert(0, ("true", ""))  # answers the FAQ's question about it in the FAQ's words
                    break
        best = next((x for x in verdicts if x[0] == "true"), verdicts[0])
        r.claim(s, e, pids, f"feature:{name}", pol, "", pol, best[0],
                "" if best[0] == "true" else f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}': {best[1]}",
                [("spec:unknown", pf.pid) for pf in pfs[:1]] + [("spec:*", pf.pid) for pf in pfs[:1]])


def _covered_by_all(r: "Reading", word: str, pf: "ProductFacts") -> bool:
    """Whether feature word ``word`` falls under an attribute of ``pf`` whose value covers every value (the
    locale's ``all_values``: skin_type "所有肤质"), the word being one of that attribute's known values or words."""
    w = word.strip().lower()
    for key, val in pf.spec_text.items():
        if r.vocab.find("all_values", val.lower()) is None:
            continue
        arx = r.vocab.attributes.get(key)
        if any(w in x or x in w for x in r.vocab.values.get(key, ()) if len(x) >= 2) or (arx is not None and arx.search(w)):
            return True
    return False


def _cautioned(r: "Reading", i: int, rx: "re.Pattern[str]", pf: "ProductFacts") -> bool:
    """Whether every place of ``pf``'s data that says feature ``rx`` (title, a spec, a sentence of an FAQ answer
    or of the note) says it with a caution (the locale's ``caution`` words: "敏感肌可能有轻微触感，建议搭配衣领佩戴")
    while the reply's sentence of clause ``i`` has no caution or advice word and restates none of the data
    ("敏感肌放心戴"): the reply drops the data's caution."""
    cau = r.vocab.rx.get("caution")
    if cau is None:
        return False
    p = pf.product
    loc = r.vocab.locale
    pieces = [p.title, *(f"{k} {v}" for k, v in p.specs.items())]
    for t in (*(f.a for f in p.faq), p.returns.note):
        pieces += [x for x in re.split(r"[。.!！;；?？]", t) if x.strip()]
    said = [x for x in (normalize(t, loc).text.lower() for t in pieces) if rx.search(x)]
    if not said or any(cau.search(x) is None for x in said):
        return False
    st = r.stext(i)
    if cau.search(st) is not None or r.vocab.find("advice", st) is not None:
        return False
    from hat_env.scoring.claims.check_lists import restated_data

    return not restated_data(r, i, pf)


def _named(r: "Reading", how: str) -> bool:
    """Whether a claim's subject is certain: named in its clause, or the one product the viewers asked about
    (``how`` from :meth:`Reading.subject`)."""
    return how == "clause" or (how == "asked" and len(r.scope) == 1)


def hedged(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` puts a condition on the viewer and its sentence advises ("敏感的话建议先小面积试",
    "if your cat is still a kitten, ask your vet first"): the locale's ``conditional`` words in the clause and an
    ``advice`` word in the sentence. Such a clause claims nothing about the product ("如果是敏感肌也能放心用", with no
    advice, still claims)."""
    return r.cfind("conditional", i) is not None and r.vocab.find("advice", r.stext(i)) is not None


def _quantity_word(v: "Vocab", w: str) -> bool:
    """Whether a known value is a number with a unit ("7天", "12个月", "250g"): the number checker reads it, by
    the topic word nearest to it, so another product's shelf life is not a value word of this clause."""
    m = re.match(r"\d+(?:\.\d+)?", w)
    if m is None:
        return False
    u = v.unit_rx.match(w, m.end())
    return u is not None and u.end() == len(w)


def _spec_values(r: "Reading", i: int) -> None:
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
        invented = _invented_items(ct, value) if value else []
        if value and not invented and m is not None:
            # the list may run over the sentence's clauses ("smoothie, crush and soup programs")
            invented = _unlisted_items(r, r.stext(i), value, rx, known)
        if not invented and value and read_enumerations(r, i, key, pf, s, e):
            continue
        if not said and not invented:
            continue
        if value is None:
            if said and any(all(w.lower() in x.text for w in said) for x in r.pfs(r.scope or (pf.pid,))):
                # "填充是聚酯纤维" (filling: 聚酯纤维), FAQ "燕麦色和雾霾蓝两个颜色": the asked product's own field says
                # it (a value word of another product is still read as that product's)
                continue
            if said and _state(r, i, s) and not r.cfind("honest_unknown", i) and m is not None and _named(r, how):
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
        if wrong and _state(r, i, s):
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
    from hat_env.scoring.claims.check_lists import _words

    said = _words(st, r.vocab.lang) - {w}
    for f in pf.product.faq:
        a = normalize(f.a, r.vocab.locale).text.lower()
        if w in a and len(said & (_words(a, r.vocab.lang) - {w})) >= 2:
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


def _bool_answer_after(text: str, end: int) -> bool | None:
    """The yes/no value written right after a yes/no attribute's label, as in "caffeinated, no", "Wi-Fi: yes",
    "apto para lavavajillas, no" or "含咖啡因：否" (a label, a comma or colon, then one of the catalog's own value
    words, :data:`hat_env.sim.vocabulary.BOOL_WORDS`, ending there); ``None`` when no such value follows."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    m = _bool_after_rx().match(text, end)
    if m is None:
        return None
    word = m.group(1).casefold()
    rest = text[m.end():m.end() + 12].lstrip()[:1]
    if rest.isalnum():
        return None  # "no" in "no extra fee", 有 in 有货: not a value on its own
    return BOOL_WORDS.get(word)


@lru_cache(maxsize=1)
def _bool_after_rx() -> re.Pattern[str]:
    """A comma or colon after a label, then one of the catalog's yes/no value words (the longest first: 不支持
    before 支持)."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    words = sorted(BOOL_WORDS, key=len, reverse=True)
    return re.compile(r"\s*[,:，：]\s*(" + "|".join(map(re.escape, words)) + ")", re.IGNORECASE)


def _bool_specs(r: "Reading", i: int) -> None:
    """A yes/no attribute the scenario declares ("grain-free", "Wi-Fi") said of a product in clause ``i``: said
    plainly it claims yes, negated it claims no; the product's value must be that one. A product whose data lacks
    the attribute, named in the clause, is unsupported when the clause claims yes."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    for key, (rx, typ) in room_attributes(r).items():
        if typ != "bool" or key in r.vocab.attributes:
            continue
        m = rx.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        pids, how = r.subject(s, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        said = _state(r, i, s) and not _negated_after(r, i, e)
        if _free_of_substance(r, key, i, m):
            said = not said  # "no lleva gluten" says gluten-free ("sin gluten") is yes; "lleva gluten" says no
        answer = _bool_answer_after(r.text, e)
        if answer is not None:  # "caffeinated, no", "Wi-Fi: yes", "含咖啡因：否": the value word says it
            said = answer
        have = [pf for pf in pfs if key in pf.product.specs]
        if how in ("clause", "group"):
            have = have[:1] if have and have[0] is pfs[0] else ([] if how == "clause" else have)
        if not have:
            if _named(r, how) and said and not r.cfind("honest_unknown", i) and not hedged(r, i):
                r.claim(s, e, (pfs[0].pid,), f"spec:{key}", True, "", True, "unsupported",
                        f"{r.label(pfs[0].pid)}: '{r.m.original(s, e)}': the data has no {key}")
            continue
        vals = {pf.pid: bool_value(pf, key) for pf in have}
        good = [pf for pf in have if vals[pf.pid] is said]
        if good:
            r.claim(s, e, (good[0].pid,), f"spec:{key}", said, "", said, "true", "", [(f"spec:{key}", good[0].pid)])
        elif vals[have[0].pid] is not None:
            pf = have[0]
            r.claim(s, e, (pf.pid,), f"spec:{key}", said, "", said, "false",
                    f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but {key} is '{pf.product.specs[key]}'",
                    [(f"spec:{key}", pf.pid)])


def _free_of_substance(r: "Reading", key: str, i: int, m: "re.Match[str]") -> bool:
    """Whether match ``m`` (in clause ``i``) of yes/no attribute ``key`` is the bare substance of an attribute
    named as being free of it ("gluten" of "sin gluten", "gluten-free", by the locale's ``free_of`` patterns
    on the attribute's own words), not that name itself: then saying the substance is there says the attribute is
    no, and denying it says yes."""
    a = r.room.vocabulary.attributes.get(key)
    if a is None:
        return False
    subs = set()
    for loc in {r.vocab.locale, r.room.locale}:
        for w in (*a.words.get(loc, ()), *((a.labels[loc],) if loc in a.labels else ())):
            for f in r.vocab.all("free_of", str(w)):
                if f.lastindex:
                    subs.add(f.group(f.lastindex).strip().lower())
    said = m.group().strip().lower()
    if not subs or not any(said in (x, x + "s", x + "es") for x in subs):
        return False  # "grain free" is the attribute's name; only the bare substance ("gluten") flips
    return not any(f.start() <= m.start() and m.end() <= f.end() for f in r.call("free_of", i))  # both clause-relative


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


