"""Correct replies as a capable LLM host writes them (branch claims17b): long, chatty, bullet lists, emoji, number
words, rounded units, several questions in one reply, honest "the listing doesn't say" answers. Each one passes
(accurate, and it answers what was asked), and each has a wrong twin (one number or state changed) that must still
be read as false.

Rooms: built-in scenarios at seed 1717 (no labelled set uses it); the expectations are read from the room data
(``python scenarios/calibration/facts.py room SCENARIO 1717 200``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.scoring.claims import answered_intents, load_vocab, read_claims
from hat_env.sim.room import RoomState
from hat_env.text import normalize
from hat_env.types import Intent

from rooms import intents, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"

EN = room("electronics_en", 1717, 200)
ES = room("hogar_es", 1717, 200)
PT = room("pets_en", 1717, 200)


def _bad(reply: str, r: RoomState, intents: list[Intent]) -> list[str]:
    """The reasons of the reply's false or unsupported claims (empty: accurate)."""
    return [c.reason for c in read_claims(reply, r, intents=intents).bad]


#: a viewer's plain question of each kind (a shipping question's words say what it asks: carrier, fee or time)
_ASKED = {"en_US": {"shipping": "how's shipping on it?"}, "es_ES": {"shipping": "¿y el envío?"}}


def _scores(reply: str, r: RoomState, intents: list[Intent]) -> list[float]:
    """How far ``reply`` answers each of ``intents`` (1, 0.5, 0), as the effectiveness component reads it, each
    intent asked in a viewer's plain words."""
    v = load_vocab(r.locale)
    rep = read_claims(reply, r, intents=intents)
    texts = [_ASKED[r.locale].get(i.kind, "") for i in intents]
    return [s for _it, s, _w in answered_intents(rep, intents, r, normalize(reply, v.locale).text, v.lang, texts, v)]


def P(link: int | None = None) -> Intent:
    return Intent(kind="price", link=link)


def S(link: int, attr: str = "unknown") -> Intent:
    return Intent(kind="spec", link=link, attr=attr)


def K(kind: str, link: int | None = None) -> Intent:
    return Intent(kind=kind, link=link)


