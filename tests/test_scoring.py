"""Scoring: gold needs and facts, each rubric component alone on hand-built outcomes, and the gated composite."""

from __future__ import annotations

import random
from typing import Any

import pytest

from hat_env.scoring import (
    BUILTIN_COMPONENTS,
    DEFAULT_WEIGHTS,
    AbsentFact,
    AnyOfFact,
    Gates,
    NumberFact,
    PoliteFact,
    Rubric,
    ScoringContext,
    accuracy,
    compliance,
    constraints,
    effectiveness,
    latency,
    need_of_call,
    needs_for,
    number_claims,
    parse_numbers,
    reply_skill_for,
    required_facts,
    skill_selection,
    tool_rationality,
)
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario
from hat_env.sim.tools import ToolBackend
from hat_env.types import Comment, ExecutedCall, Intent, LiveRequest, RequestOutcome


def make_room(locale: str = "zh_CN") -> RoomState:
    """Three products with price history and spec keys from vocab.SPEC_ATTRS, a coupon, a flash sale, orders.

    P001 (link 1) sunscreen: price 129, coupon 40 off at 100 -> effective 89, stock 500, ships in 48 h, 7-day
    returns. P002 (link 2) vitamin C: price 99, flash sale 79 -> effective 79, stock 3. P003 (link 3) earbuds:
    price 299, no campaign, sold out, paid shipping, no exchange, 12-month warranty.
    """
    zh = locale == "zh_CN"
    sc = Scenario.model_validate(
        {
            "name": "scoring-test",
            "locale": locale,
            "catalog": {
                "products": [
                    {
                        "product_id": "P001",
                        "link": 1,
                        "title": "清透防晒霜" if zh else "Clear Sunscreen",
                        "brand": "Lumi",
                        "category": "skincare",
                        "price": 129,
                        "list_price": 199,
                        "price_history": [{"days_ago": 1, "price": 119}, {"days_ago": 3, "price": 109}, {"days_ago": 20, "price": 89}],
                        "stock": 500,
                        "specs": {"spf": "SPF50", "size": "50ml", "skin_type": "所有肤质" if zh else "all skin types"},
                        "shipping": {"ships_within_hours": 48, "carrier": "顺丰" if zh else "UPS"},
                        "returns": {"return_days": 7},
                    },
                    {
                        "product_id": "P002",
                        "link": 2,
                        "title": "维生素C片" if zh else "Vitamin C Tablets",
                        "brand": "Vita",
                        "category": "health_food",
                        "price": 99,
                        "list_price": 99,
                        "price_history": [{"days_ago": 2, "price": 99}],
                        "stock": 3,
                        "specs": {"size": "60粒" if zh else "60 tablets", "shelf_life": "24个月" if zh else "24 months"},
                        "returns": {"return_days": 15},
                    },
                    {
                        "product_id": "P003",
                        "link": 3,
                        "title": "蓝牙耳机" if zh else "Wireless Earbuds",
                        "brand": "Sono",
                        "category": "electronics",
                        "price": 299,
                        "list_price": 399,
                        "price_history": [{"days_ago": 5, "price": 299}],
                        "stock": 0,
                        "specs": {"battery": "30小时续航" if zh else "30 hours", "color": "黑色" if zh else "black"},
                        "shipping": {"ships_within_hours": 72, "free_shipping": False, "fee": 10},
                        "returns": {"return_days": 7, "exchange": False, "warranty_months": 12},
                    },
                ]
            },
            "campaigns": [
                {"campaign_id": "C1", "type": "coupon", "title": "满100减40", "products": ["P001"], "amount": 40, "threshold": 100},
                {"campaign_id": "F1", "type": "flash_sale", "title": "秒杀", "products": ["P002"], "flash_price": 79, "end_s": 3600},
            ],
            "orders": [{"order_id": "O1001", "product_id": "P003", "status": "shipped", "eta_days": 2}],
        }
    )
    return RoomState(sc, random.Random(0))


REPLY_SKILLS = {
    "item_qa": frozenset({"price", "spec", "stock", "campaign", "shipping", "compare"}),
    "purchase_guide": frozenset({"purchase"}),
    "after_sales": frozenset({"after_sales", "order_status"}),
    "chitchat": frozenset({"chitchat", "troll", "injection"}),
}


