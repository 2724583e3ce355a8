"""A false return promise voids the after-sales answer of its product (:meth:`hat_env.scoring.claims.model.Report.answered`,
``_FAMILY_KIND``): the viewer asked how returns work and was told something false about them, whatever true
claim (a return window, the policy note) sits beside it. Another product's answer is left as it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent
from tests.rooms import bad, room
from tests.test_claims_void14 import _scores

# electronics_en link 6: "Returns within 30 days in original packaging.", 12-month warranty
ELECTRONICS = room("electronics_en", 5, 100.0)
RETURNS_6 = Intent(kind="after_sales", link=6)


def test_a_return_window_with_a_false_condition_answers_nothing() -> None:
    """The 30-day window is true but "even without the box" breaks the packaging condition."""
    assert _scores(ELECTRONICS, "Returns within 30 days, even if you've tossed the box.", RETURNS_6) == (0.0, 0.0)


def test_the_true_policy_answers() -> None:
    """The policy said with its condition answers, in other words too."""
    assert _scores(ELECTRONICS, "Returns within 30 days in the original packaging.", RETURNS_6) == (1.0, 1.0)
    assert _scores(ELECTRONICS, "You have thirty days to send it back, just keep the original packaging.",
                   RETURNS_6) == (1.0, 1.0)


def test_a_false_return_promise_on_another_product_leaves_this_answer() -> None:
    """Only the product the false promise is about loses its answer: link 6's true policy still answers link 6."""
    reply = ("Link 6: returns within 30 days in the original packaging. "
             "And link 3 you can return even after you've opened it and thrown the box away.")
    link3 = Intent(kind="after_sales", link=3)
    acc, eff = _scores(ELECTRONICS, reply, RETURNS_6)
    assert acc == 0.0
    assert eff == 1.0
    assert _scores(ELECTRONICS, reply, RETURNS_6, link3)[1] == 0.5


# pets_en link 1 (dog food): "Unopened bags can be returned within 30 days"; hogar_es link 4: "Devolución en 14 días
# con el embalaje original"; healthfood_zh link 3 (fish oil): 未拆封支持7天无理由退换
PETS = room("pets_en", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)
HEALTH = room("healthfood_zh", 5, 100.0)


@pytest.mark.parametrize(
    ("r", "reply", "link"),
    [
        (ELECTRONICS, "You can return it within 30 days, it doesn't matter if you've opened it.", 6),
        (ELECTRONICS, "Thirty days to return it, no receipt needed.", 6),
        (ELECTRONICS, "Thirty days to send it back. Opened is fine!", 6),
        (PETS, "You can send it back within 30 days. Opened bags are totally fine too!", 1),
        (HOGAR, "Devolución en 14 días, la caja da igual.", 4),
        (HOGAR, "Tienes 14 días para devolverla; no importa si ya está abierta.", 4),
        (HEALTH, "3号鱼油支持7天无理由退货，已经拆封的也没关系哦", 3),
        (HEALTH, "3号鱼油7天无理由，没有包装也可以退哦", 3),
    ],
)
def test_a_waived_return_condition_is_a_false_promise(r, reply: str, link: int) -> None:
    """Waiving the policy's condition (unopened, original packaging), in the same sentence or the next one, is a
    promise beyond the data: accuracy 0, and the return question is not answered."""
    assert _scores(r, reply, Intent(kind="after_sales", link=link)) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("r", "reply", "link"),
    [
        (PETS, "You can send it back within 30 days if the bag is unopened.", 1),
        (HOGAR, "Devolución en 14 días con el embalaje original.", 4),
        (HEALTH, "3号鱼油未拆封支持7天无理由退货，拆了的话就不行啦", 3),
        (ELECTRONICS, "It's fine to open it and check it out. Returns are within 30 days in the original packaging.", 6),
    ],
)
def test_the_policy_with_its_condition_is_true(r, reply: str, link: int) -> None:
    """The same windows with the condition kept (or "open it" said of something else) are true and answer."""
    assert _scores(r, reply, Intent(kind="after_sales", link=link)) == (1.0, 1.0)


