"""Form checks for the English calibration sets (scenarios/calibration/replies_electronics_en.jsonl and
comments_en_US.jsonl): every item has the CALIBRATION.md fields, refers only to products, spec keys and orders the
electronics_en room has, and the test split is exactly the seeded draw of split.py (nobody picked it).
They check the data's form, not its labels: labels are people's judgements, checked by hand."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest

from hat_env.sim.scenario import load_scenario
from hat_env.types import INTENT_KINDS

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
REPLIES = CAL / "replies_electronics_en.jsonl"
COMMENTS = CAL / "comments_en_US.jsonl"

REPLY_CATEGORIES = {
    "correct_plain", "correct_paraphrase", "correct_yesno", "correct_extra", "correct_honest_unknown",
    "correct_denial", "correct_social", "incomplete", "false_price", "false_number", "false_campaign",
    "false_shipping", "false_policy", "false_spec", "wrong_product", "false_stock", "sold_out_sale",
    "false_guarantee", "compliance_plain", "compliance_disguised", "ai_identity", "leak", "injection_followed",
    "fake_reference_price", "fake_scarcity", "endorsement", "medical_claim", "medical_denial_ok",
}
#: electronics_en has no product with zero stock at any moment, so no sold-out sale can be written for it.
NOT_COVERABLE = {"sold_out_sale"}
STYLES = {"plain", "slang", "typo", "no_punct", "emoji", "mixed", "traditional", "pinyin", "name_ref", "implicit",
          "multi", "spanish", "other_language", "injection", "social"}
KINDS = set(INTENT_KINDS) | {"identity", "efficacy", "other_language"}


def _load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


@pytest.fixture(scope="module")
def room() -> dict[str, Any]:
    sc = load_scenario("electronics_en")
    return {"specs": {p.link: set(p.specs) for p in sc.catalog.products},
            "orders": {o.order_id for o in sc.orders}}


def _intent_problems(it: dict[str, Any], room: dict[str, Any]) -> list[str]:
    """What is wrong with one intent dict, as messages (empty when it is well formed)."""
    bad = []
    if it.get("kind") not in KINDS:
        bad.append(f"unknown kind {it.get('kind')!r}")
    for key in ("link", "link2"):
        if key in it and it[key] not in room["specs"]:
            bad.append(f"{key} {it[key]} is not a link of the room")
    if it.get("kind") == "compare" and "link2" not in it:
        bad.append("compare without link2")
    if "attr" in it:
        keys = room["specs"].get(it.get("link"), set().union(*room["specs"].values()))
        if it["attr"] != "unknown" and it["attr"] not in keys:
            bad.append(f"attr {it['attr']!r} is not a spec key of link {it.get('link')} (use 'unknown')")
    if "order_id" in it and it["order_id"] not in room["orders"]:
        bad.append(f"order {it['order_id']} is not in the room")
    return bad


def test_reply_items_have_the_documented_form(room: dict[str, Any]) -> None:
    items = _load(REPLIES)
    assert len(items) >= 180
    assert len({it["id"] for it in items}) == len(items)
    problems = []
    for it in items:
        where = it.get("id", "?")
        if not re.fullmatch(r"cal-electronics_en-\d{4}", it["id"]):
            problems.append(f"{where}: id")
        if it["split"] not in ("train", "test") or it["category"] not in REPLY_CATEGORIES:
            problems.append(f"{where}: split/category")
        lab = it["label"]
        if set(lab) != {"accuracy", "effectiveness", "compliance"} or lab["accuracy"] not in (0, 1) \
                or lab["effectiveness"] not in (0, 0.5, 1) or lab["compliance"] not in (0, 1):
            problems.append(f"{where}: label {lab}")
        if not it.get("why"):
            problems.append(f"{where}: no why")
        case = it["case"]
        if case["scenario"] != "electronics_en" or case["locale"] != "en_US" or "gold" in case:
            problems.append(f"{where}: case header")
        for c in case["comments"]:
            if ("intents" in c) == ("expect_intents" in c):
                problems.append(f"{where}: a comment needs intents (suite case) or expect_intents (own comment)")
            for i in c.get("intents", c.get("expect_intents", [])):
                problems += [f"{where}: {m}" for m in _intent_problems(i, room)]
        turns = it["turns"]
        if not (isinstance(turns[-1], str) and turns[-1].strip()):
            problems.append(f"{where}: last turn must be the reply text")
        if any("<tool_call>" not in t for t in turns[:-1]):
            problems.append(f"{where}: every turn but the last is a tool-call turn")
    assert not problems, problems


def test_reply_set_covers_every_category_it_can() -> None:
    cats = {it["category"] for it in _load(REPLIES)}
    assert REPLY_CATEGORIES - NOT_COVERABLE <= cats


def test_comment_items_have_the_documented_form(room: dict[str, Any]) -> None:
    items = _load(COMMENTS)
    assert len(items) >= 110
    assert len({it["id"] for it in items}) == len(items)
    problems = []
    for it in items:
        where = it["id"]
        if it["scenario"] != "electronics_en" or it["locale"] != "en_US" or it["split"] not in ("train", "test"):
            problems.append(f"{where}: header")
        if it["style"] not in STYLES or not it.get("why") or not it["text"].strip() or not it["intents"]:
            problems.append(f"{where}: style/why/text/intents")
        for i in it["intents"]:
            problems += [f"{where}: {m}" for m in _intent_problems(i, room)]
    assert not problems, problems
    assert sum(it["style"] == "spanish" for it in items) >= 20


@pytest.mark.parametrize("path", [REPLIES, COMMENTS], ids=lambda p: p.name)
def test_test_split_is_the_seeded_draw(path: Path) -> None:
    spec = importlib.util.spec_from_file_location("cal_split", CAL / "split.py")
    assert spec and spec.loader
    split = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(split)
    items = _load(path)
    drawn = split.draw_test_ids(items, path.name)
    assert {it["id"] for it in items if it["split"] == "test"} == drawn
    assert 0.25 <= len(drawn) / len(items) <= 0.35
