"""The random agent: a lower reference that calls random tools with random arguments or says random things."""

from __future__ import annotations

import random
import string
from typing import Any

from hat_env.harness.parse import format_hermes
from hat_env.types import AgentRequest, AgentResponse, Timings

_WORDS = {
    "zh_CN": ["好的", "宝宝", "这个", "链接", "看看", "哈哈", "今天", "直播间", "喜欢", "真的"],
    "en_US": ["okay", "yes", "look", "this", "stream", "nice", "today", "maybe", "cool", "hmm"],
}


def _random_value(rng: random.Random, schema: dict[str, Any]) -> Any:
    t = schema.get("type")
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if t == "integer":
        return rng.randint(0, 12)
    if t == "number":
        return round(rng.uniform(0, 100), 2)
    if t == "boolean":
        return rng.random() < 0.5
    if t == "object":
        return {k: _random_value(rng, v) for k, v in schema.get("properties", {}).items() if rng.random() < 0.8}
    return "".join(rng.choice(string.ascii_uppercase + string.digits) for _ in range(rng.randint(1, 5)))


class RandomAgent:
    """Each turn: with probability ``p_tool`` a random tool call (random arguments per the schema), else a
    reply of random words in the room's language.

    Args:
        seed: seeds the agent's own generator (a seed fixes its choices).
        p_tool: probability of a tool call per turn.
    """

    name = "random"

    def __init__(self, seed: int = 0, p_tool: float = 0.5):
        self.rng = random.Random(f"random-agent:{seed}")
        self.p_tool = p_tool

    def act(self, request: AgentRequest) -> AgentResponse:
        """One random output."""
        rng = self.rng
        if request.tools and rng.random() < self.p_tool:
            fn = rng.choice(request.tools)["function"]
            text = format_hermes(fn["name"], _random_value(rng, fn.get("parameters", {"type": "object"})))
        else:
            words = _WORDS.get(request.locale, _WORDS["en_US"])
            sep = "" if request.locale == "zh_CN" else " "
            text = sep.join(rng.choice(words) for _ in range(rng.randint(2, 8)))
        return AgentResponse(text=text, timings=Timings(total_s=0.25 + len(text) / 100.0, ttft_s=0.25))
