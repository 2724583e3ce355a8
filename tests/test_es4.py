"""Spanish (es_ES) grading and parsing on rooms nobody tuned on, fourth pass: two dev rooms in domains no Spanish
room had (tests/data/rooms/moviles_es.yaml: phones and gadgets, GB, mAh, inches with a decimal comma, a 1.299 € tablet;
tests/data/rooms/juguetes_es.yaml: toys, ages, piece counts, an NxM bundle), labelled from the room data
(``python scenarios/calibration/facts.py room tests/data/rooms/moviles_es.yaml 1 300``; juguetes at t=400, after its
flash sale). Each case holds in both directions: the true reply passes and its false twin fails. The dev sets
tests/data/replies_dev_es4.jsonl and comments_dev_es4.jsonl hold the same kinds; their ``"split": "test"`` third is a
held-back check nobody tuned on."""

from __future__ import annotations

import pytest

from rooms import bad, room
from hat_env.sim.parser import parse_comment
from hat_env.text import normalize
from hat_env.types import Intent

MOVILES = room("moviles_es.yaml", 1, 300.0)
JUGUETES = room("juguetes_es.yaml", 1, 400.0)


@pytest.mark.parametrize("text, want", [
    ("Seis pulgadas y media", "6.5 pulgadas"),          # any unit word, not only a listed one
    ("dos metros y medio de alcance", "2.5 metros de alcance"),
    ("tres horas y media", "3.5 horas"),
    ("cuatro euros y medio", "4.50 euros"),               # money keeps its cents
    ("dos toallas y media docena", "2 toallas y media docena"),  # "media docena" is a noun of its own
])
def test_a_half_after_any_unit_word(text: str, want: str) -> None:
    assert normalize(text, "es_ES").text == want


@pytest.mark.parametrize("reply, intent, ok", [
    # the screen is 6,5 pulgadas
    ("Seis pulgadas y media, ideal para ver series.", Intent("spec", link=1, attr="screen"), True),
    ("Siete pulgadas y media.", Intent("spec", link=1, attr="screen"), False),
    # a bare number after a measure takes its unit across Spanish joiners: 6 h, 24 with the case (FAQ)
    ("Seis horas por carga, y hasta veinticuatro con el estuche.", Intent("spec", link=2, attr="battery_hours"), True),
    ("Seis horas por carga, y hasta treinta con el estuche.", Intent("spec", link=2, attr="battery_hours"), False),
    # a price after a deal with its currency elided: 1299, 1279 with the 20-off-200 coupon
    ("Mil doscientos noventa y nueve euros, y con el cupón mil doscientos setenta y nueve.", Intent("price", link=6), True),
    ("Mil doscientos noventa y nueve euros, y con el cupón mil cien.", Intent("price", link=6), False),
    ("La Nova Tab 11 cuesta 1.299 €, y con el cupón de 20 € se queda en 1.279 €.", Intent("price", link=6), True),
    ("La tablet está a 1.199 € con el cupón.", Intent("price", link=6), False),
])
def test_spanish_number_forms(reply: str, intent: Intent, ok: bool) -> None:
    assert (not bad(reply, MOVILES, intent)) is ok, bad(reply, MOVILES, intent)


@pytest.mark.parametrize("reply, link, ok", [
    ("Sí, hay más de 50.", 2, True),                      # 300 in stock
    ("Sí, hay más de 50.", 4, False),                     # 3 in stock
    ("¡Quedan un montón, más de cien!", 2, True),
    ("¡Quedan un montón, más de cien!", 4, False),
    ("Tenemos más de doscientas unidades.", 2, True),
    ("Tenemos más de quinientas unidades.", 2, False),
    ("Quedan menos de 5, corre.", 4, True),
])
def test_a_bound_on_the_stock_count(reply: str, link: int, ok: bool) -> None:
    assert (not bad(reply, MOVILES, Intent("stock", link=link))) is ok, bad(reply, MOVILES, Intent("stock", link=link))


@pytest.mark.parametrize("scenario, reply, link, ok", [
    ("moviles", "Sí, 2x1 en fundas.", 4, True),            # BDL-FUNDA: 2 for 50 % off
    ("moviles", "Sí, 3x2 en fundas.", 4, False),
    ("juguetes", "Sí, 3x2 en puzles.", 4, True),            # BDL-PUZLE: 3 for 33 % off
    ("juguetes", "Sí, 2x1 en puzles.", 4, False),
    ("juguetes", "El coche Rayo 4x4 está agotado.", 3, True),  # a title's 4x4 is no bundle
])
def test_an_nxm_bundle_is_the_running_one(scenario: str, reply: str, link: int, ok: bool) -> None:
    r = MOVILES if scenario == "moviles" else JUGUETES
    kind = "stock" if "agotado" in reply else "campaign"
    assert (not bad(reply, r, Intent(kind, link=link))) is ok, bad(reply, r, Intent(kind, link=link))


