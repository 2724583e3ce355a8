"""Lead's parser pass of stop 31: "加" / "加上" / "plus" join two products of one question, on rooms other than
the calibration rooms that showed it (tests/data/rooms)."""

from __future__ import annotations

import pytest

from hat_env.understanding.parser import parse_comment
from rooms import room

ROOMS = {k: room(k, 1212, 100.0) for k in ("paddle_en.yaml", "tongqu_zh.yaml", "chaju_zh.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None]]:
    """``(kind, link)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link) for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,want", [
    ("tongqu_zh.yaml", "积木加兔子玩偶一起多少钱", [("price", 1), ("price", 3)]),
    ("tongqu_zh.yaml", "1号加3号多少钱", [("price", 1), ("price", 3)]),
    ("chaju_zh.yaml", "盖碗加上公道杯一起买多少", [("price", 1), ("price", 3)]),
    ("paddle_en.yaml", "link 1 plus link 6 price", [("price", 1), ("price", 6)]),
])
def test_an_addition_word_between_two_products_asks_about_both(scenario: str, text: str,
                                                               want: list[tuple[str, int]]) -> None:
    """"A加B一起多少": the price of both products, as "A和B" asks it."""
    assert intents(scenario, text) == want
