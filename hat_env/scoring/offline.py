"""Offline grading: score stored model outputs for an evaluation case without running a model.

``grade(case, turns)`` builds the case's session (:func:`hat_env.evaluation.runner.build_session`), feeds every
turn but the last through the request loop as a live run would (tool calls run against the room, hooks apply),
and grades the LAST turn as written: the hooks that would block or rewrite it are run and reported in ``hooks``
with ``"applied": false``, never applied. A comment without ``intents`` is parsed
(:func:`hat_env.sim.parser.parse_comment`).

The last-turn step is one small function (:func:`_finish_as_written`) written on today's request loop, so it can
be re-based on the loop's own "grade as written" mode when that lands.
"""

from __future__ import annotations

import inspect
import json
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from hat_env.sim.scenario import relative_scenario_ref
from hat_env.untrusted import json_problem, loads

if TYPE_CHECKING:
    from hat_env.envs.session import LiveSession

#: Fields of a case :func:`grade` reads (the suites' stored form).
CASE_FIELDS = ("scenario", "seed", "t", "locale", "comments", "hsa", "patch", "faults", "history")


#: How deep a ``hat-env grade`` line may nest (a case with its patches and tool-call arguments needs far less).
MAX_CASE_DEPTH = 64


class GradeError(ValueError):
    """A case or turn that cannot be graded; the message names the field and the reason."""


