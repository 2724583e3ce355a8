"""The session's own timeline beside the requests: harness changes (with their diffs) and campaigns starting and
ending (with the price changes they make).

A trace names its scenario, seed and harness hash; when the scenario loads (a built-in name, or the path the
trace gives) the campaigns come with titles, windows and effective prices before and after each change, and the
harness at each change is rebuilt (the scenario's pack, then each patch, then the HSA patch the trace records) so
a readable diff of what the model sees (system prompt and tool schemas) can be shown. When something does not
match (another pack, an edited scenario), the page says so and shows what the trace itself holds: the patch
operations, and campaign ids from the room snapshots.
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

#: Lines of unified diff kept per harness change (the rest is counted, not shown).
MAX_DIFF_LINES = 400


def load_room(start: dict[str, Any]) -> tuple[Any, Any, str | None]:
    """The scenario and a fresh room of a trace's ``session_start`` record.

    Args:
        start: the ``session_start`` record (``scenario``, ``seed``, ``products``).

    Returns:
        ``(scenario, room, problem)``: the scenario and room (``None`` when they cannot be rebuilt) and why not.
    """
    from hat_env.envs.session import stream
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    name = start.get("scenario")
    if not isinstance(name, str) or not name:
        return None, None, "the trace names no scenario"
    try:
        sc = load_scenario(name)
    except (ValueError, OSError) as exc:
        return None, None, f"scenario {name!r} not found ({str(exc).splitlines()[0]})"
    room = RoomState(sc, stream(int(start.get("seed") or 0), "catalog"))
    want = start.get("products")
    have = [p.product_id for p in room.products]
    if isinstance(want, list) and want != have:
        return None, None, f"scenario {name!r} has other products now ({len(have)} vs {len(want)} in the trace)"
    return sc, room, None


def _campaign(c: Any) -> dict[str, Any]:
    return {"id": c.campaign_id, "type": c.type, "title": c.title}


def campaign_events(scenario: Any, room: Any, duration_s: float) -> list[dict[str, Any]]:
    """The campaigns running at the start, and each later moment campaigns start or end, with the effective
    prices that change then.

    Args:
        scenario: the session's scenario.
        room: a room built from it (its products).
        duration_s: the session length (changes after it are left out).

    Returns:
        ``{"t", "kind": "campaign", "started": [{"id", "type", "title"}], "ended": [...], "prices": [{"product",
        "link", "title", "before", "after"}]}`` in time order; at 0 s ``before`` is the list price.
    """
    from hat_env.sim.campaigns import effective_price

    camps = list(scenario.campaigns)
    times = sorted({0.0} | {float(t) for c in camps for t in (c.start_s, c.end_s) if 0 < t <= duration_s})
    out: list[dict[str, Any]] = []
    for t in times:
        started = [_campaign(c) for c in camps if c.start_s == t or (t == 0.0 and c.active(0.0))]
        ended = [_campaign(c) for c in camps if c.end_s == t]
        prices = []
        for p in room.products:
            before = effective_price(camps, p, t - 1e-6) if t > 0 else p.price
            after = effective_price(camps, p, t)
            if abs(before - after) > 1e-9:
                prices.append({"product": p.product_id, "link": p.link, "title": p.title, "before": before,
                               "after": after})
        if started or ended:
            out.append({"t": t, "kind": "campaign", "started": started, "ended": ended, "prices": prices})
    return out


def snapshot_campaign_events(requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Campaign starts and ends seen in the room snapshots of consecutive requests (ids only, no prices): the
    fallback when the scenario cannot be rebuilt. Times are those of the snapshot that first shows the change."""
    out: list[dict[str, Any]] = []
    prev: set[str] = set()
    for k, r in enumerate(requests):
        snap = r.get("room") or {}
        cur = set(snap.get("active_campaigns") or ())
        t = 0.0 if k == 0 else float(snap.get("t", r.get("t", 0.0)))
        started, ended = sorted(cur - prev), sorted(prev - cur)
        if started or ended:
            out.append({"t": t, "kind": "campaign", "prices": [],
                        "started": [{"id": c, "type": None, "title": c} for c in started],
                        "ended": [{"id": c, "type": None, "title": c} for c in ended]})
        prev = cur
    return out


def _model_view(harness: Any, scenario: Any, room: Any, t: float) -> str:
    """The harness as the model sees it at room time ``t``: the system prompt, then each tool schema (JSON)."""
    from hat_env.harness.render import render_system

    room.t = t
    tools = "\n".join(json.dumps(x, ensure_ascii=False, indent=1, sort_keys=True) for x in harness.openai_tools)
    return render_system(harness, room, scenario.room) + "\n\n--- tools ---\n" + tools


def unified_diff(a: str, b: str, name_a: str, name_b: str) -> dict[str, Any]:
    """A unified diff of two texts, cut at :data:`MAX_DIFF_LINES`: ``{"lines": [...], "more": N}``."""
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), name_a, name_b, lineterm="", n=2))
    return {"lines": lines[:MAX_DIFF_LINES], "more": max(0, len(lines) - MAX_DIFF_LINES)}


