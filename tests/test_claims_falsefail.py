"""False fails on correct replies (issue 12, branch falsefail): true claims the grader read as false or
unsupported, answers it did not recognise, in wordings and rooms it was not developed on. Each test states the
room data that decides it; correct wordings sit next to look-alike false ones, so a loosening that lets a clear
false statement through fails here too. Rooms: built-in scenarios at a fixed moment and the test rooms under
tests/data/rooms (cycle_en: a cycling room with its own attributes and units)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.text import normalize
from hat_env.types import Intent

from rooms import bad, room

ROOMS = Path(__file__).parent / "data" / "rooms"


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


# --- claims engine (hat_env/scoring/claims) -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        # "700x38" in the tire's title is a code: its 38 counts no tires
        ("Grab 2 Gravelking tires and the bundle takes 10% off: $54 x 2 = $108, minus 10% = $97.20.", True),
        ("Yep! One road tube, two tire levers and a mini tool fit inside the 1.2-liter bag.", True),
    ],
)
def test_a_number_inside_a_title_code_counts_nothing(reply: str, ok: bool) -> None:
    assert (not bad(reply, CY, Intent("spec", link=6, attr="unknown"))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("The $49 blender flash deal already wrapped up, sorry! It's $59 now.", True),
        ("The blender flash deal already wrapped up; it's $49 now.", False),  # 59 now
        ("Yes, the blender flash deal is still live at $49!", False),
    ],
)
def test_an_amount_of_a_flash_deal_said_to_have_ended_is_that_deals(reply: str, ok: bool) -> None:
    assert (not bad(reply, AP, Intent("campaign", link=2))) is ok  # HA02 flash $49 ran 0-300 s; t=300


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("暂时没有孕妇使用的相关信息，建议先咨询医生并在耳后试用", True),
        ("商品信息里没提到孕妇能不能用，保险起见先咨询医生～", True),
        ("孕妇也能放心用", False),  # the data does not say so
    ],
)
def test_a_feature_in_a_clause_saying_the_data_lacks_it_is_not_claimed_zh(reply: str, ok: bool) -> None:
    assert (not bad(reply, BE, Intent("spec", link=6, attr="unknown"))) is ok  # B006 cleanser: no pregnancy data


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("The listing says up to 65W from one USB-C port. It doesn't say anything about a 16-inch MacBook Pro.", True),
        ("It doesn't charge laptops.", False),  # the FAQ: enough for most 13-14 inch laptops
    ],
)
def test_a_feature_in_a_clause_saying_the_data_lacks_it_is_not_claimed_en(reply: str, ok: bool) -> None:
    assert (not bad(reply, EL, Intent("spec", link=5, attr="unknown"))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("The listing doesn't specify whether it measures blood pressure.", True),
        ("I'd check with support on that one, the listing is silent on blood pressure.", True),
        ("It measures your blood pressure too!", False),
    ],
)
def test_a_health_effect_in_a_clause_saying_the_data_lacks_it(reply: str, ok: bool) -> None:
    assert (not bad(reply, EL, Intent("spec", link=3, attr="unknown"))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("口红99元～沾杯的问题我稍后再跟你确认下哈", True),
        ("口红99，沾杯这个我待会儿再回复你哈", True),
        ("口红99元，完全不沾杯～", True),  # the FAQ: 成膜后不易沾杯
        ("口红99元，会沾杯哦", False),
    ],
)
def test_a_feature_put_off_for_later_is_not_claimed(reply: str, ok: bool) -> None:
    assert (not bad(reply, BE, Intent("price", link=2), Intent("spec", link=2, attr="unknown"))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Returns aren't possible after installation (final sale).", True),
        ("Heads up, the fridge becomes non-returnable once installed.", True),
        ("If it shows up damaged, we swap it at no cost.", True),  # the note: delivery damage is replaced free
        ("You can return the fridge within 30 days.", False),
        ("If you change your mind, we swap it at no cost.", False),  # no exchange beyond delivery damage
    ],
)
def test_policy_said_in_other_words(reply: str, ok: bool) -> None:
    assert (not bad(reply, AP, Intent("after_sales", link=4))) is ok  # HA04: final sale once installed


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Tablet stand: $24.99. Earbuds: $49.99 after the $10 coupon. So $25 apart.", True),
        ("Tablet stand: $24.99 after the $10 coupon. Earbuds: $49.99.", False),  # the stand is under $50
    ],
)
def test_a_name_after_another_sentence_is_not_modified_by_it(reply: str, ok: bool) -> None:
    assert (not bad(reply, EL, Intent("price", link=6), Intent("price", link=1))) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Runtime is 12 hours in flash mode, about an hour and a half at the full 800 lumens.", True),
        ("Runtime is 12 hours in flash mode, about 3 hours at the full 800 lumens.", False),
    ],
)
def test_a_spec_time_may_restate_the_faq_clause_holding_it(reply: str, ok: bool) -> None:
    assert (not bad(reply, CY, Intent("spec", link=2, attr="run_time"))) is ok  # FAQ: at 800 lumens about 1.5 h


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("It ships in 3-5 days with free shipping plus a $39 oversize fee; installation at delivery is $129.", True),
        ("It ships in 3-5 days with free shipping plus a $39 oversize fee; installation at delivery is $99.", False),
    ],
)
def test_a_fee_word_after_at_modifies_the_one_before(reply: str, ok: bool) -> None:
    assert (not bad(reply, AP, Intent("shipping", link=6))) is ok  # HA06 dishwasher: installation $129


AF = room("apparel_flash_zh", 9203, 200.0)  # A003 jeans 169; a 129 flash sale runs 300-900 s (later)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("另外下半场有牛仔裤秒杀129元，可以蹲一下", True),  # a later clause says: wait for it
        ("牛仔裤现在秒杀129元，可以蹲一下", False),  # now it is 169
        ("牛仔裤秒杀99元，可以蹲一下", False),  # not the later flash price
    ],
)
def test_a_deal_a_later_clause_says_to_wait_for_is_later(reply: str, ok: bool) -> None:
    assert (not bad(reply, AF, Intent("spec", link=3, attr="unknown"))) is ok
