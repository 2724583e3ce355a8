"""A spec question in the room's own words, misspelt or not (hat_env.understanding.spec_match): a one-edit typo of a
spec key's or value's word gives that key, and a key's head word alone ("level" of ``security_level``) does not
claim a question about something the product's data does not speak to."""

from __future__ import annotations

import pytest

from hat_env.understanding.catalog import Entry
from hat_env.understanding.parser import parse_comment
from hat_env.understanding.spec_match import best_key
from rooms import room

PADDLE = room("paddle_en.yaml", 1212, 100.0)


def spec_attrs(text: str) -> list[tuple[int | None, str | None]]:
    """``(link, attr)`` of each spec question the parser reads in ``text`` in the paddle room, sorted."""
    return sorted((i.link, i.attr) for i in parse_comment(text, PADDLE.locale, catalog=PADDLE) if i.kind == "spec")


def _shredder() -> Entry:
    return Entry(link=1, title="Paperwolf 12-Sheet Shredder", brand="Paperwolf",
                 specs=(("security_level", "Micro-cut P-5"), ("basket_volume", "22 L"), ("run_time", "8 minutes")))


@pytest.mark.parametrize("text,key", [
    ("what securty is it", "security_level"),        # a letter left out of the key's modifier
    ("how big is the baskett", "basket_volume"),      # a letter doubled
    ("is it micro cut", "security_level"),            # the value's hyphenated word, as written with a space
    ("what security level", "security_level"),       # the key's words as written
])
def test_a_typo_of_a_key_or_value_word_gives_the_key(text: str, key: str) -> None:
    assert best_key(text, _shredder()) == key


@pytest.mark.parametrize("text", [
    "what level of noise does it make",   # 'level' of security_level, the question about the noise
    "what time of year is it on sale",     # 'time' of run_time, the question about a sale
    "is it loud",                          # nothing of the data
    "does it jam",                         # a short word is read as no typo ('jam' is one edit from no key word)
])
def test_a_head_word_used_otherwise_or_no_shared_word_gives_no_key(text: str) -> None:
    assert best_key(text, _shredder()) is None


def test_a_head_word_alone_still_names_its_key_when_nothing_else_is_asked() -> None:
    """"what level is it": the level is all the question asks, so the one key with it answers."""
    assert best_key("what level is it", _shredder()) == "security_level"


def test_a_typo_close_to_two_keys_gives_no_key() -> None:
    e = Entry(link=1, title="Bolt Drill", brand="", specs=(("torque", "50 Nm"), ("torch", "LED work light")))
    assert best_key("how much torqe", e) == "torque"  # one edit from torque, two from torch
    e = Entry(link=1, title="Dock Box", brand="", specs=(("heater", "2 kW"), ("header", "steel rail")))
    assert best_key("does it have a heaser", e) is None  # one edit from both


def test_a_misspelt_value_word_in_a_room_gives_the_products_key() -> None:
    assert spec_attrs("the cooler insulatd?") == [(5, "insulated")]
    assert spec_attrs("kayak polyetylene?") == [(1, "material")]


def test_a_question_the_room_data_does_not_speak_to_stays_unknown() -> None:
    assert spec_attrs("what level of glare does the headlamp have") == [(3, "unknown")]
    assert spec_attrs("does the dry bag float") == [(2, "unknown")]
