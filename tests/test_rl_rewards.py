"""The RL stage's rubric rewards never pay for saying nothing (hat_env.train.rl.rubric_rewards).

The rubric's accuracy is 1 for a reply that asserts nothing; GRPO with it as a reward learnt to reply with
nothing (benchmarks/results/rl_curve-2026-12-01-emptyreply.md). These tests score real replies to a real price
question in the simulator (no model): the scripted reference agent's answer, a wrong price after the right
lookup, an empty reply and a filler line.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from hat_env.agents.reference import ReferenceAgent
from hat_env.harness.parse import parse_output
from hat_env.train.rl import LiveQAToolEnv, TaskSet, live_qa_tasks, rubric_rewards


@pytest.fixture(scope="module")
def price_tasks() -> TaskSet:
    return live_qa_tasks(["electronics_en"], 6, harness="compact", personas=["price_asker"], seed=3)


def _price_row(tasks: TaskSet) -> dict[str, Any]:
    for row in tasks.rows:
        intents = json.loads(row["task"])["case"]["comments"][0]["intents"]
        if any(i["kind"] == "price" and i.get("link") for i in intents):
            return row
    raise AssertionError("no price question with a link among the drawn tasks")


def _env(tasks: TaskSet, row: dict[str, Any]) -> LiveQAToolEnv:
    env = tasks.classes[row["environment"]]()
    env.reset(task=row["task"])
    return env


def _reference(env: LiveQAToolEnv) -> str:
    """Drive ``env``'s request with the reference agent's tool calls; return the reply it would send."""
    agent = ReferenceAgent()
    for _ in range(6):
        resp = agent.act(env.env.session.loop.agent_request())
        out = parse_output(resp.text, resp.tool_calls)
        if not out.tool_calls:
            return out.reply or ""
        for tc in out.tool_calls:
            env._call(tc.name, tc.arguments)
    raise AssertionError("the reference agent did not reply within 6 turns")


def _rewards(tasks: TaskSet, row: dict[str, Any], kind: str, gate: str) -> dict[str, float]:
    env = _env(tasks, row)
    right = _reference(env)
    reply = {"right": right, "wrong": "Link {} is $1.00 right now!", "empty": "",
             "filler": "Thanks for joining the live, everyone!"}[kind]
    if kind == "wrong":
        reply = reply.format(json.loads(row["task"])["case"]["comments"][0]["intents"][0]["link"])
    elif kind in ("empty", "filler"):  # no lookup: a fresh request
        env = _env(tasks, row)
    funcs, weights = rubric_rewards(None, accuracy_gate=gate)
    out = {f.__name__: f(completions=[reply], environments=[env])[0] for f in funcs}
    out["weighted"] = sum(w * (out[f.__name__] or 0.0) for f, w in zip(funcs, weights))
    return out


def test_saying_nothing_earns_less_than_an_answer_and_no_more_than_a_wrong_lookup(price_tasks: TaskSet) -> None:
    row = _price_row(price_tasks)
    right = _rewards(price_tasks, row, "right", "effectiveness")
    wrong = _rewards(price_tasks, row, "wrong", "effectiveness")
    assert right["effectiveness"] == 1.0 and right["accuracy"] == 1.0  # the reference answer is right
    assert wrong["effectiveness"] == 0.0 and wrong["tool_rationality"] > 0  # looked up, then a false price
    names = [k for k in right if k not in ("weighted", "composite")]
    for kind in ("empty", "filler"):
        silent = _rewards(price_tasks, row, kind, "effectiveness")
        assert silent["accuracy"] == 0.0, kind
        assert silent["weighted"] < right["weighted"], kind
        assert silent["weighted"] <= wrong["weighted"], kind
        # component by component too, so no aggregation of the rewards (TRL's normalize_then_sum included)
        # can rank the silent reply above the wrong lookup
        assert all(silent[n] <= wrong[n] for n in names), (kind, silent, wrong)


def test_the_raw_accuracy_pays_for_silence(price_tasks: TaskSet) -> None:
    """Why the gate is the default: ungated, an empty reply out-scores a wrong answer on accuracy."""
    row = _price_row(price_tasks)
    empty = _rewards(price_tasks, row, "empty", "none")
    wrong = _rewards(price_tasks, row, "wrong", "none")
    assert empty["accuracy"] == 1.0 and wrong["accuracy"] == 0.0


def test_an_unknown_gate_is_refused() -> None:
    with pytest.raises(ValueError, match="accuracy_gate"):
        rubric_rewards(None, accuracy_gate="composite")
