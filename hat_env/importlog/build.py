"""From the comments of a log to a scripted timeline, a whole scenario, and evaluation cases.

- :func:`timeline_fragment`: ``{"timeline": {"comments": [...]}}``, a scenario YAML fragment;
- :func:`scenario_data`: a base scenario's data with the log as its scripted comments (its room events kept,
  ``viewers.generate`` set, ``duration_s`` stretched to cover the log);
- :func:`cases_from`: one evaluation case per merged request, merged by the scenario's ``merge_window_s`` exactly as
  the simulator merges them (:meth:`hat_env.sim.viewers.ViewerPool.next_request` over the scripted viewers, with the
  room events due by each request applied), in the case format the suites store (:mod:`hat_env.evaluation.suites`).
- :func:`dump_yaml`: YAML text that the bounded loader reads back (checked: a log too large for one scenario file
  is an error saying so).
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from hat_env.importlog.read import Row
from hat_env.yamlio import MAX_FILE_BYTES, FileError, load_yaml

_DUMPER = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


def cut(rows: list[Row], start: float | None = None, end: float | None = None) -> list[Row]:
    """The rows with ``start <= t < end``, their times shifted so that ``start`` is 0 (``None``: no bound)."""
    lo = 0.0 if start is None else float(start)
    out = []
    for r in rows:
        if r.t < lo or (end is not None and r.t >= end):
            continue
        out.append(Row(r.line, round(r.t - lo, 3), r.user, r.text, r.intents))
    return out


def comment_entries(rows: list[Row]) -> list[dict[str, Any]]:
    """The ``timeline.comments`` entries of ``rows`` (``at_s``, ``viewer``, ``text``, and ``intents`` when given)."""
    out = []
    for r in rows:
        d: dict[str, Any] = {"at_s": r.t, "viewer": r.user, "text": r.text}
        if r.intents is not None:
            d["intents"] = r.intents
        out.append(d)
    return out


def timeline_fragment(rows: list[Row]) -> dict[str, Any]:
    """``{"timeline": {"comments": [...]}}``: the part of a scenario that replays ``rows``."""
    return {"timeline": {"comments": comment_entries(rows)}}


def scenario_data(base: dict[str, Any], rows: list[Row], generate: bool | float = False,
                  name: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """A whole scenario: ``base`` (a scenario file's data) with ``rows`` as its scripted comments.

    Args:
        base: the base scenario's YAML data (not changed).
        rows: the comments.
        generate: ``viewers.generate`` of the result (``False``: only the log speaks).
        name: the result's ``name`` (``None``: the base's).

    Returns:
        ``(data, notes)``: the scenario data (the base's own scripted comments replaced, its room events kept), and
        notes on what was changed besides (``duration_s`` stretched to the log's last comment).
    """
    data = dict(base)
    notes = []
    tl = dict(data.get("timeline") or {})
    tl["comments"] = comment_entries(rows)
    data["timeline"] = tl
    viewers = dict(data.get("viewers") or {})
    viewers["generate"] = generate
    data["viewers"] = viewers
    if name:
        data["name"] = name
    if rows:
        dur = data.get("duration_s", 600.0)
        last = rows[-1].t
        if isinstance(dur, (int, float)) and last > dur:
            window = viewers.get("merge_window_s", 3.0)
            new = float(math.ceil(last + (window if isinstance(window, (int, float)) else 3.0)))
            data["duration_s"] = new
            notes.append(f"duration_s {dur:g} -> {new:g} s, to cover the log's last comment at {last:g} s")
    return data, notes


def dump_yaml(data: dict[str, Any], header: tuple[str, ...] | list[str] = ()) -> str:
    """``data`` as YAML (``header`` lines as ``#`` comments first), checked to load back with the bounded loader.

    Raises:
        FileError: the text would be more than a scenario file may hold (size, values): cut the log.
    """
    body = yaml.dump(data, Dumper=_DUMPER, allow_unicode=True, sort_keys=False, default_flow_style=None,
                     width=1_000_000)
    text = "".join(f"# {h}\n" for h in header) + body
    n = len(data.get("timeline", {}).get("comments", ()))
    if len(text.encode()) > MAX_FILE_BYTES:
        raise FileError("<output>", [("timeline.comments", None, f"{n:,} comments make {len(text.encode()):,} bytes, "
                                      f"more than a scenario file may hold ({MAX_FILE_BYTES:,}); cut the log with "
                                      "--start/--end")])
    try:
        load_yaml("<output>", text)
    except FileError as exc:
        reason = "; ".join(r for _f, _l, r in exc.problems)
        raise FileError("<output>", [("timeline.comments", None, f"{n:,} comments: {reason}; cut the log with "
                                      "--start/--end")]) from None
    return text


def cases_from(scenario: Any, scenario_ref: str, suite: str) -> list[dict[str, Any]]:
    """Evaluation cases of ``scenario``'s scripted comments, one per merged request.

    Comments are merged as the simulator merges them: a request holds every comment in ``[t0, t0 +
    merge_window_s)``, ``t0`` the first comment at or after the previous request's end; no host is answering, so
    none is missed. The room events due by a request's time apply before its gold is worked out (and apply again
    when the case runs, in :func:`hat_env.evaluation.runner.build_session`).

    Args:
        scenario: the :class:`~hat_env.sim.scenario.Scenario` holding the comments (its generated viewers are
            left out).
        scenario_ref: what the cases name as their ``scenario`` (a path or built-in name that loads it, or one with
            the same catalog and events).
        suite: the cases' ``suite``; ids are ``SUITE/00000``...

    Returns:
        Cases with ``id``, ``suite``, ``category`` (``imported``), ``scenario``, ``locale``, ``seed``, ``t`` (the
        request's time: its first comment's plus the merge window), ``comments`` (``viewer``, ``viewer_id``,
        ``persona`` ``scripted``, ``text``, ``intents``: given, or what the parser read) and ``gold``.
    """
    from hat_env.envs.room import stream
    from hat_env.scoring.gold import needs_for_request, reply_skill_for, required_facts
    from hat_env.sim.room import RoomState
    from hat_env.sim.timeline import RoomEvents
    from hat_env.sim.viewers import ViewerPool

    sc = scenario.model_copy(update={"viewers": scenario.viewers.model_copy(update={"generate": False})})
    state = RoomState(sc, stream(sc.seed, "catalog"))
    events = RoomEvents(sc, state)
    pool = ViewerPool(sc, state, stream(sc.seed, "viewers"))
    out: list[dict[str, Any]] = []
    while True:
        req = pool.next_request(f"q{len(out) + 1:05d}")
        if req is None:
            break
        events.due(req.t)
        intents = req.intents
        out.append({
            "id": f"{suite}/{len(out):05d}", "suite": suite, "category": "imported", "scenario": scenario_ref,
            "locale": sc.locale, "seed": sc.seed, "t": round(req.t, 3),
            "comments": [{"viewer": c.viewer_name, "viewer_id": c.viewer_id, "persona": c.persona, "text": c.text,
                          "intents": [i.to_dict() for i in c.intents]} for c in req.comments],
            "gold": {"needs": [list(n) for n in needs_for_request(intents, state)],
                     "facts": [f.label for i in intents for f in required_facts(i, state)],
                     "reply_intent": reply_skill_for(intents)},
        })
    return out


__all__ = ["cases_from", "comment_entries", "cut", "dump_yaml", "scenario_data", "timeline_fragment"]
