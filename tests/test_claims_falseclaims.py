"""False claims the grader used to let through (issue 12, falseclaims pass), each next to a correct look-alike.

Developed on tests/data/replies_dev_falseclaims.jsonl (hand-labelled, seeded halves; the rooms are the built-in
ones, scenarios/calibration/rooms/ and tests/data/rooms/, bedding_en among them). Each test has a case that
fails without its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent
from tests.rooms import grade_one
from tests.test_claims_generalise2 import bad, room

ROOT = Path(__file__).resolve().parent.parent
OUTDOOR = room(str(ROOT / "scenarios/calibration/rooms/outdoor_en.yaml"), 7102, 200.0)
PADDLE = room(str(ROOT / "tests/data/rooms/paddle_en.yaml"), 7104, 200.0)
BEDDING = room(str(ROOT / "tests/data/rooms/bedding_en.yaml"), 9909, 200.0)
APPAREL = room("apparel_flash_zh", 478078, 788.2)


def _grade(scenario: str, seed: int, t: float, comment: str, intents: list[dict], reply: str) -> dict[str, float]:
    """accuracy / effectiveness / compliance of ``reply`` to ``comment`` in the room."""
    c = grade_one(scenario, seed, t, comment, reply, intents)["components"]
    return {k: c[k] for k in ("accuracy", "effectiveness", "compliance")}


# -- what the data denies, said as fact (check_denied.py) ----------------------------------------------------------

@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Yes, a push-button piezo igniter is built in 🔥", False),  # FAQ: "No, there is no piezo igniter"
        ("There's no igniter, so bring a lighter or a ferro rod.", True),
        ("Light it with a lighter or ferro rod.", True),
    ],
)
def test_an_faq_that_says_no_makes_the_feature_false(reply: str, ok: bool) -> None:
    """The stove's FAQ denies an igniter: claiming one is false, restating the denial is not."""
    got = bad(reply, OUTDOOR, Intent(kind="spec", link=4, attr="unknown"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Yes, a 3 L reservoir comes included!", False),  # "(reservoir not included)"
        ("It takes a reservoir up to 3 L, but the reservoir isn't included.", True),
        ("Yes, it has a hose port and a sleeve for a reservoir up to 3 L.", True),
        ("It comes with a rain cover in the bottom zip pocket.", True),  # another thing included: no denial of it
    ],
)
def test_a_part_the_data_says_is_not_included(reply: str, ok: bool) -> None:
    """A subject before the negation ("reservoir not included") must be the thing the reply says is included."""
    got = bad(reply, OUTDOOR, Intent(kind="spec", link=3, attr="unknown"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Yep, it's fully submersible.", False),  # "it is not rated for full submersion"
        ("It's splash-proof and it floats, but it isn't rated for full submersion.", True),
        ("It's splash-proof and it floats.", True),
    ],
)
def test_an_inflected_word_of_the_denial_is_the_denied_thing(reply: str, ok: bool) -> None:
    """"submersible" and "submersion" are one word: a shared stem."""
    got = bad(reply, PADDLE, Intent(kind="spec", link=2, attr="unknown"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("The kayak comes with a paddle, so you're set.", False),  # "No, the paddle is sold separately (link 6)."
        ("The paddle is sold separately, it's link 6.", True),
        ("The paddle is link 6.", True),
    ],
)
def test_a_bare_no_answers_its_question(reply: str, ok: bool) -> None:
    """An FAQ answer opening with "No" denies what its question asks ("Does it come with a paddle?")."""
    got = bad(reply, PADDLE, Intent(kind="spec", link=1, attr="unknown"))
    assert (not got) is ok, got


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("卫衣可以高温烘干，很方便", False),  # FAQ: 建议冷水洗、不要高温烘干
        ("建议冷水洗，别高温烘干哦", True),
        ("卫衣是100%棉的，400克重磅", True),
    ],
)
def test_a_chinese_denial_in_an_faq_answer(reply: str, ok: bool) -> None:
    """The denied run after 不/没/无 (its modal taken off) said plainly is false."""
    got = bad(reply, APPAREL, Intent(kind="spec", link=2, attr="unknown"))
    assert (not got) is ok, got


def test_a_denial_under_a_condition_needs_the_condition() -> None:
    """"拆封后非质量问题不支持退换" denies returns after opening only: "支持7天内退换" alone is no contradiction,
    even when the reply's negation of it stands in the next sentence (a tilde ends a sentence)."""
    beauty = room("beauty_zh", 31962, 147.1)
    reply = "2号口红支持7天内退换哦～不过拆封后如果不是质量问题就不能退换了"
    assert not [x for x in bad(reply, beauty, Intent(kind="after_sales", link=2)) if "data says" in x]


# -- a true value of another attribute answers nothing (answers.py) ---------------------------------------------

@pytest.mark.parametrize(
    ("reply", "eff"),
    [
        ("They're rated IPX4, so sweat and splashes are fine 💪", 0.0),  # true, but not the battery
        ("8 hours, 32 with the case.", 1.0),
    ],
)
def test_a_feature_does_not_answer_another_attribute(reply: str, eff: float) -> None:
    """A feature claim answers an unknown attribute; asked for one the product has (battery), it answers only
    when it is about that question."""
    got = _grade("electronics_en", 932207, 2.5, "battery life on the buds?",
                 [{"kind": "spec", "link": 1, "attr": "battery"}], reply)
    assert got["accuracy"] == 1.0 and got["effectiveness"] == eff, got


