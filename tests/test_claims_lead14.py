"""Money roles read from the words after an amount: "the $10 store-wide coupon" names the coupon, however its
name is worded, while "$49.99 with the coupon" stays what the viewer pays
(hat_env/scoring/claims/vocab/en_US.yaml ``money_roles.coupon.after``). electronics_en at seed 5: link 1 costs
59.99 and the viewer pays 49.99 after the $10 coupon on orders of $50 or more.
"""

from __future__ import annotations

import pytest

from hat_env.types import Intent
from tests.rooms import accuracy_of, room

ELECTRONICS = room("electronics_en", 5, 100.0)


def _accuracy(reply: str) -> float:
    return accuracy_of(ELECTRONICS, reply, Intent(kind="price", link=1))


@pytest.mark.parametrize(("reply", "ok"), [
    ("The Volt Buds Pro come to $49.99 once the $10 storewide coupon kicks in.", True),
    ("The Volt Buds Pro come to $49.99 once the $10 welcome coupon kicks in.", True),
    ("The Volt Buds Pro come to $49.99 once the $15 welcome coupon kicks in.", False),
    ("The Volt Buds Pro are $49.99 with the coupon.", True),
    ("The Volt Buds Pro are $39.99 with the coupon.", False),
])
def test_a_named_coupon_amount_is_the_coupon(reply: str, ok: bool) -> None:
    assert (_accuracy(reply) == 1.0) is ok



def test_there_is_no_content_word_of_a_restatement() -> None:
    """"there", "here", "which" are function words: "There's no heat mat in the kit" restates an FAQ answer "No,
    the heat mat is not included and not sold in this stream" (its words heat, mat, kit against the answer's and
    its question's), with the same polarity; the affirmative twin does not."""
    from hat_env.scoring.claims.check_lists import restates
    from hat_env.scoring.claims.vocab import load_vocab

    neg = load_vocab("en_US").rx.get("negation")
    answer, question = "No, the heat mat is not included and not sold in this stream.", "Does it include a heat mat?"
    assert restates("There's no heat mat in the kit", answer, "en", neg, question)
    assert not restates("There's a heat mat in the kit", answer, "en", neg, question)
