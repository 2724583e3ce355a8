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

It is a :class:`~hat_env.envs.room.Room` with N :class:`~hat_env.envs.roles.RoomHost` hosts (each a
:class:`~hat_env.envs.host.Host`, as the single host of ``LiveRoom-v0``: harness timeline, HSA, history, request
loop, scoring) and a router. Every random draw comes from a stream of the seed, so a seed (and the same actions)
fixes the session and its JSONL trace to the byte. The trace names the agent of every comment, reply, purchase,
departure and agent call.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hat_env.envs.room import TRACE_VERSION, Room, load_harness, stream
from hat_env.envs.roles import ROLE_INTENTS, HostSpec, RoomHost, Router, host_specs, route_by_role
from hat_env.envs.screen import LINE_CHARS, Screen
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
from hat_env.scoring import effectiveness
from hat_env.sim.scenario import Scenario
from hat_env.sim.viewers import ViewerPool
from hat_env.types import Comment, LiveRequest, RequestOutcome

_CO_HOST = {"zh_CN": "副播", "en_US": "Co-host"}


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


class MultiRoom(Room):
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
        hsa: Harness-State Augmentation options for every host whose :class:`HostSpec` has none (``None``: no
            HSA). Each host draws its own variants from the seed.

    Attributes:
        hosts: the :class:`~hat_env.envs.roles.RoomHost` hosts, by index.
        screen_lines: the shared :class:`~hat_env.envs.screen.Screen`.
    """

    viewers: ViewerPool

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
        hsa: dict[str, Any] | None = None,
    ):
        if tick_s <= 0:
            raise ValueError("tick_s must be positive")
        sc = scenario
        llm_rng = stream(int(seed), "llm_viewers")
        n_llm = int(llm_viewers) if llm is not None else 0
        share = float(llm_share) if llm is not None else 0.0

        def external(i: int) -> bool:
            if i < n_llm:
                return True
            return share > 0.0 and llm_rng.random() < share

        super().__init__(sc, seed, max_arrivals=max_viewers, external=external if (n_llm or share > 0.0) else None)
        self.locale = sc.locale
        self.tick_s = float(tick_s)
        self.max_history = max_history
        self.conversion_weight = float(conversion_weight)
        self.fair_deal_weight = float(fair_deal_weight)
        self.router = router
        self.llm = llm
        self.hosts: list[RoomHost] = []
        co = _CO_HOST.get(sc.locale, "Co-host")
        for i, spec in enumerate(hosts):
            name = spec.name or (sc.room.host_name if i == 0 else co if i == 1 else f"{co}{i}")
            hsc = sc if name == sc.room.host_name else sc.model_copy(
                update={"room": sc.room.model_copy(update={"host_name": name})})
            harness = load_harness(spec.harness, sc)
            self.hosts.append(RoomHost(self, harness, spec, i, hsc, hsa if spec.hsa is None else spec.hsa,
                                       max_history))
        self.screen_lines = Screen(sc, self.state, view_lines)
        self.steps = 0
        self.llm_calls = 0
        self.answered: dict[str, tuple[int, bool]] = {}
        self.pinned_by: int | None = None
        self._reply_cues: list[tuple[float, str, str, str]] = []
        self._events: list[dict[str, Any]] = []
        self._vr: dict[str, float] = {}
        self._hr: list[float] = [0.0] * len(self.hosts)
        self.start_trace(
            trace,
            {
                "type": "session_start",
                "trace_version": TRACE_VERSION,
                "env": "hat_env/LiveRoomParallel-v0",
                "scenario": sc.name,
                "locale": sc.locale,
                "seed": self.seed,
                "duration_s": sc.duration_s,
                "tick_s": self.tick_s,
                "hosts": [self._host_entry(h) for h in self.hosts],
                "viewers": {"max_viewers": max_viewers, "initial": sc.viewers.initial,
                            "llm_viewers": n_llm, "llm_share": share, "viewer_agent": llm.name if llm else None},
                "products": [p.product_id for p in self.state.products],
            },
        )

    @staticmethod
    def _host_entry(h: RoomHost) -> dict[str, Any]:
        entry: dict[str, Any] = {"agent": h.agent, "name": h.name, "role": h.role, "harness": h.harness_id()}
        if h.hsa:
            entry["hsa"] = h.hsa_info
        return entry

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
            host_actions: host index -> model output (anything :meth:`RequestLoop.feed
                <hat_env.harness.runtime.RequestLoop.feed>` takes: a string, an OpenAI assistant dict, an
                AgentResponse). Hosts without an open request, or without an entry, do nothing this tick.
            viewer_actions: viewer id -> explicit action. Viewers without one (or with ``auto``) follow their
                own policy (scripted persona or agent).
        """
        if self.finished:
            raise RuntimeError("the session is over: reset the environment")
        room, pool = self.state, self.viewers
        t = room.t
        self.apply_events(t)  # the scenario's room events due by the tick's start
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
            pinned = room.pinned
            finished = h.feed(a)
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
        res.done = t_end >= self.scenario.duration_s or self.error is not None  # a failed patch ends the room
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
                              "viewer_agent": self.llm.name, "output": (resp.text or "")[:LINE_CHARS],
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
        elif self.pinned_by is not None and self.state.pinned == ev["product_id"]:
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
            self.screen_lines.add(ev["t"], f"{name} 下单了{ev['link']}号链接")
        else:
            self.screen_lines.add(ev["t"], f"{name} bought link {ev['link']}")

    # -- hosts ---------------------------------------------------------------------------------------------
    def _route(self, c: Comment, source: str) -> None:
        if self.router is not None:
            idx = self.router(c, [h.loop is not None for h in self.hosts])
        else:
            idx = route_by_role(c, self.hosts)
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
        self.screen_lines.add(c.t, f"{c.viewer_name}: {c.text}")
        self._events.append(
            {"t": c.t, "type": "comment", "agent": self.agent_of(c.viewer_id), "viewer_id": c.viewer_id,
             "name": c.viewer_name, "text": c.text, "source": source, "to": host.agent if host else None,
             "missed": missed}
        )

    def _open(self, h: RoomHost) -> None:
        assert h.window_end is not None
        self.n_requests += 1
        req = LiveRequest(request_id=f"r{self.n_requests:04d}", t=round(h.window_end, 3), comments=h.window)
        h.open(req, h.window_end)
        h.window = []
        h.window_end = None

    def score(self, outcome: RequestOutcome, harness: Harness) -> dict[str, Any]:
        """Score a reply with the scenario's rubric under ``harness`` (as ``LiveSession.score``)."""
        return self.score_reply(outcome, harness)

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
            hook_events=o.hook_events, fallback=o.fallback, timings=o.timings,
        )
        comp = scores["components"]
        acc = comp.get("accuracy", 1.0)
        ok = comp.get("compliance", 1.0)
        eff = effectiveness(self.scoring_context(sub, harness))
        return acc * eff - 0.5 * (1.0 - ok), acc >= 1.0 and ok >= 1.0

    def _close(self, h: RoomHost, t: float, skip: set[str]) -> dict[str, Any]:
        loop, scores = h.close()
        out = loop.outcome
        req = out.request
        pool = self.viewers
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
        self.screen_lines.add(t, label + out.reply)
        h.write_record(loop, scores, agent_of=self.agent_of, reply_t=round(t, 3), timings=loop.timings,
                       viewer_satisfaction=sats)
        return scores

    # -- what viewers see ----------------------------------------------------------------------------------
    def screen(self) -> str:
        """The room as every viewer sees it now: header, pinned product with its shown price and deals, coupons
        sent, and the latest comments, replies and purchases."""
        return self.screen_lines.render([h.name for h in self.hosts], self.viewers.viewer_count)

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

    def _end_records(self) -> None:
        self._flush_tick(self.state.t)

    def summary(self) -> dict[str, Any]:
        """Per-host scores, requests, missed comments and conversions; room purchases, GMV and viewer counts."""
        hosts = {}
        for h in self.hosts:
            st = h.stats()
            hosts[h.agent] = {
                "name": h.name,
                "role": h.role,
                "score": st["score"],
                "components": st["components"],
                "requests": st["requests"],
                "fallbacks": st["fallbacks"],
                "missed": h.missed,
                "conversions": round(h.conversions, 4),
                "harness": h.harness_id(),
            }
        return {
            "scenario": self.scenario.name,
            "seed": self.seed,
            "steps": self.steps,
            "t": round(self.state.t, 3),
            "hosts": hosts,
            "requests": self.n_requests,
            "purchases": self.state.purchases,
            "gmv": round(self.state.gmv, 2),
            "viewers": {**self.viewers.stats(), "turned_away": self.viewers.turned_away},
            "agent_calls": self.llm_calls,
            **({"error": self.error} if self.error is not None else {}),
        }


__all__ = ["ROLE_INTENTS", "HostSpec", "MultiRoom", "RoomHost", "Router", "StepResult", "host_specs", "load_harness"]
