"""Coverage-guided fuzzing of ``LiveSession.feed`` (the request loop, the output parser, the trace writer) with
atheris (libFuzzer). Each input's bytes become one action: raw text (surrogates included), Hermes tool calls, an
OpenAI dict decoded from the bytes as JSON or built from fuzzed fields (NaN and infinite seconds included),
structured tool calls, or an AgentResponse. A raised exception, an invalid trace line or a score outside
[0, 100] is a crash (a non-zero exit with the input saved by libFuzzer).

    python tests/fuzz_atheris.py -max_total_time=15 -seed=1      # what tests/test_fuzz.py runs
"""

from __future__ import annotations

import json
import math
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["hat_env"]):
    from hat_env.envs.session import LiveSession
    from hat_env.types import AgentResponse, Timings

TOOLS = ["get_product_info_by_link_id", "get_product_detail", "check_stock", "pin_product", "load_skill"]
TRACE = Path(tempfile.mkdtemp(prefix="hat-env-atheris-")) / "trace.jsonl"
_state: dict = {"s": None, "pos": 0, "k": 0}


def _session() -> LiveSession:
    s = _state["s"]
    if s is None or s.finished or (s.loop is None and not s.next_request()):
        if s is not None:
            s.finish()
        _state["k"] += 1
        s = _state["s"] = LiveSession("beauty_zh", seed=_state["k"], duration_s=600, trace=TRACE)
        _state["pos"] = 0
        assert s.next_request()
    return s


def _action(fdp: atheris.FuzzedDataProvider) -> object:
    form = fdp.ConsumeIntInRange(0, 6)
    if form == 0:
        return fdp.ConsumeUnicode(fdp.ConsumeIntInRange(0, 4000))
    if form == 1:
        name = TOOLS[fdp.ConsumeIntInRange(0, len(TOOLS) - 1)] if fdp.ConsumeBool() else fdp.ConsumeUnicode(20)
        return f'<tool_call>{{"name": {json.dumps(name)}, "arguments": {fdp.ConsumeUnicode(400)}}}</tool_call>'
    if form == 2:
        try:
            value = json.loads(fdp.ConsumeUnicode(2000))
        except (ValueError, RecursionError):
            return fdp.ConsumeUnicode(50)
        return value if fdp.ConsumeBool() or not isinstance(value, dict) else {"content": "", "tool_calls": [value]}
    if form == 3:
        return {"content": fdp.ConsumeUnicode(200), "turn_seconds": fdp.ConsumeFloat(),
                "ttft_s": fdp.ConsumeFloat(), "prompt_tokens": fdp.ConsumeInt(8)}
    if form == 4:
        calls = [{"id": fdp.ConsumeUnicode(8), "function": {"name": TOOLS[fdp.ConsumeIntInRange(0, len(TOOLS) - 1)],
                                                             "arguments": fdp.ConsumeUnicode(300)}}
                 for _ in range(fdp.ConsumeIntInRange(0, 3))]
        return {"content": None, "tool_calls": calls}
    if form == 5:
        return AgentResponse(text=fdp.ConsumeUnicode(300), timings=Timings(total_s=fdp.ConsumeFloat(),
                                                                          ttft_s=fdp.ConsumeFloat()),
                             prompt_tokens=fdp.ConsumeInt(4), error=fdp.ConsumeUnicode(30) or None)
    return "[" * fdp.ConsumeIntInRange(0, 30000)


def _check_trace() -> None:
    data = TRACE.read_bytes() if TRACE.exists() else b""
    end = data.rfind(b"\n") + 1
    chunk, _state["pos"] = data[_state["pos"]:end], end
    for line in chunk.decode("utf-8").split("\n"):
        if line:
            rec = json.loads(line, parse_constant=lambda c: 1 / 0)
            if rec["type"] == "request":
                c = rec["scores"]["composite"]
                assert math.isfinite(c) and 0 <= c <= 100, c


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    s = _session()
    scores = s.feed(_action(fdp))
    if scores is not None:
        assert math.isfinite(scores["composite"]) and 0 <= scores["composite"] <= 100, scores
    _check_trace()


if __name__ == "__main__":
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()
