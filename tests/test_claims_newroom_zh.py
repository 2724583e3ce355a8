"""The reply grader on a room it was not written for (zh_CN): a room's own attributes, values and units, read
from the room's data. ``chaju_zh`` (tests/data/rooms) is a small tea-ware room with attributes no built-in room
has (釉色 as a closed set, 泥料, 件数 in the room's unit 件); the built-in rooms check that the same readings hold
on the shipped vocabulary. Every expectation is written from the room data (``facts.py room``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.envs.session import stream
from hat_env.scoring.claims import read_claims
from hat_env.scoring.claims.room_vocab import room_attributes
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import Intent
from test_claims_generalise2 import room

ROOMS = Path(__file__).parent / "data" / "rooms"


def verdicts(reply: str, r: RoomState, *intents: Intent) -> tuple[list[str], set[tuple[str, str | None]]]:
    """The reasons of ``reply``'s false or unsupported claims, and what its true claims answer."""
    rep = read_claims(reply, r, intents=intents)
    answers = {a for c in rep.claims if c.verdict == "true" for a in c.answers}
    return [c.reason for c in rep.bad], answers


CJ = room(str(ROOMS / "chaju_zh.yaml"), 4404, 100.0)
HF = room("healthfood_zh", 1201, 100.0)
GR = room("groceries_zh", 7707, 200.0)


@pytest.mark.parametrize(
    ("r", "reply", "link", "attr", "ok"),
    [
        (CJ, "公道杯是高硼硅玻璃材质的，一套7件", 3, "material", True),
        (CJ, "公道杯是亚克力材质的，摔不坏", 3, "material", False),
        (CJ, "泥料是原矿紫泥，宜兴产的～", 2, "clay", True),
        (CJ, "泥料是朱泥，宜兴产的", 2, "clay", False),
        (CJ, "产地在福建建瓯，楠竹做的～", 4, "origin", True),
        (CJ, "产地是浙江安吉哦", 4, "origin", False),
        (HF, "成分是乳双歧杆菌和低聚果糖～", 4, "ingredients", True),
        (HF, "成分是鼠李糖乳杆菌加菊粉", 4, "ingredients", False),
        (HF, "成分是鱼油和明胶，含EPA、DHA～", 3, "ingredients", True),  # an item with brackets: "鱼油（EPA、DHA）"
        (HF, "成分是磷虾油和明胶哦", 3, "ingredients", False),
        (GR, "产地是黑龙江五常，10斤装～", 4, "origin", True),
        (GR, "产地是吉林舒兰的哦", 4, "origin", False),
    ],
)
def test_a_value_next_to_its_label_is_the_products_own(r: RoomState, reply: str, link: int, attr: str,
                                                       ok: bool) -> None:
    """'材质是X' / '是X材质' / '产地在X': X is checked against the product's own value of that attribute, also
    when no word list of the locale holds X (a room's own values)."""
    it = Intent("spec", link=link, attr=attr)
    bad, answers = verdicts(reply, r, it)
    pid = r.by_link[link].product_id
    assert (not bad) is ok, bad
    assert ((f"spec:{attr}", pid) in answers) is ok


def test_a_negated_or_unknown_value_next_to_a_label_asserts_nothing() -> None:
    bad, _ = verdicts("产地不是浙江安吉，是福建建瓯", CJ, Intent("spec", link=4, attr="origin"))
    assert not bad
    bad, _ = verdicts("资料里没有写泥料是不是朱泥哦", CJ, Intent("spec", link=2, attr="clay"))
    assert not bad


@pytest.mark.parametrize(("reply", "ok"), [("盖碗的釉色是梅子青～", True), ("盖碗釉色是粉青的", False),
                                           ("这款盖碗是月白釉色", False)])
def test_a_rooms_declared_closed_set_is_that_attributes_values(reply: str, ok: bool) -> None:
    """釉色 is declared as [天青, 粉青, 梅子青, 月白]: a value of that set no product has is still a value of the
    attribute, so saying it of the 梅子青 bowl is false."""
    bad, _ = verdicts(reply, CJ, Intent("spec", link=1, attr="glaze"))
    assert (not bad) is ok, bad


