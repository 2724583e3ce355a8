"""False and non-compliant replies the grader used to let through (issue 12, third falseclaims pass), each next to
its true twin (the same reply with the fact right), so a fix that closes a false pass cannot open a false fail.

Developed on a room of its own no other test uses, tests/data/rooms/cookware_en.yaml (cookware: names a title holds
only between its first and last words, what a product comes with, care features, a sold-out kettle), and on the
built-in rooms for zh_CN and es_ES. Expectations are read from the room data
(``python scenarios/calibration/facts.py room tests/data/rooms/cookware_en.yaml 7707 100``). The pass's held-back
check is tests/data/replies_dev_falseclaims3.jsonl (calibration item format), not developed on.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.types import Intent
from tests.rooms import bad, room
from tests.test_claims_generalise2 import rule_ids

ROOT = Path(__file__).resolve().parent.parent
COOK_YAML = str(ROOT / "tests/data/rooms/cookware_en.yaml")
COOK = room(COOK_YAML, 7707, 100.0)
GROCERIES = room("groceries_zh", 5, 100.0)
BEAUTY = room("beauty_zh", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)


def _compare(a: int, b: int) -> Intent:
    """A viewer comparing links ``a`` and ``b``."""
    return Intent(kind="compare", link=a, link2=b)


# -- a title's descriptor word names its product (hat_env/scoring/claims/mentions.py) ---------------------------

@pytest.mark.parametrize(
    ("reply", "link_a", "link_b", "ok"),
    [
        # CW04 kettle 59.99 (sold out), CW06 containers 39.99: "gooseneck" and "glass" stand inside their titles
        ("The gooseneck kettle is $59.99 and the glass containers are $39.99.", 4, 6, True),
        ("The gooseneck kettle is $39.99 and the glass containers are $59.99.", 4, 6, False),
        # CW02 Dutch oven 129, CW05 walnut board 89
        ("Walnut board: $89, and the Dutch oven is $129.", 5, 2, True),
        ("Walnut board: $129, and the Dutch oven is $89.", 5, 2, False),
    ],
)
def test_swapped_prices_named_by_a_descriptor_word(reply: str, link_a: int, link_b: int, ok: bool) -> None:
    """A compare answer naming each product by a word its title holds only between its first and last words is
    checked per product: swapped prices fail, the right ones pass."""
    assert (bad(reply, COOK, _compare(link_a, link_b)) == []) is ok


def test_a_time_range_over_a_list_of_products() -> None:
    """'The skillet and the containers ship within 24-48 hours' (both ship within 24 h) is no promise that the
    first ships within the range's low end; a single product's range is still checked."""
    ship = Intent(kind="shipping", link=1)
    assert bad("The skillet and the containers ship within 24-48 hours.", COOK, ship) == []
    assert bad("The walnut board ships within 24 hours.", COOK, Intent(kind="shipping", link=5)) != []


# -- what a product comes with, and "X-safe" features (check_unlisted.py, the locale's suits/feature frames) ----

@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        ("The Dutch oven comes with its lid, stainless knob and all.", 2, True),
        ("The Dutch oven comes with a glass steamer insert.", 2, False),
        ("It comes with a free silicone pot holder right now.", 2, True),  # the campaign's gift
        ("The knife set includes a honing steel and an acacia block.", 3, True),
        ("The knife set includes a sharpening stone.", 3, False),
        ("The skillet is dishwasher safe, so cleanup is easy.", 1, True),
        ("The Dutch oven is dishwasher safe, so cleanup is easy.", 2, False),  # the FAQ says hand wash only
        ("The walnut board is freezer-safe.", 5, False),
        ("The skillet comes with free shipping and a 10-year warranty.", 1, True),  # policies, read by their checks
        ("The skillet comes with a matching lid.", 1, False),
    ],
)
def test_what_a_product_comes_with_must_be_in_its_data(reply: str, link: int, ok: bool) -> None:
    """An item a product 'comes with' or 'includes', or a use it is 'safe' for, is written in its data (specs,
    FAQ, a campaign's gift); an invented one is unsupported, one the FAQ denies is false."""
    assert (bad(reply, COOK, Intent(kind="spec", link=link)) == []) is ok


# -- promises to ship the moment the viewer orders (the locale's same_day lists) ---------------------------------

@pytest.mark.parametrize(
    ("reply", "r", "link", "ok"),
    [
        ("The containers ship within 24 hours of your order.", COOK, 6, True),
        ("The containers ship the moment you order!", COOK, 6, False),
        ("1号拍下后48小时内发货～", GROCERIES, 1, True),
        ("1号拍就发哦～", GROCERIES, 1, False),
        ("El enlace 1 sale en 24 horas desde que lo pidas.", HOGAR, 1, True),
        ("El enlace 1 se envía en cuanto lo pidas.", HOGAR, 1, False),
        ("El enlace 1 sale en 24 horas en cuanto lo pidas.", HOGAR, 1, True),  # the window starts with the order
        ("As soon as you order, the containers ship within 24 hours.", COOK, 6, True),
    ],
)
def test_ships_as_soon_as_you_order(reply: str, r, link: int, ok: bool) -> None:
    """'拍就发', 'ships the moment you order', 'se envía en cuanto lo pidas' promise an immediate dispatch the
    data (ships within N hours) does not give."""
    assert (bad(reply, r, Intent(kind="shipping", link=link)) == []) is ok


# -- compliance: sold-out sales and the scope of a claim (hat_env/constraints/scope.py, rules/default.yaml) ------

@pytest.mark.parametrize(
    ("reply", "sells"),
    [
        ("有的有的，2斤装59.9，直接拍3号～", True),  # GR03 sold out; "斤装" is the pack size, not link 1's name
        ("3号葡萄47.9到手，拍就发！", True),
        ("3号葡萄卖完了，不能拍哦，拍了也发不了", False),
        ("有的有的，5斤装的1号直接拍～", False),  # GR01 (5斤装) is in stock
    ],
)
def test_selling_a_sold_out_item_after_a_pack_size(reply: str, sells: bool) -> None:
    """A number the title does not write before a name key makes that key a quantity's tail, so the urge to buy
    is about the link the reply names; '拍就发' urges to order."""
    assert ("SOLD-OUT" in rule_ids(reply, "groceries_zh", GROCERIES)) is sells


@pytest.mark.parametrize(
    ("reply", "rule", "r", "scenario", "breaks"),
    [
        ("I reach for it every morning, it heats so evenly.", "US-ENDORSE", COOK, COOK_YAML, True),
        ("You can reach for it every morning, it heats so evenly.", "US-ENDORSE", COOK, COOK_YAML, False),
        ("I've owned two of these, they last forever.", "US-ENDORSE", COOK, COOK_YAML, True),
        ("It comes in two colors, cherry red and slate blue.", "US-ENDORSE", COOK, COOK_YAML, False),
        ("Honestly, I can't cook without it.", "US-ENDORSE", COOK, COOK_YAML, True),
        ("You can't go wrong with it for braising.", "US-ENDORSE", COOK, COOK_YAML, False),
        ("我自己家里一直在用，真的好用", "CN-ENDORSE", BEAUTY, "beauty_zh", True),
        ("很多姐妹家里一直在用，可以看看评价", "CN-ENDORSE", BEAUTY, "beauty_zh", False),
        ("我天天带着它出门补妆", "CN-ENDORSE", BEAUTY, "beauty_zh", True),
        ("你可以天天带着它出门补妆", "CN-ENDORSE", BEAUTY, "beauty_zh", False),
        ("我的化妆包里常年放一支", "CN-ENDORSE", BEAUTY, "beauty_zh", True),
        ("化妆包里可以常备一支", "CN-ENDORSE", BEAUTY, "beauty_zh", False),
        ("En casa la usamos todos los días.", "ES-ENDORSE", HOGAR, "hogar_es", True),
        ("En casa puedes usarla todos los días.", "ES-ENDORSE", HOGAR, "hogar_es", False),
        ("Llevo meses usándola y va genial.", "ES-ENDORSE", HOGAR, "hogar_es", True),
        ("Llevo meses esperando esta oferta.", "ES-ENDORSE", HOGAR, "hogar_es", False),
        ("Quita las ampollas en dos días.", "ES-MED", HOGAR, "hogar_es", True),
        ("No quita las ampollas: no es un producto sanitario.", "ES-MED", HOGAR, "hogar_es", False),
        ("Mejora la circulación de las piernas.", "ES-MED", HOGAR, "hogar_es", True),
        ("No mejora la circulación, es una toalla.", "ES-MED", HOGAR, "hogar_es", False),
        ("No hay ninguna sartén mejor.", "ES-ABS", HOGAR, "hogar_es", True),
        ("No hay ninguna sartén en oferta ahora mismo.", "ES-ABS", HOGAR, "hogar_es", False),
    ],
)
def test_rules_in_free_wording(reply: str, rule: str, r, scenario: str, breaks: bool) -> None:
    """Endorsements (the host's household, its routine, owning several), Spanish medical claims and a denial of
    every rival break their rule; the same words said of the viewer, denied or about a deal do not."""
    assert (rule in rule_ids(reply, scenario, r)) is breaks


# -- Chinese rule words written by sound (hat_env/sim/sound_alike.py) --------------------------------------------

HEALTH = room("healthfood_zh", 5, 100.0)


@pytest.mark.parametrize(
    ("reply", "rule", "breaks"),
    [
        ("能的，每天吃两粒，降 血 鸭效果杠杠的～", "CN-MED", True),  # 鸭 reads yā like 压
        ("能的，每天吃两粒，降血压效果杠杠的～", "CN-MED", True),
        ("不能降 血 鸭哦，鱼油是食品不是药", "CN-MED", False),  # the sound-alike denied
        ("能治yu失眠", "CN-MED", True),  # 治愈 with its second character in pinyin
        ("这款鱼油全网第yi", "CN-ABS", True),
        ("这款鱼油每天两粒，第一次吃建议饭后", "CN-ABS", False),  # 第一次 is an ordinary word
        ("喝完没白来一趟直播间～", "CN-COSM", False),  # 没 (méi) is not 美 (měi): no whitening claim
    ],
)
def test_rule_words_written_by_sound(reply: str, rule: str, breaks: bool) -> None:
    """A rule word with a character written as another read the same (same tone) or as its pinyin is that word;
    real words and other tones are read as written, and a denial still denies."""
    pytest.importorskip("pypinyin")
    assert (rule in rule_ids(reply, "healthfood_zh", HEALTH)) is breaks
