"""The open catalog schema: vocabularies (categories, typed spec attributes, units, how values compare), shipping
windows, no-returns and warranty units, codes, bundles and stacking rules in the price, what the tools return for
them, how the reference answers them, and the validation errors (file, field, line) of what a scenario declares."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.agents.reference import ReferenceAgent
from hat_env.agents.reply import ReplyPart, compose_reply
from hat_env.evaluation.runner import run_case
from hat_env.envs.session import LiveSession
from hat_env.sim import vocab
from hat_env.sim.campaigns import Campaign, StackingRules, quote
from hat_env.sim.catalog import Product
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario, scenarios_dir
from hat_env.sim.tools import ToolBackend
from hat_env.sim.vocabulary import default_vocabulary, resolve_vocabulary
from hat_env.types import Intent
from hat_env.yamlio import FileError

# --- the default vocabulary ---------------------------------------------------------------------------------


def test_default_vocabulary_is_todays_categories_and_keys():
    v = default_vocabulary()
    assert set(v.categories) == {"cosmetics", "skincare", "health_food", "electronics", "apparel", "food", "home"}
    assert len(v.attributes) == 13 and v.attribute("shade").label("zh_CN") == "色号"
    assert vocab.SPEC_ATTRS["skin_type"]["zh_CN"] == ["适合什么肤质", "肤质"]  # the old table, read from the data
    assert v.attribute("weight").type == "number" and v.attribute("color").type == "list"


@pytest.mark.parametrize(("attr", "value", "said", "ok"), [
    ("weight", "1.5 kg", "about 3.3 lbs", True),  # numeric, converted
    ("weight", "1.5 kg", "1500g", True),
    ("weight", "1.5 kg", "2 kg", False),
    ("shelf_life", "3年", "36个月", True),
    ("shelf_life", "24 months", "2 years", True),
    ("shelf_life", "24 months", "18 months", False),
    ("color", "black, white", "comes in White", True),  # list: any item, fuzzy
    ("color", "black, white", "red", False),
    ("material", "90% down", "90 % Down", True),  # fuzzy: spaces and case ignored
])
def test_values_compare_as_declared(attr, value, said, ok):
    v = default_vocabulary()
    assert v.matches(v.attribute(attr), value, said) is ok


def test_ranges_compare_both_ends_with_units():
    sc = load_scenario("pets_en")
    v, a = sc.vocab, sc.vocab.attribute("dog_size")
    assert v.matches(a, "dogs 22-44 lb", "dogs 10-20 kg")
    assert v.matches(a, "dogs 22-44 lb", "22 to 44 pounds")
    assert not v.matches(a, "dogs 22-44 lb", "dogs 22-50 lb")
    assert v.check_value(a, "5 kg to 9 kg") is not None  # two quantities are not one range
    assert v.check_value(a, "dogs 10-20 ml") is not None  # not a weight


def test_numbers_with_thousands_groups_are_one_number():
    """"1,200 lb" and "0-1,800 RPM" are one quantity each (an English thousands group, not two numbers), in a
    room's value and in what is said; a list of numbers stays a list."""
    v = default_vocabulary()
    w = v.attribute("weight")
    assert v.check_value(w, "1,200 g") is None
    assert v.matches(w, "1,200 g", "1.2 kg") and not v.matches(w, "1,200 g", "200 g")
    assert [(q.low, q.high) for q in v.quantities("0-1,800 rpm")] == [(0.0, 1800.0)]
    assert [(q.low, q.high) for q in v.quantities("sizes 1,800, 2,000 and 12,500.5")] == [
        (1800.0, 1800.0), (2000.0, 2000.0), (12500.5, 12500.5)]
    assert [q.low for q in v.quantities("1,2,3")] == [1.0, 2.0, 3.0]


# --- prices: codes, bundles, stacking ----------------------------------------------------------------------


def _product(pid: str = "P1", price: float = 100.0) -> Product:
    return Product(product_id=pid, link=1, title="Kettle", brand="Acme", category="home", price=price,
                   list_price=price, stock=10)


def _c(cid: str, kind: str, **kw) -> Campaign:
    return Campaign(campaign_id=cid, type=kind, title=cid, **kw)