@pytest.mark.parametrize(("reply", "ok"), [("电陶炉整机保修两年", True), ("电陶炉整机终身保修", False),
                                           ("不是终身保修，整机保修两年", True)])
def test_a_lifetime_warranty_against_one_with_a_length(reply: str, ok: bool) -> None:
    bad, answers = verdicts(reply, CJ, Intent("after_sales", link=5))
    assert (not bad) is ok, bad
    if not ok:
        assert not any(a == ("after_sales", "CJ05") for a in answers) or bad  # the false length is reported


@pytest.mark.parametrize(
    ("r", "reply", "ranked"),
    [
        (CJ, "这是全网最静音的电陶炉，券后219元", True),
        (CJ, "这是全 网 最 静音的电陶炉，券后219元", True),
        (GR, "全网最甜的车厘子，糖度16-20 Brix", True),
        (CJ, "电陶炉券后219元，很静音", False),
        (CJ, "全网最好看的盖碗！", False),  # an opinion superlative: compliance reads it, nothing to check
    ],
)
def test_a_market_comparison_is_a_ranking_the_data_lacks(r: RoomState, reply: str, ranked: bool) -> None:
    bad, _ = verdicts(reply, r)
    assert any("ranks nothing" in b for b in bad) is ranked, bad


def test_a_feature_the_data_says_in_other_words() -> None:
    """'宝宝用' of a product whose title states an age range in months ('0-6个月') is said by the data; of a
    product for adults it is not."""
    sc = load_scenario(str(ROOMS / "chaju_zh.yaml"))
    r = RoomState(sc, stream(4404, "catalog"))
    bowl = r.by_link[1]
    bowl.title = "婴儿辅食碗 0-6个月"
    bad, _ = verdicts("辅食碗是0-6个月宝宝用的", r, Intent("spec", link=1, attr="unknown"))
    assert not bad, bad
    bad, _ = verdicts("茶盘宝宝用也可以", CJ, Intent("spec", link=4, attr="unknown"))
    assert bad


def test_room_attributes_are_each_rooms_own() -> None:
    """Two rooms on the one default vocabulary (apparel, then beauty) each get the declared attributes their
    own products have: the first room's set is not returned for the second (beauty lost skin_type and read
    '干皮' as a label after an apparel room); and a room's own vocabulary is not another's."""
    from hat_env.scoring.claims.read import Reading

    ap, be = room("apparel_flash_zh", 256402, 10.0), room("beauty_zh", 192426, 10.0)
    assert ap.vocabulary is be.vocabulary
    assert "skin_type" not in room_attributes(Reading("肤质", ap, "zh_CN"))
    assert "skin_type" in room_attributes(Reading("肤质", be, "zh_CN"))
    assert "glaze" in room_attributes(Reading("釉色", CJ, "zh_CN"))
    assert "glaze" not in room_attributes(Reading("釉色", GR, "zh_CN"))


def test_a_sentence_before_a_value_word_is_no_value() -> None:
    """'能确认的是它适合干皮和敏感肌': 干皮 is a value (the locale also lists it among skin_type's words) and '它适合'
    is no value of anything."""
    be = room("beauty_zh", 192426, 563.0)
    bad, _ = verdicts("我这边能确认的是它适合干皮和敏感肌。", be, Intent("spec", link=6, attr="unknown"))
    assert not bad, bad


