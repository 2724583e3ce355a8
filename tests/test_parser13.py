"""Pass parser13: question forms without a question mark (a tag, a choice between two, "vale pa"), on rooms other
than the calibration rooms that showed them (tests/data/rooms)."""

from __future__ import annotations

import pytest

from hat_env.understanding.parser import parse_comment
from rooms import room

ROOMS = {k: room(k, 1) for k in ("cookware_en.yaml", "jardin_es.yaml", "cheping_zh.yaml", "chaju_zh.yaml")}


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


@pytest.mark.parametrize("text", ["吸尘器多少W", "车载快充几w"])
def test_a_latin_unit_after_a_chinese_asking_word_asks_it(text: str) -> None:
    """"多少W", "几w": the product's one spec in watts."""
    want = {"吸尘器多少W": ("spec", 3, "power"), "车载快充几w": ("spec", 5, "power")}[text]
    assert intents("cheping_zh.yaml", text) == [want]


def test_a_stated_number_with_a_unit_asks_the_spec_in_that_unit() -> None:
    """"支持120W吗": whether the product's spec in watts holds the number."""
    assert intents("cheping_zh.yaml", "吸尘器支持120W吗") == [("spec", 3, "power")]


def test_links_written_next_to_each_other_are_one_group() -> None:
    """"1号2号各多少": each link asked, with nothing between the link numbers."""
    assert intents("cheping_zh.yaml", "1号2号各多少") == [("price", 1, None), ("price", 2, None)]


@pytest.mark.parametrize("scenario,text,want", [
    ("cheping_zh.yaml", "吸尘器加镀晶剂一起买有优惠吗", [("campaign", 3, None), ("campaign", 6, None)]),
    ("cookware_en.yaml", "kettle plus cutting board together any discount", [("campaign", 4, None), ("campaign", 5, None)]),
])
def test_plus_joins_two_products(scenario: str, text: str, want: list[tuple[str, int, None]]) -> None:
    """"加", "plus": two products asked about together."""
    assert intents(scenario, text) == want


def test_a_title_word_that_is_a_spec_word_asks_it_beside_another_name() -> None:
    """"polarizadas" is a word of one product's title and the room's label of ``polarized``: beside another name
    ("las deportivas") it asks that spec of the product named."""
    r = room("scenarios/calibration/rooms/optica_es.yaml", 1)
    got = [(i.kind, i.link, i.attr) for i in parse_comment("las deportivas son polarizadas?", r.locale, catalog=r)]
    assert got == [("spec", 7, "polarized")]


@pytest.mark.parametrize("text,lang", [
    ("La mangueira é boa?", "pt"), ("Quanto custa a regadeira?", "pt"), ("La forbice è affilata?", "it"),
])
def test_portuguese_and_italian_are_not_read_as_spanish(text: str, lang: str) -> None:
    """A one-letter word or letter group only Portuguese or Italian writes ("é", "è", "ão") is one marker more."""
    r = ROOMS["jardin_es.yaml"]
    got = parse_comment(text, r.locale, catalog=r)
    assert [(i.kind, i.lang) for i in got] == [("other_language", lang)]


def test_spanish_accents_are_no_foreign_marker() -> None:
    """"¿La manguera está en oferta?": Spanish as written."""
    r = ROOMS["jardin_es.yaml"]
    assert all(i.kind != "other_language" for i in parse_comment("¿La manguera está en oferta? qué pena", r.locale, catalog=r))


@pytest.mark.parametrize("text,want", [
    ("1号是铁罐的吗", ("spec", 1, "packaging")), ("2号是武夷山的吗", ("spec", 2, "origin")),
])
def test_a_question_writing_part_of_a_spec_value_asks_that_key(text: str, want: tuple[str, int, str]) -> None:
    """"铁罐" is written in link 1's packaging "铁罐密封" only: no spec word, the room's own value says the key."""
    assert intents_of(room("chaye_zh.yaml", 1), text) == [want]


def test_a_word_no_spec_writes_keeps_the_question_unknown() -> None:
    """"come with a duvet bag": the bag is asked, not a spec that happens to share a word."""
    assert intents_of(room("bedding_en.yaml", 1), "does the weighted blanket come with a duvet bag") \
        == [("spec", 4, "unknown")]


def test_belly_fat_is_a_health_condition() -> None:
    """"belly fat" is a condition; "will the X help with belly fat" asks an effect."""
    assert intents_of(room("bedding_en.yaml", 1), "will the pillow help with belly fat") == [("efficacy", 3, None)]


def intents_of(r: object, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent read in ``text`` in room ``r``."""
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None)
                  for i in parse_comment(text, r.locale, catalog=r))  # type: ignore[attr-defined]


@pytest.mark.parametrize("text,want", [
    ("my daughter has eczema can she sleep on the sheet set", ("efficacy", 1, None)),
    ("the duvet is it good for rosacea", ("efficacy", 2, None)),
])
def test_a_condition_asked_with_can_she_or_of_rosacea_is_an_effect_question(text: str,
                                                                           want: tuple[str, int, None]) -> None:
    """"can she" is an inversion; rosacea a health condition."""
    assert intents_of(room("bedding_en.yaml", 1), text) == [want]


@pytest.mark.parametrize("text,want", [
    ("¿envío gratis si compro solo la regadera?", [("shipping", 3, None)]),
    ("el cupón sirve si compro la hamaca?", [("campaign", 6, None)]),
])
def test_a_supposed_purchase_is_no_purchase(text: str, want: list[tuple[str, int, None]]) -> None:
    """"si compro ...": the purchase is the condition of what is asked, not a purchase."""
    assert intents("jardin_es.yaml", text) == want


@pytest.mark.parametrize("text,want", [
    ("la hamaca cuándo sale", [("shipping", 6, None)]),
])
def test_cuando_sale_asks_when_it_ships(text: str, want: list[tuple[str, int, None]]) -> None:
    """"cuándo sale" (when does it go out) is shipping, not the English "sale"."""
    assert intents("jardin_es.yaml", text) == want


@pytest.mark.parametrize("scenario,text", [
    ("cookware_en.yaml", "is this an actual person or ai answering"), ("cookware_en.yaml", "am i talking to an actual human"),
    ("jardin_es.yaml", "oye, estoy hablando con una máquina?"), ("chaju_zh.yaml", "主播说话好像AI啊"),
])
def test_asking_whether_the_host_is_a_person_is_identity(scenario: str, text: str) -> None:
    """"actual person", "or ai", "con una máquina", "像AI": whether the host is a person or a machine."""
    assert intents(scenario, text) == [("identity", None, None)]


@pytest.mark.parametrize("text,want", [
    ("kettle still 5 left??", ("stock", 4, None)), ("the skillet only 2 left?", ("stock", 1, None)),
])
def test_a_count_before_left_asks_the_stock(text: str, want: tuple[str, int, None]) -> None:
    """"still 5 left": the count the viewer read, asked back, is a stock question."""
    assert intents("cookware_en.yaml", text) == [want]
