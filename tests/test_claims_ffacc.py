"""False fails on accuracy (branch ffacc): what a product's data denies (check_denied.py) read too widely.

A Latin denial was its denied phrase's last word alone, so an innocent word of another statement fell to it:
"not certified lactose free" denied every "free" ("ships free"), "no calls on the watch" every "watch", "not a
mined diamond" every "diamond"; and an elliptical "..., not the strap" (after "the warranty covers the movement
only") denied every mention of the strap. Each true wording stands next to a false look-alike, so a loosening
that lets the false one through fails here too. Rooms: the calibration rooms jewelry_en and fitness_en at seeds
no labelled set uses.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent

from rooms import bad, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"
JEWELRY = room(str(CAL_ROOMS / "jewelry_en.yaml"), 55101, 200.0)
FITNESS = room(str(CAL_ROOMS / "fitness_en.yaml"), 55102, 200.0)


def _denied(reply: str, r: object, link: int) -> list[str]:
    """The reasons check_denied gives for ``reply`` about ``link``."""
    return [x for x in bad(reply, r, Intent(kind="spec", link=link, attr="unknown")) if "data says" in x]


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Link 4 ships free, no fee at all.", True),  # "it is not certified lactose free"
        ("It comes with a free scoop in the tub.", True),
        ("Yes, it's certified lactose free.", False),
        ("It's lactose free, so no worries.", False),
    ],
)
def test_a_denied_phrase_needs_more_than_its_last_word(reply: str, ok: bool) -> None:
    """"not certified lactose free" denies "lactose free", not every "free"."""
    got = _denied(reply, FITNESS, 4)
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Link 6, the watch, shows your heart rate all day.", True),  # "no calls on the watch"
        ("Yes, you can take calls right on the watch.", False),
    ],
)
def test_a_denied_phrase_with_a_complement(reply: str, ok: bool) -> None:
    """"no calls on the watch" denies calls on it, not the watch."""
    got = _denied(reply, FITNESS, 6)
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("The strap is tan leather, 18 mm wide.", True),  # "covers the movement only, not the strap, ..."
        ("The strap fits 6 to 7.5 inch wrists.", True),
        ("The warranty covers the strap as well.", False),
    ],
)
def test_an_elliptical_negation_denies_of_the_statement_before_it(reply: str, ok: bool) -> None:
    """"..., not the strap" continues "the warranty covers the movement only": the strap is denied of the
    warranty, and a clause about the strap alone contradicts nothing."""
    got = _denied(reply, JEWELRY, 4)
    assert (not got) is ok, got