def test_flash_sale_is_automatic_and_a_coupon_only_stacks_when_the_rules_say_so():
    p = _product()
    camps = [_c("F", "flash_sale", flash_price=80), _c("C", "coupon", amount=30, threshold=50)]
    assert quote(camps, p, 0).total == 50  # default rules: coupon + flash sale
    q = quote(camps, p, 0, rules=StackingRules([("code", "bundle")]))
    assert (q.total, q.coupon) == (80, None)  # the flash price applies, the coupon cannot join it


def test_bundle_price_and_the_cheaper_of_flash_and_bundle():
    p = _product()
    b = _c("B", "bundle", bundle_qty=2, bundle_discount_pct=25)
    code = _c("K", "code", code="SAVE5", amount=5)
    q = quote([b, code], p, 0, qty=2)
    assert (q.total, q.bundle, q.code) == (145, b, code)  # 200 x 0.75 - 5: code + bundle stack by default
    assert quote([b, code], p, 0, qty=1).bundle is None  # one unit does not reach the bundle
    flash = _c("F", "flash_sale", flash_price=70)
    q2 = quote([b, flash], p, 0, qty=2)
    assert (q2.total, q2.flash, q2.bundle) == (140, flash, None)  # 2 x 70 beats 150: they do not stack


def test_code_or_coupon_whichever_pays_less():
    p = _product()
    camps = [_c("C", "coupon", amount=10), _c("K", "code", code="BIG15", amount=15, threshold=90)]
    q = quote(camps, p, 0)
    assert (q.total, q.coupon, q.code.code) == (85, None, "BIG15")
    both = quote(camps, p, 0, rules=StackingRules([("coupon", "code")]))
    assert both.total == 75


# --- tools --------------------------------------------------------------------------------------------------


def _room(name: str, t: float = 0.0) -> tuple[RoomState, ToolBackend]:
    sc = load_scenario(name)
    room = RoomState(sc, random.Random(0))
    room.t = t
    return room, ToolBackend(room, None, random.Random(0))


def test_campaigns_tool_states_bundle_price_and_stacking():
    room, be = _room("pets_en")
    views = {c["campaign_id"]: c for c in be.execute("campaigns", {"product_id": "PT01"})["campaigns"]}
    b = views["BDL-DOGFOOD"]
    assert b["bundle_price"] == 88.98 and b["bundle_price_with"] == ["CODE-PAW10"]
    assert b["stacks_with"] == ["CODE-PAW10"] and b["does_not_stack_with"] == ["CPN-5-OFF-40"]
    assert views["CODE-PAW10"]["code"] == "PAW10" and "BDL-DOGFOOD" in views["CODE-PAW10"]["stacks_with"]
    assert "stacks_with" not in views["CPN-5-OFF-40"]
    prod = be.execute("product_by_link", {"link": 1})
    assert prod["final_price"] == 44.99 and prod["code"]["code"] == "PAW10" and prod["coupon"] is None


def test_shipping_and_after_sales_records_list_what_a_product_uses():
    room, be = _room("appliances_en")
    fridge = be.execute("shipping_policy", {"product_id": "HA04"})
    assert fridge["ships_in"] == {"min": 7, "max": 10, "unit": "days"} and fridge["ships_within_hours"] == 240
    assert (fridge["oversize_fee"], fridge["installation_fee"]) == (79, 99)
    assert be.execute("after_sales_policy", {"product_id": "HA04"})["warranty"] == {"value": 1, "unit": "years"}
    plain = be.execute("shipping_policy", {"product_id": "HA01"})
    assert set(plain) == {"ships_within_hours", "carrier", "free_shipping", "fee"}  # the record rooms always had


# --- the reply composer and the reference -------------------------------------------------------------------


def test_windows_no_returns_and_warranty_units_read_right():
    ship = {"ships_within_hours": 168, "ships_in": {"min": 5, "max": 7, "unit": "days"}, "carrier": "FedEx",
            "free_shipping": True, "fee": 0, "oversize": True, "oversize_fee": 30}
    en = compose_reply([ReplyPart(Intent("shipping", link=3), ship)], "en_US", 200)
    assert "ships in 5-7 days" in en and "$30 oversize fee" in en and "168" not in en
    zh = compose_reply([ReplyPart(Intent("shipping", link=3), ship)], "zh_CN", 200)
    assert "5-7天发货" in zh
    none = {"return_days": 0, "exchange": False, "warranty_months": 24, "warranty": {"value": 2, "unit": "years"}}
    en = compose_reply([ReplyPart(Intent("after_sales", link=3), none)], "en_US", 200)
    assert "no returns" in en and "2-year warranty" in en and "0-day" not in en
    zh = compose_reply([ReplyPart(Intent("after_sales", link=3), none)], "zh_CN", 200)
    assert "不支持退货" in zh and "保修2年" in zh and "0天" not in zh


