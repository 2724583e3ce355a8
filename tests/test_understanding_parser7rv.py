"""The comment parser reads the room's own shipping regions and product variants (issue 12 item 2): a region with a
shipping word or a sending verb asks shipping, a variant qualifies a stock, price or purchase question and alone
with a "left" word asks stock; look-alikes (a colour of a product without variants, a region in a greeting) do not.
Labelled comments: tests/data/comments_dev8_parser7rv.jsonl (written by hand from the room files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.understanding.parser import parse_comment
from hat_env.understanding.room_terms import room_terms
from rooms import room

DATA = Path(__file__).parent / "data"
ROOMS = {k: room(k, 1) for k in ("xiedian_zh.yaml", "tote_en.yaml", "bolsos_es.yaml", "yurong_zh.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None) for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,link", [
    ("xiedian_zh.yaml", "2号发西藏吗", 2), ("xiedian_zh.yaml", "托特包发内蒙古吗", 2),
    ("yurong_zh.yaml", "围巾寄香港吗", 2), ("tote_en.yaml", "can you send the tote to Hawaii?", 2),
    ("bolsos_es.yaml", "¿mandan las zapatillas a Ceuta?", 1),
])
def test_a_region_with_a_sending_verb_asks_shipping(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("shipping", link, None)]


@pytest.mark.parametrize("scenario,text,expected", [
    ("xiedian_zh.yaml", "西藏的宝宝来了", [("chitchat", None, None)]),
    ("xiedian_zh.yaml", "刚从新疆回来 1号多少钱", [("price", 1, None)]),
    ("tote_en.yaml", "I'm in Alaska, how much is the jacket", [("price", 1, None)]),
    ("bolsos_es.yaml", "soy de Ceuta, ¿cuánto cuestan las zapatillas?", [("price", 1, None)]),
])
def test_a_region_said_without_a_shipping_word_asks_no_shipping(scenario: str, text: str,
                                                                expected: list[tuple[str, int | None, str | None]]) -> None:
    assert intents(scenario, text) == expected


@pytest.mark.parametrize("scenario,text,kind", [
    ("xiedian_zh.yaml", "1号黑色39码多少钱", "price"), ("yurong_zh.yaml", "1号米白M多少钱", "price"),
    ("tote_en.yaml", "the jacket in white M how much", "price"), ("tote_en.yaml", "how much is the black L jacket", "price"),
    ("bolsos_es.yaml", "cuánto cuestan las zapatillas blanco 38", "price"),
    ("tote_en.yaml", "I want to buy the jacket in black L", "purchase"),
    ("xiedian_zh.yaml", "1号什么材质 黑色39码有货吗", "stock"),
])
def test_a_variant_in_a_price_stock_or_purchase_question_asks_no_spec(scenario: str, text: str, kind: str) -> None:
    got = intents(scenario, text)
    assert (kind, 1, None) in got and ("spec", 1, "unknown") not in got


@pytest.mark.parametrize("scenario,text", [
    ("xiedian_zh.yaml", "黑色38码还有吗"), ("xiedian_zh.yaml", "1号有黑色吗"), ("yurong_zh.yaml", "藏青L还有吗"),
    ("tote_en.yaml", "any Black / L left on link 1?"), ("tote_en.yaml", "any black L left?"),
    ("bolsos_es.yaml", "¿queda el negro 39?"), ("bolsos_es.yaml", "¿hay las zapatillas en blanco 38?"),
    ("tote_en.yaml", "black L or white M left on the jacket?"),  # "or" between two variants compares no products
])
def test_a_variant_named_alone_with_a_left_word_asks_its_products_stock(scenario: str, text: str) -> None:
    assert intents(scenario, text) == [("stock", 1, None)]


@pytest.mark.parametrize("scenario,text,link", [
    ("xiedian_zh.yaml", "3号有黑色吗", 3), ("tote_en.yaml", "does the tote come in black?", 2),
    ("bolsos_es.yaml", "¿el bolso hay en negro?", 2), ("yurong_zh.yaml", "3号手套有米白吗", 3),
])
def test_a_colour_of_a_product_without_variants_stays_a_spec_question(scenario: str, text: str, link: int) -> None:
    assert intents(scenario, text) == [("spec", link, "unknown")]


def test_only_the_rooms_own_names_are_read() -> None:
    """A room without regions or variants has no terms; one with them has exactly its own, folded."""
    assert room_terms(room("beauty_zh", 1)) is None
    terms = room_terms(ROOMS["tote_en.yaml"])
    assert terms is not None and ("alaska", "hawaii") in terms.regions and ("puerto rico",) in terms.regions
    assert dict(terms.variants) == {1: ("black / m", "black / l", "white / m")}
    # a parser bound to a room without them reads none (its comments parse as before)
    from hat_env.understanding.parser import CommentParser

    assert CommentParser(room("beauty_zh", 1), "zh_CN").terms is None
    assert CommentParser(ROOMS["xiedian_zh.yaml"], "zh_CN").terms is not None


def test_the_labelled_comments_parse_as_labelled() -> None:
    """Every labelled comment of tests/data/comments_dev8_parser7rv.jsonl (three locales, look-alikes beside each)."""
    rows = [json.loads(line) for line in (DATA / "comments_dev8_parser7rv.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 60 and {r["locale"] for r in rows} == {"zh_CN", "en_US", "es_ES"}
    wrong = []
    for r in rows:
        want = sorted((x["kind"], x.get("link"), x.get("attr") if x["kind"] == "spec" else None) for x in r["intents"])
        if intents(Path(r["scenario"]).name, r["text"]) != want:
            wrong.append(r["id"])
    assert not wrong