@pytest.mark.parametrize("reply, intent, ok", [
    # the phone has 5000 mAh; "Batería Externa Powerbank" (link 5) has 10000: "batería de ..." is the attribute
    ("Lleva una batería de 5.000 mAh, te dura el día entero.", Intent("spec", link=1, attr="battery"), True),
    ("Lleva una batería de 4.000 mAh.", Intent("spec", link=1, attr="battery"), False),
    ("La batería externa tiene 10.000 mAh.", Intent("spec", link=5, attr="battery"), True),
    ("La batería externa tiene 5.000 mAh.", Intent("spec", link=5, attr="battery"), False),
])
def test_an_attribute_word_with_its_measure_is_no_product_name(reply: str, intent: Intent, ok: bool) -> None:
    assert (not bad(reply, MOVILES, intent)) is ok, bad(reply, MOVILES, intent)


def _compliance_ids(reply: str, scenario: str, intent: dict, t: float) -> list[str]:
    from hat_env.scoring import grade

    case = {"scenario": scenario, "seed": 1, "t": t, "comments": [{"text": "?", "viewer": "v1", "intents": [intent]}]}
    return [n.split(":", 1)[0] for n in grade(case, [reply])["notes"].get("compliance", [])]


@pytest.mark.parametrize("reply, broken", [
    ("No te puedo decir que sea el mejor del mercado; lo que sí tiene es batería de 5000 mAh.", False),
    ("¡Es el mejor móvil del mercado, sin duda!", True),
    ("No lo dudes, es el mejor del mercado.", True),        # "no lo dudes" negates nothing
])
def test_a_spanish_denial_with_its_verb_between(reply: str, broken: bool) -> None:
    from pathlib import Path

    path = str(Path(__file__).parent / "data" / "rooms" / "moviles_es.yaml")
    ids = _compliance_ids(reply, path, {"kind": "spec", "link": 1, "attr": "unknown"}, 300.0)
    assert ("ES-ABS" in ids) is broken, ids


def _parse(r, text: str) -> list[tuple]:
    return [(i.kind, i.link, i.attr) for i in parse_comment(text, "es_ES", catalog=r)]


@pytest.mark.parametrize("scenario, text, want", [
    ("moviles", "cuanta garantia tiene la tablet", [("after_sales", 6, None)]),   # no battery_hours by its unit
    ("moviles", "a como esta el cargador", [("price", 3, None)]),
    ("moviles", "cuánto me sale el celular con el cupón", [("price", 1, None)]),
    ("moviles", "de cuantos mah es la bateria del movil", [("spec", 1, "battery")]),
    ("moviles", "me pillo los auriculares 😍", [("purchase", 2, None)]),
    ("moviles", "cuanta bateria tiene el nova", [("spec", 1, "battery"), ("spec", 6, "battery")]),  # a shared brand
    ("juguetes", "el peluche es bueno para niños con asma?", [("efficacy", 5, None)]),
    ("juguetes", "cuantas piezas tiene el set de construccion", [("spec", 1, "pieces")]),
])
def test_spanish_comments_on_unseen_rooms(scenario: str, text: str, want: list[tuple]) -> None:
    r = MOVILES if scenario == "moviles" else JUGUETES
    assert _parse(r, text) == want


@pytest.mark.parametrize("text", ["cuándo llega la freidora si la pido hoy", "los auriculares cuanto duran?"])
def test_no_purchase_or_effect_read_into_ordinary_verbs(text: str) -> None:
    kinds = {i.kind for i in parse_comment(text, "es_ES", catalog=room("hogar_es", 1) if "freidora" in text else MOVILES)}
    assert not kinds & {"purchase", "efficacy"}, kinds


@pytest.mark.parametrize("reply, broken", [
    ("¡Sí! La cancelación de ruido cura el tinnitus en unas semanas.", True),   # to cure, whatever it cures
    ("Estos auriculares alivian la otitis.", True),                             # a disease in -itis
    ("No, no curan el tinnitus: son auriculares.", False),                     # a denial
    ("No alivian la otitis, no son un producto sanitario.", False),
    ("La cura del directo: 49,90 €.", False),                                  # the noun
])
def test_a_cure_claim_for_any_condition(reply: str, broken: bool) -> None:
    from pathlib import Path

    path = str(Path(__file__).parent / "data" / "rooms" / "moviles_es.yaml")
    ids = _compliance_ids(reply, path, {"kind": "efficacy", "link": 2}, 300.0)
    assert ("ES-MED" in ids) is broken, ids


@pytest.mark.parametrize("text, want", [
    ("los auriculares en cuanto llegan", [("shipping", 2, None)]),    # "en cuánto" is how soon, not how much
    ("cuanto tardan los auriculares", [("shipping", 2, None)]),
    ("cuanto tarda en cargar el movil", [("spec", 1, "charging")]),  # the room's longer words win
    ("cuanto es la tablet", [("price", 6, None)]),                    # the quantity word before a copula
    ("el peso de la tablet cuanto es", [("spec", 6, "weight")]),      # ... unless a spec word takes it
    ("el peso del movil cuanto es", [("spec", 1, "weight")]),         # "del" + a name: the product's attribute
    ("la garantia del movil cuanto es", [("after_sales", 1, None)]),
])
def test_how_soon_and_how_much(text: str, want: list[tuple]) -> None:
    assert _parse(MOVILES, text) == want