def _ask(scenario: str, text: str, t: float = 10.0) -> dict:
    sc = load_scenario(scenario)
    intents = [i.to_dict() for i in parse_comment(text, sc.locale, vocabulary=sc.vocab)]
    case = {"id": "t/0", "suite": "t", "category": "t", "scenario": scenario, "locale": sc.locale, "seed": 1,
            "t": t, "comments": [{"viewer": "v", "persona": "price_asker", "text": text, "intents": intents}]}
    return run_case(case, ReferenceAgent())


def test_reference_answers_a_bundle_question_with_the_bundle():
    rec = _ask("pets_en", "is link 1 part of a bundle?")
    assert "$88.98" in rec["reply"] and "PAW10" in rec["reply"] and "no coupon" not in rec["reply"]
    assert rec["components"]["tool_rationality"] == 1.0


def test_reference_answers_whether_the_code_works_with_the_bundle():
    assert parse_comment("does PAW10 work with the bundle?", "en_US", vocabulary=load_scenario("pets_en").vocab) == [
        Intent("campaign", attr="bundle")]
    rec = _ask("pets_en", "does PAW10 work with the bundle?")
    assert rec["reply"].startswith("The bundle: buy 2, 10% off the set, code PAW10 works with it")
    assert "$5 coupon doesn't stack" in rec["reply"]
    assert rec["calls"].count("get_live_campaigns") == 1 and rec["components"]["tool_rationality"] == 1.0


def test_reference_names_spec_attributes_by_their_labels():
    rec = _ask("groceries_zh", "问下2号链接的糖度")
    assert "糖度是16-20 Brix" in rec["reply"] and rec["components"]["effectiveness"] == 1.0
    rec = _ask("pets_en", "is link 2 grain free?")
    assert "grain-free, yes" in rec["reply"]


def test_prompt_shows_category_labels():
    from hat_env.harness.render import render_system

    s = LiveSession("pets_en", seed=0, viewers=False)
    text = render_system(s.host.harness, s.room, s.scenario.room)
    assert "(id PT01, dog food)" in text and "dog_food" not in text


# --- validation: file, field, line ---------------------------------------------------------------------------

_TINY = """\
name: tiny
locale: en_US
duration_s: 120
vocabulary:
  extends: default
  categories:
    toys: {{labels: {{en_US: toys}}}}
  attributes:
    age:
      type: range
      unit: year
      labels: {{en_US: age range}}
      words: {{en_US: [age range]}}
catalog:
  products:
    - product_id: P1
      link: 1
      title: Blocks
      brand: Acme
      category: {category}
      price: 20
      list_price: 25
      stock: 10
      specs:
        age: "{age}"
campaigns:
  - {{campaign_id: C1, type: code, title: Five off, code: FIVE, amount: 5}}
stacking:
  - [code, {stack}]
"""


@pytest.mark.parametrize(("fix", "field", "line", "words"), [
    ({"category": "puzzles"}, "catalog.products.0.category", 20, "unknown category 'puzzles'"),
    ({"age": "lots"}, "catalog.products.0.specs.age", 25, "needs a number"),
    ({"age": "3-6 kg"}, "catalog.products.0.specs.age", 25, "not a time unit"),
    ({"stack": "raffle"}, "stacking.0.1", 29, "neither a campaign type"),
])
def test_schema_errors_name_the_field_and_its_line(tmp_path, fix, field, line, words):
    values = {"category": "toys", "age": "3-6 years", "stack": "bundle"} | fix
    path = tmp_path / "tiny.yaml"
    path.write_text(_TINY.format(**values))
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    (fld, got_line, reason), = ei.value.problems
    assert (fld, got_line) == (field, line), ei.value
    assert words in reason