# hogar_es (seed 5): link 1 the frying pan is "28 cm", link 3 the sheets fit a "cama de 150 cm", link 4 the coffee
# maker costs 114 € now and ships within 48 h; pets_en link 4 (the cat tree) ships free with a $15 oversize fee,
# link 6 (the litter box) has no oversize fee
@pytest.mark.parametrize(
    ("reply", "link", "attr", "ok"),
    [
        ("La sartén mide 280 milímetros, o sea 28 centímetros.", 1, "size", True),
        ("Son 0,28 metros de diámetro.", 1, "size", True),
        ("Para cama de 1,5 metros.", 3, "size", True),
        ("La sartén mide 30 cm.", 1, "size", False),
        ("La sartén es de 260 mm.", 1, "size", False),
    ],
)
def test_spanish_lengths_convert_between_units(reply: str, link: int, attr: str, ok: bool) -> None:
    """mm, cm and metres are one length in Spanish replies as in the other locales: the same length in another
    unit is true, another length false."""
    acc, _ = _scores(HOGAR, reply, Intent(kind="spec", link=link, attr=attr))
    assert acc == (1.0 if ok else 0.0)


def test_te_sale_en_is_a_price_not_a_dispatch() -> None:
    """"Te sale en 114 €" says what the viewer pays; "sale en 48 horas" still says when it ships."""
    assert _scores(HOGAR, "La cafetera hoy te sale en 114 € con el cupón.", Intent(kind="price", link=4)) == (1.0, 1.0)
    assert _scores(HOGAR, "La cafetera hoy te sale en 99 € con el cupón.", Intent(kind="price", link=4))[0] == 0.0
    assert _scores(HOGAR, "La cafetera sale en 48 horas.", Intent(kind="shipping", link=4)) == (1.0, 1.0)
    assert _scores(HOGAR, "La cafetera sale en 12 horas.", Intent(kind="shipping", link=4))[0] == 0.0


@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        ("Shipping is free, but since it's oversize there's a fifteen-dollar fee.", 4, True),
        ("It's an oversize item, so a $15 fee applies.", 4, True),
        ("It's an oversize item, so a $25 fee applies.", 4, False),
        ("The litter box is oversize, so there's a $15 fee.", 6, False),
    ],
)
def test_a_generic_fee_in_a_sentence_naming_the_oversize_fee_is_that_fee(reply: str, link: int, ok: bool) -> None:
    """An amount called just "a fee" in a sentence that names the oversize charge is checked against the
    oversize fee, not the shipping fee; a wrong amount, or a fee the product has not, stays false."""
    acc, _ = _scores(PETS, reply, Intent(kind="shipping", link=link))
    assert acc == (1.0 if ok else 0.0)


# cocina_es (a calibration room): link 1 "Sartén Antiadherente Ferro 28 cm Inducción" (induction: sí), link 7
# "Cafetera Italiana Moka 6 Tazas Aluminio" (induction: no); "induction" is a yes/no attribute the room declares
COCINA = room(Path(__file__).resolve().parents[1] / "scenarios/calibration/rooms/cocina_es.yaml", 1314, 100.0)


@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        ("La cafetera moka no vale para placas de inducción.", 7, True),
        ("Ojo, la moka no es apta para inducción.", 7, True),
        ("La moka funciona perfectamente en inducción.", 7, False),
        ("La sartén sí vale para inducción.", 1, True),
        ("La sartén no sirve para inducción.", 1, False),
    ],
)
def test_a_title_word_that_is_a_shared_attribute_speaks_of_the_attribute(reply: str, link: int, ok: bool) -> None:
    """"Inducción" ends the frying pan's title, but the moka pot has an induction spec too: said of the moka pot it
    is the moka pot's induction value (no), checked as that yes/no spec, not a claim about the frying pan."""
    acc, _ = _scores(COCINA, reply, Intent(kind="spec", link=link, attr="induction"))
    assert acc == (1.0 if ok else 0.0)


@pytest.mark.parametrize("reply", ["It comes with 2 markers and a stand.", "Good for 3 marking sessions a day.",
                                   "We ship 2 orderly boxes."])
def test_a_count_before_a_word_starting_like_a_threshold_word_is_no_threshold(reply: str) -> None:
    """"2 markers" is a count, not the "$50 mark" of a coupon threshold ("mark", "order" are whole words)."""
    assert not [x for x in bad(reply, PETS, Intent(kind="spec", link=1, attr="unknown")) if "(threshold)" in x]


@pytest.mark.parametrize("reply", ["$5 off once you hit the $50 mark.", "There's a $5 coupon on $50 orders.",
                                   "Spend $50 and get $5 off."])
def test_threshold_words_still_give_the_threshold(reply: str) -> None:
    """pets_en's $5-off-$50 coupon said with its threshold word is read (and true)."""
    assert bad(reply, PETS, Intent(kind="campaign", link=1)) == []


