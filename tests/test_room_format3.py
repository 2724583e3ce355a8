"""Free shipping from an order total (``shipping.free_over``: "满99包邮", "free shipping over $50", "envío gratis
desde 35 €") in a room file: the schema and its errors, the ``shipping_policy`` tool and the grader's verdicts in
zh_CN, en_US and es_ES.

The rooms are tests/data/rooms/wenju_zh.yaml, pantry_en.yaml and papeleria_es.yaml (their first lines say what each
product has; ``python scenarios/calibration/facts.py room tests/data/rooms/pantry_en.yaml 1 100``): link 1 is
under the threshold (one alone pays the fee), link 2 above it (one alone ships free), link 3 always ships free.
1号 39元 运费8元 满99包邮, 2号 129元, 3号 包邮; link 1 $18 ($5.99, free over $50), link 2 $89, link 3 free; enlace 1
12 € (3,95 €, gratis desde 35 €), enlace 2 45 €, enlace 3 gratis. The pass's dev set is
tests/data/replies_dev_roomfmt3.jsonl (calibration item format, a seeded third held back).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.scoring.calibrate import grade_items, load_items
from hat_env.scoring.claims import read_claims
from hat_env.sim.catalog import Shipping
from hat_env.sim.scenario import load_scenario
from hat_env.sim.tools import ToolBackend
from hat_env.types import Intent
from hat_env.yamlio import FileError

from rooms import DATA_ROOMS, room

ZH, EN, ES = "wenju_zh.yaml", "pantry_en.yaml", "papeleria_es.yaml"
ROOM = {p: room(p, 1, 100.0) for p in (ZH, EN, ES)}


# --- schema and tool ------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("kw", "words"), [
    (dict(free_shipping=True, free_over=99), "needs free_shipping: false and the fee paid below it"),
    (dict(free_shipping=False, fee=0, free_over=99), "needs free_shipping: false and the fee paid below it"),
    (dict(free_shipping=False, fee=8, free_over=0), "greater than 0"),
    (dict(free_shipping=False, fee=8, free_over=float("inf")), "finite number"),
])
def test_bad_thresholds_are_refused_with_the_reason(kw, words):
    with pytest.raises(ValueError) as ei:
        Shipping(**kw)
    assert words in str(ei.value)


def test_a_room_file_error_names_the_file_and_the_field(tmp_path):
    text = (DATA_ROOMS / EN).read_text(encoding="utf-8").replace("free_shipping: false, fee: 5.99, free_over: 50",
                                                                  "free_shipping: true, free_over: 50", 1)
    p = tmp_path / "bad.yaml"
    p.write_text(text, encoding="utf-8")
    with pytest.raises((FileError, ValueError)) as ei:
        load_scenario(str(p))
    msg = str(ei.value)
    assert "bad.yaml" in msg and "shipping" in msg and "free_over" in msg


def test_the_shipping_tool_gives_the_threshold_only_where_there_is_one():
    r = ROOM[EN]
    tools = ToolBackend(r, None, random.Random(0))
    assert tools.execute("shipping_policy", {"product_id": "PA01"})["free_over"] == 50
    assert "free_over" not in tools.execute("shipping_policy", {"product_id": "PA03"})
    built = room("electronics_en", 1, 10.0)
    assert all("free_over" not in ToolBackend(built, None, random.Random(0)).execute(
        "shipping_policy", {"product_id": p.product_id}) for p in built.products)


# --- grader ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("path", "link", "reply", "ok"), [
    # the threshold said: true when it is free_over, false otherwise (before or after the amount, next clause)
    (ZH, 1, "满99包邮哦，单买一盒笔运费8元", True),
    (ZH, 1, "凑满99元就包邮啦", True),
    (ZH, 1, "99元以上包邮", True),
    (ZH, 1, "满59包邮哦", False),
    (ZH, 1, "1号超过50就包邮", False),
    (EN, 1, "Free shipping on orders over $50, otherwise it's $5.99.", True),
    (EN, 1, "Spend $50 or more and shipping is free.", True),
    (EN, 1, "Add a few bottles: $50+ ships free.", True),
    (EN, 1, "Link 1 is $18; shipping is $5.99, free on orders over $50.", True),
    (EN, 1, "Free shipping over $30!", False),
    (EN, 1, "Orders above $40 get free shipping.", False),
    (ES, 1, "Envío gratis desde 35 €.", True),
    (ES, 1, "Con pedidos desde 35 € el envío es gratis.", True),
    (ES, 1, "El envío cuesta 3,95 €, gratis a partir de 35 €.", True),
    (ES, 1, "Envío gratis a partir de 20 €.", False),
    (ES, 1, "Envío gratis en pedidos de más de 25 €.", False),
    # no threshold said: one item alone, against its price now
    (ZH, 1, "1号包邮的亲", False),
    (ZH, 1, "1号单买一盒也包邮", False),
    (ZH, 1, "1号不包邮，运费8元", True),
    (ZH, 2, "2号书包129元，包邮到家", True),
    (ZH, 2, "2号不包邮", False),
    (ZH, 3, "3号不包邮，运费8元", False),
    (EN, 1, "Link 1 is $18 with free shipping.", False),
    (EN, 1, "One bottle doesn't ship free, shipping is $5.99.", True),
    (EN, 2, "The espresso machine ships free.", True),
    (EN, 2, "Link 2 doesn't ship free.", False),
    (ES, 1, "El cuaderno de 12 € tiene envío gratis.", False),
    (ES, 1, "El enlace 1 no tiene envío gratis, son 3,95 €.", True),
    (ES, 2, "La mochila tiene envío gratis.", True),
    (ES, 2, "El enlace 2 no tiene envío gratis.", False),
])
def test_free_shipping_from_an_order_total(path, link, reply, ok):
    r = ROOM[path]
    rep = read_claims(reply, r, intents=[Intent("shipping", link=link)])
    bad = [c.reason for c in rep.bad]
    assert (not bad) is ok, bad
    pid = r.products[link - 1].product_id
    if ok:
        assert any(k[1] == pid and k[0].startswith("shipping") for k in rep.answered()), sorted(rep.answered())


def test_a_false_threshold_says_what_the_data_says():
    reasons = [c.reason for c in read_claims("满59包邮哦", ROOM[ZH], intents=[Intent("shipping", link=1)]).bad]
    assert reasons == ["link 1: free shipping from '59' but it is from 99"]
    reasons = [c.reason for c in read_claims("Link 1 ships free.", ROOM[EN], intents=[Intent("shipping", link=1)]).bad]
    assert reasons == ["link 1: 'ships free' but shipping is free only from 50 and one costs 18"]


def test_the_same_words_in_a_room_without_a_threshold_keep_their_usual_reading():
    r = room("tote_en.yaml", 1, 10.0)  # link 1 pays $6.99 shipping, no threshold
    rep = read_claims("Free shipping on orders over $50.", r, intents=[Intent("shipping", link=1)])
    assert not any(c.attribute == "free_over" for c in rep.claims)
    assert any(c.attribute == "free_shipping" and c.verdict == "false" for c in rep.claims)


# --- the dev set ----------------------------------------------------------------------------------------------

def _agreement(split: str) -> float:
    items = load_items("replies_dev_roomfmt3.jsonl", split, folder=Path(__file__).parent / "data")
    recs = grade_items(items)
    same = sum(1 for r in recs if r.get("pred") is not None
               and all(r["pred"][k] == r["label"][k] for k in ("accuracy", "effectiveness", "compliance")))
    return same / len(items)


def test_the_dev_set_agrees():
    assert _agreement("train") >= 0.90  # develop half: 55/55
    assert _agreement("test") >= 0.88  # held-back half, not tuned on: 25/27
