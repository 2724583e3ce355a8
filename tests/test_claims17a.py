"""False passes of the reply grader closed (or guarded) in the claims17a pass: wrong replies written the way a
chatty LLM host writes them (lists, emoji, number words), each next to a true twin that must stay accurate.

- swapped numbers of one spec value (``hat_env/scoring/claims/check_pairs.py``): "保温24小时" where the data says
  "保温12小时、保冷24小时", "20 days typical" for "10 days typical, 20 hours with GPS on";
- Chinese counts of a thing the title or specs count (``check_counted.py``): "6个杯子" for "4个品茗杯";
- en features said in a suitability frame (claims vocab en_US ``features``): kittens, puppies, senior dogs,
  dishwasher and microwave care;
- the kinds of false claims the engine already read (prices, stock, shipping, warranty, campaigns, specs,
  guarantees), kept here as probes so that a later change cannot reopen them.

Rooms: built-in (pets_en, electronics_en, beauty_zh, hogar_es) and calibration rooms (yundong_zh, chufang_zh,
chaye_zh, fitness_en, deportes_es, cocina_es) at seed 1717, read with ``scenarios/calibration/facts.py room``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.scoring import ScoringContext, accuracy
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.types import Comment, Intent, LiveRequest, RequestOutcome
from tests.rooms import room

RULES = RuleSet.default()
CAL = Path(__file__).resolve().parent.parent / "scenarios" / "calibration" / "rooms"
SEED = 1717


def _room(name: str) -> RoomState:
    """A room at this file's seed: a built-in scenario by name, a calibration room by its file name."""
    return room(str(CAL / name) if name.endswith(".yaml") else name, SEED, 100.0)


ROOMS = {n: _room(n) for n in ("pets_en", "electronics_en", "beauty_zh", "hogar_es", "yundong_zh.yaml",
                               "chufang_zh.yaml", "chaye_zh.yaml", "fitness_en.yaml", "deportes_es.yaml",
                               "cocina_es.yaml")}


def _accuracy(r: RoomState, reply: str, *intents: Intent) -> float:
    """The accuracy component of ``reply`` in room ``r`` for a viewer with ``intents`` (default rules)."""
    req = LiveRequest("r0001", 10.0, [Comment(9.0, "v1", "viewer", "asker", "?", tuple(intents))])
    out = RequestOutcome(req, reply, [], ["item_qa"], turns=1, latency_s=2.0)
    return accuracy(ScoringContext(outcome=out, room=r, rules=RULES))


def spec(link: int, attr: str = "unknown") -> Intent:
    """A spec question about ``link``'s ``attr``."""
    return Intent(kind="spec", link=link, attr=attr)


# -- swapped numbers of one spec value ----------------------------------------------------------------------------

SWAPS = [
    # yundong_zh link 5 insulation "保温12小时、保冷24小时"
    ("yundong_zh.yaml", "这款水壶超给力💪 保温24小时、保冷12小时，一整天都够用～", spec(5, "insulation"), False),
    ("yundong_zh.yaml", "宝子们看过来：\n· 保冷：12个小时\n· 保温：24个小时\n出门带一个就够啦", spec(5, "insulation"), False),
    ("yundong_zh.yaml", "这款水壶保温12小时、保冷24小时，一整天都够用～", spec(5, "insulation"), True),
    ("yundong_zh.yaml", "保冷能到24小时，保温也有12小时哦😊", spec(5, "insulation"), True),
    # chufang_zh link 3 keep_warm "保温12小时，保冷24小时"
    ("chufang_zh.yaml", "焖烧杯保冷12小时，保温24小时，上班族闭眼入～", spec(3, "keep_warm"), False),
    ("chufang_zh.yaml", "焖烧杯保温12小时，保冷24小时，上班族放心用～", spec(3, "keep_warm"), True),
    # fitness_en link 6 battery "10 days typical, 20 hours with GPS on"
    ("fitness_en.yaml", "Battery life is great 🔋 about 20 days typical and 10 hours with GPS on!", spec(6, "battery"),
     False),
    ("fitness_en.yaml", "Battery life is great 🔋 about 10 days typical and 20 hours with GPS on!", spec(6, "battery"),
     True),
    # deportes_es link 4 battery "12 días en modo reloj, 20 horas con GPS"
    ("deportes_es.yaml", "¡Aguanta un montón! 20 días en modo reloj y 12 horas con GPS 🏃", spec(4, "battery"), False),
    ("deportes_es.yaml", "¡Aguanta un montón! 12 días en modo reloj y 20 horas con GPS 🏃", spec(4, "battery"), True),
    # chaye_zh link 4 set_contents "1个盖碗壶（200ml）、4个品茗杯（50ml）..."
    ("chaye_zh.yaml", "品茗杯是200ml的，盖碗壶50ml，泡茶刚刚好", spec(4, "set_contents"), False),
    ("chaye_zh.yaml", "盖碗壶200ml，品茗杯50ml，泡茶刚刚好", spec(4, "set_contents"), True),
]


