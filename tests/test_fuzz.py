"""Fuzzing every place a model's action enters: ``LiveRoom-v0`` and ``LiveQA-v0`` ``step``, the PettingZoo step
(host and viewer actions), ``RequestLoop.feed`` (through ``LiveSession.feed``) and, once it is in the tree,
``hat_env.scoring.grade``. Hypothesis draws deep nesting, wrong types, huge strings, control characters, lone
surrogates, NaN/negative/infinite/string seconds and OpenAI dicts of every wrong shape. The properties: nothing
raises, the trace stays valid JSONL (UTF-8, one record per line, no NaN), every score is finite and in
[0, 100] (components in [0, 1]), and ``info`` is plain JSON.

Reproducible: the database is off and each round runs under a fixed seed (0, 1, 2, ...); the rounds go on until
the target's share of ``HAT_ENV_FUZZ_S`` seconds (default 60 in all) is spent, so a failure names its seed. The
figures (rounds, examples, seconds) are printed, not asserted.
"""

from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path
from typing import Any, Callable

import gymnasium as gym
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import hat_env  # noqa: F401  (registers the envs)
from hat_env.agents.reference import ReferenceAgent
from hat_env.envs import live_room
from hat_env.envs.session import LiveSession
from hat_env.types import AgentResponse, Timings, Turn
from hostile_inputs import check_plain, check_scores

BUDGET_S = float(os.environ.get("HAT_ENV_FUZZ_S", "60"))
TARGETS = 4  # the share of each target below
TOOLS = ["get_product_info_by_link_id", "get_product_detail", "get_live_campaigns", "check_stock", "pin_product",
         "send_coupon", "load_skill"]

# -- strategies ------------------------------------------------------------------------------------------------
CHARS = st.characters(exclude_categories=())  # surrogates and control characters included
SPECIAL = ["", " ", "\x00", "\ud800", "\udfff", "\ud83d\ude00", "\u2028", "\x85", "<think>", "</think>",
           "<tool_call>", "</tool_call>", "<|assistant|>", "{", "NaN", "Infinity", "\\ud800", "[harness]"]
short_text = st.one_of(st.text(CHARS, max_size=60), st.sampled_from(SPECIAL),
                       st.lists(st.sampled_from(SPECIAL), max_size=6).map("".join))
big_text = st.sampled_from([1000, 100_000, 999_999, 1_000_001, 1_500_000]).flatmap(
    lambda n: st.sampled_from(["a", "好", "\ud800", "[", " "]).map(lambda c: c * n))
texts = st.one_of(short_text, short_text, short_text, big_text)
numbers = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0, -0.0, 1e300, -1e-300, 10**30, 2**63, True, False]))
scalars = st.one_of(st.none(), st.booleans(), numbers, short_text)
json_like = st.recursive(scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=4), st.dictionaries(st.one_of(short_text, st.integers()), kids, max_size=4)),
    max_leaves=16)
deep_text = st.integers(1, 20_000).map(lambda n: "[" * n + "]" * n)


def _nest(n: int) -> Any:
    v: Any = 0
    for _ in range(n):
        v = {"a": v}
    return v


weird = st.one_of(json_like, st.builds(object), st.binary(max_size=16), st.sets(st.integers(), max_size=3),
                  st.tuples(scalars, scalars), st.integers(1, 5_000).map(_nest), st.just(float("nan")))


