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


OUTDOOR = str(CAL_ROOMS / "outdoor_en.yaml")


@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "t", "want"),
    [
        # a model code of one title ("坐得住 G5 电竞椅", "坐得住 M3 人体工学椅") names that product: G5 is sold out, M3 is not
        (BANGONG, "G5电竞椅还有吗", "G5已经售罄啦😭 可以看看1号M3，现在秒杀叠券999到手。", 100.0, 1.0),
        (BANGONG, "G5电竞椅还有吗", "M3已经售罄啦，G5还能拍。", 100.0, 0.0),
        # the gift item of a running gift campaign (记忆棉腰靠 with the M3) named after a gift word is the gift, not
        # the cushion of link 4; another product named as the gift is still false
        (BANGONG, "1号椅子多少钱", "1号M3秒杀1099，叠券999到手！还送记忆棉腰靠一个～", 100.0, 1.0),
        (BANGONG, "1号椅子多少钱", "1号M3秒杀1099，叠券999到手！还送可调节脚踏一个～", 100.0, 0.0),
        # a health word inside the product's own data ("skin_type: oily, acne-prone") restates it; a cure is claimed
        (SKINCARE, "does the cleanser cure acne",
         "It won't cure acne — it's a cleanser, made for oily and acne-prone skin with 2% salicylic acid.", 300.0, 1.0),
        (SKINCARE, "does the cleanser cure acne", "Yes, it clears acne in a week, it's made for acne-prone skin.",
         300.0, 0.0),
        # a word of the product's own title ("Carry-On Spinner") names it, it claims no feature; a hedged guarantee
        # ("I can't guarantee every airline") denies nothing; a promise beyond the FAQ is still unsupported
        (LUGGAGE, "does the carry on have a usb charging port",
         "I don't have that detail for the carry-on, sorry — happy to check anything else!", 100.0, 1.0),
        (LUGGAGE, "will the carry on fit the overhead bin",
         "Yes for most US domestic airlines — it's within their 22 x 14 x 9 in carry-on limit. Some international "
         "carriers allow less, so I can't guarantee every airline.", 100.0, 1.0),
        (LUGGAGE, "will the carry on fit the overhead bin", "Yes, guaranteed to fit every airline's overhead bin.",
         100.0, 0.0),
        # the viewer's words quoted back and refused ("“全网最便宜”这种话我不能乱说") are no claim; said, they are
        (BANGONG, "主播你们家是不是全网最便宜", "“全网最便宜”这种话我不能乱说哈～价格都在链接里，M3现在叠券999。", 100.0, 1.0),
        (BANGONG, "主播你们家是不是全网最便宜", "我们家全网最便宜！M3现在叠券999。", 100.0, 0.0),
        # a free word negated ("不包安装") says installation is not included (BG03: FAQ 送货上门，不含安装)
        (BANGONG, "升降桌上门安装吗", "送货上门，但不包安装哈，自己装大概半小时，有说明书。", 100.0, 1.0),
        (BANGONG, "升降桌上门安装吗", "送货上门，还包安装，师傅上门装好！", 100.0, 0.0),
        # the room's own "free of" attribute (skincare_en free_of: "fragrance, talc, silicones") lists what the
        # product is free of; an ingredient it has said to be absent is false
        (SKINCARE, "is the tint silicone free", "Yes, it's silicone-free (also no fragrance or talc).", 300.0, 1.0),
        (SKINCARE, "is the tint silicone free", "Yes, it's silicone-free and squalane-free.", 300.0, 0.0),
        # a coupon the sentence names by its code or threshold ("TRAIL15 needs $150") is the one said not to apply;
        # "no coupon applies" when the $10-off-$100 one does is false
        (OUTDOOR, "rain jacket price w/ discounts?",
         "The Stormline 3L jacket is $129, and the $10-off-$100 coupon takes it to $119. TRAIL15 needs $150, so it "
         "doesn't apply on the jacket alone.", 300.0, 1.0),
        (OUTDOOR, "rain jacket price w/ discounts?", "The Stormline 3L jacket is $129 and no coupon applies to it.",
         300.0, 0.0),
        # a guarantee refused with words between ("我不能这样跟你保证") promises nothing; a guarantee said does
        (BANGONG, "M3有没有甲醛 环保吗", "有没有做甲醛检测资料里没写，我不能这样跟你保证哈。", 100.0, 1.0),
        (BANGONG, "M3有没有甲醛 环保吗", "放心，保证零甲醛！", 100.0, 0.0),
    ],
)
def test_true_readings_of_the_rooms_own_data(scenario: str, comment: str, reply: str, t: float, want: float) -> None:
    assert component(scenario, comment, reply, "accuracy", t) == want


MUYING = str(CAL_ROOMS / "muying_zh.yaml")


@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "want"),
    [
        # PT05 dog bed: dog_size "dogs up to 70 lb"; the viewer's 80 lb held against it is no claim of the bed's
        ("pets_en", "is the orthopedic bed ok for my 80 lb dog",
         "It's made for dogs up to 70 lb, so an 80 lb pup is over that. It's also sold out right now.", 1.0),
        ("pets_en", "is the orthopedic bed ok for my 80 lb dog", "Yes, it's made for dogs up to 80 lb.", 0.0),
        # MY07 stroller: max_load 15kg
        (MUYING, "推车能坐20公斤的孩子吗", "推车承重15公斤，20公斤的话就超过承重了哈～", 1.0),
        (MUYING, "推车能坐20公斤的孩子吗", "推车承重20公斤，可以坐～", 0.0),
        # MY04 FAQ: 不能治疗湿疹 is no phrase a claim of the effect restates
        (MUYING, "洗发沐浴能治湿疹吗", "能治疗湿疹哦，宝宝用了就好～", 0.0),
    ],
)
def test_the_viewers_measure_and_the_datas_denials(scenario: str, comment: str, reply: str, want: float) -> None:
    assert component(scenario, comment, reply, "accuracy", 200.0) == want