# (room, asked, correct reply, wrong twin)
PROBES: list[tuple[RoomState, list[Intent], str, str]] = [
    # --- electronics_en: earbuds 59.99 -> 49.99 with the $10-off-$50 coupon; battery 8 h (32 with case)
    (EN, [P(1)], "The Volt Buds Pro are $59.99, and with the $10 coupon you pay $49.99 🎧",
     "The Volt Buds Pro are $59.99, and with the $10 coupon you pay $44.99 🎧"),
    (EN, [P(1)], "Great question! Right now the Volt Buds Pro come to $49.99 after the store coupon.",
     "Great question! Right now the Volt Buds Pro come to $39.99 after the store coupon."),
    (EN, [S(1, "battery")], "You get about 8 hours per charge, and 32 hours total with the charging case 🔋",
     "You get about 10 hours per charge, and 32 hours total with the charging case 🔋"),
    (EN, [S(1, "battery")], "Battery life:\n- **8 hours** on the buds\n- **32 hours** with the case",
     "Battery life:\n- **8 hours** on the buds\n- **40 hours** with the case"),
    (EN, [S(1, "warranty")], "They come with a 12-month warranty, so a full year of coverage.",
     "They come with a 24-month warranty, so two full years of coverage."),
    (EN, [S(1, "warranty")], "Warranty is one year on the Volt Buds Pro 👍",
     "Warranty is two years on the Volt Buds Pro 👍"),
    (EN, [K("shipping", 1)], "The earbuds ship free with UPS and go out within 24 hours 📦",
     "The earbuds ship free with UPS and go out within 2 hours 📦"),
    (EN, [K("shipping", 4)], "The Boom Mini ships with USPS and shipping is $4.99.",
     "The Boom Mini ships with USPS and shipping is free."),
    (EN, [K("after_sales", 1)], "You can return them within 30 days as long as they're in the original packaging.",
     "You can return them within 60 days as long as they're in the original packaging."),
    (EN, [S(1, "unknown")], "Yes! They have active noise cancelling, plus a transparency mode when you need to hear around you.",
     "No, they don't have noise cancelling, sorry!"),
    (EN, [S(1, "unknown")], "They're IPX4, so sweat and splashes are fine, but don't take them swimming 🏊",
     "They're IPX7, so you can take them swimming 🏊"),
    (EN, [S(2, "battery")], "It's a 20000mAh power bank, around 4 full charges of a typical phone ⚡",
     "It's a 10000mAh power bank, around 4 full charges of a typical phone ⚡"),
    (EN, [K("stock", 2)], "Yep, the Voltcore power bank is in stock, plenty available!",
     "Sorry, the Voltcore power bank is sold out right now."),
    (EN, [P(3)], "The Pulse S2 is on a launch deal at $109, and the $10 coupon takes it to $99 😍",
     "The Pulse S2 is on a launch deal at $109, and the $10 coupon takes it to $89 😍"),
    (EN, [S(3, "screen")], "It has a 1.43-inch AMOLED screen and the battery lasts up to 14 days.",
     "It has a 1.6-inch AMOLED screen and the battery lasts up to 14 days."),
    (EN, [S(3, "unknown")], "Yes, it works with iPhone on iOS 15 or later (and Android 9+).",
     "No, it doesn't work with iPhone, Android only."),
    (EN, [S(4, "unknown")], "It's rated IPX7, so a quick dunk in fresh water is no problem 💦",
     "It's rated IPX4, so a quick dunk in fresh water is no problem 💦"),
    (EN, [S(5, "unknown")], "Yes, it can charge a laptop: up to 65W from one USB-C port, enough for most 13-14 inch laptops.",
     "Yes, it can charge a laptop: up to 100W from one USB-C port, enough for most 13-14 inch laptops."),
    (EN, [S(6, "unknown")], "The listing doesn't mention a weight limit, but it's aluminum, weighs 280g and fits 4 to 13 inch tablets.",
     "The listing doesn't mention a weight limit, but it's aluminum, weighs 500g and fits 4 to 13 inch tablets."),
    (EN, [S(6, "unknown")], "Hmm, I don't have info on whether it rotates, sorry! It does fold flat for travel though.",
     "Hmm, I don't have info on whether it rotates, sorry! It doesn't fold, though."),
    (EN, [P(6), K("shipping", 6)], "The Deskly stand is $24.99, and shipping with USPS is $3.99.",
     "The Deskly stand is $24.99, and shipping with USPS is free."),
    (EN, [P(4), S(4, "battery")], "Sure! 1) Boom Mini is $45. 2) Battery lasts about 20 hours.",
     "Sure! 1) Boom Mini is $45. 2) Battery lasts about 30 hours."),
    (EN, [P(5)], "The 65W GaN charger is thirty-nine ninety-nine 💡",
     "The 65W GaN charger is thirty-four ninety-nine 💡"),
    (EN, [K("compare", 1)], "The Volt Buds Pro are $49.99 after the coupon, the Boom Mini speaker is $45 — so the speaker is about five dollars cheaper.",
     "The Volt Buds Pro are $49.99 after the coupon, the Boom Mini speaker is $39 — so the speaker is about eleven dollars cheaper."),
    # --- pets_en: dog food 54.99 -> 44.99; cat food 3 left, flash 21.99; dog bed sold out
    (PT, [K("stock", 3)], "Hurry, there are only 3 bags of the indoor cat food left! 🐱",
     "Hurry, there are only 8 bags of the indoor cat food left! 🐱"),
    (PT, [K("stock", 5)], "Oh no, the CloudRest dog bed is sold out at the moment 😔",
     "Good news, the CloudRest dog bed is in stock!"),
    (PT, [S(1, "protein")], "The TrailPaw adult formula has 26% protein, and deboned chicken is the first ingredient.",
     "The TrailPaw adult formula has 30% protein, and deboned chicken is the first ingredient."),
    (PT, [S(2, "grain_free")], "Yes, the puppy salmon recipe is grain-free 🐶",
     "No, the puppy salmon recipe isn't grain-free 🐶"),
    (PT, [S(4, "dimensions")], "The Summit cat tree stands 60 inches tall, on a 24 x 20 in base.",
     "The Summit cat tree stands 72 inches tall, on a 24 x 20 in base."),
    (PT, [K("shipping", 7)], "The dental chews ship with USPS for $6.",
     "The dental chews ship with USPS for free."),
    # --- hogar_es: sartén 29,90; freidora flash 69 -> 64 con cupón; batidora agotada; sábanas envío 3,95
    (ES, [P(1)], "¡Hola! La sartén Cocina+ de 28 cm está a 29,90 € 🍳",
     "¡Hola! La sartén Cocina+ de 28 cm está a 24,90 € 🍳"),
    (ES, [P(1)], "La sartén cuesta veintinueve con noventa.",
     "La sartén cuesta veinticuatro con noventa."),
    (ES, [S(1, "warranty")], "La sartén tiene dos años de garantía 👌",
     "La sartén tiene tres años de garantía 👌"),
    (ES, [S(1, "unknown")], "¡Sí! Sirve para todas las cocinas, inducción incluida.",
     "No, no sirve para inducción, lo siento."),
    (ES, [K("shipping", 1)], "Envío gratis con SEUR y sale en 24 horas 🚚",
     "Envío gratis con SEUR y sale en 2 horas 🚚"),
    (ES, [P(2)], "La freidora Airela está en oferta flash a 69 € y con el cupón de 5 € te queda en 64 € 🔥",
     "La freidora Airela está en oferta flash a 69 € y con el cupón de 5 € te queda en 59 € 🔥"),
    (ES, [S(2, "size")], "Es de 5 litros, perfecta para la familia.",
     "Es de 7 litros, perfecta para la familia."),
    (ES, [S(2, "unknown")], "Tiene 1500 W de potencia ⚡",
     "Tiene 2000 W de potencia ⚡"),
    (ES, [K("stock", 6)], "Lo siento, la batidora de vaso Turbo está agotada ahora mismo 😔",
     "¡Sí! La batidora de vaso Turbo está disponible."),
    (ES, [K("shipping", 3)], "Las sábanas se envían con Correos y el envío cuesta 3,95 €.",
     "Las sábanas se envían con Correos y el envío es gratis."),
    (ES, [S(3, "size")], "Son para cama de 150 cm, en blanco, gris o azul.",
     "Son para cama de 135 cm, en blanco, gris o azul."),
    (ES, [S(3, "unknown")], "Apenas encogen: el algodón viene prelavado, lávalas a 40 grados.",
     "No encogen nada aunque las laves a 90 grados."),
    (ES, [K("after_sales", 3)], "Tienes 14 días para devolverlas con el embalaje original.",
     "Tienes 30 días para devolverlas con el embalaje original."),
    (ES, [S(4, "warranty")], "La cafetera Barista Pro tiene tres años de garantía ☕",
     "La cafetera Barista Pro tiene dos años de garantía ☕"),
    (ES, [S(4, "unknown")], "No usa cápsulas: funciona con café molido.",
     "Sí, usa cápsulas."),
    (ES, [P(4)], "La cafetera está a 119 €, y con el cupón de 5 € se te queda en 114 €.",
     "La cafetera está a 119 €, y con el cupón de 5 € se te queda en 104 €."),
    (ES, [S(5, "size")], "Las toallas miden 70 x 140 cm y vienen en pack de 4.",
     "Las toallas miden 50 x 100 cm y vienen en pack de 4."),
    (ES, [S(5, "unknown")], "En la ficha no pone el gramaje, lo siento; son de algodón 100% y tras el primer lavado casi no sueltan pelusa.",
     "Tienen un gramaje de 600 g/m² y son de algodón 100%."),
    (ES, [P(5), K("shipping", 5)], "Las toallas cuestan 24,90 € y el envío con Correos son 3,95 €.",
     "Las toallas cuestan 24,90 € y el envío con Correos es gratis."),
    (ES, [S(6, "unknown")], "Sí, tritura hielo, tiene función para hielo 🧊 (eso sí, ahora mismo está agotada).",
     "No tritura hielo, lo siento."),
    (ES, [S(2, "weight")], "La freidora pesa 4,2 kg.",
     "La freidora pesa 6,2 kg."),
]