def _args_text(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return "{}"


valid_args = st.one_of(st.fixed_dictionaries({"link_id": st.integers(-5, 12)}),
                       st.fixed_dictionaries({"product_id": short_text}),
                       st.fixed_dictionaries({"name": st.sampled_from(["item-qa", "chitchat", "nope"])}))
args_text = st.one_of(valid_args.map(_args_text), json_like.map(_args_text), deep_text, short_text,
                      st.integers(4_000, 6_000).map(lambda n: '{"link_id": ' + "9" * n + "}"))
names = st.one_of(st.sampled_from(TOOLS), short_text)
hermes = st.lists(st.tuples(names, args_text), min_size=1, max_size=4).map(
    lambda calls: "".join(f'<tool_call>{{"name": {json.dumps(n)}, "arguments": {a}}}</tool_call>' for n, a in calls))
function = st.one_of(weird, st.fixed_dictionaries({}, optional={"name": st.one_of(names, weird),
                                                                "arguments": st.one_of(args_text, valid_args,
                                                                                       weird)}))
call = st.one_of(weird, st.fixed_dictionaries({}, optional={"id": st.one_of(short_text, weird),
                                                            "type": st.just("function"), "function": function}))
openai_dict = st.fixed_dictionaries({}, optional={
    "role": st.just("assistant"), "content": st.one_of(texts, weird, st.lists(st.fixed_dictionaries(
        {"type": st.sampled_from(["text", "image_url"]), "text": short_text}), max_size=3)),
    "tool_calls": st.one_of(weird, st.lists(call, max_size=4)), "turn_seconds": st.one_of(numbers, weird),
    "ttft_s": st.one_of(numbers, weird), "prompt_tokens": st.one_of(numbers, weird),
    "completion_tokens": st.one_of(numbers, weird)})


def _response(text: Any, calls: Any, total: Any, ttft: Any, tokens: Any, error: Any, broken: bool) -> AgentResponse:
    r = AgentResponse(text=text, tool_calls=calls, timings=Timings(total_s=total, ttft_s=ttft),
                      prompt_tokens=tokens, completion_tokens=tokens, error=error)
    if broken:
        r.timings = None  # type: ignore[assignment]
    return r


responses = st.builds(_response, st.one_of(texts, hermes, weird), st.one_of(st.lists(call, max_size=3), weird),
                      st.one_of(numbers, weird), st.one_of(st.none(), numbers), st.one_of(st.none(), numbers, weird),
                      st.one_of(st.none(), short_text, weird), st.booleans())
turns = st.builds(Turn, st.one_of(texts, weird), st.one_of(st.none(), st.lists(call, max_size=3), weird),
                  st.one_of(st.none(), numbers, weird), st.one_of(st.none(), weird,
                                                                  st.dictionaries(short_text, weird, max_size=4)))
actions = st.one_of(texts, hermes, hermes, openai_dict, openai_dict, responses, turns, weird)
viewer_actions = st.one_of(st.none(), texts, weird, st.fixed_dictionaries(
    {"kind": st.one_of(st.integers(-2, 6), st.sampled_from(["comment", "buy", "leave", "silent", "dance"]), weird),
     "text": st.one_of(texts, weird)}))


# -- the checks ------------------------------------------------------------------------------------------------
class TraceTail:
    """Reads what a trace gained since the last look and checks it (strict UTF-8, one JSON record per line, no
    NaN, finite scores)."""

    def __init__(self, path: Path):
        self.path, self.pos, self.records = path, 0, 0

    def check(self) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        chunk, self.pos = data[self.pos:end], max(self.pos, end)
        text = chunk.decode("utf-8")
        lines = [ln for ln in text.split("\n") if ln]
        assert len(lines) == len([ln for ln in text.splitlines() if ln]), "a record breaks str.splitlines"
        for ln in lines:
            rec = json.loads(ln, parse_constant=lambda c: (_ for _ in ()).throw(AssertionError(c)))
            self.records += 1
            if rec.get("type") == "request":
                check_scores(rec["scores"])
                assert math.isfinite(rec["latency_s"]) and rec["latency_s"] >= 0


def _step_result(obs: Any, reward: float, info: dict[str, Any]) -> None:
    assert isinstance(obs["text"], str)
    assert math.isfinite(reward) and 0.0 <= reward <= 1.0, reward
    check_plain(info)
    if "scores" in info:
        check_scores(info["scores"])


def _rounds(name: str, run_one: Callable[[], None]) -> None:
    """Run ``run_one`` (a @given test) under seeds 0, 1, 2, ... until this target's share of the budget is spent."""
    share = BUDGET_S / TARGETS
    t0 = time.monotonic()
    k = 0
    while True:
        seed(k)(run_one)()
        k += 1
        if time.monotonic() - t0 >= share:
            break
    print(f"{name}: {k} rounds in {time.monotonic() - t0:.1f} s")


FUZZ = settings(database=None, deadline=None, max_examples=25, derandomize=False,
                suppress_health_check=list(HealthCheck), print_blob=True)


# -- the targets -----------------------------------------------------------------------------------------------
def _finish(env: Any, agent: ReferenceAgent) -> bool:
    """The reference agent finishes the open request (bounded); ``True`` when the episode ended."""
    s = env.unwrapped.session
    for _ in range(10):
        if s.loop is None:
            return True
        loop = s.loop
        obs, reward, term, trunc, info = env.step(agent.act(loop.agent_request()))
        _step_result(obs, reward, info)
        if term or trunc:
            return True
        if s.loop is not loop:
            return False
    return False


class Traces:
    """One trace file per episode under ``folder``: :meth:`peek` names the next one; :meth:`advance` (after the
    reset that finished the last episode into its own file) checks the whole of the last one, its
    ``session_end`` included, removes it and makes the next one current."""

    def __init__(self, folder: Path):
        self.folder, self.n, self.tail = folder, 0, None
        self.records = 0

    def peek(self) -> Path:
        return self.folder / f"t{self.n + 1}.jsonl"

    def advance(self) -> None:
        path = self.peek()
        self.close()
        self.n += 1
        self.tail = TraceTail(path)

    def check(self) -> None:
        if self.tail is not None:
            self.tail.check()

    def close(self) -> None:
        if self.tail is not None:
            self.tail.check()
            self.records += self.tail.records
            if self.tail.path.exists():
                lines = self.tail.path.read_bytes().decode("utf-8").split("\n")
                assert json.loads(lines[-2])["type"] == "session_end", lines[-2][:200]
                self.tail.path.unlink()
            self.tail = None


@pytest.mark.parametrize("env_id", ["LiveRoom-v0", "LiveQA-v0"])
def test_fuzz_gym_step(env_id: str, tmp_path: Path) -> None:
    env = gym.make(f"hat_env/{env_id}", scenario="electronics_en")
    traces = Traces(tmp_path)
    agent = ReferenceAgent()

    def reset() -> None:
        env.reset(seed=traces.n, options={"trace": str(traces.peek())})  # the last episode ends in its own file
        traces.advance()

    reset()

    @FUZZ
    @given(st.lists(actions, min_size=1, max_size=4))
    def run_one(batch: list[Any]) -> None:
        for a in batch:
            if env.unwrapped.session.loop is None:
                reset()
            obs, reward, term, trunc, info = env.step(a)
            _step_result(obs, reward, info)
            if term or trunc:
                reset()
        if env.unwrapped.session.loop is not None and _finish(env, agent):
            reset()
        traces.check()

    _rounds(env_id, run_one)
    env.close()
    traces.close()
    print(f"{env_id}: {traces.records} trace records checked")


def test_fuzz_pettingzoo_step(tmp_path: Path) -> None:
    env = live_room.parallel_env(scenario="beauty_zh", hosts=2, viewers=8, duration_s=400)
    traces = Traces(tmp_path)

    def reset() -> None:
        if env.room is not None:
            env.room.finish()
        env.reset(seed=traces.n, options={"trace": str(traces.peek())})
        traces.advance()

    reset()

    @FUZZ
    @given(st.lists(st.tuples(actions, actions, viewer_actions, viewer_actions), min_size=1, max_size=4))
    def run_one(batch: list[tuple[Any, Any, Any, Any]]) -> None:
        for h0, h1, v0, v1 in batch:
            if not env.agents:
                reset()
            viewers = [a for a in env.agents if a.startswith("viewer_")][:2]
            acts = {"host_0": h0, "host_1": h1, **dict(zip(viewers, (v0, v1)))}
            obs, rewards, terms, truncs, infos = env.step(acts)
            check_plain(infos)
            assert all(math.isfinite(r) for r in rewards.values()), rewards
            for info in infos.values():
                if "scores" in info:
                    check_scores(info["scores"])
        traces.check()

    _rounds("PettingZoo", run_one)
    env.room.finish()
    traces.close()
    print(f"PettingZoo: {traces.records} trace records checked")


def test_fuzz_request_loop_and_grade(tmp_path: Path) -> None:
    traces = Traces(tmp_path)
    agent = ReferenceAgent()
    state: dict[str, Any] = {"s": None}
    try:
        from hat_env.scoring import grade  # lands with the claims work; until then only the loop is fuzzed
    except ImportError:
        grade = None

    def session() -> LiveSession:
        s = state["s"]
        if s is None or s.finished or (s.loop is None and not s.next_request()):
            if s is not None:
                s.finish()
            s = state["s"] = LiveSession("healthfood_zh", seed=traces.n, duration_s=300, trace=traces.peek())
            traces.advance()
            assert s.next_request()
        return s

    @FUZZ
    @given(st.lists(actions, min_size=1, max_size=5))
    def run_one(batch: list[Any]) -> None:
        for a in batch:
            scores = session().feed(a)
            if scores is not None:
                check_scores(scores)
        s = session()
        loop = s.loop
        for _ in range(10):
            if s.loop is not loop:
                break
            s.feed(agent.act(loop.agent_request()))
        traces.check()
        if grade is not None:
            from hat_env.scoring.offline import GradeError

            case = {"scenario": "beauty_zh", "seed": 0, "t": 30.0,
                    "comments": [{"text": "3号链接多少钱", "intents": [{"kind": "price", "link": 3}]}]}
            try:
                res = grade(case, batch)
            except GradeError:
                return  # a malformed turn is a clear error there, by contract
            assert math.isfinite(res["composite"]) and 0 <= res["composite"] <= 100, res

    _rounds("RequestLoop.feed" + (" + grade" if grade is not None else ""), run_one)
    state["s"].finish()
    traces.close()
    print(f"RequestLoop.feed: {traces.records} trace records checked")


def test_fuzz_atheris(tmp_path: Path) -> None:
    """Coverage-guided fuzzing of ``LiveSession.feed`` with atheris (tests/fuzz_atheris.py) for
    ``HAT_ENV_ATHERIS_S`` seconds (default 10) from a fixed libFuzzer seed; any crash fails with its output."""
    import subprocess
    import sys

    from conftest import need

    need("atheris")
    import resource

    secs = int(float(os.environ.get("HAT_ENV_ATHERIS_S", "10")))
    script = Path(__file__).resolve().parent / "fuzz_atheris.py"
    # libFuzzer reads its RSS as getrusage's ru_maxrss, which Linux carries across fork and exec: the child starts
    # at this pytest process's peak (2 GB in a full CI run, after the training tests), so the limit is that peak
    # plus the fuzzer's own 2 GB budget.
    rss_limit = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024 + 2048
    r = subprocess.run([sys.executable, str(script), f"-max_total_time={secs}", "-seed=1", f"-rss_limit_mb={rss_limit}",
                        f"-artifact_prefix={tmp_path}/"], capture_output=True, text=True, timeout=secs + 120,
                       cwd=tmp_path)
    done = [ln for ln in r.stderr.splitlines() if "DONE" in ln or ln.startswith("Done ")]
    print("atheris:", " | ".join(done))
    assert r.returncode == 0, r.stderr[-4000:]
