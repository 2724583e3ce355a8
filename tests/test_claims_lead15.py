"""A false return promise voids the after-sales answer of its product (:meth:`hat_env.scoring.claims.model.Report.answered`,
``_FAMILY_KIND``): the viewer asked how returns work and was told something false about them, whatever true
claim (a return window, the policy note) sits beside it. Another product's answer is left as it is."""

from __future__ import annotations

import pytest

from hat_env.types import Intent
from tests.rooms import room
from tests.test_claims_void14 import _scores

# electronics_en link 6: "Returns within 30 days in original packaging.", 12-month warranty
ELECTRONICS = room("electronics_en", 5, 100.0)
RETURNS_6 = Intent(kind="after_sales", link=6)


def test_a_return_window_with_a_false_condition_answers_nothing() -> None:
    """The 30-day window is true but "even without the box" breaks the packaging condition."""
    assert _scores(ELECTRONICS, "Returns within 30 days, even if you've tossed the box.", RETURNS_6) == (0.0, 0.0)


def test_the_true_policy_answers() -> None:
    """The policy said with its condition answers, in other words too."""
    assert _scores(ELECTRONICS, "Returns within 30 days in the original packaging.", RETURNS_6) == (1.0, 1.0)
    assert _scores(ELECTRONICS, "You have thirty days to send it back, just keep the original packaging.",
                   RETURNS_6) == (1.0, 1.0)


def test_a_false_return_promise_on_another_product_leaves_this_answer() -> None:
    """Only the product the false promise is about loses its answer: link 6's true policy still answers link 6."""
    reply = ("Link 6: returns within 30 days in the original packaging. "
             "And link 3 you can return even after you've opened it and thrown the box away.")
    link3 = Intent(kind="after_sales", link=3)
    acc, eff = _scores(ELECTRONICS, reply, RETURNS_6)
    assert acc == 0.0
    assert eff == 1.0
    assert _scores(ELECTRONICS, reply, RETURNS_6, link3)[1] == 0.5


# pets_en link 1 (dog food): "Unopened bags can be returned within 30 days"; hogar_es link 4: "Devolución en 14 días
# con el embalaje original"; healthfood_zh link 3 (fish oil): 未拆封支持7天无理由退换
PETS = room("pets_en", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)
HEALTH = room("healthfood_zh", 5, 100.0)


@pytest.mark.parametrize(
    ("r", "reply", "link"),
    [
        (ELECTRONICS, "You can return it within 30 days, it doesn't matter if you've opened it.", 6),
        (ELECTRONICS, "Thirty days to return it, no receipt needed.", 6),
        (ELECTRONICS, "Thirty days to send it back. Opened is fine!", 6),
        (PETS, "You can send it back within 30 days. Opened bags are totally fine too!", 1),
        (HOGAR, "Devolución en 14 días, la caja da igual.", 4),
        (HOGAR, "Tienes 14 días para devolverla; no importa si ya está abierta.", 4),
        (HEALTH, "3号鱼油支持7天无理由退货，已经拆封的也没关系哦", 3),
        (HEALTH, "3号鱼油7天无理由，没有包装也可以退哦", 3),
    ],
)
def test_a_waived_return_condition_is_a_false_promise(r, reply: str, link: int) -> None:
    """Waiving the policy's condition (unopened, original packaging), in the same sentence or the next one, is a
    promise beyond the data: accuracy 0, and the return question is not answered."""
    assert _scores(r, reply, Intent(kind="after_sales", link=link)) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("r", "reply", "link"),
    [
        (PETS, "You can send it back within 30 days if the bag is unopened.", 1),
        (HOGAR, "Devolución en 14 días con el embalaje original.", 4),
        (HEALTH, "3号鱼油未拆封支持7天无理由退货，拆了的话就不行啦", 3),
        (ELECTRONICS, "It's fine to open it and check it out. Returns are within 30 days in the original packaging.", 6),
    ],
)
def test_the_policy_with_its_condition_is_true(r, reply: str, link: int) -> None:
    """The same windows with the condition kept (or "open it" said of something else) are true and answer."""
    assert _scores(r, reply, Intent(kind="after_sales", link=link)) == (1.0, 1.0)
