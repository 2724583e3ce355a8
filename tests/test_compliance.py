"""Compliance rule packs: each default rule on domain.md's example, clean sentences, matching semantics,
stateful rules against room facts, and file errors that name file, field and line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.sim.catalog import PricePoint
from hat_env.sim.compliance import RuleHit, RuleSet, load_rule_pack, parse_count, rules_dir
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import ComplianceSpec, Scenario
from hat_env.yamlio import FileError


def make_room(locale: str = "zh_CN", t: float = 0.0) -> RoomState:
    """A small room: sunscreen (with history, coupon), vitamin C (low stock, flash sale ending in 1 h),
    earbuds (sold out, no history)."""
    sc = Scenario.model_validate(
        {
            "name": "compliance-test",
            "locale": locale,
            "catalog": {
                "products": [
                    {
                        "product_id": "P001",
                        "link": 1,
                        "title": "清透防晒霜",
                        "brand": "Lumi",
                        "category": "skincare",
                        "price": 129,
                        "list_price": 199,
                        "price_history": [
                            {"days_ago": 1, "price": 119},
                            {"days_ago": 3, "price": 109},
                            {"days_ago": 10, "price": 99},
                            {"days_ago": 20, "price": 89},
                        ],
                        "stock": 500,
                        "specs": {"spf": "SPF50", "size": "50ml", "skin_type": "所有肤质"},
                    },
                    {
                        "product_id": "P002",
                        "link": 2,
                        "title": "维生素C片",
                        "brand": "Vita",
                        "category": "health_food",
                        "price": 99,
                        "list_price": 99,
                        "price_history": [{"days_ago": 2, "price": 99}],
                        "stock": 3,
                        "specs": {"size": "60粒", "shelf_life": "24个月"},
                    },
                    {
                        "product_id": "P003",
                        "link": 3,
                        "title": "蓝牙耳机",
                        "brand": "Sono",
                        "category": "electronics",
                        "price": 299,
                        "list_price": 399,
                        "stock": 0,
                        "specs": {"battery": "30小时续航"},
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
    room = RoomState(sc, random.Random(0))
    room.t = t
    return room


@pytest.fixture(scope="module")
def rules() -> RuleSet:
    return RuleSet.default()


def ids(hits: list[RuleHit]) -> set[str]:
    return {h.rule_id for h in hits}


ALL_CATS = {"cosmetics", "skincare", "health_food", "electronics", "apparel", "food", "home"}


# --- the default pack: each rule on its example, and clean sentences ---------------------------------------

EXAMPLES = [
    ("CN-ABS", "zh_CN", "全网最低价、第一品牌", set()),
    ("CN-MED", "zh_CN", "面霜能治湿疹、消炎", {"skincare"}),
    ("CN-HEALTHFOOD", "zh_CN", "吃了降血压", {"health_food"}),
    ("CN-COSM", "zh_CN", "医美级修复、祛斑", {"skincare"}),
    ("CN-PRICE", "zh_CN", "原价999今天99", set()),
    ("CN-DATA", "zh_CN", "只剩最后3件", set()),
    ("CN-AI", "zh_CN", "我是真人主播", set()),
    ("US-ENDORSE", "en_US", "I use this every day", set()),
    ("US-REVIEWS", "en_US", "A customer told me it changed her life.", set()),
    ("EU-PRICE", "en_US", "It was 50 EUR, now only 35!", set()),
    ("EN-ABS", "en_US", "This is the best serum, #1 in the market.", set()),
]


@pytest.mark.parametrize("rule_id,locale,text,cats", EXAMPLES)
def test_rule_fires_on_domain_example(rules, rule_id, locale, text, cats):
    room = make_room(locale)
    product = room.by_link[1]
    if rule_id == "EU-PRICE":  # "was 50 EUR" when it sold at 35 last week
        product = product.model_copy(update={"price_history": [PricePoint(days_ago=7, price=35)]})
    hits = rules.check(text, locale, cats, room=room, products=[product])
    assert rule_id in ids(hits), hits


CLEAN = {
    "zh_CN": [
        "宝宝们，1号链接防晒霜SPF50，券后价89元，库存还有500件，48小时内发货。",
        "这款面霜很滋润，适合干皮，最近很多人问哦。",
        "我是AI主播小美，欢迎来到直播间！",
        "维生素C片是保健食品，不能代替药物，不能治疗疾病。",
    ],
    "en_US": [
        "Link 1 sunscreen is SPF50, $89 after the coupon, ships within 48 hours.",
        "Welcome to the stream! I'm the AI host, happy to help.",
        "We will do our best to ship it quickly.",
        "That bestows a soft finish on the skin.",
    ],
}


@pytest.mark.parametrize("locale,text", [(loc, t) for loc, ts in CLEAN.items() for t in ts])
def test_clean_sentences_pass(rules, locale, text):
    room = make_room(locale)
    assert rules.check(text, locale, ALL_CATS, room=room, products=[room.by_link[1]]) == []


def test_default_pack_has_the_table():
    pack = load_rule_pack("default")
    want = {"CN-ABS", "CN-MED", "CN-HEALTHFOOD", "CN-COSM", "CN-PRICE", "CN-DATA", "CN-AI", "US-ENDORSE",
            "US-REVIEWS", "EU-PRICE", "EN-ABS"}
    assert want <= {r.id for r in pack.rules}
    assert (rules_dir() / "default.yaml").exists()


# --- matching semantics ------------------------------------------------------------------------------------


def test_chinese_substring_and_english_word_boundary(rules):
    # Chinese: substring inside running text
    assert "CN-ABS" in ids(rules.check("这是我们家销量第一的产品", "zh_CN", set()))
    # English: word boundaries, any case
    assert "EN-ABS" in ids(rules.check("The BEST deal today", "en_US", set()))
    assert rules.check("This bestows a glow", "en_US", set()) == []
    assert rules.check("It is a bestseller", "en_US", set()) == []
    assert "EN-ABS" in ids(rules.check("It's No. 1 in sales", "en_US", set()))
    assert "EN-ABS" in ids(rules.check("lowest   price ever", "en_US", set()))
    assert rules.check("Option #10 ships today", "en_US", set()) == []
    # ASCII term inside Chinese text still matches (boundaries are ASCII)
    assert "CN-ABS" in ids(rules.check("品牌NO.1", "zh_CN", set()))


def test_allow_phrases_and_locale_and_category_scope(rules):
    assert rules.check("最近很多人问", "zh_CN", set()) == []
    # an English rule does not apply to a Chinese reply
    assert "EN-ABS" not in ids(rules.check("best", "zh_CN", set()))
    # CN-HEALTHFOOD only for health food; CN-COSM only for cosmetics/skincare
    assert "CN-HEALTHFOOD" not in ids(rules.check("保证有效", "zh_CN", {"electronics"}))
    assert "CN-HEALTHFOOD" in ids(rules.check("保证有效", "zh_CN", {"health_food"}))
    assert "CN-COSM" not in ids(rules.check("这是药妆", "zh_CN", {"apparel"}))
    assert "CN-COSM" in ids(rules.check("这是药妆", "zh_CN", {"cosmetics"}))


def test_special_use_registered_products_may_claim_whitening(rules):
    room = make_room()
    p = room.by_link[1]
    assert "CN-COSM" in ids(rules.check("可以美白", "zh_CN", {"skincare"}, room, [p]))
    reg = p.model_copy(update={"special_use_registered": True})
    assert rules.check("可以美白", "zh_CN", {"skincare"}, room, [reg]) == []


def test_terms_hook_list(rules):
    zh = rules.terms("zh_CN")
    assert "最" in zh and "第一" in zh and "我是真人" in zh
    assert "药妆" not in zh  # category-scoped, no categories given
    assert "药妆" in rules.terms("zh_CN", {"cosmetics"})
    assert "best" in rules.terms("en_US") and "最" not in rules.terms("en_US")


# --- stateful rules ----------------------------------------------------------------------------------------


def test_price_reference_with_and_without_history(rules):
    room = make_room()
    sunscreen, earbuds = room.by_link[1], room.by_link[3]
    # lowest price in the prior 7 days is 109
    assert rules.check("原价109今天89", "zh_CN", set(), room, [sunscreen]) == []
    assert rules.check("以前卖99", "zh_CN", set(), room, [sunscreen]) == []
    hit = rules.check("原价199今天89", "zh_CN", set(), room, [sunscreen])
    assert ids(hit) == {"CN-PRICE"} and "109" in hit[0].reason
    # no history at all: a cited prior price cannot be supported
    assert "CN-PRICE" in ids(rules.check("原价299", "zh_CN", set(), room, [earbuds]))
    # not a price: days after 以前
    assert rules.check("以前3天就发货了", "zh_CN", set(), room, [sunscreen]) == []


def test_eu_price_uses_30_days():
    rules = RuleSet.default()
    room = make_room("en_US")
    p = room.by_link[1]  # lowest 7-day 109, lowest 30-day 89
    assert rules.check("It was $89, now $79", "en_US", set(), room, [p]) == []
    assert "EU-PRICE" in ids(rules.check("It was $109, now $79", "en_US", set(), room, [p]))
    assert "EU-PRICE" in ids(rules.check("Regular price $199 today", "en_US", set(), room, [p]))


def test_price_rise_needs_a_real_campaign_end(rules):
    room = make_room()
    sunscreen, vitc = room.by_link[1], room.by_link[2]
    # the sunscreen coupon never ends: a fake deadline
    assert "CN-PRICE" in ids(rules.check("明天涨价，快拍", "zh_CN", set(), room, [sunscreen]))
    # the vitamin C flash sale ends in an hour: a real deadline
    assert rules.check("明天涨价，快拍", "zh_CN", set(), room, [vitc]) == []
    # without room facts the claim cannot be verified
    assert "CN-PRICE" in ids(rules.check("明天涨价", "zh_CN", set()))
    en = make_room("en_US")
    assert "EU-PRICE" in ids(rules.check("The price goes up tomorrow!", "en_US", set(), en, [en.by_link[1]]))


def test_scarcity_against_real_stock(rules):
    room = make_room()
    sunscreen, vitc = room.by_link[1], room.by_link[2]
    hit = rules.check("只剩最后3件", "zh_CN", set(), room, [sunscreen])
    assert ids(hit) == {"CN-DATA"} and "500" in hit[0].reason
    assert rules.check("只剩最后3件", "zh_CN", set(), room, [vitc]) == []
    assert rules.check("只剩最后三件", "zh_CN", set(), room, [vitc]) == []
    assert "CN-DATA" in ids(rules.check("最后几件了", "zh_CN", set(), room, [sunscreen]))
    assert rules.check("最后几件了", "zh_CN", set(), room, [vitc]) == []
    # stock moves in the room: the room's live stock is what counts
    room.stock["P001"] = 2
    assert rules.check("只剩最后3件", "zh_CN", set(), room, [sunscreen]) == []
    en = make_room("en_US")
    assert "EN-DATA" in ids(rules.check("Only 3 left!", "en_US", set(), en, [en.by_link[1]]))
    assert rules.check("Only 3 left!", "en_US", set(), en, [en.by_link[2]]) == []
    assert "EN-DATA" in ids(rules.check("Last few, hurry", "en_US", set(), en, [en.by_link[1]]))


def test_ai_identity_both_locales(rules):
    assert "CN-AI" in ids(rules.check("我是真人哦", "zh_CN", set()))
    assert "CN-AI" in ids(rules.check("Yes, I am a real person!", "en_US", set()))
    assert "CN-AI" in ids(rules.check("I'm human, trust me", "en_US", set()))
    assert rules.check("I'm not a real person, I'm an AI host.", "en_US", set()) == []


def test_parse_count():
    assert parse_count("3") == 3 and parse_count("三") == 3 and parse_count("两") == 2
    assert parse_count("十") == 10 and parse_count("十二") == 12 and parse_count("二十三") == 23
    assert parse_count("几") is None


# --- RuleSet.from_spec -------------------------------------------------------------------------------------


def test_from_spec_enabled_and_extra_rules(tmp_path: Path):
    spec = ComplianceSpec(
        enabled=["CN-ABS", "SHOP-1"],
        extra_rules=[{"id": "SHOP-1", "locale": "zh_CN", "terms": ["私聊"], "description": "no private chat"}],
    )
    rs = RuleSet.from_spec(spec)
    always = {r.id for r in RuleSet.default().rules if r.always}
    assert set(rs.ids) == {"CN-ABS", "SHOP-1"} | always
    assert {"CN-AI", "CN-MED", "EN-MED", "LEAK", "INJECT", "SOLD-OUT"} <= always
    assert "CN-COSM" not in rs.ids and "EU-PRICE" not in rs.ids  # not enabled, not always: off
    assert ids(rs.check("私聊我", "zh_CN", set())) == {"SHOP-1"}
    assert ids(rs.check("我是真人", "zh_CN", set())) == {"CN-AI"}  # the AI-host rule holds in every room


def test_from_spec_unknown_enabled_id():
    with pytest.raises(FileError) as ei:
        RuleSet.from_spec(ComplianceSpec(enabled=["NOPE"]), source="s.yaml")
    assert "compliance.enabled.0" in str(ei.value) and "NOPE" in str(ei.value)


def test_from_spec_bad_extra_rule():
    with pytest.raises(FileError) as ei:
        RuleSet.from_spec(ComplianceSpec(extra_rules=[{"id": "X", "terms": ["a"], "colour": "red"}]), source="s.yaml")
    assert "compliance.extra_rules.0.colour" in str(ei.value)


def test_pack_by_relative_path(tmp_path: Path):
    (tmp_path / "mine.yaml").write_text("name: mine\nrules:\n  - id: M1\n    terms: [foo]\n", encoding="utf-8")
    rs = RuleSet.from_spec(ComplianceSpec(packs=["mine.yaml"]), base_dir=tmp_path)
    assert ids(rs.check("a foo b", "en_US", set())) == {"M1"}


# --- file errors -------------------------------------------------------------------------------------------


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "pack.yaml"
    p.write_text(text, encoding="utf-8")
    return p


def test_bad_regex_names_file_field_line(tmp_path: Path):
    p = _write(
        tmp_path,
        "name: bad\n"
        "rules:\n"
        "  - id: R1\n"
        "    terms: [x]\n"
        "  - id: R2\n"
        "    patterns:\n"
        "      - 'ok'\n"
        "      - '(unclosed'\n",
    )
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    err = ei.value
    assert err.path == str(p.resolve())
    fld, line, reason = err.problems[0]
    assert fld == "rules.1.patterns.1" and line == 8 and "regular expression" in reason
    assert f"{p.resolve()}:8: rules.1.patterns.1" in str(err)


def test_unknown_field_names_file_field_line(tmp_path: Path):
    p = _write(tmp_path, "name: bad\nrules:\n  - id: R1\n    terms: [x]\n    severity: high\n")
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    fld, line, reason = ei.value.problems[0]
    assert (fld, line, reason) == ("rules.0.severity", 5, "unknown field")


def test_price_reference_needs_price_group(tmp_path: Path):
    p = _write(tmp_path, "name: bad\nrules:\n  - id: R1\n    kind: price_reference\n    patterns: ['was (\\d+)']\n")
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    assert "price" in str(ei.value) and ei.value.problems[0][1] == 3


def test_unknown_pack_name():
    with pytest.raises(FileError) as ei:
        load_rule_pack("no-such-pack")
    assert "default" in str(ei.value)


# --- every rule regex runs on RE2: the rewritten built-in patterns keep their meaning --------------------------


def test_cn_med_still_allows_governing(rules):
    """``(?:能|可以|可|专)治(?!理)`` became the pattern without the lookahead plus allow phrases 能治理/可以治理/..."""
    for text in ("可以治理好环境", "这个品牌专治理念", "能治理", "可治理"):
        assert "CN-MED" not in ids(rules.check(text, "zh_CN", {"skincare"})), text
    for text in ("能治湿疹", "可以治痘", "专治各种不服", "治好了", "不能治理但能治病"):
        assert "CN-MED" in ids(rules.check(text, "zh_CN", {"skincare"})), text
    hit = rules.check("面霜能治湿疹", "zh_CN", {"skincare"})
    assert [h.matched for h in hit if h.rule_id == "CN-MED"] == ["能治"]


def test_cn_price_not_followed_by_keeps_units_out(rules):
    """``(?![\\d.]|\\s*(?:天|...))`` became ``not_followed_by``: a number followed by a unit is not a price."""
    room = make_room()
    sunscreen = room.by_link[1]
    for text in ("以前3天就发货了", "之前2个月买过", "平时 5 小时送达", "以前12号发货"):
        assert rules.check(text, "zh_CN", set(), room, [sunscreen]) == [], text
    for text, price in (("原价199今天89", "199"), ("原价 1,299.5 元", "1,299.5"), ("吊牌价：¥399", "399")):
        hit = rules.check(text, "zh_CN", set(), room, [sunscreen])
        assert ids(hit) == {"CN-PRICE"} and hit[0].matched.endswith(price), text


def test_python_unicode_classes_are_kept(rules):
    """Full-width digits and the ideographic space still count, as they did under Python's re."""
    room = make_room()
    sunscreen = room.by_link[1]
    assert "CN-PRICE" in ids(rules.check("原价　１９９", "zh_CN", set(), room, [sunscreen]))
    assert ids(rules.check("只剩最后３件", "zh_CN", set(), room, [sunscreen])) == {"CN-DATA"}
    assert rules.check("只剩最后３件", "zh_CN", set(), room, [room.by_link[2]]) == []  # stock 3: true


