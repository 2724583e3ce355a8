"""Form checks for the first hand-labelled Spanish (es_ES) calibration sets, on the hogar_es room
(scenarios/calibration/replies_hogar_es.jsonl and comments_es_ES.jsonl).

Every item has the calibration guide's fields, refers only to links, spec keys and orders its room has at the
case's seed, the reply items' tool-call turns replay through the harness without an invalid call (an injected
fault is retried until the call succeeds), and the test split is exactly the seeded draw of split.py, so nobody
picked it. These tests check the data's form, never its labels (labels are people's judgements from the room
data), and never run the grader or the comment parser: the sets are a held-out measurement of both.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from hat_env.envs.session import stream
from hat_env.evaluation.runner import build_session
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import INTENT_KINDS

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
REPLIES = CAL / "replies_hogar_es.jsonl"
COMMENTS = CAL / "comments_es_ES.jsonl"
CATEGORIES = {
    "correct_plain", "correct_paraphrase", "correct_yesno", "correct_extra", "correct_honest_unknown",
    "correct_denial", "correct_social", "incomplete", "false_price", "false_number", "false_campaign",
    "false_shipping", "false_policy", "false_spec", "wrong_product", "false_stock", "sold_out_sale",
    "false_guarantee", "compliance_plain", "compliance_disguised", "ai_identity", "leak", "injection_followed",
    "fake_reference_price", "fake_scarcity", "endorsement", "medical_claim", "medical_denial_ok",
}
STYLES = {"plain", "slang", "typo", "no_punct", "emoji", "mixed", "traditional", "pinyin", "name_ref", "implicit",
          "multi", "spanish", "other_language", "injection", "social"}
KINDS = set(INTENT_KINDS) | {"identity", "efficacy", "other_language"}
#: Files that grew batch by batch with ``split.py --keep`` (True) or were drawn once (False).
KEPT = {REPLIES: True, COMMENTS: False}


def _load(path: Path) -> list[dict[str, Any]]:
    """The items of one JSON Lines file, in order.

    path: the file. Returns one dict per non-empty line.
    """
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


def _room_facts(scenario: str, seed: int) -> dict[str, Any]:
    """Links -> spec keys and the order ids of a room at a seed (the seed decides the catalog).

    scenario: the scenario name; seed: the case's seed.
    Returns {"specs": {link: set of spec keys}, "orders": set of order ids}.
    """
    room = RoomState(load_scenario(scenario), stream(int(seed), "catalog"))
    return {"specs": {p.link: set(p.specs) for p in room.products}, "orders": set(room.orders)}


def _intent_problems(it: dict[str, Any], facts: dict[str, Any]) -> list[str]:
    """What is wrong with one intent dict against its room, as messages (empty when well formed).

    it: an intent {kind, link?, link2?, attr?, order_id?}; facts: :func:`_room_facts` of its room.
    """
    bad = []
    if it.get("kind") not in KINDS:
        bad.append(f"unknown kind {it.get('kind')!r}")
    for key in ("link", "link2"):
        if key in it and it[key] not in facts["specs"]:
            bad.append(f"{key} {it[key]} is not a link of the room")
    if it.get("kind") == "compare" and "link2" not in it:
        bad.append("compare without link2")
    if it.get("kind") == "spec" and "attr" not in it:
        bad.append("spec without attr")
    if "attr" in it and it["attr"] != "unknown" and it["attr"] not in facts["specs"].get(it.get("link"), set()):
        bad.append(f"attr {it['attr']!r} is not a spec key of link {it.get('link')} (use 'unknown')")
    if "order_id" in it and it["order_id"] not in facts["orders"]:
        bad.append(f"order {it['order_id']} is not in the room")
    return bad


def _split_module() -> ModuleType:
    """scenarios/calibration/split.py, imported from its file (it is a script, not a package module)."""
    spec = importlib.util.spec_from_file_location("cal_split", CAL / "split.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_reply_items_have_the_documented_form() -> None:
    items = _load(REPLIES)
    assert len(items) >= 130
    assert len({it["id"] for it in items}) == len(items)
    problems = []
    for it in items:
        where = it.get("id", "?")
        if not re.fullmatch(r"cal-hogar_es-\d{4}", where):
            problems.append(f"{where}: id")
        if it["scenario"] != "hogar_es" or it["locale"] != "es_ES":
            problems.append(f"{where}: header")
        if it["split"] not in ("train", "test") or it["category"] not in CATEGORIES or not it.get("why"):
            problems.append(f"{where}: split/category/why")
        lab = it["label"]
        if set(lab) != {"accuracy", "effectiveness", "compliance"} or lab["accuracy"] not in (0, 1) \
                or lab["effectiveness"] not in (0, 0.5, 1) or lab["compliance"] not in (0, 1):
            problems.append(f"{where}: label {lab}")
        case = it["case"]
        if case["scenario"] != "hogar_es" or case["locale"] != "es_ES" or {"gold", "id", "suite"} & set(case):
            problems.append(f"{where}: case header")
        facts = _room_facts(case["scenario"], case["seed"])
        for c in case["comments"]:
            if ("intents" in c) == ("expect_intents" in c):
                problems.append(f"{where}: a comment needs intents (suite case) or expect_intents (own comment)")
            for i in c.get("intents", c.get("expect_intents", [])):
                problems += [f"{where}: {m}" for m in _intent_problems(i, facts)]
        turns = it["turns"]
        if not (isinstance(turns[-1], str) and turns[-1].strip()) or "<tool_call>" in turns[-1]:
            problems.append(f"{where}: the last turn must be the reply text")
        if not turns[:-1] or not all(isinstance(t, str) and "<tool_call>" in t for t in turns[:-1]):
            problems.append(f"{where}: every turn before the reply is a tool-call turn")
    assert not problems, problems


def test_reply_tool_call_turns_replay_and_faults_are_retried() -> None:
    """Each item's tool-call turns feed through the harness: every call is a known tool with valid arguments, a
    reply skill is loaded, and a call that an injected fault (timeout, malformed result) failed is repeated later
    with the same arguments and succeeds, so the reply's facts were fetched."""
    problems = []
    for it in _load(REPLIES):
        s = build_session(it["case"])
        for t in it["turns"][:-1]:
            s.feed(t, None, None, None)
        calls = s.loop.calls
        if not calls or any(not c.valid for c in calls):
            problems.append(f"{it['id']}: {[(c.name, c.error) for c in calls if not c.valid] or 'no calls'}")
        if not any(c.op == "load_skill" for c in calls):
            problems.append(f"{it['id']}: no reply skill loaded")
        for i, c in enumerate(calls):
            if c.op != "load_skill" and not c.ok and not any(
                    d.name == c.name and d.args == c.args and d.ok for d in calls[i + 1:]):
                problems.append(f"{it['id']}: {c.name}({c.args}) failed and was not retried")
    assert not problems, problems


def test_comment_items_have_the_documented_form() -> None:
    items = _load(COMMENTS)
    assert len(items) >= 80
    assert len({it["id"] for it in items}) == len(items)
    problems = []
    for it in items:
        where = it.get("id", "?")
        if not re.fullmatch(r"cmt-es_ES-\d{4}", where):
            problems.append(f"{where}: id")
        if it["scenario"] != "hogar_es" or it["locale"] != "es_ES" or not isinstance(it["t"], float):
            problems.append(f"{where}: header")
        if it["split"] not in ("train", "test") or it["style"] not in STYLES or not it.get("why"):
            problems.append(f"{where}: split/style/why")
        if not it["text"].strip() or not it["intents"]:
            problems.append(f"{where}: text/intents")
        if it["style"] == "other_language" and [i["kind"] for i in it["intents"]] != ["other_language"]:
            problems.append(f"{where}: an other_language comment has that one intent")
        facts = _room_facts(it["scenario"], it["seed"])
        problems += [f"{where}: {m}" for i in it["intents"] for m in _intent_problems(i, facts)]
    assert not problems, problems


@pytest.mark.parametrize("path", [REPLIES, COMMENTS], ids=["replies", "comments"])
def test_test_split_is_the_seeded_draw(path: Path, tmp_path: Path) -> None:
    """Rerunning split.py (with ``--keep`` for a file that grew in batches) leaves the file byte for byte as it is,
    and 25-35% of the items are test."""
    copy = tmp_path / path.name
    copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    _split_module().split_file(copy, keep=KEPT[path])
    assert copy.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")
    items = _load(path)
    assert 0.25 <= sum(it["split"] == "test" for it in items) / len(items) <= 0.35


def test_sets_cover_every_category_and_style_in_the_guide_shares() -> None:
    """Every reply category occurs; correct ~45%, incomplete ~10%, wrong ~30%, compliance ~15% (within a few
    points); the comments cover implicit, multi-question, injection, social and other-language styles."""
    items = _load(REPLIES)
    cats = [it["category"] for it in items]
    assert CATEGORIES - set(cats) == set()
    correct = sum(c.startswith("correct_") for c in cats) / len(cats)
    incomplete = cats.count("incomplete") / len(cats)
    compliance = sum(c in {"compliance_plain", "compliance_disguised", "ai_identity", "leak", "injection_followed",
                           "fake_reference_price", "fake_scarcity", "endorsement", "medical_claim",
                           "medical_denial_ok"} for c in cats) / len(cats)
    wrong = 1 - correct - incomplete - compliance
    assert 0.38 <= correct <= 0.52 and 0.07 <= incomplete <= 0.13
    assert 0.24 <= wrong <= 0.36 and 0.11 <= compliance <= 0.19
    styles = {it["style"] for it in _load(COMMENTS)}
    assert {"implicit", "multi", "injection", "social", "other_language", "typo", "name_ref"} <= styles
