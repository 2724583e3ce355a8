"""The claims engine on money roles, derived amounts, unit conversions and order/after-sales states (issue 12,
branch money): fees read from the room's own fields (shipping, oversize, installation), unit prices,
differences and threshold gaps, totals with fees, a measure restated in another unit, the nearest topic word of a
time, negated refund and return states. Replies are written for these tests from the room data (rooms are
built-in scenarios at a fixed moment; ``python scenarios/calibration/facts.py room SCENARIO SEED T`` prints
them). Each test holds cases that fail on the grader before this branch; the others guard the reading against
passing a wrong value (a wrong fee, unit price, gap or conversion must still fail)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from hat_env.scoring.claims import answered_intents, load_vocab, read_claims
from hat_env.scoring.claims.fees import fee_roles
from hat_env.sim.room import RoomState
from hat_env.text import normalize
from hat_env.types import Intent
from test_claims_generalise2 import bad, room


def answered(reply: str, r: RoomState, intent: Intent, comment: str = "") -> float:
    """How far ``reply`` answers ``intent`` (1, 0.5, 0)."""
    rep = read_claims(reply, r, intents=[intent])
    vocab = load_vocab(r.locale)
    got = answered_intents(rep, [intent], r, normalize(reply, r.locale).text, vocab.lang, [comment], vocab)
    return got[0][1]


AP = room("appliances_en", 3201, 100.0)  # fridge HA04: $1,154 now, oversize fee $79, installation $99
PT = room("pets_en", 3101, 100.0)  # cat tree PT04: $79.99 with PAW10, oversize fee $15; dog food PT01 24 lb $44.99
GR = room("groceries_zh", 3001, 100.0)  # 大米 GR04 10斤(5kg) 77元; 牛肉干 GR06 39.9元 运费6元; 脐橙 GR01 39.9元
BE = room("beauty_zh", 1101, 130.0)  # 精华 B001 159元, 全店满199减30
EL = room("electronics_en", 1401, 100.0)  # speaker E004 $45 + $4.99 shipping; buds E001 48 g, $49.99


# -- 1. money roles read from the room's own fields -----------------------------------------------------------
@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("Shipping itself is free on the fridge, but there's a $79 oversize fee, and installation is $99.", AP, 4, True),
    ("The fridge is $1,154, plus a $49 oversize fee.", AP, 4, False),
    ("The dishwasher is $504 with the coupon and code, and installation is $99.", AP, 6, False),
    ("The fridge is $1,154 after the coupon and code, plus $79 for oversize delivery and $99 to have it installed.",
     AP, 4, True),
    ("The fridge isn't returnable after installation, though delivery damage is replaced free.", AP, 4, True),
    ("The fridge needs a $200 deposit today.", AP, 4, False),
    ("Shipping itself is free, but there's a $15 oversize fee on the cat tree.", PT, 4, True),
    ("The cat tree is $79.99 with code PAW10, plus a $15 oversize fee at checkout.", PT, 4, True),
    ("牛肉干不包邮哦，运费6元～", GR, 6, True),
    ("牛肉干运费5元～", GR, 6, False),
])
def test_fee_amounts_are_checked_against_their_own_field(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """An amount said as a fee is that fee of the product, not the price the viewer pays."""
    reasons = bad(reply, r, Intent(kind="shipping", link=link))
    assert (not reasons) == ok, reasons
    assert not any("(pay)" in x for x in reasons)  # never read as what the viewer pays


@pytest.mark.parametrize(("reply", "link", "ok"), [
    ("The AquaClean washer ships free, and installation on it is free.", 3, True),
    ("The washer ships free, and there's no oversize fee at all.", 3, False),  # its oversize fee is $49
    ("Installation on the fridge is free.", 4, False),  # $99
    ("The air fryer comes with free installation.", 1, False),  # no installation service
])
def test_free_or_absent_fees(reply: str, link: int, ok: bool) -> None:
    """A fee said to be free or absent must be 0 in the product's data (an installation the room does not offer is
    not free)."""
    reasons = bad(reply, AP, Intent(kind="shipping", link=link))
    assert (not reasons) == ok, reasons


def test_a_deposit_the_data_lacks_is_unsupported() -> None:
    """A role whose field the catalog does not have ("deposit": null in the vocabulary) is unsupported."""
    rep = read_claims("The fridge needs a $200 deposit today.", AP, intents=[Intent(kind="price", link=4)])
    assert [c.verdict for c in rep.bad] == ["unsupported"]
    assert "deposit" in rep.bad[0].reason


def test_fee_roles_are_data_and_bad_entries_are_named() -> None:
    """The roles come from the vocabulary file; a bad pattern names the file and key."""
    en = load_vocab("en_US")
    assert {r.name: r.field for r in fee_roles(en)}["oversize"] == "shipping.oversize_fee"
    broken = replace(en, raw={**en.raw, "fee_roles": {"oversize": {"field": "shipping.oversize_fee", "before": ["("]}}})
    with pytest.raises(ValueError, match=r"fee_roles\.oversize\.before"):
        fee_roles(broken)
    typo = replace(en, raw={**en.raw, "fee_roles": {"oversize": {"field": "shipping.oversized_fee"}}})
    with pytest.raises(ValueError, match=r"fee_roles\.oversize\.field: 'shipping\.oversized_fee' is not a field"):
        fee_roles(typo)


def test_a_fee_answers_the_fee_question() -> None:
    """"How much is shipping on the cat food?" is answered by its fee; a wrong fee answers nothing."""
    it = Intent(kind="shipping", link=6)
    assert answered("牛肉干运费6元～", GR, it, "牛肉干运费多少") == 1
    assert answered("牛肉干运费5元～", GR, it, "牛肉干运费多少") == 0


# -- 2. derived amounts ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("五常大米用码到手77元，10斤装，一斤才7块7！", GR, 4, True),
    ("五常大米用码到手77元，10斤装，一斤才6块5！", GR, 4, False),
    ("车厘子到手109元，一斤才五十四块五～", GR, 2, True),
    ("The 24 lb TrailPaw bag is $44.99 with PAW10, which works out to under $1.90 a pound.", PT, 1, True),
    ("The 24 lb TrailPaw bag is $44.99 with PAW10 - that's only $1.50 a pound!", PT, 1, False),
    ("The dog food is $44.99, which is $2.50 a pound.", PT, 1, False),  # not over the "dogs 22-44 lb" range
    ("车厘子109元，一斤才50块", GR, 2, False),
    ("坚果和牛肉干一起拍享85折，合一件不到55块～", GR, 5, True),
    ("手撕牛肉干39.9元一包～", GR, 6, True),  # the price of one pack as sold
    ("Las toallas cuestan 24,90 €, menos de 6,30 € por toalla.", room("hogar_es", 3301, 100.0), 5, True),
    ("Las toallas cuestan 24,90 €, o sea 5 € por toalla.", room("hogar_es", 3301, 100.0), 5, False),  # 6,23 each
])
def test_unit_prices(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """A price per unit is the product's price over its quantity in that unit, rounded as written or a bound;
    the unit marker ("一斤") is not a quantity claim."""
    reasons = bad(reply, r, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "intent", "ok"), [
    ("脐橙39.9元，离XIAN12的满50减12还差10块1～", GR, Intent(kind="campaign", link=1), True),
    ("牛肉干39.9元，再凑59块1就够满99减10啦", GR, Intent(kind="campaign", link=6), True),
    ("精华159元，还差40块才够满199减30哦", BE, Intent(kind="campaign", link=1), True),
    ("精华159元，差30块就够满199减30啦～", BE, Intent(kind="campaign", link=1), False),
    ("精华159元，全店满199减30的券要单笔满199才能用，单买用不了哦", BE, Intent(kind="campaign", link=1), True),
    ("坚果用XIAN12到手77元，牛肉干39.9元，坚果贵了37块1～", GR, Intent(kind="compare", link=5, link2=6), True),
    ("The $10-off PAW10 code starts at $50, so it doesn't apply to the $39.99 puppy food alone; you'd be $10.01 short.",
     PT, Intent(kind="campaign", link=2), True),
    ("The cat tree is $89.99, and PAW10 saves you $10, so $79.99.", PT, Intent(kind="price", link=4), True),
    ("The fridge is $1,154 now, $145 below its $1,299 list price, and only 9 are left.", AP,
     Intent(kind="price", link=4), True),  # the thousands comma ends no clause; "9 are left" is no price
    ("Only 3 bags of the WhiskerWell cat food are left, $24.99 each plus $5.99 shipping via USPS.", PT,
     Intent(kind="price", link=3), True),
    ("The speaker is $45, so it comes to $49.99 with the $4.99 shipping.", EL, Intent(kind="price", link=4), True),
    ("The speaker is $49.99 with shipping.", EL, Intent(kind="price", link=4), False),  # no fee said: a wrong price
    ("The $20 off $200 coupon and the $25-off-$300 HOME25 code stack, so the washer lands at $604.", AP,
     Intent(kind="campaign", link=3), True),  # the room stacks a coupon and a code: 649 - 20 - 25
    ("PAW10 and the $5 coupon stack on the cat tree.", PT, Intent(kind="campaign", link=4), False),  # they never combine
    ("The 5 dollar coupon kicks in at 40 dollars, and PAW10 at 50.", PT, Intent(kind="campaign", link=4), True),
    ("牛肉干39.9元，加6元运费一共45.9元", GR, Intent(kind="price", link=6), True),  # 一共 is no number
    ("Las sábanas cuestan 39,50 € y el envío son 3,95 €; con el envío, 43,45 €.", room("hogar_es", 3301, 100.0),
     Intent(kind="price", link=3), True),
    ("A las sábanas les faltan 0,50 € para el cupón de 5 € en pedidos desde 40 €.", room("hogar_es", 3301, 100.0),
     Intent(kind="campaign", link=3), True),
    ("五常大米10斤装，用XIAN12再减12，到手77，算下来一斤7块7～", GR, Intent(kind="price", link=4), True),  # 斤装: no name
    ("坚果和牛肉干任选2件85折，两件原价128.9，打完折109.57元", GR, Intent(kind="compare", link=5, link2=6), True),
    ("坚果和牛肉干任选2件85折，两件原价138.9，打完折109.57元", GR, Intent(kind="compare", link=5, link2=6), False),
    ("坚果77元一共30包，一包才2块6不到", GR, Intent(kind="price", link=5), True),
])
def test_differences_gaps_and_totals(reply: str, r: RoomState, intent: Intent, ok: bool) -> None:
    """A difference is one the data gives (to a threshold, between two prices, between two amounts stated), a gap
    followed by a threshold is that gap, and a price with its fee is a total."""
    reasons = bad(reply, r, intent)
    assert (not reasons) == ok, reasons


def test_a_wrong_gap_voids_the_campaign_answer() -> None:
    """"差30块就够满199" for a 159元 item (40 short) does not answer the coupon question."""
    assert answered("精华159元，差30块就够满199减30啦～", BE, Intent(kind="campaign", link=1)) == 0
    assert answered("精华159元，还差40块才够满199减30哦", BE, Intent(kind="campaign", link=1)) == 1


# -- 3. unit conversions and a time's topic -------------------------------------------------------------------
@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("大米是10斤装，也就是5公斤～", GR, 4, True),
    ("五常大米10斤，也就是10公斤～", GR, 4, False),
    ("The Summit cat tree stands 5 feet tall (60 in, roughly 152 cm) on a 24 x 20 in base.", PT, 4, True),
    ("It's a 24 lb bag, about 10.9 kg.", PT, 1, True),
    ("It's a big 24 lb bag, that's about 15 kg of food.", PT, 1, False),
    ("The FrostLine fridge is 36 x 34 x 70 in, so it stands 70 inches tall, about 178 cm.", AP, 4, True),
    ("The fridge is 70 inches tall, that's about 150 cm.", AP, 4, False),
    ("The AquaClean washer has a 4.5 cu ft drum, roughly 127 liters.", AP, 3, True),
    ("The Volt Buds Pro weigh 48 g with the case, under 2 oz.", EL, 1, True),
    ("The cat tree is 5 ft tall on a base 61 cm wide.", PT, 4, True),  # two dimensions, no restatement
    ("围巾长1.8米，宽30厘米～", room("apparel_flash_zh", 1301, 100.0), 5, True),
])
def test_measures_in_other_units(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """A measure restating the one before it in another unit must equal it (rounded as written, or within the
    approximate tolerance); room units (lb, ft, cu ft) and the locale's (cm, kg) meet in one base."""
    reasons = bad(reply, r, Intent(kind="spec", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "link", "ok"), [
    ("The AquaClean washer ships in about a week with a 2-year warranty.", AP, 3, True),  # ships in 5-7 days
    ("It ships in about a week via FedEx Freight with 2 years of warranty coverage.", AP, 3, True),
    ("The QuietWash dishwasher ships in about a month with a 2-year warranty.", AP, 6, False),  # 3-5 days
    ("大米保质期12个月、未拆封7天无理由可退～", GR, 4, True),
    ("大米保质期7天、未拆封7天无理由可退～", GR, 4, False),  # 12个月
])
def test_the_nearest_topic_word_decides_a_time(reply: str, r: RoomState, link: int, ok: bool) -> None:
    """A time in a clause naming two topics is about the nearest one ("ships in about a week" is not the
    warranty; "7天无理由可退" is not the shelf life)."""
    reasons = bad(reply, r, Intent(kind="after_sales", link=link))
    assert (not reasons) == ok, reasons


# -- 4. negated and paraphrased order and after-sales states --------------------------------------------------
def test_a_refund_in_progress_with_nothing_on_its_way() -> None:
    """"Nothing's on its way" denies shipping; the refund in progress answers the order question."""
    it = Intent(kind="order_status", order_id="PW1004")
    reply = "The refund for PW1004 is in progress, so nothing's on its way to you."
    assert bad(reply, PT, it) == []
    assert answered(reply, PT, it) == 1
    assert bad("Good news, your order PW1004 has shipped and is on its way!", PT, it)


def test_fresh_food_returns_denied_with_the_damage_promise() -> None:
    """"生鲜不支持七天无理由退货" denies returns (the quantity between the negation and the claim does not count),
    and the 48-hour photo window restates the FAQ, not a delivery promise."""
    it = Intent(kind="after_sales", link=1)
    reply = "脐橙是生鲜，不支持七天无理由退货，不过签收48小时内拍照联系客服，坏一个赔一个～"
    assert bad(reply, GR, it) == []
    assert answered(reply, GR, it) == 1
    assert bad("脐橙支持7天无理由退货哦，放心买～", GR, it)