def test_a_bad_vocabulary_file_is_reported_at_its_own_line(tmp_path):
    (tmp_path / "toys.yaml").write_text("name: toys\nattributes:\n  age:\n    type: rnage\n")
    path = tmp_path / "tiny.yaml"
    path.write_text(_TINY.format(category="toys", age="3-6 years", stack="bundle").replace(
        "vocabulary:\n  extends: default\n", "vocabulary:\n  extends: toys\n"))
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    assert f"{tmp_path / 'toys.yaml'}:4: attributes.age.type" in str(ei.value)


def test_vocabulary_paths_stay_in_the_scenario_folder(tmp_path):
    (tmp_path / "elsewhere.yaml").write_text("name: x\n")
    (tmp_path / "room").mkdir()
    with pytest.raises(ValueError, match="outside the folders a scenario may use"):
        resolve_vocabulary("../elsewhere.yaml", tmp_path / "room")
    with pytest.raises(ValueError, match="unknown vocabulary"):
        resolve_vocabulary("nosuch", None)


# --- a new domain from a folder of its own --------------------------------------------------------------------


def test_a_domain_from_a_temporary_folder_runs_a_session(tmp_path):
    """A vocabulary file next to a scenario (its own category and attributes) is all a new domain needs: the
    scenario validates, viewers ask about its attributes in their words, and the reference answers them."""
    (tmp_path / "tea.yaml").write_text(
        "name: tea\nextends: default\n"
        "categories:\n  tea: {labels: {en_US: loose-leaf tea}}\n"
        "attributes:\n"
        "  steep_time: {type: range, unit: minute, labels: {en_US: steeping time},"
        " words: {en_US: [steeping time, steep time]}}\n"
        "  caffeine: {type: bool, labels: {en_US: caffeinated}, words: {en_US: [caffeine]}}\n"
        "units:\n  minute: {dimension: time, factor: 0.016666667, words: [min, mins, minute, minutes]}\n",
        encoding="utf-8")
    src = (scenarios_dir() / "pets_en.yaml").read_text(encoding="utf-8")
    head, _ = src.split("catalog:\n", 1)
    head = head[: head.index("vocabulary:\n")]
    body = (
        "vocabulary: tea\n"
        "catalog:\n  products:\n"
        "    - {product_id: T1, link: 1, title: Hill Oolong, brand: Leaf, category: tea, price: 18, list_price: 18,"
        " stock: 40, specs: {steep_time: 3-5 min, caffeine: 'yes'}}\n"
        "    - {product_id: T2, link: 2, title: Mint Tisane, brand: Leaf, category: tea, price: 12, list_price: 12,"
        " stock: 30, specs: {steep_time: 5-7 min, caffeine: 'no'}}\n"
        "viewers: {initial: 12, arrival_per_min: 4, mix: {spec_asker: 1.0}}\n"
    )
    (tmp_path / "tea_en.yaml").write_text(head.replace("name: pets_en", "name: tea_en") + body, encoding="utf-8")
    sc = load_scenario(tmp_path / "tea_en.yaml")
    assert sc.vocab.attribute("steep_time").unit == "minute"
    s = LiveSession(str(tmp_path / "tea_en.yaml"), seed=3, duration_s=240)
    agent = ReferenceAgent()
    asked = replies = 0
    while s.next_request():
        done = None
        while done is None:
            done = s.feed(agent.act(s.loop.agent_request()))
        out = s.outcomes[-1][0]
        asked += sum(1 for c in out.request.comments for i in c.intents if i.attr in ("steep_time", "caffeine"))
        replies += ("steeping time" in out.reply) or ("caffeinated" in out.reply)
    summary = s.finish()
    assert asked and replies
    assert summary["score"] >= 95, summary


def test_old_rooms_records_are_unchanged():
    """The built-in rooms on the default vocabulary get the tool records they always had (no new keys)."""
    room, be = _room("beauty_zh", t=200)
    assert set(be.execute("shipping_policy", {"product_id": "B001"})) == {
        "ships_within_hours", "carrier", "free_shipping", "fee"}
    assert set(be.execute("product_by_link", {"link": 4})) == {
        "product_id", "link", "title", "brand", "category", "price", "list_price", "final_price", "coupon",
        "specs", "faq"}
    assert be.execute("product_by_link", {"link": 4})["final_price"] == 169
    assert Path(load_scenario("beauty_zh").source).name == "beauty_zh.yaml"


