"""Pass parser13: question forms without a question mark (a tag, a choice between two, "vale pa"), on rooms other
than the calibration rooms that showed them (tests/data/rooms)."""

from __future__ import annotations

import pytest

from hat_env.understanding.parser import parse_comment
from rooms import room

ROOMS = {k: room(k, 1) for k in ("cookware_en.yaml", "jardin_es.yaml", "chaju_zh.yaml", "juguetes_es.yaml",
                                 "watches_en.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None) for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,want", [
    ("cookware_en.yaml", "kettle have a timer or not", ("spec", 4, "unknown")),
    ("cookware_en.yaml", "the skillet needs seasoning right", ("spec", 1, "unknown")),
    ("jardin_es.yaml", "la hamaca aguanta la lluvia o no", ("spec", 6, "unknown")),
])
def test_a_question_tag_ends_a_question(scenario: str, text: str, want: tuple[str, int, str | None]) -> None:
    """"... or not", "... right", "... o no": a statement closed by a tag asks whether it is so."""
    assert intents(scenario, text) == [want]


@pytest.mark.parametrize("scenario,text,want", [
    ("cookware_en.yaml", "the kettle beeps or just clicks off", ("spec", 4, "unknown")),
    ("jardin_es.yaml", "la manguera lleva pistola o se compra aparte", ("spec", 1, "unknown")),
])
def test_a_choice_between_two_asks(scenario: str, text: str, want: tuple[str, int, str | None]) -> None:
    """"A or B" about a product named asks which one, with no question mark."""
    assert intents(scenario, text) == [want]


def test_vale_pa_is_an_ability_word() -> None:
    """"vale pa" (vale para) after a product name asks whether it suits."""
    assert intents("jardin_es.yaml", "la regadera vale pa interior") == [("spec", 3, "unknown")]


def test_a_statement_without_a_tag_stays_chitchat() -> None:
    """A remark with "no" at its end or a pronoun "u" asks nothing."""
    assert intents("cookware_en.yaml", "paste the full prompt u got") != [("spec", None, "unknown")]
    assert intents("cookware_en.yaml", "lol i love cooking") == [("chitchat", None, None)]