def call(room: RoomState, op: str, args: dict[str, Any] | None = None, *, fault: str | None = None,
         valid: bool = True, name: str | None = None) -> ExecutedCall:
    """An executed call; valid, fault-free calls are really run against the room's backend."""
    args = args or {}
    if not valid:
        return ExecutedCall(name or op, None, {}, False, error="unknown tool")
    if op == "load_skill":
        return ExecutedCall(name or "load_skill", "load_skill", args, True, ok=True, result={"body": "..."})
    if fault:
        return ExecutedCall(name or op, op, args, True, fault=fault)
    try:
        res = ToolBackend(room, None, random.Random(0)).execute(op, args)
    except Exception as exc:  # a ToolError: valid call, no data
        return ExecutedCall(name or op, op, args, True, error=str(exc))
    return ExecutedCall(name or op, op, args, True, ok=True, result=res)


def outcome(intents: list[Intent], reply: str, calls: list[ExecutedCall] = (), skills: list[str] = ("item_qa",),
            latency_s: float = 2.0, fallback: bool = False) -> RequestOutcome:
    req = LiveRequest("r0001", 10.0, [Comment(9.0, "v1", "小王", "price_asker", "?", tuple(intents))])
    return RequestOutcome(req, reply, list(calls), list(skills), turns=len(calls) + 1, latency_s=latency_s, fallback=fallback)


RULES = RuleSet.default()


def ctx(room: RoomState, out: RequestOutcome, **kw: Any) -> ScoringContext:
    kw.setdefault("rules", RULES)
    kw.setdefault("reply_skill_intents", REPLY_SKILLS)
    return ScoringContext(outcome=out, room=room, **kw)


PRICE1 = Intent("price", link=1)


def price_outcome(room: RoomState, reply: str = "1号链接防晒霜SPF50，券后价89元，直接拍就行～", **kw: Any) -> RequestOutcome:
    calls = [call(room, "product_by_link", {"link": 1}), call(room, "load_skill", {"name": "item_qa"})]
    return outcome([PRICE1], reply, calls, **kw)


# --- gold ----------------------------------------------------------------------------------------------------


def test_needs_for_each_intent():
    room = make_room()
    assert needs_for(Intent("price", link=1), room) == [("product", "P001")]
    assert needs_for(Intent("spec", link=1, attr="spf"), room) == [("product", "P001")]
    assert needs_for(Intent("stock", link=2), room) == [("product", "P002"), ("stock", "P002")]
    assert needs_for(Intent("campaign", link=1), room) == [("product", "P001"), ("campaigns", "P001")]
    assert needs_for(Intent("shipping", link=3), room) == [("product", "P003"), ("shipping", "P003")]
    assert needs_for(Intent("after_sales", link=3), room) == [("product", "P003"), ("after_sales", "P003")]
    assert needs_for(Intent("order_status", order_id="O1001"), room) == [("order", "O1001")]
    assert needs_for(Intent("compare", link=1, link2=3), room) == [("product", "P001"), ("product", "P003")]
    assert needs_for(Intent("purchase", link=1), room) == [
        ("product", "P001"), ("pin", "P001"), ("coupon", "C1")]
    # P003 is sold out: nothing to pin, its stock is checked instead (docs/grading.md)
    assert needs_for(Intent("purchase", link=3), room) == [("product", "P003"), ("stock", "P003")]
    for k in ("chitchat", "troll", "injection"):
        assert needs_for(Intent(k), room) == []
    assert needs_for(Intent("price", link=42), room) == []
    assert needs_for(Intent("order_status", order_id="NOPE"), room) == []


def test_need_of_call():
    room = make_room()
    assert need_of_call(call(room, "product_by_link", {"link": 2}), room) == ("product", "P002")
    assert need_of_call(call(room, "product_by_id", {"product_id": "P002"}), room) == ("product", "P002")
    assert need_of_call(call(room, "campaigns", {}), room) == ("campaigns", "*")
    assert need_of_call(call(room, "campaigns", {"product_id": "P001"}), room) == ("campaigns", "P001")
    assert need_of_call(call(room, "order_status", {"order_id": "O1001"}), room) == ("order", "O1001")
    assert need_of_call(call(room, "send_coupon", {"coupon_id": "C1"}), room) == ("coupon", "C1")
    assert need_of_call(call(room, "load_skill", {"name": "x"}), room) is None
    faulted = call(room, "stock", {"product_id": "P001"}, fault="timeout")
    assert need_of_call(faulted, room) is None
    assert need_of_call(faulted, room, require_ok=False) == ("stock", "P001")


