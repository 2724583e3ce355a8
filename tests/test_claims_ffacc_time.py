"""False fails on accuracy (branch ffacc): a time the reply says in the other calendar unit than the data.

A product time the data states in days ("shelf_life: 30天", 30-day returns) said in months ("一个月左右（保质期30天）",
"a month — 30 days — to send it back", "半年左右（180天）") found no data time of its unit when no attribute word
named the family, and was "the data states no such value". It is now converted by the calendar's conventions (a
month is 30 days, a year 365; tolerance.convert_time) and checked against the data's times of the other unit, so a
wrong month count is still false. Rooms: the calibration rooms jewelry_en and shengxian_zh at seeds no labelled set
uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent

from rooms import bad, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"
JEWELRY = room(str(CAL_ROOMS / "jewelry_en.yaml"), 55201, 300.0)
SHENGXIAN = room(str(CAL_ROOMS / "shengxian_zh.yaml"), 55202, 300.0)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("能放一个月左右（保质期30天），放阴凉处就行～", True),  # SX04 shelf_life 30天
        ("大概能放一个月，放阴凉处就行～", True),
        ("能放三个月左右，放阴凉处就行～", False),
        ("能放半年，放阴凉处就行～", False),
    ],
)
def test_months_for_a_shelf_life_in_days(reply: str, ok: bool) -> None:
    """"一个月" is the 30 days the data states; three months or half a year is not."""
    got = bad(reply, SHENGXIAN, Intent(kind="spec", link=4, attr="shelf_life"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("冷冻可以放半年左右（180天），收到就放冷冻层～", True),  # SX05 shelf_life 180天
        ("冷冻可以放一年，收到就放冷冻层～", False),
    ],
)
def test_half_a_year_for_180_days(reply: str, ok: bool) -> None:
    """"半年" is 180 days by the calendar's convention; a year is not."""
    got = bad(reply, SHENGXIAN, Intent(kind="spec", link=5, attr="shelf_life"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("You've got a month, 30 days, to send the Kinetik bracelet back, unworn.", True),  # LL08 30-day returns
        ("You've got two months to send the Kinetik bracelet back, unworn.", False),
    ],
)
def test_a_month_for_a_30_day_return_window(reply: str, ok: bool) -> None:
    """"a month" is the 30-day return window; two months is not."""
    got = bad(reply, JEWELRY, Intent(kind="after_sales", link=8))
    assert (not got) is ok, got
