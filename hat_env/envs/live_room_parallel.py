"""``hat_env/LiveRoomParallel-v0``: the live room as a PettingZoo environment, hosts and viewers as agents.

Use it PettingZoo-style::

    from hat_env.envs import live_room            # or: import pettingzoo, hat_env
    penv = live_room.parallel_env(scenario="beauty_zh", hosts=2)   # pettingzoo.make("parallel", "hat_env/LiveRoomParallel-v0")
    aec = live_room.env(scenario="beauty_zh")                     # pettingzoo.make("aec", "hat_env/LiveRoomParallel-v0")

Agents
    ``host_0`` (and co-hosts ``host_1``...: each has its own harness, optional Harness-State Augmentation, and a
    role that decides which comments it gets, see :class:`~hat_env.envs.roles.HostSpec`) and ``viewer_0 ... viewer_{N-1}``. ``viewer_<n>`` is
    the n-th person to enter the room (the initial crowd first); names are never reused, so ``possible_agents``
    holds N = ``max_viewers`` viewer names (default: the scenario's ``viewers.max_viewers``, at most 1000) and
    arrivals after N viewers have entered are turned away. Viewers join (they appear in ``agents`` with their
    first observation in the step's dicts) and leave (``terminations[viewer] = True``, then they are gone).
    When the stream ends every agent terminates; at ``max_cycles`` steps every agent is truncated.

Time
    One step is ``tick_s`` seconds of room time (default 1). Each host with an open request makes one model turn
    per step; a host without one (``info["idle"]``) is waiting for comments and its action is ignored.

Hosts (as in ``LiveRoom-v0``)
    Observation ``{"text": the rendered conversation}`` (empty while idle); action: the raw model output string
    (or an OpenAI assistant message dict or an :class:`~hat_env.types.AgentResponse`); ``info`` carries copies
    (plain JSON values): ``messages``, ``tools``, ``request_id``, ``harness_version``, ``harness_hash``,
    ``locale``, ``turn``, ``role``, ``idle``, and after a reply ``scores`` and ``reply``.
    :meth:`LiveRoomParallelEnv.agent_request` gives a host's turn as an :class:`~hat_env.types.AgentRequest`
    (with the harness object, for scripted agents).

Viewers
    Observation ``{"text": ...}``: what the viewer's screen shows (its own name, the shop, hosts and audience
    size, the pinned product with its shown price, list price and deals, coupons sent, and the latest comments,
    host replies and purchases). Action ``{"kind": Discrete(5), "text": UnicodeText(200)}`` with kinds
    (:data:`~hat_env.envs.viewer_policy.VIEWER_KINDS`):

    * ``0 auto``: the viewer's own policy acts: its scripted persona (the simulator's odds, as in
      ``LiveRoom-v0``), or, for viewers the mix gives to ``viewer_agent``, that agent (an LLM user simulator:
      :class:`~hat_env.envs.viewer_policy.LLMViewer`). A viewer missing from the action dict is ``auto``.
    * ``1 silent``, ``2 comment`` (``text``), ``3 buy`` (``text`` may name a link number; else the product it
      asked about, else the pinned one), ``4 leave``.

    Agent-driven viewers keep their persona's timing (when they are due to speak, how long they stay, the moment
    a reply to them arrives): at each such cue the env asks their agent, so agent calls stay as rare as comments.
    An explicit action (anything but ``auto``) replaces the viewer's own policy for that step. ``info`` carries
    ``agent``, ``viewer_id``, ``name``, ``persona``, ``policy`` (``scripted`` or ``agent``), ``locale``,
    ``shop`` and ``joined_s`` (a fresh copy every step).

    So a host-training loop passes only host actions (every viewer acts on its own), and a viewer-simulator
    loop passes actions for the viewers it controls.

Rewards
    Hosts: the reply's composite score / 100 when a reply completes, plus ``conversion_weight`` per purchase
    credited to the host. Viewers: satisfaction with a reply that answers them (``accuracy * effectiveness`` on
    their own comments, minus 0.5 for a compliance violation) and ``+/- fair_deal_weight`` per purchase (minus
    when the last reply they got was false or non-compliant). See :mod:`hat_env.envs.multi_room`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from hat_env.envs.views import observation, plain, request_info
from hat_env.envs.multi_room import MultiRoom
from hat_env.envs.roles import HostSpec, Router, host_specs
from hat_env.envs.spaces import UnicodeText, action_space, observation_space
from hat_env.envs.viewer_policy import MAX_COMMENT_CHARS, VIEWER_KINDS, LLMViewer, coerce_action
from hat_env.sim.scenario import Scenario, load_scenario
from hat_env.types import AgentRequest

#: Default cap on viewer agents when the scenario's ``viewers.max_viewers`` is larger.
MAX_VIEWER_AGENTS = 1000
#: Longest viewer observation text.
VIEWER_VIEW_CHARS = 8192

ENV_ID = "hat_env/LiveRoomParallel-v0"


class LiveRoomParallelEnv(ParallelEnv):
    """The multi-agent live room (see the module docstring for agents, spaces and rewards).

    Args:
        scenario: built-in scenario name, YAML path or :class:`~hat_env.sim.scenario.Scenario`.
        hosts: number of hosts (1: ``host_0`` takes every comment; 2: ``host_0`` answers questions, ``host_1``
            pushes products), or a list of :class:`~hat_env.envs.roles.HostSpec` / dicts ``{"harness",
            "role", "name", "hsa"}`` / harness packs.
        viewers: the initial crowd (overrides ``viewers.initial``).
        max_viewers: N, the number of viewer agents (viewers that may enter in an episode; also the room's
            capacity, replacing ``viewers.max_viewers``); default ``min(viewers.max_viewers, 1000)``.
        arrival_per_min: overrides the scenario's arrival rate.
        llm_viewers: the first this-many viewers are driven by ``viewer_agent`` (default: the scenario's
            ``viewers.llm_viewers`` when a ``viewer_agent`` is given).
        llm_share: of the later arrivals, this share (seeded draw) is driven by ``viewer_agent`` (default: the
            scenario's ``viewers.llm_share``).
        viewer_agent: the agent of agent-driven viewers: an adapter object, a callable, a
            :func:`~hat_env.agents.make_agent` spec string, or an :class:`~hat_env.envs.viewer_policy.LLMViewer`.
        router: custom comment router ``(comment, busy) -> host index | None``.
        tick_s: room seconds per step.
        duration_s: overrides the session length.
        max_cycles: truncate every agent after this many steps (``None``: run to the end of the stream).
        trace: JSONL trace path (or ``None``); ``reset(options={"trace": path})`` overrides it per episode.
        max_history: earlier request/reply pairs each host sees.
        conversion_weight: host reward per purchase credited to it.
        fair_deal_weight: viewer reward (+/-) per purchase.
        view_lines: comment/reply lines on a viewer's screen.
        hsa: Harness-State Augmentation applied to every host whose spec has no ``hsa`` of its own, as in
            ``LiveRoom-v0``: ``{"dims": [...], "strength": 0-1, "family": "train"|"heldout"}``; each host draws
            its own variants from the seed (``host_0`` the same ones as ``LiveRoom-v0`` with that seed).
        render_mode: ``"ansi"`` (render returns the screen) or ``"human"`` (prints it).
    """

    metadata = {"name": "live_room_parallel_v0", "render_modes": ["ansi", "human"], "is_parallelizable": True}

    def __init__(
        self,
        scenario: str | Path | Scenario = "beauty_zh",
        hosts: int | list[Any] = 1,
        *,
        viewers: int | None = None,
        max_viewers: int | None = None,
        arrival_per_min: float | None = None,
        llm_viewers: int | None = None,
        llm_share: float | None = None,
        viewer_agent: Any = None,
        router: Router | None = None,
        tick_s: float = 1.0,
        duration_s: float | None = None,
        max_cycles: int | None = None,
        trace: str | Path | None = None,
        max_history: int = 4,
        conversion_weight: float = 0.5,
        fair_deal_weight: float = 0.5,
        view_lines: int = 10,
        hsa: dict[str, Any] | None = None,
        render_mode: str | None = None,
    ):
        sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
        vupd: dict[str, Any] = {}
        if viewers is not None:
            vupd["initial"] = int(viewers)
        if arrival_per_min is not None:
            vupd["arrival_per_min"] = float(arrival_per_min)
        if max_viewers is not None and int(max_viewers) >= 1:
            vupd["max_viewers"] = int(max_viewers)
        upd: dict[str, Any] = {}
        if vupd:
            upd["viewers"] = sc.viewers.model_copy(update=vupd)
        if duration_s is not None:
            upd["duration_s"] = float(duration_s)
        self.scenario = sc.model_copy(update=upd) if upd else sc
        self.host_specs: list[HostSpec] = host_specs(hosts)
        n = int(max_viewers) if max_viewers is not None else min(self.scenario.viewers.max_viewers, MAX_VIEWER_AGENTS)
        if n < 0:
            raise ValueError("max_viewers must be >= 0")
        if (llm_viewers or llm_share) and viewer_agent is None:
            raise ValueError("llm_viewers / llm_share need a viewer_agent")
        if viewer_agent is not None:  # the scenario's mix applies when the caller gives an agent but no numbers
            if llm_viewers is None:
                llm_viewers = self.scenario.viewers.llm_viewers
            if llm_share is None:
                llm_share = self.scenario.viewers.llm_share
        llm_viewers, llm_share = int(llm_viewers or 0), float(llm_share or 0.0)
        if not 0.0 <= float(llm_share) <= 1.0:
            raise ValueError("llm_share must be within [0, 1]")
        self.max_viewers = n
        self.llm_viewers = int(llm_viewers)
        self.llm_share = float(llm_share)
        self.viewer_agent = viewer_agent
        self.llm: LLMViewer | None = None
        if viewer_agent is not None:
            self.llm = viewer_agent if isinstance(viewer_agent, LLMViewer) else LLMViewer(viewer_agent)
        self.router = router
        self.tick_s = float(tick_s)
        self.max_cycles = max_cycles
        self.trace_path = trace
        self.max_history = max_history
        self.conversion_weight = conversion_weight
        self.fair_deal_weight = fair_deal_weight
        self.view_lines = view_lines
        self.hsa = hsa
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.hosts = [f"host_{i}" for i in range(len(self.host_specs))]
        self.possible_agents = self.hosts + [f"viewer_{k}" for k in range(n)]
        self.agents: list[str] = []
        self.room: MultiRoom | None = None
        self.num_cycles = 0
        self._host_index = {a: i for i, a in enumerate(self.hosts)}
        self._obs_spaces: dict[str, spaces.Space] = {}
        self._act_spaces: dict[str, spaces.Space] = {}
        self._viewer_info: dict[str, dict[str, Any]] = {}
        self._prefix: dict[str, str] = {}
        self._host_info: dict[str, dict[str, Any]] = {}
        self._last_seed: int | None = None

    # -- spaces --------------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        """``Dict({"text": UnicodeText})`` for every agent (the same object on every call)."""
        sp = self._obs_spaces.get(agent)
        if sp is None:
            self._check_agent(agent)
            sp = observation_space() if agent in self._host_index else spaces.Dict(
                {"text": UnicodeText(max_length=VIEWER_VIEW_CHARS)})
            self._obs_spaces[agent] = sp
        return sp

    def action_space(self, agent: str) -> spaces.Space:
        """Hosts: the raw model output (``UnicodeText``); viewers: ``Dict({"kind": Discrete(5), "text":
        UnicodeText(200)})`` (the same object on every call)."""
        sp = self._act_spaces.get(agent)
        if sp is None:
            self._check_agent(agent)
            sp = action_space() if agent in self._host_index else spaces.Dict(
                {"kind": spaces.Discrete(len(VIEWER_KINDS)), "text": UnicodeText(max_length=MAX_COMMENT_CHARS)})
            self._act_spaces[agent] = sp
        return sp

    def _check_agent(self, agent: str) -> None:
        if agent in self._host_index:
            return
        if agent.startswith("viewer_"):
            k = agent[7:]
            if k.isdigit() and int(k) < self.max_viewers and str(int(k)) == k:
                return
        raise KeyError(f"{agent!r} is not an agent of this environment")

    # -- PettingZoo API ------------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict, dict]:
        """Start a new session. ``seed`` fixes it (default: the scenario's seed, then seed+1 per reset).
        ``options`` may hold ``trace`` (a JSONL path for this episode) and ``hsa`` (overrides the constructor's)."""
        if seed is None:
            seed = self.scenario.seed if self._last_seed is None else self._last_seed + 1
        self._last_seed = int(seed)
        opts = options or {}
        if self.room is not None:
            self.room.finish()
        if self.llm is not None:
            self.llm.reset()
        self.room = MultiRoom(
            self.scenario,
            int(seed),
            self.host_specs,
            max_viewers=self.max_viewers,
            llm=self.llm,
            llm_viewers=self.llm_viewers,
            llm_share=self.llm_share,
            router=self.router,
            tick_s=self.tick_s,
            trace=opts.get("trace", self.trace_path),
            max_history=self.max_history,
            conversion_weight=self.conversion_weight,
            fair_deal_weight=self.fair_deal_weight,
            view_lines=self.view_lines,
            hsa=opts.get("hsa", self.hsa),
        )
        self.num_cycles = 0
        self._viewer_info = {}
        self._prefix = {}
        self._host_info = {}
        joined = [self._join(vid) for vid in self.room.start()]
        self.agents = self.hosts + joined
        obs = self._observe_all(self.agents, self.room.screen())
        infos = {a: self._info(a) for a in self.agents}
        return obs, infos

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """One tick: every live agent's action (viewers left out act on their own; see the module docstring).

        No action makes it raise: a host's is read as in ``LiveRoom-v0`` (what cannot be used is fed back to the
        model); a viewer's that cannot be read (an unknown ``kind``, a ``text`` that is not text) leaves the viewer
        silent for the step, and its ``info`` says why (``action_error``).

        Raises:
            TypeError: ``actions`` is not a dict.
        """
        room = self.room
        if room is None or not self.agents:
            raise RuntimeError("call reset() before step(), and again after the episode ends")
        if not isinstance(actions, dict):
            raise TypeError(f"step() takes a dict of agent -> action, got {type(actions).__name__}")
        live = set(self.agents)
        host_actions: dict[int, Any] = {}
        viewer_actions = {}
        action_errors: dict[str, str] = {}
        vid_of = MultiRoom.viewer_id_of
        for agent, a in actions.items():
            hi = self._host_index.get(agent)
            if hi is not None:
                if agent in live:
                    host_actions[hi] = a
                continue
            if a is None or agent not in live:
                continue  # auto (the viewer's own policy), or not a live agent
            try:
                if type(a) is dict and not a.get("kind"):
                    continue  # auto
                act = coerce_action(a)
            except ValueError as exc:  # an unreadable viewer action: the viewer stays silent this step
                action_errors[agent] = str(exc)
                continue
            if act.kind:
                viewer_actions[vid_of(agent)] = act
        res = room.step(host_actions, viewer_actions)
        self.num_cycles += 1
        agent_of = MultiRoom.agent_of
        left = {agent_of(v) for v in res.left}
        joined = [self._join(v) for v in res.joined if agent_of(v) not in left]
        prev = self.agents
        keys = prev + joined
        truncated = not res.done and self.max_cycles is not None and self.num_cycles >= self.max_cycles
        end = res.done or truncated
        obs = self._observe_all(keys, room.screen())
        rewards = dict.fromkeys(keys, 0.0)
        for i, r in enumerate(res.host_rewards):
            rewards[self.hosts[i]] = float(r)
        for vid, r in res.viewer_rewards.items():
            a = agent_of(vid)
            if a in rewards:
                rewards[a] = float(r)
        if res.done:
            terminations = dict.fromkeys(keys, True)
        else:
            terminations = {a: a in left for a in keys}
        truncations = dict.fromkeys(keys, truncated)
        infos = {a: self._info(a) for a in keys}
        for a, err in action_errors.items():
            if a in infos:
                infos[a] = {**infos[a], "action_error": err}
        for i, sc in res.replies.items():
            a = self.hosts[i]
            infos[a] = {**infos[a], "scores": plain(sc), "reply": room.hosts[i].outcomes[-1][0].reply,
                        "request_done": True}
        if end:
            for a in self.hosts:
                infos[a] = {**infos[a], "summary": room.finish()}
            self.agents = []
        else:
            self.agents = [a for a in keys if a not in left] if left else keys
        return obs, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        """The viewers' screen now (``ansi``), or print it (``human``)."""
        if self.room is None:
            return None
        text = self.room.screen()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Finish the session and close the trace."""
        if self.room is not None:
            self.room.finish()

    # -- helpers -------------------------------------------------------------------------------------------
    def agent_request(self, agent: str) -> AgentRequest | None:
        """A host's current turn as an :class:`~hat_env.types.AgentRequest`, or ``None`` while it is idle."""
        assert self.room is not None
        loop = self.room.hosts[self._host_index[agent]].loop
        return loop.agent_request() if loop is not None else None

    def summary(self) -> dict[str, Any]:
        """The session summary so far (per-host scores, purchases, viewers; see ``MultiRoom.summary``)."""
        assert self.room is not None
        return self.room.summary()

    def _join(self, vid: str) -> str:
        room = self.room
        assert room is not None
        agent = MultiRoom.agent_of(vid)
        v = room.viewers.viewers[vid]
        self._prefix[agent] = room.viewer_prefix(vid)
        self._viewer_info[agent] = {
            "agent": agent,
            "viewer_id": vid,
            "name": v.name,
            "persona": v.persona,
            "policy": "agent" if v.external else "scripted",
            "locale": room.locale,
            "shop": room.scenario.room.shop_name,
            "joined_s": round(v.joined_s, 3),
        }
        return agent

    def _observe_all(self, agents: list[str], screen: str) -> dict[str, dict[str, str]]:
        prefix = self._prefix
        if len(screen) + 200 <= VIEWER_VIEW_CHARS:  # prefixes are a name line: no viewer text needs cutting
            obs = {a: self._observe(a, screen) for a in agents if a not in prefix}  # hosts (listed first)
            obs.update({a: {"text": prefix[a] + screen} for a in agents if a in prefix})
            return obs
        return {a: self._observe(a, screen) for a in agents}

    def _observe(self, agent: str, screen: str) -> dict[str, str]:
        pre = self._prefix.get(agent)
        if pre is not None:
            text = pre + screen
            return {"text": text if len(text) <= VIEWER_VIEW_CHARS else text[:VIEWER_VIEW_CHARS]}
        loop = self.room.hosts[self._host_index[agent]].loop  # type: ignore[union-attr]
        if loop is None:
            return {"text": ""}
        return observation(loop)

    def _info(self, agent: str) -> dict[str, Any]:
        vi = self._viewer_info.get(agent)
        if vi is not None:
            return dict(vi)
        h = self.room.hosts[self._host_index[agent]]  # type: ignore[union-attr]
        loop = h.loop
        if loop is None:
            return {"idle": True, "role": h.role, "request_id": None, "locale": self.scenario.locale,
                    "harness_version": h.harness.version, "harness_hash": h.harness.hash}
        return {"idle": False, "role": h.role, **request_info(loop, self.scenario.locale)}


def parallel_env(**kwargs: Any) -> LiveRoomParallelEnv:
    """The PettingZoo ParallelEnv form (see :class:`LiveRoomParallelEnv` for the arguments)."""
    return LiveRoomParallelEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The PettingZoo AEC form: :func:`pettingzoo.utils.parallel_to_aec` over :func:`parallel_env` (agents act
    in turn within a step; the tick happens after the last live agent's action)."""
    return parallel_to_aec(parallel_env(**kwargs))


raw_env = LiveRoomParallelEnv

__all__ = ["ENV_ID", "MAX_VIEWER_AGENTS", "LiveRoomParallelEnv", "env", "parallel_env", "raw_env"]
