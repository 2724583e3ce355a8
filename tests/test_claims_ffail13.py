"""False fails on correct replies, thirteenth pass (branch ffail13): mechanisms by which the grader failed true
replies, each with the correct wording next to a false look-alike so a loosening that lets a false statement
through fails here too.

Rooms: built-in rooms and the calibration rooms of scenarios/calibration/rooms; expectations are read from the
room data (``python scenarios/calibration/facts.py room ROOM SEED T``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent
from hat_env.understanding.parser import parse_comment

from rooms import bad, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"


# --- a list item that is the attribute's own label ---------------------------------------------------------------


def test_the_attributes_label_ending_a_listed_item_is_no_extra_item() -> None:
    # wenju_zh link 4 desk lamp: color_temp '3000K/4000K/5000K三档，无级调光'
    r = room(str(CAL_ROOMS / "wenju_zh.yaml"), 7001, 300)
    asked = Intent(kind="spec", link=4, attr="unknown")
    assert bad("台灯有三档色温和无级调光哦", r, asked) == []
    assert bad("台灯有冷白光和无级调光哦", r, asked) != []


# --- the comment parser: which kind of question is asked -----------------------------------------------------------


def _kinds(scenario: str, text: str) -> list[tuple[str, int | None]]:
    r = room(scenario, 1)
    return [(i.kind, i.link) for i in parse_comment(text, r.locale, catalog=r)]


@pytest.mark.parametrize("text,want", [
    ("帆布鞋鞋跟高多少", [("spec", 1)]),  # a dimension noun before 多少 asks that dimension
    ("托特包的肩带长多少", [("spec", 2)]),
    ("帆布鞋多少", [("price", 1)]),  # 多少 alone is the price
    ("帆布鞋一双多少", [("price", 1)]),
])
def test_a_dimension_noun_before_duoshao_asks_a_spec(text: str, want: list[tuple[str, int | None]]) -> None:
    assert _kinds("xiedian_zh.yaml", text) == want


@pytest.mark.parametrize("text,want", [
    ("la freidora tiene cesta?", [("spec", 2)]),  # "cesta" is a noun, no typo of "cuesta"
    ("y la cesta de la freidora?", [("spec", 2)]),
    ("cuanto cuesta la freidora", [("price", 2)]),
])
def test_a_common_noun_one_edit_from_a_keyword_is_no_typo(text: str, want: list[tuple[str, int | None]]) -> None:
    r = room("hogar_es", 7001)
    assert [(i.kind, i.link) for i in parse_comment(text, r.locale, catalog=r)] == want


# --- another product added to reach a coupon's threshold, bought together ------------------------------------------


def test_adding_a_product_to_reach_the_threshold_is_no_bundle_claim() -> None:
    # beauty_zh link 1 精华, link 6 洁面; 全店满199减30; no bundle deal runs
    r = room("beauty_zh", 7001, 100)
    asked = Intent(kind="campaign", link=1)
    assert bad("1号精华单买不够满199；再凑一支6号洁面一起拍，合计就满199减30了～", r, asked) == []
    assert bad("1号精华单买不够门槛，再加一支6号洁面一起拍就能减30哦", r, asked) == []
    assert bad("1号精华和6号洁面一起拍更便宜哦", r, asked) != []


# --- a value word of the gift that comes with the product ----------------------------------------------------------


def test_a_word_of_the_running_gift_describes_the_gift_not_the_product() -> None:
    # optica_es link 3 montura Ligera: material 'titanio, plaquetas de silicona'; gift: a microfibre cloth with it
    r = room(str(CAL_ROOMS / "optica_es.yaml"), 7001, 300)
    asked = Intent(kind="spec", link=3, attr="material")
    assert bad("La montura Ligera es de titanio y trae de regalo una gamuza de microfibra.", r, asked) == []
    assert bad("Con la montura Ligera te regalamos una gamuza de microfibra.", r, asked) == []
    assert bad("La montura Ligera es de microfibra.", r, asked) != []


@pytest.mark.parametrize("text,want", [
    ("does the charger cable come in the box", "spec"),  # the gift's word glued to a product name: its part
    ("does the power bank come with a free cable?", "campaign"),  # the gift asked about
    ("the cable is free?", "campaign"),
])
def test_a_gift_word_right_after_a_product_name_is_a_part_of_it(text: str, want: str) -> None:
    # electronics_en: a free USB-C cable comes with the power bank
    r = room("electronics_en", 7001)
    assert [i.kind for i in parse_comment(text, r.locale, catalog=r)] == [want]


@pytest.mark.parametrize("text,want", [
    ("is the smart watch still there??", ["stock"]),  # "still there" right after a product's name asks its stock
    ("you still there?", ["chitchat"]),  # said to the host: no stock question
])
def test_still_there_after_a_name_asks_the_stock(text: str, want: list[str]) -> None:
    r = room("electronics_en", 7001)
    assert [i.kind for i in parse_comment(text, r.locale, catalog=r)] == want


def test_the_price_paid_word_and_an_oversize_fee_name_their_kinds() -> None:
    zh = room("beauty_zh", 7001)
    assert [i.kind for i in parse_comment("2号口红到手价？", zh.locale, catalog=zh)] == ["price"]
    en = room("appliances_en", 7001)
    assert [i.kind for i in parse_comment("is there an oversize fee on the air fryer?", en.locale, catalog=en)] \
        == ["shipping"]


def test_a_code_the_data_writes_is_no_labelled_number() -> None:
    # optica_es link 2: blue-light glasses, 'TR90' in their title; "montura" also heads link 3's title
    r = room(str(CAL_ROOMS / "optica_es.yaml"), 7001, 300)
    asked = Intent(kind="spec", link=2, attr="weight")
    assert bad("Son ligeras, la montura es de TR90 y no pesa nada.", r, asked) == []
    assert bad("Son ligeras, la montura es de TR80 y no pesa nada.", r, asked) != []


def test_replacing_it_every_so_often_is_no_exchange_claim() -> None:
    # optica_es link 4 lens case: exchange False
    r = room(str(CAL_ROOMS / "optica_es.yaml"), 7001, 300)
    asked = Intent(kind="spec", link=4, attr="unknown")
    assert bad("El estuche conviene cambiarlo cada 3 meses por higiene.", r, asked) == []
    assert bad("El estuche puedes cambiarlo si no te convence.", r, asked) != []


def test_a_region_asked_about_is_no_product_whose_title_holds_it() -> None:
    # jiafang_zh: link 3 '60支新疆长绒棉四件套', link 7 '100%桑蚕丝被'
    r = room(str(CAL_ROOMS / "jiafang_zh.yaml"), 7001)
    assert [(i.kind, i.link) for i in parse_comment("桑蚕丝被发新疆吗", r.locale, catalog=r)] == [("shipping", 7)]
    assert [(i.kind, i.link) for i in parse_comment("四件套能发新疆吗", r.locale, catalog=r)] == [("shipping", 3)]