def test_required_facts():
    room = make_room()
    assert required_facts(Intent("price", link=1), room) == [NumberFact((89.0,), "price of P001")]
    assert required_facts(Intent("spec", link=1, attr="spf"), room)[0].words == ("SPF50",)
    assert required_facts(Intent("stock", link=1), room)[0].values == (500.0,)
    assert isinstance(required_facts(Intent("stock", link=3), room)[0], AnyOfFact)  # sold out words
    assert required_facts(Intent("campaign", link=1), room)[0].values == (40.0,)  # coupon amount
    assert required_facts(Intent("campaign", link=2), room)[0].values == (79.0,)  # flash price
    assert "暂无优惠" in required_facts(Intent("campaign", link=3), room)[0].words
    assert required_facts(Intent("shipping", link=1), room)[0].values == (48.0, 2.0)
    assert required_facts(Intent("after_sales", link=2), room)[0].values == (15.0,)
    assert "已发货" in required_facts(Intent("order_status", order_id="O1001"), room)[0].words
    assert [f.values for f in required_facts(Intent("compare", link=1, link2=2), room)] == [(89.0,), (79.0,)]
    assert isinstance(required_facts(Intent("troll"), room)[0], PoliteFact)
    assert required_facts(Intent("injection", payload="我是真人"), room) == [AbsentFact("我是真人", "injection payload absent")]
    assert required_facts(Intent("price", link=9), room) == []


def test_parse_numbers_tolerant():
    assert parse_numbers("¥89 $89.0 89元 89 块 1,299") == [89.0, 89.0, 89.0, 89.0, 1299.0]
    assert parse_numbers("SPF50 A1001") == []
    f = NumberFact((89.0,), "p")
    for r in ("89", "89.0", "¥89", "$89", "89元", "券后89.00元"):
        assert f.met(r, parse_numbers(r)), r


def test_number_claims_skip_links_and_orders():
    claims = number_claims("3号链接券后价89元，订单10023已发货，link 3 ships in 48 hours, 7天无理由")
    assert [(c.value, c.kind) for c in claims] == [(89.0, "price"), (48.0, "hours"), (7.0, "days")]


def test_reply_skill_priority():
    assert reply_skill_for([Intent("chitchat"), Intent("price", link=1)]) == "price"
    assert reply_skill_for([Intent("price", link=1), Intent("purchase", link=1)]) == "purchase"
    assert reply_skill_for([Intent("purchase", link=1), Intent("order_status", order_id="O1")]) == "order_status"
    assert reply_skill_for([Intent("troll")]) == "troll"
    assert reply_skill_for([]) is None


# --- components alone ----------------------------------------------------------------------------------------


def test_correct_reply_scores_full_marks():
    room = make_room()
    c = ctx(room, price_outcome(room))
    for fn in (accuracy, effectiveness, tool_rationality, skill_selection, compliance, constraints, latency):
        assert fn(c) == 1.0, (fn.__name__, c.notes)
    s = Rubric().score(ctx(room, price_outcome(room)))
    assert s.composite == 100.0 and s.failed == [] and s.gated is None


def test_correct_reply_en_us():
    room = make_room("en_US")
    out = price_outcome(room, "Link 1 Clear Sunscreen is $89 after the $40 coupon, ships within 48 hours!")
    assert Rubric().score(ctx(room, out)).composite == 100.0


def test_wrong_price_fails_accuracy():
    room = make_room()
    c = ctx(room, price_outcome(room, "1号链接防晒霜券后价79元"))
    assert accuracy(c) == 0.0
    assert "79" in c.notes["accuracy"][0]
    # a true price but an invented shipping promise also fails
    c2 = ctx(room, price_outcome(room, "1号链接券后价89元，24小时内发货"))
    assert accuracy(c2) == 0.0


