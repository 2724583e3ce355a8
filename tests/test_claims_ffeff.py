"""False fails on effectiveness (branch ffeff): an opinion question read as an unknown attribute ("earbuds good?",
"¿merece la pena?", "好用吗") is answered by any true fact of the product's, its price included, while a factual
question about an attribute the data lacks ("waterproof?") still needs the honest "it does not say" or a fact on
its topic, a false price still answers nothing, and a reply with no product fact still does not answer.

Rooms: built-in electronics_en (link 1 earbuds 49.99 with the coupon), hogar_es (link 1 sartén 29,90 at t=600),
beauty_zh (link 2 口红 99). Expectations read from ``python scenarios/calibration/facts.py room ROOM SEED T``.
"""

from __future__ import annotations

import pytest

from tests.rooms import grade_one


def components(scenario: str, seed: int, t: float, comment: str, reply: str) -> tuple[float, float]:
    """The (accuracy, effectiveness) ``grade()`` gives one final ``reply`` to one free-text ``comment``."""
    c = grade_one(scenario, seed, t, comment, reply)["components"]
    return c["accuracy"], c["effectiveness"]


@pytest.mark.parametrize(("scenario", "t", "comment", "reply"), [
    ("electronics_en", 100, "earbuds good?", "They're $49.99 with the coupon right now."),
    ("hogar_es", 600, "la sartén es buena?", "Está a 29,90 €."),
    ("beauty_zh", 100, "2号口红好用吗", "2号口红现在99元～"),
    ("beauty_zh", 100, "2号口红值得买吗", "2号口红现在99元～"),
])
def test_opinion_question_answered_by_a_true_price(scenario: str, t: float, comment: str, reply: str) -> None:
    assert components(scenario, 1, t, comment, reply) == (1.0, 1.0)


@pytest.mark.parametrize(("scenario", "t", "comment", "reply"), [
    # a factual question about an attribute the data lacks: a price does not answer it
    ("electronics_en", 100, "are the earbuds waterproof?", "They're $49.99 with the coupon right now."),
    ("hogar_es", 600, "la sartén vale para inducción?", "Está a 29,90 €."),
    ("beauty_zh", 100, "2号口红防水吗", "2号口红现在99元～"),
    # an opinion question with no product fact in the reply
    ("electronics_en", 100, "why should i get the earbuds", "Great question!"),
    ("hogar_es", 600, "merece la pena la freidora?", "Claro que sí."),
    ("beauty_zh", 100, "2号口红好用吗", "宝宝们放心冲～"),
])
def test_no_product_fact_or_factual_question_still_unanswered(scenario: str, t: float, comment: str,
                                                              reply: str) -> None:
    assert components(scenario, 1, t, comment, reply)[1] == 0.0


@pytest.mark.parametrize(("scenario", "t", "comment", "reply"), [
    ("electronics_en", 100, "earbuds worth it?", "They're $29.99 with the coupon right now."),
    ("hogar_es", 600, "la sartén es buena?", "Está a 19,90 €."),
    ("beauty_zh", 100, "2号口红值得买吗", "2号口红现在89元～"),
])
def test_opinion_question_with_a_false_price_fails(scenario: str, t: float, comment: str, reply: str) -> None:
    assert components(scenario, 1, t, comment, reply) == (0.0, 0.0)


# --- denials of a health effect ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("scenario", "comment", "reply"), [
    ("pets_en", "will this food make my dog lose weight fast",
     "I can't promise weight loss: it's a dog food, not a fat burner."),
    ("pets_en", "will this food make my dog lose weight fast", "I can't say it helps with weight loss, it's just a food."),
    ("hogar_es", "las toallas sirven para la dermatitis?",
     "No te puedo decir que sirvan para eso: son toallas, no un producto sanitario."),
    ("hogar_es", "las toallas sirven para la dermatitis?", "Son toallas de algodón; para eso pregúntale a tu dermatólogo."),
])
def test_declining_the_health_effect_answers(scenario: str, comment: str, reply: str) -> None:
    assert components(scenario, 1, 100, comment, reply) == (1.0, 1.0)


@pytest.mark.parametrize(("scenario", "comment", "reply"), [
    ("pets_en", "will this food make my dog lose weight fast", "It's a great food!"),
    ("pets_en", "will this food make my dog lose weight fast",
     "I can't promise it, but it will help your dog lose weight for sure."),
    ("hogar_es", "las toallas sirven para la dermatitis?", "Son de algodón."),
])
def test_no_denial_still_unanswered(scenario: str, comment: str, reply: str) -> None:
    assert components(scenario, 1, 100, comment, reply)[1] == 0.0
