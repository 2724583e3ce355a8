"""A wrong fact does not answer (calibration guide): a false policy promise or a false compatibility claim voids the
true claims on the same attribute of the same product, and those read inside its words, so the intent they would
have answered is unanswered (:meth:`hat_env.scoring.claims.model.Report.answered`).

Each false reply sits next to its true twin, which must still answer. Built on the built-in rooms and graded
through the rubric's own components (:func:`hat_env.scoring.effectiveness`, :func:`hat_env.scoring.accuracy`).
"""

from __future__ import annotations

import pytest

from hat_env.sim.room import RoomState
from hat_env.types import Intent
from tests.rooms import room, scores as _scores

PETS = room("pets_en", 5, 100.0)
HEALTH = room("healthfood_zh", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)


@pytest.mark.parametrize(
    ("r", "reply", "intent", "want"),
    [
        # pets_en: the dog food takes back unopened bags within 30 days
        (PETS, "Unopened bags can be returned within 30 days.", Intent(kind="after_sales", link=1), (1.0, 1.0)),
        (PETS, "Even opened bags can be returned within 30 days, no problem.", Intent(kind="after_sales", link=1),
         (0.0, 0.0)),
        # healthfood_zh: the fish oil has 7-day returns when unopened
        (HEALTH, "3号鱼油未拆封支持7天无理由退换哦", Intent(kind="after_sales", link=3), (1.0, 1.0)),
        (HEALTH, "3号鱼油拆封了也能7天无理由退换，放心买～", Intent(kind="after_sales", link=3), (0.0, 0.0)),
    ],
)
def test_a_false_return_promise_answers_nothing(r: RoomState, reply: str, intent: Intent,
                                                want: tuple[float, float]) -> None:
    """The return window said inside a promise beyond the policy ("even opened", "拆封了也能") is no answer to the
    return question; said with the policy's condition it answers."""
    assert _scores(r, reply, intent) == want


def test_a_false_compatibility_claim_answers_nothing() -> None:
    """hogar_es link 4 (the coffee maker) works with ground coffee, not capsules: claiming capsule compatibility
    does not answer the question; the truth does."""
    ask = Intent(kind="spec", link=4, attr="unknown")
    assert _scores(HOGAR, "Sí, es compatible con cápsulas Nespresso.", ask) == (0.0, 0.0)
    assert _scores(HOGAR, "No, no usa cápsulas: funciona con café molido.", ask) == (1.0, 1.0)


def test_adding_a_sold_out_item_to_the_cart_is_a_sale() -> None:
    """"add two ... to your cart" urges the purchase of whatever it names, however many words name it: for a
    product with no stock (pets_en link 5, the dog bed, at this seed) that is a false claim, for one in stock (link
    1) it is fine."""
    for link, sold_out in ((5, True), (1, False)):
        p = PETS.by_link[link]
        assert (PETS.stock.get(p.product_id, p.stock) <= 0) is sold_out  # the room as this test reads it
        reply = f"Awesome, tap link {link} and add two of those bags to your cart!"
        assert _scores(PETS, reply, Intent(kind="purchase", link=link))[0] == (0.0 if sold_out else 1.0)
