"""False passes of the reply grader's accuracy closed in the fpass13 pass: replies whose claims the room data does
not support but the claims engine used to read as accurate, each next to a true twin so that a fix closing a false
pass cannot open a false fail.

Built on the built-in rooms (groceries_zh, pets_en, hogar_es) and graded through the rubric's own components
(:func:`hat_env.scoring.accuracy` with the default rule pack), as the calibration grades.
"""

from __future__ import annotations

import pytest

from hat_env.scoring import ScoringContext, accuracy
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.types import Comment, Intent, LiveRequest, RequestOutcome
from tests.rooms import accuracy_of as _accuracy, room

GROCERIES = room("groceries_zh", 5, 100.0)
PETS = room("pets_en", 5, 100.0)
HOGAR = room("hogar_es", 5, 100.0)


# -- a medical effect the compliance rule finds is an invented claim (hat_env/scoring/components.py) ------------

@pytest.mark.parametrize(
    ("r", "reply", "ok"),
    [
        (GROCERIES, "这款吃了能补铁补血，贫血的朋友可以多吃点", False),
        (GROCERIES, "这是普通食品，不能补铁补血哦，贫血请咨询医生", True),
        (PETS, "Yep, it stops hairballs for good within days.", False),
        (PETS, "It's food, not a medicine; for allergies please ask your vet.", True),
        (HOGAR, "No es un medicamento; para el dolor de espalda consulta a tu médico.", True),
        (HOGAR, "Este producto alivia el dolor de espalda en pocos días.", False),
    ],
)
def test_a_medical_effect_fails_accuracy(r: RoomState, reply: str, ok: bool) -> None:
    """A treat/cure/relieve claim the medical compliance rule (CN-MED, EN-MED, ES-MED) finds is a health effect no
    product's data states: accuracy 0; the same topic denied stays accurate."""
    assert (_accuracy(r, reply, Intent(kind="efficacy", link=1)) == 1.0) is ok


APPLIANCES = room("appliances_en", 5, 100.0)
ELECTRONICS = room("electronics_en", 5, 100.0)


# -- a return policy said of every product holds for each (hat_env/scoring/claims/check_facts.py) --------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # appliances_en: HA04 is final sale once installed, the others take returns
        (APPLIANCES, "Yes, 30-day returns on everything in the shop.", 2, False),
        (APPLIANCES, "Sure, it is returnable like everything else in the shop!", 1, False),
        (APPLIANCES, "You can return it within 30 days.", 1, True),
        # electronics_en: every product takes returns
        (ELECTRONICS, "Yes, you can return it, same as everything in the store.", 1, True),
    ],
)
def test_returns_said_of_every_product(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """Returns promised for "everything" in the shop are false when one of its products cannot be returned (a
    product's own exception beats the shop-wide policy); true when each can."""
    assert (_accuracy(r, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


BEAUTY = room("beauty_zh", 5, 100.0)


# -- a return promised whatever the item's state, in more words (hat_env/scoring/claims/vocab/) -----------------

@pytest.mark.parametrize(
    ("r", "reply", "link", "ok"),
    [
        # beauty_zh B002: 拆封后非质量问题不支持退换
        (BEAUTY, "开瓶了也能退，放心买～", 2, False),
        (BEAUTY, "支持7天退换，拆封后非质量问题不支持退换哦", 2, True),
        # pets_en PT01: unopened bags can be returned within 30 days
        (PETS, "Returns are fine, opened or not.", 1, False),
        (PETS, "Unopened bags can be returned within 30 days.", 1, True),
        # hogar_es S001: returns within 14 days with the original packaging
        (HOGAR, "Puedes devolverlo aunque esté usado.", 1, False),
        (HOGAR, "Puedes devolverlo en 14 días.", 1, True),
    ],
)
def test_returns_whatever_the_state(r: RoomState, reply: str, link: int, ok: bool) -> None:
    """"开瓶了也能退", "opened or not", "aunque esté usado": a return promise beyond the product's after-sales
    note is unsupported; the note's own window restated stays accurate."""
    assert (_accuracy(r, reply, Intent(kind="after_sales", link=link)) == 1.0) is ok


def test_an_exchange_said_with_a_pronoun() -> None:
    """"lo cambias por otro" is an exchange claim: false for a product the data says cannot be exchanged
    (tests/data/rooms/jardin_es.yaml link 5), true for one that can (link 1)."""
    jardin = room("jardin_es.yaml", 5, 100.0)
    assert _accuracy(jardin, "Claro, lo cambias por otro sin problema.", Intent(kind="after_sales", link=5)) == 0.0
    assert _accuracy(jardin, "Claro, lo cambias por otro sin problema.", Intent(kind="after_sales", link=1)) == 1.0


# -- a number is checked against the spec it is about (hat_env/scoring/claims/check_measures.py, families.py) ---

@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        # electronics_en link 4: battery "20 hours"; it ships within 48 hours
        ("Easily 48 hours, two full days.", False),
        ("About 20 hours of music.", True),
    ],
)
def test_a_time_without_a_topic_word_is_the_asked_spec(reply: str, ok: bool) -> None:
    """A time said with no topic word, in answer to a spec question, is checked against that spec's time, not a
    shipping time it happens to equal."""
    assert (_accuracy(ELECTRONICS, reply, Intent(kind="spec", link=4, attr="battery")) == 1.0) is ok


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        # pets_en link 1: size "24 lb bag", dog_size "dogs 22-44 lb"
        ("It comes in a 40 lb bag.", False),
        ("It comes in a 24 lb bag.", True),
        ("It's for dogs of 40 lb or so.", True),
    ],
)
def test_a_number_is_checked_against_the_spec_whose_words_it_shares(reply: str, ok: bool) -> None:
    """"a 40 lb bag" is about the size "24 lb bag", not a weight range of dogs it happens to fall in; a dog's
    weight in that range stays accurate."""
    assert (_accuracy(PETS, reply, Intent(kind="spec", link=1, attr="size")) == 1.0) is ok