@pytest.mark.parametrize(("name", "reply", "intent", "ok"), SWAPS)
def test_swapped_numbers_of_one_spec_value(name: str, reply: str, intent: Intent, ok: bool) -> None:
    """A number said beside the label of another number of the same spec value is false; each number beside its
    own label (in either order, with words between) stays accurate."""
    assert (_accuracy(ROOMS[name], reply, intent) == 1.0) is ok


# -- Chinese counts of a thing the data counts -------------------------------------------------------------------

COUNTS = [
    ("chaye_zh.yaml", "这套是一壶六杯，6个杯子每个50ml～送人超有面儿🎁", spec(4, "set_contents"), False),
    ("chaye_zh.yaml", "套装里有8个品茗杯，一家人一起喝茶够用", spec(4, "set_contents"), False),
    ("chaye_zh.yaml", "这套是一壶四杯，4个杯子每个50ml～送人超有面儿🎁", spec(4, "set_contents"), True),
    ("chaye_zh.yaml", "套装里有4个品茗杯，还有1个公道杯和竹制茶盘", spec(4, "set_contents"), True),
]


@pytest.mark.parametrize(("name", "reply", "intent", "ok"), COUNTS)
def test_counts_of_a_thing_the_set_holds(name: str, reply: str, intent: Intent, ok: bool) -> None:
    """A count of cups the set does not hold is false whatever noun names them (杯子, 品茗杯: one head, 杯); the
    set's own count stays accurate."""
    assert (_accuracy(ROOMS[name], reply, intent) == 1.0) is ok


@pytest.mark.parametrize(
    "reply",
    [
        "7号主食罐领券后一百零九块，24罐算下来一罐不到五块钱～",
        "鱼油每天随餐吃2粒就行，一瓶够吃一个多月",
        "两套一共134.3元，下单再减15",
    ],
)
def test_counts_that_are_no_contents(reply: str) -> None:
    """A link's number, a daily dose and a number bought for a price are no count of what a product holds: the
    count reader records nothing for them."""
    from hat_env.scoring.claims.check_counted import read_counted_things
    from hat_env.scoring.claims.read import Reading

    r = Reading(reply, ROOMS["chaye_zh.yaml"], "zh_CN")
    read_counted_things(r)
    assert r.report.claims == []


# -- en features in a suitability frame ----------------------------------------------------------------------------

FEATURES = [
    ("pets_en", "The Summit Cat Tree is 60 inches tall and honestly perfect for kittens too! 🐱", spec(4, "dimensions"),
     False),
    ("pets_en", "Yes!! The cat tree is totally safe for kittens 😺 they'll love the perches", spec(4), False),
    ("pets_en", "The CloudRest bed fits dogs up to 70 lb and it's great for senior dogs with achy joints 🐕",
     spec(5, "dog_size"), False),
    ("pets_en", "The Summit Cat Tree is 60 inches tall on a 24 x 20 in base. 🐱", spec(4, "dimensions"), True),
    ("pets_en", "The TrailPaw Puppy Salmon Recipe is made for puppies, dogs up to 22 lb 🐶", spec(2, "life_stage"),
     True),
    ("pets_en", "The CloudRest bed fits dogs up to 70 lb. It measures 36 x 28 in. 🐕", spec(5, "dog_size"), True),
    ("electronics_en", "The Deskly stand is aluminum and dishwasher safe, so cleanup is a breeze ✨", spec(6), False),
    ("electronics_en", "The Deskly stand fits 4 to 13 inch screens and comes in silver or space gray ✨", spec(6), True),
    ("hogar_es", "¡La sartén de 28 cm es apta para lavavajillas, súper cómoda! 😊", spec(1), False),
    ("hogar_es", "La sartén mide 28 cm y es de aluminio forjado 😊", spec(1), True),
]