JIAFANG = str(CAL_ROOMS / "jiafang_zh.yaml")


@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "t", "want"),
    [
        # DW01 serum: volume 30 ml, no mass in its data: an ounce of it is a fluid ounce (29.6 ml)
        (SKINCARE, "how many ml is the serum", "Twenty-eight bucks for a one-ounce bottle (30 ml) 💧", 150.0, 1.0),
        (SKINCARE, "how many ml is the serum", "It's $28 for a 2-ounce bottle.", 150.0, 0.0),
        # JF05 blanket: no color attribute, its FAQ answers 燕麦色和雾霾蓝; JF06 filling 聚酯纤维 (the room's own field)
        (JIAFANG, "毛毯有什么颜色", "有燕麦色和雾霾蓝两个色～", 600.0, 1.0),
        (JIAFANG, "毛毯有什么颜色", "有燕麦色和酒红色两个色～", 600.0, 0.0),
        (JIAFANG, "6号啥面料", "6号面料是莱赛尔天丝，填充是聚酯纤维，不过目前售罄了。", 300.0, 1.0),
        # 送 before a service ("送专业干洗": take it to a dry cleaner) gives nothing; JF04's gift is a pillowcase
        (JIAFANG, "7号能水洗吗", "7号不能水洗哦，蚕丝遇水容易结块，要送专业干洗。", 300.0, 1.0),
        (JIAFANG, "7号能水洗吗", "7号不能水洗哦，现在拍还送专业干洗券一张。", 300.0, 0.0),
    ],
)
def test_units_and_fields_of_the_rooms_own_data(scenario: str, comment: str, reply: str, t: float, want: float) -> None:
    assert component(scenario, comment, reply, "accuracy", t) == want


@pytest.mark.parametrize(
    ("scenario", "comment", "reply", "t", "want"),
    [
        # DW03 cream: no health effect in its data; an effect refused ("I can't say it'll heal eczema") and a
        # referral ("check with your dermatologist for eczema") claim none; "it heals eczema" does
        (SKINCARE, "will the ceramide cream heal my eczema",
         "It's a moisturiser, not a treatment, so I can't say it'll heal eczema. It's made for dry, sensitive skin — "
         "please check with your dermatologist for eczema.", 250.0, 1.0),
        (SKINCARE, "will the ceramide cream heal my eczema", "Yes, it heals eczema in a few days.", 250.0, 0.0),
        # JF01: 卖 before a bare amount is its price ("日常卖999"); a count sold ("卖了999件") is a sales figure
        (JIAFANG, "1号羽绒被多少钱", "1号日常卖999，今天秒杀799再减30，769到手～", 300.0, 1.0),
        (JIAFANG, "1号羽绒被多少钱", "1号今天已经卖了999件，秒杀799再减30，769到手～", 300.0, 0.0),
        # "防绒棉布" (防绒/棉布) holds 绒棉 of JF03's 长绒棉 across two words: no reference to the sheet set, so the
        # one-year 跑绒 warranty stays with link 1 (JF01 warranty 12 months)
        (JIAFANG, "羽绒被会跑绒吗 质保多久",
         "1号用的80支高密防绒棉布，正常用基本不钻绒；跑绒有一年质保，一年内跑绒严重可以联系客服免费换新。", 300.0, 1.0),
        (JIAFANG, "羽绒被会跑绒吗 质保多久", "1号用的80支高密防绒棉布，跑绒有三年质保。", 300.0, 0.0),
    ],
)
def test_refusals_prices_and_names_read_from_the_room(scenario: str, comment: str, reply: str, t: float,
                                                      want: float) -> None:
    assert component(scenario, comment, reply, "accuracy", t) == want


def test_an_idiom_of_praise_refuses_nothing() -> None:
    # "I can't say enough good things" is praise: the effect after it is claimed (DW03 states no health effect)
    reply = "I can't say enough good things, it heals eczema!"
    assert component(SKINCARE, "will the ceramide cream heal my eczema", reply, "accuracy", 250.0) == 0.0


def test_a_list_running_on_into_another_attribute_adds_no_wrong_value() -> None:
    # DW05 cleanser: skin_type "oily, acne-prone", key_ingredients "2% salicylic acid, green tea extract, zinc PCA"
    q = "does the salicylic cleanser cure acne"
    ok = "It won't cure acne. It's made for oily and acne-prone skin with 2% salicylic acid, green tea and zinc PCA."
    assert component(SKINCARE, q, ok, "accuracy", 300.0) == 1.0
    assert component(SKINCARE, q, "It's made for oily, acne-prone and dry skin.", "accuracy", 300.0) == 0.0


def test_a_number_a_spec_lists_is_that_value() -> None:
    # MY06 romper: size "59/66/73/80" (sold out): 66码 is one of its sizes, 90码 is none
    q = "连体衣有66码吗"
    assert component(MUYING, q, "6号连体衣有59/66/73/80这几个码，但现在整款都卖完了，66码也没货哈～", "accuracy", 200.0) == 1.0
    assert component(MUYING, q, "6号连体衣有90码，不过卖完了～", "accuracy", 200.0) == 0.0
