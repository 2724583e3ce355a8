"""False passes of the reply grader closed in issue 12's fpass round: claims no room data can back (rankings
scoped over a platform, a year, sales, experts or the market; price superlatives over every seller), each next to
a guard that stays an opinion or an ordinary word (scenarios/calibration/README.md "Superlatives": a bare "No.1"
or "the best X on the market" is an opinion superlative, compliance's, not an accuracy claim).

Built like tests/test_claims_falseclaims3.py on its cookware dev room (tests/data/rooms/cookware_en.yaml) and the
built-in groceries_zh room; the reply texts are written for these tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent
from tests.rooms import bad, room

ROOT = Path(__file__).resolve().parent.parent
COOK = room(str(ROOT / "tests/data/rooms/cookware_en.yaml"), 7707, 100.0)
GROCERIES = room("groceries_zh", 5, 100.0)


def _reasons(reply: str, r, link: int = 1, kind: str = "spec") -> list[str]:
    """The claims engine's reasons for what it reads as false or unsupported in ``reply``."""
    return bad(reply, r, Intent(kind=kind, link=link))


# -- rankings no data supports (vocab ranking) ---------------------------------------------------------------------

@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("The skillet is the No.1 skillet of the year, hands down.", True),
        ("This is the number one pan in sales this season.", True),
        ("It's the chefs' number one pick for searing.", True),
        ("Honestly it's the lightest pan in the world at this size.", True),
        ("For even heating, nobody else comes close.", True),
        # guards: opinion superlatives stay compliance's
        ("The skillet is my No.1 for weeknight dinners.", False),
        ("It's the best skillet on the market, in my opinion.", False),
        ("It's the most comfortable handle in the world to hold.", False),
    ],
)
def test_scoped_rankings_are_unsupported(reply: str, unsupported: bool) -> None:
    """A rank scoped over a year or sales, a rank among experts, a measurable superlative over the world and rivals
    said to trail are claims the room's data cannot support; a bare 'No.1', 'the best X on the market' and an
    opinion superlative ('most comfortable') are not accuracy claims."""
    assert (bad(reply, COOK, Intent(kind="spec", link=1)) != []) is unsupported


@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("That's an unbeatable deal on the skillet today.", True),
        ("Unbeatable value for a pan like this.", True),
        ("We have the best prices in the country on cast iron.", True),
        ("That's a good deal on the skillet today.", False),
    ],
)
def test_price_superlatives_over_every_seller(reply: str, unsupported: bool) -> None:
    """'Unbeatable deal / offer / value' and 'best prices in the country' rank the price against sellers the data
    does not list; a plain 'good deal' does not."""
    assert (bad(reply, COOK, Intent(kind="price", link=1)) != []) is unsupported


@pytest.mark.parametrize(
    ("reply", "unsupported"),
    [
        ("1号这个价格全网第 一，放心拍～", True),
        ("1号是全国第 一的牌子", True),
        ("第一次买的话建议先拍小份尝尝～", False),
        ("第 一次买可以先拍一份试试", False),
    ],
)
def test_zh_rank_words_with_a_space(reply: str, unsupported: bool) -> None:
    """'全网第 一' with a space between 第 and 一 is the ranking '全网第一'; '第一次' (the first time) is no rank."""
    assert (bad(reply, GROCERIES, Intent(kind="price", link=1)) != []) is unsupported
