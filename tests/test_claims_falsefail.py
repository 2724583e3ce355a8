"""False fails on correct replies (issue 12, branch falsefail): true claims the grader read as false or
unsupported, answers it did not recognise, in wordings and rooms it was not developed on. Each test states the
room data that decides it; correct wordings sit next to look-alike false ones, so a loosening that lets a clear
false statement through fails here too. Rooms: built-in scenarios at a fixed moment and the test rooms under
tests/data/rooms (cycle_en: a cycling room with its own attributes and units)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.envs.session import stream
from hat_env.scoring.claims import read_claims
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.text import normalize
from hat_env.types import Intent

ROOMS = Path(__file__).parent / "data" / "rooms"


def room(name: str, seed: int, t: float) -> RoomState:
    """The scenario (a built-in name or a file of tests/data/rooms) with the catalog of ``seed`` at ``t`` s."""
    path = ROOMS / name
    sc = load_scenario(str(path) if path.is_file() else name)
    r = RoomState(sc, stream(seed, "catalog"))
    r.t = t
    return r


def bad(reply: str, r: RoomState, *intents: Intent) -> list[str]:
    """Reasons of the false or unsupported claims of ``reply``."""
    return [c.reason for c in read_claims(reply, r, intents=intents).bad]


CY = room("cycle_en.yaml", 9209, 200.0)  # CY02 light: run_time 12 h (flash mode), FAQ about 1.5 h at 800 lumens
PE = room("pets_en", 9103, 150.0)  # PT04 cat tree: FAQ assembly about 45 minutes; ships in 5-7 days
BE = room("beauty_zh", 9201, 200.0)  # B003 sunscreen: FAQ 户外每2-3小时补涂; ships within 48 h


@pytest.mark.parametrize(
    ("text", "locale", "want"),
    [
        ("户外记得两三个小时补涂一次", "zh_CN", "2-3个小时"),
        ("三五天发货", "zh_CN", "3-5天"),
        ("七八成新", "zh_CN", "7-8成"),
        ("二十三个", "zh_CN", "23个"),  # a numeral, not a pair
        ("五五开", "zh_CN", "55开"),  # not neighbours
        ("about an hour and a half on high", "en_US", "1.5 hours"),
        ("a year and a half of warranty", "en_US", "1.5 years"),
        ("it takes three quarters of an hour", "en_US", "45 minutes"),
        ("a quarter of an hour", "en_US", "15 minutes"),
    ],
)
def test_spoken_ranges_and_fractions_of_time_are_numbers(text: str, locale: str, want: str) -> None:
    assert want in normalize(text, locale).text


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("It takes roughly three quarters of an hour to put together.", True),
        ("Assembly takes about 45 minutes.", True),
        ("It takes roughly three hours to put together.", False),
    ],
)
def test_three_quarters_of_an_hour_is_45_minutes(reply: str, ok: bool) -> None:
    assert (not bad(reply, PE, Intent("spec", link=4, attr="unknown"))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("户外记得两三个小时补涂一次哦～", True),
        ("户外记得每2-3小时补涂一次", True),
    ],
)
def test_a_pair_of_neighbouring_numerals_is_a_range(reply: str, ok: bool) -> None:
    assert (not bad(reply, BE, Intent("spec", link=3, attr="unknown"))) is ok


EL = room("electronics_en", 9101, 200.0)  # E001 buds 59.99, 49.99 after the $10-off-$50 coupon; E006 stand 24.99


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("$49.99 w/ coupon · white ✅ · black ✅", True),  # "w/" is "with", not watts
        ("$39.99 w/ coupon, white or black", False),
    ],
)
def test_chat_shorthand_with_is_no_unit(reply: str, ok: bool) -> None:
    assert (not bad(reply, EL, Intent("price", link=1))) is ok


def test_one_after_need_is_a_pronoun() -> None:
    reply = "Yes, white! $49.99 after coupon. The tablet stand is $24.99 + $3.99 shipping if you need one for your desk."
    assert not bad(reply, EL, Intent("price", link=1))


def rule_ids(reply: str, name: str, r: RoomState) -> list[str]:
    """Ids of the compliance rules ``reply`` breaks in scenario ``name``'s room ``r``."""
    from hat_env.constraints import compliance_hits
    from hat_env.sim.compliance import RuleSet

    return [h.rule_id for h in compliance_hits(reply, r, RuleSet.for_scenario(load_scenario(name)))]


@pytest.mark.parametrize(
    ("reply", "breaks"),
    [
        ("孕期用之前最好先咨询医生，并在耳后做个局部试用", False),  # "you had better": advice
        ("最好还是冷水洗哦", False),
        ("这是最好用的防晒", True),  # a ranking
        ("全网最好的精华", True),
    ],
)
def test_zuihao_before_advice_is_no_superlative(reply: str, breaks: bool) -> None:
    assert ("CN-ABS" in rule_ids(reply, "beauty_zh", BE)) is breaks


AP = room("appliances_en", 9102, 300.0)  # HA01 air fryer 79.99; coupons $20 off $200+, HOME25 $25 off $300+


@pytest.mark.parametrize(
    ("reply", "breaks"),
    [
        ("$79.99. The store coupons need $200 or $300 orders, so they don't apply on their own.", False),
        ("Over 300 orders this week alone!", True),
    ],
)
def test_an_amount_before_orders_is_no_sales_figure(reply: str, breaks: bool) -> None:
    assert ("US-REVIEWS" in rule_ids(reply, "appliances_en", AP)) is breaks


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Volt Buds Pro: $49.99 after the $10 coupon (reg. $59.99).", True),  # reg. is the regular price
        ("Volt Buds Pro: $49.99 after the $10 coupon (orig. $59.99).", True),
        ("Volt Buds Pro: $49.99 after the $10 coupon (reg. $99.99).", False),  # no such earlier price
    ],
)
def test_abbreviated_reference_prices(reply: str, ok: bool) -> None:
    assert (not bad(reply, EL, Intent("price", link=1))) is ok
