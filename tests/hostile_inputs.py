"""Helpers for the hostile ACTIONS, COMMENTS and ENDPOINTS corpora (tests/hostile/actions.yaml, comments.yaml,
endpoints.yaml): reading them, building the Python values their entries describe, and the checks every hostile
input must pass (no exception, a valid JSONL trace, finite scores in [0, 100], plain-JSON ``info``).

Values YAML cannot write are built from one-key maps (``$name``):

- ``{$repeat: S, times: N, before: A, then: B}``: ``A + S * N + B``; ``{$concat: [parts]}``: the parts joined;
- ``{$chr: N}``: one character (a lone surrogate, which YAML cannot hold); ``{$deep: N}``: ``"[" * N + "]" * N``;
- ``{$nest: N, key: K}``: a Python value ``N`` containers deep (``{"K": {...}}``, or lists without ``key``);
- ``{$json: V}``: ``V`` as JSON text; ``{$hermes: {name, arguments | arguments_raw}}``: one Hermes tool call;
- ``{$calls: N, of: V}``: ``V`` (a string) repeated ``N`` times; ``{$big_int: N}``: an integer of ``N`` digits;
- ``{$bytes: S}``, ``{$set: [..]}``, ``{$object: null}``, ``{$bad_str: null}`` (``str()`` raises), ``{$cycle: K}`` (a
  dict holding itself under ``K``), ``{$np: TYPE, value: V}`` (a numpy scalar);
- ``{$agent_response: {text, tool_calls, total_s, ttft_s, prompt_tokens, completion_tokens, error, timings}}``
  and ``{$turn: {text, tool_calls, seconds, timings}}``: the objects themselves (``timings: null`` breaks them).

``@TOOL@`` in a string is the default harness's link-lookup tool, ``@SKILL_TOOL@`` its skill tool.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import yaml

HOSTILE = Path(__file__).resolve().parent / "hostile"
TOOL = "get_product_info_by_link_id"
SKILL_TOOL = "load_skill"


def load_corpus(name: str) -> list[dict[str, Any]]:
    """The entries of ``tests/hostile/NAME.yaml`` (ids unique, each with ``kind``, ``expect`` and ``why``)."""
    data = yaml.safe_load((HOSTILE / f"{name}.yaml").read_text(encoding="utf-8"))
    entries = data["entries"]
    ids = [e["id"] for e in entries]
    assert len(ids) == len(set(ids)), "duplicate ids in " + name
    for e in entries:
        assert {"id", "kind", "expect", "why"} <= set(e), e.get("id")
    return entries


class _BadStr:
    """An object whose ``str()`` and ``repr()`` raise."""

    def __str__(self) -> str:
        raise RuntimeError("no str for you")

    __repr__ = __str__


def _nest(depth: int, key: str | None) -> Any:
    v: Any = 0
    for _ in range(depth):
        v = {key: v} if key is not None else [v]
    return v


def build(spec: Any) -> Any:
    """The Python value a corpus entry's ``action`` (or any field) describes (see the module docstring)."""
    if isinstance(spec, str):
        return spec.replace("@TOOL@", TOOL).replace("@SKILL_TOOL@", SKILL_TOOL)
    if isinstance(spec, list):
        return [build(x) for x in spec]
    if not isinstance(spec, dict):
        return spec
    macro = next((k for k in spec if isinstance(k, str) and k.startswith("$")), None)
    if macro is None:
        return {build(k): build(v) for k, v in spec.items()}
    arg = spec[macro]
    if macro == "$repeat":
        return build(spec.get("before", "")) + build(arg) * spec["times"] + build(spec.get("then", ""))
    if macro == "$concat":
        return "".join(build(x) for x in arg)
    if macro == "$chr":
        return chr(arg)
    if macro == "$deep":
        return "[" * arg + "]" * arg
    if macro == "$nest":
        return _nest(arg, spec.get("key"))
    if macro == "$json":
        return json.dumps(build(arg), ensure_ascii=False)
    if macro == "$hermes":
        args = build(arg["arguments_raw"]) if "arguments_raw" in arg else json.dumps(build(arg.get("arguments", {})))
        return f'<tool_call>\n{{"name": {json.dumps(build(arg["name"]))}, "arguments": {args}}}\n</tool_call>'
    if macro == "$calls":
        return build(spec["of"]) * arg
    if macro == "$big_int":
        return int("9" * min(arg, 4000)) * 10 ** max(0, arg - 4000)
    if macro == "$bytes":
        return build(arg).encode("utf-8", "surrogatepass")
    if macro == "$set":
        return set(build(arg))
    if macro == "$object":
        return object()
    if macro == "$bad_str":
        return _BadStr()
    if macro == "$cycle":
        d: dict[str, Any] = {}
        d[arg] = d
        return d
    if macro == "$np":
        import numpy as np

        return getattr(np, arg)(build(spec["value"]))
    if macro == "$agent_response":
        from hat_env.types import AgentResponse, Timings

        a = {k: build(v) for k, v in arg.items()}
        resp = AgentResponse(text=a.get("text", ""), tool_calls=a.get("tool_calls", []),
                             timings=Timings(total_s=a.get("total_s", 0.5), ttft_s=a.get("ttft_s")),
                             prompt_tokens=a.get("prompt_tokens"), completion_tokens=a.get("completion_tokens"),
                             error=a.get("error"))
        if "timings" in a:
            resp.timings = a["timings"]
        return resp
    if macro == "$turn":
        from hat_env.types import Turn

        a = {k: build(v) for k, v in arg.items()}
        return Turn(a.get("text", ""), a.get("tool_calls"), a.get("seconds"), a.get("timings"))
    raise ValueError(f"unknown macro {macro}")


# -- the checks every hostile input must pass -------------------------------------------------------------------
def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Every record of a JSONL file; asserts the file is valid UTF-8, one JSON value per ``\\n``-separated line,
    and that ``str.splitlines`` sees the same lines (no raw U+2028 / U+0085 inside a record)."""
    raw = path.read_bytes()
    text = raw.decode("utf-8")  # strict: a lone surrogate written raw fails here
    lines = [ln for ln in text.split("\n") if ln]
    assert len(lines) == len([ln for ln in text.splitlines() if ln]), "a record breaks str.splitlines"
    return [json.loads(ln, parse_constant=_no_constant) for ln in lines]


def _no_constant(name: str) -> Any:
    raise AssertionError(f"{name} in a JSONL record (not JSON)")


def check_scores(scores: dict[str, Any]) -> None:
    """A scores dict is finite: composite in [0, 100], every component in [0, 1]."""
    c = scores["composite"]
    assert isinstance(c, (int, float)) and math.isfinite(c) and 0.0 <= c <= 100.0, scores
    for k, v in scores["components"].items():
        assert math.isfinite(v) and 0.0 <= v <= 1.0, (k, v)


def check_plain(value: Any) -> None:
    """``value`` is plain JSON data (what an env's ``info`` must hold): dumps strictly, no NaN."""
    json.dumps(value, allow_nan=False)


def check_trace(path: Path) -> list[dict[str, Any]]:
    """A trace is valid JSONL, ends with ``session_end``, and every request record's scores are finite."""
    recs = read_jsonl(path)
    assert recs and recs[0]["type"] == "session_start" and recs[-1]["type"] == "session_end", \
        [r["type"] for r in recs][-3:]
    for r in recs:
        if r["type"] == "request":
            check_scores(r["scores"])
            assert math.isfinite(r["latency_s"]) and r["latency_s"] >= 0
    return recs
