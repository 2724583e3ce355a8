"""False fails on correct replies, twelfth pass (branch ffail12): mechanisms by which the grader failed true
replies, each with the correct wording next to a false look-alike so a loosening that lets a false statement
through fails here too.

Rooms: built-in rooms and the calibration rooms of scenarios/calibration/rooms; expectations are read from the
room data (``python scenarios/calibration/facts.py room ROOM SEED T``).
"""

from __future__ import annotations

from pathlib import Path

from hat_env.types import Intent

from rooms import bad, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"


# --- a coupon's condition said as adding another item ----------------------------------------------------------


def test_adding_another_item_is_the_coupons_condition() -> None:
    # beauty_zh B002 口红 99元, 全店满199减30 (not met alone); B004 粉底液 229
    r = room("beauty_zh", 7001, 100)
    asked = Intent(kind="campaign", link=2)
    assert bad("2号口红99元，单件不够；再加一件4号粉底液一起买，合计328就能减30～", r, asked) == []
    assert bad("2号口红99元，再加一件4号粉底液（229），合计328就能减30～", r, asked) == []
    assert bad("2号口红下单直接满199减30，只要69元", r, asked) != []


def test_adding_a_listed_product_is_no_gift_but_a_gift_word_still_is() -> None:
    # beauty_zh: B002 has no gift campaign; B001's gift is 同款精华5ml小样×2
    r = room("beauty_zh", 7001, 100)
    assert bad("口红99元，再加一件4号粉底液一起下单～", r, Intent(kind="campaign", link=2)) == []
    assert bad("2号口红再加送一件4号粉底液", r, Intent(kind="campaign", link=2)) != []
    assert bad("1号精华送小样，再加一条毛巾", r, Intent(kind="campaign", link=1)) != []