def _hsa_summary(info: dict[str, Any] | None) -> dict[str, Any] | None:
    if not info:
        return None
    return {k: info.get(k) for k in ("dims", "strength", "family", "hash", "parent_hash", "ops")}


def _scenario_harness(scenario: Any) -> tuple[Any, str | None]:
    from hat_env.harness.core import Harness

    try:
        hp = Path(scenario.source).parent / scenario.harness if scenario.source else None
        return Harness.load(hp if hp is not None and (hp / "harness.yaml").exists() else scenario.harness), None
    except (ValueError, OSError) as exc:
        return None, f"harness {scenario.harness!r} not found ({str(exc).splitlines()[0]})"


class _Track:
    """The harness of one host (or of the session) as the trace changes it: the base and its HSA variant."""

    def __init__(self, base: Any, variant: Any):
        self.base, self.variant = base, variant

    @property
    def current(self) -> Any:
        return self.variant if self.variant is not None else self.base


def _event(t: float, h: dict[str, Any], note: Any, host: Any, hsa: dict[str, Any] | None,
           patch: list[Any]) -> dict[str, Any]:
    return {"t": t, "kind": "harness", "name": h.get("name"), "version": h.get("version"), "hash": h.get("hash"),
            "note": note, "host": host, "hsa": _hsa_summary(hsa), "patch": patch, "diff": None, "diff_note": None}


def harness_events(start: dict[str, Any], patches: list[dict[str, Any]], scenario: Any, room: Any,
                   problem: str | None) -> list[dict[str, Any]]:
    """The harness at the start and at each change, with the patch operations and, where the harness can be
    rebuilt, the diff of what the model sees.

    Args:
        start: the ``session_start`` record (a PettingZoo room lists ``hosts`` with their harness each).
        patches: the ``harness_patch`` records (with ``host`` in a PettingZoo room).
        scenario: the scenario (``None`` when it could not be loaded).
        room: a room of it (``None`` likewise).
        problem: why the scenario could not be loaded, if it could not.

    Returns:
        ``{"t", "kind": "harness", "name", "version", "hash", "note", "host", "hsa", "patch", "diff",
        "diff_note"}`` per event; ``diff`` is ``None`` with ``diff_note`` saying why when it cannot be built.
    """
    hosts = start.get("hosts")
    starts: list[tuple[Any, dict[str, Any]]] = (
        [(h.get("agent"), h.get("harness") or {}) for h in hosts] if isinstance(hosts, list) and hosts
        else [(None, start.get("harness") or {})])
    hsa = start.get("hsa") if not hosts else None
    base, note = (None, problem) if scenario is None else _scenario_harness(scenario)
    tracks: dict[Any, _Track] = {}
    why: dict[Any, str] = {}  # host -> why its harness cannot be followed
    out: list[dict[str, Any]] = []
    for host, hid in starts:
        ev = _event(0.0, hid, "start", host, hsa, (hsa or {}).get("patch") or [])
        out.append(ev)
        want = (hsa or {}).get("parent_hash") if hsa else hid.get("hash")
        if base is None:
            why[host] = note or "the starting harness could not be rebuilt"
        elif want and base.hash != want:
            why[host] = f"the scenario's harness is {base.hash} now, the trace started from {want}: no diff"
        else:
            track = _Track(base, None)
            if hsa:
                try:
                    track.variant = base.apply(hsa.get("patch") or [])
                    ev["diff"] = unified_diff(_model_view(base, scenario, room, 0.0),
                                              _model_view(track.variant, scenario, room, 0.0),
                                              f"original ({base.hash})", f"HSA variant ({track.variant.hash})")
                except Exception as exc:  # a patch this code cannot replay must not stop the page
                    why[host] = f"could not rebuild the HSA variant: {exc}"
                    continue
            tracks[host] = track
        if hsa and host in why:
            ev["diff_note"] = why[host]
    for rec in patches:
        host = rec.get("host")
        t = float(rec.get("t", 0.0))
        new_hsa = rec.get("hsa")
        ev = _event(t, rec.get("harness") or {}, rec.get("note"), host, new_hsa, rec.get("patch") or [])
        found = tracks.get(host)
        if found is not None:
            track = found
            try:
                before = track.current
                track.base = track.base.apply(rec.get("patch") or [])
                track.variant = track.base.apply(new_hsa.get("patch") or []) if new_hsa else None
                after = track.current
                ev["diff"] = unified_diff(_model_view(before, scenario, room, t), _model_view(after, scenario, room, t),
                                          f"before ({before.hash})", f"after ({after.hash})")
            except Exception as exc:  # as above: show the patch without a diff
                why[host] = ev["diff_note"] = f"could not replay the patch: {exc}"
                del tracks[host]
        else:
            ev["diff_note"] = why.get(host, "the starting harness could not be rebuilt")
        out.append(ev)
    return out
