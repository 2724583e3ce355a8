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


EL = room("electronics_en", 2101, 100.0)  # buds E001 59.99 -> 49.99; stand E006 24.99; $10 off orders of $50+
EL2 = room("electronics_en", 781438, 713.9)  # power bank E002: FAQ "About 4 full charges of a typical 4000mAh phone."
GR2 = room("groceries_zh", 3101, 250.0)  # 坚果 GR05 77 (XIAN12); 大米 GR04 秒杀79 now
PT1 = room("pets_en", 3201, 100.0)  # dog food PT01 24 lb 44.99; puppy PT02 12 lb 39.99; cat food PT03 stock 3


@pytest.mark.parametrize(("reply", "r", "intents", "ok"), [
    ("With the $20 coupon + HOME25 the dishwasher is $504.", AP, [Intent(kind="price", link=6)], True),
    ("With the $30 coupon + HOME25 the dishwasher is $504.", AP, [Intent(kind="price", link=6)], False),
    ("Puppy 12 lb: $39.99, over $3.30 a pound.", PT1, [Intent(kind="price", link=2)], True),
    ("Puppy 12 lb: $49.99, over $3.30 a pound.", PT1, [Intent(kind="price", link=2)], False),
    ("Not by itself. Add the Volt Buds Pro ($59.99) and your order clears $50, so $10 comes off the total.", EL,
     [Intent(kind="campaign", link=6)], True),
    ("Not by itself. Add the Volt Buds Pro ($69.99) and your order clears $50, so $10 comes off the total.", EL,
     [Intent(kind="campaign", link=6)], False),  # 69.99 is the list price, not the line's price
    ("The Volt Buds Pro are $59.99 and ship free.", EL, [Intent(kind="price", link=1)], False),  # pays 49.99
])
def test_money_roles_by_the_words_around(reply: str, r: RoomState, intents: list[Intent], ok: bool) -> None:
    """A '+' makes a threshold only right after its amount ("$50+", not "$20 coupon + HOME25"); "over"/"under"
    are bounds in a clause naming no deal ("over $3.30 a pound"); "$10 comes off" is a coupon; the price before
    coupons of a product added to an order the sentence takes a coupon off is that order's line."""
    reasons = bad(reply, r, *intents)
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("坚果便宜2块：每日坚果输XIAN12到手77，大米秒杀价79。", True),  # 79 - 77
    ("坚果便宜5块：每日坚果输XIAN12到手77，大米秒杀价79。", False),
    ("领券便宜2块，每日坚果到手77，大米秒杀价79。", False),  # a coupon word: the coupons are 10 and 12
])
def test_cheaper_by_the_gap_between_two_products(reply: str, ok: bool) -> None:
    """"便宜2块" without a coupon word may be the gap between the two products the reply prices."""
    reasons = bad(reply, GR2, Intent(kind="compare", link=5, link2=4))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "intent", "ok"), [
    ("About four full phone charges!", EL2, Intent(kind="spec", link=2, attr="unknown"), True),
    ("About eight full phone charges!", EL2, Intent(kind="spec", link=2, attr="unknown"), False),
    ("It fits anything from 4 to 13 inches.", EL, Intent(kind="spec", link=6, attr="screen"), True),
    ("Yes, we've got about 30 bags, plenty to go around!", PT1, Intent(kind="stock", link=3), False),
    ("Tenemos 320 sartenes en el almacén.", HO, Intent(kind="stock", link=1), True),
    ("Tenemos unas 30 sartenes en el almacén.", HO, Intent(kind="stock", link=1), False),
])
def test_counts_checked_against_what_the_data_counts(reply: str, r: RoomState, intent: Intent, ok: bool) -> None:
    """A bare number followed by the words a number of the product's data is followed by counts that thing (the
    FAQ's "4 full charges"); a count after "we've got about" or "tenemos" is a stock count (es has stock words)."""
    reasons = bad(reply, r, intent)
    assert (not reasons) == ok, reasons


