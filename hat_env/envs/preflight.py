"""Pre-flight checks: what a session will do to its harness and room, tried before it starts.

A scenario's harness timeline patches, its room events and an evaluation case's patch name tools, skills,
sections, products and campaigns that must exist when they apply. Each is tried here, in order, against the
harness the session will really use (the scenario's own, or a ``--harness`` override), so a patch that names what
the harness lacks is an error naming the file, the line and the reason at start, never a crash mid-session:

- :func:`check_timeline`: every ``harness_timeline`` patch in the order the host applies them (by ``at_s``), each
  state checked as a harness (so a skill with unknown intents is caught too) and its fallback reply against its
  reply constraints (:mod:`hat_env.harness.fallback`: a patch that turns on a disclosure the fallback lacks, or
  tightens the limit below it). :class:`~hat_env.envs.host.Host` runs it when it is built; results are cached per
  harness and timeline.
- :func:`check_case`: an evaluation case's ``patch`` against its scenario's harness (:func:`apply_case_patch` is
  what :func:`hat_env.evaluation.runner.build_session` applies).
- :func:`check_scenario`: all of a scenario's checks at once (pack, rule packs, room events, timeline, the fallback
  reply against the room's locale and compliance rules), every problem of every file; ``hat-env validate`` and
  ``hat-env run`` use it.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_env.yamlio import FileError, file_errors, line_of, load_yaml

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.scenario import Scenario, TimelineEntry

_CACHE: OrderedDict[tuple[str, str, str], FileError | None] = OrderedDict()
_MISS = object()
_CACHE_MAX = 128
_LOCK = threading.Lock()


def _reason(exc: Exception) -> str:
    """One line saying why a patch failed."""
    if isinstance(exc, FileError):  # the harness after the patch is invalid: its fields and reasons
        return "the harness after this patch is invalid: " + "; ".join(
            f"{fld or '<root>'}: {why}" for e in file_errors(exc) for fld, _line, why in e.problems)
    return str(exc)


def timeline_states(scenario: "Scenario", harness: "Harness") -> list[tuple[int, "TimelineEntry", "Harness"]]:
    """The harness after each ``harness_timeline`` entry, in the order they apply (by ``at_s``; ties in file order).

    Returns:
        ``(index in the file, entry, harness after it)`` per entry.

    Raises:
        FileError: the first entry whose patch does not apply, naming the scenario file, the operation at fault
            (``harness_timeline.1.patch.0``) and its line, and why (``no skill named 'item-qa'; the harness has
            skills: ...``, or what is invalid in the harness it would make).
    """
    from hat_env.harness.patch import PatchError

    from hat_env.harness.fallback import fallback_problems

    out = []
    h = harness
    known = {why for _loc, why in fallback_problems(h.spec)}  # the harness's own (a pack has none)
    order = sorted(enumerate(scenario.harness_timeline), key=lambda ie: ie[1].at_s)
    for i, entry in order:
        try:
            h = h.apply(entry.patch)
            new = [(loc, why) for loc, why in fallback_problems(h.spec) if why not in known]
            if new:
                raise PatchError("; ".join(f"{'.'.join(map(str, loc))}: {why}" for loc, why in new))
        except Exception as exc:  # noqa: BLE001 - any failure of data is reported, never raised mid-session
            j, fld = (exc.index, exc.field) if isinstance(exc, PatchError) else (None, None)
            loc: tuple[str | int, ...] = ("harness_timeline", i, "patch") + ((j,) if j is not None else ())
            if j is not None and fld and isinstance(entry.patch[j], dict) and fld in entry.patch[j]:
                loc += (fld,)  # the field naming what is missing, and its line
            reason = _reason(exc) if isinstance(exc, (PatchError, FileError)) else f"{type(exc).__name__}: {exc}"
            raise FileError(scenario.source or scenario.name,
                            [(".".join(map(str, loc)), scenario.line(*loc),
                              f"at {entry.at_s:g}s, on harness {harness.name}: {reason}")]) from None
        out.append((i, entry, h))
    return out


def check_timeline(scenario: "Scenario", harness: "Harness") -> None:
    """:func:`timeline_states` for its errors only, cached per (scenario file, harness, timeline): sessions of one
    scenario check it once per process.

    Raises:
        FileError: as :func:`timeline_states`.
    """
    if not scenario.harness_timeline:
        return
    key = (scenario.source or scenario.name, harness.hash,
           json.dumps([e.model_dump(mode="json") for e in scenario.harness_timeline], sort_keys=True, default=repr))
    with _LOCK:
        got = _CACHE.get(key, _MISS)
    if got is _MISS:
        err: FileError | None = None
        try:
            timeline_states(scenario, harness)
        except FileError as exc:
            err = exc
        with _LOCK:
            _CACHE[key] = err
            while len(_CACHE) > _CACHE_MAX:
                _CACHE.popitem(last=False)
    else:
        err = got  # type: ignore[assignment]
    if err is not None:
        raise err


class CaseError(ValueError):
    """An evaluation case that cannot run; the message names the case id, the field and the reason."""


def apply_case_patch(harness: "Harness", case: dict[str, Any]) -> "Harness":
    """``harness`` with the case's ``patch`` applied.

    Raises:
        CaseError: the patch does not apply (``case X: patch.0: no tool named ...; the harness has tools: ...``).
    """
    from hat_env.harness.patch import PatchError

    patch = case.get("patch")
    if not patch:
        return harness
    if not isinstance(patch, list):
        raise CaseError(f"case {case.get('id', '?')}: patch: must be a list of operations, got {type(patch).__name__}")
    try:
        return harness.apply(patch)
    except (PatchError, FileError) as exc:
        j = exc.index if isinstance(exc, PatchError) else None
        fld = "patch" + (f".{j}" if j is not None else "")
        raise CaseError(f"case {case.get('id', '?')}: {fld}: on harness {harness.name}: {_reason(exc)}") from None


def check_case(case: dict[str, Any], harness: "Harness | str | Path | None" = None) -> list[str]:
    """What stops ``case`` from running: its scenario, its harness (``harness`` or the scenario's), its patch.

    Args:
        case: an evaluation case (see :mod:`hat_env.evaluation.suites`).
        harness: the harness it will run under (an object, a pack name or folder), or ``None`` for its scenario's.

    Returns:
        One message per problem (``case ID: FIELD: REASON``); empty when it can run.
    """
    from hat_env.envs.room import load_harness
    from hat_env.sim.scenario import load_scenario

    cid = case.get("id", "?")
    try:
        sc = load_scenario(str(case.get("scenario")))
        h = load_harness(harness, sc)
        apply_case_patch(h, case)
    except CaseError as exc:
        return [str(exc)]
    except FileError as exc:
        return [f"case {cid}: {line}" for line in str(exc).splitlines()]
    return []


def _harness_lines(harness: "Harness") -> tuple[str, dict[tuple, int]]:
    """The file a harness was loaded from and its line index (empty when it was built in code)."""
    src = harness.source
    if src and src.endswith("harness.yaml") and Path(src).is_file():
        try:
            return src, load_yaml(src)[1]
        except FileError:
            pass
    return src or harness.name, {}


def _fallback_in_room(scenario: "Scenario", harness: "Harness", where: tuple[str, int | None, str] | None,
                      rules: Any, room: Any) -> list[FileError]:
    """The fallback the room would send under ``harness`` (its locale's text) against the room's compliance rules;
    reported at the harness file (``where`` ``None``) or at a timeline entry."""
    from hat_env.harness.fallback import fallback_text

    text, key = fallback_text(harness.spec, scenario.locale)
    if rules is None:
        return []
    cats = {p.category for p in room.products}
    hits = rules.check(text, scenario.locale, cats, room=room, products=room.products)
    if not hits:
        return []
    why = (f"the fallback reply {text!r} for {scenario.locale} breaks compliance rules "
           f"{sorted({h.rule_id for h in hits})}: {hits[0].reason}")
    if where is not None:
        return [FileError(scenario.source, [(where[0], where[1], f"{where[2]}: {why}")])]
    path, lines = _harness_lines(harness)
    loc = ("constraints", "fallback_reply") + ((key,) if key else ())
    return [FileError(path, [(".".join(loc), line_of(lines, loc) if lines else None, why)])]


def check_scenario(scenario: "Scenario", harness: "Harness | str | Path | None" = None) -> list[FileError]:
    """Every check a session of ``scenario`` would meet, without running it.

    Args:
        scenario: the loaded scenario.
        harness: the harness to check it against (a ``--harness`` override: an object, pack name or folder), or
            ``None`` for the scenario's own.

    Returns:
        The problems, one :class:`~hat_env.yamlio.FileError` per file (the harness pack's files, rule packs, the
        scenario); empty when a session can start. Checked: the harness pack; the compliance rule packs; the room
        events against the room (seeded catalog included); every timeline patch in order; the fallback reply the
        room would send (its locale's text) against the room's compliance rules, under the harness and after
        each patch that changes it.
    """
    from hat_env.envs.room import load_harness, stream
    from hat_env.sim.compliance import RuleSet
    from hat_env.sim.room import RoomState
    from hat_env.sim.timeline import RoomEvents

    errors: list[FileError] = []
    try:
        h = load_harness(harness, scenario)
    except FileError as exc:
        return file_errors(exc)
    rules = None
    try:
        rules = RuleSet.for_scenario(scenario)
    except FileError as exc:
        errors += file_errors(exc)
    room = RoomState(scenario, stream(scenario.seed, "catalog"))
    try:
        RoomEvents(scenario, room)
    except FileError as exc:
        errors += file_errors(exc)
    errors += _fallback_in_room(scenario, h, None, rules, room)
    try:
        states = timeline_states(scenario, h)
    except FileError as exc:
        return errors + [exc]
    from hat_env.harness.fallback import fallback_text

    seen = fallback_text(h.spec, scenario.locale)[0]
    for i, entry, state in states:
        text = fallback_text(state.spec, scenario.locale)[0]
        if text != seen:
            seen = text
            loc = ("harness_timeline", i, "patch")
            errors += _fallback_in_room(scenario, state, (".".join(map(str, loc)), scenario.line(*loc),
                                                          f"at {entry.at_s:g}s"), rules, room)
    return errors


__all__ = ["CaseError", "apply_case_patch", "check_case", "check_scenario", "check_timeline", "timeline_states"]