FEATURES += [
    # fitness_en link 5 FAQ "Dishwasher safe?" - "Top rack only; the lid seal lasts longer hand-washed."
    ("fitness_en.yaml", "It's top-rack dishwasher safe 👍 the lid seal just lasts longer if you hand-wash it.", spec(5),
     True),
    ("fitness_en.yaml", "The Stride HR watch is dishwasher safe, wild right? 😂", spec(6), False),
]


@pytest.mark.parametrize(("name", "reply", "intent", "ok"), FEATURES)
def test_features_the_data_does_not_state(name: str, reply: str, intent: Intent, ok: bool) -> None:
    """Whom a pet product suits (kittens, puppies, senior dogs) and how a household item is cleaned (dishwasher)
    must be the product's data: the data's own audience and specs stay accurate, and so does a feature an FAQ
    asks about and answers without a no, its restriction said back."""
    assert (_accuracy(ROOMS[name], reply, intent) == 1.0) is ok


# -- other kinds of false claims, as probes -------------------------------------------------------------------------

PROBES = [
    # price: pets_en link 1 pays 44.99, link 2 39.99
    ("pets_en", "Link 1 is $44.99 after the coupon, and link 2 is $29.99 — so link 2 is the cheaper one!",
     Intent(kind="compare", link=1, link2=2), False),
    ("pets_en", "Link 1 is $44.99 after the coupon, and link 2 is $39.99, so link 2 is the cheaper one!",
     Intent(kind="compare", link=1, link2=2), True),
    ("pets_en", "The TrailPaw adult bag comes to forty-nine ninety-nine after the coupon 🎉", Intent(kind="price", link=1),
     False),
    ("pets_en", "The TrailPaw adult bag comes to $44.99 after the coupon 🎉", Intent(kind="price", link=1), True),
    # stock: pets_en link 3 has 3 left, link 7 has 500
    ("pets_en", "Hurry, only 2 bags of the WhiskerWell cat food left!", Intent(kind="stock", link=3), False),
    ("pets_en", "Only 3 bags of the WhiskerWell cat food left!", Intent(kind="stock", link=3), True),
    # warranty: electronics_en link 1 is 12 months
    ("electronics_en", "The Volt Buds Pro come with a 2-year warranty, so you're covered 👍",
     Intent(kind="after_sales", link=1), False),
    ("electronics_en", "The Volt Buds Pro come with a 12-month warranty, so you're covered 👍",
     Intent(kind="after_sales", link=1), True),
    # spec: electronics_en link 6 fits 4 to 13 inch
    ("electronics_en", "The Deskly stand fits 4 to 15 inch screens, so even a big laptop works.", spec(6, "screen"),
     False),
    ("electronics_en", "The Deskly stand fits 4 to 13 inch screens, so a 12.9-inch iPad works.", spec(6, "screen"), True),
    # "up to": the top of the range, not a value inside it (electronics_en link 6 fits 4 to 13 inch)
    ("electronics_en", "Sadly the Deskly stand only fits tablets up to 11 inches, so no 12.9-inch iPad 😕",
     spec(6, "screen"), False),
    ("electronics_en", "The Deskly stand fits tablets up to 13 inches, so a 12.9-inch iPad works 🙌", spec(6, "screen"),
     True),
    ("electronics_en", "The Deskly stand holds a 12.9-inch iPad no problem 🙌", spec(6, "screen"), True),
    ("pets_en", "The puppy recipe is for dogs up to 15 lb, so bigger pups need something else.", spec(2, "dog_size"),
     False),
    ("pets_en", "The puppy recipe is for dogs up to 22 lb, so bigger pups need something else.", spec(2, "dog_size"),
     True),
    # battery: electronics_en link 4 is 20 hours
    ("electronics_en", "The Boom Mini plays for a solid thirty hours on one charge 🔊", spec(4, "battery"), False),
    ("electronics_en", "The Boom Mini plays for a solid twenty hours on one charge 🔊", spec(4, "battery"), True),
    # guarantee
    ("electronics_en", "The power bank is guaranteed to never overheat, 100% safe!", spec(2), False),
    ("electronics_en", "The power bank is 20000mAh with a 24-month warranty.", spec(2), True),
    # zh price: beauty_zh link 3 pays 89
    ("beauty_zh", "3号防晒霜券后只要七十九块钱，冲鸭～", Intent(kind="price", link=3), False),
    ("beauty_zh", "3号防晒霜券后只要八十九块钱，冲鸭～", Intent(kind="price", link=3), True),
    # zh spec: beauty_zh link 6 skin_type 干皮、敏感肌; link 2 shelf life 3年
    ("beauty_zh", "6号洁面乳特别适合油皮，控油一级棒！", spec(6, "skin_type"), False),
    ("beauty_zh", "6号洁面乳适合干皮和敏感肌～", spec(6, "skin_type"), True),
    ("beauty_zh", "口红保质期5年哦，放心囤～", spec(2, "shelf_life"), False),
    ("beauty_zh", "口红保质期3年哦，放心囤～", spec(2, "shelf_life"), True),
    # zh shipping: beauty_zh link 1 ships within 48 h
    ("beauty_zh", "1号精华下单后24小时内发货，很快的～", Intent(kind="shipping", link=1), False),
    ("beauty_zh", "1号精华下单后48小时内发货，很快的～", Intent(kind="shipping", link=1), True),
    # es price and returns: hogar_es link 1 costs 29,90 and takes 14-day returns
    ("hogar_es", "La sartén sale a 24,90 € ahora mismo, ¡chollazo! 🍳", Intent(kind="price", link=1), False),
    ("hogar_es", "La sartén sale a 29,90 € ahora mismo, ¡chollazo! 🍳", Intent(kind="price", link=1), True),
    ("hogar_es", "Tienes 30 días para devolver la sartén sin problema.", Intent(kind="after_sales", link=1), False),
    ("hogar_es", "Tienes 14 días para devolver la sartén sin problema.", Intent(kind="after_sales", link=1), True),
    # es spec: hogar_es link 2 holds 5 litres, link 3 is 100% cotton
    ("hogar_es", "La freidora Airela tiene 6 litros de capacidad, ¡cabe de todo!", spec(2, "size"), False),
    ("hogar_es", "La freidora Airela tiene 5 litros de capacidad, ¡cabe de todo!", spec(2, "size"), True),
    ("hogar_es", "Las sábanas Nube son de lino natural, fresquísimas.", spec(3, "material"), False),
    ("hogar_es", "Las sábanas Nube son de algodón 100%, fresquísimas.", spec(3, "material"), True),
    # es counts: cocina_es link 3 is a set of 5 knives, link 7 makes 6 cups
    ("cocina_es.yaml", "El juego trae 6 cuchillos y el taco de haya, ¡completísimo!", spec(3, "pieces"), False),
    ("cocina_es.yaml", "El juego trae 5 cuchillos y el taco de haya, ¡completísimo!", spec(3, "pieces"), True),
    ("cocina_es.yaml", "La moka hace ocho tacitas de espresso ☕", spec(7, "cups"), False),
    ("cocina_es.yaml", "La moka hace seis tacitas de espresso ☕", spec(7, "cups"), True),
]