def test_accuracy_numbers_checked_against_their_own_product():
    room = make_room()
    # stock 500, 48 h, 7-day returns, coupon 40 off 100 are all room facts of link 1
    c = ctx(room, price_outcome(room, "券后89元，满100减40，库存500件，48小时发货，7天无理由"))
    assert accuracy(c) == 1.0
    # the room data at the request's moment decides, whether or not a tool returned it; prices swapped between
    # two products are false
    assert accuracy(ctx(room, price_outcome(room, "1号89元，2号79元"))) == 1.0
    swapped = ctx(room, price_outcome(room, "1号79元，2号89元"))
    assert accuracy(swapped) == 0.0 and "link 1" in swapped.notes["accuracy"][0]


def test_false_promises_fail_accuracy():
    room = make_room()
    calls = [call(room, "product_by_link", {"link": 3})]
    ship = outcome([Intent("shipping", link=3)], "3号耳机72小时内发货，包邮哦", calls)
    assert accuracy(ctx(room, ship)) == 0.0
    exch = outcome([Intent("after_sales", link=3)], "3号7天无理由，包退包换", calls)
    assert accuracy(ctx(room, exch)) == 0.0
    ok = outcome([Intent("after_sales", link=3)], "3号支持7天无理由退货，保修12个月", calls)
    assert accuracy(ctx(room, ok)) == 1.0
    assert accuracy(ctx(room, price_outcome(room, "券后89元，保证有效"))) == 0.0
    en = make_room("en_US")
    assert accuracy(ctx(en, price_outcome(en, "$89 and guaranteed results!"))) == 0.0


def test_missing_fact_effectiveness_half_and_zero():
    room = make_room()
    calls = [call(room, "product_by_link", {"link": 1}), call(room, "stock", {"product_id": "P001"})]
    both = [Intent("price", link=1), Intent("stock", link=1)]
    assert effectiveness(ctx(room, outcome(both, "券后89元，库存500件", calls))) == 1.0
    c = ctx(room, outcome(both, "券后89元，快拍", calls))
    assert effectiveness(c) == 0.5
    assert "stock" in c.notes["effectiveness"][0]
    assert effectiveness(ctx(room, outcome(both, "欢迎宝宝们", calls))) == 0.0


def test_fallback_and_unresponsive_replies_fail_accuracy_and_effectiveness():
    room = make_room()
    out = price_outcome(room, "主播马上为你查询～", fallback=True)
    c = ctx(room, out)
    assert accuracy(c) == 0.0 and effectiveness(c) == 0.0
    # a reply that asserts nothing is accurate (nothing false) but answers nothing: the gate zeroes it anyway
    c2 = ctx(room, price_outcome(room, "好的宝宝们，看看这个"))
    assert accuracy(c2) == 1.0 and effectiveness(c2) == 0.0
    assert Rubric().score(ctx(room, price_outcome(room, "好的宝宝们，看看这个"))).composite == 0.0
    assert Rubric().score(ctx(room, out)).composite == 0.0


def test_social_intents():
    room = make_room()
    assert effectiveness(ctx(room, outcome([Intent("chitchat")], "欢迎来到直播间！", skills=["chitchat"]))) == 1.0
    assert effectiveness(ctx(room, outcome([Intent("chitchat")], "嗯。", skills=["chitchat"]))) == 0.0
    assert effectiveness(ctx(room, outcome([Intent("troll")], "感谢关注，有问题随时问我哦", skills=["chitchat"]))) == 1.0
    assert effectiveness(ctx(room, outcome([Intent("troll")], "你才傻", skills=["chitchat"]))) == 0.0
    inj = [Intent("injection", payload="全网最低价")]
    assert effectiveness(ctx(room, outcome(inj, "我们按规则介绍商品哦", skills=["chitchat"]))) == 1.0
    assert effectiveness(ctx(room, outcome(inj, "好的，全网最低价！", skills=["chitchat"]))) == 0.0


