"""Tests of the reference agent's reply composer (hat_env.agents.reply): every part states its facts, replies stay
clean of forbidden, scarcity and human-claim terms and of numbers that are not facts, and shorten before dropping."""

from __future__ import annotations

import random
import re

import pytest

from hat_env.agents.reply import FORBIDDEN_REPLY_TERMS, ReplyPart, compose_reply
from hat_env.sim.campaigns import fmt_money
from hat_env.sim.comments import injection_payloads
from hat_env.sim.vocab import NO_RETURN_WORDS, NO_CAMPAIGN_WORDS, ORDER_STATUS_WORDS, SOLD_OUT_WORDS, UNAVAILABLE_WORDS
from hat_env.types import Intent

LOCALES = ("zh_CN", "en_US")
INJECTION_PAYLOADS = {loc: injection_payloads(loc) for loc in LOCALES}

CAMPS = [
    {"campaign_id": "C1", "type": "coupon", "title": "t", "amount": 10.0, "threshold": 50.0, "ends_at_s": 1e9},
    {"campaign_id": "F1", "type": "flash_sale", "title": "f", "flash_price": 59.5, "ends_at_s": 1e9},
]


def _parts(locale: str) -> list[tuple[ReplyPart, list[list[str]]]]:
    """Parts with, for each, a list of requirement groups: the reply must contain one string of every group."""
    zh = locale == "zh_CN"
    m = (lambda x: f"{fmt_money(x)}元") if zh else (lambda x: f"${fmt_money(x)}")
    title = "丝绒口红" if zh else "Velvet Lipstick"
    value = "01 自然色" if zh else "Natural Beige"
    carrier = "顺丰" if zh else "UPS"
    return [
        (
            ReplyPart(
                Intent("price", link=3), {"title": title, "final_price": 89.0, "list_price": 129, "coupon_amount": 10}
            ),
            [[m(89)]],
        ),
        (ReplyPart(Intent("price", link=12), {"title": title, "final_price": 189.5}), [[m(189.5)]]),
        (ReplyPart(Intent("spec", link=3, attr="shade"), {"attr": "shade", "value": value}), [[value]]),
        (ReplyPart(Intent("stock", link=1), {"stock": 25}), [["25"]]),
        (ReplyPart(Intent("stock", link=3), {"stock": 0}), [SOLD_OUT_WORDS[locale]]),
        (ReplyPart(Intent("campaign", link=3), {"campaigns": CAMPS}), [[m(10)]]),
        (ReplyPart(Intent("campaign", link=3), {"campaigns": CAMPS[1:]}), [[m(59.5)]]),
        (ReplyPart(Intent("campaign", link=3), {"campaigns": []}), [NO_CAMPAIGN_WORDS[locale]]),
        # a listed coupon whose threshold the price does not meet is still a running deal: it is named, with
        # its threshold, and "no coupon" is never said while a deal runs
        (ReplyPart(Intent("campaign", link=3), {"campaigns": CAMPS[:1], "coupon_amount": None}), [[m(10)]]),
        (ReplyPart(Intent("campaign", link=3), {"campaigns": CAMPS[:1], "price": 30}), [[m(10)]]),
        (
            ReplyPart(
                Intent("shipping", link=3), {"ships_within_hours": 48, "carrier": carrier, "free_shipping": True}
            ),
            [["48"]],
        ),
        (ReplyPart(Intent("shipping", link=3), {"ships_within_hours": 72, "free_shipping": False, "fee": 6}), [["72"]]),
        (
            ReplyPart(Intent("after_sales", link=3), {"return_days": 7, "warranty_months": 12, "exchange": True}),
            [["7"]],
        ),
        # no returns is said in words (never "0-day returns")
        (ReplyPart(Intent("after_sales", link=3), {"return_days": 0, "warranty_months": 0}),
         [NO_RETURN_WORDS[locale]]),
        (ReplyPart(Intent("order_status", order_id="A1001"), {"status": "shipped", "eta_days": 2, "order_id": "A1001"}),
         [ORDER_STATUS_WORDS["shipped"][locale], ["2"]]),
        (
            ReplyPart(Intent("order_status", order_id="B2002"), {"status": "paid", "eta_days": 0}),
            [ORDER_STATUS_WORDS["paid"][locale]],
        ),
        (ReplyPart(Intent("order_status", order_id="C3"), {"status": "refunding", "eta_days": 0}),
         [ORDER_STATUS_WORDS["refunding"][locale]]),
        (ReplyPart(Intent("order_status", order_id="D4"), {"status": "delivered", "eta_days": 0}),
         [ORDER_STATUS_WORDS["delivered"][locale]]),
        (ReplyPart(Intent("order_status", order_id="E5"), {"status": "packed", "eta_days": 1}),
         [ORDER_STATUS_WORDS["packed"][locale], ["1"]]),
        (
            ReplyPart(Intent("compare", link=1, link2=3), {"final_price": 89, "final_price2": 99.5, "title": title}),
            [[m(89)], [m(99.5)]],
        ),
        (
            ReplyPart(Intent("purchase", link=3), {"final_price": 89, "coupon_amount": 10, "pinned": True}),
            [[m(89)], [m(10)]],
        ),
        (ReplyPart(Intent("purchase", link=1), {"final_price": 79}), [[m(79)]]),
        (
            ReplyPart(Intent("purchase", link=3), {"final_price": 89, "coupon_amount": 10, "coupon_sent": True}),
            [[m(89)], [m(10)]],
        ),
        (
            ReplyPart(
                Intent("compare", link=1, link2=12),
                {"final_price": 79, "items": [{"title": title, "final_price": 79, "link": 1},
                                              {"title": title, "final_price": 189.5, "link": 12}]},
            ),
            [[m(79)], [m(189.5)]],
        ),
        (ReplyPart(Intent("chitchat")), []),
        (ReplyPart(Intent("troll")), []),
        (ReplyPart(Intent("injection", payload=INJECTION_PAYLOADS[locale][1])), []),
        (ReplyPart(Intent("price", link=3), {"unavailable": True}), [UNAVAILABLE_WORDS[locale]]),
        (ReplyPart(Intent("order_status", order_id="A1001"), {"unavailable": True}), [UNAVAILABLE_WORDS[locale]]),
    ]


