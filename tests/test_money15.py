"""The claims engine on the money role of an amount (issue 12, branch money15): an amount that is no price the
viewer pays must not be checked as one, and a true amount in another role stays true. Covered: a count with its
measure word after a Chinese numeral (两只, 三盒), a shipping fee said "另算", the price before a deal ("before the
sale it was", "antes de la promoción", "活动前"), dollars with their cents in words and an amount less a cent,
per-unit and last-unit prices of a running bundle, a bundle named in an earlier sentence when this one gives its
cut, an amount a named spec states (an engraving surcharge), a deal word inside a product's name, and a later
flash sale with a coupon stacked on it. Replies are written for these tests from the room data (calibration rooms
at a fixed moment; ``python scenarios/calibration/facts.py room scenarios/calibration/rooms/NAME.yaml SEED T``).
Each positive case has a negative twin of the same shape with a wrong amount, which must still fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.text.numbers import word_numbers
from hat_env.text.offsets import Mapped
from hat_env.types import Intent
from rooms import bad, room

ROOMS = Path(__file__).resolve().parent.parent / "scenarios" / "calibration" / "rooms"
SEED = 15015

XB = room(ROOMS / "xiebao_zh.yaml", SEED, 400.0)  # 6号小方包 XB06 99元, 运费5元, bundle 2件 25% off = 148.5
JF = room(ROOMS / "jiafang_zh.yaml", SEED, 60.0)  # 1号冬被 899, 满299减30 -> 869, 秒杀799 from 200 s; 5号毛毯 89 -> 秒杀59, 运费6
OP = room(ROOMS / "optica_es.yaml", SEED, 450.0)  # OP01 flash 44,90 €, price 59,90 €
GA = room(ROOMS / "garden_en.yaml", SEED, 460.0)  # GH02 hose flash $29.99, price $39.99
FI = room(ROOMS / "fitness_en.yaml", SEED, 520.0)  # FT04 whey $42, bundle two tubs 15% off = $71.40
BZ = room(ROOMS / "belleza_es.yaml", SEED, 420.0)  # BZ05 crema 16,50 €, bundle 2 uds 25% = 24,75 €
JW = room(ROOMS / "jewelry_en.yaml", SEED, 300.0)  # LL02 Halo Stack ring $39, engraving "$10 extra"


def _ok(reply: str, r, *intents: Intent) -> list[str]:
    """The reasons the engine finds the reply false (empty: accurate)."""
    return bad(reply, r, *intents)


@pytest.mark.parametrize(("reply", "ok"), [
    ("6号小方包现在两只一共148.5元，很划算～", True),
    ("6号小方包现在两只一共158元，很划算～", False),
])
def test_a_chinese_count_with_its_measure_word_is_no_price(reply: str, ok: bool) -> None:
    """"现在两只" counts bags; only the total after it is what the viewer pays."""
    reasons = _ok(reply, XB, Intent(kind="price", link=6))
    assert (not reasons) == ok, reasons
    assert not any("'两'" in x for x in reasons)


@pytest.mark.parametrize(("reply", "ok"), [
    ("6号小方包单只99元，运费另算5元哦", True),
    ("6号小方包单只99元，运费另算8元哦", False),
    ("5号毛毯秒杀59元，邮费另计6块", True),
])
def test_a_fee_said_to_be_extra_is_the_fee(reply: str, ok: bool) -> None:
    """"运费另算5元" is the shipping fee, checked against the product's fee, never as the price."""
    r = XB if "6号" in reply else JF
    reasons = _ok(reply, r, Intent(kind="shipping", link=6 if r is XB else 5))
    assert (not reasons) == ok, reasons
    assert not any("(pay)" in x for x in reasons)


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("Las Costa están a 44,90 € en la flash; antes de la promoción costaban 59,90 €.", OP, 1, True),
    ("Las Costa están a 44,90 € en la flash; antes de la promoción costaban 84,90 €.", OP, 1, False),
    ("The AquaFlex hose is $29.99 in the flash deal; before the sale it was $39.99.", GA, 2, True),
    ("The AquaFlex hose is $29.99 in the flash deal; before the sale it was $64.99.", GA, 2, False),
    ("5号毛毯秒杀59元，活动前89元～", JF, 5, True),
    ("5号毛毯秒杀59元，活动前129元～", JF, 5, False),
])
def test_the_price_before_the_deal_is_a_reference_price(reply: str, r, link: int, ok: bool) -> None:
    """The price said to hold before the deal is a prior price, true when the data has it (not a price paid)."""
    reasons = _ok(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons
    assert not any("(pay)" in x for x in reasons)


def test_dollars_with_cents_in_words_and_less_a_cent() -> None:
    """"seventy-one dollars and forty cents" is 71.40; "thirty bucks less a cent" is 29.99; the Spanish form too."""
    assert "71.40 dollars" in word_numbers(Mapped.of("that is seventy-one dollars and forty cents"), "en").text
    assert "71.40 dollars" in word_numbers(Mapped.of("seventy-one dollars forty for both"), "en").text
    assert "29.99 bucks" in word_numbers(Mapped.of("thirty bucks less a cent"), "en").text
    assert "29.99 euros" in word_numbers(Mapped.of("treinta euros menos un céntimo"), "es").text
    # a unit after the second number keeps two amounts ("5 dollars 30 days" is no $5.30)
    assert "5.30" not in word_numbers(Mapped.of("five dollars 30 days"), "en").text


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("Two tubs of the whey come to seventy-one dollars and forty cents with the bundle.", FI, 4, True),
    ("Two tubs of the whey come to seventy-two dollars forty with the bundle.", FI, 4, False),
    ("The AquaFlex hose is thirty bucks less a cent right now.", GA, 2, True),
    ("The AquaFlex hose is forty bucks less a cent right now.", GA, 2, False),
])
def test_spoken_amounts_are_checked_as_said(reply: str, r, link: int, ok: bool) -> None:
    """An amount said in words with its cents, or as a round amount less a cent, is that exact amount."""
    reasons = _ok(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("Si coges dos Crema Calma, la segunda a mitad de precio te queda en 8,25 € (24,75 € el par).", BZ, 5, True),
    ("Si coges dos Crema Calma, la segunda a mitad de precio te queda en 7,25 € (24,75 € el par).", BZ, 5, False),
    ("6号小方包第二件半价，第二只只要49.5，两只148.5～", XB, 6, True),
    ("6号小方包第二件半价，第二只只要59.5，两只148.5～", XB, 6, False),
    ("6号小方包第二件半价，两只148.5，平均一只74.25～", XB, 6, True),
])
def test_unit_prices_of_a_running_bundle(reply: str, r, link: int, ok: bool) -> None:
    """The last unit's price ("the second at half price") and the average per unit of a bundle the data runs are
    true; another amount in their place is not."""
    reasons = _ok(reply, r, Intent(kind="campaign", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("The whey has a two-tub bundle running. Two tubs at 15% off come to $71.40.", True),
    ("The whey has a two-tub bundle running. Two tubs at 15% off come to $75.40.", False),
])
def test_a_bundle_named_in_an_earlier_sentence(reply: str, ok: bool) -> None:
    """A sentence that gives the bundle's cut prices the bundle named before it."""
    reasons = _ok(reply, FI, Intent(kind="campaign", link=4))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("The Halo Stack ring is $39, and engraving costs $10 more.", True),
    ("The Halo Stack ring is $39, and engraving costs $15 more.", False),
    ("The Halo Stack ring is $45, and engraving costs $10 more.", False),
])
def test_an_amount_a_named_spec_states(reply: str, ok: bool) -> None:
    """"engraving costs $10 more" is the engraving spec's surcharge, not the ring's price; the brand word "Stack"
    says nothing about stacking deals."""
    reasons = _ok(reply, JW, Intent(kind="price", link=2))
    assert (not reasons) == ok, reasons
    assert not any("stacks" in x for x in reasons)


