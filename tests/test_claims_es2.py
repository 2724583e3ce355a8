"""The reply grader in Spanish (es_ES), both directions: cases from the es2 dev set's classes on hogar_es and on
a room nobody tuned on (tests/data/rooms/cosmetica_es.yaml: its own attributes, units and campaigns), labelled
from the room data (``python scenarios/calibration/facts.py room tests/data/rooms/cosmetica_es.yaml 1 300``).
Each case fails on the revision before the fix it guards."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_claims_generalise2 import bad, room
from hat_env.scoring import grade
from hat_env.text import normalize

COSMETICA = Path(__file__).parent / "data" / "rooms" / "cosmetica_es.yaml"
BELLEZA = room(str(COSMETICA), 1, 300.0)
HOGAR = room("hogar_es", 1, 300.0)


def compliance_ids(reply: str, scenario: str, intent: dict) -> list[str]:
    """Ids of the compliance rules ``reply`` breaks, graded offline as the final reply to one comment."""
    case = {"scenario": scenario, "seed": 1, "t": 300.0,
            "comments": [{"text": "?", "viewer": "v1", "intents": [intent]}]}
    return [n.split(":", 1)[0] for n in grade(case, [reply])["notes"].get("compliance", [])]


@pytest.mark.parametrize("text, digits", [
    ("Es una hidratante para piel seca.", False),   # the article
    ("No desaparece con una crema.", False),
    ("Solo queda una, ¡corre!", True),              # a stock count
    ("Te llega en una semana.", True),              # a period
    ("Cuesta una con noventa.", True),              # a spoken price (1,90)
])
def test_una_is_an_article_unless_it_counts(text: str, digits: bool) -> None:
    assert any(ch.isdigit() for ch in normalize(text, "es_ES").text) is digits


@pytest.mark.parametrize("reply, ok", [
    ("No, la crema no trata el acné: es una hidratante para piel seca.", True),
    ("Es una crema para piel seca, con ácido hialurónico y ceramidas.", True),
    ("La crema está a 19 € con la oferta flash.", False),  # the flash price is 25
])
def test_an_article_is_no_price(reply: str, ok: bool) -> None:
    assert (not bad(reply, BELLEZA)) is ok, bad(reply, BELLEZA)


@pytest.mark.parametrize("reply, ok", [
    ("Por supuesto. La crema está en oferta flash a 25 €; su precio habitual es de 32 €.", True),
    ("19,90 € (precio anterior: 24,90 €) y con neceser de regalo.", True),
    ("La crema está en oferta flash a 25 €; su precio habitual es de 28 €.", False),  # 28 is no price of the cream
])
def test_a_usual_price_is_the_reference_not_the_price_paid(reply: str, ok: bool) -> None:
    assert (not bad(reply, BELLEZA)) is ok, bad(reply, BELLEZA)


@pytest.mark.parametrize("t, reply, ok", [
    (100.0, "Todavía no: la oferta flash de la crema empieza dentro de poco; ahora está a 32 €.", True),
    (100.0, "La oferta flash de la crema arranca en unos minutos.", True),
    (300.0, "La oferta flash de la crema empieza dentro de poco.", False),  # it is on now
    (100.0, "¡Sí! La crema está ya en oferta flash a 25 €.", False),
])
def test_a_flash_sale_said_to_start_later(t: float, reply: str, ok: bool) -> None:
    r = room(str(COSMETICA), 1, t)
    assert (not bad(reply, r)) is ok, bad(reply, r)


@pytest.mark.parametrize("reply, broken", [
    ("¡Sí! Con el ácido hialurónico el acné desaparece en una semana.", True),
    ("Di adiós al acné con esta crema.", True),
    ("No, el acné no desaparece con una crema: es una hidratante.", False),
])
def test_a_condition_said_to_go_away_is_a_medical_claim(reply: str, broken: bool) -> None:
    ids = compliance_ids(reply, str(COSMETICA), {"kind": "efficacy", "link": 3})
    assert ("ES-MED" in ids) is broken, ids


@pytest.mark.parametrize("reply, ok", [
    ("No, en beige no las tenemos: vienen en blanco, gris y azul.", True),
    ("En beige no las tenemos, solo blanco, gris y azul.", True),
    ("Las tenemos en beige y en gris.", False),  # no beige sheets
])
def test_a_value_denied_by_the_verb_after_it(reply: str, ok: bool) -> None:
    from hat_env.types import Intent
    found = bad(reply, HOGAR, Intent(kind="spec", link=3, attr="color"))
    assert (not found) is ok, found


@pytest.mark.parametrize("reply, ok", [
    ("¡Sí, pero quedan solo 3! Si lo quieres, no esperes mucho.", True),   # the sunscreen has 3
    ("Sí, quedan solo 30.", False),
])
def test_a_count_after_quedan_solo_is_stock_not_a_price(reply: str, ok: bool) -> None:
    from hat_env.types import Intent
    found = bad(reply, BELLEZA, Intent(kind="stock", link=2))
    assert (not found) is ok, found


@pytest.mark.parametrize("reply, ok", [
    ("Beige no hay, pero sí blanco, gris y azul.", True),     # the colour asked is not offered
    ("Las sábanas no hay, están agotadas.", False),           # the product named: 240 in stock
])
def test_a_value_not_offered_is_no_stock_claim(reply: str, ok: bool) -> None:
    from hat_env.types import Intent
    found = bad(reply, HOGAR, Intent(kind="spec", link=3, attr="color"))
    assert (not found) is ok, found