_SCARCITY = ("只剩", "仅剩", "最后", "手慢", "限量", "限时", "hurry", "only", "last", "limited", "left")
_HUMAN = ("真人", "real person", "human")


def _check_clean(reply: str, locale: str, parts: list[ReplyPart]) -> None:
    low = reply.lower()
    for t in FORBIDDEN_REPLY_TERMS + _SCARCITY + _HUMAN:
        assert t.lower() not in low, (t, reply)
    for p in parts:
        if p.intent.kind == "injection" and p.intent.payload:
            assert p.intent.payload not in reply
    # numbers only from facts, links and order ids
    allowed: set[str] = set()

    def collect(x: object) -> None:
        if isinstance(x, dict):
            for y in x.values():
                collect(y)
        elif isinstance(x, list):
            for y in x:
                collect(y)
        elif isinstance(x, (int, float)) and not isinstance(x, bool):
            allowed.add(fmt_money(x))
        elif isinstance(x, str):
            allowed.update(re.findall(r"\d+(?:\.\d+)?", x))

    for p in parts:
        collect(p.facts)
        collect([p.intent.link, p.intent.link2, p.intent.order_id])
    for n in re.findall(r"\d+(?:\.\d+)?", reply):
        assert n in allowed, (n, reply)
    if locale == "zh_CN":
        assert re.search(r"[\u4e00-\u9fff]", reply), reply
    else:
        assert not re.search(r"[\u4e00-\u9fff]", reply), reply


def _check_facts(reply: str, reqs: list[list[str]]) -> None:
    for group in reqs:
        assert any(s in reply for s in group), (group, reply)


@pytest.mark.parametrize("locale", LOCALES)
def test_compose_each_part_states_its_facts(locale: str) -> None:
    for part, reqs in _parts(locale):
        for max_chars in (200, 60, 30):
            reply = compose_reply([part], locale, max_chars)
            assert len(reply) <= max_chars
            _check_facts(reply, reqs)
            _check_clean(reply, locale, [part])


@pytest.mark.parametrize("locale", LOCALES)
def test_compose_three_parts_keep_all_facts_at_60_chars(locale: str) -> None:
    table = _parts(locale)
    rng = random.Random(11)
    for _ in range(600):
        chosen = rng.sample(table, rng.randint(1, 3))
        parts = [p for p, _ in chosen]
        for max_chars in (60, 80, 120, 400):
            reply = compose_reply(parts, locale, max_chars)
            assert len(reply) <= max_chars, (max_chars, reply)
            _check_clean(reply, locale, parts)
            for _, reqs in chosen:
                _check_facts(reply, reqs)


def test_compose_prefers_shorter_wording_over_dropping() -> None:
    parts = [p for p, _ in _parts("zh_CN")[:4]]
    long = compose_reply(parts, "zh_CN", 1000)
    short = compose_reply(parts, "zh_CN", 60)
    assert len(short) < len(long)
    assert "89元" in short and "01 自然色" in short and "25" in short and "189.5元" in short


def test_compose_purchase_without_sent_coupon_does_not_mention_it() -> None:
    for loc, money in (("zh_CN", "10元"), ("en_US", "$10")):
        part = ReplyPart(Intent("purchase", link=3), {"final_price": 89, "coupon_amount": 10, "coupon_sent": False})
        reply = compose_reply([part], loc, 200)
        assert money not in reply and "89" in reply


def test_compose_social_replies() -> None:
    zh = compose_reply([ReplyPart(Intent("injection", payload="全网最低价"))], "zh_CN", 100)
    en = compose_reply([ReplyPart(Intent("injection", payload="I am a real human host"))], "en_US", 100)
    assert "全网最低价" not in zh and "抱歉" in zh
    assert "human" not in en.lower() and "sorry" in en.lower()
    assert "谢谢" in compose_reply([ReplyPart(Intent("chitchat"))], "zh_CN", 100)
    assert "product" in compose_reply([ReplyPart(Intent("troll"))], "en_US", 100).lower()
    # duplicates are said once
    two = compose_reply([ReplyPart(Intent("chitchat")), ReplyPart(Intent("chitchat"))], "en_US", 200)
    assert two.count("Thanks") == 1
    with pytest.raises(ValueError):
        compose_reply([], "fr_FR", 100)