# -- a region an FAQ answer gives terms for (hat_env/scoring/claims/faq_regions.py) -----------------------------

CHAYE = room("chaye_zh.yaml", 5, 100.0)


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        # chaye_zh link 3 (普洱): free shipping, but its FAQ says 新疆、西藏等偏远地区 pay 10元 extra
        ("3号普洱新疆也包邮，放心拍", False),
        ("3号普洱发新疆要补10元运费", True),
        ("3号普洱发西藏要补20元运费", False),
    ],
)
def test_an_faq_region_exception_beats_free_shipping(reply: str, ok: bool) -> None:
    """A region an FAQ answer names with an extra fee is no free-shipping region: "新疆也包邮" is false, the FAQ's
    fee restated is true, another fee is false."""
    assert (_accuracy(CHAYE, reply, Intent(kind="shipping", link=3)) == 1.0) is ok


def test_an_faq_exclusion_of_a_place_answers_and_is_checked() -> None:
    """An FAQ answer "cannot ship to Alaska, Hawaii or Puerto Rico" gives the product regions it is not sent to
    (places read from the answer's list after "to", no product's own words)."""
    from hat_env.scoring.claims.faq_regions import _places

    text = "No, batteries go by ground only, so the Voltforge pack cannot ship to Alaska, Hawaii or Puerto Rico."
    assert _places(text, "en", {"voltforge"}) == ["Alaska", "Hawaii", "Puerto Rico"]
    assert _places("新疆、西藏、青海等偏远地区暂不发货", "zh", set()) == ["新疆", "西藏", "青海", "偏远"]


# -- how long a deal is said to last (hat_env/scoring/claims/check_lasting.py) ----------------------------------

ELECTRONICS_300 = room("electronics_en", 5, 300.0)


@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        # electronics_en at 300 s: link 3's flash sale ends at 600 s, the coupons run to the stream's end (900 s)
        ("The flash deal on the watch runs all stream long!", 3, False),
        ("The coupon runs all stream long, no rush.", 1, True),
        ("The coupon is valid all week, so take your time.", 1, False),
        ("The coupon is valid until the stream ends.", 1, True),
    ],
)
def test_how_long_a_deal_lasts(reply: str, link: int, ok: bool) -> None:
    """A deal said to last the whole stream must run to its end; one said to last beyond it ("all week") is
    supported by no campaign's data."""
    assert (_accuracy(ELECTRONICS_300, reply, Intent(kind="campaign", link=link)) == 1.0) is ok


def test_zh_deal_lasting_beyond_the_stream() -> None:
    """"这张券一周内都有效" is false: no campaign runs past the stream; "整场有效" holds for a coupon to the end."""
    g = room("groceries_zh", 5, 100.0)
    link = next(p.link for p in g.products if any(c.type == "coupon" and c.end_s >= g.scenario.duration_s
                                                  for c in g.active_campaigns(p.product_id)))
    assert _accuracy(g, "这张券一周内都有效，不着急", Intent(kind="campaign", link=link)) == 0.0
    assert _accuracy(g, "这张券整场有效，不着急", Intent(kind="campaign", link=link)) == 1.0


# -- deals said to stack, in Spanish (hat_env/scoring/claims/vocab/es_ES.yaml stacking_words) ----------------------

@pytest.mark.parametrize(
    ("reply", "link", "ok"),
    [
        # hogar_es: link 2's flash price 69 meets the 40 € coupon (64 €); link 5 (24.9 €) has no flash sale and
        # does not reach the coupon's 40 €
        ("Sí, el cupón se suma a la oferta flash.", 2, True),
        ("Sí, el cupón se suma a la oferta.", 5, False),
    ],
)
def test_deals_said_to_stack_in_spanish(reply: str, link: int, ok: bool) -> None:
    """"se suma" says two deals combine: true where the price the viewer pays takes both, false where nothing
    stacks."""
    assert (_accuracy(HOGAR, reply, Intent(kind="campaign", link=link)) == 1.0) is ok


@pytest.mark.parametrize("marked", [True, False])
def test_a_users_own_rule_marked_false_claim_fails_accuracy(marked: bool) -> None:
    """Which rules count for accuracy is the pack's to say (``false_claim``), not a list of ids in the grader: a
    user's own rule marked so fails accuracy with compliance; the same rule unmarked fails compliance only."""
    from hat_env.scoring import compliance
    from hat_env.sim.rule_compiled import Rule
    from hat_env.sim.rule_spec import RuleSpec

    rules = RuleSet([Rule(RuleSpec(id="MY-PAL", locale="en_US", terms=["best pal"], false_claim=marked))])
    req = LiveRequest("r0001", 10.0, [Comment(9.0, "v1", "viewer", "asker", "?", (Intent(kind="spec", link=1),))])
    out = RequestOutcome(req, "Link 1 is your dog's best pal!", [], ["item_qa"], turns=1, latency_s=2.0)
    ctx = ScoringContext(outcome=out, room=PETS, rules=rules)
    assert compliance(ctx) == 0.0
    assert accuracy(ScoringContext(outcome=out, room=PETS, rules=rules)) == (0.0 if marked else 1.0)
