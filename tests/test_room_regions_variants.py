"""Per-region shipping (``shipping.regions``) and per-variant stock (``variants``) in a room file: the schema and
its errors, the tools, the prompt, the reference's answers and the grader's verdicts, in zh_CN, en_US and es_ES.

The rooms are tests/data/rooms/xiedian_zh.yaml, tote_en.yaml and bolsos_es.yaml (their first lines say what each
product has); every expectation below is written from that data: 新疆/西藏/内蒙古 pay 10元 extra for the canvas
shoes (free shipping elsewhere) and do not get the tote at all; the black 38码 shoe is sold out, 黑色 39码 has 12
and 白色 38码 5; the rain jacket is $15 extra to Alaska/Hawaii and not sent to Puerto Rico, Black / M sold out,
Black / L 7, White / M 12; the zapatillas pay 5 € extra to Canarias, Negro / 38 sold out, Negro / 39 6,
Blanco / 38 4, and the bolso is not sent to Canarias.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.agents.reference import ReferenceAgent
from hat_env.constraints import compliance_hits
from hat_env.envs.session import LiveSession, stream
from hat_env.evaluation.runner import run_case
from hat_env.harness.render import render_system
from hat_env.scoring.claims import read_claims
from hat_env.sim.catalog import Product, Region, Shipping, Variant
from hat_env.sim.compliance import RuleSet
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.room_words import regions_named, variants_named
from hat_env.sim.scenario import load_scenario
from hat_env.sim.tools import ToolBackend
from hat_env.types import Intent
from hat_env.yamlio import FileError

ROOMS = Path(__file__).parent / "data" / "rooms"
ZH, EN, ES = (str(ROOMS / f"{n}.yaml") for n in ("xiedian_zh", "tote_en", "bolsos_es"))


def room(path: str, t: float = 10.0) -> RoomState:
    """The room of scenario file ``path`` at ``t`` seconds."""
    r = RoomState(load_scenario(path), stream(1, "catalog"))
    r.t = t
    return r


ROOM = {p: room(p) for p in (ZH, EN, ES)}


# --- schema -------------------------------------------------------------------------------------------------

_BASE = dict(product_id="P1", link=1, title="Tote", brand="Acme", category="apparel", price=20, list_price=25)


@pytest.mark.parametrize(("make", "words"), [
    (lambda: Region(names=[]), "at least 1 item"),
    (lambda: Region(names=["  "]), "a region name is empty"),
    (lambda: Region(names=["Hawaii"], fee=-1), "greater than or equal to 0"),
    (lambda: Region(names=["Hawaii"], fee=5, ships=False), "give a fee only where it ships"),
    (lambda: Region(names=["Hawaii"], cost=5), "Extra inputs are not permitted"),
    (lambda: Shipping(regions=[Region(names=["Hawaii"]), Region(names=["hawaii"], ships=False)]),
     "'hawaii' is also a name of regions.0"),
    (lambda: Variant(name="Black", stock=-1), "greater than or equal to 0"),
    (lambda: Product(**_BASE, stock=10, variants=[Variant(name="Black", stock=3), Variant(name="White", stock=4)]),
     "their stock adds up to 7 but the product's stock is 10"),
    (lambda: Product(**_BASE, stock=6, variants=[Variant(name="Black", stock=3), Variant(name="black", stock=3)]),
     "variants.1.name: 'black' is given twice"),
])
def test_bad_regions_and_variants_are_refused_with_the_reason(make, words):
    with pytest.raises(ValueError, match=None) as ei:
        make()
    assert words in str(ei.value)


def test_a_room_file_error_names_the_file_and_the_field(tmp_path):
    text = Path(ZH).read_text(encoding="utf-8").replace("stock: 17", "stock: 18")
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    msg = str(ei.value)
    assert "bad.yaml" in msg and "catalog.products.0" in msg and "adds up to 17" in msg, msg
    text = Path(ZH).read_text(encoding="utf-8").replace("{names: [新疆, 西藏], ships: false}",
                                                        "{names: [新疆, 西藏], ships: false, fee: 3}")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FileError) as ei:
        load_scenario(path)
    assert "catalog.products.1.shipping.regions.0" in str(ei.value) and "only where it ships" in str(ei.value)


def test_absent_fields_keep_the_older_records():
    p = Product(**_BASE, stock=5)
    assert p.variants == [] and p.shipping.regions == [] and p.variant_stock(5) == []
    r = room("electronics_en")
    tb = ToolBackend(r, None, random.Random(0))
    pid = r.products[0].product_id
    assert set(tb.execute("shipping_policy", {"product_id": pid})) == {"ships_within_hours", "carrier", "free_shipping", "fee"}
    assert set(tb.execute("stock", {"product_id": pid})) == {"product_id", "stock", "in_stock"}
    assert "variants" not in tb.execute("product_by_id", {"product_id": pid})


# --- name matching ------------------------------------------------------------------------------------------


def test_names_are_read_from_the_data_as_whole_words():
    assert [k for k, _s, _e in variants_named("Black L?", ["Black / M", "Black / L"])] == [1]
    assert [k for k, _s, _e in variants_named("38码还有吗", ["黑色 38码", "黑色 39码", "白色 38码"])] == [0, 2]
    assert [k for k, _s, _e in variants_named("黑色38码还有吗", ["黑色 38码", "黑色 39码", "白色 38码"])] == [0]
    assert variants_named("link 3 please", ["Black / L"]) == []  # the l of "link" is no size L
    assert [k for k, _s, _e in variants_named("White M?", ["Black / M", "White / M"])] == [1]
    assert [k for k, _s, _e in regions_named("Ships to hawaii?", [["Alaska", "Hawaii"], ["Puerto Rico"]])] == [0]
    assert regions_named("Hawaiian shirt", [["Hawaii"]]) == []


# --- tools and prompt ---------------------------------------------------------------------------------------


def test_tools_return_regions_and_variants():
    r = ROOM[ZH]
    tb = ToolBackend(r, None, random.Random(0))
    ship = tb.execute("shipping_policy", {"product_id": "XD01"})
    assert ship["regions"] == [{"names": ["新疆", "西藏", "内蒙古"], "fee": 10.0, "ships": True}]
    assert tb.execute("shipping_policy", {"product_id": "XD02"})["regions"] == [
        {"names": ["新疆", "西藏"], "fee": 0.0, "ships": False}]
    st = tb.execute("stock", {"product_id": "XD01"})
    assert st["stock"] == 17 and st["variants"] == [
        {"name": "黑色 38码", "stock": 0, "in_stock": False}, {"name": "黑色 39码", "stock": 12, "in_stock": True},
        {"name": "白色 38码", "stock": 5, "in_stock": True}]
    assert tb.execute("product_by_link", {"link": 1})["variants"] == ["黑色 38码", "黑色 39码", "白色 38码"]
    assert "regions" not in tb.execute("shipping_policy", {"product_id": "XD03"})
    r.stock["XD01"] = 3  # sales took some: no variant shows more than the product has; sold out is sold out
    assert [v["stock"] for v in tb.execute("stock", {"product_id": "XD01"})["variants"]] == [0, 3, 3]
    r.stock["XD01"] = 0
    assert not any(v["in_stock"] for v in tb.execute("stock", {"product_id": "XD01"})["variants"])
    r.stock["XD01"] = 17


@pytest.mark.parametrize(("path", "lines"), [  # the default harness writes its prompt in English
    (ZH, ["  sizes/colours: 黑色 38码, 黑色 39码, 白色 38码", "  shipping by region: 新疆/西藏/内蒙古 +10元",
          "  shipping by region: 新疆/西藏 not shipped"]),
    (EN, ["  sizes/colours: Black / M, Black / L, White / M", "  shipping by region: Alaska/Hawaii +$15, Puerto Rico not shipped"]),
    (ES, ["  sizes/colours: Negro / 38, Negro / 39, Blanco / 38",
          "  shipping by region: Canarias/islas Canarias +5 €, Ceuta/Melilla not shipped"]),
])
def test_the_prompt_lists_them_under_the_product(path, lines):
    s = LiveSession(path, seed=0, viewers=False)
    text = render_system(s.host.harness, s.room, s.scenario.room)
    for line in lines:
        assert line in text.splitlines(), text
    b = LiveSession("apparel_flash_zh", seed=0, viewers=False)
    plain = render_system(b.host.harness, b.room, b.scenario.room)
    assert "sizes/colours" not in plain and "shipping by region" not in plain


# --- the reference's answers --------------------------------------------------------------------------------


def _ask(path: str, text: str) -> dict:
    sc = load_scenario(path)
    intents = [i.to_dict() for i in parse_comment(text, sc.locale, vocabulary=sc.vocab)]
    case = {"id": "t/0", "suite": "t", "category": "t", "scenario": path, "locale": sc.locale, "seed": 1,
            "t": 10.0, "comments": [{"viewer": "v", "persona": "price_asker", "text": text, "intents": intents}]}
    return run_case(case, ReferenceAgent())


@pytest.mark.parametrize(("path", "comment", "said", "unsaid"), [
    (ZH, "1号链接新疆包邮吗", ["新疆", "10元"], ["新疆包邮"]),
    (ZH, "2号链接能发西藏吗？", ["不发西藏"], []),
    (ZH, "1号黑色38码有货吗", ["黑色 38码已售罄", "黑色 39码有货，库存12件"], []),
    (ZH, "1号38码还有吗", ["黑色 38码已售罄", "白色 38码有货，库存5件"], ["39码"]),
    (EN, "does link 1 ship to Hawaii?", ["Hawaii", "$15 extra"], []),
    (EN, "link 1 shipping to Puerto Rico?", ["can't ship to Puerto Rico"], []),
    (EN, "link 1 white M in stock?", ["White / M is in stock, 12 available"], ["Black"]),
    (ES, "¿el enlace 1 tiene envío gratis a Canarias?", ["Canarias", "5 € de recargo"], []),
    (ES, "¿envían el enlace 2 a Canarias?", ["no se envía a Canarias"], []),
    (ES, "¿queda el enlace 1 en negro 38?", ["Negro / 38 está agotado", "Negro / 39 tiene stock, quedan 6"], []),
])
def test_the_reference_answers_the_region_or_variant_named(path, comment, said, unsaid):
    rec = _ask(path, comment)
    for s in said:
        assert s in rec["reply"], rec["reply"]
    for s in unsaid:
        assert s not in rec["reply"], rec["reply"]
    assert rec["components"]["accuracy"] == 1.0 and rec["components"]["effectiveness"] == 1.0, (rec["reply"], rec["notes"])


def test_the_reference_keeps_its_usual_answer_when_nothing_is_named():
    assert _ask(ZH, "2号链接包邮吗")["reply"].startswith("2号链接包邮，付款后48小时内发货")
    assert "库存17件" in _ask(ZH, "1号链接有货吗")["reply"]


# --- the grader ---------------------------------------------------------------------------------------------


def _verdict(path: str, reply: str, it: Intent) -> tuple[list[str], set]:
    rep = read_claims(reply, ROOM[path], intents=[it])
    return [c.reason for c in rep.bad], rep.answered()


SHIP1, SHIP2 = Intent("shipping", link=1), Intent("shipping", link=2)
STOCK1 = Intent("stock", link=1)


@pytest.mark.parametrize(("path", "reply", "it", "ok"), [
    (ZH, "新疆也包邮", SHIP1, False),
    (ZH, "新疆、西藏要加10元运费，其他地区包邮", SHIP1, True),
    (ZH, "新疆加20元运费", SHIP1, False),
    (ZH, "新疆不包邮哦", SHIP1, True),
    (ZH, "这款包西藏不发货哦", SHIP2, True),
    (ZH, "西藏也能发，包邮", SHIP2, False),
    (ZH, "包邮，48小时内发货", SHIP1, True),  # no region named: the usual terms
    (EN, "It ships to Hawaii for free", SHIP1, False),
    (EN, "Hawaii is $15 extra", SHIP1, True),
    (EN, "Alaska is $5 extra", SHIP1, False),
    (EN, "We can't ship it to Puerto Rico", SHIP1, True),
    (EN, "Link 2 ships to Hawaii", SHIP2, False),
    (EN, "Link 2 doesn't ship to Hawaii, sorry", SHIP2, True),
    (ES, "Envío gratis a Canarias", SHIP1, False),
    (ES, "A Canarias hay un recargo de 5 €", SHIP1, True),
    (ES, "El bolso no se envía a Canarias", SHIP2, True),
    (ES, "El bolso se envía a Canarias", SHIP2, False),
])
def test_region_claims_are_checked_against_that_region(path, reply, it, ok):
    bad, answered = _verdict(path, reply, it)
    pid = ROOM[path].by_link[it.link].product_id
    assert (not bad) is ok, bad
    assert (("shipping:free", pid) in answered or ("shipping", pid) in answered) is ok


@pytest.mark.parametrize(("path", "reply", "ok"), [
    (ZH, "黑色38码有货", False),
    (ZH, "黑色 38码没货了，39码还有12件", True),
    (ZH, "38码有货，白色的还有5件", True),
    (ZH, "白色 38码还有12件", False),
    (ZH, "黑色 39码已售罄", False),
    (EN, "Black / M is in stock", False),
    (EN, "Black / M is sold out, but White / M has 12", True),
    (EN, "black is in stock", True),  # Black / L has 7
    (EN, "White / M is sold out", False),
    (ES, "Negro / 38 tiene stock", False),
    (ES, "Negro / 38 está agotado, Blanco / 38 tiene stock", True),
    (ES, "Blanco / 38: quedan 6", False),
])
def test_variant_stock_claims_are_checked_against_that_variant(path, reply, ok):
    bad, answered = _verdict(path, reply, STOCK1)
    assert (not bad) is ok, bad
    assert (("stock", ROOM[path].by_link[1].product_id) in answered) is ok


def test_a_product_wide_claim_still_reads_the_product():
    assert not _verdict(ZH, "1号链接有货，库存17件", STOCK1)[0]
    assert _verdict(ZH, "1号链接售罄了", STOCK1)[0]


@pytest.mark.parametrize(("path", "reply", "broken"), [
    (ZH, "1号链接黑色 38码直接拍", True),
    (ZH, "1号链接黑色 39码有货，直接拍", False),
    (EN, "Link 1 in Black / M: grab it now", True),
    (EN, "Link 1 in Black / L: grab it now", False),
    (ES, "Enlace 1 en Negro / 38: cómpralo ya", True),
])
def test_selling_a_sold_out_variant_breaks_the_sold_out_rule(path, reply, broken):
    r = ROOM[path]
    ids = [h.rule_id for h in compliance_hits(reply, r, RuleSet.for_scenario(load_scenario(path)))]
    assert ("SOLD-OUT" in ids) is broken, ids
    claims = read_claims(reply, r, intents=[Intent("purchase", link=1)]).bad
    assert any(c.value == "buy" for c in claims) is broken


@pytest.mark.parametrize(("path", "comment", "said"), [
    (ZH, "我要拍1号黑色38码", ["黑色 38码已售罄", "黑色 39码有货"]),
    (EN, "I want to buy link 1 in Black / M", ["Black / M is sold out", "Black / L is in stock"]),
    (ES, "quiero comprar el enlace 1 en negro 38", ["Negro / 38 está agotado", "Negro / 39 tiene stock"]),
])
def test_the_reference_does_not_sell_a_sold_out_variant(path, comment, said):
    rec = _ask(path, comment)
    for s in said:
        assert s in rec["reply"], rec["reply"]
    assert rec["components"]["compliance"] == 1.0 and rec["components"]["effectiveness"] == 1.0, rec["reply"]


def test_locale_prompt_strings_for_the_new_lines_exist():
    from hat_env.locale_text import fill
    from hat_env.locales import get_locale

    for loc, want in (("zh_CN", "新疆加10元"), ("en_US", "新疆 +10元"), ("es_ES", "新疆 +10元")):
        P = get_locale(loc).prompt
        assert P.variants_line and P.regions_line and P.region_no_ship
        assert fill(P.region_fee, names="新疆", fee="10元") == want