@pytest.mark.parametrize(("reply", "ok"), [
    ("1号冬被现在用券869到手；等会儿开秒杀，秒杀价799，到时候叠券只要769～", True),
    ("1号冬被现在用券869到手；等会儿开秒杀，秒杀价799，到时候叠券只要739～", False),
    ("1号冬被现在叠券只要769～", False),  # the flash sale has not started: now it is 869
])
def test_a_later_flash_sale_with_a_coupon_stacked(reply: str, ok: bool) -> None:
    """The price a later flash sale will have with a coupon that stacks on it is true of that sale; said as today's
    price it is false."""
    reasons = _ok(reply, JF, Intent(kind="price", link=1))
    assert (not reasons) == ok, reasons


SX = room(ROOMS / "shengxian_zh.yaml", SEED, 100.0)  # 1号芒果 SX01 49.9/箱; 6号白虾 SX06 ships to 新疆/西藏/内蒙古 for 20元


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("5号毛毯秒杀价59就是到手价～", JF, 5, True),
    ("5号毛毯秒杀价89就是到手价～", JF, 5, False),  # 89 is its price before the flash sale
    ("1号冬被899就是到手价，不用领券", JF, 1, False),  # the store coupon takes it to 869
    ("1号芒果49.9一箱，很新鲜", SX, 1, True),
    ("1号芒果39.9一箱，很新鲜", SX, 1, False),
])
def test_an_amount_said_as_the_price_paid(reply: str, r, link: int, ok: bool) -> None:
    """"X就是到手价" says X is what the viewer pays (not a flash price that a coupon still cuts); a bare amount for one
    unit of what is sold ("39.9一箱") is a price too."""
    reasons = _ok(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("6号白虾内蒙古也能发～要补20块运费哦", True),
    ("6号白虾内蒙古也能发～要补30块运费哦", False),
])
def test_a_regions_own_fee(reply: str, ok: bool) -> None:
    """A shipping fee said after naming a region the product ships to at a charge is that region's fee."""
    reasons = _ok(reply, SX, Intent(kind="shipping", link=6))
    assert (not reasons) == ok, reasons