def test_user_patterns_run_on_re2_and_refuse_python_only_syntax(tmp_path: Path):
    p = _write(tmp_path, "name: mine\nrules:\n  - id: U1\n    patterns: ['(?<=was )\\d+']\n")
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    fld, line, reason = ei.value.problems[0]
    assert (fld, line) == ("rules.0.patterns.0", 4) and "lookaround is not supported" in reason
    slow = RuleSet.from_spec(ComplianceSpec(packs=[], extra_rules=[{"id": "U2", "patterns": ["^(.+)+Z"]}]))
    assert slow.check("x" * 50_000, "en_US") == []  # exponential under Python's re, linear here
    assert ids(slow.check("x" * 50 + "Z", "en_US")) == {"U2"}


def test_not_followed_by_for_user_rules():
    rs = RuleSet.from_spec(ComplianceSpec(packs=[], extra_rules=[
        {"id": "U3", "terms": ["best"], "not_followed_by": ["\\s+wishes", "\\s+regards"]}]))
    assert ids(rs.check("The best serum", "en_US")) == {"U3"}
    assert rs.check("Best wishes and best  regards", "en_US") == []
    assert ids(rs.check("Best wishes, the best price", "en_US")) == {"U3"}
    with pytest.raises(FileError, match="matches the empty text"):
        RuleSet.from_spec(ComplianceSpec(packs=[], extra_rules=[{"id": "U4", "terms": ["a"], "not_followed_by": ["x?"]}]))


