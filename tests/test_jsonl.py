"""hat_env.jsonl: the one JSON Lines reader (cases, calibration sets, imported logs, training rows)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.jsonl import BadLine, object_lines, read_objects


def test_lines_split_on_newline_only_and_bad_lines_say_why() -> None:
    text = ('{"text": "a\u2028b"}\r\n\n[1]\n{"x": \n' + "[" * 100000 + "\n" + json.dumps({"t": "long"}) + "\n")
    rows = list(object_lines(text, max_chars=90000))
    assert rows[0] == (1, {"text": "a\u2028b"})  # U+2028 inside a string is not a line break; \r dropped
    assert rows[1][0] == 3 and rows[1][1] == BadLine("expected a JSON object, got list")
    assert rows[2][0] == 4 and isinstance(rows[2][1], BadLine) and rows[2][1].reason.startswith("not valid JSON")
    assert rows[3] == (5, BadLine("line longer than 90,000 characters"))
    assert rows[4] == (6, {"t": "long"})
    deep = list(object_lines("[" * 100000 + "]" * 100000))
    assert isinstance(deep[0][1], BadLine)


def test_read_objects_names_the_file_and_line(tmp_path: Path) -> None:
    p = tmp_path / "items.jsonl"
    p.write_text('{"a": 1}\n\n{"b": 2}\n', encoding="utf-8")
    assert read_objects(p) == [(1, {"a": 1}), (3, {"b": 2})]
    p.write_text('{"a": 1}\n{"b": \n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"items\.jsonl:2: not valid JSON"):
        read_objects(p)


def test_a_case_file_with_a_raw_line_separator_in_a_comment_reads(tmp_path: Path) -> None:
    from hat_env.evaluation.cases import read_cases

    case = {"id": "c1", "scenario": "beauty_zh", "seed": 1, "t": 60.0,
            "comments": [{"text": "3号链接多少钱\u2028还有吗"}]}
    p = tmp_path / "cases.jsonl"
    p.write_text(json.dumps(case, ensure_ascii=False) + "\n", encoding="utf-8")
    cases, _ = read_cases(p)
    assert [c["comments"][0]["text"] for c in cases] == ["3号链接多少钱\u2028还有吗"]
