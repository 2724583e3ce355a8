"""Campaign and stock answers that a misread fact voided (branch eff15).

- A negated stacking word denies the stacking, not the flash sale it names: "优惠券不能和秒杀同时用", "coupons can't
  be combined with the flash deal" say the flash sale is on and that nothing stacks on it. The denial is checked
  against the data: true (answering the campaign question) when the price the viewer pays stacks nothing, false
  when it takes a coupon on top of the flash price.
- Urging to buy a sold-out product voids the answer to a purchase question, not the product's right price: a price
  question is answered by the price (accuracy and compliance still fail the urging).
- "运费另计10元": an amount after a shipping-fee word and 另计 / 另算 is the fee, never the price the viewer pays.

Built on the built-in rooms (and one dev room) at seed 7, which no labelled set uses; the facts each case relies
on are asserted first, from the room's own data.
"""

from __future__ import annotations

import pytest

from hat_env.scoring.claims.check_stacking import stacked_coupons
from hat_env.scoring.claims.facts import RoomFacts
from hat_env.scoring.claims.vocab import load_vocab
from hat_env.sim.room import RoomState
from hat_env.types import Intent
from tests.rooms import room, scores as _scores

GROCERIES = room("groceries_zh", 7, 300.0)  # link 4 rice: flash sale, no coupon on top; link 3 grapes sold out
PETS_LATE = room("pets_en", 7, 300.0)  # link 3 cat food: flash sale, nothing stacked
PETS = room("pets_en", 7, 100.0)  # link 5 dog bed: sold out
BEAUTY = room("beauty_zh", 7, 300.0)  # link 4 foundation: flash sale with a coupon on top
ELECTRONICS = room("electronics_en", 7, 100.0)  # link 3 watch: flash sale with a coupon on top
HOGAR = room("hogar_es", 7, 100.0)  # link 2 air fryer: flash sale with a coupon on top; link 6 blender sold out
HEALTH = room("healthfood_zh", 7, 100.0)  # link 5 collagen drink: sold out
OFFICE = room("bangong_zh.yaml", 7, 100.0)  # link 5: a 10元 shipping fee


def _facts(r: RoomState, link: int):
    """The claims engine's facts of link ``link`` of room ``r`` at its clock."""
    return RoomFacts(r, load_vocab(r.locale)).of(r.by_link[link].product_id)


def _stacks(r: RoomState, link: int) -> bool:
    """Whether the price the viewer pays for ``link`` stacks deals (a coupon on a flash price, or two coupons)."""
    pf = _facts(r, link)
    return (bool(pf.flash) and pf.applied_coupon is not None) or stacked_coupons(pf)


def _sold_out(r: RoomState, link: int) -> bool:
    """Whether ``link`` has no stock now."""
    p = r.by_link[link]
    return r.stock.get(p.product_id, p.stock) <= 0


def test_the_rooms_as_these_tests_read_them() -> None:
    """The data each case below relies on."""
    assert _facts(GROCERIES, 4).flash and not _stacks(GROCERIES, 4)
    assert _facts(PETS_LATE, 3).flash and not _stacks(PETS_LATE, 3)
    assert _facts(BEAUTY, 4).flash and _stacks(BEAUTY, 4)
    assert _facts(ELECTRONICS, 3).flash and _stacks(ELECTRONICS, 3)
    assert _facts(HOGAR, 2).flash and _stacks(HOGAR, 2)
    assert _sold_out(PETS, 5) and _sold_out(HOGAR, 6) and _sold_out(HEALTH, 5) and _sold_out(GROCERIES, 3)
    assert _facts(OFFICE, 5).effective == 129.0 and OFFICE.by_link[5].shipping.fee == 10.0


@pytest.mark.parametrize(
    ("r", "link", "reply"),
    [
        (GROCERIES, 4, "五常大米现在秒杀价79，优惠券不能和秒杀同时用哦"),
        (GROCERIES, 4, "大米秒杀中，79元到手，码和秒杀没法叠加～"),
        (PETS_LATE, 3, "The cat food is on its flash deal at $21.99, coupons can't be combined with the flash deal though."),
        (PETS_LATE, 3, "Flash price is $21.99 right now and nothing stacks on top of the flash sale."),
    ],
)
def test_a_denied_stacking_keeps_the_flash_sale_it_names(r: RoomState, link: int, reply: str) -> None:
    """Where nothing stacks on the flash price, saying so is true and answers the campaign question: the negation
    is the stacking's, the flash sale named beside it is on."""
    assert _scores(r, reply, Intent(kind="campaign", link=link)) == (1.0, 1.0)


@pytest.mark.parametrize(
    ("r", "link", "reply"),
    [
        (BEAUTY, 4, "粉底液正在秒杀，不过满减券不能和秒杀一起用哦"),
        (ELECTRONICS, 3, "The Pulse S2 flash deal is live, but the coupon can't be used with the flash deal."),
        (HOGAR, 2, "La freidora está en oferta flash, pero el cupón no se acumula con la oferta flash."),
        (HOGAR, 2, "Tiene oferta flash; eso sí, el cupón no se puede usar con la oferta flash."),
    ],
)
def test_a_denied_stacking_the_data_allows_is_false(r: RoomState, link: int, reply: str) -> None:
    """Where the price the viewer pays takes a coupon on top of the flash price, denying the stacking is false and
    answers nothing."""
    assert _scores(r, reply, Intent(kind="campaign", link=link)) == (0.0, 0.0)


def test_a_positive_stacking_is_still_checked() -> None:
    """Saying the coupon stacks where nothing stacks stays false."""
    assert _scores(GROCERIES, "大米秒杀79，还能叠加优惠券，更便宜！", Intent(kind="campaign", link=4))[0] == 0.0


