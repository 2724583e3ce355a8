"""Pass parse17b: general rules of the comment parser, checked on phrasings and a room of our own
(tests/data/rooms/consolas_en.yaml; not the calibration items'), at a seed no labelled set uses.

- a title word and its model number name the product ("the pixi 8"), a spec word and a number do not ("SPF 50");
- an accessory's title naming what it is for ("Hard Carry Case for Pixi 8") does not make that product's name the
  accessory's: "the pixi 8" is the console; "the carry case for the pixi 8" is the case;
- with an order id named, a shipping question about the product said to be the order's (named beside the id, or
  "my headset") asks the order's status, not the product's shipping;
- a spec word for an attribute the product lacks asks nothing of its own when it is an emoji or when the same part
  of its clause asks an attribute the product has ("work with a 3 year old" asks the age); "quién" is no typo;
- French asked with "comment", "on", "nous", "dans", "peut" is another language, not chit-chat; English "comment on"
  stays English;
- "how many ppl" is "how many people": it asks the room's own attribute for it (players);
- "during" is an ordinary word, no typo of "curing" (an efficacy question)."""

from __future__ import annotations

import pytest

from rooms import intents, room

SEED = 1717
ROOM = "consolas_en.yaml"


# -- a model number and an accessory for it ------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("how big is the screen on the pixi 8", [("spec", 1, None, "screen")]),
    ("i'll take the pixi 8", [("purchase", 1, None, None)]),
    ("how heavy is the pixi color 10", [("spec", 2, None, "weight")]),
])
def test_a_name_with_its_model_number_is_the_product_not_the_accessory_for_it(text: str, expected: list) -> None:
    """"pixi 8" is in the console's title and after "for" in the case's: it names the console alone."""
    assert intents(room(ROOM, SEED), text) == expected


@pytest.mark.parametrize("text,expected", [
    ("how much is the carry case for the pixi 8", [("price", 3, None, None)]),
    ("pixi 8 carry case colors?", [("spec", 3, None, "color")]),
])
def test_the_accessory_named_with_its_own_words_stays_the_accessory(text: str, expected: list) -> None:
    """Near miss: the case's own words with the console's name still name the case."""
    assert intents(room(ROOM, SEED), text) == expected


def test_a_brand_alone_still_names_every_product_of_it() -> None:
    """Near miss: "the pixi" has no model number; it is each product of the brand, as before."""
    assert [ln for _k, ln, *_ in intents(room(ROOM, SEED), "i'll take the pixi")] == [1, 2, 3]


# -- an order's product ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "PC7002 paid, when does my headset ship?",
    "bought the pixi 8 (PC7001), when will it arrive?",
])
def test_shipping_of_the_ordered_product_is_the_orders_status(text: str) -> None:
    """The product named beside the order id, or as "my ...", is the order's: when it ships is the order status."""
    assert [k for k, *_ in intents(room(ROOM, SEED), text)] == ["order_status"]


@pytest.mark.parametrize("text,expected", [
    ("PC7001 shipped. how long does the headset take to ship?",
     [("order_status", None, None, None), ("shipping", 4, None, None)]),
    ("when does the headset ship?", [("shipping", 4, None, None)]),
])
def test_shipping_of_another_product_stays_a_shipping_question(text: str, expected: list) -> None:
    """Near miss: a product named apart from the id, not as the viewer's own, is a shipping question of its own."""
    assert intents(room(ROOM, SEED), text) == expected


# -- spec words that ask nothing of their own ------------------------------------------------------------------------

@pytest.mark.parametrize("text,expected", [
    ("does the doodle stylus pack work with a 3 year old?", [("spec", 5, None, "age")]),
    ("how heavy is the carry case 🔋", [("spec", 3, None, "weight")]),
])
def test_a_spec_word_the_product_lacks_beside_one_it_has_asks_nothing(text: str, expected: list) -> None:
    """"work with" (compatibility, which the stylus pack lacks) only leads to the age it has; a battery emoji
    beside the case's weight question is a decoration."""
    assert intents(room(ROOM, SEED), text) == expected


@pytest.mark.parametrize("text,expected", [
    ("does the stylus pack work with the tablet?", [("spec", 5, None, "unknown")]),  # asked alone
    ("how heavy is the carry case and how long does the battery last",  # a second question
     [("spec", 3, None, "unknown"), ("spec", 3, None, "weight")]),
    ("carry case any gift? 🎨", [("campaign", 3, None, None), ("spec", 3, None, "color")]),  # a colour it has
])
def test_a_spec_word_asked_on_its_own_is_kept(text: str, expected: list) -> None:
    """Near misses: the word asked alone, after "and", or naming an attribute the product has stays a question."""
    assert intents(room(ROOM, SEED), text) == expected


def test_quien_is_an_ordinary_spanish_word_not_a_typo() -> None:
    """"quién" is never corrected as a typo of an English keyword ("quiet": a noise question)."""
    from hat_env.understanding.lexicon import lexicon

    assert {"quien", "quienes"} <= lexicon().known_words
    r = room("juguetes_es.yaml", SEED)
    got = intents(r, "el peluche quién lo fabrica?")
    assert got and all(i[0] == "spec" and i[1] == 5 and i[3] != "noise" for i in got), got


# -- French function words ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["comment on charge la console ?", "on peut jouer dans le train avec ?"])
def test_french_with_its_function_words_is_another_language(text: str) -> None:
    """"comment", "on", "peut", "dans" mark French: one ``other_language`` intent (fr)."""
    from hat_env.sim.parser import parse_comment

    got = parse_comment(text, "en_US", catalog=room(ROOM, SEED))
    assert [(i.kind, i.lang) for i in got] == [("other_language", "fr")]


def test_english_comment_on_stays_english() -> None:
    """Near miss: "comment on" in English is no French ("comment on the headset price pls" asks the price)."""
    assert intents(room(ROOM, SEED), "comment on the headset price pls") == [("price", 4, None, None)]


# -- chat spellings --------------------------------------------------------------------------------------------------

def test_how_many_ppl_asks_what_how_many_people_asks() -> None:
    """"ppl" for "people": "how many ppl can play" asks the console's players, as "how many people" does."""
    r = room(ROOM, SEED)
    assert intents(r, "how many ppl can play on the pixi 8?") == [("spec", 1, None, "players")]
    assert intents(r, "how many people can play on the pixi 8?") == [("spec", 1, None, "players")]


def test_ppl_in_praise_asks_nothing() -> None:
    """Near miss: "ppl" without "how many" is no question ("ppl love the headset" is chit-chat)."""
    assert intents(room(ROOM, SEED), "ppl love the headset") == [("chitchat", None, None, None)]


def test_during_is_no_typo_of_curing() -> None:
    """"headset price during the stream?" asks the price only: "during" is no health claim question."""
    assert intents(room(ROOM, SEED), "headset price during the stream?") == [("price", 4, None, None)]


def test_curing_still_asks_efficacy() -> None:
    """Near miss: "curing" itself still asks whether the product cures something."""
    assert [k for k, *_ in intents(room(ROOM, SEED), "is the headset curing my headaches")] == ["efficacy"]