HF = room("healthfood_zh", 1201, 100.0)  # 鱼油 H003 139 - 单品券20 = 119; 益生菌 H004 159, 秒杀139 at 300-600 s
HF2 = room("healthfood_zh", 102895, 207.6)  # 维C H001 69 + 益生菌 H004 159: 任选2件9折
AF2 = room("apparel_flash_zh", 736939, 293.9)  # 上半场秒杀 of A001 ends at 300 s


@pytest.mark.parametrize(("reply", "r", "intents", "ok"), [
    ("The Boom Mini is $45, $5 short of the $50 you need for the coupon.", EL, [Intent(kind="campaign", link=4)], True),
    ("The Boom Mini is $45, $8 short of the $50 you need for the coupon.", EL, [Intent(kind="campaign", link=4)], False),
    ("The speaker's $45 - add $5 more and the $10-off coupon kicks in.", EL, [Intent(kind="campaign", link=4)], True),
    ("The speaker's $45 and the $10-off coupon kicks in.", EL, [Intent(kind="campaign", link=4)], False),
    ("Fridge: $1,154 after $45 in discounts (from $1,199).", AP, [Intent(kind="price", link=4)], True),
    ("Fridge: $1,154 after $55 in discounts (from $1,199).", AP, [Intent(kind="price", link=4)], False),
    ("The washer comes to $604: $649 minus the $20 coupon and $25 with HOME25.", AP, [Intent(kind="price", link=3)], True),
    ("Cat tree: $89.99, or $79.99 with code PAW10.", PT1, [Intent(kind="price", link=4)], True),
    ("Cat food: $24.99 now, dropping to $21.99 when the flash deal starts.", PT, [Intent(kind="price", link=3)], True),
    ("Cat food: dropping to $19.99 when the flash deal starts.", PT, [Intent(kind="price", link=3)], False),
    ("PAW10 takes $10 off orders of $50+, so the dog food drops from $54.99 to $44.99.", PT1,
     [Intent(kind="price", link=1)], True),
])
def test_money_roles_en(reply: str, r: RoomState, intents: list[Intent], ok: bool) -> None:
    """"short of the $50 you need" is a threshold, "add $5 more and the coupon kicks in" states its condition first,
    "$45 in discounts" is a saving, "$25 with HOME25" is the named code's amount, "when the flash deal starts" is
    later, "drops from $54.99" is a price, not a drop-proof feature."""
    reasons = bad(reply, r, *intents)
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "intents", "ok"), [
    ("3号鱼油到手119，单品券20元已经帮你算进去了", HF, [Intent(kind="price", link=3)], True),
    ("3号鱼油到手119，单品券30元已经帮你算进去了", HF, [Intent(kind="price", link=3)], False),
    ("4号益生菌159元，等秒杀开始能便宜20块，139元", HF, [Intent(kind="campaign", link=4)], True),
    ("4号益生菌159元，等秒杀开始能便宜30块，129元", HF, [Intent(kind="campaign", link=4)], False),
    ("羽绒服刚才秒杀339，现在恢复399，用券后369", AF, [Intent(kind="price", link=1)], True),
    ("羽绒服之前秒杀价339，秒杀已经过了，现在券后369", AF, [Intent(kind="price", link=1)], True),
    ("羽绒服现在秒杀339", AF, [Intent(kind="price", link=1)], False),
    ("1号羽绒服有现货！上半场秒杀还有几秒就结束了，要的抓紧～", AF2, [Intent(kind="stock", link=1)], True),
    ("维C（69元）加益生菌（159元）正好参加任选2件9折，一共228元，打完九折205.2元", HF2,
     [Intent(kind="price", link=1), Intent(kind="price", link=4)], True),
    ("维C（69元）加益生菌（159元）正好参加任选2件9折，一共228元，打完九折195.2元", HF2,
     [Intent(kind="price", link=1), Intent(kind="price", link=4)], False),
])
def test_money_roles_zh(reply: str, r: RoomState, intents: list[Intent], ok: bool) -> None:
    """"单品券20元" is the coupon's amount; "等秒杀开始能便宜20块" is what the later sale saves; "刚才秒杀339" and a
    sale said to be over in its sentence are the ended sale; "还有几秒就结束" is still on; a bundle of the two
    products asked about is priced as that bundle even when the reply names them in words the mentions miss."""
    reasons = bad(reply, r, *intents)
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("La cafetera costaba 139 €, ahora 119 € y con cupón 114 €.", True),
    ("La cafetera costaba 139 €, ahora 119 € y con cupón 109 €.", False),
    ("La freidora está un 19 % más barata que su precio normal de 79 €.", True),
    ("La freidora está un 19 % más barata que su precio normal de 109 €.", False),  # history 89-99
    ("Las sábanas (39,50 €) se quedan a 0,50 € del mínimo de 40 € del cupón.", True),
    ("Las sábanas (39,50 €) se quedan a 1,50 € del mínimo de 40 € del cupón.", False),
])
def test_money_roles_es(reply: str, ok: bool) -> None:
    """"con cupón 114 €" is the price with the coupon (a coupon's amount is "cupón de 5 €"), "más barata que su
    precio normal de 79 €" a reference price, "a 0,50 € del mínimo" a gap to the threshold."""
    link = 4 if "cafetera" in reply else 2 if "freidora" in reply else 3
    reasons = bad(reply, HO, Intent(kind="price", link=link))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "intent", "ok"), [
    ("脐橙糖度二十度", GR, Intent(kind="spec", link=1, attr="sweetness"), False),  # 12-15 Brix
    ("脐橙糖度12到15，酸甜适口", GR, Intent(kind="spec", link=1, attr="sweetness"), True),
    ("2号蛋白粉一勺含蛋白质三十克", HF, Intent(kind="spec", link=2, attr="unknown"), False),  # 每勺30g...含蛋白质24g
    ("2号蛋白粉一勺含蛋白质二十四克", HF, Intent(kind="spec", link=2, attr="unknown"), True),
    ("2号蛋白粉净含量900克，也就是1.8斤～", HF, Intent(kind="spec", link=2, attr="size"), True),
    ("3号鱼油每天吃三粒", HF, Intent(kind="spec", link=3, attr="unknown"), False),  # 每天2粒
    ("3号鱼油每天吃两粒，随餐吃", HF, Intent(kind="spec", link=3, attr="unknown"), True),
    ("Quedan trescientas sartenes.", HO, Intent(kind="stock", link=1), False),  # 320
    ("Quedan trescientas veinte sartenes.", HO, Intent(kind="stock", link=1), True),
])
def test_numbers_a_product_states_in_other_words(reply: str, r: RoomState, intent: Intent, ok: bool) -> None:
    """A bare number in a clause naming a spec whose value has no unit of the locale is that spec's value; a
    Chinese quantity after the same words as one of the FAQ's ("含蛋白质24g", "每天2粒") is that quantity (the
    product's name and its own spec values aside); Spanish feminine hundreds are numbers."""
    reasons = bad(reply, r, intent)
    assert (not reasons) == ok, reasons


