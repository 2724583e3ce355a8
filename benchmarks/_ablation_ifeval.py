"""IFEval-live for the HSA ablation's tiny models (``benchmarks/hsa_ablation.py``), batched on the CPU.

The cases are the ``ifeval-live-v1`` suite's, in the ablation's scenario: a viewer's product question at a
moment of the session, with 1-3 verifiable instructions for the reply, set (as the suite does) as the harness's
``constraints.instructions``, which its rules section lists. The harness is the ablation's compact one, the
harness the SFT arms work in, not the scenario's default pack: that pack's hooks block every reply until a reply
skill was loaded, so for models that never learnt to load skills every reply would be the fallback and the score
would measure the hook, not the reply. Each case runs through the real request loop (a ``LiveSession``: tool
calls are executed, the turn limit and fallback apply), every model turn decoded greedily, all cases of a turn
in one batch, and the reply that went out is checked with the suite's own strict/loose IFEval checks.
"""

from __future__ import annotations

from typing import Any


def ifeval_cases(scenario: str, n: int) -> list[dict[str, Any]]:
    """The first ``n`` cases of ``ifeval-live-v1`` in ``scenario`` (suite order)."""
    from hat_env.evaluation.suites import load_suite

    return [c for c in load_suite("ifeval-live-v1") if c["scenario"] == scenario][:n]


def _session(case: dict[str, Any], harness: str) -> Any:
    """The case's session under ``harness`` with the case's instruction patch, its request opened."""
    from hat_env.envs.live_qa import request_from_case
    from hat_env.envs.session import LiveSession

    s = LiveSession(case["scenario"], seed=case["seed"], harness=harness, viewers=False, max_history=0)
    s.base_harness = s.harness = s.harness.apply(case["patch"])
    s.room.t = float(case["t"])
    s.open_request(request_from_case(case))
    return s


def run_ifeval(model_dir: str, cases: list[dict[str, Any]], harness: str, threads: int, max_new_tokens: int = 48,
               max_turns: int = 4) -> dict[str, Any]:
    """Run ``cases`` with the model in ``model_dir``; returns IFEval's four numbers (``prompt_strict``,
    ``inst_strict``, ``prompt_loose``, ``inst_loose``), the share of replies that are the harness's fallback, the
    mean number of tool calls, and three sample replies.

    Args:
        model_dir: a model folder (its chat template renders the harness's tools).
        cases: IFEval-live cases.
        harness: the harness folder the cases run under.
        threads: torch threads.
        max_new_tokens: the most tokens of one model turn.
        max_turns: model turns per case before empty outputs are fed (the harness then sends its fallback).
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from hat_env.agents.chat import end_markers, render_prompt, strip_end
    from hat_env.evaluation.ifeval import aggregate_dicts, evaluate
    from hat_env.ifeval import make_context

    torch.set_num_threads(threads)
    tok = AutoTokenizer.from_pretrained(model_dir)
    tok.padding_side = "left"
    model = AutoModelForCausalLM.from_pretrained(model_dir).eval()
    marks = end_markers(tok)
    limit = getattr(model.config, "max_position_embeddings", 2048) - max_new_tokens
    sessions = [_session(c, harness) for c in cases]
    done: list[bool] = [False] * len(sessions)
    for turn in range(max_turns + 32):
        todo = [i for i, d in enumerate(done) if not d]
        if not todo:
            break
        if turn >= max_turns:  # out of model turns: empty outputs until the harness gives up (its fallback)
            texts = [""] * len(todo)
        else:
            prompts = []
            for i in todo:
                req = sessions[i].loop.agent_request()
                prompts.append(render_prompt(tok, req.messages, req.tools))
            texts = []
            for b in range(0, len(prompts), 16):
                enc = tok(prompts[b: b + 16], return_tensors="pt", padding=True, add_special_tokens=False,
                          truncation=True, max_length=limit)
                with torch.inference_mode():
                    out = model.generate(**enc, max_new_tokens=max_new_tokens, do_sample=False,
                                         pad_token_id=tok.pad_token_id)
                texts += tok.batch_decode(out[:, enc["input_ids"].shape[1]:], skip_special_tokens=False)
        for i, text in zip(todo, texts):
            done[i] = sessions[i].feed(strip_end(text, marks).strip(), None, 0.0) is not None
    results = []
    outs = []
    for c, s in zip(cases, sessions):
        out = s.outcomes[-1][0]
        ctx = make_context([x["text"] for x in c["comments"]], [x.get("viewer", "") for x in c["comments"]])
        results.append(evaluate(out.reply, c["instructions"], c["locale"], ctx))
        outs.append(out)
    agg = aggregate_dicts(r.to_dict() for r in results)
    return {
        "n": len(results),
        **{k: round(v, 4) for k, v in agg.items() if k in ("prompt_strict", "inst_strict", "prompt_loose",
                                                              "inst_loose")},
        "fallback_share": round(sum(bool(o.fallback) for o in outs) / max(1, len(outs)), 4),
        "mean_tool_calls": round(sum(len(o.calls) for o in outs) / max(1, len(outs)), 3),
        "samples": [o.reply[:160] for o in outs[:3]],
    }
