"""False fails on correct replies, fourth pass (issue 12, branch falsefail4): money roles. A number in a
threshold clause, a worked subtraction in brackets and a price per measure word were read as the pay price.

Each mechanism is tested both ways (the true reply passes, a false look-alike fails) on rooms other than the train
items' (tests/data/rooms/cycle_en.yaml, bodega_es.yaml, chaye_zh.yaml; labels from
``python scenarios/calibration/facts.py room ROOM 1 100``). The dev set tests/data/replies_dev_falsefail4.jsonl
(48 hand-labelled replies, a seeded third ``measure`` held back) is asserted by halves.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hat_env.scoring import grade
from tests.rooms import grade_one, passes

DATA = Path(__file__).parent / "data"
CYCLE = str(DATA / "rooms" / "cycle_en.yaml")
BODEGA = str(DATA / "rooms" / "bodega_es.yaml")
CHAYE = str(DATA / "rooms" / "chaye_zh.yaml")


def passed(scenario: str, comment: str, reply: str, seed: int = 1, t: float = 100.0) -> bool:
    """Whether ``grade()`` passes one final ``reply`` to one free-text ``comment``."""
    return passes(grade_one(scenario, seed, t, comment, reply)["components"])


def _dev(half: str) -> list[dict[str, Any]]:
    with open(DATA / "replies_dev_falsefail4.jsonl", encoding="utf-8") as f:
        return [row for row in map(json.loads, f) if row["half"] == half]


def _agreement(half: str) -> float:
    rows = _dev(half)
    ok = sum(passed(r["scenario"], r["comment"], r["reply"], r["seed"], r["t"]) == bool(r["pass"]) for r in rows)
    return ok / len(rows)


def test_develop_half_agrees() -> None:
    assert _agreement("develop") >= 0.90  # 22/31 on main, 28/31 here


def test_held_back_half_agrees() -> None:
    assert _agreement("measure") >= 0.85  # 10/17 on main, 15/17 here


# -- a threshold in a condition clause ("if your cart gets to $40") ------------------------------------------------

@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "ok"),
    [
        (CYCLE, "link 6 saddle bag price?", "The saddle bag is $24. If your cart gets to $40 the $5 coupon works too.", True),
        (CYCLE, "link 6 saddle bag price?", "The saddle bag is $24. If your cart gets to $45 the $5 coupon works too.", False),
        (CYCLE, "link 6 saddle bag price?", "The saddle bag is $22. If your cart gets to $40 the $5 coupon works too.", False),
        (BODEGA, "¿cuánto cuesta el aceite, enlace 2?", "Está a 9,50 €, y si la compra alcanza 25 € tienes el cupón de 3 €.", True),
        (BODEGA, "¿cuánto cuesta el aceite, enlace 2?", "Está a 9,50 €, y si la compra alcanza 15 € tienes el cupón de 3 €.", False),
        (CHAYE, "2号红茶多少钱", "2号正山小种258，订单只要到了199就能减20，到手238～", True),
        (CHAYE, "2号红茶多少钱", "2号正山小种258，订单只要到了159就能减20，到手238～", False),
    ],
)
def test_a_threshold_in_a_condition_clause(scenario: str, comment: str, reply: str, ok: bool) -> None:
    """An order, cart or total that reaches a number states the threshold, not what one pays."""
    assert passed(scenario, comment, reply) is ok


# -- a worked subtraction in brackets after the result -------------------------------------------------------------

@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "ok"),
    [
        (CYCLE, "link 5 trainer with the code?", "It's $484 using SPIN15 ($499 minus $15).", True),
        (CYCLE, "link 5 trainer with the code?", "It's $484 using SPIN15 ($499 minus $25).", False),
        (CYCLE, "link 5 trainer with the code?", "It's $474 using SPIN15 ($499 minus $25).", False),
        (CYCLE, "link 1 tire price?", "$49 with the coupon ($54 - $5).", True),
        (BODEGA, "¿precio del aceite? enlace 2", "9,50 € la botella; con cupón, tres botellas salen a 25,50 € (28,50 € menos 3 €).", True),
        (BODEGA, "¿precio del aceite? enlace 2", "9,50 € la botella; con cupón, tres botellas salen a 24,50 € (28,50 € menos 4 €).", False),
        (CHAYE, "2号到手多少", "2号红茶券后238元（258减20）", True),
        (CHAYE, "2号到手多少", "2号红茶券后238元（268减30）", False),
    ],
)
def test_a_bracketed_subtraction_is_working_not_prices(scenario: str, comment: str, reply: str, ok: bool) -> None:
    """``RESULT (A minus B)``: B is no price; the working must hold and use amounts of the room."""
    assert passed(scenario, comment, reply) is ok


# -- a price per measure word ("168元一饼") --------------------------------------------------------------------

@pytest.mark.parametrize(
    ("reply", "ok"),
    [("3号普洱168元一饼～", True), ("3号普洱168块一饼～", True), ("3号普洱178元一饼～", False)],
)
def test_yuan_yi_measure_word_is_a_price_per_unit(reply: str, ok: bool) -> None:
    """"元一饼" is one cake's price, not 168.1 元 ("三块一" stays 3.1)."""
    assert passed(CHAYE, "3号普洱多少钱", reply) is ok


def test_san_kuai_yi_stays_three_point_one() -> None:
    """"三块一" at the end of a clause is 3.1; "三块一斤" is 3 a jin."""
    from hat_env.scoring.claims.numbers import read_quantities
    from hat_env.scoring.claims.vocab import load_vocab
    from hat_env.text import normalize

    v = load_vocab("zh_CN")
    assert [round(q.value, 2) for q in read_quantities(normalize("三块一"), v) if q.dim == "money"] == [3.1]
    assert [round(q.value, 2) for q in read_quantities(normalize("三块一斤"), v) if q.dim == "money"] == [3.0]


# -- a free-shipping order threshold that only an FAQ answer states ------------------------------------------------

@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Son 3,95 € de envío con SEUR. Si tu compra alcanza los 35 €, el envío sale gratis.", True),
        ("Son 3,95 € de envío con SEUR. Si tu compra alcanza los 25 €, el envío sale gratis.", False),
    ],
)
def test_a_free_shipping_threshold_from_the_faq(reply: str, ok: bool) -> None:
    """The FAQ's "gratis en pedidos desde 35 €" is the threshold of a clause that says shipping is free (no room of
    tests/data states such a threshold only in an FAQ; the calibration room belleza_es does, on another product
    and wording than its train item)."""
    room = str(Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms" / "belleza_es.yaml")
    case = {"scenario": room, "seed": 1, "t": 100.0, "comments": [{"text": "¿cuánto cuesta el envío de la crema? enlace 5"}]}
    assert (grade(case, [reply])["components"]["accuracy"] == 1) is ok
