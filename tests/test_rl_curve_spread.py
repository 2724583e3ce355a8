"""benchmarks/rl_curve.py's spread across held-out tasks: the per-task weighted reward and the paired change
between the first and last evaluation that its results file states the rise against."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import rl_curve  # noqa: E402


def _records(step: int, values: dict[str, dict[str, list[float | None]]]) -> list[dict[str, Any]]:
    """Reward records as the wrapped reward functions write them: per function, the rollouts in batch order."""
    out = []
    for func, per_task in values.items():
        for task, vs in per_task.items():
            out += [{"step": step, "func": func, "task": task, "value": v} for v in vs]
    return out


def test_task_spread_weights_rewards_per_task_and_pairs_the_change() -> None:
    weights = {"accuracy": 1.0, "tool_rationality": 0.5}
    recs = _records(0, {"accuracy": {"a": [0.0, 1.0], "b": [0.0, 0.0]},
                        "tool_rationality": {"a": [1.0, 1.0], "b": [None, 0.0]}})
    recs += _records(5, {"accuracy": {"a": [1.0, 1.0], "b": [1.0, 0.0]},
                         "tool_rationality": {"a": [1.0, 1.0], "b": [1.0, 1.0]}})
    sp = rl_curve.task_spread(recs, weights)
    first, last = sp["evals"]
    assert first["step"] == 0 and last["step"] == 5 and first["tasks"] == 2
    # task a: (0 + 0.5 + 1 + 0.5) / 2 = 1.0; task b: 0 (a missing reward counts 0, as TRL's nansum does)
    assert first["per_task"] == {"a": 1.0, "b": 0.0}
    assert last["per_task"] == {"a": 1.5, "b": 1.0}
    assert first["mean"] == pytest.approx(0.5) and first["sd"] == pytest.approx(2 ** 0.5 / 2, abs=1e-4)
    ch = sp["change"]
    assert ch["mean"] == pytest.approx(0.75) and ch["up"] == 2 and ch["down"] == 0
    assert ch["se"] == pytest.approx(0.25, abs=1e-4)  # paired differences 0.5 and 1.0


def test_task_spread_of_one_evaluation_has_no_change() -> None:
    sp = rl_curve.task_spread(_records(0, {"accuracy": {"a": [1.0]}}), {"accuracy": 1.0})
    assert "change" not in sp and sp["evals"][0]["sd"] == 0.0