def test_a_rooms_own_deal_words_name_its_deal() -> None:
    """A room whose vocabulary names its bundle '第二盏半价' (campaign_words): saying it answers a campaign
    question about the product with that bundle, and is false of a product without one."""
    sc = load_scenario(str(ROOMS / "chaju_zh.yaml"))
    r = RoomState(sc, stream(4404, "catalog"))
    r.t = 100.0
    rep = read_claims("第二盏半价，两个盖碗一起拍更划算", r, intents=[Intent("campaign", link=1)])
    got = [c.verdict for c in rep.claims if c.attribute == "bundle"]
    assert got and set(got) == {"true"}, got
    assert any(("campaign", "CJ01") in c.answers for c in rep.claims if c.verdict == "true")
    rep = read_claims("茶盘也是第二盏半价哦", r, intents=[Intent("campaign", link=4)])
    assert "false" in [c.verdict for c in rep.claims if c.attribute == "bundle"]


@pytest.mark.parametrize(("reply", "ok"), [("48小时内发货，中通快递", True), ("今天下单明天就到！", False)])
def test_next_day_delivery_said_as_jiu_dao(reply: str, ok: bool) -> None:
    bad, _ = verdicts(reply, CJ, Intent("shipping", link=1))
    assert (not bad) is ok, bad


@pytest.mark.parametrize(("reply", "claimed"), [("您说“全网最贵”，其实价格都标在链接里，盖碗168元～", False),
                                              ("我们是“全网最低价”哦，盖碗168元", True)])
def test_a_viewers_words_quoted_back_are_not_claimed(reply: str, claimed: bool) -> None:
    bad, _ = verdicts(reply, CJ, Intent("troll"))
    assert bool(bad) is claimed, bad


def test_a_product_name_inside_an_attribute_label_is_the_label() -> None:
    """'4号粉底液的防晒指数是SPF25': 防晒 (the sunscreen's short name) inside the label 防晒指数 names no product,
    so SPF25 is the foundation's (link 4: SPF25 PA++), not the SPF50 sunscreen's."""
    be = room("beauty_zh", 623650, 516.7)
    bad, answers = verdicts("4号粉底液的防晒指数是SPF25 PA++", be, Intent("spec", link=4, attr="spf"))
    assert not bad, bad
    assert ("spec:spf", be.by_link[4].product_id) in answers


@pytest.mark.parametrize(("reply", "ok"), [("资料里没写能不能进洗碗机，建议手洗～", True), ("可以进洗碗机，放上层就行", False)])
def test_an_invented_yes_to_a_question_the_data_does_not_answer(reply: str, ok: bool) -> None:
    """The tray's data says nothing about dishwashers: saying it can go in one is unsupported; saying the data
    does not say is honest."""
    bad, _ = verdicts(reply, CJ, Intent("spec", link=4, attr="unknown"))
    assert (not bad) is ok, bad


@pytest.mark.parametrize(("reply", "ok"), [("茶盘建议手洗，敏感肌的话建议先试用", True),
                                           ("如果你是敏感肌，建议先咨询医生", True),
                                           ("茶盘敏感肌也能用", False)])
def test_a_condition_is_the_viewers_case_not_a_feature(reply: str, ok: bool) -> None:
    """A clause that sets a condition ('...的话', '如果...') says what an advice is for; only the plain statement
    claims the feature (the tray's data says nothing of sensitive skin)."""
    bad, _ = verdicts(reply, CJ, Intent("spec", link=4, attr="unknown"))
    assert (not bad) is ok, bad


def test_bu_tui_answers_a_return_question_on_a_no_returns_product() -> None:
    """'拆封不退' of a product that cannot be returned (return_days 0) is its return policy; of a returnable
    product it claims nothing the data contradicts."""
    sc = load_scenario(str(ROOMS / "chaju_zh.yaml"))
    r = RoomState(sc, stream(4404, "catalog"))
    tray = r.by_link[4]
    tray.returns = tray.returns.model_copy(update={"return_days": 0})  # this room's copy only
    assert CJ.by_link[4].returns.return_days == 7
    bad, answers = verdicts("茶盘拆封就不退了哦", r, Intent("after_sales", link=4))
    assert not bad and ("after_sales", "CJ04") in answers, (bad, answers)
    bad, _ = verdicts("盖碗拆封不退，未使用7天无理由退货", CJ, Intent("after_sales", link=1))
    assert not bad, bad