@pytest.mark.parametrize(("name", "reply", "intent", "ok"), PROBES)
def test_false_claims_of_each_kind(name: str, reply: str, intent: Intent, ok: bool) -> None:
    """A wrong price, stock count, warranty, fit, battery time, guarantee, skin type, shelf life, dispatch time,
    return window, capacity, material or count fails accuracy; its true twin passes."""
    assert (_accuracy(ROOMS[name], reply, intent) == 1.0) is ok


# -- a wrong fact does not answer: effectiveness ------------------------------------------------------------------

def _scores(r: RoomState, reply: str, *intents: Intent) -> tuple[float, float]:
    """(accuracy, effectiveness) of ``reply`` in room ``r`` for a viewer with ``intents`` (default rules)."""
    from hat_env.scoring import effectiveness

    req = LiveRequest("r0001", 10.0, [Comment(9.0, "v1", "viewer", "asker", "?", tuple(intents))])
    out = RequestOutcome(req, reply, [], ["item_qa"], turns=1, latency_s=2.0)
    ctx = ScoringContext(outcome=out, room=r, rules=RULES)
    return accuracy(ctx), effectiveness(ctx)


@pytest.mark.parametrize(
    ("name", "reply", "intent", "want"),
    [
        # beauty_zh: link 1 pays 159, link 4 pays 199 (a gap of 40)
        ("beauty_zh", "1号159，4号239，差80块～", Intent(kind="compare", link=1, link2=4), (0.0, 0.5)),
        ("beauty_zh", "1号159，4号199，差40块～", Intent(kind="compare", link=1, link2=4), (1.0, 1.0)),
        # electronics_en: the 5W GaN charger is 24 months; a promise beyond the data in the answer's sentence
        ("electronics_en", "Totally, the 65W charger works with every laptop ever made, 100% guaranteed! 💯",
         spec(5), (0.0, 0.0)),
        ("electronics_en", "The 65W charger has 2x USB-C and 1x USB-A, with a 24-month warranty.", spec(5), (1.0, 1.0)),
        # a number beside the promise still answers (the promise is wrong, the warranty is not)
        ("electronics_en", "24-month warranty on the charger — and it'll never fail, guaranteed 💪",
         spec(5, "warranty"), (0.0, 1.0)),
    ],
)
def test_a_wrong_fact_does_not_answer(name: str, reply: str, intent: Intent, want: tuple[float, float]) -> None:
    """A price gap taken from a wrong price completes no comparison (one right price still half answers it), and a
    false promise voids the feature its sentence claims, not a number beside it; the true twins answer."""
    assert _scores(ROOMS[name], reply, intent) == want