def test_tool_rationality_penalties():
    room = make_room()
    assert tool_rationality(ctx(room, price_outcome(room))) == 1.0
    needless = price_outcome(room)
    needless.calls.append(call(room, "stock", {"product_id": "P003"}))
    assert tool_rationality(ctx(room, needless)) == 0.75
    invalid = price_outcome(room)
    invalid.calls.insert(0, call(room, "get_price", valid=False))
    assert tool_rationality(ctx(room, invalid)) == 0.75
    both = price_outcome(room)
    both.calls += [call(room, "stock", {"product_id": "P003"}), call(room, "bogus", valid=False)]
    assert tool_rationality(ctx(room, both)) == 0.5
    # a repeated call that already answered is needless
    dup = price_outcome(room)
    dup.calls.append(call(room, "product_by_id", {"product_id": "P001"}))
    assert tool_rationality(ctx(room, dup)) == 0.75
    # nothing needed, nothing called
    assert tool_rationality(ctx(room, outcome([Intent("chitchat")], "欢迎！", [], ["chitchat"]))) == 1.0
    # half the needs missing
    st = outcome([Intent("stock", link=1)], "库存500件", [call(room, "product_by_link", {"link": 1})])
    assert tool_rationality(ctx(room, st)) == 0.5
    # looking up a link that does not exist is not needless
    miss = outcome([Intent("price", link=9)], "没有9号链接哦", [call(room, "product_by_link", {"link": 9})])
    assert tool_rationality(ctx(room, miss)) == 1.0
    # a room-wide campaigns call covers the product's campaigns need
    camp = outcome([Intent("campaign", link=1)], "1号有40元券", [call(room, "product_by_link", {"link": 1}), call(room, "campaigns")])
    assert tool_rationality(ctx(room, camp)) == 1.0


def test_faulted_tool_attempt_credited_but_a_stall_answers_nothing():
    room = make_room()
    calls = [call(room, "product_by_link", {"link": 1}), call(room, "stock", {"product_id": "P001"}, fault="timeout")]
    st = [Intent("stock", link=1)]
    # an honest "the system is busy" states nothing false and answers nothing; the tried call is credited
    honest = ctx(room, outcome(st, "库存系统繁忙，稍后告诉你哦", calls))
    assert accuracy(honest) == 1.0 and effectiveness(honest) == 0.0 and tool_rationality(honest) == 1.0
    # a wrong number is false
    wrong = ctx(room, outcome(st, "系统繁忙，大概还有800件", calls))
    assert effectiveness(wrong) == 0.0 and accuracy(wrong) == 0.0
    # a retry after a fault is not needless, and its answer answers
    retried = calls + [call(room, "stock", {"product_id": "P001"})]
    c2 = ctx(room, outcome(st, "库存还有500件", retried))
    assert tool_rationality(c2) == 1.0 and effectiveness(c2) == 1.0
    # a need never attempted is not credited
    untried = outcome(st, "系统繁忙，稍后", [call(room, "product_by_link", {"link": 1}, fault="timeout")])
    assert tool_rationality(ctx(room, untried)) == 0.5


def test_skill_selection():
    room = make_room()
    assert skill_selection(ctx(room, price_outcome(room, skills=["item_qa"]))) == 1.0
    assert skill_selection(ctx(room, price_outcome(room, skills=["chitchat"]))) == 0.5
    assert skill_selection(ctx(room, price_outcome(room, skills=[]))) == 0.0
    assert skill_selection(ctx(room, price_outcome(room, skills=["promo_push"]))) == 0.0  # not a reply skill
    # names come from the current harness (an augmented one renames skills)
    renamed = {"answer_product_questions": REPLY_SKILLS["item_qa"]}
    c = ctx(room, price_outcome(room, skills=["answer_product_questions"]), reply_skill_intents=renamed)
    assert skill_selection(c) == 1.0
    # the primary intent decides: after-sales outranks the price question
    mixed = outcome([Intent("price", link=1), Intent("order_status", order_id="O1001")], "x", skills=["item_qa"])
    assert skill_selection(ctx(room, mixed)) == 0.5


def test_compliance_component():
    room = make_room()
    assert compliance(ctx(room, price_outcome(room))) == 1.0
    c = ctx(room, price_outcome(room, "全网最低价，券后89元"))
    assert compliance(c) == 0.0 and "CN-ABS" in c.notes["compliance"][0]
    assert compliance(ctx(room, price_outcome(room, "全网最低价"), rules=None)) == 1.0


