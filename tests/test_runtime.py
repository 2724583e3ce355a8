"""The request core alone: :class:`RequestLoop` fed turn by turn in a real room (scenario, room state, tool
backend, compliance rules) under real harness variants; the one conversion of actions into turns; and the
request core's modules free of import cycles."""

from __future__ import annotations

import ast
import graphlib
import json
from pathlib import Path
from typing import Any

import pytest

from hat_env.envs.room import Room
from hat_env.harness.core import Harness
from hat_env.harness.parse import format_hermes
from hat_env.harness.runtime import RequestLoop
from hat_env.sim.scenario import Faults, load_scenario
from hat_env.types import AgentResponse, Comment, Intent, LiveRequest, Timings, Turn

ROOT = Path(__file__).resolve().parent.parent
FALLBACK = "宝宝们稍等，主播马上为大家确认哦～"  # the default pack's zh_CN fallback reply


def harness(hooks: list[dict[str, Any]] | None = None, **constraints: Any) -> Harness:
    """The default pack with some constraints (and optionally the hooks) replaced."""
    d = Harness.load("default").to_dict()
    d["constraints"].update(constraints)
    if hooks is not None:
        d["hooks"] = hooks
    return Harness.from_dict(d, source="test")


@pytest.fixture()
def room() -> Room:
    """beauty_zh with no tool faults and no viewers."""
    sc = load_scenario("beauty_zh")
    return Room(sc.model_copy(update={"faults": Faults()}), seed=0, viewers=False)


def request(text: str = "1号链接多少钱") -> LiveRequest:
    return LiveRequest("r0001", 0.0, [Comment(0.0, "v0001", "小红", "price_asker", text, (Intent("price", link=1),))])


def loop_in(room: Room, h: Harness, req: LiveRequest | None = None) -> RequestLoop:
    return RequestLoop(h, room.scenario, room.state, room.backend, room.rules, req or request(), [])


def call(tool: str, **arguments: Any) -> str:
    return format_hermes(tool, arguments)


def tool_results(loop: RequestLoop) -> list[dict[str, Any]]:
    return [m for m in loop.messages if m["role"] == "tool"]


def feedback(loop: RequestLoop) -> list[str]:
    return [m["content"] for m in loop.messages if m["role"] == "user" and m["content"].startswith("[harness]")]


def test_a_reply_after_tools_and_a_skill_goes_out_with_its_latency(room: Room) -> None:
    loop = loop_in(room, harness())
    assert loop.user_message == {"role": "user", "content": "Viewer comments:\n[小红] 1号链接多少钱"}
    assert not loop.feed(Turn(call("get_product_info_by_link_id", link_id=1), seconds=1.5))
    assert not loop.feed(Turn(call("load_skill", name="item-qa"), seconds=0.5))
    with pytest.raises(RuntimeError, match="not finished"):
        loop.outcome
    assert loop.feed(Turn("1号链接现在到手价89元哦", seconds=1.0))
    out = loop.outcome
    assert out.reply == loop.reply == "1号链接现在到手价89元哦" and not out.fallback and loop.done
    assert [(c.name, c.op, c.valid, c.ok) for c in out.calls] == [
        ("get_product_info_by_link_id", "product_by_link", True, True), ("load_skill", "load_skill", True, True)]
    assert out.skills_loaded == ["item-qa"] and out.turns == 3 and out.retries == 0
    # model seconds as given, plus the scenario's tool time for the one backend call (load_skill is free)
    assert out.latency_s == pytest.approx(1.5 + 0.5 + 1.0 + room.scenario.latency.tool_s)
    assert [t["turn"] for t in out.timings] == [1, 2, 3] and out.timings[0]["turn_s"] == 1.5
    assert loop.turn_messages()[0] is loop.user_message and loop.turn_messages()[-1]["content"] == out.reply
    with pytest.raises(RuntimeError, match="finished"):
        loop.feed("again")


def test_turn_limit_sends_the_fallback(room: Room) -> None:
    loop = loop_in(room, harness(turn_limit=2))
    assert not loop.feed("<tool_call>{not json</tool_call>")
    assert loop.agent_request().turn == 1
    assert loop.feed("")
    out = loop.outcome
    assert out.fallback and out.reply == FALLBACK and out.turns == 2
    assert out.hook_events[-1] == {"event": "before_reply", "check": "turn_limit", "decision": "fallback",
                                   "reason": "turn_limit"}
    assert len(feedback(loop)) == 2 and all("could not be used" in f for f in feedback(loop))
    assert loop.messages[-1] == {"role": "assistant", "content": FALLBACK}


def test_retry_budget_sends_the_fallback(room: Room) -> None:
    loop = loop_in(room, harness(max_retries=1))
    assert not loop.feed("1号链接89元")  # no reply skill loaded: blocked, retry 1
    assert loop.retries == 1 and "load a reply skill" in feedback(loop)[0]
    assert loop.feed("1号链接89元哦")  # blocked again: over the budget of 1
    out = loop.outcome
    assert out.fallback and out.reply == FALLBACK and out.retries == 2 and out.turns == 2
    assert [e["check"] for e in out.hook_events] == ["reply_skill_loaded", "reply_skill_loaded", "retry_budget"]


def test_a_denied_reply_gets_the_hooks_feedback_and_the_retry_goes_out(room: Room) -> None:
    loop = loop_in(room, harness(max_reply_chars=20, feedback={"too_long": "太长了：{n} > {limit}"}))
    loop.feed(call("load_skill", name="item-qa"))
    long = "1号链接现在到手价89元，库存还很充足，喜欢的宝宝直接拍哦"
    assert not loop.feed(long)
    assert feedback(loop) == [f"[harness] 太长了：{len(long)} > 20"]  # the harness's own template, filled
    assert loop.hook_events[-1] == {"event": "before_reply", "check": "max_length", "decision": "deny",
                                    "reason": f"太长了：{len(long)} > 20"}
    assert loop.feed("1号链接到手价89元")
    assert loop.outcome.reply == "1号链接到手价89元" and loop.outcome.retries == 1 and not loop.outcome.fallback


