"""Claims no data can support: guarantees, certifications, seller-price superlatives, rankings, sales figures,
reviews and host services (each a locale word list, :data:`UNSUPPORTED_LISTS`), effects of use and health effects (with
their denials), unless the product's own data says the word.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.scoring.claims.check_common import claim_group, negated_after, orders_here, claim_state
from hat_env.scoring.claims.room_vocab import room_attributes
from hat_env.scoring.claims.quotes import quoted_speech

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


#: A guarantee word that is a quantity ("百分百", "100%"): before a spec value it measures it.
_QUANTITY_WORD = re.compile(r"百|%|percent", re.IGNORECASE)


def _before_spec_value(r: "Reading", e: int, pids: tuple[str, ...] | list[str]) -> bool:
    """Whether the word right after offset ``e`` (its first jieba word for Chinese, its first word otherwise) is
    written in a spec value of one of ``pids``."""
    rest = r.text[e : e + 12].lstrip()
    if not rest:
        return False
    if re.match(r"[\u4e00-\u9fff]", rest):
        from hat_env.text.lazy import segment

        words = segment(re.match(r"[\u4e00-\u9fff]+", rest).group())
        head = words[0] if words else ""
    else:
        w = re.match(r"[^\W\d_]{3,}", rest)
        head = w.group().lower() if w else ""
    return bool(head) and any(head in v.lower() for pf in r.pfs(pids) for v in pf.spec_text.values())


def _bare_speech_act(ct: str, m: "re.Match[str]") -> bool:
    """Whether clause text ``ct`` holds nothing but the match ``m`` and at most a pronoun (no content words)."""
    rest = (ct[: m.start()] + " " + ct[m.end() :]).lower()
    words = re.findall(r"[a-z]{2,}|[\u4e00-\u9fff]", rest)
    return len([w for w in words if w not in ("i", "you", "we", "我", "你", "啦", "哦", "的")]) == 0


def measure_in(r: "Reading", s: int, e: int) -> bool:
    """Whether a number starting inside ``s``..``e`` carries a unit of measure (not a count, not a bare number)."""
    return any(s <= q.start < e and q.dim not in ("plain", "count", "money") for q in r.quantities)


def _positive_unsupported(r: "Reading", i: int, name: str, attr: str, why: str) -> None:
    """A positive mention of list ``name`` in clause ``i`` is unsupported (no data states it)."""
    c0 = r.clauses[i].start
    m = r.cfind(name, i)
    if m is None:
        return
    s, e = c0 + m.start(), c0 + m.end()
    if not claim_state(r, i, s):
        return
    if quoted_speech(r, r.ctext(i), m):
        return  # 您说“全网最贵”: the viewer's words quoted back, not the host's claim
    vow = r.cfind("hedged_vow", i)
    if attr == "promise" and vow is not None and vow.start() <= m.start() < vow.end():
        return  # "我不能这样跟你保证", "I can't promise that": a guarantee refused, none given
    pids, how = r.subject(s, i)
    if attr == "promise" and how == "room" and _bare_speech_act(r.ctext(i), m):
        return  # "Human, promise!": a bare vow about no product (nothing asked or named) guarantees nothing
    if attr == "reviews" and measure_in(r, s, e):
        return  # "rated 20,000 mm", "rated to 20°F": a rating with a unit is a spec value, not a review score
    word = m.group().lower()
    if pids and any(word in pf.text for pf in r.pfs(pids)):
        return  # the product's own data says it ("energy_rating: Energy Star certified")
    if attr == "certification" and _certified_attribute(r, i, m.start(), pids):
        return  # "有机认证的": the product's own yes/no attribute, labelled as a certification ("organic: 是")
    if attr == "promise" and _QUANTITY_WORD.search(m.group()) and _before_spec_value(r, e, pids):
        return  # "百分百棉": the word measures the spec value it stands before (a composition), it promises nothing
    # a promise about an order (a delivery guarantee) voids the order's answer; a warranty promised beyond the
    # data ("garantía de por vida", "lifetime warranty") answers no after-sales question
    voids = [("order_status", o) for o in orders_here(r, i)] if attr == "promise" else []
    if attr == "promise" and r.vocab.find("warranty_words", m.group().lower()) is not None:
        voids += [("after_sales", p) for p in pids]
    r.claim(s, e, pids, attr, True, "", True, "unsupported", f"'{r.m.original(s, e)}': {why}", voids)


def _certified_attribute(r: "Reading", i: int, at: int, pids: "tuple[str, ...] | list[str]") -> bool:
    """Whether a yes/no attribute the room declares is named in clause ``i`` ending at most two characters
    before offset ``at`` (relative to the clause) or overlapping it ("有机认证的": the room's label 有机认证 for
    ``organic``), and one of ``pids`` has it set to yes: the certification word names that attribute."""
    from hat_env.sim.vocabulary import BOOL_WORDS

    ct = r.ctext(i)
    for key, (rx, typ) in room_attributes(r).items():
        if typ != "bool":
            continue
        for m in rx.finditer(ct):
            if m.start() <= at + 1 and at - m.end() <= 2:
                if any(BOOL_WORDS.get(str(pf.product.specs.get(key, "")).strip().lower()) is True for pf in r.pfs(pids)):
                    return True
    return False


#: a hedged vow that refuses to promise (not a bare "不一定", which still says the effect may come)
_VOWED = re.compile(r"保证|打包票|担保|承诺|许诺|promise|guarantee|garantiz", re.IGNORECASE)


def read_effects(r: "Reading", i: int) -> None:
    """An effect of using the product ("皮肤状态特别好", "美白") needs the product's own data to say it."""
    c0 = r.clauses[i].start
    m = r.cfind("effect_claims", i)
    if m is None or not claim_state(r, i, c0 + m.start()):
        return
    vow = r.cfind("hedged_vow", i)
    if vow is not None and vow.start() >= m.end() and _VOWED.search(vow.group()):
        return  # "祛斑这种效果我没法给你打包票": the effect is what the host will not promise
    pids, _ = claim_group(r, i, c0 + m.start())
    pfs = r.pfs(pids)
    word = m.group().lower()
    if any(word in pf.text for pf in pfs):
        return
    r.claim(c0 + m.start(), c0 + m.end(), pids, "effect", m.group(), "", True, "unsupported",
            f"'{r.m.original(c0 + m.start(), c0 + m.end())}': an effect the product's data does not state")


