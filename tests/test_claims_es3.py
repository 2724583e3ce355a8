"""The reply grader in Spanish (es_ES), third pass: cases from the es3 dev set's classes (tests/data/
replies_dev_es3.jsonl) on hogar_es and on a room nobody tuned on (tests/data/rooms/bodega_es.yaml: wine and deli,
with centilitres, % vol, a vintage year, ageing months, real low stock), labelled from the room data
(``python scenarios/calibration/facts.py room tests/data/rooms/bodega_es.yaml 1 300``). Each case fails on the
revision before the fix it guards."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_claims_generalise2 import bad, room
from hat_env.text import normalize

BODEGA_YAML = Path(__file__).parent / "data" / "rooms" / "bodega_es.yaml"
BODEGA = room(str(BODEGA_YAML), 1, 300.0)
HOGAR = room("hogar_es", 1, 300.0)


@pytest.mark.parametrize("text, digits", [
    ("Es una sartén de aluminio forjado.", False),    # after a copula: what the product is
    ("Era una botella de regalo.", False),
    ("El plazo es una semana.", True),                # a period after the copula is still one
    ("Solo queda una.", True),
])
def test_una_after_a_copula_is_an_article(text: str, digits: bool) -> None:
    assert any(ch.isdigit() for ch in normalize(text, "es_ES").text) is digits


@pytest.mark.parametrize("reply, ok", [
    ("No, no tiene ningún efecto sobre la anemia: es una sartén de aluminio, no de hierro.", True),
    ("La sartén está a 24,90 €.", False),  # 29,90
])
def test_an_article_after_a_copula_is_no_price(reply: str, ok: bool) -> None:
    assert (not bad(reply, HOGAR)) is ok, bad(reply, HOGAR)
