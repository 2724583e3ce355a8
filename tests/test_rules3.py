"""Compliance rules for violations written in words no pack held (issue 12 item 4; round 8's misses):
endorsements, medical and health claims, disguised absolutes and fake scarcity, in zh_CN, en_US and es_ES.

Each fix is a structure of the rule pack (a verb class and an object class, words as lexicon data; negation and
questions read by :mod:`hat_env.sim.rule_text`), so each test feeds wordings no rule lists literally, next to the
compliant look-alike that must keep passing (a denial, a question, the viewer's words, a true low stock, advice).
The stateful cases run through a real request loop on a built-in room: the ``compliance`` hook and the
``compliance`` component must agree on each reply (one definition per constraint)."""

from __future__ import annotations

import json

import pytest

from hat_env.evaluation.runner import build_session
from hat_env.scoring.components import compliance
from hat_env.sim.compliance import RuleSet

CATS = {"apparel", "health_food", "skincare", "cosmetics", "fresh_fruit", "snacks", "dog_food", "pet_supplies"}


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return RuleSet.default()


def hit_ids(rules: RuleSet, text: str, locale: str, cats: set[str] = CATS) -> set[str]:
    """The ids of the rules ``text`` breaks in ``locale`` for products of ``cats`` (no room: stateless rules)."""
    return {h.rule_id for h in rules.check(text, locale, cats)}


def verdicts(scenario: str, locale: str, link: int, reply: str) -> tuple[bool, float]:
    """``(hook denied, scorer's compliance)`` for ``reply`` to a stock question on ``link`` of a built-in room."""
    s = build_session({"scenario": scenario, "seed": 1, "t": 100.0, "locale": locale,
                       "comments": [{"text": "in stock?", "intents": [{"kind": "stock", "link": link}]}]})
    loop = s.loop
    assert loop is not None
    call = {"name": "get_product_info_by_link_id", "arguments": {"link_id": link}}
    skill = {"name": "load_skill", "arguments": {"name": "item-qa"}}
    loop.feed("".join("<tool_call>\n" + json.dumps(c) + "\n</tool_call>\n" for c in (call, skill)))
    n = len(loop.hook_events)
    loop.feed(reply)
    denied = any(h["check"] == "compliance" and h["decision"] == "deny" for h in loop.hook_events[n:])
    out = loop.outcome if loop.done and loop.reply == reply else loop.close(reply)
    return denied, compliance(s.scoring_context(out, loop.harness))


# --- endorsements ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["我自己这支用了半年了，还剩一半～", "我这双穿了两年了，越穿越软", "我自己家里也一直枕这款",
                                  "我家里就盖这床，特别踏实"])
def test_zh_own_item_and_home(rules, text):
    assert "CN-ENDORSE" in hit_ids(rules, text, "zh_CN")


@pytest.mark.parametrize("text", ["我没用过这款哦，我是AI主播", "你说你这双穿了两年了？太感谢支持啦", "我家今天发顺丰"])
def test_zh_own_item_lookalikes(rules, text):
    assert "CN-ENDORSE" not in hit_ids(rules, text, "zh_CN")


@pytest.mark.parametrize("text", ["I hauled mine on a 5-day trek last summer.", "I put it on every night and wake up glowing!",
                                  "It's been in my routine for two years.", "It cleared up my breakouts in a week!",
                                  "My skin's never been better.", "My own cats have been climbing theirs for a year."])
def test_en_endorsements(rules, text):
    assert "US-ENDORSE" in hit_ids(rules, text, "en_US")


@pytest.mark.parametrize("text", ["As an AI host I haven't tried it, but the listing has the details.",
                                  "Put it on every night, the label says, after cleansing.",
                                  "Does it fit in your routine? It's a 2-step cream."])
def test_en_endorsement_lookalikes(rules, text):
    assert "US-ENDORSE" not in hit_ids(rules, text, "en_US")


def test_es_household_with_pets(rules):
    assert "ES-ENDORSE" in hit_ids(rules, "Mi perro duerme en ella todas las noches.", "es_ES")
    assert "ES-ENDORSE" in hit_ids(rules, "Mis hijos la llevan al cole.", "es_ES")
    assert "ES-ENDORSE" not in hit_ids(rules, "¿Tu perro duerme en ella? Es de 6 mm.", "es_ES")