def test_the_one_pass_prefilter_never_drops_a_hit(rules):
    """RuleSet.check skips rules the RE2 pattern set says cannot match; each rule checked on its own must agree."""
    room = make_room()
    texts = [t for _, _, t, _ in EXAMPLES] + ["今天最近下单第一次", "best wishes", "原价109今天89", "只剩最后3件",
                                              "It was $109, now $79", "Only 3 left!", "nothing to see", "治好理"]
    for text in texts:
        for loc in ("zh_CN", "en_US"):
            full = rules.check(text, loc, ALL_CATS, room)
            one_by_one = [h for r in rules.for_locale(loc) if (h := r.check(text, room, None)) is not None]
            assert full == one_by_one, (text, loc)


# --- reading by meaning: disguises, negation, questions ---------------------------------------------------------


@pytest.mark.parametrize("locale,text,rule", [
    ("zh_CN", "全 网 最 低", "CN-ABS"),
    ("zh_CN", "品牌ＮＯ．１", "CN-ABS"),
    ("zh_CN", "今年最🔥火的款", "CN-ABS"),
    ("zh_CN", "国·家·级认证", "CN-ABS"),
    ("zh_CN", "防晒界的天花板", "CN-ABS"),
    ("zh_CN", "行业断层第一", "CN-ABS"),
    ("en_US", "the b e s t serum", "EN-ABS"),
    ("en_US", "the b-e-s-t serum", "EN-ABS"),
    ("en_US", "the b🔥e🔥s🔥t serum", "EN-ABS"),
    ("en_US", "numero uno of serums", "EN-ABS"),
    ("en_US", "the G.O.A.T. of serums", "EN-ABS"),
    ("zh_CN", "医 美 级修复", "CN-COSM"),
])
def test_disguises_are_read_as_written_in_plain(rules, locale, text, rule):
    hits = rules.check(text, locale, ALL_CATS)
    assert rule in ids(hits), hits
    hit = next(h for h in hits if h.rule_id == rule)
    assert hit.matched in text  # the hit quotes the reply as written, not its normalised form


