"""Pass parse14: products named by their own variant values (colour, size, shade, flavour in the room's specs;
hat_env/understanding/variant_values.py), on rooms other than the ones the dev set was written on, and the dev set
of viewer comments (tests/data/dev_comments14.jsonl) held to the agreement this pass reached."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.scoring.calibrate_comments import calibrate_comments
from hat_env.understanding.parser import parse_comment
from rooms import room

DATA = Path(__file__).parent / "data"
SEED = 1414


def link_of(r, part: str) -> int:
    """The link of the product of room ``r`` whose title contains ``part``."""
    (ln,) = [p.link for p in r.products if part in p.title]
    return ln


def intents(r, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in room ``r``."""
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None)
                  for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,title", [
    ("cookware_en.yaml", "the slate blue one still in stock?", "Dutch Oven"),
    ("luggage_en.yaml", "the teal one left?", "Packing Cubes"),
    ("luggage_en.yaml", "any olive ones left", "Backpack"),
])
def test_a_value_only_one_product_has_names_it(scenario: str, text: str, title: str) -> None:
    """No product named, a variant value of one product only: that product's stock is asked."""
    r = room(scenario, SEED)
    assert intents(r, text) == [("stock", link_of(r, title), None)]


@pytest.mark.parametrize("scenario,text,title,kind", [
    ("apparel_flash_zh", "酒红色的北纬多少钱", "围巾", "price"),
    ("beauty_zh", "绯语豆沙色还有吗", "口红", "stock"),
])
def test_a_value_narrows_a_shared_name(scenario: str, text: str, title: str, kind: str) -> None:
    """A brand two products share, said with a value only one of them has, names that one."""
    r = room(scenario, SEED)
    assert intents(r, text) == [(kind, link_of(r, title), None)]


@pytest.mark.parametrize("scenario,text,title", [
    ("luggage_en.yaml", "do u have the olive backpack", "Backpack"),
    ("cookware_en.yaml", "do you have the hearthstone in slate blue", "Dutch Oven"),
    ("apparel_flash_zh", "围巾还有驼色的吗", "围巾"),
    ("apparel_flash_zh", "卫衣，还有燕麦色吗", "卫衣"),
])
def test_a_variant_value_with_a_stock_word_asks_the_stock(scenario: str, text: str, title: str) -> None:
    """"还有…吗", "do you have": a value of the named product between them asks that variant's stock, no spec."""
    r = room(scenario, SEED)
    assert intents(r, text) == [("stock", link_of(r, title), None)]


@pytest.mark.parametrize("scenario,text,title,attr", [
    ("luggage_en.yaml", "what colors does the backpack come in", "Backpack", "color"),
    ("apparel_flash_zh", "围巾有哪些颜色", "围巾", "color"),
])
def test_a_variant_attribute_asked_stays_a_spec(scenario: str, text: str, title: str, attr: str) -> None:
    """Asking which values there are names none of them: still the spec question."""
    r = room(scenario, SEED)
    assert intents(r, text) == [("spec", link_of(r, title), attr)]


def test_the_dev_set_agreement() -> None:
    """The dev set (hand-labelled from the room data): the part tuned on and the held-out part (every 3rd item)."""
    files = [DATA / "dev_comments14.jsonl"]
    assert calibrate_comments("train", files)["exact"] >= 0.95
    assert calibrate_comments("test", files)["exact"] >= 0.87


@pytest.mark.parametrize("scenario,text,title", [
    ("chaju_zh.yaml", "能进洗碗机吗", "盖碗"),
])
def test_the_words_of_one_products_faq_name_it(scenario: str, text: str, title: str) -> None:
    """A question naming no product, in the words of one product's FAQ question: about that product."""
    r = room(scenario, SEED)
    assert intents(r, text) == [("spec", link_of(r, title), "unknown")]


def test_a_question_sharing_no_faq_word_names_nothing() -> None:
    """Words of no FAQ question (or of a greeting) name no product."""
    r = room("chaju_zh.yaml", SEED)
    assert intents(r, "今天天气好吗") == [("chitchat", None, None)]


def test_a_size_word_asks_the_one_length_a_product_has() -> None:
    """"cuánto mide" of a product without size or dimensions but one length ("height: 120 cm"): that length, not its
    weight (the first fallback)."""
    r = room(Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms" / "mascotas_es.yaml", SEED)
    assert intents(r, "cuánto mide la torre miau") == [("spec", link_of(r, "Rascador"), "height")]
