"""False passes closed in the false15 pass: policy and spec claims beyond the room data that the claims engine
read as accurate, each next to a true twin (a fix that closes a false pass must not open a false fail).

Built on the built-in rooms and graded through the rubric's accuracy component with the default rule pack, as
the calibration grades. The phrasings are this file's own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.sim.room import RoomState
from hat_env.types import Intent
from tests.rooms import accuracy_of as _accuracy, room

GROCERIES = room("groceries_zh", 5, 100.0)
ELECTRONICS = room("electronics_en", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)
APPLIANCES = room("appliances_en", 5, 100.0)


# -- returns refused outright of a product the data lets viewers return (claims/return_terms.py) ---------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # groceries_zh: the nuts (link 5) take 7-day returns unopened; the oranges (link 1) take none
        (GROCERIES, "坚果属于食品，一律不能退货的哦", 5, False),
        (GROCERIES, "这个坚果不接受退货，介意的话慎拍", 5, False),
        (GROCERIES, "坚果没拆封的话7天内可以退，拆了就不能退了", 5, True),
        (GROCERIES, "拆开以后就不支持退货了哦", 5, True),
        (GROCERIES, "脐橙是生鲜，不支持无理由退货，坏果可以包赔", 1, True),
        # electronics_en: 30-day returns in the original packaging
        (ELECTRONICS, "Sorry, the power bank can't be returned once it's yours.", 2, False),
        (ELECTRONICS, "No returns on the earbuds, all sales are final.", 1, False),
        (ELECTRONICS, "Without the original packaging it can't be returned, so keep the box.", 2, True),
        (ELECTRONICS, "30-day returns on the earbuds; honestly you won't want to return them.", 1, True),
        # hogar_es: 14-day returns in the original packaging
        (HOGAR, "La sartén no admite devolución, lo siento.", 1, False),
        (HOGAR, "Pasados los 14 días ya no admite devolución.", 1, True),
    ],
)
def test_returns_refused_of_a_returnable_product(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """"No returns" said of a product that can be returned is false; a refusal under the note's condition (unopened,
    the original packaging, after the window) restates the policy and stays accurate."""
    assert (_accuracy(r, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


# -- a return promise in the reply's answer to a return question, no return word needed (check_returns.py) -----

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        (ELECTRONICS, "Yep, used or not, you've got 30 days.", 3, False),
        (ELECTRONICS, "Yep, 30 days, as long as it's in the original packaging.", 3, True),
        (ELECTRONICS, "You have 30 days in the original packaging. Ask me anytime!", 3, True),
        (HOGAR, "Claro, abierta o sin abrir, tienes 14 días.", 1, False),
        (HOGAR, "Claro, tienes 14 días con el embalaje original.", 1, True),
    ],
)
def test_return_promise_answering_a_return_question(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """A promise of returns whatever the item's state ("used or not") in the first sentence of a reply to a return
    question is a return promise beyond the note; a later "ask me anytime" is none."""
    assert (_accuracy(r, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


# -- a warranty without end said after the warranty word (check_warranty.py, lifetime_words) --------------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        (ELECTRONICS, "The speaker's warranty lasts forever, so no worries.", 4, False),
        (ELECTRONICS, "The charger's warranty covers you for life.", 5, False),
        (ELECTRONICS, "The charger comes with a lifetime warranty.", 5, False),
        (ELECTRONICS, "The charger has a 24-month warranty.", 5, True),
        (ELECTRONICS, "The warranty runs two years on the charger.", 5, True),
        (HOGAR, "La garantía de la cafetera es para toda la vida.", 4, False),
        (HOGAR, "La cafetera tiene 36 meses de garantía.", 4, True),
        (APPLIANCES, "The blender's warranty never expires.", 2, False),
        (APPLIANCES, "The blender has a 2-year warranty.", 2, True),
    ],
)
def test_lifetime_warranty_in_any_order(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """A warranty said to last for life, before or after the warranty word, is false of a product whose warranty
    has a length; the length itself is true."""
    assert (_accuracy(r, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


CHUFANG = room(Path(__file__).resolve().parent.parent / "scenarios" / "calibration" / "rooms" / "chufang_zh.yaml", 5,
              100.0)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("空气炸锅的质保是终身的哦", False),
        ("4号保修一辈子，坏了随时找我们", False),
        ("空气炸锅终身质保", False),
        ("空气炸锅整机保修12个月", True),
        ("4号质保一年，放心用", True),
    ],
)
def test_zh_lifetime_warranty_in_any_order(reply: str, ok: bool) -> None:
    """"质保是终身的" (the warranty word first) is a lifetime warranty like "终身质保": false of the air fryer's
    12-month warranty (chufang_zh room, link 4); its length said is true."""
    assert (_accuracy(CHUFANG, reply, Intent(kind="after_sales", link=4)) == 1.0) is ok


ROOMS = Path(__file__).resolve().parent.parent / "scenarios" / "calibration" / "rooms"
JIAFANG = room(ROOMS / "jiafang_zh.yaml", 5, 100.0)
TOOLS = room(ROOMS / "tools_en.yaml", 5, 100.0)


# -- what the data denies, said in a clause before a negation of something else (check_denied.py) --------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # jiafang_zh link 3: FAQ "这款配的是平铺床单，不是床笠。"
        (JIAFANG, "3号四件套是床笠款的，铺起来方便，睡觉不会乱跑", 3, False),
        (JIAFANG, "3号是平铺床单，不是床笠，四边塞好就不会跑", 3, True),
        (JIAFANG, "这款是平铺床单哦，不带松紧", 3, True),
        # tools_en link 3: FAQ "No, it is not rated for wet conditions; use it in dry conditions only ..."
        (TOOLS, "The saw is fine in wet conditions, nothing to worry about.", 3, False),
        (TOOLS, "It's not rated for wet conditions, so keep it dry and plug it into a GFCI outlet.", 3, True),
    ],
)
def test_denied_fact_before_a_later_negation(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """A clause stating what the product's data denies is false even when a later clause of its sentence negates
    something else ("不会乱跑", "nothing to worry about"); a reply that restates the denial stays accurate."""
    assert (_accuracy(r, reply, Intent(kind="spec", link=link, attr="unknown")) == 1.0) is ok


# -- a part of another product's value joined by "+" is a value of the room (claims/room_vocab.py) -------------

@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        # chufang_zh: link 1 "铝合金锅身+复合底", link 3 "316不锈钢内胆+304外壳", link 5 "整竹拼接，无胶水拼板"
        ("5号砧板是复合底的，很耐用", 5, False),
        ("5号砧板用的是304外壳，结实", 5, False),
        ("5号砧板是整竹拼接的，没用胶水", 5, True),
        ("1号锅是铝合金锅身加复合底，受热快", 1, True),
        ("3号保温杯是316不锈钢内胆，外壳304", 3, True),
    ],
)
def test_value_part_of_another_product(reply: str, link: int, ok: bool) -> None:
    """A material said of a product that is a part of another product's value ("复合底" of "铝合金锅身+复合底") is
    that product's value, false of this one; the product's own parts stay true."""
    assert (_accuracy(CHUFANG, reply, Intent(kind="spec", link=link, attr="material")) == 1.0) is ok


# -- hard-goods materials are value words of the material attribute (vocab values.material, value_synonyms) -----

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # chufang_zh link 6 "高硼硅玻璃盒身，PP卡扣盖", link 2 "5Cr15MoV不锈钢刀身，ABS刀柄"
        (CHUFANG, "保鲜盒是不锈钢的，摔不坏", 6, False),
        (CHUFANG, "盒身是玻璃的，盖子是塑料卡扣", 6, True),
        (CHUFANG, "刀柄是硅胶的，防滑", 2, False),
        (CHUFANG, "刀身不锈钢，刀柄是塑料的", 2, True),
        # tools_en link 3 "magnesium shoe and blade guard"
        (TOOLS, "The shoe and blade guard are stainless steel.", 3, False),
        (TOOLS, "The shoe and blade guard are magnesium, so it stays light.", 3, True),
    ],
)
def test_hard_goods_materials(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """A material the product is not made of (steel, silicone) is a false material value; a generic name for the
    data's own material ("塑料" for PP / ABS) is true."""
    assert (_accuracy(r, reply, Intent(kind="spec", link=link, attr="material")) == 1.0) is ok


