"""The ``transformers`` agent: a local Hugging Face causal LM, loaded from a path.

The prompt is the model's own chat template rendered with the harness's tools (``tools=``), so a model trained
on that template's tool format (Qwen's Hermes ``<tool_call>`` blocks, for example) sees what it was trained on.
Decoding is greedy by default, or sampled. Generation streams through a ``TextIteratorStreamer``, which gives
the time to first token. Tool calls stay in the text: the harness parses them.

``torch`` and ``transformers`` are imported when the agent is built.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from hat_env.agents.chat import end_markers, render_prompt, strip_end
from hat_env.types import AgentRequest, AgentResponse, Timings


class TransformersAgent:
    """A local Hugging Face model.

    Args:
        model: a local folder with the model and tokenizer (a hub id works only where the hub is reachable).
        device: ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ... (``"auto"``: CUDA when available).
        greedy: greedy decoding, or ``False`` to sample with ``temperature`` and ``top_p``; ``None`` (default):
            greedy when ``temperature`` is 0.
        temperature: sampling temperature (0 with ``greedy=None``: greedy decoding).
        top_p: nucleus sampling (sampling only).
        max_new_tokens: the most tokens one answer may have.
        dtype: ``"auto"`` (the checkpoint's), ``"float32"``, ``"bfloat16"``, ...
        seed: seeds sampling; call ``k`` uses ``seed + k`` so a run is reproducible.
        stream: stream through a ``TextIteratorStreamer`` (measures the time to first token).
        template_kwargs: extra arguments for ``apply_chat_template`` (``enable_thinking=False`` ...).
        model_kwargs: extra arguments for ``from_pretrained``.
    """

    name = "transformers"

    def __init__(
        self,
        model: str | Path,
        device: str = "cpu",
        greedy: bool | None = None,
        temperature: float = 0.0,
        top_p: float = 1.0,
        max_new_tokens: int = 256,
        dtype: str = "auto",
        seed: int = 0,
        stream: bool = True,
        template_kwargs: dict[str, Any] | None = None,
        model_kwargs: dict[str, Any] | None = None,
    ):
        if not model:
            raise ValueError("the transformers agent needs a model: --model PATH (a local folder)")
        try:
            import torch
            from transformers import AutoModelForCausalLM, AutoTokenizer
        except ImportError as exc:
            raise ImportError(f"the transformers agent needs torch and transformers ({exc}): run `make setup` "
                              "or pip install 'hat-env[hf]'") from None
        self._torch = torch
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        self.device = device
        self.model_path = str(model)
        self.tokenizer = AutoTokenizer.from_pretrained(self.model_path)
        if not getattr(self.tokenizer, "chat_template", None):
            raise ValueError(f"{self.model_path} has no chat template: the agent renders the harness with it")
        kw: dict[str, Any] = dict(model_kwargs or {})
        if dtype != "auto":
            kw["dtype"] = getattr(torch, dtype)
        self.model = AutoModelForCausalLM.from_pretrained(self.model_path, **kw).to(device)
        self.model.eval()
        self.greedy = (temperature <= 0) if greedy is None else bool(greedy)
        self.temperature = temperature if temperature > 0 else 1.0
        self.top_p = top_p
        self.max_new_tokens = max_new_tokens
        self.seed = seed
        self.stream = stream
        self.template_kwargs = dict(template_kwargs or {})
        self._markers = end_markers(self.tokenizer)
        self._eos = sorted({i for i in (self.tokenizer.convert_tokens_to_ids(t) for t in self._markers)
                            if isinstance(i, int) and i >= 0 and i != self.tokenizer.unk_token_id})
        self._calls = 0
        self._lock = threading.Lock()

    def act(self, request: AgentRequest) -> AgentResponse:
        """One model output for ``request`` (text with any ``<tool_call>`` blocks, timings, token counts)."""
        with self._lock:  # one generation at a time per model
            return self._act(request)

    def _act(self, request: AgentRequest) -> AgentResponse:
        torch = self._torch
        t0 = time.perf_counter()
        try:
            prompt = render_prompt(self.tokenizer, request.messages, request.tools, **self.template_kwargs)
        except Exception as exc:
            return AgentResponse(error=f"the chat template of {self.model_path} failed: {type(exc).__name__}: {exc}",
                                 timings=Timings(total_s=time.perf_counter() - t0))
        enc = self.tokenizer(prompt, return_tensors="pt", add_special_tokens=False).to(self.device)
        n_prompt = int(enc["input_ids"].shape[1])
        limit = getattr(self.model.config, "max_position_embeddings", None)
        if limit and n_prompt + 1 > limit:
            return AgentResponse(error=f"the prompt has {n_prompt} tokens; {self.model_path} takes at most {limit}",
                                 timings=Timings(total_s=time.perf_counter() - t0), prompt_tokens=n_prompt)
        gen: dict[str, Any] = {
            **enc,
            "max_new_tokens": self.max_new_tokens,
            "do_sample": not self.greedy,
            "eos_token_id": self._eos or None,
            "pad_token_id": self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else
            (self._eos[0] if self._eos else None),
        }
        if not self.greedy:
            gen.update(temperature=self.temperature, top_p=self.top_p)
            torch.manual_seed(self.seed + self._calls)
        self._calls += 1
        result: dict[str, Any] = {}
        ttft: float | None = None
        try:
            if self.stream:
                from transformers import TextIteratorStreamer

                streamer = TextIteratorStreamer(self.tokenizer, skip_prompt=True, skip_special_tokens=False,
                                                timeout=None)
                first: list[float] = []
                put = streamer.put

                def timed_put(value: Any) -> None:  # the first call after the prompt carries the first token
                    if streamer.next_tokens_are_prompt is False and not first:
                        first.append(time.perf_counter())
                    put(value)

                streamer.put = timed_put  # type: ignore[method-assign]

                def run() -> None:
                    try:
                        with torch.inference_mode():
                            result["ids"] = self.model.generate(**gen, streamer=streamer)
                    except BaseException as exc:  # handed to the caller below
                        result["error"] = exc
                        streamer.end()

                th = threading.Thread(target=run, name="hat-env-generate", daemon=True)
                th.start()
                for _ in streamer:
                    pass
                th.join()
                if first:
                    ttft = first[0] - t0
            else:
                with torch.inference_mode():
                    result["ids"] = self.model.generate(**gen)
        except Exception as exc:
            result["error"] = exc
        if "error" in result:
            exc = result["error"]
            return AgentResponse(error=f"generation failed: {type(exc).__name__}: {exc}",
                                 timings=Timings(total_s=time.perf_counter() - t0), prompt_tokens=n_prompt)
        new = result["ids"][0, n_prompt:]
        text = strip_end(self.tokenizer.decode(new, skip_special_tokens=False), self._markers)
        return AgentResponse(
            text=text,
            timings=Timings(total_s=time.perf_counter() - t0, ttft_s=ttft),
            prompt_tokens=n_prompt,
            completion_tokens=int(new.shape[0]),
        )

    def __repr__(self) -> str:
        return f"TransformersAgent(model={self.model_path!r}, device={self.device!r})"