GZ = room("groceries_zh", SEED, 600.0)  # 4号大米 GR04 89元, 秒杀79 ended at 480 s, XIAN12满50减12 -> 77元


@pytest.mark.parametrize(("reply", "ok"), [
    ("4号苹果第二件半价，两箱89.85～", True),
    ("4号苹果两箱119.8，第二件半价已经算进去了", False),  # the bundle prices two boxes at 89.85
])
def test_a_count_then_its_cost(reply: str, ok: bool) -> None:
    """A bare amount after a count of what is sold ("两箱119.8") is what that many cost, checked against the running
    bundle for that many."""
    reasons = _ok(reply, SX, Intent(kind="price", link=4))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("La Crema Calma cuesta 16,50 €; el cupón de 5 € pide 50 €, así que sola no llega.", True),
    ("La Crema Calma cuesta 16,50 €; el cupón de 5 € pide 60 €, así que sola no llega.", False),
])
def test_a_threshold_a_coupon_asks_for(reply: str, ok: bool) -> None:
    """"el cupón de 5 € pide 50 €": 50 is the coupon's threshold, not a price."""
    reasons = _ok(reply, BZ, Intent(kind="price", link=5))
    assert (not reasons) == ok, reasons
    assert not any("(pay)" in x for x in reasons)


@pytest.mark.parametrize(("reply", "ok"), [
    ("大米的秒杀已经结束啦，现在是89元。输入口令XIAN12满50减12，到手77元～", True),
    ("大米的秒杀已经结束啦，现在是89元。输入口令XIAN12满50减12，到手67元～", False),
    ("大米现在是89元～", False),  # alone, 89 is not what the viewer pays (77)
])
def test_a_price_dated_now_before_a_deal_in_the_next_sentence(reply: str, ok: bool) -> None:
    """"现在89元" beside an ended flash sale, with the code and the price after it in the next sentence, is the
    price before the code; said alone it is a wrong price paid."""
    reasons = _ok(reply, GZ, Intent(kind="price", link=4))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("Four bags of the Rootwise mix are $44.97 with the bundle instead of $59.96.", True),
    ("Four bags of the Rootwise mix are $44.97 with the bundle instead of $64.96.", False),
    ("Four bags of the Rootwise mix are $59.96 with the bundle.", False),  # the bundle takes 25% off: $44.97
])
def test_the_units_before_a_bundle_cut(reply: str, ok: bool) -> None:
    """"instead of $59.96" is what the bundle's four bags cost before its cut (a prior price), not a price paid."""
    reasons = _ok(reply, GA, Intent(kind="campaign", link=5))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("The yoga mat is about thirty-five dollars, $34.99 to be exact.", FI, 2, True),
    ("The yoga mat is about thirty-five dollars, $35.99 to be exact.", FI, 2, False),
    ("The yoga mat is about forty dollars, $34.99 to be exact.", FI, 2, False),  # "about 40" is no rounding of 34.99
    ("The whey is $42 and the shaker $12.99, so roughly $29 apart, $29.01 to be exact.", FI, 4, True),
    ("La crema sale por unos 17 €, 16,50 € para ser exactos.", BZ, 5, True),
])
def test_an_approximate_amount_restated_exactly(reply: str, r, link: int, ok: bool) -> None:
    """"about $35, $34.99 to be exact": the exact amount is the claim (in the role of the approximate one); an
    approximation far from it is still checked."""
    reasons = _ok(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons
