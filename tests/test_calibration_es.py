"""Form checks for the first hand-labelled Spanish (es_ES) calibration sets, on the hogar_es room
(scenarios/calibration/replies_hogar_es.jsonl and comments_es_ES.jsonl).

Every item has the calibration guide's fields, refers only to links, spec keys and orders its room has at the
case's seed, the reply items' tool-call turns replay through the harness without an invalid call (an injected
fault is retried until the call succeeds), and the test split is exactly the seeded draw of split.py, so nobody
picked it. These tests check the data's form, never its labels (labels are people's judgements from the room
data), and never run the grader or the comment parser: the sets are a held-out measurement of both.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from calibration_forms import (
    CAL,
    CATEGORIES,
    COMPLIANCE_CATEGORIES,
    STYLES,
    intent_problems,
    load,
    replayed_calls,
    reply_item_problems,
    split_problems,
)


REPLIES = CAL / "replies_hogar_es.jsonl"
COMMENTS = CAL / "comments_es_ES.jsonl"
#: Files drawn with one plain split.py run (True) or grown batch by batch with ``--keep`` (False).
DRAWN_ONCE = {REPLIES: False, COMMENTS: True}


def test_reply_items_have_the_documented_form() -> None:
    items = load(REPLIES)
    assert len(items) >= 130
    assert len({it["id"] for it in items}) == len(items)
    problems = [m for it in items for m in reply_item_problems(it, r"cal-hogar_es-\d{4}", "hogar_es", "es_ES")]
    # every turn before the reply is a tool-call turn (this set has no blocked-and-retried replies)
    problems += [f"{it['id']}: a turn before the reply is not a tool-call turn" for it in items
                 if not all(isinstance(t, str) and "<tool_call>" in t for t in it["turns"][:-1])]
    assert not problems, problems


def test_reply_tool_call_turns_replay_and_faults_are_retried() -> None:
    """Each item's tool-call turns feed through the harness: every call is a known tool with valid arguments, a
    reply skill is loaded, and a call that an injected fault (timeout, malformed result) failed is repeated later
    with the same arguments and succeeds, so the reply's facts were fetched."""
    problems = []
    for it in load(REPLIES):
        calls, found = replayed_calls(it)
        problems += found
        for i, c in enumerate(calls):
            if c.op != "load_skill" and not c.ok and not any(
                    d.name == c.name and d.args == c.args and d.ok for d in calls[i + 1:]):
                problems.append(f"{it['id']}: {c.name}({c.args}) failed and was not retried")
    assert not problems, problems


def test_comment_items_have_the_documented_form() -> None:
    items = load(COMMENTS)
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
        problems += [f"{where}: {m}" for i in it["intents"]
                     for m in intent_problems(i, it["scenario"], it["seed"])]
    assert not problems, problems


@pytest.mark.parametrize("path", [REPLIES, COMMENTS], ids=["replies", "comments"])
def test_test_split_is_the_seeded_draw(path: Path, tmp_path: Path) -> None:
    """25-35% of the items are test and, for the file drawn in one go, rerunning split.py leaves it byte for byte
    as it is."""
    problems = split_problems(path, DRAWN_ONCE[path], tmp_path)
    assert not problems, problems


def test_sets_cover_every_category_and_style_in_the_guide_shares() -> None:
    """Every reply category occurs; correct ~45%, incomplete ~10%, wrong ~30%, compliance ~15% (within a few
    points); the comments cover implicit, multi-question, injection, social and other-language styles."""
    items = load(REPLIES)
    cats = [it["category"] for it in items]
    assert CATEGORIES - set(cats) == set()
    correct = sum(c.startswith("correct_") for c in cats) / len(cats)
    incomplete = cats.count("incomplete") / len(cats)
    compliance = sum(c in COMPLIANCE_CATEGORIES for c in cats) / len(cats)
    wrong = 1 - correct - incomplete - compliance
    assert 0.38 <= correct <= 0.52 and 0.07 <= incomplete <= 0.13
    assert 0.24 <= wrong <= 0.36 and 0.11 <= compliance <= 0.19
    styles = {it["style"] for it in load(COMMENTS)}
    assert {"implicit", "multi", "injection", "social", "other_language", "typo", "name_ref"} <= styles