@pytest.mark.parametrize("locale,text", [
    ("en_US", "I'm a real fan of this one? No: I'm an AI host."),  # an apostrophe keeps "I'm a" apart
    ("en_US", "e.g. the T-shirt"),
    ("zh_CN", "最近很多人问，第一次买的话选小瓶"),
    ("en_US", "Best wishes, and I'll do my best to help!"),
])
def test_ordinary_text_is_not_a_disguise(rules, locale, text):
    assert rules.check(text, locale, ALL_CATS) == []


@pytest.mark.parametrize("locale,text,hit", [
    ("zh_CN", "能降血压", True),
    ("zh_CN", "不能降血压", False),
    ("zh_CN", "没有降血压的作用", False),
    ("zh_CN", "它不是药，不能治疗湿疹", False),
    ("zh_CN", "不仅能降血压，还能降血脂", True),  # 不仅: "not only" is no negation
    ("zh_CN", "不能代替药物，但能降血压", True),  # a new clause after 但
    ("zh_CN", "能降血压吗？不能哦", False),  # asked, then denied
    ("en_US", "it cures acne", True),
    ("en_US", "it does not treat eczema", False),
    ("en_US", "It's not a medicine, and it doesn't cure acne.", False),
    ("en_US", "not only soft, it also cures acne", True),
    ("en_US", "Does it cure acne? No.", False),
    ("en_US", "boosts immunity every morning", True),
])
def test_medical_claims_are_negation_aware(rules, locale, text, hit):
    rid = "CN-MED" if locale == "zh_CN" else "EN-MED"
    assert (rid in ids(rules.check(text, locale, {"health_food"}))) == hit