@pytest.mark.parametrize(
    ("r", "link", "reply"),
    [
        (HEALTH, 5, "5号胶原蛋白肽饮199元，喜欢就直接拍～"),
        (GROCERIES, 3, "葡萄券后47.9，赶紧下单！"),
        (PETS, 5, "The orthopedic bed is $59.99 with the coupon, grab it now!"),
        (HOGAR, 6, "La batidora te sale a 44,90 € con el cupón, añádela al carrito."),
    ],
)
def test_urging_to_buy_a_sold_out_product_voids_the_purchase_not_the_price(r: RoomState, link: int,
                                                                            reply: str) -> None:
    """The right price answers a price question even when the reply then urges buying a product with no stock
    (which is false); the same reply answers no purchase question, where the buyer needs to hear it is sold out."""
    assert _scores(r, reply, Intent(kind="price", link=link)) == (0.0, 1.0)
    assert _scores(r, reply, Intent(kind="purchase", link=link)) == (0.0, 0.0)


def test_saying_it_is_sold_out_still_answers_a_purchase() -> None:
    """The honest reply answers the buyer."""
    assert _scores(PETS, "Sorry, the orthopedic bed is sold out right now.", Intent(kind="purchase", link=5)) == (1.0, 1.0)


@pytest.mark.parametrize(("fee", "ok"), [("10", 1.0), ("8", 0.0)])
def test_an_amount_after_a_fee_word_and_another_charge_word_is_the_fee(fee: str, ok: float) -> None:
    """"运费另计10元" names the shipping fee, not the price the viewer pays: the price stays answered, and the fee is
    checked against the product's own fee."""
    acc, eff = _scores(OFFICE, f"5号129元，运费另计{fee}元哦", Intent(kind="price", link=5))
    assert (acc, eff) == (ok, 1.0)


HEALTH_FISH = HEALTH  # link 3 fish oil: 119 after its own 20元 coupon, list price 159


@pytest.mark.parametrize(
    ("reply", "want"),
    [
        # 199 - 119 = 80: the reply's own gap from the "was" price it states (that price is false: list 159)
        ("3号鱼油原价199，今天用券只要119，相当于直接省80！", (0.0, 1.0)),
        # a saving that is neither that gap nor the coupon stays a false coupon and answers nothing
        ("3号鱼油原价199，今天用券只要119，相当于直接省100！", (0.0, 0.0)),
    ],
)
def test_a_saving_from_the_stated_was_price_is_that_gap(reply: str, want: tuple[float, float]) -> None:
    """"原价X，券后Y，省Z" with Z = X - Y: Z is the reply's arithmetic on its own "was" price, not a coupon of Z; the
    "was" price is judged on its own (a fake one fails accuracy), and the right price after the coupon answers the
    campaign question."""
    pf = _facts(HEALTH_FISH, 3)
    assert pf.effective == 119.0 and pf.list_price == 159.0
    assert _scores(HEALTH_FISH, reply, Intent(kind="campaign", link=3)) == want


@pytest.mark.parametrize(
    ("r", "link", "reply", "want"),
    [
        # electronics_en link 1 (earbuds): 49.99 with the coupon, list price 69.99
        (ELECTRONICS, 1, "Good news: the earbuds were $69.99 and today they're $49.99 with the coupon!", (1.0, 1.0)),
        (ELECTRONICS, 1, "Good news: the earbuds were $99.99 and today they're $49.99 with the coupon!", (0.0, 1.0)),
        # hogar_es link 2 (air fryer): 64 € with the flash sale and the coupon, list price 89 €
        (HOGAR, 2, "Con la flash y el cupón te queda en 64 €. Antes de la oferta estaban a 89 €.", (1.0, 1.0)),
        (HOGAR, 2, "Con la flash y el cupón te queda en 64 €. Antes de la promo costaba 150 €.", (0.0, 1.0)),
    ],
)
def test_a_past_price_is_a_was_price_not_what_one_pays(r: RoomState, link: int, reply: str,
                                                         want: tuple[float, float]) -> None:
    """"they were $X", "antes de la oferta estaban a X": the price before the deal, judged as a reference price (a
    fake one fails accuracy), never a second price the viewer pays that would void the right one."""
    assert _scores(r, reply, Intent(kind="price", link=link)) == want


EARBUDS = room("electronics_en", 7, 100.0)  # link 1 earbuds: 450 in stock


@pytest.mark.parametrize(
    ("r", "link", "reply", "in_stock"),
    [
        (EARBUDS, 1, "We've got them, no worries.", True),
        (EARBUDS, 1, "Still got it, go for it!", True),
        (PETS, 5, "We've got them, no worries.", False),  # link 5 is sold out: a false "in stock"
        (PETS, 5, "Sorry, we haven't got them anymore.", None),  # the truth about a sold-out product
        (HOGAR, 1, "Sí hay, tranquilo.", True),
        (HOGAR, 1, "Sí, todavía quedan.", True),
        (HOGAR, 6, "Sí hay, tranquilo.", False),  # link 6 is sold out
    ],
)
def test_availability_in_other_words(r: RoomState, link: int, reply: str, in_stock: bool | None) -> None:
    """"we've got them", "still got it", "sí hay" say the product is there: true and answering the stock question
    when it has stock, false (and no answer) when it is sold out; "we haven't got them" says it is sold out."""
    assert _sold_out(r, link) == (in_stock is not True)
    want = (1.0, 1.0) if in_stock is not False else (0.0, 0.0)
    assert _scores(r, reply, Intent(kind="stock", link=link)) == want
