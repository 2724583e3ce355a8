"""Shared form checks for the hand-labelled calibration sets (scenarios/calibration/): loading a set, the room an
item names, whether its intents fit that room, and whether its test split is split.py's seeded draw.

The test modules test_calibration_fresh.py (reply rounds 2-6), test_calibration_es.py (the Spanish sets) and
test_calibration_comments.py (comment rounds 2-4) use these. They check the data's form, never its labels (labels
are people's judgements from the room data) and never run the grader or the comment parser.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

from hat_env.sim.scenario import relative_scenario_ref

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"
#: The reply categories of the calibration README.
CATEGORIES = frozenset({
    "correct_plain", "correct_paraphrase", "correct_yesno", "correct_extra", "correct_honest_unknown",
    "correct_denial", "correct_social", "incomplete", "false_price", "false_number", "false_campaign",
    "false_shipping", "false_policy", "false_spec", "wrong_product", "false_stock", "sold_out_sale",
    "false_guarantee", "compliance_plain", "compliance_disguised", "ai_identity", "leak", "injection_followed",
    "fake_reference_price", "fake_scarcity", "endorsement", "medical_claim", "medical_denial_ok",
})
#: The categories that are about compliance (the README's ~15% share).
COMPLIANCE_CATEGORIES = frozenset({
    "compliance_plain", "compliance_disguised", "ai_identity", "leak", "injection_followed", "fake_reference_price",
    "fake_scarcity", "endorsement", "medical_claim", "medical_denial_ok",
})


def facts_module() -> ModuleType:
    """scenarios/calibration/facts.py, imported from its file (a script, not a package module): the form checks an
    annotator runs (``facts.py check``) are the ones these tests run."""
    spec = importlib.util.spec_from_file_location("cal_facts", CAL / "facts.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_FACTS = facts_module()
#: The comment styles of the README, the intent kinds and fields a label may use, the fields of a comment item.
STYLES, KINDS, INTENT_KEYS, COMMENT_FIELDS = _FACTS.STYLES, _FACTS.KINDS, _FACTS.INTENT_KEYS, _FACTS.COMMENT_FIELDS


def load(path: Path) -> list[dict[str, Any]]:
    """The items of one JSON Lines file, in order.

    path: the file. Returns one dict per non-empty line.
    """
    return [json.loads(ln) for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]


def loadable(case: dict[str, Any]) -> dict[str, Any]:
    """A calibration case with its scenario made loadable from any working directory (a room a set ships is named
    relative to the calibration folder)."""
    return {**case, "scenario": relative_scenario_ref(case["scenario"], CAL)}


def intent_problems(it: dict[str, Any], scenario: str, seed: int) -> list[str]:
    """What is wrong with one labelled intent against its room (``facts.py``'s check; empty when it is well formed).

    Args:
        it: an intent ``{kind, link?, link2?, attr?, order_id?, payload?, lang?}``.
        scenario: a built-in name or a path relative to the calibration folder; seed: the catalog draw.
    """
    return _FACTS.intent_problems(it, relative_scenario_ref(scenario, CAL), int(seed))


def reply_item_problems(it: dict[str, Any], id_pattern: str, scenario: str, locale: str,
                        case_scenario: str | None = None) -> list[str]:
    """What is wrong with the form of one labelled reply item, as messages prefixed with its id.

    Args:
        it: the item.
        id_pattern: the regex its ``id`` must match in full (``cal6-outdoor_en-\\d{4}``).
        scenario, locale: the room and locale its header must name.
        case_scenario: what its case's ``scenario`` must be when not ``scenario`` (a room the set ships:
            ``rooms/outdoor_en.yaml``).

    Returns:
        Problems with the id, header, split, category, ``why``, label, case header, the comments' intents (a suite
        comment has ``intents``, one the annotator wrote has ``expect_intents``; each fits the room), and the turns
        (tool-call turns first, none empty, the reply text last).
    """
    where = it.get("id", "?")
    problems = []
    if not re.fullmatch(id_pattern, str(where)):
        problems.append(f"{where}: id")
    if it.get("scenario") != scenario or it.get("locale") != locale:
        problems.append(f"{where}: header")
    if it.get("split") not in ("train", "test") or it.get("category") not in CATEGORIES or not it.get("why"):
        problems.append(f"{where}: split/category/why")
    lab = it.get("label") or {}
    if set(lab) != {"accuracy", "effectiveness", "compliance"} or lab["accuracy"] not in (0, 1) \
            or lab["effectiveness"] not in (0, 0.5, 1) or lab["compliance"] not in (0, 1):
        problems.append(f"{where}: label {lab}")
    case = it["case"]
    if case["scenario"] != (case_scenario or scenario) or case["locale"] != locale \
            or {"gold", "id", "suite"} & set(case):
        problems.append(f"{where}: case header")
    for c in case["comments"]:
        if ("intents" in c) == ("expect_intents" in c):
            problems.append(f"{where}: a comment needs intents (suite case) or expect_intents (own comment)")
        for i in c.get("intents", c.get("expect_intents", [])):
            problems += [f"{where}: {m}" for m in intent_problems(i, case["scenario"], case["seed"])]
    turns = it["turns"]
    if not (isinstance(turns[-1], str) and turns[-1].strip()) or "<tool_call>" in turns[-1]:
        problems.append(f"{where}: the last turn must be the reply text")
    # turns before the last are tool-call turns, or a reply the reference agent's harness blocked and retried
    if not turns[:-1] or "<tool_call>" not in turns[0] or not all(isinstance(t, str) and t.strip()
                                                                  for t in turns[:-1]):
        problems.append(f"{where}: the turns start with a tool-call turn and none is empty")
    return problems


def replayed_calls(it: dict[str, Any]) -> tuple[list[Any], list[str]]:
    """Feed a reply item's tool-call turns (every turn but the last) through the harness of its case.

    Returns:
        The harness's recorded calls, and the problems of their form: no call, an invalid call (an unknown tool or
        wrong arguments), no reply skill loaded; each message prefixed with the item's id.
    """
    from hat_env.evaluation.runner import build_session

    s = build_session(loadable(it["case"]))
    for t in it["turns"][:-1]:
        s.feed(t, None, None, None)
    calls = s.loop.calls
    problems = []
    if not calls or any(not c.valid for c in calls):
        problems.append(f"{it['id']}: {[(c.name, c.error) for c in calls if not c.valid] or 'no calls'}")
    if not any(c.op == "load_skill" for c in calls):
        problems.append(f"{it['id']}: no reply skill loaded")
    return calls, problems


def split_module() -> ModuleType:
    """scenarios/calibration/split.py, imported from its file (it is a script, not a package module)."""
    spec = importlib.util.spec_from_file_location("cal_split", CAL / "split.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def split_problems(path: Path, drawn_once: bool, tmp_path: Path, check_share: bool = True) -> list[str]:
    """Whether a file's test split is 25-35% of it and, for a file drawn in one go, split.py's seeded draw.

    Args:
        path: the set.
        drawn_once: the file was split with one plain ``split.py`` run, so a rerun must leave it byte for byte as
            it is. A file that grew batch by batch with ``--keep`` (each batch drawn on its own) cannot be redrawn
            without its batch boundaries, which the file does not record; for it only the share is checked (that
            ``--keep`` never moves an item is tested on split.py itself).
        tmp_path: a scratch folder.
        check_share: check the file's own test share. split.py draws round(30%) of each category, so a small file
            whose categories hold one item each has almost no test items while being the seeded draw; such a
            round's share is checked over all its files together (:func:`pooled_share_problems`).

    Returns:
        One message per problem.
    """
    problems = []
    if drawn_once:
        copy = tmp_path / path.name
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        split_module().split_file(copy)
        if copy.read_text(encoding="utf-8") != path.read_text(encoding="utf-8"):
            problems.append(f"{path.name}: the split is not split.py's draw")
    if not check_share:
        return problems
    return problems + pooled_share_problems([path])


def round_draw_problems(paths: list[Path], tmp_path: Path) -> list[str]:
    """Whether the files of a round drawn with ``split.py --round`` are that draw: a redraw over copies of
    ``paths`` (in the order the round was drawn: the draw depends on it) leaves each byte for byte as it is, and the
    round is 25-35% test. One message per problem."""
    copies = []
    for p in paths:
        (tmp_path / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
        copies.append(tmp_path / p.name)
    split_module().split_round(copies)
    problems = [f"{p.name}: the split is not split.py --round's draw" for p, c in zip(paths, copies)
                if c.read_text(encoding="utf-8") != p.read_text(encoding="utf-8")]
    return problems + pooled_share_problems(paths)


def pooled_share_problems(paths: list[Path], low: float = 0.25) -> list[str]:
    """One message when the test share of the items of ``paths`` together is outside ``low``-35%, else none."""
    items = [it for p in paths for it in load(p)]
    share = sum(it["split"] == "test" for it in items) / max(1, len(items))
    return [] if low <= share <= 0.35 else [f"{', '.join(p.name for p in paths)}: test share {share:.1%}"]


def repeated_texts(files: list[Path], pattern: str = "comments_*.jsonl") -> list[str]:
    """Ids of the items of ``files`` whose text (case-folded) is already in another set matching ``pattern`` (sets
    must be written independently)."""
    names = {p.name for p in files}
    old = {it["text"].strip().lower() for p in CAL.glob(pattern) if p.name not in names for it in load(p)}
    return [it["id"] for p in files for it in load(p) if it["text"].strip().lower() in old]
