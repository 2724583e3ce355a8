"""Pass parse18: the comment parser on the fresh comment rounds' gaps, in phrasings of our own at a seed no
labelled set uses.

- a purchase said as made ("snagged the speaker", "me acabo de pillar la freidora", "口红囤了") beside a thanks,
  greeting or praise anywhere in the comment is a purchase and a ``chitchat`` (the host thanks back and confirms
  the order); a thanks written long ("graciasss") is a thanks; a purchase told of as past ("yesterday", "上周")
  is a story, not an order to confirm;
- a purchase made beside a question (its shipping, a return) is that question only.
- a spec question no spec word names matches a hyphenated word of the product's own spec value written with a
  space or run together ("usbc", "usb a" for "USB-C", "USB-A");
- an insult beside a question whether the host is a person or an AI, with no product asked, is why it is asked
  ("是AI吧 跟念稿一样"): ``identity`` alone;
- French and Portuguese delivery verbs ("livrez", "entregam", "vocês", "em") mark those languages;
- eyesight conditions (myopia, eye strain, miopía, fatiga visual, 近视) are health conditions: asked of a product,
  an ``efficacy`` question;
- a spec word after "las de", "the one with" says which product ("qué garantía tienen las de pantalla"): the one
  whose title has it (else the one with that key) gets the comment's link-less questions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rooms import intents, link_of, room

SEED = 1818
CAL = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"


def _expect(r, items: list[tuple]) -> list[tuple]:
    """``(kind, title part or None, attr)`` -> the sorted ``intents`` form of room ``r``."""
    return sorted(((kind, link_of(r, part) if part else None, None, attr if kind == "spec" else None)
                   for kind, part, attr in items), key=str)


@pytest.mark.parametrize("scenario,text,expected", [
    ("electronics_en", "snagged the speaker 🔊 thx jo", [("purchase", "Boom Mini", None), ("chitchat", None, None)]),
    ("electronics_en", "thank you!! ordered the smartwatch", [("chitchat", None, None), ("purchase", "Pulse S2", None)]),
    ("electronics_en", "just purchased the tablet stand", [("purchase", "Tablet Stand", None)]),
    ("hogar_es", "graciasss, me acabo de pillar la freidora", [("chitchat", None, None), ("purchase", "Freidora", None)]),
    ("hogar_es", "ya la pedí, la batidora 😍", [("purchase", "Batidora", None)]),
    ("beauty_zh", "谢谢主播 口红囤了", [("chitchat", None, None), ("purchase", "口红", None)]),
    ("beauty_zh", "洁面乳绝了 又囤了三支", [("chitchat", None, None), ("purchase", "洁面乳", None)]),
])
def test_done_purchase_beside_thanks(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("scenario,text,expected", [
    # told as past: a thanks, no order to confirm
    ("electronics_en", "thanks, grabbed the earbuds last week and they're great", [("chitchat", None, None)]),
    ("hogar_es", "gracias! ya compré la sartén el otro día", [("chitchat", None, None)]),
    ("beauty_zh", "谢谢主播 上周买了粉底液", [("chitchat", None, None)]),
    # a return or an order's state asks of an order made before, not a new purchase; "买了送啥": what buying gets
    ("electronics_en", "ordered the charger, can i still return it?", [("after_sales", "Charger", None)]),
    ("electronics_en", "ordered the charger, when does it ship?", [("shipping", "Charger", None)]),
    ("beauty_zh", "粉底液买了送什么", [("campaign", "粉底液", None)]),
])
def test_done_purchase_near_misses(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("text,expected", [
    # a hyphenated value word written with a space or run together names that key
    ("power bank weight, does it have usbc", [("spec", "Power Bank", "connectivity"), ("spec", "Power Bank", "weight")]),
    ("charger any usb a port?", [("spec", "Charger", "connectivity")]),
    # near misses: the smartwatch has no USB in its data; "usb" alone is no part-for-part "USB-C"
    ("smartwatch battery life and does it do usb a?", [("spec", "Smartwatch", "battery"), ("spec", "Smartwatch", "unknown")]),
    ("charger is it usb?", [("spec", "Charger", "unknown")]),
])
def test_hyphenated_value_words(text: str, expected: list[tuple]) -> None:
    r = room("electronics_en", SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("scenario,text,expected", [
    # a jab at how the host talks, beside asking whether the host is a person, is why it is asked
    ("beauty_zh", "主播是AI吧 回复跟念稿一样", [("identity", None, None)]),
    ("electronics_en", "are you even a real person, this is a scam", [("identity", None, None)]),
    # near misses: an insult alone stays a troll; one about a product stays beside the identity question
    ("beauty_zh", "这口红垃圾 骗人的", [("troll", None, None)]),
    ("electronics_en", "are you a bot? these earbuds are trash",
     [("identity", None, None), ("spec", "Earbuds", "unknown"), ("troll", None, None)]),
])
def test_identity_with_a_jab(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("scenario,text,expected", [
    # French and Portuguese delivery questions: other languages the parser does not read
    ("hogar_es", "vous livrez aux Canaries ?", [("other_language", None, None)]),
    ("hogar_es", "Vocês enviam a freidora para o Brasil?", [("other_language", None, None)]),
    # near misses: Spanish and English stay read
    ("hogar_es", "la freidora la envían en 24h?", [("shipping", "Freidora", None)]),
    ("electronics_en", "grab em while they last, earbuds ship today?", [("shipping", "Earbuds", None)]),
])
def test_french_and_portuguese_delivery(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("scenario,text,expected", [
    # eyesight conditions asked of a product are a health effect
    ("electronics_en", "does the tablet stand prevent eye strain?", [("efficacy", "Tablet Stand", None)]),
    ("hogar_es", "las toallas evitan la fatiga visual?", [("efficacy", "Toallas", None)]),
    ("beauty_zh", "洁面乳能治近视吗", [("efficacy", "洁面乳", None)]),
    # near misses: no condition named, a spec question
    ("electronics_en", "tablet stand height for eye level?", [("spec", "Tablet Stand", "unknown")]),
    ("hogar_es", "las toallas son suaves?", [("spec", "Toallas", "unknown")]),
])
def test_eyesight_conditions(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)


@pytest.mark.parametrize("text,expected", [
    # "las de pantalla": the glasses with "Pantalla" in their title, asked about their returns, warranty, material
    ("se pueden devolver las de pantalla?", [("after_sales", "Pantalla", None)]),
    ("las de pantalla tienen garantía?", [("after_sales", "Pantalla", None)]),
    ("las de pantalla de qué material son?", [("spec", "Pantalla", "material")]),
    # near miss: no "las de" before it, a question about a screen no product is named for
    ("tienen pantalla?", [("spec", None, "screen")]),
])
def test_spec_word_that_says_which(text: str, expected: list[tuple]) -> None:
    r = room(CAL / "optica_es.yaml", SEED)
    assert intents(r, text) == _expect(r, expected)
