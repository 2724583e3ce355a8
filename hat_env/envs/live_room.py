"""``hat_env/LiveRoom-v0``: one episode is one live session; one step is one agent turn.

Observation: ``{"text": the rendered conversation}``. Action: the raw model output string (Hermes
``<tool_call>`` text or a reply), or an OpenAI assistant message dict ``{"content", "tool_calls"}``.
Reward: the request's composite score / 100 when a reply goes out, else 0. ``info`` carries copies (plain JSON
values, see :mod:`hat_env.envs.views`): ``messages`` and ``tools`` (OpenAI format), ``request_id``,
``harness_version``, ``harness_hash``, ``locale``, ``turn``, and after a reply ``scores`` and ``reply``. Scripted
agents that read the harness itself take ``env.unwrapped.agent_request()``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym

from hat_env.envs.views import observation, plain, request_info
from hat_env.envs.session import LiveSession
from hat_env.envs.spaces import action_space, observation_space
from hat_env.types import AgentRequest


class LiveRoomEnv(gym.Env):
    """A live session as a Gymnasium environment.

    Args:
        scenario: built-in scenario name or YAML path.
        harness: harness pack name/path (or a Harness) replacing the scenario's.
        trace: JSONL trace path (appended and flushed per request), or ``None``.
        duration_s: override of the session length in room seconds.
        hsa: Harness-State Augmentation applied on reset: ``{"dims": [...], "strength": 0-1,
            "family": "train"|"heldout"}``.
        max_history: earlier request/reply pairs kept in the prompt.
        render_mode: ``"ansi"`` (render returns the last transcript lines) or ``"human"`` (prints them).
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        scenario: str | Path = "beauty_zh",
        harness: Any = None,
        trace: str | Path | None = None,
        duration_s: float | None = None,
        hsa: dict[str, Any] | None = None,
        max_history: int = 4,
        render_mode: str | None = None,
    ):
        from hat_env.sim.scenario import load_scenario

        self.scenario = load_scenario(scenario) if not hasattr(scenario, "catalog") else scenario
        self.harness_arg = harness
        self.trace_path = trace
        self.duration_s = duration_s
        self.hsa = hsa
        self.max_history = max_history
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = action_space()
        self.session: LiveSession | None = None
        self._last_seed: int | None = None
        self._transcript: list[str] = []

    # -- gymnasium API -------------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, str], dict[str, Any]]:
        """Start a new session. ``seed`` fixes it (default: the scenario's seed, then seed+1 per reset).
        ``options`` may hold ``hsa`` (overrides the constructor's) and ``trace``."""
        s = self._new_session(seed, options or {})
        if not s.next_request():
            info: dict[str, Any] = {"messages": [], "tools": [], "done": True}
            if s.error is not None:  # a harness patch due at the start failed: the session ended at once
                info.update(error=s.error, summary=s.summary())
            return {"text": ""}, info
        return self._obs(), self._info()

    def _new_session(self, seed: int | None, opts: dict[str, Any], viewers: bool = True) -> LiveSession:
        """Seed the env (the scenario's seed first, then seed+1 per reset), close the last session, open a new one."""
        gym.Env.reset(self, seed=seed)
        if seed is None:
            seed = self.scenario.seed if self._last_seed is None else self._last_seed + 1
        self._last_seed = seed
        if self.session is not None:
            self.session.finish()
        self.session = LiveSession(
            self.scenario,
            seed=seed,
            harness=self.harness_arg,
            trace=opts.get("trace", self.trace_path),
            duration_s=self.duration_s,
            max_history=self.max_history,
            hsa=opts.get("hsa", self.hsa),
            viewers=viewers,
        )
        self._transcript = []
        return self.session

    def step(self, action: Any) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        """Feed one model output. Never raises on any action: what cannot be used is fed back to the model as a
        ``[harness]`` message (see :meth:`RequestLoop.feed <hat_env.harness.runtime.RequestLoop.feed>`). The
        episode ends when the stream does, or when a harness patch due mid-stream fails (``info["error"]``; the
        summary carries it too)."""
        s = self.session
        if s is None or s.loop is None:
            raise RuntimeError("call reset() before step(), and again after the episode ends")
        scores = s.feed(action)
        reward = 0.0
        extra: dict[str, Any] = {}
        if scores is not None:
            out = s.outcomes[-1][0]
            reward = scores["composite"] / 100.0
            extra = {"scores": plain(scores), "reply": out.reply, "request_done": True}
            self._transcript.append(self._transcript_line(out))
            if not s.next_request():
                end = {**extra, "summary": s.summary(), "messages": [], "tools": []}
                if s.error is not None:
                    end["error"] = s.error
                return {"text": ""}, reward, True, False, end
        return self._obs(), reward, False, False, {**self._info(), **extra}

    def render(self) -> str | None:
        """The transcript so far (``ansi``) or print it (``human``)."""
        text = "\n".join(self._transcript[-20:])
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Finish the session and close the trace."""
        if self.session is not None:
            self.session.finish()

    # -- helpers -------------------------------------------------------------------------------------------
    def agent_request(self) -> AgentRequest:
        """The current turn as an :class:`AgentRequest` (what ``hat-env run`` hands agents; it carries the harness
        object, for scripted agents, and the live messages: read them, do not change them)."""
        assert self.session is not None and self.session.loop is not None
        return self.session.loop.agent_request()

    def _obs(self) -> dict[str, str]:
        return observation(self.session.loop)  # type: ignore[union-attr, arg-type]

    def _info(self) -> dict[str, Any]:
        return request_info(self.session.loop, self.scenario.locale)  # type: ignore[union-attr, arg-type]

    @staticmethod
    def _transcript_line(out: Any) -> str:
        comments = " | ".join(f"{c.viewer_name}: {c.text}" for c in out.request.comments)
        return f"[{out.request.request_id}] {comments}\n  -> {out.reply}"


# -- PettingZoo access: ``hat_env/LiveRoomParallel-v0`` (hosts and viewers as agents) --------------------------
# Defined in :mod:`hat_env.envs.live_room_parallel`; imported lazily so that the Gymnasium env stays light.


def parallel_env(**kwargs: Any) -> Any:
    """The multi-agent live room as a PettingZoo ParallelEnv (see :mod:`hat_env.envs.live_room_parallel`)."""
    from hat_env.envs.live_room_parallel import parallel_env as _parallel_env

    return _parallel_env(**kwargs)


def env(**kwargs: Any) -> Any:
    """The multi-agent live room as a PettingZoo AEC env (see :mod:`hat_env.envs.live_room_parallel`)."""
    from hat_env.envs.live_room_parallel import env as _env

    return _env(**kwargs)