def test_countdown_must_match_the_time_left(rules):
    room = make_room(t=3600 - 290)  # the vitamin C flash sale ends in 290 s
    vitc = room.by_link[2]
    assert rules.check("最后5分钟！", "zh_CN", set(), room, [vitc]) == []
    assert ids(rules.check("最后30秒！", "zh_CN", set(), room, [vitc])) == {"CN-DATA"}
    assert ids(rules.check("最后5分钟！", "zh_CN", set(), room, [room.by_link[1]])) == {"CN-DATA"}  # no sale ends


def test_price_rise_needs_a_campaign_that_lowers_this_price():
    """A coupon whose threshold the price cannot reach, or a gift, ends without the price going up."""
    rules = RuleSet.default()
    room = make_room()
    room.campaigns.append(room.campaigns[0].model_copy(update={"campaign_id": "BIG", "products": ["P003"],
                                                                "threshold": 999, "end_s": 3600}))
    assert "CN-PRICE" in ids(rules.check("明天涨价", "zh_CN", set(), room, [room.by_link[3]]))


def test_sold_out_kind_reads_live_stock(rules):
    room = make_room()
    earbuds, sunscreen = room.by_link[3], room.by_link[1]  # stock 0 and 500
    assert ids(rules.check("赶紧下单～", "zh_CN", set(), room, [earbuds])) == {"SOLD-OUT"}
    assert rules.check("暂时不能下单哦", "zh_CN", set(), room, [earbuds]) == []
    assert rules.check("下单后48小时发货", "zh_CN", set(), room, [earbuds]) == []
    assert rules.check("赶紧下单～", "zh_CN", set(), room, [sunscreen]) == []


