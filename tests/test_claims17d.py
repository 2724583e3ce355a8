"""claims17d: the grader on rooms it was never tuned on (rounds 15 and 16).

- A number written as the product's own title (or its active gift) writes it ("the Kestrel Action Camera 4K",
  "the 4-piece set") names the item: it is no price, spec or count claim, while a number that differs from the
  title, or money written with a currency sign ("$4K"), is still checked.
- A carrier name is a word: "UPS" is not read inside "pickups", while "ships UPS" of a FedEx product stays false.

Each positive case sits next to a near miss that must keep its verdict. Rooms: the dev rooms photo_en and the
built-in pets_en (``python scenarios/calibration/facts.py room ...`` shows their data).
"""

from __future__ import annotations

import pytest

from tests.rooms import bad, room

PHOTO = room("photo_en.yaml", 7, 100.0)
PETS = room("pets_en", 7, 100.0)


@pytest.mark.parametrize(
    "reply",
    [
        "The Kestrel Waterproof Action Camera 4K lists at $249 and you pay $199.",
        "The Kestrel Action Camera 4K is $249 list, $199 now.",
        "Our Swiftcard 128GB card is $29, down from $39.",
    ],
)
def test_a_number_of_the_title_is_the_name(reply: str) -> None:
    """"4K" of "Kestrel ... Action Camera 4K" names the camera; it is no price the viewer pays or a was-price."""
    assert bad(reply, PHOTO) == []


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        ("The Kestrel Action Camera 4K is $249 list, $179 now.", "'179' (pay)"),
        ("The Kestrel action camera is $4K.", "'4K' (pay)"),
        ("The Kestrel 12L sling bag is roomy.", "'12L'"),
        ("The Swiftcard 256GB card holds a lot of footage.", "'256'"),
    ],
)
def test_a_number_unlike_the_title_is_still_checked(reply: str, needle: str) -> None:
    """A wrong price beside the title's number, money written "$4K", or a size the title does not write
    ("12L" of a 10L bag) is still false."""
    reasons = bad(reply, PHOTO)
    assert any(needle in x for x in reasons), reasons


def test_a_title_number_still_answers_as_true() -> None:
    """The title's number that the data also states ("10L" of the Sling Bag 10L, capacity "10 L") stays a true
    capacity claim, so it still answers a capacity question."""
    from hat_env.scoring.claims import read_claims

    rep = read_claims("The Kestrel Sling Bag 10L holds 10L.", PHOTO)
    assert rep.bad == []
    assert any(c.verdict == "true" and c.attribute == "spec:capacity" for c in rep.claims)


def test_a_carrier_is_not_read_inside_a_word() -> None:
    """"pickups" holds no "UPS": the FedEx dog bed said to fit pickups makes no carrier claim."""
    assert bad("The CloudRest dog bed fits in most pickups and SUVs.", PETS) == []


def test_a_wrong_carrier_said_as_a_word_stays_false() -> None:
    """Twin: "goes out by UPS" of the FedEx dog bed is false."""
    assert any("ships by FedEx" in x for x in bad("The CloudRest dog bed goes out by UPS.", PETS))


HOGAR = room("hogar_es", 7, 100.0)  # cafetera 119 €, cupón de 5 € desde 40 €: 114 € a pagar


@pytest.mark.parametrize(
    "reply",
    [
        "La cafetera Barista Pro cuesta 119 € y, como supera los 40 €, el cupón de 5 € la deja en 114.",
        "La cafetera Barista Pro sale a 119 €, y ya que pasa de 40 €, el cupón de 5 € te la deja en 114.",
    ],
)
def test_a_spanish_threshold_said_as_a_reason(reply: str) -> None:
    """"como supera los 40 €" / "ya que pasa de 40 €" give the coupon's threshold, not a price; "la deja en 114"
    is what the viewer pays, its currency elided."""
    assert bad(reply, HOGAR) == []