def test_a_compatibility_feature_still_answers_its_question() -> None:
    """"works with iPhone" answers a compatibility question read as the watch's connectivity (the feature's
    words are the comment's)."""
    got = _grade("electronics_en", 932207, 2.5, "does the watch work with my iphone?",
                 [{"kind": "spec", "link": 3, "attr": "connectivity"}], "Yes, it works with iPhone on iOS 15 or later.")
    assert got["effectiveness"] == 1.0, got


@pytest.mark.parametrize(("reply", "eff"), [("30ml装，早晚都能用哦", 0.0), ("保质期三年哦", 1.0)])
def test_a_digit_of_a_value_is_a_whole_number(reply: str, eff: float) -> None:
    """The 3 of "3年" (shelf life) is not the 3 of "30ml": a number of a spec value is matched whole."""
    got = _grade("beauty_zh", 31962, 147.1, "精华保质期多久", [{"kind": "spec", "link": 1, "attr": "shelf_life"}], reply)
    assert got["effectiveness"] == eff, got


@pytest.mark.parametrize(("reply", "ok"), [("只能用铁壶哦", False), ("只支持铁壶", False),
                                           ("不挑壶，铁壶、玻璃壶、陶壶都能用", True), ("铁壶也能用", True)])
def test_an_faq_list_of_alternatives_makes_an_exclusive_claim_false(reply: str, ok: bool) -> None:
    """"不挑壶，铁壶、玻璃壶、陶壶都能用" lists alternatives: "只能用铁壶" says the others do not hold."""
    chaju = room(str(ROOT / "tests/data/rooms/chaju_zh.yaml"), 7103, 200.0)
    got = [x for x in bad(reply, chaju, Intent(kind="spec", link=5, attr="unknown")) if "data says" in x]
    assert (not got) is ok, got


# -- spec values (check_product.py, check_unlisted.py) ---------------------------------------------------------

@pytest.mark.parametrize(("reply", "ok"), [("**Flavor:** salmon, sweet potato and pumpkin 🐟🎃", False),
                                           ("Flavor: salmon and sweet potato 🐟", True)])
def test_an_emoji_ends_an_added_list_item(reply: str, ok: bool) -> None:
    """An emoji after the last chunk of a list is punctuation: "pumpkin 🐟🎃" is the added item "pumpkin"."""
    pets = room("pets_en", 7002, 200.0)
    got = bad(reply, pets, Intent(kind="spec", link=2, attr="flavor"))
    assert (not got) is ok, got


@pytest.mark.parametrize(("reply", "ok"), [("是的，100%分离乳清蛋白", False), ("浓缩乳清加分离乳清", True),
                                           ("成分是浓缩乳清蛋白和分离乳清蛋白", True)])
def test_purity_of_one_item_of_several(reply: str, ok: bool) -> None:
    """"100%分离乳清" says the whole is one item; the data lists another (浓缩乳清蛋白、分离乳清蛋白)."""
    hf = room("healthfood_zh", 16077, 646.3)
    got = bad(reply, hf, Intent(kind="spec", link=2, attr="ingredients"))
    assert (not got) is ok, got


@pytest.mark.parametrize(("reply", "ok"), [("Yes, it works with any clumping litter you already use!", False),
                                           ("It's a self-cleaning litter box, 24 x 20 x 22 in.", True)])
def test_the_products_own_name_supports_no_suitability(reply: str, ok: bool) -> None:
    """"litter" of "Self-Cleaning Litter Box" does not say which litter it works with."""
    pets = room("pets_en", 7002, 200.0)
    got = bad(reply, pets, Intent(kind="spec", link=6, attr="unknown"))
    assert (not got) is ok, got


def test_the_suitability_the_faq_gives_is_still_true() -> None:
    """"works with laptops" for the charger whose FAQ says so."""
    elec = room("electronics_en", 932207, 2.5)
    assert not bad("Yes, it works with most 13-14 inch laptops at 65W.", elec, Intent(kind="spec", link=5, attr="unknown"))


@pytest.mark.parametrize(("reply", "ok"), [("有淡淡的奶香味，宝宝用完香香的", False), ("无香精的，没有添加香味", True),
                                           ("不含香精哦", True)])
def test_a_yes_no_word_with_words_inside(reply: str, ok: bool) -> None:
    """A room's yes/no word led by its has-verb ("有香味") is said with words between ("有淡淡的奶香味")."""
    muying = room(str(ROOT / "scenarios/calibration/rooms/muying_zh.yaml"), 7101, 200.0)
    got = bad(reply, muying, Intent(kind="spec", link=4, attr="fragrance"))
    assert (not got) is ok, got


@pytest.mark.parametrize(("reply", "ok"), [("色号有正红、豆沙、奶茶，还有车厘子色🍒", False),
                                           ("色号有正红、豆沙、奶茶，都很显白💄", True)])
def test_an_item_added_in_the_next_clause_before_an_emoji(reply: str, ok: bool) -> None:
    """"还有车厘子色🍒" goes on with the list: an emoji at its end is punctuation."""
    beauty = room("beauty_zh", 31962, 147.1)
    got = bad(reply, beauty, Intent(kind="spec", link=2, attr="shade"))
    assert (not got) is ok, got


@pytest.mark.parametrize(("reply", "sold"), [("Just hit buy on link 5, $59.99 🛒", True),
                                             ("Yes! Order link 5 now and it ships within 3 days.", True),
                                             ("Sorry, link 5 is sold out, you can order link 2 instead", False)])
def test_pressing_buy_on_a_sold_out_item_sells_it(reply: str, sold: bool) -> None:
    """"hit buy", "order link 5 now" urge to buy: of the sold-out dog bed, false (and SOLD-OUT for "hit buy")."""
    got = _grade("pets_en", 7002, 200.0, "I want the dog bed", [{"kind": "purchase", "link": 5}], reply)
    assert (got["accuracy"] == 0.0) is sold, got