def test_words_many_products_use_name_no_count() -> None:
    """"fifty with the coupon" shares only "with" with the buds' "32 with case": a word the data of several
    products uses does not make a number a count of the data's (the FAQ's "4 full charges" still does)."""
    assert not bad("Volt Buds Pro: a cent under fifty with the coupon.", EL2, Intent(kind="price", link=1))
    assert bad("About eight full phone charges!", EL2, Intent(kind="spec", link=2, attr="unknown"))


def test_a_count_of_values_is_no_spec_value() -> None:
    """"口味有三种" counts the flavours; the 五 of "五香" is a character of a word, not a number of the value."""
    assert not any("'三'" in x for x in bad("牛肉干口味有三种：香辣、五香、原味", GR, Intent(kind="spec", link=6, attr="flavor")))


@pytest.mark.parametrize(("reply", "ok"), [
    ("Las toallas vienen en pack de seis.", False),  # "Pack de 4"
    ("Las toallas vienen en pack de cuatro.", True),
])
def test_a_number_after_the_words_the_data_puts_before_it(reply: str, ok: bool) -> None:
    """A bare number after the word the data writes before one of its numbers ("Pack de 4") is that number."""
    reasons = bad(reply, HO, Intent(kind="spec", link=5, attr="unknown"))
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "r", "intent", "ok"), [
    ("The speaker is forty-five bucks; you'd need five more dollars to use the coupon.", EL,
     Intent(kind="campaign", link=4), True),
    ("The speaker is forty-five bucks; you'd need eight more dollars to use the coupon.", EL,
     Intent(kind="campaign", link=4), False),
    ("The blender's $49 flash price ends at the 5-minute mark; after that it goes back to $59.", AP,
     Intent(kind="price", link=2), True),
    ("The blender's $49 flash price ends soon; after that it goes back to $64.", AP, Intent(kind="price", link=2), False),
    ("With HOME25 ($25 off $300+) and the $20 coupon, the dishwasher drops $45 to $504.", AP,
     Intent(kind="price", link=6), True),
    ("With HOME25 and the $20 coupon, the dishwasher drops $55 to $504.", AP, Intent(kind="price", link=6), False),
    ("1号精华159元，再加40元就能用满199减30", BE, Intent(kind="campaign", link=1), True),
    ("1号精华159元，再加41元就能用满199减30", BE, Intent(kind="campaign", link=1), False),
    ("La cafetera te sale en 114 € (119 € menos el cupón de 5 €).", HO, Intent(kind="price", link=4), True),
    ("La batidora costaba 49,90 €, pero ahora mismo está agotada.", HO, Intent(kind="price", link=6), True),
    ("La batidora costaba 59,90 €, pero ahora mismo está agotada.", HO, Intent(kind="price", link=6), True),  # list
    ("La batidora costaba 79,90 €, pero ahora mismo está agotada.", HO, Intent(kind="price", link=6), False),  # history 59,90-69,90
])
def test_money_roles_more_words(reply: str, r: RoomState, intent: Intent, ok: bool) -> None:
    """"need five more dollars" is a gap, "goes back to $59" the price after the sale, "drops $45" a saving,
    "再加40元就能用" a gap with its condition, "119 € menos el cupón" the price before the coupon, "costaba" a
    past price."""
    reasons = bad(reply, r, intent)
    assert (not reasons) == ok, reasons


