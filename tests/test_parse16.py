"""Pass parse16: general rules of the comment parser, checked on phrasings of our own (not the calibration items')
at a seed no labelled set uses.

- a Spanish yes/no question asked by intonation alone ("la X hace ...") asks about the product named as its subject;
- a question word after a preposition ("de qué está hecha", "para cuándo") asks;
- an exchange verb with a quantity word beside a spec question ("cada cuánto se cambia el filtro") asks the spec;
- "a cuánto se quedan" asks the price; "+ cupón" in a price question is the price's condition;
- a comparative deal word beside a comparison ("cuál es más barata", "which one's cheaper") asks no deal;
- "cuánto tarda en" + a verb that sends nothing asks how long the product takes (a spec), not shipping;
- a measure word among a product's spec values ("bag") names the package: "how much is the X bag" asks the price;
- a variant named before a stock question in a clause of its own ("卫衣燕麦色 有没") asks that variant's stock;
- the shop's refund verbs and the other tenses of arriving."""

from __future__ import annotations

from pathlib import Path

import pytest

from rooms import intents, link_of, room

SEED = 1616
#: a room with a part that is changed on a schedule (its fountain's filter_change)
MASCOTAS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms" / "mascotas_es.yaml"


# -- yes/no questions by intonation -------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario,text,title", [
    ("hogar_es", "la cafetera hace espuma de leche", "Cafetera"),
    ("hogar_es", "las toallas secan rápido", "Toallas"),
    ("cosmetica_es.yaml", "la paleta trae espejo", "Paleta"),
])
def test_a_statement_about_a_named_product_asks_about_it(scenario: str, text: str, title: str) -> None:
    """Spanish asks a yes/no question by intonation alone: article + product + predicate, no keyword, is a
    question about the product (not chit-chat)."""
    r = room(scenario, SEED)
    assert intents(r, text) == [("spec", link_of(r, title), None, "unknown")]


@pytest.mark.parametrize("text,kinds", [
    ("la cafetera me encanta", ["chitchat"]),  # praise
    ("la sartén es una basura", ["troll"]),  # a jab
    ("la freidora blanca", ["chitchat"]),  # a variant named, no predicate
    ("la cafetera me la llevo", ["purchase"]),
])
def test_statements_that_are_no_questions_stay_what_they_are(text: str, kinds: list[str]) -> None:
    """A keyword says what the clause is: praise, a jab, a purchase; a name and a variant ask nothing."""
    r = room("hogar_es", SEED)
    assert [k for k, *_ in intents(r, text)] == kinds


def test_a_question_word_after_a_preposition_asks() -> None:
    """"de qué está hecha", "para cuándo llega": the preposition opens the question."""
    r = room("hogar_es", SEED)
    assert intents(r, "de qué está hecha la batidora") == [("spec", link_of(r, "Batidora"), None, "material")]
    assert intents(r, "para cuándo llega la sartén") == [("shipping", link_of(r, "Sartén"), None, None)]


# -- an exchange verb that asks a spec --------------------------------------------------------------------------

def test_how_often_a_part_is_changed_is_no_exchange() -> None:
    """A count beside a spec question and an exchange verb asks the spec; a count of days to exchange stays
    after-sales."""
    r = room(MASCOTAS, SEED)
    fuente = link_of(r, "Fuente")
    for text in ("la fuente, el filtro cada cuántas semanas toca cambiarlo",
                 "cuántas semanas dura el filtro de la fuente antes de cambiarlo"):
        assert intents(r, text) == [("spec", fuente, None, "filter_change")]
    assert intents(r, "cuántos días tengo para cambiar la fuente") == [("after_sales", fuente, None, None)]


# -- prices ----------------------------------------------------------------------------------------------------

def test_what_a_product_comes_to_is_its_price() -> None:
    """"a cuánto se quedan" asks the price (not how many are left); "+ cupón" is the price's condition."""
    r = room("hogar_es", SEED)
    toallas, sarten = link_of(r, "Toallas"), link_of(r, "Sartén")
    assert intents(r, "a cuánto se quedan las toallas") == [("price", toallas, None, None)]
    assert intents(r, "la sartén + cupón cuánto sale") == [("price", sarten, None, None)]
    assert intents(r, "cuántas toallas quedan") == [("stock", toallas, None, None)]  # a count left: stock


