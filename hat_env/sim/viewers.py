"""The viewer population of a live room: arrivals, departures, comments, merged requests and reactions.

(Over 500 lines: one event heap drives both the merged-request API and the clocked multi-agent one, and both share
the arrival, departure, scripted-viewer and reaction handling; split, it would be one state machine in two files.)

Viewers arrive (an initial crowd, then a Poisson stream), stay for an exponential time, and comment at
exponential gaps; each comment is written by :func:`hat_env.sim.comments.render_comment` from the intents its
persona draws. Comments that fall in one merge window become one :class:`~hat_env.types.LiveRequest`. After the
host answers, :meth:`ViewerPool.react` lets each asking viewer buy, ask again, leave or stay, with odds that
depend on whether the answer was right, how useful it was and how long it took.

A scenario's script (``timeline.comments``, :mod:`hat_env.sim.timeline`) adds scripted viewers: each name is one
viewer, who enters at its first scripted comment, sends its comments at their times (merged, and missed while the
host is busy, like any other), does not react to replies (its comments are the script) and leaves
``viewers.mean_stay_s`` after its last one. ``viewers.generate`` keeps, scales or removes the generated crowd.

Everything runs on one event heap of ``(time, seq, kind, viewer_id, data)`` entries, so each event costs
O(log n) and rooms of thousands of viewers stay cheap. All randomness comes from the ``random.Random`` passed
in (scripted viewers draw none); display names come from a seeded pool of Faker names drawn on demand
(:mod:`hat_env.sim.names`).
"""

from __future__ import annotations

import heapq
import random
from dataclasses import dataclass
from typing import Any, Callable, Collection

from hat_env.sim.comments import ask_again_prefixes, persona_intents, render_comment
from hat_env.sim.names import NamePool
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario
from hat_env.sim.vocab import PERSONAS
from hat_env.types import Comment, Intent, LiveRequest

#: Persona weights used when a scenario gives no ``viewers.mix``.
DEFAULT_MIX: dict[str, float] = {
    "price_asker": 0.22,
    "spec_asker": 0.15,
    "comparer": 0.08,
    "after_sales": 0.10,
    "purchase_intent": 0.15,
    "chit_chat": 0.12,
    "multi_intent": 0.10,
    "troll": 0.04,
    "prompt_injector": 0.04,
}

#: Chance that a viewer of each persona buys after a perfect, fast answer (scaled down by worse answers).
BUY_BASE: dict[str, float] = {
    "price_asker": 0.30,
    "spec_asker": 0.25,
    "comparer": 0.30,
    "after_sales": 0.05,
    "purchase_intent": 0.55,
    "chit_chat": 0.03,
    "multi_intent": 0.30,
    "troll": 0.0,
    "prompt_injector": 0.0,
}

_NAME_POOL_MAX = 256
_ASK_AGAIN_DELAY_S = (2.0, 6.0)


@dataclass(slots=True)
class Viewer:
    """One viewer in the room.

    Attributes:
        viewer_id: ``"v0001"``-style id, never reused within a session.
        name: display name (Faker, in the room's locale).
        persona: one of :data:`PERSONAS`.
        joined_s: room time of arrival.
        last_intents: the intents of the viewer's latest comment (what a follow-up re-asks).
        comments: comments sent so far.
        purchases: successful purchases so far.
        external: the viewer's comments and reactions come from outside the pool (an LLM user simulator or
            any other policy): its due comments are reported by :meth:`ViewerPool.drain_due` instead of being
            written, and :meth:`ViewerPool.react` leaves it alone.
        scripted: a viewer of the scenario's script (persona ``scripted``): it says what the script says, and
            :meth:`ViewerPool.react` leaves it alone.
    """

    viewer_id: str
    name: str
    persona: str
    joined_s: float
    last_intents: tuple[Intent, ...] = ()
    comments: int = 0
    purchases: int = 0
    external: bool = False
    scripted: bool = False