@pytest.mark.parametrize(("reply", "ok"), [
    ("That's $20 off the $129 price with the launch deal, and $30 off once the coupon kicks in.", True),
    ("That's $20 off the $139 price with the launch deal.", False),  # 129, list 149
    ("$10 off the $50 minimum, so the watch is $99.", True),  # "minimum" keeps its threshold
])
def test_off_the_price_is_the_price_taken_from(reply: str, ok: bool) -> None:
    """"$20 off the $129 price": the amount after "off the" is the price the saving is taken from."""
    reasons = bad(reply, EL, Intent(kind="campaign", link=3))
    assert (not reasons) == ok, reasons


def test_a_threshold_over_is_not_an_ended_sale() -> None:
    """"orders over $50" in one clause does not make the next clause's running flash sale an ended one (the ended
    word is "the sale's over" / "is over", never "over" before an amount): the reference agent's own wording."""
    el = room("electronics_en", 0, 62.8)  # Pulse S2 E003: launch flash sale $109 (0-600 s), $10 off $50 -> $99
    reply = "Link 3 has a $10 coupon for orders over $50, plus a sale price of $109."
    assert bad(reply, el, Intent("campaign", link=3)) == []
    assert bad("Link 3's launch sale is over, it was $109.", el, Intent("campaign", link=3))