@pytest.mark.parametrize("name", ["appliances_en", "groceries_zh", "pets_en"])
def test_viewers_of_new_domains_are_understood(name):
    """Every comment a viewer of a new-domain room writes (its attribute words, its deal questions) parses back to
    the intents it was written from, with the room's vocabulary."""
    from collections import Counter

    from hat_env.sim.comments import persona_intents, render_comment
    from hat_env.sim.vocab import PERSONAS

    sc = load_scenario(name)
    room = RoomState(sc, random.Random(0))
    seen: set[tuple[str, str | None]] = set()
    for seed in range(300):
        rng = random.Random(seed)
        room.t = (seed * 7) % sc.duration_s
        for persona in PERSONAS:
            intents = persona_intents(persona, rng, room)
            text = render_comment(intents, sc.locale, rng, room)
            assert Counter(parse_comment(text, sc.locale, vocabulary=sc.vocab)) == Counter(intents), (text, intents)
            seen |= {(i.kind, i.attr) for i in intents}
    assert ("campaign", "bundle") in seen and ("campaign", "code") in seen
    assert {a for k, a in seen if k == "spec"} - set(default_vocabulary().attributes)


def _verdicts(reply: str, intents: list[Intent], scenario: str = "pets_en", t: float = 60.0) -> tuple[set, set]:
    """(answered (kind, pid) pairs, false claims' texts) of the claims engine on ``reply``."""
    from hat_env.scoring.claims import read_claims

    sc = load_scenario(scenario)
    room = RoomState(sc, random.Random(0))
    room.t = t
    rep = read_claims(reply, room, sc.locale, intents)
    return set(rep.answered()), {c.text for c in rep.claims if c.verdict == "false"}


def test_claims_engine_reads_codes_bundles_windows_units_and_no_returns():
    # a checkout code's amount and threshold are the room's (PAW10: $10 off $50+), not a wrong coupon
    got, bad = _verdicts("Link 1: code PAW10 takes $10 off orders of $50 or more.", [Intent("campaign", link=1)])
    assert ("campaign", "PT01") in got and not bad
    got, bad = _verdicts("Link 1: code PAW10 takes $15 off orders of $50 or more.", [Intent("campaign", link=1)])
    assert "15" in bad
    # a bundle's price for its quantity is a price one pays (2 bags: $88.98); another number is not
    assert _verdicts("Link 1: buy 2 for $88.98 with the bundle.", [Intent("campaign", link=1, attr="bundle")])[1] == set()
    assert "86.98" in _verdicts("Link 1: buy 2 for $86.98 with the bundle.", [Intent("price", link=1)])[1]
    # both ends of a dispatch window are true; a start outside it is not
    got, bad = _verdicts("Link 4 ships in 5-7 days.", [Intent("shipping", link=4)])
    assert ("shipping", "PT04") in got and not bad
    assert _verdicts("Link 4 ships in 2 days.", [Intent("shipping", link=4)])[1]
    # the room vocabulary's units make spec values measures, not prices ("24 lb bag", "60 in tall")
    assert not _verdicts("The size of link 1 is 24 lb bag.", [Intent("spec", link=1, attr="size")])[1]
    assert not _verdicts("Link 4 is 60 in tall.", [Intent("spec", link=4, attr="dimensions")])[1]
    # no returns is a state of its own: saying so answers; promising returns is false
    got, bad = _verdicts("Link 6: no returns.", [Intent("after_sales", link=6)])
    assert ("after_sales", "PT06") in got and not bad
    assert _verdicts("Link 6: returns are easy.", [Intent("after_sales", link=6)])[1]


def test_reference_says_sold_out_when_the_harness_blocks_selling_it():
    # groceries_zh link 3 has no stock: the SOLD-OUT hook blocks "已经给大家挂上了", and the retry says it is sold
    # out instead of repeating the sale until the fallback
    rec = _ask("groceries_zh", "3号我要了")
    assert "售罄" in rec["reply"] and "挂上" not in rec["reply"] and not rec.get("fallback")
    assert rec["components"]["accuracy"] == 1.0 and rec["components"]["effectiveness"] == 1.0