def test_a_hook_matcher_limits_it_to_the_tools_it_names(room: Room) -> None:
    hooks = [{"event": "before_tool", "check": "no_duplicate_call", "matcher": "^get_product"}]
    loop = loop_in(room, harness(hooks=hooks, require_reply_skill=False))
    for _ in range(2):
        loop.feed(call("get_product_info_by_link_id", link_id=1))
        loop.feed(call("get_live_campaigns"))
    calls = [(c.name, c.valid) for c in loop.calls]
    assert calls == [("get_product_info_by_link_id", True), ("get_live_campaigns", True),
                     ("get_product_info_by_link_id", False), ("get_live_campaigns", True)]
    assert "already called get_product_info_by_link_id" in json.loads(tool_results(loop)[2]["content"])["error"]
    assert [e["check"] for e in loop.hook_events] == ["no_duplicate_call"]


def test_unknown_skill_is_an_error_message_and_loads_nothing(room: Room) -> None:
    loop = loop_in(room, harness())
    loop.feed(call("load_skill", name="no-such-skill"))
    err = json.loads(tool_results(loop)[0]["content"])["error"]
    assert err.startswith("no skill named 'no-such-skill'") and "item-qa" in err
    assert loop.skills_loaded == [] and [(c.op, c.valid, c.ok) for c in loop.calls] == [("load_skill", False, False)]


def test_unknown_tool_never_reaches_the_backend(room: Room) -> None:
    loop = loop_in(room, harness())
    before = room.backend.rng.getstate()
    loop.feed(call("fly_to_the_moon", speed=9))
    assert room.backend.rng.getstate() == before  # no fault was drawn: nothing ran
    err = json.loads(tool_results(loop)[0]["content"])["error"]
    assert "no tool named fly_to_the_moon" in err and "get_product_info_by_link_id" in err and "load_skill" in err
    assert [(c.name, c.op, c.valid) for c in loop.calls] == [("fly_to_the_moon", None, False)]
    assert loop.latency_s == pytest.approx(room.scenario.latency.per_turn_s + len(call("fly_to_the_moon", speed=9))
                                           / room.scenario.latency.chars_per_s)  # the modelled turn, no tool time


def test_bad_arguments_are_rejected_with_the_schema_error(room: Room) -> None:
    loop = loop_in(room, harness())
    before = room.backend.rng.getstate()
    loop.feed(call("get_product_info_by_link_id", link_id="three"))
    loop.feed('<tool_call>{"name": "get_product_info_by_link_id", "arguments": "[1"}</tool_call>')
    assert room.backend.rng.getstate() == before
    assert [(c.op, c.valid, c.args) for c in loop.calls][0] == ("product_by_link", False, {})
    assert "link_id" in json.loads(tool_results(loop)[0]["content"])["error"]


def test_the_fallback_is_the_harness_own_in_the_room_locale(room: Room) -> None:
    loop = loop_in(room, harness(turn_limit=1, fallback_reply={"zh_CN": "马上回来", "default": "brb"}))
    assert loop.feed(call("get_live_campaigns"))
    assert loop.outcome.reply == "马上回来" and loop.outcome.fallback
    en = loop_in(room, harness(turn_limit=1, fallback_reply={"default": "brb"}))
    assert en.feed("") and en.outcome.reply == "brb"


def test_close_sends_the_reply_as_written(room: Room) -> None:
    loop = loop_in(room, harness())
    assert not loop.feed("1号链接89元")  # blocked: no reply skill
    out = loop.close("1号链接89元")
    assert loop.done and out.reply == "1号链接89元" and not out.fallback and out.retries == 1 and out.turns == 1


def test_turn_of_every_action_form() -> None:
    assert Turn.of("hi") == Turn("hi")
    calls = [{"id": "c1", "type": "function", "function": {"name": "x", "arguments": "{}"}}]
    d = Turn.of({"content": None, "tool_calls": calls, "turn_seconds": 2.0, "ttft_s": 0.1})
    assert d == Turn("", calls, 2.0, {"ttft_s": 0.1, "total_s": 2.0})
    r = AgentResponse(text="ok", timings=Timings(total_s=1.25, ttft_s=0.5), prompt_tokens=7, completion_tokens=3)
    assert Turn.of(r) == Turn("ok", None, 1.25, {"ttft_s": 0.5, "total_s": 1.25, "prompt_tokens": 7,
                                                 "completion_tokens": 3})
    t = Turn("x", seconds=1.0)
    assert Turn.of(t) is t and Turn.of(42) == Turn("42")


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """Every hat_env module ``path`` imports, wherever the import statement sits (functions and TYPE_CHECKING
    blocks included: those are cycles for a reader and a type checker too)."""
    out: set[str] = set()
    pkg = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{a.name}" for a in node.names]
        else:
            continue
        out.update(t for t in targets if t in modules and t != name)
    return out


@pytest.mark.parametrize("package", ["hat_env.envs", "hat_env.harness"])
def test_the_request_core_has_no_import_cycles(package: str) -> None:
    folder = ROOT / package.replace(".", "/")
    files = {p: ".".join([package, *p.relative_to(folder).with_suffix("").parts]).removesuffix(".__init__")
             for p in folder.rglob("*.py")}
    modules = set(files.values())
    graph = {name: _imports(p, name, modules) for p, name in files.items()}
    graphlib.TopologicalSorter(graph).prepare()  # raises CycleError naming the cycle
