"""Does a checkpoint copy the viewer's link number into its lookup? (used by ``rl_curve.py``)

A price question ("how much for link 2") is answered only after a lookup of that link. The tiny warm starts of
the first RL runs called the right tool with a link number drawn from their prior (six links: 1/6 right by
chance), so GRPO had no price-task signal to climb. :func:`link_copy` samples each held-out price task's first
turn and counts the calls whose link number is the one the viewer wrote, greedy and sampled, with the share of
tasks whose sampled calls disagree (a GRPO group needs rewards that differ).

torch and transformers are imported inside :func:`link_copy`.
"""

from __future__ import annotations

import json
import re
from typing import Any

_CALL = re.compile(r"<tool_call>\s*(\{.*?\})\s*</tool_call>", re.S)


def called_links(text: str) -> list[str]:
    """The link numbers in the tool calls of ``text`` (the first integer or all-digit string argument of each call).

    Args:
        text: a decoded first assistant turn in the Qwen2.5 tool-call format.

    Returns:
        One entry per parseable call: its link number, or ``""`` when it has none.
    """
    out = []
    for m in _CALL.finditer(text):
        try:
            call = json.loads(m.group(1))
        except ValueError:
            continue
        out.append(_first_number(call.get("arguments", {}) if isinstance(call, dict) else None))
    return out


def _first_number(value: Any) -> str:
    """The first integer or all-digit string in a (nested) argument value, as a string ("" if none)."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, int) or (isinstance(value, str) and value.isdigit()):
        return str(value)
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    for v in items:
        found = _first_number(v)
        if found:
            return found
    return ""


def link_copy(model_dir: str, rows: list[dict[str, Any]], schemas: dict[str, list[dict[str, Any]]],
              samples: int = 4, temperature: float = 1.0, max_new_tokens: int = 48, seed: int = 0) -> dict[str, Any]:
    """Right-link rates of ``model_dir`` on the price tasks among ``rows``.

    Args:
        model_dir: the checkpoint (model and tokenizer).
        rows: task rows of :func:`hat_env.train.rl.live_qa_tasks` (``prompt``, ``environment``, ``task``); tasks
            whose first comment has no ``price`` intent with a link are skipped.
        schemas: environment name -> its OpenAI tool schemas (``TaskSet.tool_schemas()``).
        samples: sampled first turns per task.
        temperature: sampling temperature.
        max_new_tokens: tokens generated per first turn.
        seed: torch seed of the sampling.

    Returns:
        ``{"tasks", "greedy_right", "sampled_right", "sampled_call", "groups_differ"}``: shares of tasks (greedy)
        or of sampled turns whose first call names the viewer's link, of sampled turns that call a tool at all,
        and of tasks whose sampled turns are neither all right nor all wrong.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(seed)
    tok = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
    greedy = right = called = differ = n = 0
    for row in rows:
        intents = json.loads(row["task"])["case"]["comments"][0]["intents"]
        gold = next((str(i["link"]) for i in intents if i.get("kind") == "price" and i.get("link")), None)
        if gold is None:
            continue
        n += 1
        ids = tok.apply_chat_template(row["prompt"], tools=schemas[row["environment"]], add_generation_prompt=True,
                                      return_tensors="pt", return_dict=True)
        with torch.no_grad():
            g = model.generate(**ids, max_new_tokens=max_new_tokens, do_sample=False, pad_token_id=tok.pad_token_id)
            s = model.generate(**ids, max_new_tokens=max_new_tokens, do_sample=True, temperature=temperature,
                               num_return_sequences=samples, pad_token_id=tok.pad_token_id)
        start = ids["input_ids"].shape[1]
        gl = called_links(tok.decode(g[0, start:], skip_special_tokens=False))
        greedy += int(bool(gl) and gl[0] == gold)
        ok = []
        for seq in s:
            links = called_links(tok.decode(seq[start:], skip_special_tokens=False))
            called += int(bool(links))
            ok.append(bool(links) and links[0] == gold)
        right += sum(ok)
        differ += int(0 < sum(ok) < len(ok))
    d = max(n, 1)
    return {"tasks": n, "greedy_right": round(greedy / d, 3), "sampled_right": round(right / (d * samples), 3),
            "sampled_call": round(called / (d * samples), 3), "groups_differ": round(differ / d, 3)}