@pytest.mark.parametrize("r,asked,good,wrong", PROBES)
def test_a_correct_reply_passes_and_its_wrong_twin_fails(r: RoomState, asked: list[Intent], good: str,
                                                         wrong: str) -> None:
    assert _bad(good, r, asked) == []
    assert min(_scores(good, r, asked)) >= 0.5
    assert _bad(wrong, r, asked) != [] or min(_scores(wrong, r, asked)) < 0.5


# --- a regular price named after its amount ("sus 79 € de siempre") is a reference price, not what one pays ----------


@pytest.mark.parametrize("reply,ok", [
    ("La freidora está en flash a 69 €, diez euros menos que sus 79 € de siempre 🔥", True),
    ("La freidora Airela baja a 69 € en la flash; su precio habitual es 79 €.", True),
    ("La freidora está en flash a 69 €, cuarenta euros menos que sus 109 € de siempre 🔥", False),
])
def test_a_price_de_siempre_is_the_regular_price(reply: str, ok: bool) -> None:
    # hogar_es link 2 freidora: price 79, list 89, flash 69 at t=200 (64 with the 5 € coupon)
    assert (_bad(reply, ES, [K("campaign", 2)]) == []) is ok


# --- a price spoken as a digit and a two-digit number: cents, or hundreds for a product that costs hundreds -----------


