"""A false return promise voids the after-sales answer of its product (:meth:`hat_env.scoring.claims.model.Report.answered`,
``_FAMILY_KIND``): the viewer asked how returns work and was told something false about them, whatever true
claim (a return window, the policy note) sits beside it. Another product's answer is left as it is."""

from __future__ import annotations

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
