"""The claims engine on number and money reading (issue 12, branch numbers): a number of a correct reply read in
the money role its words and the room's arithmetic give it (a flash price said as ended or as coming later, a gap
to a threshold counted from the amount the sentence stated, the price before a deal when another sentence gives
the price after it, a comparison base), and counts of things the catalog names ("three bags ... left"). Replies
are written for these tests from the room data (``python scenarios/calibration/facts.py room SCENARIO SEED T``).
Each test holds cases that fail on the grader before this branch, next to look-alike wrong replies that must
still fail."""

from __future__ import annotations

import pytest

from hat_env.sim.room import RoomState
from hat_env.types import Intent
from test_claims_generalise2 import bad, room

BE = room("beauty_zh", 1101, 130.0)  # 口红 B002 99元; 全店满199减30
AF = room("apparel_flash_zh", 632665, 300.0)  # 羽绒服 A001 399, 满300减30 -> 369; 秒杀339 ran 0-300 s (ended)
GR = room("groceries_zh", 3101, 100.0)  # 大米 GR04 89 - XIAN12 12 = 77; 秒杀79 runs 120-480 s (later)
AP = room("appliances_en", 3301, 100.0)  # washer HA03 649 -> 604 ($20 coupon + HOME25); fridge HA04 list 1299, 1199 -> 1154
PT = room("pets_en", 3202, 100.0)  # cat food PT03 "7 lb bag", stock 3
HO = room("hogar_es", 9910, 120.0)  # sartén S001 29,90 € (lista 34,90 €); batidora S006 agotada


@pytest.mark.parametrize(("reply", "ok"), [
    ("1号羽绒服上半场秒杀339已经结束啦，现在399，满300减30后369到手", True),
    ("1号羽绒服上半场秒杀329已经结束啦，满300减30后369到手", False),  # the ended flash sale was 339
    ("1号羽绒服还在秒杀，现在339元", False),  # it ended at 300 s
])
def test_an_ended_flash_price_said_as_ended(reply: str, ok: bool) -> None:
    """A flash price in a clause that says the sale ended is that ended sale's price, not today's flash price."""
    reasons = bad(reply, AF, Intent(kind="campaign", link=1))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("4号五常大米现在输入XIAN12减12元，到手77块；待会还有秒杀，秒杀价79元", True),
    ("4号五常大米到手77块；待会还有秒杀，秒杀价69元", False),  # the later sale is at 79
    ("4号五常大米现在秒杀，秒杀价79元", False),  # not running now
])
def test_a_later_flash_price_in_the_clause_after_later(reply: str, ok: bool) -> None:
    """"待会还有秒杀，秒杀价79元": the second clause is the sale its sentence says comes later (the flash word and its
    price both)."""
    reasons = bad(reply, GR, Intent(kind="price", link=4))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("2号口红99元一支，拍两支198元，还差1块钱才能用满199减30～", True),
    ("2号口红99元一支，拍两支198元，还差2块钱才能用满199减30～", False),
    ("2号口红99元，还差100块才能用满199减30", True),
    ("2号口红99元，还差1块钱才能用满199减30", False),  # no two units stated: 199 - 99 is 100
])
def test_a_gap_to_a_threshold_counts_from_the_amount_stated(reply: str, ok: bool) -> None:
    """A gap to a threshold may be counted from an amount the sentence stated before as true of the product (the
    price of two), never from nothing."""
    reasons = bad(reply, BE, Intent(kind="campaign", link=2))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("The AquaClean washer is $649; the $20 store coupon plus code HOME25 take $45 off, so you pay $604.", True),
    ("The AquaClean washer is $649; the $20 store coupon plus code HOME25 take $45 off, so you pay $614.", False),
    ("The AquaClean washer is $649. Enjoy!", False),  # no deal and no price after it: the viewer pays 604
    ("You pay $649 for the AquaClean washer; the coupon brings it to $604.", False),  # "you pay" is the price after
])
def test_the_price_before_a_deal_given_in_another_sentence(reply: str, ok: bool) -> None:
    """The price before a deal, in a sentence without deal or pay words, is true when a later sentence names the
    deal and gives the price after it."""
    reasons = bad(reply, AP, Intent(kind="price", link=3))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("The FrostLine fridge lists at $1,299; it's $1,154 after the $20 coupon and HOME25.", AP, 4, True),
    ("The FrostLine fridge lists at $1,599; it's $1,154 after the $20 coupon and HOME25.", AP, 4, False),  # history: 1299-1499
    ("La sartén cuesta 29,90 €, un 14 % menos que su precio de 34,90 €.", HO, 1, True),
    ("La sartén cuesta 29,90 €, un 14 % menos que su precio de 44,90 €.", HO, 1, False),  # history: 34,90-39,90
    ("La sartén cuesta 29,90 €, un 30 % menos que su precio de 34,90 €.", HO, 1, False),
])
def test_a_list_price_and_a_comparison_base(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """"lists at $X" and "N % menos que su precio de X" give X as the reference price (checked as such), not as
    what the viewer pays."""
    reasons = bad(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("Only three bags of the WhiskerWell left!", PT, 3, True),
    ("Only five bags of the WhiskerWell left!", PT, 3, False),
    ("Hurry, 12 bags of WhiskerWell remaining.", PT, 3, False),
    ("Quedan cincuenta batidoras en el almacén.", HO, 6, False),
])
def test_a_count_of_a_thing_the_catalog_names(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """A bare number before a word of the room's titles or specs ("bags" for a "7 lb bag") counts those things:
    in a stock clause it is the stock count."""
    reasons = bad(reply, r, Intent(kind="stock", link=link))
    assert (not reasons) == ok, reasons