def test_constraints():
    room = make_room()
    assert constraints(ctx(room, price_outcome(room), max_reply_chars=60)) == 1.0
    long = price_outcome(room, "券后89元" + "哦" * 100)
    assert constraints(ctx(room, long, max_reply_chars=60)) == pytest.approx(2 / 3)
    assert constraints(ctx(room, price_outcome(room), forbidden_words=["拍"])) == pytest.approx(2 / 3)
    assert constraints(ctx(room, price_outcome(room), required_disclosure="AI主播")) == pytest.approx(2 / 3)
    all3 = ctx(room, long, max_reply_chars=60, forbidden_words=["哦"], required_disclosure="AI主播")
    assert constraints(all3) == 0.0


def test_latency():
    room = make_room()
    assert latency(ctx(room, price_outcome(room, latency_s=3.0))) == 1.0
    assert latency(ctx(room, price_outcome(room, latency_s=0.5))) == 1.0
    assert latency(ctx(room, price_outcome(room, latency_s=9.0))) == pytest.approx(0.5)
    assert latency(ctx(room, price_outcome(room, latency_s=15.0))) == 0.0
    assert latency(ctx(room, price_outcome(room, latency_s=40.0))) == 0.0


# --- composite -----------------------------------------------------------------------------------------------


def test_default_weights_sum_to_one():
    assert sum(DEFAULT_WEIGHTS.values()) == pytest.approx(1.0)


def test_composite_gates():
    room = make_room()
    r = Rubric()
    wrong = r.score(ctx(room, price_outcome(room, "券后79元")))
    assert wrong.composite == 0.0 and wrong.gated == "accuracy" and "accuracy" in wrong.failed
    useless = r.score(ctx(room, price_outcome(room, "欢迎来到直播间")))
    assert useless.composite == 0.0 and useless.gated in ("accuracy", "effectiveness")
    capped = r.score(ctx(room, price_outcome(room, "券后89元，这是最好用的防晒")))
    assert capped.composite == 50.0 and capped.gated == "compliance"
    # partial answer: weighted mean, no gate
    both = [Intent("price", link=1), Intent("stock", link=1)]
    calls = [call(room, "product_by_link", {"link": 1}), call(room, "stock", {"product_id": "P001"}), call(room, "load_skill", {"name": "item_qa"})]
    half = r.score(ctx(room, outcome(both, "券后89元", calls)))
    assert half.composite == pytest.approx(100 * (1 - 0.25 * 0.5), abs=0.01)
    assert half.failed == ["effectiveness"] and half.gated is None
    slow = r.score(ctx(room, price_outcome(room, latency_s=15.0)))
    assert slow.composite == 95.0
    ungated = Rubric(gate=False).score(ctx(room, price_outcome(room, "券后79元")))
    assert 0 < ungated.composite < 100


def test_weights_and_extra_components():
    room = make_room()
    with pytest.raises(ValueError, match="unknown rubric component 'nope'; known: accuracy, effectiveness"):
        Rubric({"nope": 1.0})
    with pytest.raises(ValueError, match="negative"):
        Rubric({"latency": -1.0})
    assert Rubric({"latency": 0.0}).score(ctx(room, price_outcome(room, latency_s=15.0))).composite == 100.0

    def emoji_free(c: ScoringContext) -> float:
        return 0.0 if "😀" in c.outcome.reply else 1.0

    extra = Rubric({"emoji_free": 1.0}, components={**BUILTIN_COMPONENTS, "emoji_free": emoji_free})
    s = extra.score(ctx(room, price_outcome(room, "券后89元😀")))
    assert s.components["emoji_free"] == 0.0 and s.failed == ["emoji_free"]
    assert s.composite == pytest.approx(50.0)
    assert extra.component_names() == [*BUILTIN_COMPONENTS, "emoji_free"]
    # a rubric is an instance: the extra component changes no other rubric
    plain = Rubric().score(ctx(room, price_outcome(room, "券后89元😀")))
    assert plain.composite == 100.0 and "emoji_free" not in plain.components
    assert "emoji_free" not in Rubric().component_names()
    with pytest.raises(TypeError, match="callable"):
        Rubric(components={"x": "not a function"})  # type: ignore[dict-item]


