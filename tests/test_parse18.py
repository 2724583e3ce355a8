"""Pass parse18: the comment parser on the fresh comment rounds' gaps, in phrasings of our own at a seed no
labelled set uses.

- a purchase said as made ("snagged the speaker", "me acabo de pillar la freidora", "口红囤了") beside a thanks,
  greeting or praise anywhere in the comment is a purchase and a ``chitchat`` (the host thanks back and confirms
  the order); a thanks written long ("graciasss") is a thanks; a purchase told of as past ("yesterday", "上周")
  is a story, not an order to confirm.
"""

from __future__ import annotations

import pytest

from rooms import intents, link_of, room

SEED = 1818


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
    ("hogar_es", "gracias! compré la sartén el otro día", [("chitchat", None, None)]),
    ("beauty_zh", "谢谢主播 上周买了粉底液", [("chitchat", None, None)]),
    # a question beside it is that question
    ("electronics_en", "ordered the charger, when does it ship?", [("shipping", "Charger", None)]),
])
def test_done_purchase_near_misses(scenario: str, text: str, expected: list[tuple]) -> None:
    r = room(scenario, SEED)
    assert intents(r, text) == _expect(r, expected)