# -- audience words, age ratings, fees after a price, advice after a health denial, minutes of use, 冲 as brewing --
@pytest.mark.parametrize(
    ("reply", "flagged"),
    [
        ("Honestly the kids go wild for it, such a fun pick!", False),
        ("I tried it with my own kids last weekend and loved it.", False),
        ("It's safe for kids.", True),
        ("Kids can use it from age 3.", True),
        ("Perfect for toddlers!", True),
    ],
)
def test_an_audience_word_claims_suitability_only_in_a_frame(reply: str, flagged: bool) -> None:
    """"Kids go wild for it" says nothing of whom the dog food suits; "safe for kids" does (and the data does not
    say so)."""
    reasons = bad(reply, PETS, Intent(kind="spec", link=1, attr="unknown"))
    assert any("kids" in x.lower() or "toddlers" in x.lower() for x in reasons) == flagged


def test_an_age_rating_is_no_review_and_no_threshold() -> None:
    """"rated 10 and up", "ages 3+" give an age, not a star rating or a coupon threshold; a star rating still is."""
    assert bad("It's rated 10 and up, great for ages 3+.", PETS, Intent(kind="spec", link=1, attr="unknown")) == []
    assert bad("It's rated 4.8 stars by buyers.", PETS, Intent(kind="spec", link=1, attr="unknown")) != []


def test_an_amount_before_a_fee_is_no_prior_price() -> None:
    """"$44.99 before the $5 shipping fee" is what the viewer pays (before a fee), not a was-price; "before the
    sale" still is one (pets_en link 1: 44.99 now, list price 64.99, free shipping)."""
    reasons = bad("You pay $44.99 before any shipping fee.", PETS, Intent(kind="price", link=1))
    assert not [x for x in reasons if "(reference)" in x]
    assert any("(reference)" in x for x in bad("It was $59.99 before the sale.", PETS, Intent(kind="price", link=1)))


def test_advice_after_a_health_denial_is_no_health_claim() -> None:
    """Declining the effect, then pointing to a medical monitor, claims nothing; an effect stated after the denial
    is still a claim."""
    ask = Intent(kind="efficacy", link=3)
    assert bad("It isn't a medical device. For that, please use a proper medical monitor.", ELECTRONICS, ask) == []
    assert bad("It isn't a medical device. But please wear it daily: it lowers your blood pressure.",
               ELECTRONICS, ask) != []


def test_minutes_of_use_are_no_dispatch_time() -> None:
    """healthfood_zh link 5 ships within 72 h: "泡三分钟" is how long to steep it, not when it ships; a dispatch in
    minutes is still checked."""
    ask = Intent(kind="spec", link=5, attr="unknown")
    assert not [x for x in bad("泡三分钟就可以喝啦，烧开后晾一两分钟再冲", HEALTH, ask) if "ships" in x]
    assert [x for x in bad("下单后30分钟就发货", HEALTH, Intent(kind="shipping", link=5)) if "ships" in x]


def test_chong_as_brewing_is_no_sale() -> None:
    """Link 5 is sold out: "用温水冲服" / "再冲" brew it, "直接冲" urges a purchase."""
    ask = Intent(kind="spec", link=5, attr="unknown")
    assert not [x for x in bad("用温水冲服就行，开水冲一下也能喝", HEALTH, ask) if "sold out" in x]
    assert [x for x in bad("喜欢的直接冲！", HEALTH, Intent(kind="price", link=5)) if "sold out" in x]


@pytest.mark.parametrize("reply", ["La cafetera: 139 € pasan a 114 € con el cupón.", "La cafetera baja de 139 € a 114 €."])
def test_spanish_from_to_prices_give_the_prior_price_first(reply: str) -> None:
    """hogar_es link 4: list price 139 €, 114 € now: "X € pasan a Y €" / "baja de X € a Y €" gives X as the prior
    price, Y as what the viewer pays (a prior price it never had stays false; its history holds 139-159)."""
    assert bad(reply, HOGAR, Intent(kind="price", link=4)) == []
    assert bad(reply.replace("139", "189"), HOGAR, Intent(kind="price", link=4)) != []  # never its price


def test_haiyou_before_a_counted_noun_lists_contents_not_stock() -> None:
    """healthfood_zh link 1 has 600 in stock: "还有一个小量勺" adds an item to a list of contents (no stock count);
    "还有10个哦" and "还有3件库存" still say how many are left (and are false)."""
    ask = Intent(kind="stock", link=1)
    assert not [x for x in bad("一盒60片，还有一个小量勺", HEALTH, ask) if "stock" in x]
    assert [x for x in bad("还有10个哦，抓紧", HEALTH, ask) if "stock is 600" in x]
    assert [x for x in bad("还有3件库存", HEALTH, ask) if "stock is 600" in x]