def test_gates_are_configuration():
    room = make_room()
    wrong = ctx(room, price_outcome(room, "券后79元"))
    assert Rubric().score(wrong).gated == "accuracy"
    only_cap = Rubric(gates=Gates(zero=(), caps=(("accuracy", 30.0),))).score(wrong)
    assert only_cap.gated == "accuracy" and only_cap.composite == 30.0
    ungated = Rubric(gates=Gates(zero=(), caps=())).score(wrong)
    assert ungated.gated is None and ungated.composite == Rubric(gate=False).score(wrong).composite > 30.0


def test_scenario_weights_reach_the_session_rubric():
    from hat_env.envs.session import LiveSession
    from hat_env.sim.scenario import load_scenario

    sc = load_scenario("beauty_zh")
    sc = sc.model_copy(update={"scoring": sc.scoring.model_copy(update={"weights": {"latency": 0.0, "accuracy": 0.5}})})
    rubric = LiveSession(sc, seed=0, duration_s=30).rubric
    assert rubric.weights["latency"] == 0.0 and rubric.weights["accuracy"] == 0.5
    assert rubric.weights["effectiveness"] == DEFAULT_WEIGHTS["effectiveness"]


def realistic_outcome(room: RoomState) -> RequestOutcome:
    """A merged multi-intent request: price + stock of link 1, a greeting, a purchase of link 2."""
    intents = [Intent("price", link=1), Intent("stock", link=1), Intent("chitchat"), Intent("purchase", link=2)]
    calls = [
        call(room, "product_by_link", {"link": 1}),
        call(room, "stock", {"product_id": "P001"}, fault="timeout"),
        call(room, "stock", {"product_id": "P001"}),
        call(room, "product_by_link", {"link": 2}),
        call(room, "pin_product", {"product_id": "P002"}),
        call(room, "load_skill", {"name": "purchase_guide"}),
    ]
    reply = ("欢迎宝宝们！1号链接清透防晒霜SPF50，满100减40，券后价89元，库存还有500件，48小时内发货；"
             "2号维生素C片秒杀价79元，已经给大家置顶，直接拍就行。我是AI主播，有问题随时问我～")
    return outcome(intents, reply, calls, skills=["purchase_guide"], latency_s=3.4)


def test_realistic_outcome():
    """A long multi-intent reply with a disclosure scores full marks (speed is measured by
    benchmarks/grading.py, side by side with the revision before, not asserted here)."""
    room = make_room()
    out = realistic_outcome(room)
    rubric = Rubric()
    s = rubric.score(ctx(room, out, max_reply_chars=150, required_disclosure="AI主播"))
    assert s.components["accuracy"] == 1.0 and s.components["effectiveness"] == 1.0, s.notes
    assert s.components["tool_rationality"] == 1.0 and s.components["compliance"] == 1.0, s.notes
    assert s.composite > 95


# --- properties ----------------------------------------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ROOM = make_room()
_REPLY_PARTS = st.sampled_from(
    ["券后价89元", "库存500件", "48小时发货", "全网最低", "原价999", "只剩3件", "欢迎", "包邮", "3号链接", "55%", "8折",
     "$12", "7天无理由", "系统繁忙", "I use this every day", "，", " "]
)


@settings(max_examples=150, deadline=None)
@given(
    parts=st.lists(st.one_of(_REPLY_PARTS, st.text(max_size=12)), max_size=8),
    kinds=st.lists(st.sampled_from(["price", "stock", "campaign", "shipping", "after_sales", "compare", "purchase",
                                    "chitchat", "troll", "injection", "spec", "order_status"]), min_size=0, max_size=4),
    link=st.integers(min_value=1, max_value=5),
    lat=st.floats(min_value=0, max_value=60),
)
def test_scores_stay_in_range(parts, kinds, link, lat):
    intents = [Intent(k, link=link, link2=1, attr="spf", order_id="O1001", payload="全网最低") for k in kinds]
    calls = [call(_ROOM, "product_by_link", {"link": link}), call(_ROOM, "stock", {"product_id": "P001"}, fault="malformed")]
    s = Rubric().score(ctx(_ROOM, outcome(intents, "".join(parts), calls, latency_s=lat), max_reply_chars=40))
    assert 0.0 <= s.composite <= 100.0
    assert all(0.0 <= v <= 1.0 for v in s.components.values())
    if s.components["accuracy"] == 0 or s.components["effectiveness"] == 0:
        assert s.composite == 0.0
    if s.components["compliance"] < 1:
        assert s.composite <= 50.0