@pytest.mark.parametrize("reply,ok", [
    ("ninety-nine bucks for the Pulse S2 right now, down from the usual one twenty-nine ⌚", True),
    ("The Pulse S2 is usually one twenty-nine, today it's ninety-nine with the coupon.", True),
    ("ninety-nine bucks for the Pulse S2 right now, down from the usual one thirty-nine ⌚", False),
    ("The Pulse S2 is one nineteen today.", False),
])
def test_a_spoken_price_of_hundreds(reply: str, ok: bool) -> None:
    # electronics_en link 3 Pulse S2: price 129, list 149; flash 109 and the $10 coupon: 99 at t=200
    assert (_bad(reply, EN, [P(3)]) == []) is ok


# --- a time said as a bound: "just under a day" for 20 hours ---------------------------------------------------------


@pytest.mark.parametrize("reply,ok", [
    ("The Boom Mini plays for just under a day on one charge: 20 hours 🔊", True),
    ("Battery on the Boom Mini? Over 15 hours easily!", True),
    ("The Boom Mini plays for just under half a day on one charge 🔊", False),
    ("Battery on the Boom Mini? Over 30 hours easily!", False),
])
def test_a_time_said_as_a_bound_of_the_spec(reply: str, ok: bool) -> None:
    # electronics_en link 4 Boom Mini: battery "20 hours"
    asked = [S(4, "battery")]
    assert (_bad(reply, EN, asked) == []) is ok
    if ok:
        assert min(_scores(reply, EN, asked)) >= 0.5


# --- "knocks off $10": the coupon's amount after a verb, not a threshold ("$10 off $50" keeps the threshold) ---------