def test_a_comparative_beside_a_comparison_asks_no_deal() -> None:
    """"X o Y, cuál es más barata" and "X or Y, which one's cheaper" compare the two; no campaign question."""
    r = room("hogar_es", SEED)
    assert intents(r, "sartén o freidora, cuál es más barata") == [
        ("compare", link_of(r, "Sartén"), link_of(r, "Freidora"), None)]
    assert [k for k, *_ in intents(r, "hay algo más barato?")] == ["campaign"]  # no comparison: a deal question
    p = room("pets_en", SEED)
    assert intents(p, "the cat tree or the dog bed, which one's cheaper") == [
        ("compare", link_of(p, "Cat Tree"), link_of(p, "Dog Bed"), None)]


def test_how_much_is_the_bag_asks_the_price() -> None:
    """A package word ("bag") among the product's values names the product; a stated size is still a size question."""
    p = room("pets_en", SEED)
    assert intents(p, "how much is the whiskerwell bag") == [("price", link_of(p, "WhiskerWell"), None, None)]
    assert [k for k, *_ in intents(p, "is the puppy salmon bag 12 lb?")] == ["spec"]


# -- how long it takes -------------------------------------------------------------------------------------------

def test_how_long_the_product_takes_is_a_spec() -> None:
    """"cuánto tarda en calentarse" asks the product; "cuánto tarda en llegar" asks the delivery."""
    r = room("hogar_es", SEED)
    sarten = link_of(r, "Sartén")
    assert intents(r, "cuánto tarda en calentarse la sartén") == [("spec", sarten, None, "unknown")]
    assert intents(r, "cuánto tarda en llegar la sartén") == [("shipping", sarten, None, None)]
    assert intents(r, "¿cuánto tarda en enviarse la sartén?") == [("shipping", sarten, None, None)]
    assert intents(r, "cuanto tardan en mandarla")[0][0] == "shipping"


# -- a variant's stock -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,title", [
    ("卫衣燕麦色 有没", "卫衣"),
    ("牛仔裤深蓝色 有没有", "牛仔裤"),
    ("围巾驼色的 有没", "围巾"),
])
def test_a_variant_then_a_stock_clause_asks_its_stock(text: str, title: str) -> None:
    """The product and a variant, then "有没" in a clause of its own: the stock of that variant, no colour question."""
    r = room("apparel_flash_zh", SEED)
    assert intents(r, text) == [("stock", link_of(r, title), None, None)]


def test_a_variant_asked_about_then_stock_is_two_questions() -> None:
    """"卫衣有燕麦色吗 还有货没" asks whether the colour exists, then the stock."""
    r = room("apparel_flash_zh", SEED)
    ln = link_of(r, "卫衣")
    assert intents(r, "卫衣有燕麦色吗 还有货没") == sorted([("spec", ln, None, "color"), ("stock", ln, None, None)],
                                                       key=str)


# -- refunds and arrivals ----------------------------------------------------------------------------------------

def test_refund_verbs_and_arrival_tenses() -> None:
    """"¿me devolvéis el dinero?" is after-sales; "¿llega antes del sábado?" after a purchase is shipping."""
    r = room("hogar_es", SEED)
    assert intents(r, "si no me convence la cafetera me devolvéis el dinero?") == [
        ("after_sales", link_of(r, "Cafetera"), None, None)]
    ln = link_of(r, "Batidora")
    assert intents(r, "me llevo la batidora, llega antes del sábado?") == sorted(
        [("purchase", ln, None, None), ("shipping", ln, None, None)], key=str)


def test_a_deal_joined_on_to_a_price_condition_is_a_condition_too() -> None:
    """"cuánto sale con el cupón y la flash": both deals say which price is asked; a deal asked in a clause of its
    own ("y hay cupón?") is still a campaign question."""
    r = room("hogar_es", SEED)
    sarten = link_of(r, "Sartén")
    assert intents(r, "cuánto sale la sartén con el cupón y la flash") == [("price", sarten, None, None)]
    assert intents(r, "cuánto cuesta la sartén y hay cupón?") == sorted(
        [("price", sarten, None, None), ("campaign", sarten, None, None)], key=str)
