"""The spec-claims pass (issue 12): non-number facts read as (product, attribute, value) from the room's own data,
in wordings no calibration item uses. Each case fails on the grader before this pass (the ``bad`` list names what
it read wrong) or guards the other side of a fix (a false statement that must still fail). Rooms are built-in
scenarios at a fixed moment; the data is the ground truth."""

from __future__ import annotations

import pytest

from hat_env.sim.room import RoomState
from hat_env.types import Intent
from test_claims_generalise2 import bad, room


APPAREL = room("apparel_flash_zh", 478078, 788.2)
GROCERIES = room("groceries_zh", 7001, 200.0)
BEAUTY = room("beauty_zh", 31962, 147.1)
HEALTH = room("healthfood_zh", 16077, 646.3)
ELECTRONICS = room("electronics_en", 932207, 2.5)
APPLIANCES = room("appliances_en", 7003, 200.0)
PETS = room("pets_en", 7002, 200.0)
HOGAR = room("hogar_es", 7004, 200.0)


def spec(link: int, attr: str = "unknown") -> Intent:
    """A spec question about ``link``'s ``attr``."""
    return Intent("spec", link=link, attr=attr)


def test_the_rooms_are_the_ones_the_cases_were_written_for() -> None:
    assert PETS.by_link[7].specs["species"] == "cat"
    assert "混纺" in APPAREL.by_link[5].title and "混纺" not in APPAREL.by_link[5].specs["material"]
    assert GROCERIES.by_link[6].specs["flavor"] == "香辣、五香、原味"


@pytest.mark.parametrize(("reply", "ok"), [
    ("They're cat treats, not meant for dogs.", True),  # the value the clause denies is not claimed
    ("Honestly these are made for dogs.", False),
])
def test_a_value_the_clause_denies_is_not_claimed(reply: str, ok: bool) -> None:
    assert (bad(reply, PETS, spec(7, "species")) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("这条围巾是羊毛混纺款的～", True),  # 混纺 is written in the product's title
    ("这条围巾是真丝的～", False),
])
def test_a_value_word_of_the_products_title_is_its_own(reply: str, ok: bool) -> None:
    assert (bad(reply, APPAREL, spec(5, "material")) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("皮肤敏感的话，建议先在手臂内侧试一下再上嘴～", True),  # a condition on the viewer with advice
    ("资料里没有孕妇适用方面的说明哦，成分是霍霍巴籽油和维生素E", True),  # what the data lacks
    ("敏感肌也可以放心用哦", False),  # a plain claim the data does not make
])
def test_hedged_or_honest_features_claim_nothing(reply: str, ok: bool) -> None:
    assert (bad(reply, BEAUTY, spec(2)) == []) is ok


def test_an_english_condition_with_advice_is_no_claim() -> None:
    assert bad("If your dog has a sensitive stomach, check with your vet before switching.", PETS, spec(1)) == []


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (APPAREL, 2, "卫衣不满意就可以退，吊牌别剪就行", True),  # the note: 吊牌完好支持7天无理由退换
    (GROCERIES, 1, "橙子不喜欢可以退哦", False),  # the note: 生鲜不支持无理由退货
])
def test_a_return_without_a_reason_is_the_notes_no_reason_return(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, Intent("after_sales", link=link)) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("拆开试过的就不换了哦，有质量问题除外", True),  # the note's condition: 拆封后非质量问题不支持退换
    ("口红是不能换货的哦", False),  # exchange is allowed while unopened
])
def test_a_refused_exchange_under_the_notes_condition_is_true(reply: str, ok: bool) -> None:
    assert (bad(reply, BEAUTY, Intent("after_sales", link=2)) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("香辣、五香、原味都有，另外还有咖喱味的", False),  # an item added in the next clause
    ("口味有香辣、五香、原味，还有满减可以用", True),  # a deal, not an item
    ("含杏仁的，还有榛子和腰果", False),  # an item said in the clause before the list
])
def test_an_item_added_to_the_list_in_a_clause_next_to_it_is_invented(reply: str, ok: bool) -> None:
    link = 5 if "杏仁" in reply else 6
    attr = "ingredients" if link == 5 else "flavor"
    assert (bad(reply, GROCERIES, spec(link, attr)) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("牛仔裤是100%的棉，穿着透气", False),  # 98%棉 2%氨纶
    ("牛仔裤主要是棉，加了一点氨纶", True),
])
def test_a_value_said_as_the_whole_make_up_needs_the_whole_share(reply: str, ok: bool) -> None:
    assert (bad(reply, APPAREL, spec(3, "material")) == []) is ok


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (ELECTRONICS, 4, "It pairs with smart TVs too.", False),  # nothing about TVs in the speaker's data
    (ELECTRONICS, 3, "It works with iPhone as well as Android phones.", True),  # the FAQ's question, answered yes
    (HOGAR, 4, "Sí, es compatible con cápsulas de cualquier marca.", False),  # the FAQ answers no
    (HOGAR, 2, "Es compatible con papel de horno.", False),
])
def test_a_suitability_frame_needs_its_object_in_the_data(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, spec(link)) == []) is ok


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (GROCERIES, 2, "这批车厘子产自新西兰", False),  # 智利
    (GROCERIES, 2, "这批车厘子产自智利", True),
    (HEALTH, 2, "蛋白粉是新西兰进口的奶源", False),  # the data has no origin for it
])
def test_an_origin_is_read_from_place_names(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, spec(link)) == []) is ok


