"""False fails on correct replies, second pass (issue 12, branch falsefail2): true claims the grader read as false
or unsupported, answers it did not recognise and rules firing on innocent text, in rooms it was not developed on.
Each test states the room data that decides it; correct wordings sit next to look-alike false ones, so a loosening
that lets a clear false statement through fails here too. Rooms: tests/data/rooms/luggage_en.yaml (liters, lb,
inches, a cube count) and bangong_zh.yaml (承重 in kg, 座高 ranges in cm, 度, 档), both written for this pass, and the
calibration rooms of scenarios/calibration/rooms."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from hat_env.scoring import grade
from hat_env.text import normalize

ROOMS = Path(__file__).parent / "data" / "rooms"
CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"
LUGGAGE = str(ROOMS / "luggage_en.yaml")
BANGONG = str(ROOMS / "bangong_zh.yaml")
SKINCARE = str(CAL_ROOMS / "skincare_en.yaml")


def graded(scenario: str, comment: str, reply: str, t: float = 100.0, seed: int = 7001) -> dict[str, Any]:
    """``grade()`` of one final ``reply`` to one free-text ``comment`` in ``scenario`` at ``t`` s: the result dict
    (``components``, ``notes``)."""
    locale = "zh_CN" if scenario.endswith("_zh.yaml") else "en_US"
    case = {"scenario": scenario, "seed": seed, "t": t, "locale": locale, "comments": [{"text": comment}]}
    return grade(case, [reply])


def component(scenario: str, comment: str, reply: str, name: str, t: float = 100.0) -> float:
    """One component (``accuracy``, ``compliance``, ``effectiveness``) of :func:`graded`."""
    return float(graded(scenario, comment, reply, t)["components"][name])


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("建议身高1米55以上", "1.55米"),
        ("一米八的床", "1.8米"),
        ("最高能升到1米2", "1.2米"),
    ],
)
def test_metres_and_the_digits_after_them_are_one_length(text: str, want: str) -> None:
    # "1米8" is how a height is said (1.8 m); "1米20厘米" stays as written
    assert want in normalize(text, "zh_CN").text
    assert "1米20厘米" in normalize("1米20厘米", "zh_CN").text


def test_a_decade_is_ten_years() -> None:
    assert "10 years" in normalize("A full decade of coverage", "en_US").text


def test_a_height_said_as_metres_and_centimetres_restates_the_faq() -> None:
    # BG01 FAQ: 座高最低45厘米，建议身高155厘米以上
    q = "我155能坐M3吗"
    assert component(BANGONG, q, "可以的～座高最低45公分，建议身高1米55以上，刚好合适。", "accuracy") == 1.0
    assert component(BANGONG, q, "可以的～座高最低45公分，建议身高1米75以上。", "accuracy") == 0.0


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("座高最低45公分，最高55公分～", 1.0),  # seat_height 45-55cm: the ends of a range
        ("最低72厘米，最高能升到1米2～", 1.0),  # BG03 lift_range 72-120cm
        ("这是最好的椅子", 0.0),  # a ranking
        ("最低只要999元，全网最低！", 0.0),  # a price after 最 still ranks
    ],
)
def test_the_ends_of_a_measured_range_are_no_absolute_term(reply: str, ok: float) -> None:
    assert component(BANGONG, "M3座高多少", reply, "compliance") == ok


def test_time_left_is_no_stock_count() -> None:
    # M3 has 80 in stock: "还剩几秒" is the flash sale's time, "只剩几件" is false scarcity
    q = "1号多少钱"
    assert component(BANGONG, q, "M3秒杀1099叠券999，还剩几秒抓紧！", "compliance") == 1.0
    assert component(BANGONG, q, "M3秒杀1099叠券999，只剩几件了抓紧！", "compliance") == 0.0
