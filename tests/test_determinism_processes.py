"""A seed fixes a run to the byte across processes, not only within one: Python salts ``str`` hashes per process
(``PYTHONHASHSEED``), so anything that iterates a set or a dict built from one in hash order (tie-breaks in a sort,
"the first wrong value" of a set) can change a trace, a grade or a parse from one run to the next. Each test runs
the same command in two processes with different hash salts and compares the bytes it writes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CAL = ROOT / "scenarios" / "calibration"
CLI = [sys.executable, "-m", "hat_env.cli"]


def _run(args: list[str], salt: int, cwd: Path) -> None:
    """Run the hat-env CLI with ``args`` under hash salt ``salt``; fail with its stderr when it exits non-zero."""
    env = {**os.environ, "PYTHONHASHSEED": str(salt)}
    done = subprocess.run(CLI + args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.parametrize("scenario", ["electronics_en", "hogar_es", str(CAL / "rooms" / "jiafang_zh.yaml")])
def test_a_session_trace_is_the_same_under_two_hash_salts(tmp_path: Path, scenario: str) -> None:
    """``hat-env run --seed`` with every HSA dimension writes the same trace bytes in two processes."""
    traces = []
    for salt in (1, 2):
        out = tmp_path / f"trace{salt}.jsonl"
        _run(["run", "--scenario", scenario, "--seed", "11", "--hsa", "all", "--duration", "240", "--trace", str(out),
              "--quiet"], salt, tmp_path)
        traces.append(out.read_bytes())
    assert traces[0] and traces[0] == traces[1]


def test_offline_grades_are_the_same_under_two_hash_salts(tmp_path: Path) -> None:
    """``hat-env grade`` on a spread of shipped calibration replies (every room and round; every 10th item) writes
    the same results, notes included, in two processes. A set's rooms resolve against its folder, so the sample is
    written next to them."""
    lines = []
    for f in sorted(CAL.glob("replies_*.jsonl")):
        lines += [ln for k, ln in enumerate(f.read_text(encoding="utf-8").splitlines()) if ln.strip() and k % 10 == 0]
    sample = tmp_path / "sample.jsonl"
    sample.write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "rooms").symlink_to(CAL / "rooms", target_is_directory=True)
    outs = []
    for salt in (1, 2):
        out = tmp_path / f"graded{salt}.jsonl"
        _run(["grade", str(sample), "--out", str(out)], salt, tmp_path)
        outs.append(out.read_bytes())
    assert len(outs[0].splitlines()) == len(lines) > 250
    assert all("composite" in json.loads(x) for x in outs[0].splitlines())
    assert outs[0] == outs[1]


def test_comment_parses_are_the_same_under_two_hash_salts(tmp_path: Path) -> None:
    """The parser reads every shipped labelled comment the same way in two processes (the disagreements with the
    labels, with the parser's intents, are written identically)."""
    outs = []
    for salt in (1, 2):
        out = tmp_path / f"mistakes{salt}.jsonl"
        _run(["calibrate", "--set", "comments", "--split", "all", "--mistakes", str(out)], salt, tmp_path)
        outs.append(out.read_bytes())
    assert outs[0] and outs[0] == outs[1]