def test_a_certification_naming_the_rooms_own_yes_no_attribute_is_that_attribute() -> None:
    assert bad("这款五常大米是有机认证的哦", GROCERIES, spec(4, "organic")) == []
    assert bad("这款五常大米有ISO认证的", GROCERIES, spec(4, "organic")) != []


def test_size_advice_weakly_attributed_is_the_advice_of_the_product_whose_faq_gives_it() -> None:
    assert bad("两尺腰差不多66cm，建议选26码", APPAREL) == []


def test_a_value_word_of_the_faq_answer_is_the_products() -> None:
    r = room("groceries_zh", 3201, 100.0)  # its generated snack (link 7) is the one whose flavor is 微辣
    assert r.by_link[7].specs["flavor"] == "微辣" and "微辣" in r.by_link[6].faq[0].a
    assert bad("牛肉干三个口味：原味、五香，还有香辣（微辣）", r, spec(6, "flavor")) == []
    assert bad("海苔脆是香辣味的", r, spec(7, "flavor")) != []


@pytest.mark.parametrize(("reply", "ok"), [
    ("It's final sale once it's installed, but a damaged delivery gets replaced free though.", True),
    ("And it comes with a free ice tray set!", False),
])
def test_free_after_a_participle_or_before_though_is_no_gift(reply: str, ok: bool) -> None:
    assert (bad(reply, APPLIANCES, Intent("after_sales", link=4)) == []) is ok


def test_a_phrase_of_the_asked_products_note_names_no_other_product() -> None:
    # "box" is a word of the litter box's title; "in the original box" is the cat tree's note
    assert bad("Sure: returns within 30 days in the original box.", PETS, Intent("after_sales", link=4)) == []


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (HEALTH, 2, "蛋白粉现在送一个量勺", False),  # the gift is a shaker (600ml摇摇杯)
    (HEALTH, 2, "蛋白粉现在送一个摇摇杯", True),
    (APPLIANCES, 6, "The dishwasher comes with a free rinse aid bottle.", False),  # a detergent starter pack
    (APPLIANCES, 6, "It comes with a free detergent starter pack.", True),
    (APPLIANCES, 6, "And there's a little gift with it too!", True),  # no item named
])
def test_a_gift_named_by_its_item_must_be_the_datas_gift(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, Intent("campaign", link=link)) == []) is ok


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (APPLIANCES, 1, "The basket coating is totally PTFE-free.", False),  # nothing about a coating in the data
    (room("groceries_zh", 3201, 100.0), 7, "海苔脆不含防腐剂，放心吃", False),
    (HEALTH, 2, "蛋白粉不含乳清的", False),  # the data lists 乳清
    (HOGAR, 2, "Es de plástico sin BPA.", True),  # the data says "plástico sin BPA"
    (HOGAR, 4, "Funciona sin cápsulas, con café molido.", True),  # the FAQ asks about capsules and answers no
    (ELECTRONICS, 1, "Setup is hassle-free and it ships free.", True),  # idioms, not substances
])
def test_free_of_a_substance_needs_the_data_to_say_so(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, spec(link)) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("不会扎人，敏感肌也能戴", False),  # the FAQ: 敏感肌可能有轻微触感，建议搭配衣领佩戴
    ("敏感肌可能会有一点触感，最好配着衣领戴", True),
])
def test_a_feature_the_data_states_only_with_a_caution_needs_the_caution(reply: str, ok: bool) -> None:
    assert (bad(reply, APPAREL, spec(5)) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("Te regalamos una taza de desayuno con la cafetera.", False),  # the gift is 250 g de café en grano
    ("Con la cafetera te llevas de regalo café en grano.", True),
])
def test_a_spanish_gift_is_named_by_the_noun_after_the_gift_word(reply: str, ok: bool) -> None:
    assert (bad(reply, HOGAR, Intent("campaign", link=4)) == []) is ok


def test_a_reference_headed_by_a_colon_is_the_subject_of_what_follows() -> None:
    # the watch (link 3) has Bluetooth 5.2; the speaker (link 4, also asked about) has 5.3
    got = bad("Link 3: Bluetooth 5.3 and GPS. Link 4: $45.", ELECTRONICS, spec(3, "connectivity"),
              Intent("price", link=4))
    assert got and all("link 3" in x for x in got)