@pytest.mark.parametrize("reply,ok", [
    ("The Volt Buds Pro are $59.99, and since that's over $50 the store coupon knocks off $10, so you pay $49.99.", True),
    ("There's a $10-off-$50 coupon, so the Volt Buds Pro come to $49.99.", True),
    ("The Volt Buds Pro are $59.99, and since that's over $50 the store coupon knocks off $15, so you pay $44.99.", False),
    ("There's a $10-off-$40 coupon, so the Volt Buds Pro come to $49.99.", False),
])
def test_a_coupon_amount_after_a_removing_verb(reply: str, ok: bool) -> None:
    # electronics_en link 1 Volt Buds Pro: 59.99, coupon $10 off orders of $50 or more: pays 49.99
    assert (_bad(reply, EN, [P(1), K("campaign", 1)]) == []) is ok


# --- the viewer's own order amount: "on a $70 order" at or over the threshold is no threshold claim ------------------


@pytest.mark.parametrize("reply,ok", [
    ("On a $70 order the $10 coupon applies, since it needs $50 or more.", True),
    ("For a $55 cart you'd get the $10 off, yes!", True),
    ("On a $40 order the $10 coupon applies.", False),  # below the $50 threshold: the coupon does not apply
    ("The $10 coupon needs a $70 order.", False),  # a threshold stated, and wrong
])
def test_the_viewers_order_amount_is_theirs(reply: str, ok: bool) -> None:
    # electronics_en: coupon $10 off orders of $50 or more
    assert (_bad(reply, EN, [K("campaign", 1)]) == []) is ok


# --- words of everyday speech that are no feature claims --------------------------------------------------------------


@pytest.mark.parametrize("reply,ok", [
    ("It folds flat, so it slides right into a laptop bag 👜", True),
    ("At 280g it's light enough to carry up a flight of stairs with one hand.", True),
    ("It folds flat and holds a 15 inch laptop too.", False),  # fits 4 to 13 inch: no laptop stated
    ("It folds flat and it's fine to take on a flight in your carry-on.", False),
])
def test_a_feature_word_in_a_compound_or_an_idiom(reply: str, ok: bool) -> None:
    # electronics_en link 6 Deskly tablet stand: fits 4 to 13 inch, 280g, FAQ: folds flat for travel
    assert (_bad(reply, EN, [S(6)]) == []) is ok


@pytest.mark.parametrize("reply,ok", [
    ("It's 20 hours of battery, and 540g — the speed tops out at 2 in low and 3 in high.", True),
    ("The speaker is 6 in tall.", False),  # the data states no height
])
def test_in_high_after_a_number_is_a_setting_not_inches(reply: str, ok: bool) -> None:
    # electronics_en link 4 Boom Mini: battery 20 hours, 540g
    assert (_bad(reply, EN, [S(4)]) == []) is ok


# --- unopened / "sin abrir" / "cerrado" names the shelf life, "una vez abierto" the period after opening -------------

BZ_ES = room(str(CAL_ROOMS / "belleza_es.yaml"), 1717, 230)


@pytest.mark.parametrize("reply,ok", [
    ("Una vez abierto, úsalo en 6 meses; cerrado aguanta dos años 🧴", True),
    ("Sin abrir te dura 24 meses, y tras abrir medio año.", True),
    ("Una vez abierto, úsalo en 6 meses; cerrado aguanta tres años 🧴", False),
    ("Una vez abierto dura dos años.", False),
])
def test_unopened_is_the_shelf_life(reply: str, ok: bool) -> None:
    # belleza_es link 1 sérum Luz C: pao "6 meses", shelf_life "24 meses"
    asked = [S(1, "pao")]
    assert (_bad(reply, BZ_ES, asked) == []) is ok
    if ok:
        assert min(_scores(reply, BZ_ES, asked)) >= 0.5


@pytest.mark.parametrize("reply,ok", [
    ("En un pedido de 50 € el cupón de 5 € sí se aplica 👍", True),
    ("En un pedido de 30 € el cupón de 5 € se aplica.", False),  # under the 40 € threshold
])
def test_the_viewers_order_amount_es(reply: str, ok: bool) -> None:
    # hogar_es: coupon 5 € off orders from 40 €
    assert (_bad(reply, ES, [K("campaign", 1)]) == []) is ok