@pytest.mark.parametrize(
    ("reply", "needle"),
    [
        ("La cafetera Barista Pro cuesta 119 € y, como supera los 60 €, el cupón de 5 € la deja en 114.",
         "(threshold)"),
        ("La cafetera Barista Pro cuesta 119 € y, como supera los 40 €, el cupón de 5 € la deja en 109.",
         "'109' (pay)"),
    ],
)
def test_a_wrong_spanish_threshold_or_final_price_is_false(reply: str, needle: str) -> None:
    """Twins: a threshold the coupon does not have, or a final price "la deja en 109" that is not 114, are false."""
    reasons = bad(reply, HOGAR)
    assert any(needle in x for x in reasons), reasons


TONGQU = room("tongqu_zh.yaml", 7, 100.0)  # 3号兔子玩偶 size "40cm", 7天无理由
CHAYE = room("chaye_zh.yaml", 7, 100.0)  # 1号龙井 FAQ: 开罐后建议3个月内喝完


def test_a_time_beside_a_spec_that_is_no_time_is_the_policy_window() -> None:
    """"尺码不合适7天内还能换" names the size, but a size ("40cm") states no time: the 7 days are the product's
    return window, which is 7 days."""
    assert bad("3号兔子玩偶40cm高，尺码不合适7天内还能换一次～", TONGQU) == []


def test_a_wrong_window_beside_the_size_stays_false() -> None:
    """Twin: 15 days is no time of the toy's data."""
    assert bad("3号兔子玩偶40cm高，尺码不合适15天内还能换一次～", TONGQU) != []


def test_days_for_a_time_the_data_gives_in_months() -> None:
    """"九十天" restates the FAQ's "3个月" (a month of 30 days), though no time of the data is 90 days."""
    assert bad("1号龙井开罐后大约能喝九十天，记得密封冷藏", CHAYE) == []


def test_days_matching_no_time_of_the_data_stay_false() -> None:
    """Twin: "两百天" is no time the data states in days or months."""
    assert bad("1号龙井开罐后大约能喝两百天，记得密封冷藏", CHAYE) != []


GROCERIES = room("groceries_zh", 7, 100.0)  # 1号脐橙 600 in stock, no bundle deal
CHAJU = room("chaju_zh.yaml", 7, 100.0)  # 2号紫砂壶: no exchanges


def test_the_second_item_of_a_deal_is_no_stock_count() -> None:
    """"还有第二件半价" speaks of a deal's second item (a bundle claim, false here), not of 2 units in stock."""
    reasons = bad("1号脐橙还有第二件半价～", GROCERIES)
    assert not any("stock" in x for x in reasons), reasons
    assert any("bundle" in x for x in reasons), reasons


def test_a_stock_count_of_two_is_still_checked() -> None:
    """Twin: "只剩2件" is a stock count, and 600 are in stock."""
    assert any("stock is 600" in x for x in bad("1号脐橙只剩2件了", GROCERIES))


def test_replacing_an_item_is_no_exchange_claim() -> None:
    """"想替换的话，再拍一把" is buying a new one, not the shop's exchange policy."""
    assert bad("2号紫砂壶用久了想替换的话，直接再拍一把就行", CHAJU) == []


@pytest.mark.parametrize("reply", ["2号紫砂壶不满意可以换货哦", "2号紫砂壶不满意可以换一把"])
def test_an_exchange_promise_stays_false(reply: str) -> None:
    """Twin: promising an exchange of the teapot, which takes none, is false."""
    assert any("exchange is False" in x for x in bad(reply, CHAJU))


def test_shipping_s_free_is_a_free_shipping_claim() -> None:
    """"Shipping's free" (the contraction glued to the noun) claims free shipping: false of the cat food, which
    ships for a fee."""
    assert any("free_shipping is False" in x for x in bad("Shipping's free on the WhiskerWell cat food.", PETS))


def test_shipping_s_free_of_a_free_shipping_product_is_true() -> None:
    """Twin: the same words of the puppy food, which ships free, are a true claim."""
    from hat_env.scoring.claims import read_claims

    rep = read_claims("Shipping's totally free on the TrailPaw puppy food.", PETS)
    assert rep.bad == []
    assert any(c.verdict == "true" and "free" in c.text.lower() for c in rep.claims)
