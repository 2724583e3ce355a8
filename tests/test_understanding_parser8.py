"""Comment understanding on text nobody here had seen (pass parser8, issue 12 item 2), in two dev rooms of domains
no other room has (tests/data/rooms/photo_en.yaml: camera gear; tests/data/rooms/tongqu_zh.yaml: toys) and the
built-in ones. Each mechanism is tested both ways: the comment that asks it is read, the look-alike is not.
Expectations come from the room files (``python scenarios/calibration/facts.py room ROOM SEED T``).

Labelled comments: tests/data/comments_dev9_parser8.jsonl (148, zh/en/es, written by hand from the room files
before the parser was run; the ``measure`` third was held out while tuning)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from hat_env.scoring.calibrate_comments import intent_key, load_comment_items
from hat_env.understanding.parser import parse_comment
from rooms import room

DATA = Path(__file__).parent / "data"
ROOMS = {k: room(k, 1) for k in ("photo_en.yaml", "tongqu_zh.yaml", "tote_en.yaml", "electronics_en", "hogar_es",
                                   "beauty_zh")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None) for i in parse_comment(text, r.locale, catalog=r))


# -- stock asked by an ordinary word right after a name (name_stock_words) --------------------------------------
@pytest.mark.parametrize("scenario,text,link", [
    ("photo_en.yaml", "z50 left?", 1),  # link 1 Aperto Z50: 4 in stock
    ("photo_en.yaml", "is the tripod back?", 4),
    ("photo_en.yaml", "tripod still left", 4),
    ("photo_en.yaml", "link 6 back yet?", 6),  # the SD card is sold out
    ("electronics_en", "power bank left?", 2),
])
def test_a_stock_word_right_after_a_name_asks_its_stock(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("stock", link, None)]


@pytest.mark.parametrize("scenario,text", [
    ("photo_en.yaml", "i'm back"), ("photo_en.yaml", "welcome back!"), ("photo_en.yaml", "i left the tripod at home lol"),
    ("electronics_en", "my back hurts from the chair"),
])
def test_the_same_words_elsewhere_ask_no_stock(scenario: str, text: str) -> None:
    assert not any(k == "stock" for k, _, _ in intents(scenario, text))


def test_a_send_back_is_no_stock_question() -> None:
    assert ("stock", 4, None) not in intents("photo_en.yaml", "can i send the tripod back")


# -- purchases: slang and counts without a verb ------------------------------------------------------------------
@pytest.mark.parametrize("scenario,text,links", [
    ("photo_en.yaml", "i'll grab the z50", [1]),
    ("photo_en.yaml", "gonna cop the sling bag", [5]),
    ("photo_en.yaml", "2 of link 4 please", [4]),
    ("photo_en.yaml", "grab me one of link 2", [2]),
    ("photo_en.yaml", "2 de la tarjeta sd porfa", [6]),
    ("electronics_en", "i'll grab two of the chargers", [5]),
    ("hogar_es", "me pillo la sartén", [1]),
    ("hogar_es", "me llevo la sartén y dos toallas", [1, 5]),  # hogar_es: link 1 sartén, link 5 toallas
    ("photo_en.yaml", "I'll take the tripod and 2 sd cards", [4, 6]),
])
def test_a_purchase_said_by_slang_or_a_count_is_a_purchase(scenario: str, text: str, links: list[int]) -> None:
    assert intents(scenario, text) == [("purchase", n, None) for n in links]


@pytest.mark.parametrize("scenario,text", [
    ("photo_en.yaml", "is 2 of the tripod cheaper?"),  # a question asks, it buys nothing
    ("photo_en.yaml", "i'll get back to you"),
])
def test_a_count_in_a_question_or_an_idiom_buys_nothing(scenario: str, text: str) -> None:
    assert not any(k == "purchase" for k, _, _ in intents(scenario, text))


# -- regions any shop is asked about (region_words), for every product ------------------------------------------
@pytest.mark.parametrize("scenario,text,link", [
    ("tongqu_zh.yaml", "手表寄海南吗", 4),  # the watch's data lists no region
    ("tongqu_zh.yaml", "积木能发西藏吗", 1),
    ("tongqu_zh.yaml", "滑板车发新疆吗", 6),  # the scooter's own region (not sent there)
    ("photo_en.yaml", "can i get the lens shipped to hawaii", 2),
    ("electronics_en", "can the earbuds be shipped to guam?", 1),
    ("hogar_es", "¿envían la sartén a tenerife?", 1),
])
def test_a_region_with_a_sending_verb_asks_shipping_of_any_product(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("shipping", link, None)]


@pytest.mark.parametrize("scenario,text", [
    ("tongqu_zh.yaml", "我在新疆"), ("beauty_zh", "黑龙江的宝子来了"), ("electronics_en", "hi from canada!"),
    ("hogar_es", "saludos desde mallorca"),
])
def test_a_region_said_without_a_sending_verb_asks_nothing(scenario: str, text: str) -> None:
    assert intents(scenario, text) == [("chitchat", None, None)]


# -- variants asked alone (variant_leads) -------------------------------------------------------------------------
@pytest.mark.parametrize("scenario,text,link", [
    ("photo_en.yaml", "sling bag in olive?", 5),  # variants Grey, Olive
    ("photo_en.yaml", "z50 silver?", 1),  # Silver is sold out: still a stock question
    ("photo_en.yaml", "do you have the z50 in silver", 1),
    ("tongqu_zh.yaml", "2号红色的?", 2),
    ("tote_en.yaml", "rain jacket in white?", 1),
])
def test_a_variant_asked_alone_asks_its_stock(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("stock", link, None)]


def test_a_colour_of_a_product_without_variants_stays_a_spec_question() -> None:
    assert intents("electronics_en", "do you have the earbuds in blue") == [("spec", 1, "color")]


# -- title words and spec words -------------------------------------------------------------------------------------
def test_a_title_ending_in_a_keyword_gives_the_keyword_back() -> None:
    r = room("scenarios/calibration/rooms/skincare_en.yaml", 1)  # link 4 "Lumen Skin Tint SPF 30"
    got = sorted((i.kind, i.link, i.attr) for i in parse_comment("tint spf and finish", r.locale, catalog=r))
    assert got == [("spec", 4, "finish"), ("spec", 4, "spf")]
    # said as the title goes on, the keyword is the name's: the price of link 4 is asked
    assert ("price", 4, None) in [(i.kind, i.link, None) for i in parse_comment("skin tint spf 30 price", r.locale,
                                                                                   catalog=r)]


@pytest.mark.parametrize("scenario,text,link,attr", [
    ("photo_en.yaml", "is the action cam waterproof?", 3, "water_resistance"),  # "Waterproof" is in its title
    ("tongqu_zh.yaml", "电话手表防水吗", 4, "water_resistance"),  # so is 防水
    ("tongqu_zh.yaml", "积木是ABS的吗", 1, "material"),  # material "ABS塑料": a Latin word beside Chinese
])
def test_a_spec_word_or_value_asked_of_a_product_is_that_spec(scenario: str, text: str, link: int, attr: str) -> None:
    assert intents(scenario, text) == [("spec", link, attr)]


def test_a_value_word_of_another_attribute_is_no_spec_of_that_one() -> None:
    assert intents("tongqu_zh.yaml", "积木是木头的吗") == [("spec", 1, "unknown")]  # not its material ABS


# -- names: product nouns, pinyin initials -------------------------------------------------------------------------
@pytest.mark.parametrize("scenario,text,link", [
    ("photo_en.yaml", "how much is the sd card", 6), ("photo_en.yaml", "cuánto cuesta el trípode", 4),
    ("tongqu_zh.yaml", "hbc duoshao qian", 6),  # 滑板车 in pinyin initials
    ("photo_en.yaml", "cuánto vale el bolso kestrel", 5),  # Kestrel makes links 3 and 5; bolso is the bag
])
def test_a_product_noun_or_an_abbreviation_names_the_product(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("price", link, None)]


def test_an_ordinary_word_is_no_abbreviation() -> None:
    assert intents("photo_en.yaml", "the price is the price") == [("price", None, None)]


# -- greetings, health effects, gifts, installation ---------------------------------------------------------------
def test_a_latin_greeting_to_the_host_in_chinese_is_a_greeting() -> None:
    assert intents("tongqu_zh.yaml", "hello 主播 滑板车多少钱") == [("chitchat", None, None), ("price", 6, None)]
    assert intents("tongqu_zh.yaml", "滑板车多少钱") == [("price", 6, None)]


@pytest.mark.parametrize("scenario,text,link", [
    ("tongqu_zh.yaml", "电话手表有辐射吗 对身体有害吗", 4), ("photo_en.yaml", "is the z50 screen bad for your eyes", 1),
    ("hogar_es", "la sartén es tóxica?", 1),
])
def test_a_health_effect_asked_is_efficacy(scenario: str, text: str, link: int) -> None:
    assert ("efficacy", link, None) in intents(scenario, text)


def test_a_gift_asked_as_what_comes_free_is_a_campaign_question() -> None:
    assert intents("photo_en.yaml", "what comes free w the tripod") == [("campaign", 4, None)]
    assert intents("tongqu_zh.yaml", "积木送的什么") == [("campaign", 1, None)]


def test_bring_is_no_typo_of_boring() -> None:
    assert intents("electronics_en", "can i bring the power bank") != [("troll", None, None)]
    assert ("troll", None, None) in intents("electronics_en", "this stream is so borng")


# -- the labelled comments -------------------------------------------------------------------------------------------
def _share(split: str) -> float:
    items = [i for i in load_comment_items("all", [DATA / "comments_dev9_parser8.jsonl"]) if i["split"] == split]
    ok = 0
    for it in items:
        r = room(Path(it["scenario"]), 1)
        got = [i.to_dict() for i in parse_comment(it["text"], it["locale"], catalog=r)]
        ok += Counter(map(intent_key, got)) == Counter(map(intent_key, it["intents"]))
    return ok / len(items)


def test_the_labelled_comments_parse_as_labelled() -> None:
    """The develop half parses as labelled on at least 90%, the held-out measure half on at least 85% (73.7% and
    77.6% before this pass)."""
    rows = [json.loads(x) for x in (DATA / "comments_dev9_parser8.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 140 and {r["locale"] for r in rows} == {"zh_CN", "en_US", "es_ES"}
    assert _share("develop") >= 0.90
    assert _share("measure") >= 0.85