FRYER = "¡La freidora está en oferta flash a 69 € y te sale a {} € al final! 🔥"


@pytest.mark.parametrize(
    ("pay", "intents", "want"),
    [
        # hogar_es link 2: flash sale at 69 €, 64 € to pay with the store coupon
        ("59", (Intent(kind="campaign", link=2),), (0.0, 0.0)),
        ("59", (Intent(kind="campaign", link=2), Intent(kind="price", link=2)), (0.0, 0.5)),
        ("64", (Intent(kind="campaign", link=2),), (1.0, 1.0)),
        ("64", (Intent(kind="campaign", link=2), Intent(kind="price", link=2)), (1.0, 1.0)),
    ],
)
def test_a_wrong_deal_outcome(pay: str, intents: tuple[Intent, ...], want: tuple[float, float]) -> None:
    """Asked only about the deals, a wrong price to pay after a flash deal answers nothing (the outcome of the deal
    is what was asked); asked the price too, the named deal still answers the deal question; the true price
    answers both."""
    assert _scores(ROOMS["hogar_es"], FRYER.format(pay), *intents) == want


# -- a total for several units said at the price of one (check_totals.py) ------------------------------------------

@pytest.mark.parametrize(
    ("name", "reply", "intent", "ok"),
    [
        # pets_en link 3 is 24.99 a bag; hogar_es link 1 is 29,90 €; beauty_zh link 2 is 99 a stick
        ("pets_en", "Two bags of the WhiskerWell cat food for $24.99 total 🐱", Intent(kind="price", link=3), False),
        ("pets_en", "Two bags of the WhiskerWell cat food for $49.98 total 🐱", Intent(kind="price", link=3), True),
        ("hogar_es", "Dos sartenes por 29,90 € en total, ¡vaya chollo!", Intent(kind="price", link=1), False),
        ("hogar_es", "Dos sartenes por 59,80 € en total, ¡vaya chollo!", Intent(kind="price", link=1), True),
        ("hogar_es", "La sartén tiene 2 años de garantía y son 29,90 € en total.", Intent(kind="price", link=1), True),
        ("beauty_zh", "口红两支一共99元，超划算～", Intent(kind="price", link=2), False),
        ("beauty_zh", "口红两支一共198元～", Intent(kind="price", link=2), True),
    ],
)
def test_a_total_of_several_at_the_price_of_one(name: str, reply: str, intent: Intent, ok: bool) -> None:
    """Two units "in total" at one unit's price is false; twice the price is true, and a count of something else
    ("2 años de garantía") leaves the amount the price of one."""
    assert (_accuracy(ROOMS[name], reply, intent) == 1.0) is ok
