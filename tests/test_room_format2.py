"""Structured after-sales terms (``returns.restocking_fee``, ``warranty_parts``, ``return_shipping_insurance``,
``no_return_when``) and size charts (``size_chart``) in a room file: the schema and its errors, the tools and the
grader's verdicts, in en_US, zh_CN and es_ES.

The rooms are tests/data/rooms/watches_en.yaml, tongzhuang_zh.yaml and joyeria_es.yaml (their first lines say what
each product has); every expectation below is written from that data (``python scenarios/calibration/facts.py
room tests/data/rooms/watches_en.yaml 1 10``): the watch (link 1) has a 15% restocking fee on opened watches, 1
year on the movement and the strap not covered, no return-shipping insurance, and cannot be returned engraved;
the running shoe (link 2) is US 8 = 26 cm, US 9 = 27 cm, US 10 = 28 cm of foot length, a $10 restocking fee,
free return shipping, 6 months on the sole, and cannot be returned worn. 1号童鞋: 28码 17.5cm, 29码 18cm, 30码
18.5cm 脚长, 开胶保修6个月, 鞋带不保, 有运费险, 穿过/下地不退; 2号羽绒服: 110码 身高105-115cm, 120码 115-125cm,
130码 125-135cm, 没有运费险, 剪吊牌不退, 包装已拆收10%折旧费. The ring (enlace 1): talla 12/14/16 = 52/54/56 mm,
6 meses en el baño, piedras no cubiertas, 10 % de gastos de reposición, sin devolución gratuita, grabado no se
devuelve; the earrings (enlace 2): devolución gratuita, desprecintados no se devuelven. Each room runs a mixed
set of its two products: the watch and the shoe for $299 (separately $338), 1号+2号 369元 (428元), the ring and
the earrings 85 € (98 €).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.scoring.claims import read_claims
from hat_env.sim.after_sales import RestockingFee, SizeChart, SizeRow, WarrantyPart
from hat_env.sim.campaigns import Campaign
from hat_env.sim.catalog import Product, Returns
from hat_env.sim.parser import parse_comment
from hat_env.sim.tools import ToolBackend
from hat_env.types import Intent
from hat_env.yamlio import FileError
from hat_env.sim.scenario import load_scenario

from rooms import DATA_ROOMS, room

EN, ZH, ES = "watches_en.yaml", "tongzhuang_zh.yaml", "joyeria_es.yaml"
ROOM = {p: room(p, 1, 10.0) for p in (EN, ZH, ES)}


# --- schema -------------------------------------------------------------------------------------------------

_BASE = dict(product_id="P1", link=1, title="Watch", brand="Acme", category="apparel", price=200, list_price=250,
             stock=5)


@pytest.mark.parametrize(("make", "words"), [
    (lambda: RestockingFee(), "give one of percent (of the price) or amount"),
    (lambda: RestockingFee(percent=10, amount=5), "give one of percent (of the price) or amount"),
    (lambda: RestockingFee(percent=120), "less than or equal to 100"),
    (lambda: WarrantyPart(names=["strap"]), "a covered part needs its warranty length"),
    (lambda: WarrantyPart(names=["strap"], covered=False, warranty={"value": 1, "unit": "years"}),
     "has no warranty length"),
    (lambda: WarrantyPart(names=[" "], covered=False), "a name is empty"),
    (lambda: Returns(warranty_parts=[{"names": ["Strap"], "covered": False},
                                     {"names": ["strap"], "covered": False}]),
     "warranty_parts.1.names: 'strap' is also a name of warranty_parts.0"),
    (lambda: Returns(return_days=0, no_return_when=[{"names": ["opened"]}]), "cannot be returned (return_days: 0)"),
    (lambda: Returns(return_shipping_insurance="maybe"), "valid boolean"),
    (lambda: SizeRow(sizes=["US 9"]), "give value, or min and max"),
    (lambda: SizeRow(sizes=["M"], min=100, max=90), "min 100 is above max 90"),
    (lambda: SizeChart(measure="foot length", rows=[{"sizes": ["US 9"], "value": 27},
                                                    {"sizes": ["us 9"], "value": 28}]),
     "rows.1.sizes: 'us 9' is also a size of rows.0"),
    (lambda: Campaign(campaign_id="S1", type="bundle", title="set", products=["A"], set_price=50),
     "two or more different products"),
    (lambda: Campaign(campaign_id="S1", type="bundle", title="set", products=["A", "B"], set_price=50, bundle_qty=2),
     "has no bundle_qty nor bundle_discount_pct"),
    (lambda: Campaign(campaign_id="S1", type="coupon", title="c", products=["A", "B"], set_price=50, amount=5),
     "'set_price' is for bundle campaigns"),
    (lambda: SizeChart(measure="foot length", unit="ft", rows=[{"sizes": ["9"], "value": 1}]), "'mm', 'cm' or 'in'"),
])
def test_bad_terms_are_refused_with_the_reason(make, words):
    with pytest.raises(ValueError) as ei:
        make()
    assert words in str(ei.value)


def test_a_room_file_error_names_the_file_and_the_field(tmp_path):
    text = (DATA_ROOMS / EN).read_text(encoding="utf-8").replace("restocking_fee: {percent: 15, when: opened watches}",
                                                                 "restocking_fee: {percent: 15, amount: 20}")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    msg = str(ei.value)
    assert "bad.yaml" in msg and "catalog.products.0.returns.restocking_fee" in msg and "give one of" in msg, msg


def test_absent_fields_keep_the_older_records():
    p = Product(**_BASE)
    assert p.size_chart is None and p.returns.restocking_fee is None and p.returns.warranty_parts == []
    assert p.returns.return_shipping_insurance is None and p.returns.no_return_when == []
    r = room("electronics_en", 1, 10.0)
    tb = ToolBackend(r, None, random.Random(0))
    pid = r.products[0].product_id
    assert set(tb.execute("after_sales_policy", {"product_id": pid})) == {"return_days", "exchange", "warranty_months",
                                                                           "note"}
    assert "size_chart" not in tb.execute("product_by_id", {"product_id": pid})


# --- tools --------------------------------------------------------------------------------------------------


def test_tools_return_the_terms():
    tb = ToolBackend(ROOM[EN], None, random.Random(0))
    a = tb.execute("after_sales_policy", {"product_id": "WT01"})
    assert a["restocking_fee"] == {"percent": 15.0, "when": "opened watches"}
    assert a["warranty_parts"] == [{"names": ["movement"], "warranty": {"value": 1, "unit": "years"}, "covered": True},
                                   {"names": ["strap", "band"], "covered": False}]
    assert a["return_shipping_insurance"] is False
    assert a["no_return_when"] == [{"names": ["engraved", "engraving", "personalized"]}]
    b = tb.execute("after_sales_policy", {"product_id": "WT02"})
    assert b["restocking_fee"] == {"amount": 10.0, "when": ""} and b["return_shipping_insurance"] is True
    chart = tb.execute("product_by_link", {"link": 2})["size_chart"]
    assert chart["measure"] == "foot length" and chart["unit"] == "cm"
    assert chart["rows"][1] == {"sizes": ["US 9", "size 9"], "value": 27.0}
    zh = ToolBackend(ROOM[ZH], None, random.Random(0)).execute("product_by_link", {"link": 2})["size_chart"]
    assert zh["rows"][0] == {"sizes": ["110码"], "min": 105.0, "max": 115.0}


def test_the_campaigns_tool_returns_a_mixed_set():
    tb = ToolBackend(ROOM[EN], None, random.Random(0))
    (view,) = tb.execute("campaigns", {"product_id": "WT02"})["campaigns"]
    assert view["set_price"] == 299 and view["separately"] == 338
    assert view["set_products"] == [{"product_id": "WT01", "link": 1, "title": "Meridian Automatic Watch"},
                                    {"product_id": "WT02", "link": 2, "title": "Ridge Trail Running Shoe"}]
    assert ROOM[EN].quote(ROOM[EN].by_id["WT01"]).total == 249  # a set changes no product's own price


# --- the parser: questions about them are after-sales questions ---------------------------------------------


@pytest.mark.parametrize(("path", "text"), [
    (EN, "link 1 restocking fee?"), (EN, "is there a restocking fee on link 1"),
    (ES, "¿hay gastos de reposición en el enlace 1?"), (ZH, "1号有运费险吗"),
])
def test_a_restocking_or_return_shipping_question_is_after_sales(path, text):
    r = ROOM[path]
    assert [i.kind for i in parse_comment(text, r.locale, catalog=r)] == ["after_sales"]


def test_a_restock_question_is_still_stock():
    r = ROOM[EN]
    assert [i.kind for i in parse_comment("link 1 restock soon?", r.locale, catalog=r)] == ["stock"]


# --- the grader ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("path", "link", "kind", "reply", "ok"), [
    (EN, 1, 'after_sales', 'Link 1 has a 15% restocking fee on opened watches.', True),
    (EN, 1, 'after_sales', 'Link 1 has a 20% restocking fee on opened watches.', False),
    (EN, 1, 'after_sales', 'Link 1: the movement has a 1-year warranty, the strap is not covered.', True),
    (EN, 1, 'after_sales', 'Link 1: the strap is covered by the warranty too.', False),
    (EN, 1, 'after_sales', 'Link 1: the movement has a 2-year warranty.', False),
    (EN, 1, 'after_sales', 'Link 1: return shipping is free.', False),
    (EN, 1, 'after_sales', 'Link 1: return shipping is paid by the buyer.', True),
    (EN, 1, 'after_sales', 'Link 1: you can return it even if engraved.', False),
    (EN, 1, 'after_sales', "Link 1: engraved watches can't be returned.", True),
    (EN, 1, 'after_sales', 'Link 1: 30-day returns, unopened watches have no restocking fee, opened ones pay 15%.',
     True),
    (EN, 2, 'after_sales', 'Link 2 has free return shipping and a $10 restocking fee.', True),
    (EN, 2, 'after_sales', 'Link 2 has a 10% restocking fee.', False),
    (EN, 2, 'after_sales', "Link 2: return shipping isn't free.", False),
    (EN, 2, 'after_sales', "Link 2: worn shoes can't be returned.", True),
    (EN, 2, 'after_sales', 'Link 2: the sole has a 6-month warranty.', True),
    (EN, 2, 'spec', 'Link 2: size 9 is 27 cm.', True),
    (EN, 2, 'spec', 'Link 2: size 9 is 28 cm.', False),
    (EN, 2, 'spec', 'Link 2: US 8 is 26 cm, US 10 is 28 cm.', True),
    (EN, 2, 'spec', 'Link 2: US 8 is 27 cm.', False),
    (ZH, 1, 'spec', '1号29码对应18cm', True),
    (ZH, 1, 'spec', '1号29码对应19cm', False),
    (ZH, 1, 'after_sales', '1号开胶保修6个月，鞋带不保', True),
    (ZH, 1, 'after_sales', '1号开胶保修一年', False),
    (ZH, 1, 'after_sales', '1号鞋带也保修', False),
    (ZH, 1, 'after_sales', '1号有运费险，退货包运费', True),
    (ZH, 1, 'after_sales', '1号没有运费险', False),
    (ZH, 1, 'after_sales', '1号穿过也可以退', False),
    (ZH, 1, 'after_sales', '1号穿过就不能退了', True),
    (ZH, 2, 'after_sales', '2号有运费险，退货包运费', False),
    (ZH, 1, 'after_sales', '1号赠运费险哦，退换不花钱', True),
    (ZH, 2, 'after_sales', '2号也送运费险', False),
    (ZH, 2, 'after_sales', '2号没有运费险，退货运费自理', True),
    (ZH, 2, 'after_sales', '2号剪吊牌了也可以退', False),
    (ZH, 2, 'after_sales', '2号剪吊牌后不能退', True),
    (ZH, 2, 'after_sales', '2号包装拆了退货收10%折旧费', True),
    (ZH, 2, 'after_sales', '2号退货收5%折旧费', False),
    (ZH, 2, 'spec', '2号110码适合身高105-115cm', True),
    (ZH, 2, 'spec', '2号130码适合身高115-125cm', False),
    (ES, 1, 'after_sales', 'El anillo tiene garantía de 6 meses en el baño; las piedras no están cubiertas.', True),
    (ES, 1, 'after_sales', 'El anillo tiene garantía en las piedras.', False),
    (ES, 1, 'after_sales', 'El anillo: la devolución es gratuita.', False),
    (ES, 1, 'after_sales', 'Los anillos grabados no se pueden devolver.', True),
    (ES, 1, 'after_sales', 'Los anillos grabados también se pueden devolver.', False),
    (ES, 1, 'after_sales', 'El anillo tiene un 10 % de gastos de reposición.', True),
    (ES, 1, 'after_sales', 'El anillo tiene un 20 % de gastos de reposición.', False),
    (ES, 1, 'spec', 'La talla 14 son 54 mm.', True),
    (ES, 1, 'spec', 'La talla 14 son 56 mm.', False),
    (ES, 2, 'after_sales', 'Los pendientes tienen devolución gratuita.', True),
    (ES, 2, 'after_sales', 'Los pendientes desprecintados también se pueden devolver.', False),
    (ES, 2, 'after_sales', 'Los pendientes desprecintados no se devuelven.', True),
])
def test_claims_about_the_terms_are_checked_against_the_data(path, link, kind, reply, ok):
    r = ROOM[path]
    pid = r.by_link[link].product_id
    rep = read_claims(reply, r, intents=[Intent(kind, link=link)])
    bad = [c.reason for c in rep.bad]
    assert (not bad) is ok, bad
    key = ("after_sales", pid) if kind == "after_sales" else ("spec:*", pid)
    assert (key in rep.answered()) is ok, sorted(rep.answered())


@pytest.mark.parametrize(("path", "reply", "ok"), [
    (EN, "The watch and the running shoe together are $299.", True),
    (EN, "Link 1 is in a bundle with link 2 for $299.", True),
    (EN, "Link 1 is in a bundle with link 2 for $250.", False),
    (EN, "Link 1 is $249 and link 2 is $89, or $299 for both as a set.", True),
    (ZH, "1号加2号一起买只要369", True),
    (ZH, "1号加2号套装329元", False),
    (ZH, "1号129元，2号299元，套装一起369元", True),
    (ES, "El anillo y los pendientes juntos por 85 €.", True),
    (ES, "El lote del anillo con los pendientes sale a 75 €.", False),
])
def test_a_mixed_set_price_is_checked_and_answers_both_products(path, reply, ok):
    r = ROOM[path]
    rep = read_claims(reply, r, intents=[Intent("price", link=1)])
    bad = [c.reason for c in rep.bad]
    assert (not bad) is ok, bad
    assert all((("price", p.product_id) in rep.answered()) is ok for p in r.products), sorted(rep.answered())


def test_a_false_claim_says_what_the_data_says():
    r = ROOM[EN]
    reasons = [c.reason for c in read_claims("Link 1: the strap is covered by the warranty too.", r).bad]
    assert reasons == ["link 1: the strap is not covered by the warranty"]
    reasons = [c.reason for c in read_claims("Link 2: size 9 is 28 cm.", r).bad]
    assert reasons == ["link 2: '28 cm' for size 9 but its foot length is 27 cm"]


def test_the_same_words_in_a_room_without_the_terms_keep_their_usual_reading():
    r = room("electronics_en", 1, 10.0)
    assert not any(c.attribute in ("warranty_part", "return_shipping", "final_sale", "restocking_fee")
                   for c in read_claims("Link 1: the strap is covered by the warranty, return shipping is free.",
                                        r).claims)


# --- built-in rooms whose notes say it: beauty_zh link 2 (拆封后非质量问题不支持退换), groceries_zh link 6 (拆封后不支持退货)


@pytest.mark.parametrize(("scenario", "link", "reply", "ok"), [
    ("beauty_zh", 2, "2号拆封了也可以退", False),
    ("beauty_zh", 2, "2号拆封后非质量问题不支持退换", True),
    ("beauty_zh", 2, "2号未拆封7天内可以退", True),
    ("groceries_zh", 6, "6号拆封了也能退", False),
    ("groceries_zh", 6, "6号拆封后就不能退了", True),
])
def test_a_built_in_final_sale_condition_is_checked(scenario, link, reply, ok):
    r = room(scenario, 4242, 10.0)
    rep = read_claims(reply, r, intents=[Intent("after_sales", link=link)])
    assert (not rep.bad) is ok, [c.reason for c in rep.bad]
    assert (("after_sales", r.by_link[link].product_id) in rep.answered()) is ok