# --- a bare count before a measured thing: "two 2.0 Ah batteries" counts batteries, it states no voltage ------------

TOOLS = room(str(CAL_ROOMS / "tools_en.yaml"), 1717, 300)


@pytest.mark.parametrize("reply,ok", [
    ("The drill uses 20V MAX packs; its kit has two 2.0 Ah 20V MAX batteries in the box 🔋", True),
    ("The drill uses 20V MAX packs; its kit has two 4.0 Ah 20V MAX batteries in the box 🔋", False),
])
def test_a_count_before_a_measured_thing(reply: str, ok: bool) -> None:
    # tools_en link 1 drill kit: voltage 20 V, kit_contents "two 2.0 Ah batteries", platform Voltforge 20V MAX
    assert (_bad(reply, TOOLS, [S(1, "battery_platform")]) == []) is ok


# --- a true stock answer about a variant the asked spec lists answers that spec ---------------------------------------

OPT = room(str(CAL_ROOMS / "optica_es.yaml"), 1717, 180)


@pytest.mark.parametrize("reply,ok", [
    ("¡Sí! De +1,5 tenemos stock, te las puedes llevar ya 👓", True),
    ("La graduación +2,5 está agotada ahora mismo, lo siento; de +2,0 sí hay.", True),
    ("¡Sí! De +2,5 tenemos stock, te las puedes llevar ya 👓", False),  # +2,5 has none
])
def test_a_variant_in_stock_answers_the_asked_spec(reply: str, ok: bool) -> None:
    # optica_es link 6 gafas de lectura: dioptres "+1,5 / +2,0 / +2,5"; variants +1,5 30, +2,0 40, +2,5 0
    asked = [S(6, "dioptres")]
    assert (_bad(reply, OPT, asked) == []) is ok
    if ok:
        assert min(_scores(reply, OPT, asked)) >= 0.5


# --- the comment parser: a plus between two questions ("how much + can i return it") ---------------------------------


@pytest.mark.parametrize("scenario,text,want", [
    ("electronics_en", "stand how much + can i return it", [("after_sales", 6, None, None), ("price", 6, None, None)]),
    ("electronics_en", "speaker price & does it ship free?", [("price", 4, None, None), ("shipping", 4, None, None)]),
    ("hogar_es", "precio de la sartén + cuánto tarda el envío?", [("price", 1, None, None), ("shipping", 1, None, None)]),
    # a plus between two products of one question stays one question about both
    ("electronics_en", "earbuds + speaker price?", [("price", 1, None, None), ("price", 4, None, None)]),
])
def test_a_plus_between_two_questions_splits_them(scenario: str, text: str, want: list) -> None:
    assert intents(room(scenario, 1717, 200), text) == want


# --- "how big?" read as one size spec is answered by another that says how big it is ----------------------------------

AP = room("appliances_en", 1717, 200)


@pytest.mark.parametrize("question,reply,answered", [
    ("how big is the washer?", "It's a roomy 4.5 cu ft drum, plenty for a family 🧺", True),
    ("how big is the washer?", "It measures 27 x 31 x 39 in.", True),
    # a question naming the dimensions wants them: the capacity does not answer it
    ("what are the washer's dimensions? need to fit it in a closet", "It's a roomy 4.5 cu ft drum 🧺", False),
])
def test_a_generic_size_question_takes_any_size_spec(question: str, reply: str, answered: bool) -> None:
    # appliances_en link 3 washer: capacity "4.5 cu ft", dimensions "27 x 31 x 39 in"
    asked = [S(3, "dimensions")]
    v = load_vocab(AP.locale)
    rep = read_claims(reply, AP, intents=asked)
    assert rep.bad == []
    res = answered_intents(rep, asked, AP, normalize(reply, v.locale).text, v.lang, [question], v)
    assert (res[0][1] >= 1.0) is answered
