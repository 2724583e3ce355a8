"""A spec question no spec word names gets the product's own spec key its words share with the room's data
(hat_env.understanding.spec_match), on rooms other than the calibration rooms that showed it (tests/data/rooms)."""

from __future__ import annotations

import pytest

from hat_env.understanding.catalog import Entry
from hat_env.understanding.parser import parse_comment
from hat_env.understanding.spec_match import best_key
from rooms import room

ROOMS = {k: room(k, 1212, 100.0) for k in ("paddle_en.yaml", "tongqu_zh.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None)
                  for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,want", [
    # the key's own words: water_temp of the wetsuit
    ("paddle_en.yaml", "wetsuit ok for 50 degree water?", [("spec", 4, "water_temp")]),
    # two characters of the value: the plush toy's material is '短毛绒，PP棉填充'
    ("tongqu_zh.yaml", "兔子玩偶里面填的棉花吗", [("spec", 3, "material")]),
])
def test_a_question_in_the_rooms_own_words_gets_the_rooms_key(scenario: str, text: str,
                                                              want: list[tuple[str, int, str]]) -> None:
    assert intents(scenario, text) == want


@pytest.mark.parametrize("scenario,text,want", [
    # nothing of the dry bag's data is about floating
    ("paddle_en.yaml", "does the dry bag float", [("spec", 2, "unknown")]),
    # one shared character (防 of 'IPX7生活防水') says too little: a drop is no water resistance
    ("tongqu_zh.yaml", "电话手表防摔吗", [("spec", 4, "unknown")]),
    # the second question shares 'water' with water_temp, which is asked already: it stays a question of its own
    ("paddle_en.yaml", "wetsuit water temp and does it float", [("spec", 4, "unknown"), ("spec", 4, "water_temp")]),
])
def test_a_question_the_data_does_not_speak_to_stays_unknown(scenario: str, text: str,
                                                             want: list[tuple[str, int, str]]) -> None:
    assert intents(scenario, text) == want


def _entry(**specs: str) -> Entry:
    return Entry(link=1, title="Trail 40 Pack", brand="", specs=tuple(specs.items()))


def test_two_keys_that_share_as_much_give_no_key() -> None:
    e = _entry(frame="aluminium frame, fits torso 16-20 in", hip_belt="padded, fits hips 28-50 in")
    assert best_key("does it fit me", e) is None
    assert best_key("fit a 19 in torso?", e) == "frame"


def test_the_first_part_of_a_compound_is_no_shared_word() -> None:
    """"water" of "water-resistant": a question about a water bladder is not about the coating."""
    e = _entry(material="210D nylon, water-resistant coating", capacity="40 L")
    assert best_key("does it come with a water bladder", e) is None
    assert best_key("is the coating waterproof", e) == "material"


def test_a_plural_is_its_singular() -> None:
    e = _entry(pockets="two hip-belt pockets, one lid pocket", capacity="40 L")
    assert best_key("how many pocket", e) == "pockets"
    assert best_key("any pockets on the belt", e) == "pockets"
