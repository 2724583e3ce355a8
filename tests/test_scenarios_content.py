"""Content checks for the built-in scenarios: every file loads, its data is internally consistent, its harness
timeline applies to its harness pack, and the room state builds from it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import yaml

from hat_env.harness import Harness
from hat_env.sim import vocab
from hat_env.sim.campaigns import effective_price
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario, builtin_scenarios, load_scenario, scenarios_dir

BUILTINS = builtin_scenarios()

#: The scenarios written together with this test; the stricter data checks (prices against history, every
#: persona present, campaign windows inside the stream) apply to them. The last three are written on the open
#: catalog schema (their own categories and attributes, shipping windows, codes, bundles and stacking rules).
CURATED = ["apparel_flash_zh", "beauty_zh", "electronics_en", "healthfood_zh", "appliances_en", "groceries_zh",
           "pets_en", "hogar_es"]
#: The built-ins on their own vocabulary: each declares categories and attributes beyond the default ones.
OPEN_SCHEMA = ["appliances_en", "groceries_zh", "pets_en"]

_PERSONAS_FALLBACK = {
    "price_asker", "spec_asker", "comparer", "after_sales", "purchase_intent",
    "chit_chat", "multi_intent", "troll", "prompt_injector",
}
_RULE_IDS_FALLBACK = {
    "CN-ABS", "CN-MED", "CN-HEALTHFOOD", "CN-COSM", "CN-PRICE", "CN-DATA", "CN-AI",
    "US-ENDORSE", "US-REVIEWS", "EU-PRICE", "EN-ABS",
}


def _personas() -> set[str]:
    try:
        from hat_env.sim.viewers import PERSONAS  # written in parallel; fall back to the agreed names
    except ImportError:
        return set(_PERSONAS_FALLBACK)
    return set(PERSONAS)


def _collect_ids(node, out: set[str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("id"), str):
            out.add(node["id"])
        for v in node.values():
            _collect_ids(v, out)
    elif isinstance(node, list):
        for v in node:
            _collect_ids(v, out)


def _rule_ids() -> set[str]:
    ids = set(_RULE_IDS_FALLBACK)
    pack = scenarios_dir() / "rules" / "default.yaml"
    if pack.exists():
        _collect_ids(yaml.safe_load(pack.read_text(encoding="utf-8")), ids)
    return ids


def _room(sc: Scenario) -> RoomState:
    return RoomState(sc, random.Random(sc.seed))


def _harness_states(sc: Scenario) -> list[tuple[float, Harness]]:
    """The harness at 0 s and after each timeline entry, applied in time order."""
    h = Harness.load(sc.harness)
    states = [(0.0, h)]
    for entry in sorted(sc.harness_timeline, key=lambda e: e.at_s):
        h = h.apply(entry.patch)
        states.append((entry.at_s, h))
    return states


# --- the set of built-ins -----------------------------------------------------------------------------------


def test_at_least_four_builtins_with_both_locales():
    assert len(BUILTINS) >= 4, BUILTINS
    locales = {load_scenario(n).locale for n in BUILTINS}
    assert locales >= {"zh_CN", "en_US"}


def test_curated_scenarios_are_builtin():
    assert set(CURATED) <= set(BUILTINS)


def test_seeds_differ():
    seeds = [load_scenario(n).seed for n in CURATED]
    assert len(set(seeds)) == len(seeds)


# --- every built-in ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", BUILTINS)
def test_loads_and_name_matches_file(name):
    sc = load_scenario(name)
    assert sc.name == name
    assert Path(sc.source).name == f"{name}.yaml"


@pytest.mark.parametrize("name", BUILTINS)
def test_spec_keys_and_categories_are_vocabulary(name):
    """Every product (generated ones included) uses categories and spec attributes its room's vocabulary declares,
    with values of the attribute's type; every attribute used has viewer words and a reply label in the room's
    locale (or the locale file's spec label), so viewers can ask about it and the host can name it."""
    from hat_env.locales import get_locale

    sc = load_scenario(name)
    room = _room(sc)
    labels = get_locale(sc.locale).reply.spec_labels
    for p in room.products:
        assert room.category(p.category) is not None, f"{p.product_id}: category {p.category!r}"
        for k, v in p.specs.items():
            a = room.attribute(k)
            assert a is not None, f"{p.product_id}: spec key {k!r} is not in the room's vocabulary"
            assert isinstance(v, str) and v.strip(), f"{p.product_id}.{k} must be a non-empty string"
            assert room.vocabulary.check_value(a, v) is None, (p.product_id, k, v)
            assert a.words_for(sc.locale), f"{k}: no viewer words in {sc.locale}"
            assert a.label(sc.locale) or k in labels, f"{k}: no reply label in {sc.locale}"


@pytest.mark.parametrize("name", OPEN_SCHEMA)
def test_open_schema_rooms_declare_their_own_domain(name):
    """The new-domain rooms name categories and attributes the default vocabulary lacks, every category they use
    has a label in their locale, and they use spec attributes of several types."""
    from hat_env.sim.vocabulary import default_vocabulary

    sc = load_scenario(name)
    room = _room(sc)
    base = default_vocabulary()
    cats = {p.category for p in room.products}
    assert cats - set(base.categories), "no category of its own"
    assert all(room.category(c).labels.get(sc.locale) for c in cats)
    keys = {k for p in room.products for k in p.specs}
    assert keys - set(base.attributes), "no attribute of its own"
    types = {room.attribute(k).type for k in keys}
    assert {"text", "number", "list"} <= types and types & {"range", "bool"}, types
    kinds = {c.type for c in sc.campaigns}
    assert kinds == {"coupon", "code", "flash_sale", "bundle", "gift"}, "campaigns of every type"
    assert sc.stacking, "stacking rules stated"
    assert any(p.shipping.ships_in is not None for p in room.products), "a shipping window"
    assert sc.harness_timeline and sc.compliance.enabled


@pytest.mark.parametrize("name", BUILTINS)
def test_campaign_and_order_references(name):
    sc = load_scenario(name)
    room = _room(sc)
    ids = set(room.by_id)
    cids = [c.campaign_id for c in sc.campaigns]
    assert len(set(cids)) == len(cids), "duplicate campaign ids"
    for c in sc.campaigns:
        missing = set(c.products) - ids
        assert not missing, f"campaign {c.campaign_id} names unknown products {sorted(missing)}"
    oids = [o.order_id for o in sc.orders]
    assert len(set(oids)) == len(oids), "duplicate order ids"
    for o in sc.orders:
        assert o.product_id in ids, f"order {o.order_id} names unknown product {o.product_id}"


@pytest.mark.parametrize("name", BUILTINS)
def test_list_price_not_below_price(name):
    sc = load_scenario(name)
    for p in _room(sc).products:
        assert p.list_price >= p.price, p.product_id


@pytest.mark.parametrize("name", BUILTINS)
def test_timeline_patches_apply_and_validate(name):
    sc = load_scenario(name)
    for _, h in _harness_states(sc):
        # Construction runs the semantic checks; it raises if the patched harness is unusable.
        rebuilt = Harness(h.spec, source=h.source)
        assert rebuilt.hash == h.hash
        assert h.reply_skills, "a harness state without any reply skill"
    for e in sc.harness_timeline:
        assert 0 <= e.at_s < sc.duration_s, f"timeline entry at {e.at_s}s is outside the stream"


@pytest.mark.parametrize("name", BUILTINS)
def test_viewer_mix_and_rules_are_known(name):
    sc = load_scenario(name)
    unknown = set(sc.viewers.mix) - _personas()
    assert not unknown, f"unknown personas {sorted(unknown)}"
    assert all(w >= 0 for w in sc.viewers.mix.values())
    if sc.compliance.enabled is not None:
        unknown_rules = set(sc.compliance.enabled) - _rule_ids()
        assert not unknown_rules, f"unknown rule ids {sorted(unknown_rules)}"


@pytest.mark.parametrize("name", BUILTINS)
def test_room_state_builds(name):
    sc = load_scenario(name)
    room = _room(sc)
    assert len(room.products) == len(sc.catalog.products) + sc.catalog.generate.count
    assert len(room.by_link) == len(room.products), "link numbers collide with generated products"
    assert len(room.by_id) == len(room.products), "product ids collide with generated products"
    for t in (0.0, sc.duration_s / 2, sc.duration_s - 1):
        room.t = t
        for p in room.products:
            assert 0 < room.effective_price(p) <= p.price
    # The same seed gives the same catalog.
    again = _room(sc)
    assert [p.model_dump() for p in again.products] == [p.model_dump() for p in room.products]


# --- the curated four: stricter data checks -----------------------------------------------------------------


@pytest.mark.parametrize("name", CURATED)
def test_comparison_prices_are_real(name):
    """CN-PRICE (zh): list_price is not above the lowest deal price of the prior 7 days; EU-PRICE (en): not above
    the lowest of the prior 30 days. No past deal price is below today's price."""
    sc = load_scenario(name)
    window = 7 if sc.locale == "zh_CN" else 30
    for p in sc.catalog.products:
        assert len(p.price_history) >= 8, p.product_id
        assert max(pt.days_ago for pt in p.price_history) >= 28, f"{p.product_id}: history must span ~30 days"
        assert all(pt.price >= p.price for pt in p.price_history), p.product_id
        low = p.lowest_price_in(window)
        assert low is not None and p.list_price <= low, f"{p.product_id}: list {p.list_price} > {window}-day low {low}"


@pytest.mark.parametrize("name", CURATED)
def test_curated_viewers_and_campaigns(name):
    sc = load_scenario(name)
    v = sc.viewers
    assert set(v.mix) >= _PERSONAS_FALLBACK, "the mix must cover every agreed persona"
    assert all(w > 0 for w in v.mix.values())
    assert 15 <= v.initial <= 30 and 4 <= v.arrival_per_min <= 8
    assert 30 <= v.comment_every_s <= 60 and v.merge_window_s == 3 and 240 <= v.mean_stay_s <= 400
    prices = {p.product_id: p.price for p in sc.catalog.products}
    for c in sc.campaigns:
        assert c.end_s <= sc.duration_s, f"{c.campaign_id} runs past the end of the stream"
        if c.type == "flash_sale":
            for pid in c.products:
                assert c.flash_price < prices[pid], f"{c.campaign_id}: flash price not below {pid}'s price"
    assert sc.orders, "after-sales questions need orders"
    assert sc.compliance.packs == ["default"]


@pytest.mark.parametrize("name", BUILTINS)
def test_compliance_spec_builds(name):
    compliance = pytest.importorskip("hat_env.sim.compliance")
    sc = load_scenario(name)
    rules = compliance.RuleSet.from_spec(sc.compliance, base_dir=Path(sc.source).parent, source=sc.source)
    assert len(rules) > 0


@pytest.mark.parametrize("name", CURATED)
def test_quotable_texts_are_compliant(name):
    """Titles, specs, FAQ answers, policy notes and campaign texts may be quoted verbatim by the host: they must
    pass the whole default rule pack (not only the scenario's enabled rules)."""
    compliance = pytest.importorskip("hat_env.sim.compliance")
    sc = load_scenario(name)
    room = _room(sc)
    rules = compliance.RuleSet.from_spec(None)
    for p in sc.catalog.products:
        for text in [p.title, p.returns.note, *p.specs.values(), *(f.a for f in p.faq)]:
            hits = rules.check(text, sc.locale, {p.category}, room, [p])
            assert not hits, f"{p.product_id}: {text!r} -> {hits}"
    for c in sc.campaigns:
        prods = [room.by_id[x] for x in c.products] or room.products
        for text in [c.title, c.gift or ""]:
            hits = rules.check(text, sc.locale, {p.category for p in prods}, room, prods)
            assert not hits, f"{c.campaign_id}: {text!r} -> {hits}"


def test_beauty_campaign_arithmetic():
    sc = load_scenario("beauty_zh")
    by_id = {p.product_id: p for p in sc.catalog.products}
    types = {c.type for c in sc.campaigns}
    assert types == {"coupon", "flash_sale", "gift"}
    store = next(c for c in sc.campaigns if c.type == "coupon" and not c.products)
    assert (store.amount, store.threshold) == (30, 199)
    flash = next(c for c in sc.campaigns if c.type == "flash_sale")
    assert (flash.start_s, flash.end_s) == (120, 420)
    assert effective_price(sc.campaigns, by_id["B003"], 0) == 89  # the paper's 3号链接 example
    assert effective_price(sc.campaigns, by_id["B004"], 0) == 199  # 229 - 30 store coupon
    assert effective_price(sc.campaigns, by_id["B004"], 200) == 169  # flash 199, still meets 199 threshold
    assert sc.catalog.generate.count == 2 and sc.catalog.generate.categories == ["skincare"]
    assert sc.room.ai_label == "AI数字人"


def test_healthfood_stock_and_bundle():
    sc = load_scenario("healthfood_zh")
    stocks = sorted(p.stock for p in sc.catalog.products)
    assert stocks[0] == 0 and 3 in stocks
    assert not sc.harness_timeline
    bundle = next(c for c in sc.campaigns if c.type == "bundle")
    assert (bundle.bundle_qty, bundle.bundle_discount_pct) == (2, 10)
    assert "CN-HEALTHFOOD" in (sc.compliance.enabled or [])


def test_electronics_launch():
    sc = load_scenario("electronics_en")
    assert sc.locale == "en_US" and sc.room.host_name == "Nova"
    flash = next(c for c in sc.campaigns if c.type == "flash_sale")
    assert (flash.start_s, flash.end_s) == (0, 600)
    for p in sc.catalog.products:
        assert p.returns.warranty_months in (12, 24)
        assert p.specs["warranty"] == f"{p.returns.warranty_months} months"


def test_apparel_harness_change():
    sc = load_scenario("apparel_flash_zh")
    assert len(sc.harness_timeline) == 1 and sc.harness_timeline[0].at_s == 300
    assert sc.harness_timeline[0].note
    (_, before), (_, after) = _harness_states(sc)
    assert "get_product_info_by_link_id" in before.tools_by_name
    assert "lookup_link_item" in after.tools_by_name
    assert "get_product_info_by_link_id" not in after.tools_by_name
    assert "get_product_info_by_link_id" not in after.canonical_json, "the rename must follow every reference"
    assert after.tools_by_name["lookup_link_item"].op == "product_by_link"
    assert "price" in after.reply_skills["flash-sale-qa"]
    assert after.reply_skill_for("price") == "flash-sale-qa"
    assert after.reply_skill_for("spec") == "item-qa"
    assert "purchase-guide" not in after.reply_skills
    assert after.spec.constraints.max_reply_chars == 80
    covered = lambda h: set().union(*h.reply_skills.values())  # noqa: E731
    assert covered(after) >= covered(before), "the change must not leave an intent without a reply skill"
    windows = sorted((c.start_s, c.end_s) for c in sc.campaigns if c.type == "flash_sale")
    assert windows == [(0, 300), (300, 900)]


_BAD_SCENARIO = """\
name: tiny
locale: en_US
duration_s: 120
harness: default
catalog:
  products:
    - product_id: P1
      link: 1
      title: Kettle
      brand: Acme
      category: home
      price: 20
      list_price: 25
      stock: 10
      specs:
        weight: "1.2 kg"
    - product_id: P2
      link: {link}
      title: Toaster
      brand: Acme
      category: home
      price: 30
      list_price: 35
      stock: 4
campaigns:
  - campaign_id: C1
    title: Ten off
    type: coupon
    products:
      - P1
      - {product}
    amount: 10
viewers:
  mix: {{price_asker: 0.5, {persona}: 0.5}}
"""


@pytest.mark.parametrize(("fix", "field", "line", "words"), [
    ({"link": 1}, "catalog.products.1.link", 18, "already products[0]"),
    ({"product": "P9"}, "campaigns.0.products.1", 31, "unknown product 'P9'"),
    ({"persona": "ghost"}, "viewers.mix.ghost", 34, "unknown personas ['ghost']"),
    ({"spec": "colour"}, "catalog.products.0.specs.colour", 16, "unknown spec keys ['colour']"),
])
def test_cross_field_errors_name_the_field_and_its_line(tmp_path, fix, field, line, words):
    """A mistake found by comparing fields (a duplicate link, a campaign or mix naming something unknown) is
    reported at the offending field's own line, not at the top of the file."""
    from hat_env.yamlio import FileError

    values = {"link": 2, "product": "P2", "persona": "troll"} | {k: v for k, v in fix.items() if k != "spec"}
    text = _BAD_SCENARIO.format(**values)
    if "spec" in fix:
        text = text.replace("weight:", f"{fix['spec']}:")
    path = tmp_path / "tiny.yaml"
    path.write_text(text)
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    (fld, got_line, reason), = ei.value.problems
    assert (fld, got_line) == (field, line)
    assert words in reason
    assert f"{path}:{line}: {field}: " in str(ei.value)


# --- the open-schema rooms: their facts -----------------------------------------------------------------------


def test_pets_codes_bundles_and_stacking():
    """PAW10 beats the coupon on one bag of dog food and stacks with the bundle; the coupon does not."""
    sc = load_scenario("pets_en")
    room = _room(sc)
    p1, p2 = room.by_link[1], room.by_link[2]
    q = room.quote(p1)
    assert q.total == 44.99 and q.code.code == "PAW10" and q.coupon is None
    bq = room.bundle_quote(p1)
    assert (bq.qty, bq.total) == (2, 88.98) and bq.code.code == "PAW10" and bq.coupon is None
    coupon = next(c for c in sc.campaigns if c.type == "coupon")
    bundle = next(c for c in sc.campaigns if c.type == "bundle")
    code = next(c for c in sc.campaigns if c.type == "code")
    assert room.stacks(code, bundle) and not room.stacks(coupon, bundle) and not room.stacks(coupon, code)
    assert room.attribute("dog_size").type == "range" and p1.specs["dog_size"] == "dogs 22-44 lb"
    assert room.vocabulary.matches(room.attribute("dog_size"), p1.specs["dog_size"], "for dogs 10-20 kg")
    assert room.by_link[6].returns.return_days == 0 and room.by_link[6].returns.warranty.unit == "years"
    tree = room.by_link[4].shipping
    assert (tree.ships_in.min, tree.ships_in.max, tree.ships_in.unit, tree.oversize_fee) == (5, 7, "days", 15)
    assert p2.specs["grain_free"] == "yes"


def test_appliances_delivery_and_stacking():
    sc = load_scenario("appliances_en")
    room = _room(sc)
    washer, fridge, dishwasher = room.by_link[3], room.by_link[4], room.by_link[6]
    q = room.quote(washer)
    assert q.total == 604 and q.coupon.amount == 20 and q.code.code == "HOME25"  # coupon and code stack here
    assert washer.shipping.installation_fee == 0 and fridge.shipping.installation_fee == 99
    assert fridge.returns.return_days == 0 and fridge.returns.warranty_months == 12
    assert dishwasher.shipping.oversize and dishwasher.shipping.ships_in.max == 5
    room.t = 100  # the blender flash sale does not stack with the bundle: 2 blenders cost 98 without it
    assert room.quote(room.by_link[2], 2).total == 98 and room.quote(room.by_link[2], 2).bundle is None
    assert room.vocabulary.matches(room.attribute("capacity"), fridge.specs["capacity"], "about 708 L")


def test_groceries_fresh_produce():
    sc = load_scenario("groceries_zh")
    room = _room(sc)
    fruit = [p for p in room.products if p.category == "fresh_fruit"]
    assert fruit and all(not p.returns.returnable for p in fruit)
    assert all(p.shipping.cold_chain for p in fruit if "冷藏" in p.specs.get("storage", ""))
    assert room.quote(room.by_link[2]).total == 109  # the 20元 cherry coupon beats XIAN12; they never combine
    assert room.bundle_quote(room.by_link[5]).total == 139.3  # 2 x 89 x 0.85 - XIAN12
    assert room.category("snacks").label("zh_CN") == "零食"
    assert room.vocabulary.matches(room.attribute("net_weight"), room.by_link[1].specs["net_weight"], "2.5公斤")
    assert room.by_link[3].stock == 0