# -- a price said to go up later, in more words (vocab deadline_words) -------------------------------------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # groceries_zh at seed 5: no deal of link 6 ends during the stream
        (GROCERIES, "牛肉干明天就要涨了，现在拍最划算", 6, False),
        (GROCERIES, "过了今天就涨回去了，抓紧", 6, False),
        (GROCERIES, "牛肉干现在有货，放心拍", 6, True),
        (HOGAR, "Las toallas suben mañana, aprovecha.", 5, False),
        (HOGAR, "Mañana ya vuelve a su precio normal.", 5, False),
        (HOGAR, "Las toallas están disponibles ahora mismo.", 5, True),
    ],
)
def test_price_goes_up_later(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """"明天就涨了", "suben mañana": a deadline that needs a deal of the product ending then; with none it is false."""
    assert (_accuracy(r, reply, Intent(kind="price", link=link)) == 1.0) is ok


APPLIANCES_T = room("appliances_en", 5, 100.0)


# -- two deals said to combine must stack by the room's rules (claims/check_stack_rules.py) ----------------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # appliances_en: the blender's flash deal does not stack with the kitchen bundle; a code does
        (APPLIANCES_T, "The blender's flash deal is $49, and pair it with the air fryer for an extra 15% off.", 2, False),
        (APPLIANCES_T, "Blender at the $49 flash price, plus another 15% off when you add the air fryer.", 2, False),
        (APPLIANCES_T, "Pair the blender with the air fryer for 15% off, and the HOME25 code stacks on top of that bundle.",
         2, True),
        (APPLIANCES_T, "The blender is $49 in the flash deal right now.", 2, True),
        # jiafang_zh: the four-piece set's second-set-half-price bundle does not stack with the store coupon
        (JIAFANG, "四件套第二套半价，再用全店满299减30的券更便宜", 3, False),
        (JIAFANG, "3号买两套第二套半价，额外再减30", 3, False),
        (JIAFANG, "3号四件套第二套半价，两套更划算", 3, True),
    ],
)
def test_stacked_deals_follow_the_rules(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """A sentence putting a second discount on top of a deal ("another 15% off", "再用...券") is false when the
    room's stacking rules do not combine those two kinds of deal; one that stacks, or a deal alone, is true."""
    assert (_accuracy(r, reply, Intent(kind="campaign", link=link)) == 1.0) is ok


# -- a bare "queda" clause says the product is in stock (vocab in_stock, es) --------------------------------------

@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        # hogar_es at seed 5: the blender (link 6) is sold out, the towels (link 5) are in stock
        ("¡Claro, queda!", 6, False),
        ("Todavía queda alguna, date prisa.", 6, False),
        ("¡Claro, queda!", 5, True),
        ("La batidora está agotada, lo siento.", 6, True),
        ("Las toallas quedan genial en cualquier baño.", 6, True),
    ],
)
def test_bare_queda_is_a_stock_claim(reply: str, link: int, ok: bool) -> None:
    """"Queda" alone as a clause (or "todavía queda") says it is in stock: false of a sold-out product; "queda
    genial" says nothing of stock."""
    assert (_accuracy(HOGAR, reply, Intent(kind="stock", link=link)) == 1.0) is ok



# -- a second deal refused on top of a flash price that takes it (claims/check_stack_rules.py) -------------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # electronics_en: the smartwatch's $109 launch deal takes the $10 coupon ($99 to pay)
        (ELECTRONICS, "The launch deal on the smartwatch means no coupon on top of that.", 3, False),
        (ELECTRONICS, "The smartwatch launch deal is $109, and the $10 coupon comes off on top of that, so $99.", 3, True),
        # hogar_es: the air fryer's 69 € flash offer takes the 5 € coupon (64 €)
        (HOGAR, "La freidora está en oferta flash y no se puede usar cupón encima de la oferta.", 2, False),
        # jiafang_zh: the blanket's 59 flash price does not reach the store coupon's 299
        (JIAFANG, "5号毛毯秒杀59，不能再用券了哦", 5, True),
    ],
)
def test_coupon_refused_on_a_flash_price(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """"No coupon on top of the flash price" is false where the price takes a coupon after the flash sale; true
    where no coupon's threshold is met."""
    assert (_accuracy(r, reply, Intent(kind="price", link=link)) == 1.0) is ok