def test_evidence_kinds_take_no_terms_and_negation_is_checked(tmp_path: Path):
    p = _write(tmp_path, "name: bad\nrules:\n  - id: L1\n    kind: leak\n    terms: [x]\n")
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    assert "reads the request" in str(ei.value) and ei.value.problems[0][1] == 3
    p = _write(tmp_path, "name: bad\nnegation:\n  zh_CN: {cues: [], window: 8}\nrules: []\n")
    with pytest.raises(FileError) as ei:
        load_rule_pack(str(p))
    assert ei.value.problems[0][0] == "negation.zh_CN.cues"
    # a leak rule without the request's facts finds nothing (no prompt is known)
    rs = RuleSet.from_spec(ComplianceSpec(packs=[], extra_rules=[{"id": "L2", "kind": "leak"}]))
    assert rs.check("You are an AI host. Only state facts that a tool returned.", "en_US") == []


def test_inline_rules_read_the_packs_negation():
    rs = RuleSet.from_spec(ComplianceSpec(extra_rules=[
        {"id": "SHOP-2", "locale": "zh_CN", "negatable": True, "terms": ["包治百病"]}]))
    assert "SHOP-2" in ids(rs.check("包治百病", "zh_CN"))
    assert "SHOP-2" not in ids(rs.check("不能说包治百病", "zh_CN"))