def _mix_table(mix: dict[str, float]) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """Validated personas and cumulative weights, in :data:`PERSONAS` order (never set/dict-hash order)."""
    unknown = [k for k in mix if k not in PERSONAS]
    if unknown:
        raise ValueError(f"unknown persona(s) {unknown} in viewers.mix; known: {', '.join(PERSONAS)}")
    names: list[str] = []
    cum: list[float] = []
    total = 0.0
    for p in PERSONAS:
        w = float(mix.get(p, 0.0))
        if w < 0:
            raise ValueError(f"viewers.mix weight of {p!r} is negative")
        if w > 0:
            total += w
            names.append(p)
            cum.append(total)
    if total <= 0:
        raise ValueError("viewers.mix has no positive weight")
    return tuple(names), tuple(c / total for c in cum)


class ViewerPool:
    """The viewers of one session and the comment stream they produce.

    Args:
        scenario: the validated scenario (``viewers`` settings, ``locale``, ``duration_s``).
        room: the room state: its clock ``t`` drives :meth:`next_request`; products and orders feed the intents;
            :meth:`react` records purchases on it.
        rng: the session's seeded generator; it also draws the name pool's seed.
        max_arrivals: at most this many viewers ever enter (the initial crowd included); later arrivals are
            turned away and counted in :attr:`turned_away`. ``None``: no limit. Multi-agent rooms use it so
            that every viewer maps to one of a fixed set of agent names.
        external: called with each arriving generated viewer's 0-based arrival index; ``True`` makes that viewer
            :attr:`Viewer.external`. ``None``: every viewer is simulated. Scripted viewers are never external
            (they take an arrival index, and count towards ``max_arrivals``, like any viewer: one turned away
            sends none of its comments).

    Attributes:
        viewers: viewers currently in the room, by id (insertion order = arrival order).
        missed: comments that were sent while the host was busy (before ``room.t``) and never reached it.
        arrivals: viewers that entered so far (turned-away arrivals at ``max_viewers`` are not counted).
        peak_viewers: the largest number of viewers present at once.
        turned_away: arrivals refused because ``max_arrivals`` viewers had already entered.
    """

    def __init__(
        self,
        scenario: Scenario,
        room: RoomState,
        rng: random.Random,
        *,
        max_arrivals: int | None = None,
        external: Callable[[int], bool] | None = None,
    ):
        self.scenario = scenario
        self.room = room
        self.rng = rng
        self.locale: str = scenario.locale
        spec = scenario.viewers
        self._spec = spec
        self._personas, self._cum = _mix_table(spec.mix or DEFAULT_MIX)
        # Faker's names for this seed, drawn when a viewer takes a slot (sim/names.py): the same names, not all now
        self._names = NamePool(self.locale, rng.getrandbits(32), min(_NAME_POOL_MAX, max(8, spec.max_viewers)))
        self.viewers: dict[str, Viewer] = {}
        self._heap: list[tuple[float, int, str, str, Any]] = []
        self._seq = 0
        self._next_id = 1
        self._events: list[dict[str, Any]] = []
        self.missed = 0
        self.arrivals = 0
        self.peak_viewers = 0
        self.turned_away = 0
        self.max_arrivals = max_arrivals
        self._external = external
        self._due: list[tuple[float, str, str, Any]] = []
        self._comment_rate = 1.0 / spec.comment_every_s
        self._stay_rate = 1.0 / spec.mean_stay_s
        share = 1.0 if spec.generate is True else 0.0 if spec.generate is False else float(spec.generate)
        self._arrival_rate = spec.arrival_per_min / 60.0 * share
        t0 = room.t
        for _ in range(min(spec.initial if share == 1.0 else round(spec.initial * share), spec.max_viewers)):
            self._arrive(t0)
        if self._arrival_rate > 0:
            self._push(t0 + rng.expovariate(self._arrival_rate), "arrive", "", None)
        # the script: one heap entry per comment (after the generated ones, whose order it leaves as it was)
        self._script = [c for _, c in scenario.timeline.sorted_comments()]
        self._script_ids: dict[str, str | None] = {}  # viewer name -> id (None: turned away at max_arrivals)
        self._script_last = {c.viewer: k for k, c in enumerate(self._script)}
        for k, c in enumerate(self._script):
            self._push(c.at_s, "scripted", "", k)

    # -- internals -----------------------------------------------------------------------------------------
    def _push(self, t: float, kind: str, viewer_id: str, data: Any) -> None:
        self._seq += 1
        heapq.heappush(self._heap, (t, self._seq, kind, viewer_id, data))

    def _draw_persona(self) -> str:
        x = self.rng.random()
        cum = self._cum
        for i, c in enumerate(cum):
            if x < c:
                return self._personas[i]
        return self._personas[-1]

    def _on_arrival(self, t: float) -> None:
        """An arrival event at ``t``: a new viewer comes in when the room has space, and the next arrival is drawn."""
        if len(self.viewers) < self._spec.max_viewers:
            self._arrive(t)
        self._push(t + self.rng.expovariate(self._arrival_rate), "arrive", "", None)

    def _arrive(self, t: float) -> None:
        if self.max_arrivals is not None and self._next_id > self.max_arrivals:
            self.turned_away += 1
            return
        rng = self.rng
        index = self._next_id - 1
        vid = f"v{self._next_id:04d}"
        self._next_id += 1
        persona = self._draw_persona()
        name = self._names[int(rng.random() * len(self._names))]
        external = bool(self._external(index)) if self._external is not None else False
        self.viewers[vid] = Viewer(vid, name, persona, t, external=external)
        self.arrivals += 1
        if len(self.viewers) > self.peak_viewers:
            self.peak_viewers = len(self.viewers)
        ev: dict[str, Any] = {"t": round(t, 3), "type": "arrive", "viewer_id": vid, "persona": persona, "name": name}
        if external:
            ev["external"] = True
        self._events.append(ev)
        self._push(t + rng.expovariate(self._comment_rate), "comment", vid, None)
        self._push(t + rng.expovariate(self._stay_rate), "leave", vid, None)

    def _leave(self, vid: str, t: float, reason: str) -> None:
        if self.viewers.pop(vid, None) is not None:
            self._events.append({"t": round(t, 3), "type": "leave", "viewer_id": vid, "reason": reason})

    def _script_viewer(self, k: int, t: float) -> Viewer | None:
        """The scripted viewer of script comment ``k``, entering the room now if it is not in it (its first
        comment, or back after leaving); ``None`` when it was turned away at ``max_arrivals``. Its last comment
        schedules its departure ``mean_stay_s`` later."""
        name = self._script[k].viewer
        vid = self._script_ids.get(name, "")
        if vid is None:
            return None
        if not vid:
            if self.max_arrivals is not None and self._next_id > self.max_arrivals:
                self.turned_away += 1
                self._script_ids[name] = None
                return None
            vid = self._script_ids[name] = f"v{self._next_id:04d}"
            self._next_id += 1
        v = self.viewers.get(vid)
        if v is None:
            v = self.viewers[vid] = Viewer(vid, name, "scripted", t, scripted=True)
            self.arrivals += 1
            if len(self.viewers) > self.peak_viewers:
                self.peak_viewers = len(self.viewers)
            self._events.append({"t": round(t, 3), "type": "arrive", "viewer_id": vid, "persona": "scripted",
                                 "name": name, "scripted": True})
        if self._script_last[name] == k:
            self._push(t + self._spec.mean_stay_s, "leave", vid, "script_end")
        return v

    def _script_comment(self, v: Viewer, k: int, t: float) -> Comment:
        """Script comment ``k`` sent by ``v`` at ``t`` (its intents as given, else what the parser reads)."""
        c = self._script[k]
        out = self.comment_from(v.viewer_id, c.text, t, c.intent_tuple())
        assert out is not None  # v is in the room
        return out

    # -- public API ----------------------------------------------------------------------------------------
    @property
    def viewer_count(self) -> int:
        """Number of viewers in the room now."""
        return len(self.viewers)

    def next_request(self, request_id: str) -> LiveRequest | None:
        """Advance to the next comment at or after ``room.t`` and merge its window into one request.

        Events before it are processed on the way (arrivals, timed departures; comments sent before ``room.t``
        while the host was busy are counted in :attr:`missed` and dropped). Every comment in
        ``[t0, t0 + merge_window_s)`` is gathered, where ``t0`` is the first comment's time, and the room clock
        is set to ``t0 + merge_window_s``.

        Args:
            request_id: the id to give the request (``"r0001"``...).

        Returns:
            The merged request (``t`` = the new room clock, comments oldest first), or ``None`` when the next
            comment would come after ``scenario.duration_s`` or nobody is left to comment.
        """
        heap = self._heap
        rng = self.rng
        room = self.room
        spec = self._spec
        duration = self.scenario.duration_s
        window = spec.merge_window_s
        t_now = room.t
        t0: float | None = None
        t_end = 0.0
        comments: list[Comment] = []
        while heap:
            t = heap[0][0]
            if t0 is None:
                if t > duration:
                    return None
            elif t >= t_end:
                break
            _, _, kind, vid, data = heapq.heappop(heap)
            if kind == "arrive":
                self._on_arrival(t)
                continue
            if kind == "leave":
                self._leave(vid, t, data or "stay_over")
                continue
            if kind == "scripted":
                sv = self._script_viewer(data, t)
                if sv is None:
                    continue
                if t < t_now:
                    self.missed += 1
                    continue
                if t0 is None:
                    t0 = t
                    t_end = t0 + window
                comments.append(self._script_comment(sv, data, t))
                continue
            v = self.viewers.get(vid)
            if v is None:  # the viewer left; its pending comments die with it
                continue
            if kind == "comment":
                self._push(t + rng.expovariate(self._comment_rate), "comment", vid, None)
            if t < t_now:
                self.missed += 1
                continue
            if t0 is None:
                t0 = t
                t_end = t0 + window
            comments.append(self._scripted_comment(v, t, kind, data))
        if t0 is None:
            return None
        room.t = t_end
        return LiveRequest(request_id=request_id, t=t_end, comments=comments)

    def _scripted_comment(self, v: Viewer, t: float, kind: str, data: Any) -> Comment:
        """Write ``v``'s due comment (a fresh one, or a follow-up re-asking ``data`` for ``ask_again``)."""
        rng = self.rng
        room = self.room
        if kind == "ask_again":
            intents: tuple[Intent, ...] = data
            pre = ask_again_prefixes(self.locale)
            text = pre[int(rng.random() * len(pre))] + render_comment(intents, self.locale, rng, room)
        else:
            intents = persona_intents(v.persona, rng, room)
            text = render_comment(intents, self.locale, rng, room)
        v.last_intents = intents
        v.comments += 1
        return Comment(round(t, 3), v.viewer_id, v.name, v.persona, text, intents)

    # -- clocked API (multi-agent rooms) ---------------------------------------------------------------------
    def advance(self, t_end: float, skip: Collection[str] = ()) -> list[Comment]:
        """Process every event before ``t_end`` and return the scripted comments sent, oldest first.

        Unlike :meth:`next_request`, nothing is merged or dropped: the caller decides who hears each comment.
        The room clock is not moved (the caller owns it).

        Args:
            t_end: process events with time ``< t_end``.
            skip: viewer ids acting on their own during this interval (an explicit action was given for them):
                their due comments and timed departures are re-drawn later and their follow-ups dropped.

        Due comments of :attr:`Viewer.external` viewers are not written: they are queued for
        :meth:`drain_due` (the cue for an external policy to speak).
        """
        heap = self._heap
        rng = self.rng
        comments: list[Comment] = []
        while heap and heap[0][0] < t_end:
            t, _, kind, vid, data = heapq.heappop(heap)
            if kind == "arrive":
                self._on_arrival(t)
                continue
            if kind == "scripted":  # the script is sent as written, whatever the viewer does on its own
                sv = self._script_viewer(data, t)
                if sv is not None:
                    comments.append(self._script_comment(sv, data, t))
                continue
            v = self.viewers.get(vid)
            if v is None:  # the viewer left; its pending events die with it
                continue
            if kind == "leave":
                if vid in skip:
                    self._push(t + rng.expovariate(self._stay_rate), "leave", vid, data)
                else:
                    self._leave(vid, t, data or "stay_over")
                continue
            if kind == "comment":
                self._push(t + rng.expovariate(self._comment_rate), "comment", vid, None)
            if vid in skip:
                continue
            if v.external:
                self._due.append((round(t, 3), vid, kind, data))
                continue
            comments.append(self._scripted_comment(v, t, kind, data))
        return comments

    def drain_due(self) -> list[tuple[float, str, str, Any]]:
        """Comments that external viewers were due to send since the last drain: ``(t, viewer_id, kind, data)``
        with ``kind`` ``comment`` or ``ask_again`` (``data``: the intents to re-ask), oldest first."""
        due = self._due
        self._due = []
        return due

    def comment_from(self, viewer_id: str, text: str, t: float, intents: tuple[Intent, ...] | None = None) -> Comment | None:
        """Record a comment written outside the pool (an agent's) and return it.

        Its intents are ``intents`` or, by default, what :func:`~hat_env.sim.parser.parse_comment` reads in the
        text (so scoring knows what was asked). ``None`` when the viewer is not in the room.
        """
        v = self.viewers.get(viewer_id)
        if v is None:
            return None
        if intents is None:
            intents = tuple(parse_comment(text, self.locale, catalog=self.room))
        v.last_intents = intents
        v.comments += 1
        return Comment(round(t, 3), viewer_id, v.name, v.persona, text, intents)

    def buy(self, viewer_id: str, link: int | None, t: float) -> dict[str, Any] | None:
        """A purchase decided outside the pool: ``link``, else the first existing link the viewer last asked
        about, else the pinned product. Returns the ``buy`` event (``ok`` False when nothing could be bought),
        ``None`` when the viewer is not in the room."""
        v = self.viewers.get(viewer_id)
        if v is None:
            return None
        room = self.room
        target = room.by_link.get(link) if link is not None else None
        if target is None and link is None:
            for it in v.last_intents:
                if it.link is not None and it.link in room.by_link:
                    target = room.by_link[it.link]
                    break
            if target is None and room.pinned is not None:
                target = room.by_id.get(room.pinned)
        ok = room.buy(target.product_id) if target is not None else False
        if ok:
            v.purchases += 1
        ev = {
            "t": round(t, 3),
            "type": "buy",
            "viewer_id": viewer_id,
            "product_id": target.product_id if target is not None else None,
            "link": target.link if target is not None else link,
            "ok": ok,
        }
        self._events.append(ev)
        return ev

    def leave(self, viewer_id: str, t: float, reason: str = "action") -> bool:
        """Remove a viewer who decided to leave; returns whether they were in the room."""
        present = viewer_id in self.viewers
        self._leave(viewer_id, t, reason)
        return present

    def react(self, request: LiveRequest, correct: bool, effectiveness: float, latency_s: float) -> None:
        """Let each viewer who commented in ``request`` respond to the host's reply.

        Each such viewer (once, with their latest comment; viewers who already left,
        :attr:`Viewer.external` viewers, who react on their own, and :attr:`Viewer.scripted` ones, whose comments
        are the script, are skipped) draws one of:
        buy (``room.buy`` of the first existing link they asked about; personas differ in how likely, see
        :data:`BUY_BASE`), ask again (the same intents re-asked 2-6 s later), leave, or stay. With quality
        ``q = 0.5 * correct + 0.5 * effectiveness`` and ``slow`` rising from 0 at 3 s to 1 at 8 s of latency:

        * buy: ``BUY_BASE[persona] * q * (1 - 0.8 * slow)``
        * ask again: ``0.30 * (1 - q) + 0.10 * slow``
        * leave: ``0.02 + 0.10 * (1 - q) + 0.15 * slow``, plus 0.30 above 8 s

        Args:
            request: the request that was answered.
            correct: whether the reply was factually right (the accuracy verdict).
            effectiveness: 0..1, how well the reply met the viewers' intents.
            latency_s: seconds from request to reply.
        """
        rng = self.rng
        room = self.room
        q = 0.5 * (1.0 if correct else 0.0) + 0.5 * min(1.0, max(0.0, float(effectiveness)))
        lat = max(0.0, float(latency_s))
        slow = min(1.0, max(0.0, (lat - 3.0) / 5.0))
        p_ask = 0.30 * (1.0 - q) + 0.10 * slow
        p_leave = 0.02 + 0.10 * (1.0 - q) + 0.15 * slow + (0.30 if lat > 8.0 else 0.0)
        latest: dict[str, Comment] = {}
        for c in request.comments:
            latest[c.viewer_id] = c  # keeps first-appearance order, latest comment
        t = room.t
        for vid, c in latest.items():
            v = self.viewers.get(vid)
            if v is None or v.external or v.scripted:
                continue
            target = None
            for it in c.intents:
                if it.link is not None and it.link in room.by_link:
                    target = room.by_link[it.link]
                    break
            p_buy = BUY_BASE.get(v.persona, 0.0) * q * (1.0 - 0.8 * slow) if target is not None else 0.0
            total = p_buy + p_ask + p_leave
            scale = 1.0 / total if total > 1.0 else 1.0
            x = rng.random()
            if x < p_buy * scale:
                assert target is not None
                ok = room.buy(target.product_id)
                if ok:
                    v.purchases += 1
                self._events.append(
                    {
                        "t": round(t, 3),
                        "type": "buy",
                        "viewer_id": vid,
                        "product_id": target.product_id,
                        "link": target.link,
                        "ok": ok,
                    }
                )
            elif x < (p_buy + p_ask) * scale:
                at = t + rng.uniform(*_ASK_AGAIN_DELAY_S)
                self._push(at, "ask_again", vid, c.intents)
                self._events.append({"t": round(t, 3), "type": "ask_again", "viewer_id": vid, "at": round(at, 3)})
            elif x < (p_buy + p_ask + p_leave) * scale:
                self._leave(vid, t, "reply")

    def drain_events(self) -> list[dict[str, Any]]:
        """JSON-ready events since the last drain, oldest first.

        Each is ``{"t", "type", "viewer_id", ...}`` with ``type`` one of ``arrive`` (``persona``, ``name``;
        ``scripted`` for a viewer of the script), ``leave`` (``reason``: ``stay_over``, ``reply``, ``action`` or
        ``script_end``), ``buy`` (``product_id``, ``link``, ``ok``) or
        ``ask_again`` (``at``: when the follow-up comment is due).
        """
        ev = self._events
        self._events = []
        return ev

    def stats(self) -> dict[str, int]:
        """Counters for traces: viewers now, peak, arrivals, missed comments."""
        return {
            "viewers": len(self.viewers),
            "peak_viewers": self.peak_viewers,
            "arrivals": self.arrivals,
            "missed": self.missed,
        }


__all__ = ["BUY_BASE", "DEFAULT_MIX", "PERSONAS", "Viewer", "ViewerPool"]