@pytest.mark.parametrize(("r", "it", "reply", "ok"), [
    (PETS, spec(4), "The cat tree comes in grey and beige.", False),  # the cat tree has no colour in its data
    (APPLIANCES, spec(6, "wifi"), "The dishwasher has Wi-Fi.", False),  # no wifi entry for the dishwasher
    (APPLIANCES, spec(5, "wifi"), "The robot vacuum connects over Wi-Fi.", True),
])
def test_the_one_product_asked_about_is_a_certain_subject(r: RoomState, it: Intent, reply: str, ok: bool) -> None:
    assert (bad(reply, r, it) == []) is ok


@pytest.mark.parametrize(("reply", "ok"), [
    ("这款精华里有烟酰胺哦", False),  # 烟酰胺 is an ingredient here, not the niacinamide serum's name
    ("这款精华的成分是玻尿酸、泛醇和甘油", True),
])
def test_an_item_of_the_asked_attribute_is_no_reference_to_another_product(reply: str, ok: bool) -> None:
    assert (bad(reply, BEAUTY, spec(1, "ingredients")) == []) is ok


def test_a_condition_with_advice_not_to_is_no_claim() -> None:
    reply = "If you plan to swim with them, I'd skip it: they're IPX4, sweat and splash only."
    assert bad(reply, ELECTRONICS, spec(1)) == []


@pytest.mark.parametrize(("reply", "ok"), [
    ("干皮用了会很服帖，完全不卡粉", False),  # the FAQ only advises dry skin (干皮建议先做好保湿再上妆)
    ("干皮的话先把保湿做好再上粉底就行", True),  # dry skin is the viewer's condition, as the FAQ says
    ("如果是干皮，这款完全没问题，很服帖", False),  # a condition followed by a plain assurance
])
def test_a_value_the_faq_only_advises_on_is_not_the_products(reply: str, ok: bool) -> None:
    assert (bad(reply, BEAUTY, spec(4)) == []) is ok


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (GROCERIES, 2, "车厘子不满意随时退", False),  # fresh fruit: no returns
    (HOGAR, 1, "Puedes devolverla cuando quieras, aunque la hayas usado.", False),  # 14 days, original packaging
])
def test_a_return_promise_beyond_the_policy_in_other_words(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, Intent("after_sales", link=link)) == []) is ok


def test_a_spanish_gift_after_a_verb_is_named_by_its_noun() -> None:
    assert bad("El envío es gratis y de regalo te llevas 250 g de café en grano.", HOGAR, Intent("campaign", link=4)) == []


@pytest.mark.parametrize(("reply", "ok"), [
    ("Most pups switch around 12 months, so your 8-month-old has a few months to go.", True),  # the pet's age
    ("Switch at 8 months old.", False),  # the FAQ: most switch around 12 months
])
def test_an_age_is_the_viewers_pet_not_a_fact_of_the_product(reply: str, ok: bool) -> None:
    assert (bad(reply, PETS, spec(2)) == []) is ok


def test_a_yes_no_label_with_a_certification_word_is_said_without_it() -> None:
    # groceries' organic attribute is labelled 有机认证; the rice is organic
    assert bad("大米不是有机的", GROCERIES, spec(4, "organic")) != []
    assert bad("五常大米是有机的", GROCERIES, spec(4, "organic")) == []


@pytest.mark.parametrize(("r", "link", "reply", "ok"), [
    (APPLIANCES, 1, "The air fryer has a rotisserie function.", False),  # programs: air fry, roast, bake, reheat
    (APPLIANCES, 5, "The vacuum has a carpet boost mode.", True),  # the FAQ: it raises suction on carpet
    (ELECTRONICS, 1, "They have a transparency mode too.", True),
    (HOGAR, 2, "La freidora tiene función de vapor.", False),
    (HOGAR, 6, "Sí, tiene función para picar hielo.", True),
    (GROCERIES, 2, "车厘子的包装有保鲜功能", False),
])
def test_a_feature_named_by_a_feature_noun_needs_the_data(r: RoomState, link: int, reply: str, ok: bool) -> None:
    assert (bad(reply, r, spec(link)) == []) is ok


@pytest.mark.parametrize("reply", [
    "Link 6: code HOME25 takes $25 off orders of $300 or more, it works with the $20 coupon.",  # deals combining
    "Link 6 has free shipping, and setup is hassle-free.",  # "has free" is no substance
])
def test_the_reference_agents_deal_and_shipping_wording_claims_no_attribute(reply: str) -> None:
    assert bad(reply, APPLIANCES, Intent("campaign", link=6), Intent("shipping", link=6)) == []


@pytest.mark.parametrize(("reply", "ok"), [
    ("卫衣现在拍也送碎花发夹哦", False),  # the hair clip comes with the dress; 碎花 (its short name) is the gift's word
    ("连衣裙拍下送碎花发夹", True),
])
def test_a_gift_is_of_the_product_named_before_it(reply: str, ok: bool) -> None:
    assert (bad(reply, APPAREL, Intent("campaign", link=2), Intent("campaign", link=4)) == []) is ok
