"""Grader fixes of branch claims19: a reply read against the room's own data, not too narrowly.

- a Chinese number word written inside a run of its product's own title letters ("三合一" of a "三合一冲锋衣") is
  the product's name, not an amount: no price claim is read from it; a number word outside the title ("送一个小样",
  "六百元到手") is still read and checked;
- a degree sign or "degrees" with no temperature scale after it ("170°", "180 deg") is an angle, read against a spec
  the room writes in "degrees" (a field of view, a lamp head's swivel); "°C"/"°F" stay temperatures.

Rooms: the calibration rooms huwai_zh, muying_zh, autos_en and office_en (seed 1919); expectations read from the room data
(``python scenarios/calibration/facts.py room scenarios/calibration/rooms/huwai_zh.yaml 1919 200``: link 4 is the
"峰行 三合一防水冲锋衣", 699, pays 649 with the store coupon; muying_zh link 4 runs no gift; autos_en link 6's
field_of_view is "170 degrees front, 140 degrees rear"; office_en link 5's dimensions say "head rotates 180
degrees").
"""

from __future__ import annotations

from pathlib import Path

from hat_env.scoring.claims import answered_intents, load_vocab, read_claims
from hat_env.sim.room import RoomState
from hat_env.text import normalize
from hat_env.types import Intent

from rooms import room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"

HUWAI = room(str(CAL_ROOMS / "huwai_zh.yaml"), 1919, 200)
MUYING = room(str(CAL_ROOMS / "muying_zh.yaml"), 1919, 200)
AUTOS = room(str(CAL_ROOMS / "autos_en.yaml"), 1919, 200)
OFFICE = room(str(CAL_ROOMS / "office_en.yaml"), 1919, 200)
PRICE4 = [Intent(kind="price", link=4)]


def _bad(reply: str, r: RoomState, intents: list[Intent]) -> list[str]:
    """The reasons of the reply's false or unsupported claims (empty: accurate)."""
    return [c.reason for c in read_claims(reply, r, intents=intents).bad]


def test_number_word_of_the_title_is_no_price() -> None:
    """"三合一" of the jacket's own title names it; the price said after it is the one checked, and it is true."""
    assert _bad("这件三合一冲锋衣用店铺券649到手", HUWAI, PRICE4) == []
    assert _bad("4号三合一冲锋衣，领券后649拿下", HUWAI, PRICE4) == []


def test_number_word_price_outside_the_title_is_still_checked() -> None:
    """The wrong twin: a price written in number words ("六百元") is an amount, title or not, and it is false."""
    reasons = _bad("这件三合一冲锋衣用券六百元到手", HUWAI, PRICE4)
    assert any("六百" in x and "649" in x for x in reasons), reasons


def test_wrong_price_in_digits_after_the_title_is_still_false() -> None:
    """The title's number word shields nothing after it: a wrong amount in digits stays false."""
    reasons = _bad("4号三合一冲锋衣用券599到手", HUWAI, PRICE4)
    assert any("599" in x for x in reasons), reasons


def test_count_word_next_to_other_letters_stays_a_count() -> None:
    """"送一个小样" is no piece of the "二合一" title: the gift it claims is read, and false (none runs)."""
    reasons = _bad("4号洗发沐浴二合一现价59，拍一瓶送一个小样", MUYING, PRICE4)
    assert any("送一个小样" in x for x in reasons), reasons


def _answers(reply: str, r: RoomState, intent: Intent, asked: str) -> float:
    """How far ``reply`` answers ``intent`` asked in the words ``asked`` (1, 0.5, 0), as effectiveness reads it."""
    v = load_vocab(r.locale)
    rep = read_claims(reply, r, intents=[intent])
    return answered_intents(rep, [intent], r, normalize(reply, v.locale).text, v.lang, [asked], v)[0][1]


FOV6 = Intent(kind="spec", link=6, attr="field_of_view")
SWIVEL5 = Intent(kind="spec", link=5, attr="dimensions")


def test_degree_sign_answers_a_spec_in_degrees() -> None:
    """"170°" and "140°" restate the "170 degrees front, 140 degrees rear" of the data: true, and an answer."""
    reply = "The front lens sees 170°, the rear one 140°."
    assert _bad(reply, AUTOS, [FOV6]) == []
    assert _answers(reply, AUTOS, FOV6, "how wide does the dashcam see") == 1


def test_wrong_angle_with_a_degree_sign_is_false() -> None:
    """The wrong twin: a front angle the data does not give ("160°") is false."""
    reasons = _bad("The front lens sees 160°, the rear one 140°.", AUTOS, [FOV6])
    assert any("160°" in x and "field_of_view" in x for x in reasons), reasons


def test_angle_of_another_product_in_the_room() -> None:
    """A lamp head that "swivels a full 180°" is the data's "rotates 180 degrees"; 270° is false."""
    assert _bad("Its head swivels a full 180°.", OFFICE, [SWIVEL5]) == []
    reasons = _bad("Its head swivels a full 270°.", OFFICE, [SWIVEL5])
    assert any("270°" in x for x in reasons), reasons
