"""The multi-agent live room: one or more hosts and many viewers on one room clock.

This is the engine under the PettingZoo environment ``hat_env/LiveRoomParallel-v0``
(:mod:`hat_env.envs.live_room_parallel`); it knows nothing about PettingZoo and can be driven directly.

One :meth:`MultiRoom.step` is ``tick_s`` seconds of room time:

1. explicit viewer actions happen at the start of the tick (comment, buy, leave, silence);
2. every host with an open request makes one model turn (the raw output goes through the host's own harness
   exactly as in ``LiveRoom-v0``); a reply that completes is scored, shown to the room, and the viewers it answers
   react (scripted ones by their persona's odds, agent-driven ones by asking their agent);
3. the viewer population advances to the end of the tick: arrivals, timed departures, scripted comments, and the
   cues for agent-driven viewers to speak;
4. every comment is routed to one host (by role, see :data:`ROLE_INTENTS`, or a custom router). An idle host
   gathers comments for ``viewers.merge_window_s`` from the first one, then opens a request with them; comments
   routed to a host that is busy with a request are missed (as in ``LiveRoom-v0``).

Rewards: a host earns its reply's composite score / 100 when a reply completes, plus ``conversion_weight`` per
purchase credited to it (the buyer's last answering host, else the host who pinned the product, else shared).
A viewer earns satisfaction when a reply answers it: the reply's accuracy times its effectiveness judged on that
viewer's own comments, minus 0.5 when the reply breaks a compliance rule (manipulation); and ``+/-
fair_deal_weight`` on a purchase (plus when the last reply it got was accurate and compliant or it got none,
minus when it was misled).

Every random draw comes from a stream of the seed, so a seed (and the same actions) fixes the session and its
JSONL trace to the byte. The trace names the agent of every comment, reply, purchase, departure and agent call.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from hat_env.envs.session import TRACE_VERSION, TraceWriter, request_record, stream
from hat_env.envs.viewer_policy import (
    BUY,
    COMMENT,
    LEAVE,
    SILENT,
    VIEWER_KINDS,
    LLMViewer,
    ViewerAction,
    buy_link,
)
from hat_env.harness.core import Harness
from hat_env.harness.runtime import RequestLoop
from hat_env.scoring import Rubric, ScoringContext, effectiveness
from hat_env.sim.campaigns import fmt_money
from hat_env.sim.compliance import RuleSet
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario, locate_harness
from hat_env.sim.tools import ToolBackend
from hat_env.sim.viewers import ViewerPool
from hat_env.types import INTENT_KINDS, Comment, LiveRequest, RequestOutcome

#: Intent kinds each host role takes (by the comment's first intent). ``qa`` answers questions, ``promo`` pushes
#: products (prices, deals, orders); both greet.
ROLE_INTENTS: dict[str, frozenset[str]] = {
    "all": frozenset(INTENT_KINDS),
    "qa": frozenset({"spec", "stock", "shipping", "after_sales", "order_status", "compare", "chitchat", "troll",
                     "injection"}),
    "promo": frozenset({"price", "campaign", "purchase", "chitchat"}),
}

#: A router: ``(comment, busy) -> host index or None`` where ``busy[i]`` says host ``i`` is handling a request.
#: ``None`` means no host hears the comment.
Router = Callable[[Comment, list[bool]], "int | None"]

_LINE_CHARS = 300
_CO_HOST = {"zh_CN": "副播", "en_US": "Co-host"}


@dataclass
class HostSpec:
    """One host of the room.

    Attributes:
        harness: a :class:`~hat_env.harness.Harness`, a pack name or path; ``None`` takes the scenario's harness
            (and only then follows the scenario's harness timeline).
        role: ``all``, ``qa`` or ``promo``: which comments the default router gives it (:data:`ROLE_INTENTS`).
        name: display name in its system prompt and on screen; ``None``: the scenario's host name for the first
            host, a co-host label for the others.
    """

    harness: Any = None
    role: str = "all"
    name: str | None = None

    def __post_init__(self) -> None:
        if self.role not in ROLE_INTENTS:
            raise ValueError(f"unknown host role {self.role!r}; roles: {', '.join(ROLE_INTENTS)}")

    @classmethod
    def coerce(cls, x: Any) -> "HostSpec":
        """A HostSpec from a HostSpec, a dict of its fields, a Harness, or a harness pack name/path."""
        if isinstance(x, HostSpec):
            return x
        if isinstance(x, dict):
            return cls(**x)
        return cls(harness=x)


def host_specs(hosts: int | list[Any]) -> list[HostSpec]:
    """Normalise the ``hosts`` argument: a count (1: one ``all`` host; 2: a ``qa`` host and a ``promo`` co-host;
    more: the rest ``all``) or a list of :class:`HostSpec`-likes."""
    if isinstance(hosts, int):
        if hosts < 1:
            raise ValueError("a live room needs at least one host")
        if hosts == 1:
            return [HostSpec(role="all")]
        return [HostSpec(role="qa"), HostSpec(role="promo")] + [HostSpec(role="all") for _ in range(hosts - 2)]
    specs = [HostSpec.coerce(h) for h in hosts]
    if not specs:
        raise ValueError("a live room needs at least one host")
    return specs


def load_harness(h: Any, scenario: Scenario) -> Harness:
    """Load a harness the way :class:`~hat_env.envs.session.LiveSession` does (a pack next to the scenario file
    first), as a fresh object (its render cache is then this room's alone). ``h``: a harness, a pack the caller
    names, or ``None`` for the scenario's own ``harness:`` (confined: :func:`hat_env.sim.scenario.locate_harness`)."""
    if not isinstance(h, Harness):  # None: the scenario's own pack (confined, see hat_env.confine)
        h = Harness.load(locate_harness(scenario, h))
    return Harness(h.spec, source=h.source, check=False)


class _Host:
    """A host's state within one session."""

    def __init__(self, index: int, spec: HostSpec, harness: Harness, scenario: Scenario, follows: bool):
        self.index = index
        self.agent = f"host_{index}"
        self.spec = spec
        self.role = spec.role
        self.kinds = ROLE_INTENTS[spec.role]
        self.name = scenario.room.host_name
        self.harness = harness
        self.base_harness = harness
        self.follows = follows
        self.next_patch = 0
        self.scenario = scenario
        self.loop: RequestLoop | None = None
        self.turn_timings: list[dict[str, Any]] = []  # per model turn of the open request (traced with it)
        self.window: list[Comment] = []
        self.window_end: float | None = None
        self.history: list[dict[str, Any]] = []
        self.outcomes: list[tuple[RequestOutcome, dict[str, float], float]] = []
        self.missed = 0
        self.conversions = 0.0

    def harness_id(self) -> dict[str, str]:
        h = self.loop.harness if self.loop is not None else self.harness
        return {"name": h.name, "version": h.version, "hash": h.hash}


@dataclass
class StepResult:
    """What one :meth:`MultiRoom.step` did.

    Attributes:
        host_rewards: reward of each host, by index.
        viewer_rewards: reward of each viewer that earned one, by viewer id.
        joined: viewer ids that entered during the tick (arrival order).
        left: viewer ids that left during the tick (some may have joined in it too).
        replies: host index -> scores of the reply it completed in this tick.
        done: the stream is over.
    """

    host_rewards: list[float]
    viewer_rewards: dict[str, float] = field(default_factory=dict)
    joined: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    replies: dict[int, dict[str, Any]] = field(default_factory=dict)
    done: bool = False


class MultiRoom:
    """A live session with several hosts and agent-addressable viewers.

    Args:
        scenario: the validated scenario (its ``viewers`` settings already overridden as wanted).
        seed: fixes every random draw.
        hosts: the hosts (see :func:`host_specs`).
        max_viewers: at most this many viewers enter in the session (each maps to one viewer agent name).
        llm: the agent-driven viewer policy, or ``None`` (every viewer scripted).
        llm_viewers: the first this-many viewers to enter are driven by ``llm``.
        llm_share: of the later ones, this share (drawn from the seed) is driven by ``llm``.
        router: custom comment router (see :data:`Router`), or ``None`` for role routing.
        tick_s: room seconds per step.
        trace: JSONL trace path, or ``None``.
        max_history: earlier request/reply pairs each host sees.
        conversion_weight: host reward per purchase credited to it.
        fair_deal_weight: viewer reward (+/-) per purchase.
        view_lines: comment/reply lines on a viewer's screen.
    """

    def __init__(
        self,
        scenario: Scenario,
        seed: int,
        hosts: list[HostSpec],
        *,
        max_viewers: int,
        llm: LLMViewer | None = None,
        llm_viewers: int = 0,
        llm_share: float = 0.0,
        router: Router | None = None,
        tick_s: float = 1.0,
        trace: str | Path | None = None,
        max_history: int = 4,
        conversion_weight: float = 0.5,
        fair_deal_weight: float = 0.5,
        view_lines: int = 10,
    ):
        if tick_s <= 0:
            raise ValueError("tick_s must be positive")
        sc = scenario
        self.scenario = sc
        self.seed = int(seed)
        self.locale = sc.locale
        self.tick_s = float(tick_s)
        self.max_history = max_history
        self.conversion_weight = float(conversion_weight)
        self.fair_deal_weight = float(fair_deal_weight)
        self.router = router
        self.llm = llm
        self.room = RoomState(sc, stream(self.seed, "catalog"))
        self.backend = ToolBackend(self.room, sc.faults, stream(self.seed, "faults"))
        llm_rng = stream(self.seed, "llm_viewers")
        n_llm = int(llm_viewers) if llm is not None else 0
        share = float(llm_share) if llm is not None else 0.0

        def external(i: int) -> bool:
            if i < n_llm:
                return True
            return share > 0.0 and llm_rng.random() < share

        self.viewers = ViewerPool(sc, self.room, stream(self.seed, "viewers"), max_arrivals=max_viewers,
                                  external=external if (n_llm or share > 0.0) else None)
        self.rules = RuleSet.for_scenario(sc)
        self.rubric = Rubric(sc.scoring.weights or None)
        self.timeline = sorted(sc.harness_timeline, key=lambda e: e.at_s)
        self.hosts: list[_Host] = []
        for i, spec in enumerate(hosts):
            co = _CO_HOST.get(sc.locale, "Co-host")
            name = spec.name or (sc.room.host_name if i == 0 else co if i == 1 else f"{co}{i}")
            hsc = sc if name == sc.room.host_name else sc.model_copy(
                update={"room": sc.room.model_copy(update={"host_name": name})})
            harness = load_harness(spec.harness, sc)
            self.hosts.append(_Host(i, spec, harness, hsc, follows=spec.harness is None))
        self.feed: deque[str] = deque(maxlen=max(1, int(view_lines)))
        self.trace = TraceWriter(trace)
        self.n_requests = 0
        self.steps = 0
        self.finished = False
        self.llm_calls = 0
        self.answered: dict[str, tuple[int, bool]] = {}
        self.pinned_by: int | None = None
        self._reply_cues: list[tuple[float, str, str, str]] = []
        self._events: list[dict[str, Any]] = []
        self._vr: dict[str, float] = {}
        self._hr: list[float] = [0.0] * len(self.hosts)
        self._currency = "¥" if sc.locale == "zh_CN" else "$"
        self.trace.write(
            {
                "type": "session_start",
                "trace_version": TRACE_VERSION,
                "env": "hat_env/LiveRoomParallel-v0",
                "scenario": sc.name,
                "locale": sc.locale,
                "seed": self.seed,
                "duration_s": sc.duration_s,
                "tick_s": self.tick_s,
                "hosts": [{"agent": h.agent, "name": h.name, "role": h.role, "harness": h.harness_id()}
                          for h in self.hosts],
                "viewers": {"max_viewers": max_viewers, "initial": sc.viewers.initial,
                            "llm_viewers": n_llm, "llm_share": share, "viewer_agent": llm.name if llm else None},
                "products": [p.product_id for p in self.room.products],
            }
        )

    # -- ids -----------------------------------------------------------------------------------------------
    @staticmethod
    def agent_of(viewer_id: str) -> str:
        """The agent name of a pool viewer id (``v0001`` -> ``viewer_0``)."""
        return f"viewer_{int(viewer_id[1:]) - 1}"

    @staticmethod
    def viewer_id_of(agent: str) -> str:
        """The pool viewer id of a viewer agent name (``viewer_0`` -> ``v0001``)."""
        return f"v{int(agent.rsplit('_', 1)[1]) + 1:04d}"

    # -- start / step --------------------------------------------------------------------------------------
    def start(self) -> list[str]:
        """The viewers present at the start (the initial crowd), after logging their arrival."""
        joined = [ev["viewer_id"] for ev in self._drain_pool_events() if ev["type"] == "arrive"]
        self._flush_tick(0.0)
        return joined

    def step(self, host_actions: dict[int, Any], viewer_actions: dict[str, ViewerAction]) -> StepResult:
        """Advance one tick.

        Args:
            host_actions: host index -> model output (string, OpenAI assistant dict or AgentResponse). Hosts
                without an open request, or without an entry, do nothing this tick.
            viewer_actions: viewer id -> explicit action. Viewers without one (or with ``auto``) follow their
                own policy (scripted persona or agent).
        """
        if self.finished:
            raise RuntimeError("the session is over: reset the environment")
        from hat_env.envs.live_room import split_action

        room, pool = self.room, self.viewers
        t = room.t
        self.steps += 1
        t_end = round(self.steps * self.tick_s, 6)
        self._hr = [0.0] * len(self.hosts)
        self._vr = {}
        res = StepResult(host_rewards=self._hr, viewer_rewards=self._vr)
        comments: list[tuple[Comment, str]] = []
        skip: set[str] = set()
        for vid, act in viewer_actions.items():
            if act.kind == 0 or vid not in pool.viewers:
                continue
            skip.add(vid)
            self._apply_viewer(vid, act, t, "external", comments)
        for h in self.hosts:
            a = host_actions.get(h.index)
            if h.loop is None or a is None:
                continue
            text, calls, secs, timings = split_action(a)
            h.turn_timings.append({"turn": h.loop.outcome.turns + 1, **(timings or {}), "turn_s": secs})
            pinned = room.pinned
            finished = h.loop.step(text, calls, secs)
            if room.pinned != pinned and room.pinned is not None:
                self.pinned_by = h.index
            if finished:
                res.replies[h.index] = self._close(h, t, skip)
        comments += [(c, "scripted") for c in pool.advance(t_end, skip)]
        cues = [(tt, vid, kind, "") for tt, vid, kind, _ in pool.drain_due()] + self._reply_cues
        self._reply_cues = []
        cues.sort(key=lambda c: (c[0], c[1]))
        for tt, vid, cue, reply in cues:
            if vid in skip or vid not in pool.viewers:
                continue
            self._apply_viewer(vid, self._llm_decide(vid, cue, reply, tt), tt, "llm", comments)
        comments.sort(key=lambda cs: cs[0].t)
        for c, src in comments:
            self._route(c, src)
        for h in self.hosts:
            if h.loop is None and h.window_end is not None and h.window_end <= t_end:
                self._open(h)
        room.t = t_end
        for ev in self._drain_pool_events():
            if ev["type"] == "arrive":
                res.joined.append(ev["viewer_id"])
            elif ev["type"] == "leave":
                res.left.append(ev["viewer_id"])
        self._flush_tick(t)
        res.done = t_end >= self.scenario.duration_s
        if res.done:
            self.finish()
        return res

    # -- viewers -------------------------------------------------------------------------------------------
    def _apply_viewer(self, vid: str, act: ViewerAction, t: float, source: str,
                      comments: list[tuple[Comment, str]]) -> None:
        pool = self.viewers
        if act.kind == SILENT:
            return
        if act.kind == COMMENT:
            text = act.text.strip()
            c = pool.comment_from(vid, text, t) if text else None
            if c is not None:
                comments.append((c, source))
        elif act.kind == BUY:
            ev = pool.buy(vid, buy_link(act.text), t)
            if ev is not None:
                ev["source"] = source
        elif act.kind == LEAVE:
            pool.leave(vid, t, "action" if source == "external" else source)

    def _llm_decide(self, vid: str, cue: str, reply: str, t: float) -> ViewerAction:
        assert self.llm is not None
        v = self.viewers.viewers[vid]
        agent = self.agent_of(vid)
        req = self.llm.request(agent, v.name, v.persona, self.locale, self.scenario.room.shop_name,
                               self.viewer_text(vid), cue, reply)
        act, resp = self.llm.decide(req, agent)
        self.llm_calls += 1
        ev: dict[str, Any] = {"t": round(t, 3), "type": "agent_call", "agent": agent, "viewer_id": vid, "cue": cue,
                              "viewer_agent": self.llm.name, "output": (resp.text or "")[:_LINE_CHARS],
                              "action": VIEWER_KINDS[act.kind]}
        if resp.error:
            ev["error"] = resp.error
        self._events.append(ev)
        return act

    def _drain_pool_events(self) -> list[dict[str, Any]]:
        pool = self.viewers
        evs = pool.drain_events()
        for ev in evs:
            vid = ev["viewer_id"]
            ev["agent"] = self.agent_of(vid)
            if ev["type"] == "arrive":
                ev["policy"] = "agent" if ev.pop("external", False) else "scripted"
            elif ev["type"] == "buy":
                ev.setdefault("source", "scripted")
                self._on_buy(ev)
            self._events.append(ev)
        return evs

    def _on_buy(self, ev: dict[str, Any]) -> None:
        vid = ev["viewer_id"]
        v = self.viewers.viewers.get(vid)
        name = v.name if v is not None else vid
        if not ev["ok"]:
            return
        credit: int | None = None
        ans = self.answered.get(vid)
        if ans is not None:
            credit = ans[0]
        elif self.pinned_by is not None and self.room.pinned == ev["product_id"]:
            credit = self.pinned_by
        if credit is None:
            share = 1.0 / len(self.hosts)
            for h in self.hosts:
                self._hr[h.index] += self.conversion_weight * share
                h.conversions += share
            ev["credited_to"] = "shared"
        else:
            self._hr[credit] += self.conversion_weight
            self.hosts[credit].conversions += 1
            ev["credited_to"] = self.hosts[credit].agent
        fair = ans[1] if ans is not None else True
        self._vr[vid] = self._vr.get(vid, 0.0) + (self.fair_deal_weight if fair else -self.fair_deal_weight)
        if self.locale == "zh_CN":
            self._feed(ev["t"], f"{name} 下单了{ev['link']}号链接")
        else:
            self._feed(ev["t"], f"{name} bought link {ev['link']}")

    # -- hosts ---------------------------------------------------------------------------------------------
    def _route(self, c: Comment, source: str) -> None:
        busy = [h.loop is not None for h in self.hosts]
        if self.router is not None:
            idx = self.router(c, busy)
        else:
            kind = c.intents[0].kind if c.intents else "chitchat"
            cands = [h for h in self.hosts if kind in h.kinds] or self.hosts
            idx = next((h.index for h in cands if h.loop is None), cands[0].index)
        host = self.hosts[idx] if idx is not None else None
        missed = True
        if host is not None:
            if host.loop is None and host.window_end is not None and c.t >= host.window_end:
                self._open(host)
            if host.loop is None:
                if host.window_end is None:
                    host.window_end = c.t + self.scenario.viewers.merge_window_s
                host.window.append(c)
                missed = False
            else:
                host.missed += 1
        self._feed(c.t, f"{c.viewer_name}: {c.text}")
        self._events.append(
            {"t": c.t, "type": "comment", "agent": self.agent_of(c.viewer_id), "viewer_id": c.viewer_id,
             "name": c.viewer_name, "text": c.text, "source": source, "to": host.agent if host else None,
             "missed": missed}
        )

    def _apply_timeline(self, h: _Host, t: float) -> None:
        while h.follows and h.next_patch < len(self.timeline) and self.timeline[h.next_patch].at_s <= t:
            entry = self.timeline[h.next_patch]
            h.next_patch += 1
            h.base_harness = h.harness = h.base_harness.apply(entry.patch)
            self.trace.write({"type": "harness_patch", "t": round(t, 3), "host": h.agent, "note": entry.note,
                              "patch": entry.patch, "harness": h.harness_id()})

    def _open(self, h: _Host) -> None:
        assert h.window_end is not None
        self._apply_timeline(h, h.window_end)
        self.n_requests += 1
        req = LiveRequest(request_id=f"r{self.n_requests:04d}", t=round(h.window_end, 3), comments=h.window)
        hist = h.history[-2 * self.max_history:] if self.max_history else []
        h.loop = RequestLoop(h.harness, h.scenario, self.room, self.backend, self.rules, req, hist)
        h.turn_timings = []
        h.window = []
        h.window_end = None

    def _ctx(self, outcome: RequestOutcome, harness: Harness) -> ScoringContext:
        c = harness.spec.constraints
        sc = self.scenario.scoring
        return ScoringContext(
            outcome=outcome,
            room=self.room,
            rules=self.rules,
            locale=self.locale,
            max_reply_chars=c.max_reply_chars,
            forbidden_words=list(c.forbidden_words),
            required_disclosure=c.required_disclosure,
            reply_skill_intents=harness.reply_skills,
            latency_target_s=sc.latency_target_s,
            latency_max_s=sc.latency_max_s,
        )

    def score(self, outcome: RequestOutcome, harness: Harness) -> dict[str, Any]:
        """Score a reply with the scenario's rubric under ``harness`` (as ``LiveSession.score``)."""
        s = self.rubric.score(self._ctx(outcome, harness))
        return {"composite": s.composite, "components": s.components, "failed": list(s.failed), "notes": s.notes}

    def satisfaction(self, outcome: RequestOutcome, comments: list[Comment], harness: Harness,
                     scores: dict[str, Any]) -> tuple[float, bool]:
        """A viewer's satisfaction with a reply: ``accuracy * effectiveness - 0.5 * (1 - compliance)``, where
        ``effectiveness`` is judged on the viewer's own ``comments`` (did it answer *my* question) and accuracy
        and compliance are the reply's (``scores["components"]``: a false or manipulative statement misleads
        everyone who reads it). Also returns whether the viewer was told the truth (accurate and compliant)."""
        o = outcome
        sub = RequestOutcome(
            request=LiveRequest(o.request.request_id, o.request.t, comments), reply=o.reply, calls=o.calls,
            skills_loaded=o.skills_loaded, turns=o.turns, retries=o.retries, latency_s=o.latency_s,
            hook_events=o.hook_events, fallback=o.fallback,
        )
        comp = scores["components"]
        acc = comp.get("accuracy", 1.0)
        ok = comp.get("compliance", 1.0)
        eff = effectiveness(self._ctx(sub, harness))
        return acc * eff - 0.5 * (1.0 - ok), acc >= 1.0 and ok >= 1.0

    def _close(self, h: _Host, t: float, skip: set[str]) -> dict[str, Any]:
        loop = h.loop
        assert loop is not None
        out = loop.outcome
        req = out.request
        pool = self.viewers
        scores = self.score(out, loop.harness)
        comp = scores["components"]
        self._hr[h.index] += scores["composite"] / 100.0
        groups: dict[str, list[Comment]] = {}
        for c in req.comments:
            groups.setdefault(c.viewer_id, []).append(c)
        sats: dict[str, float] = {}
        cache: dict[tuple[Any, ...], tuple[float, bool]] = {}
        for vid, cs in groups.items():
            key = tuple(dict.fromkeys(i for c in cs for i in c.intents))
            got = cache.get(key)
            if got is None:
                got = cache[key] = self.satisfaction(out, cs, loop.harness, scores)
            sat, fair = got
            sats[self.agent_of(vid)] = round(sat, 4)
            if vid in pool.viewers:
                self._vr[vid] = self._vr.get(vid, 0.0) + sat
                self.answered[vid] = (h.index, fair)
        auto = [c for c in req.comments
                if c.viewer_id not in skip and c.viewer_id in pool.viewers and not pool.viewers[c.viewer_id].external]
        if auto:
            pool.react(LiveRequest(req.request_id, req.t, auto), comp.get("accuracy", 0.0) >= 1.0,
                       comp.get("effectiveness", 0.0), out.latency_s)
        for vid in groups:
            v = pool.viewers.get(vid)
            if v is not None and v.external and vid not in skip:
                self._reply_cues.append((t, vid, "reply", out.reply))
        label = f"【{h.name}】" if self.locale == "zh_CN" else f"[{h.name}] "
        self._feed(t, label + out.reply)
        user_msg = loop.messages[loop._n_start - 1]
        h.history += [user_msg, {"role": "assistant", "content": out.reply}]
        h.outcomes.append((out, comp, scores["composite"]))
        self.trace.write(
            request_record(loop, scores, self.room, agent_of=self.agent_of, head={"host": h.agent},
                           reply_t=round(t, 3), timings=h.turn_timings, viewer_satisfaction=sats)
        )
        h.loop = None
        return scores

    # -- what viewers see ----------------------------------------------------------------------------------
    def _feed(self, t: float, line: str) -> None:
        s = int(t)
        if len(line) > _LINE_CHARS:
            line = line[: _LINE_CHARS - 1] + "…"
        self.feed.append(f"[{s // 60:02d}:{s % 60:02d}] {line}")

    def screen(self) -> str:
        """The room as every viewer sees it now: header, pinned product with its shown price and deals, coupons
        sent, and the latest comments, replies and purchases."""
        room = self.room
        zh = self.locale == "zh_CN"
        cur = self._currency
        hosts = "、".join(h.name for h in self.hosts) if zh else ", ".join(h.name for h in self.hosts)
        n = self.viewers.viewer_count
        s = int(room.t)
        clock = f"{s // 60:02d}:{s % 60:02d}"
        shop = self.scenario.room.shop_name
        lines = [f"{shop} 直播间 · 主播 {hosts} · {n}人在看 · {clock}" if zh
                 else f"{shop} live · hosts {hosts} · {n} watching · {clock}"]
        p = room.by_id.get(room.pinned) if room.pinned else None
        if p is not None:
            price = fmt_money(room.effective_price(p))
            deals = "，".join(c.title for c in room.active_campaigns(p.product_id)) if zh else \
                ", ".join(c.title for c in room.active_campaigns(p.product_id))
            if zh:
                lines.append(f"置顶：{p.link}号链接 {p.title} 到手价{cur}{price}（划线价{cur}{fmt_money(p.list_price)}）"
                             + (f" 优惠：{deals}" if deals else ""))
            else:
                lines.append(f"Pinned: link {p.link} {p.title} now {cur}{price} (list {cur}{fmt_money(p.list_price)})"
                             + (f" deals: {deals}" if deals else ""))
        if room.coupons_sent:
            titles = {c.campaign_id: c.title for c in room.campaigns}
            sent = [titles.get(cid, cid) for cid in list(dict.fromkeys(reversed(room.coupons_sent)))[:3]]
            lines.append(("已发券：" + "，".join(sent)) if zh else ("Coupons sent: " + ", ".join(sent)))
        lines.extend(self.feed)
        return "\n".join(lines)

    def viewer_prefix(self, vid: str) -> str:
        """The viewer's own line on top of its screen."""
        v = self.viewers.viewers.get(vid)
        name = v.name if v is not None else vid
        agent = self.agent_of(vid)
        return f"你是 {name}（{agent}）\n" if self.locale == "zh_CN" else f"You are {name} ({agent})\n"

    def viewer_text(self, vid: str) -> str:
        """What viewer ``vid`` sees now."""
        return self.viewer_prefix(vid) + self.screen()

    # -- trace and summary ---------------------------------------------------------------------------------
    def _flush_tick(self, t: float) -> None:
        if self._events:
            evs = sorted(self._events, key=lambda e: e["t"])
            self.trace.write({"type": "tick", "step": self.steps, "t": round(t, 3), "events": evs})
            self._events = []

    def summary(self) -> dict[str, Any]:
        """Per-host scores, requests, missed comments and conversions; room purchases, GMV and viewer counts."""
        hosts = {}
        for h in self.hosts:
            n = len(h.outcomes)
            comps: dict[str, float] = {}
            for _, comp, _ in h.outcomes:
                for k, v in comp.items():
                    comps[k] = comps.get(k, 0.0) + v
            hosts[h.agent] = {
                "name": h.name,
                "role": h.role,
                "score": round(sum(s for _, _, s in h.outcomes) / n, 2) if n else 0.0,
                "components": {k: round(v / n, 4) for k, v in comps.items()},
                "requests": n,
                "fallbacks": sum(1 for o, _, _ in h.outcomes if o.fallback),
                "missed": h.missed,
                "conversions": round(h.conversions, 4),
                "harness": h.harness_id(),
            }
        return {
            "scenario": self.scenario.name,
            "seed": self.seed,
            "steps": self.steps,
            "t": round(self.room.t, 3),
            "hosts": hosts,
            "requests": self.n_requests,
            "purchases": self.room.purchases,
            "gmv": round(self.room.gmv, 2),
            "viewers": {**self.viewers.stats(), "turned_away": self.viewers.turned_away},
            "agent_calls": self.llm_calls,
        }

    def finish(self) -> dict[str, Any]:
        """End the session (idempotent): write the summary record and close the trace; returns the summary."""
        summary = self.summary()
        if not self.finished:
            self.finished = True
            self._flush_tick(self.room.t)
            self.trace.write({"type": "session_end", **summary})
            self.trace.close()
        return summary


__all__ = ["ROLE_INTENTS", "HostSpec", "MultiRoom", "Router", "StepResult", "host_specs", "load_harness"]
