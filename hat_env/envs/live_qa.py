"""``hat_env/LiveQA-v0``: one episode is one request with its room state (an evaluation case).

On reset the room is advanced to a random moment of the session and one viewer (a random persona) writes a
comment; the episode ends when the reply goes out. An explicit ``case`` (``{"t": .., "comments": [{"text",
"persona", "intents"}]}``, what evaluation suites store) replaces the random draw.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from hat_env.envs.views import plain
from hat_env.envs.live_room import LiveRoomEnv
from hat_env.envs.session import LiveSession, stream
from hat_env.types import Comment, Intent, LiveRequest
from hat_env.untrusted import clean_text, describe


def draw_request(session: LiveSession, seed: int, personas: list[str] | None = None) -> LiveRequest:
    """A single-comment request at a random moment, from a random persona (seeded)."""
    from hat_env.sim.comments import persona_intents, render_comment
    from hat_env.sim.viewers import PERSONAS

    rng = stream(seed, "qa")
    room = session.room
    room.t = round(rng.uniform(0.0, session.scenario.duration_s * 0.9), 3)
    persona = rng.choice(list(personas or PERSONAS))
    intents = persona_intents(persona, rng, room)
    text = render_comment(intents, session.scenario.locale, rng, room)
    return LiveRequest("q0001", room.t, [Comment(room.t, "v0001", "viewer", persona, text, tuple(intents))])


def request_from_case(case: dict[str, Any]) -> LiveRequest:
    """Build the request of a stored case.

    Raises:
        ValueError: the case is malformed (the message names the field: ``comments[1].text must be a string``).
    """
    if not isinstance(case, dict):
        raise ValueError(f"a case must be a dict, got {describe(case)}")
    comments = case.get("comments")
    if not isinstance(comments, list) or not comments:
        raise ValueError(f"case.comments must be a non-empty list, got {describe(comments)}")
    try:
        t = float(case.get("t", 0.0))
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"case.t must be a number of seconds, got {describe(case.get('t'))}") from None
    if not math.isfinite(t) or t < 0:
        raise ValueError(f"case.t must be a finite number of seconds >= 0, got {t}")
    out = []
    for i, c in enumerate(comments):
        where = f"case.comments[{i}]"
        if not isinstance(c, dict):
            raise ValueError(f"{where} must be a dict, got {describe(c)}")
        for key in ("text", "viewer_id", "viewer", "persona"):
            if key in c and not isinstance(c[key], str):
                raise ValueError(f"{where}.{key} must be a string, got {describe(c[key])}")
        if "text" not in c:
            raise ValueError(f"{where} has no text")
        intents = c.get("intents", [])
        if not isinstance(intents, list):
            raise ValueError(f"{where}.intents must be a list, got {describe(intents)}")
        try:
            its = tuple(Intent(**i) for i in intents)
        except TypeError as exc:  # not a dict, or a field Intent does not have
            raise ValueError(f"{where}.intents: {exc}") from None
        out.append(Comment(t, c.get("viewer_id", f"v{i + 1:04d}"), c.get("viewer", "viewer"),
                           c.get("persona", "unknown"), clean_text(c["text"]), its))
    return LiveRequest(case.get("request_id", "q0001"), t, out)


class LiveQAEnv(LiveRoomEnv):
    """One request per episode; same spaces, actions and info as :class:`LiveRoomEnv`.

    Args:
        scenario: built-in scenario name or path.
        harness: harness override.
        hsa: Harness-State Augmentation options.
        case: a stored case to replay instead of a random request.
        personas: restrict the random draw to these personas.
        trace: JSONL trace path.
    """

    def __init__(
        self,
        scenario: str | Path = "beauty_zh",
        harness: Any = None,
        hsa: dict[str, Any] | None = None,
        case: dict[str, Any] | None = None,
        personas: list[str] | None = None,
        trace: str | Path | None = None,
        render_mode: str | None = None,
    ):
        super().__init__(scenario, harness=harness, trace=trace, hsa=hsa, max_history=0, render_mode=render_mode)
        self.case = case
        self.personas = personas

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[dict[str, str], dict[str, Any]]:
        """Draw (or load) the case and open its request."""
        opts = options or {}
        s = self._new_session(seed, opts, viewers=False)
        case = opts.get("case", self.case)
        if case is not None:
            req = request_from_case(case)
            s.room.t = req.t
        else:
            req = draw_request(s, s.seed, self.personas)
        if not s.open_request(req):  # a harness patch due by the case's time failed: the episode is over at once
            return {"text": ""}, {"messages": [], "tools": [], "done": True, "error": s.error, "summary": s.summary()}
        return self._obs(), self._info()

    def step(self, action: Any) -> tuple[dict[str, str], float, bool, bool, dict[str, Any]]:
        """Feed one model output; the episode ends with the reply."""
        s = self.session
        if s is None or s.loop is None:
            raise RuntimeError("call reset() before step(), and again after the episode ends")
        scores = s.feed(action)
        if scores is None:
            return self._obs(), 0.0, False, False, self._info()
        out = s.outcomes[-1][0]
        s.finish()
        return {"text": ""}, scores["composite"] / 100.0, True, False, {
            "scores": plain(scores), "reply": out.reply, "request_done": True, "messages": [], "tools": []}
