"""Offline grading (``hat_env.scoring.grade``, ``hat-env grade``) and calibration (``hat-env calibrate``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.cli import main
from hat_env.scoring import grade
from hat_env.scoring.offline import GradeError

DEV = Path(__file__).parent / "data" / "claims_dev.jsonl"

CASE = {"scenario": "beauty_zh", "seed": 1101, "t": 130.0, "locale": "zh_CN",
        "comments": [{"text": "3号链接多少钱？", "viewer": "用户1234", "intents": [{"kind": "price", "link": 3}]}]}
TOOLS = ('<tool_call>\n{"name": "get_product_info_by_link_id", "arguments": {"link_id": 3}}\n</tool_call>\n'
         '<tool_call>\n{"name": "load_skill", "arguments": {"name": "item-qa"}}\n</tool_call>')


def dev_items() -> list[dict]:
    return [json.loads(line) for line in DEV.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_grade_fields_and_a_right_reply() -> None:
    res = grade(CASE, [TOOLS, "3号链接防晒霜，券后八十九块钱到手～"])
    assert set(res) == {"composite", "components", "notes", "intents", "hooks", "request_done"}
    assert res["request_done"] and res["components"]["accuracy"] == 1.0 and res["components"]["effectiveness"] == 1.0
    assert res["intents"] == [[{"kind": "price", "link": 3}]] and res["composite"] > 90


def test_openai_message_turns_and_a_wrong_reply() -> None:
    call = {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
        "name": "get_product_info_by_link_id", "arguments": json.dumps({"link_id": 3})}}]}
    res = grade(CASE, [call, {"role": "assistant", "content": "3号防晒到手79元"}])
    assert res["components"]["accuracy"] == 0.0 and res["composite"] == 0.0
    assert any("79" in n for n in res["notes"]["accuracy"])


def test_last_turn_graded_as_written_hooks_reported_not_applied() -> None:
    # no reply skill loaded and an absolute claim: the harness hooks would block this reply; offline it is
    # graded as written and the blocks are reported
    res = grade(CASE, ['<tool_call>\n{"name": "get_product_info_by_link_id", "arguments": {"link_id": 3}}\n</tool_call>',
                       "3号防晒全网最低，到手89元"])
    assert res["request_done"]
    denied = [h for h in res["hooks"] if h.get("decision") == "deny"]
    assert denied and all(h["applied"] is False for h in denied)
    assert res["components"]["compliance"] == 0.0


def test_turns_that_end_before_a_reply() -> None:
    res = grade(CASE, [TOOLS])
    assert res["request_done"] is False and res["components"]["effectiveness"] == 0.0 and res["composite"] == 0.0


def test_a_comment_without_intents_is_parsed() -> None:
    case = {**CASE, "comments": [{"text": "3号链接多少钱？"}]}
    res = grade(case, [TOOLS, "3号链接防晒霜，券后89元"])
    assert res["intents"][0] and res["intents"][0][0]["kind"] == "price"


@pytest.mark.parametrize(("case", "turns", "field"), [
    ({**CASE, "comments": []}, ["x"], "case.comments"),
    ({k: v for k, v in CASE.items() if k != "seed"}, ["x"], "case.seed"),
    (CASE, [], "turns"),
    (CASE, [42], "turns[0]"),
])
def test_bad_input_names_the_field(case: dict, turns: list, field: str) -> None:
    with pytest.raises(GradeError, match=field.replace("[", r"\[").replace("]", r"\]")):
        grade(case, turns)


@pytest.mark.parametrize("item", dev_items(), ids=lambda it: it["id"])
def test_dev_set_labels(item: dict) -> None:
    """Hand-labelled tricky replies (labels from the room data): accuracy and effectiveness agree."""
    c = grade(item["case"], item["turns"])["components"]
    assert (1 if c["accuracy"] >= 1 else 0, c["effectiveness"]) == (item["label"]["accuracy"], item["label"]["effectiveness"]), item["why"]


def test_grade_command_keeps_order_and_reports_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = {"id": "a", "case": CASE, "turns": [TOOLS, "3号链接防晒霜，券后89元"]}
    wrong = {"id": "c", "case": CASE, "turns": [TOOLS, "3号防晒到手79元"]}
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(good, ensure_ascii=False) + "\n{not json\n" + json.dumps({"id": "b", "case": CASE}) + "\n"
                   + json.dumps(wrong, ensure_ascii=False) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["grade", str(src), "--out", str(out)]) == 1
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r.get("id") for r in rows] == ["a", None, "b", "c"]
    assert rows[0]["composite"] > 90 and rows[3]["composite"] == 0.0
    assert rows[1]["line"] == 2 and rows[2]["line"] == 3 and "turns" in rows[2]["error"]
    err = capsys.readouterr().err
    assert "line 2" in err and "line 3" in err


def test_grade_command_reads_a_room_named_next_to_its_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A case naming ``rooms/own.yaml`` is read from the input file's folder whatever the working directory (as
    ``hat-env calibrate`` reads a set's rooms), so a graded file of one's own rooms works from anywhere."""
    folder = tmp_path / "set"
    (folder / "rooms").mkdir(parents=True)
    (folder / "rooms" / "own.yaml").write_text((Path(__file__).parents[1] / "scenarios" / "beauty_zh.yaml")
                                                .read_text(encoding="utf-8"), encoding="utf-8")
    item = {"id": "own", "case": dict(CASE, scenario="rooms/own.yaml"), "turns": [TOOLS, "3号链接防晒霜，券后89元"]}
    builtin = {"id": "builtin", "case": CASE, "turns": [TOOLS, "3号链接防晒霜，券后89元"]}
    src = folder / "in.jsonl"
    src.write_text(json.dumps(item, ensure_ascii=False) + "\n" + json.dumps(builtin, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    out = tmp_path / "out.jsonl"
    assert main(["grade", str(src), "--out", str(out)]) == 0
    rows = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert [r["id"] for r in rows] == ["own", "builtin"] and "error" not in rows[0]
    assert rows[0]["composite"] == rows[1]["composite"] > 90  # the same room under another name


def test_calibrate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    items = dev_items()[:6]
    for k, it in enumerate(items):
        it.update(split="train" if k < 4 else "test", category="dev")
        it["label"] = {**it["label"], "compliance": 1}
    (tmp_path / "replies_dev.jsonl").write_text("".join(json.dumps(i, ensure_ascii=False) + "\n" for i in items),
                                               encoding="utf-8")
    assert main(["calibrate", "--dir", str(tmp_path), "--split", "train", "--json", "--quiet"]) == 0
    summary = json.loads(capsys.readouterr().out)["replies"]
    assert summary["all"]["n"] == 4 and summary["locales"]["en_US"]["n"] == 4
    assert 0.0 <= summary["all"]["accuracy"] <= 1.0 and "false_pass" in summary["all"]
    assert main(["calibrate", "--dir", str(tmp_path), "--set", "nope", "--quiet"]) == 2


def test_calibrate_runs_a_judge_on_the_same_items() -> None:
    """The LLM judge gets the comments, tool results and reply the grader saw. The judge here is a plain
    callable standing in for a paid model API (it always votes accurate and effective)."""
    from hat_env.scoring.calibrate import agreement, grade_items, run_judge

    seen: list[str] = []

    def judge(request) -> str:
        seen.append(request.messages[-1]["content"])
        return '{"accuracy": 1, "effectiveness": 1, "reason": "ok"}'

    items = dev_items()[:4]
    for it in items:
        it["label"] = {**it["label"], "compliance": 1}
    records = grade_items(items)
    run_judge(records, [judge])
    assert len(seen) == 4 and all("Host reply:" in s for s in seen)
    assert all(r["judge"] == {"accuracy": 1, "effectiveness": 1.0} for r in records)
    a = agreement(records, key="judge")
    want = sum(1 for it in items if it["label"]["accuracy"] == 1) / 4
    assert a["n"] == 4 and a["accuracy"] == want and "compliance" not in a
