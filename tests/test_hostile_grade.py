"""``hat-env grade`` (offline grading) on hostile input: every action of tests/hostile/actions.yaml as a stored
turn, and lines an attacker would write into the JSONL file (nested past the recursion limit, NaN, a U+2028 in a
string, not UTF-8). Each gives a score in [0, 100] or a :class:`GradeError` naming what is wrong; the command
grades every other line and never prints a traceback.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hat_env.scoring import grade
from hat_env.scoring.offline import GradeError, grade_lines
from hostile_inputs import build, load_corpus

ACTIONS = [e for e in load_corpus("actions") if "huge" not in e["id"]]
CASE = {"scenario": "beauty_zh", "seed": 0, "t": 30.0,
        "comments": [{"text": "3号链接多少钱", "intents": [{"kind": "price", "link": 3}]}]}


def _graded_or_clear_error(turns: list[Any]) -> dict[str, Any] | None:
    """Grade ``turns``; the result (checked), or ``None`` for a clear GradeError."""
    try:
        res = grade(CASE, turns)
    except GradeError as exc:
        assert str(exc) and "turns[" in str(exc), exc
        return None
    assert math.isfinite(res["composite"]) and 0 <= res["composite"] <= 100, res["composite"]
    assert all(0.0 <= v <= 1.0 for v in res["components"].values()), res["components"]
    json.dumps(res, allow_nan=False)  # plain JSON, no NaN
    return res


@pytest.mark.parametrize("entry", ACTIONS, ids=[e["id"] for e in ACTIONS])
def test_hostile_action_as_a_stored_turn(entry: dict[str, Any]) -> None:
    _graded_or_clear_error([build(entry["action"]), "3号链接的价格请看商品页"])  # a tool-call turn, then a reply
    _graded_or_clear_error([build(entry["action"])])  # the reply itself


def _line(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def test_grade_command_on_hostile_lines(tmp_path: Path) -> None:
    good = {"id": "ok", "case": CASE, "turns": ["3号链接69元，现在下单有优惠"]}
    lines = [
        _line(good),
        '{"id": "deep", "case": ' + "[" * 100_000 + "]" * 100_000 + ', "turns": ["x"]}',  # past the recursion limit
        _line({"id": "nan", "case": {**CASE, "seed": float("nan")}, "turns": ["x"]}),
        _line({"id": "ls", "case": CASE, "turns": ["第一行\u2028第二行"]}),  # a raw U+2028 inside a string
        _line({"id": "wide", "case": CASE, "turns": [{"content": None, "tool_calls": 5}]}),
        "[1, 2]",
        '{"id": "cut", "case": {"scenario": "beau',
        _line({"id": "kind", "case": {**CASE, "comments": [{"text": "hi", "intents": [{"kind": 5, "link": [1]}]}]},
               "turns": ["x"]}),
        _line({"id": "link", "case": {**CASE, "comments": [{"text": "hi", "intents": [{"kind": "price",
                                                                                       "link": [1]}]}]},
               "turns": ["x"]}),
        _line({"id": "t", "case": {**CASE, "t": -5}, "turns": ["x"]}),
    ]
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "grade", str(path)], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300)
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    assert r.returncode == 1, r.stderr
    out = [json.loads(x) for x in r.stdout.splitlines() if x.strip()]
    assert len(out) == len(lines), "one result per line, U+2028 is not a line break"
    assert "error" not in out[0] and "error" not in out[3], out
    errors = {n: o["error"] for n, o in enumerate(out, 1) if "error" in o}
    assert errors[2] == "line 2: nested too deeply to read"
    assert "case.seed" in errors[3] and "finite" in errors[3]
    assert errors[5] == "line 5: turns[0].tool_calls: expected a list"
    assert errors[8] == "line 8: case.comments[0].intents[0].kind: missing or not a string"
    assert errors[9] == "line 9: case.comments[0].intents[0].link: expected a string or a number, got list"
    assert errors[10].startswith("line 10: case.t: expected a time in seconds")
    assert set(errors) == {2, 3, 5, 6, 7, 8, 9, 10}, errors
    # a file that is not UTF-8: the file named, exit 2
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes(_line(good).encode("utf-8") + b"\n\xff\xfe\n")
    r = subprocess.run([sys.executable, "-m", "hat_env.cli", "grade", str(bad)], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300)
    assert r.returncode == 2 and str(bad) in r.stderr and "Traceback" not in r.stderr, r.stderr[-2000:]


def test_grade_lines_keeps_going_after_each_bad_line() -> None:
    res = grade_lines(["{", _line({"id": "ok", "case": CASE, "turns": ["3号链接69元"]}), "null"])
    assert [r.get("id") for r in res] == [None, "ok", None]
    assert res[0]["error"].startswith("line 1: ") and res[2]["error"].startswith("line 3: ")
