"""Features claimed of a product ("waterproof", "noise cancelling", "孕妇能用"), checked against the product's own
data: its declared yes/no specs, its specs, FAQ answers, title and note (said there, denied there, said only with a
caution, or not said). Spec values are :mod:`.check_spec_values`, a room's yes/no attributes :mod:`.check_bools`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_state
from hat_env.scoring.claims.check_lists import restated_data, restates
from hat_env.scoring.claims.commitment import hedged
from hat_env.scoring.claims.distinctions import attribute_value_said, distinguished
from hat_env.scoring.claims.faq_denied import faq_granted
from hat_env.scoring.claims.room_vocab import bool_value, declared_bools
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading


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


def features(r: "Reading", i: int, only: str | None = None) -> None:
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
        pol = claim_state(r, i, s)
        if r.cfind("condition", i) is not None:
            continue  # "宝宝皮肤敏感的话建议先咨询医生": the viewer's case a piece of advice is for, no product fact
        if pol and hedged(r, i):
            continue  # "敏感的话建议先小面积试": advice, no claim
        if name in ("child", "pets") and r.cfind("health_denial", i) is not None:
            continue  # "不能治猫藓", "孩子咳嗽要看医生": who has the ailment a health effect is denied for, no feature
        if name in ("child", "pets") and not _audience_framed(r, s, e):
            continue  # "kids go wild for it", "with my own kids": people in the story, not who the product suits
        if (pol and r.cfind("honest_unknown", i) is not None) or r.cfind("data_lacks", i) is not None \
                or r.cfind("unavailable", i) is not None:
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
    return not restated_data(r, i, pf)


__all__ = ["features"]