def _turn(turn: Any, k: int) -> Any:
    """Check one turn: a raw string, or an OpenAI assistant message dict (``content`` string or parts)."""
    if isinstance(turn, str):
        return turn
    if isinstance(turn, dict):
        content = turn.get("content")
        if isinstance(content, list):  # OpenAI content parts
            turn = {**turn, "content": "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))}
        elif content is not None and not isinstance(content, str):
            raise GradeError(f"turns[{k}].content: expected a string, got {type(content).__name__}")
        calls = turn.get("tool_calls")
        if calls is not None and not isinstance(calls, list):
            raise GradeError(f"turns[{k}].tool_calls: expected a list")
        return turn
    raise GradeError(f"turns[{k}]: expected a string or an assistant message object, got {type(turn).__name__}")


def _parse(text: str, locale: str, room: Any) -> list[dict[str, Any]]:
    """Intents of a free-text comment from the comment parser (given the room when it takes one)."""
    from hat_env.sim.parser import parse_comment

    kw: dict[str, Any] = {}
    params = inspect.signature(parse_comment).parameters
    if "catalog" in params:
        kw["catalog"] = room
    elif "room" in params:
        kw["room"] = room
    return [i.to_dict() for i in parse_comment(text, locale, **kw)]


def _check_case(case: Any) -> dict[str, Any]:
    """Check the fields grading needs; raise :class:`GradeError` naming the field."""
    if not isinstance(case, dict):
        raise GradeError(f"case: expected an object, got {type(case).__name__}")
    for k in ("scenario", "seed", "t", "comments"):
        if k not in case:
            raise GradeError(f"case.{k}: missing")
    if not isinstance(case["comments"], list) or not case["comments"]:
        raise GradeError("case.comments: expected a non-empty list")
    for i, c in enumerate(case["comments"]):
        if not isinstance(c, dict) or not isinstance(c.get("text"), str):
            raise GradeError(f"case.comments[{i}].text: missing or not a string")
        if "intents" in c and not isinstance(c["intents"], list):
            raise GradeError(f"case.comments[{i}].intents: expected a list")
        for j, it in enumerate(c.get("intents") or []):
            _check_intent(it, f"case.comments[{i}].intents[{j}]")
    try:
        t = float(case["t"])
        int(case["seed"])
    except (TypeError, ValueError, OverflowError):
        raise GradeError("case.t / case.seed: expected numbers") from None
    if not math.isfinite(t) or t < 0:
        raise GradeError(f"case.t: expected a time in seconds from the stream's start, got {case['t']!r}")
    return case


def _check_intent(intent: Any, where: str) -> None:
    """An intent as :class:`hat_env.types.Intent` takes it: an object with a string ``kind`` and known fields
    holding plain values; raise :class:`GradeError` naming ``where`` and the field."""
    from dataclasses import fields

    from hat_env.types import Intent

    if not isinstance(intent, dict):
        raise GradeError(f"{where}: expected an object, got {type(intent).__name__}")
    if not isinstance(intent.get("kind"), str):
        raise GradeError(f"{where}.kind: missing or not a string")
    known = {f.name for f in fields(Intent)}
    for k, v in intent.items():
        if k not in known:
            raise GradeError(f"{where}.{k}: not an intent field (known: {', '.join(sorted(known))})")
        if v is not None and not isinstance(v, (str, int, float)):
            raise GradeError(f"{where}.{k}: expected a string or a number, got {type(v).__name__}")


def _finish_as_written(s: "LiveSession", turn: Any) -> tuple[list[dict[str, Any]], dict[str, Any], bool]:
    """Feed the last turn as written: a reply goes out whatever the ``before_reply`` hooks say (they are run and
    reported with ``"applied": false``); a tool call or unusable output is fed as in a live run, and when the
    request is still open after it, the request ends with an empty reply. Returns the reported hook records, the
    scores, and whether the turn itself ended the request."""
    from hat_env.harness.hooks import run_hooks
    from hat_env.types import Turn

    loop = s.loop
    assert loop is not None
    t = Turn.of(turn)
    parsed = loop.harness.parse(t.text, t.tool_calls)
    if parsed.error is not None or parsed.tool_calls or parsed.reply is None:
        scores = s.feed(turn)
        if scores is not None:
            return [], scores, True
        loop = s.loop
        assert loop is not None
        loop.close("")
        return [], s._close_request(), False
    lat = loop.scenario.latency
    loop.turns += 1
    loop._spend(t.seconds if t.seconds is not None else lat.per_turn_s + len(t.text) / lat.chars_per_s)
    loop.messages.append({"role": "assistant", "content": parsed.reply})
    loop._ctx.reply = parsed.reply
    _decision, records = run_hooks(loop.harness.spec.hooks, "before_reply", loop._ctx)
    loop.close(parsed.reply)
    return [{**r, "applied": False} for r in records], s._close_request(), True


def grade_session(case: dict[str, Any], turns: list[Any]) -> tuple[dict[str, Any], "LiveSession"]:
    """:func:`grade`, also returning the session it ran (its last outcome holds the tool calls and results)."""
    from hat_env.evaluation.runner import build_session

    _check_case(case)
    if not isinstance(turns, list) or not turns:
        raise GradeError("turns: expected a non-empty list")
    parsed_turns = [_turn(t, k) for k, t in enumerate(turns)]
    probe = None
    comments = []
    for c in case["comments"]:
        if "intents" not in c:
            if probe is None:
                probe = build_session({**case, "comments": [{"text": "x", "intents": []}]})
            c = {**c, "intents": _parse(c["text"], str(case.get("locale") or probe.scenario.locale), probe.room)}
        comments.append(c)
    case = {**case, "comments": comments}
    try:
        s = build_session(case)
    except (TypeError, ValueError) as exc:
        raise GradeError(f"case: {exc}") from None
    last_hooks: list[dict[str, Any]] = []
    scores: dict[str, Any] | None = None
    done = True
    for k, turn in enumerate(parsed_turns):
        if k == len(parsed_turns) - 1:
            last_hooks, scores, done = _finish_as_written(s, turn)
        else:
            scores = s.feed(turn)
            if scores is not None:
                break  # the request ended (fallback) before the last turn
    assert scores is not None
    out = s.outcomes[-1][0]
    hooks = [dict(h) for h in out.hook_events] + last_hooks
    return {
        "composite": scores["composite"],
        "components": {k: round(v, 4) for k, v in scores["components"].items()},
        "notes": scores["notes"],
        "intents": [list(c["intents"]) for c in comments],
        "hooks": hooks,
        "request_done": done,
    }, s


def grade(case: dict[str, Any], turns: list[Any]) -> dict[str, Any]:
    """Grade stored model outputs for one evaluation case.

    Args:
        case: an evaluation case as the suites store it: ``scenario`` (name or path), ``seed``, ``t``,
            ``comments`` ``[{text, viewer?, persona?, intents?}]``, optional ``hsa``, ``patch``, ``faults``,
            ``history``. A comment without ``intents`` is parsed.
        turns: the model outputs in order; each a string (Hermes ``<tool_call>`` text or the final reply) or an
            OpenAI assistant message dict (``content``, ``tool_calls``). The last is the final reply, graded as
            written.

    Returns:
        ``{"composite", "components", "notes", "intents", "hooks", "request_done"}``: the gated composite 0-100,
        component scores, notes per component, the intents of each comment (as given or parsed), every hook
        record of the request (the last turn's with ``"applied": false``), and whether the request ended with a
        reply (False when the turns ran out first: then it is graded as an empty reply).

    Raises:
        GradeError: the case or a turn is malformed (the message names the field).
    """
    return grade_session(case, turns)[0]


def iter_grades(lines: Iterable[str], base: Path | None = None) -> Iterator[dict[str, Any]]:
    """Grade JSON Lines ``{"id"?, "case", "turns"}`` one at a time, yielding each result as soon as it is graded (a
    caller writes it at once, so a run stopped half-way keeps what it graded), in input order; blank lines are
    skipped and a bad line gives ``{"id", "line", "error"}`` (its 1-based line number) while the rest are still
    graded.

    Args:
        lines: the input's lines.
        base: the input file's folder: a case's relative ``.yaml`` scenario path that exists there is read from
            there (a set shipping its own rooms next to it, as ``hat-env calibrate`` reads them), else from the
            working directory; ``None`` (stdin) for the working directory only.
    """
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        rid: Any = None
        try:
            obj = loads(line)  # a line nested past the recursion limit is a ValueError, not a RecursionError
            problem = json_problem(obj, max_depth=MAX_CASE_DEPTH)
            if problem:
                raise GradeError(problem)
            if not isinstance(obj, dict):
                raise GradeError("expected a JSON object")
            rid = obj.get("id")
            if "case" not in obj or "turns" not in obj:
                raise GradeError("needs 'case' and 'turns'")
            case = obj["case"]
            if base is not None and isinstance(case, dict) and "scenario" in case:
                case = {**case, "scenario": relative_scenario_ref(case["scenario"], base)}
            res = grade(case, obj["turns"])
            yield {"id": rid, **res}
        except (GradeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            yield {"id": rid, "line": n, "error": f"line {n}: {exc}"}
        except (RecursionError, ArithmeticError, AttributeError, LookupError) as exc:  # a line must not end the file
            yield {"id": rid, "line": n, "error": f"line {n}: cannot be graded ({type(exc).__name__}: {exc})"}


def grade_lines(lines: list[str], base: Path | None = None) -> list[dict[str, Any]]:
    """Every result of :func:`iter_grades` (same arguments) as a list, in input order."""
    return list(iter_grades(lines, base))


__all__ = ["CASE_FIELDS", "GradeError", "grade", "grade_lines", "grade_session", "iter_grades"]