def _in_data_phrase(r: "Reading", s: int, e: int, pids: tuple[str, ...]) -> bool:
    """Whether the word at normalised ``[s, e)`` is part of a phrase the data of one of ``pids`` writes: the word
    with up to three characters of the reply before or after it appears in that product's data ("acne-prone" of
    skin_type "oily, acne-prone", "痘痘肌" of a skin type): the reply restates the data, whatever the word means
    elsewhere ("cures acne" is no such phrase)."""
    low = r.text.lower()
    # the phrase around the word: a hyphenated compound ("acne-prone", "eczema-prone"), or for Chinese the word and
    # the one or two characters after it ("痘痘肌")
    pieces = []
    if e < len(low) and low[e] == "-":
        m = re.match(r"-[a-z]+", low[e:])
        pieces.append(low[s : e + (m.end() if m else 0)])
    if s > 0 and low[s - 1] == "-":
        m = re.search(r"[a-z]+-$", low[max(0, s - 16) : s])
        pieces.append(low[s - (len(m.group()) if m else 0) : e])
    if re.match(r"[\u3400-\u9fff]", low[e : e + 1]):
        pieces += [low[s : e + 1], low[s : e + 2]]
    pieces = [p for p in pieces if len(p) > e - s]
    neg = r.vocab.rx.get("negation")
    for pf in r.pfs(pids):
        for piece in pieces:
            k = pf.text.find(piece)
            while k >= 0:
                if neg is None or neg.search(pf.text, max(0, k - 4), k) is None:
                    return True  # written there plainly, not denied ("不能治疗湿疹" is no phrase to restate)
                k = pf.text.find(piece, k + 1)
    return False


def read_health(r: "Reading", i: int) -> None:
    """A health effect asserted (not denied, not asked) is unsupported: no product's data states one."""
    c = r.clauses[i]
    ct = r.ctext(i)
    # a Latin word's inside is no health word ("secures" holds no "cures", "prevents" is one)
    hm = next((m for m in r.call("health", i)
               if not (m.start() > 0 and ct[m.start() - 1].isalpha() and ct[m.start()].isascii())), None)
    if hm is None:
        return
    rep = r.report
    if not claim_state(r, i, c.start + hm.start()) or negated_after(r, i, c.start + hm.end()) or \
            r.cfind("health_denial", i) or \
            r.vocab.find("health_denial", r.stext(i)) is not None:
        rep.health_denial = True
        return
    if r.cfind("honest_unknown", i) is not None:
        return  # "The listing doesn't specify whether it measures blood pressure": what the data lacks, no claim
    adv = r.cfind("advice", i)
    if rep.health_denial and adv is not None and adv.end() <= hm.start():
        return  # "(it isn't a medical device) please use a proper medical monitor": advice after the denial
    said_not = r.cfind("refusal", i) or r.cfind("hedged_vow", i)
    if said_not is not None and said_not.end() <= hm.start() <= said_not.end() + 20 and \
            not re.match(r"\s*enough\b", r.ctext(i)[said_not.end():]):
        rep.health_denial = True
        return  # "so I can't say it'll heal eczema", "我不敢保证能治好": the effect refused, not claimed
    pids, _ = claim_group(r, i, c.start + hm.start())
    if _in_data_phrase(r, c.start + hm.start(), c.start + hm.end(), pids):
        return  # "made for oily and acne-prone skin": the product's own skin type restated, no effect claimed
    rep.health_claim = True
    r.claim(c.start + hm.start(), c.start + hm.end(), pids, "health", hm.group(), "", True, "unsupported",
            f"'{r.m.original(c.start + hm.start(), c.start + hm.end())}': a health effect the data does not state")


#: Lists whose positive mention is unsupported by any data: (list, attribute, why).
UNSUPPORTED_LISTS = (
    ("guarantee", "promise", "the data guarantees nothing"),
    ("certification", "certification", "the data states no such certification"),
    ("absolute_price", "price", "the data has no prices of other sellers"),
    ("ranking", "ranking", "the data ranks nothing"),
    ("sales_figures", "sales", "the data has no sales figures"),
    ("reviews", "reviews", "the data has no reviews"),
    ("host_promise", "host_promise", "no tool does this and the data offers no such service"),
)


def read_unsupported_lists(r: "Reading", i: int) -> None:
    """Claims no data supports (guarantees, certifications, seller-price superlatives, rankings, sales, reviews)."""
    for name, attr, why in UNSUPPORTED_LISTS:
        if r.has(name):
            _positive_unsupported(r, i, name, attr, why)


# the old private names, for code that still imports them
_measure_in = measure_in
_UNSUPPORTED = UNSUPPORTED_LISTS
_effects = read_effects
_health = read_health
_unsupported_lists = read_unsupported_lists
