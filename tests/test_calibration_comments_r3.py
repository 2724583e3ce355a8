"""Form checks for the third, independently written comment sets (scenarios/calibration/comments_<locale>_r3.jsonl).

Same checks as the r2 sets (tests/test_calibration_comments_r2.py, whose helpers are reused): every item has the
CALIBRATION.md fields, its id follows ``cmt3-<locale>-NNNN``, every link, spec key and order it names exists in its
room at its seed and moment, and 25-35% of each file is `test`. Also: every built-in room of the locale is used,
and no comment repeats one of the earlier sets. They check the data's form, never its labels (labels are people's
judgements) and never run the comment parser: these sets are a held-out measurement of it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_calibration_comments_r2 import ROOMS, _load, form_problems

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
FILES = {"zh_CN": CAL / "comments_zh_CN_r3.jsonl", "en_US": CAL / "comments_en_US_r3.jsonl"}
#: Fewest items per file (the brief asks for at least 220 in all, about half per locale).
MIN_ITEMS = 105


@pytest.mark.parametrize("locale", sorted(FILES))
def test_items_have_the_documented_form(locale: str) -> None:
    problems = form_problems(FILES[locale], locale, "cmt3", MIN_ITEMS)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("locale", sorted(FILES))
def test_every_room_of_the_locale_is_used(locale: str) -> None:
    used = {it["scenario"] for it in _load(FILES[locale])}
    assert used == ROOMS[locale], f"{FILES[locale].name}: rooms missing {sorted(ROOMS[locale] - used)}"


@pytest.mark.parametrize("locale", sorted(FILES))
def test_test_split_is_a_quarter_to_a_third(locale: str) -> None:
    items = _load(FILES[locale])
    share = sum(it["split"] == "test" for it in items) / len(items)
    assert 0.25 <= share <= 0.35, f"{FILES[locale].name}: test share {share:.1%}"


def test_the_sets_are_new_comments() -> None:
    """No r3 comment repeats a comment of the earlier sets (they must be written independently)."""
    old = {it["text"].strip().lower() for p in CAL.glob("comments_*.jsonl") if "_r3" not in p.name
           for it in _load(p)}
    again = [it["id"] for p in FILES.values() for it in _load(p) if it["text"].strip().lower() in old]
    assert not again, f"repeated from the earlier sets: {again}"
