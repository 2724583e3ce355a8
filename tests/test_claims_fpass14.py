"""False passes of the reply grader's accuracy closed in the fpass14 pass (false_guarantee, false_policy), each next
to a true twin so that a fix closing a false pass cannot open a false fail; and the pass's own hand-written dev set
(tests/data/dev_false_claims14.jsonl: wrong spec, guarantee, policy and number claims among true ones, over ten rooms
in all three locales) graded against an accuracy-agreement floor.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.sim.room import RoomState
from hat_env.types import Intent
from tests.rooms import accuracy_of as _accuracy, room

APPLIANCES = room("appliances_en", 5, 100.0)
ELECTRONICS = room("electronics_en", 5, 100.0)
DEV = Path(__file__).parent / "data" / "dev_false_claims14.jsonl"


# -- "it will never break": a durability vow in future form (hat_env/scoring/claims/vocab/en_US.yaml guarantee) --

@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("It's 1200 W and it will never break on you.", False),
        ("Honestly, this one is never going to wear out... it'll never wear out.", False),
        ("It's 1200 W with a 2-year warranty.", True),
    ],
)
def test_a_vow_it_will_never_break(reply: str, ok: bool) -> None:
    """"will never break", "never wears out": a promise no product's data makes is unsupported; the warranty the
    data states stays accurate."""
    assert (_accuracy(APPLIANCES, reply, Intent(kind="spec", link=2, attr="power")) == 1.0) is ok


# -- returns "even after installation": beyond a note that allows them only before (vocab no_questions) ----------

@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("You get 15-day returns, even after it's installed.", False),
        ("Returns are 15 days, even after installation!", False),
        ("Returns within 15 days before installation.", True),
    ],
)
def test_returns_even_after_installation(reply: str, ok: bool) -> None:
    """appliances_en link 3 takes returns "within 15 days before installation": a return promised "even after" the
    state the note excludes is unsupported; the note restated stays accurate."""
    assert (_accuracy(APPLIANCES, reply, Intent(kind="after_sales", link=3)) == 1.0) is ok


# -- a negation inside a "…的话" condition is the condition's, not the claim's (hat_env/scoring/claims/read.py) ----

MUYING = room(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "muying_zh.yaml", 5, 100.0)


@pytest.mark.parametrize(
    ("link", "reply", "ok"),
    [
        # muying_zh link 2: formula, returns while sealed, no exchange; link 3: diapers, exchange for another size
        (2, "奶粉罐子没开的话7天内也可以换。", False),
        (3, "纸尿裤没拆的话7天内可以换尺码。", True),
        (2, "奶粉没开封的话7天内可以退，但是不能换。", True),
    ],
)
def test_a_negation_inside_a_condition(link: int, reply: str, ok: bool) -> None:
    """"没开的话7天内也可以换": the 没 is the condition's ("if it is not opened"); the exchange is said, false of a
    product without one, true of one with it; a negation after the condition still denies."""
    assert (_accuracy(MUYING, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


OPTICA = room(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "optica_es.yaml", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)


@pytest.mark.parametrize(
    ("r", "link", "attr", "reply", "ok"),
    [
        # optica_es link 2: the blue filter "filtra en torno al 40%"
        (OPTICA, 2, "blue_filter", "Bloquean el 100 % de la luz azul, ni se nota el cristal.", False),
        (OPTICA, 2, "blue_filter", "Filtran en torno al 40 % de la luz azul.", True),
        # hogar_es link 3: "algodón 100%": a 100% the spec itself states
        (HOGAR, 3, "material", "Son 100 % algodón.", True),
    ],
)
def test_a_whole_share_of_a_spec_stating_less(r: RoomState, link: int, attr: str, reply: str, ok: bool) -> None:
    """A 100% said of a spec the clause names whose own value is a smaller share is that spec's number, and false;
    a 100% the spec states (or one said of nothing with a share) stays no claim."""
    assert (_accuracy(r, reply, Intent(kind="spec", link=link, attr=attr)) == 1.0) is ok


MASCOTAS = room(Path(__file__).parents[1] / "scenarios" / "calibration" / "rooms" / "mascotas_es.yaml", 5, 100.0)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        # mascotas_es link 4: FAQ "¿Se puede tirar al váter?" answered "No, se tira a la basura orgánica..."
        ("Es de bentonita, sin perfume, y se puede tirar al váter.", False),
        ("Ojo, no se puede tirar al váter: va a la basura orgánica.", True),
    ],
)
def test_a_no_faq_stated_as_yes(reply: str, ok: bool) -> None:
    """An FAQ whose answer says no, its question's words stated as a fact, is false of that product
    (hat_env/scoring/claims/faq_denied.py); the same words denied stay accurate."""
    assert (_accuracy(MASCOTAS, reply, Intent(kind="spec", link=4, attr="material")) == 1.0) is ok


# -- the dev set ----------------------------------------------------------------------------------------------

def test_dev_set_accuracy_floor() -> None:
    """The hand-written dev set's accuracy agreement stays at or above what this pass reached (tuned part 97.0,
    held-out part 87.5)."""
    from hat_env.scoring.offline import iter_grades

    lines = [line for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = [json.loads(line) for line in lines]
    ok = {"tuned": 0, "heldout": 0}
    n = {"tuned": 0, "heldout": 0}
    for item, res in zip(items, iter_grades(lines, DEV.parent)):
        agree = (res["components"]["accuracy"] == 1) == (item["label"]["accuracy"] == 1)
        ok[item["split"]] += agree
        n[item["split"]] += 1
    assert ok["tuned"] / n["tuned"] >= 0.96
    assert ok["heldout"] / n["heldout"] >= 0.87