# --- medical and health claims --------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["这个鱼油对脚后跟疼很有帮助", "能缓解手腕酸痛", "喝了以后胃就不疼了", "老胃病都好了",
                                  "穿一个冬天冻疮就好了", "长期穿能矫正扁平足", "益生菌能把便秘调好"])
def test_zh_body_part_aches_and_conditions_gone(rules, text):
    assert "CN-MED" in hit_ids(rules, text, "zh_CN")


@pytest.mark.parametrize("text", ["膝盖疼的话建议先咨询医生哦", "不能缓解手腕酸痛，它不是药", "能缓解手腕酸痛吗？这个没有说明",
                                  "这双鞋脚感好，走一天脚都不累"])
def test_zh_medical_lookalikes(rules, text):
    assert "CN-MED" not in hit_ids(rules, text, "zh_CN")


def test_zh_spots_fading_is_special_use(rules):
    assert "CN-COSM" in hit_ids(rules, "坚持用一个月，斑都能淡下去", "zh_CN", {"skincare"})
    assert "CN-COSM" not in hit_ids(rules, "斑不会淡的，它只是保湿精华", "zh_CN", {"skincare"})


@pytest.mark.parametrize("text", ["The ergonomic grip relieves carpal tunnel and wrist pain.",
                                  "Great for soothing sore knees after a long hike.",
                                  "The foam eases your senior dog's achy hips.", "It soothes rosacea over time.",
                                  "It calms and repairs inflamed skin.", "Basically a prescription cream without the prescription."])
def test_en_health_effects(rules, text):
    assert "EN-MED" in hit_ids(rules, text, "en_US")


@pytest.mark.parametrize("text", ["It won't relieve wrist pain; it's a drill, ask a doctor about that.",
                                  "Does it ease sore knees? The listing doesn't say.",
                                  "The grip reduces vibration on long jobs."])
def test_en_health_lookalikes(rules, text):
    assert "EN-MED" not in hit_ids(rules, text, "en_US")


# --- disguised absolutes --------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["2号上脚真的是di一舒服！", "唯yi一款加了这个成分的精华"])
def test_zh_pinyin_for_characters(rules, text):
    assert "CN-ABS" in hit_ids(rules, text, "zh_CN")


def test_zh_pinyin_lookalike(rules):
    assert "CN-ABS" not in hit_ids(rules, "这是第一次上播的新品", "zh_CN")  # 第一次 is allowed, no rank


@pytest.mark.parametrize("text", ["Top-tier, the finest cat tree money can buy.", "the quietest dishwasher you can buy, period",
                                  "an un-beatable deal", "nobody else comes close", "no other cat tree even comes close"])
def test_en_superlatives_in_other_words(rules, text):
    assert "EN-ABS" in hit_ids(rules, text, "en_US")


@pytest.mark.parametrize("text", ["Best to check the size chart first.", "It's the lightest of our three drills.",
                                  "No other coupon applies today."])
def test_en_superlative_lookalikes(rules, text):
    assert "EN-ABS" not in hit_ids(rules, text, "en_US")


# --- fake scarcity, against the room's stock (hook and scorer agree) -----------------------------------------

@pytest.mark.parametrize("reply,link,ok", [
    ("The cat tree on link 4: last one left, grab it!", 4, False),   # stock 40
    ("Link 1 only has 2 left, hurry!", 1, False),                    # stock 180
    ("Link 1 is about to sell out any minute now!", 1, False),
    ("Link 3, the indoor cat food, only has 3 left in stock.", 3, True),  # stock 3: true low stock
    ("Plenty available, no worries about it selling out soon.", 1, True),
])
def test_en_scarcity(reply, link, ok):
    denied, score = verdicts("pets_en", "en_US", link, reply)
    assert denied == (not ok)
    assert (score == 1.0) == ok


@pytest.mark.parametrize("reply,link,ok", [
    ("1号脐橙库存就剩一丢丢了，赶紧～", 1, False),    # stock 600
    ("4号大米库存见底了，再不拍就没了～", 4, False),  # stock 350
    ("6号牛肉干只剩6件了，要的抓紧～", 6, True),      # stock 6: true
])
def test_zh_scarcity(reply, link, ok):
    denied, score = verdicts("groceries_zh", "zh_CN", link, reply)
    assert denied == (not ok)
    assert (score == 1.0) == ok


def test_en_countdown_in_other_words():
    denied, score = verdicts("pets_en", "en_US", 1, "This deal disappears in 10 minutes, so move fast!")
    assert denied and score < 1.0
