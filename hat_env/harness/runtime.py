"""The agent loop for one live request, under the harness: parse, validate, hooks, tools, reply.

:class:`RequestLoop` is the one owner of a request's state: its messages, the tool calls made, the skills loaded,
the hook decisions, turns, retries, latency and per-turn timings. Every model output goes through
:meth:`RequestLoop.feed`. Errors of any kind (unparsable output, unknown tool, arguments that fail the schema,
a hook's denial, a tool fault) become messages to the model, never exceptions out of the loop. The loop ends with
a reply (or the harness's fallback when the turn limit or the retry budget runs out) and yields a
:class:`~hat_env.types.RequestOutcome` for scoring.
"""

from __future__ import annotations

import json
from numbers import Integral
from typing import TYPE_CHECKING, Any

from hat_env.harness.core import ArgError
from hat_env.harness.hooks import HookContext, HookDecision, run_hooks
from hat_env.harness.render import prompt_strings, render_system, render_user
from hat_env.harness.skills import skill_text
from hat_env.sim.tools import ToolError
from hat_env.types import AgentRequest, ExecutedCall, LiveRequest, ParsedOutput, RequestOutcome, ToolCall, Turn
from hat_env.untrusted import (MAX_ERROR_CHARS, MAX_OUTPUT_CHARS, MAX_TURN_S, SHOWN_CHARS, as_seconds, clean_json,
                               clean_text, describe, json_problem, seconds_problem)

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario
    from hat_env.sim.tools import ToolBackend


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


#: Fields of a turn's timing record that the loop writes itself (an agent's timings may not set them).
_OWN_FIELDS = frozenset({"turn", "turn_s", "timing_error"})


def check_timings(timings: Any, seconds_bad: bool = False) -> tuple[dict[str, Any] | None, list[str]]:
    """An agent's per-turn timing fields made safe to trace, and what was wrong with them.

    ``ttft_s`` and ``total_s`` must be durations (see :func:`hat_env.untrusted.seconds_problem`) or ``None``;
    ``prompt_tokens`` and ``completion_tokens`` integers >= 0 or ``None`` (a bad one becomes ``None``); ``error``
    a string (cut at :data:`~hat_env.untrusted.MAX_ERROR_CHARS` characters); any other field JSON data
    (dropped when not). Valid timings come back equal, in the same order.

    Args:
        timings: the turn's ``timings`` (a dict or ``None``).
        seconds_bad: the turn's own seconds were already found invalid (a bad ``total_s`` that repeats them is
            then not reported twice).

    Returns:
        ``(timings, problems)``: the fields to trace (``None`` when there are none) and one message per problem.
    """
    if timings is None:
        return None, []
    if not isinstance(timings, dict):
        return None, [f"timings must be a dict, got {describe(timings)}"]
    out: dict[str, Any] = {}
    bad: list[str] = []
    for k, v in timings.items():
        if type(k) is not str:
            bad.append(f"timings: the key {describe(k)} is not a string")
        elif k in _OWN_FIELDS:
            bad.append(f"timings.{k} is written by the env, not the agent")
        elif k in ("ttft_s", "total_s"):
            why = None if v is None else seconds_problem(v, f"timings.{k}")
            out[k] = None if v is None or why else as_seconds(v)
            if why and not (k == "total_s" and seconds_bad):
                bad.append(why)
        elif k in ("prompt_tokens", "completion_tokens"):
            ok = v is None or (isinstance(v, Integral) and not isinstance(v, bool) and v >= 0)
            out[k] = (v if type(v) is int or v is None else int(v)) if ok else None
            if not ok:
                bad.append(f"timings.{k} must be a whole number >= 0, got {describe(v)}")
        elif k == "error":
            out[k] = clean_text(v)[:MAX_ERROR_CHARS] if isinstance(v, str) else describe(v)
        else:
            why = json_problem(v)
            if why is None:
                out[k] = clean_json(v)
            else:
                bad.append(f"timings.{k}: {why}")
    return out or None, bad


class RequestLoop:
    """Handles one request from arrival to reply.

    Args:
        harness: the harness in force for this request.
        scenario: the scenario (room names, latency model, fault timeout).
        room: the room state.
        backend: the tool backend.
        rules: the compliance rule set (for the ``compliance`` hook), or ``None``.
        request: the merged request.
        history: earlier user/assistant message pairs to show (already trimmed).

    Attributes:
        messages: the conversation the agent reads (system, history, the user message, then every turn). Read it;
            do not change it (agents receive it uncopied, see :meth:`agent_request`).
        calls: every tool call so far, in order, ``load_skill`` included.
        skills_loaded: names of the skills loaded so far, in order, each once.
        hook_events: ``{"event", "check", "decision", "reason"}`` of every hook that denied or added a note.
        timings: one record per model turn for the trace: ``{"turn", ...the turn's timings, "turn_s"}``.
        turns: model outputs fed so far.
        retries: replies blocked by a hook so far.
        latency_s: time from the request to now: model turns plus tool time, seconds.
        reply: the reply that went out, ``None`` until the request is finished.
        fallback: the reply is the harness's fallback (turn limit or retry budget exhausted).
        done: the request is finished.
    """

    def __init__(
        self,
        harness: "Harness",
        scenario: "Scenario",
        room: "RoomState",
        backend: "ToolBackend",
        rules: Any,
        request: LiveRequest,
        history: list[dict[str, Any]],
    ):
        self.harness = harness
        self.scenario = scenario
        self.room = room
        self.backend = backend
        self.rules = rules
        self.request = request
        self.calls: list[ExecutedCall] = []
        self.skills_loaded: list[str] = []
        self.hook_events: list[dict[str, Any]] = []
        self.timings: list[dict[str, Any]] = []
        self.turns = 0
        self.retries = 0
        self.latency_s = 0.0
        self.reply: str | None = None
        self.fallback = False
        self.done = False
        self._outcome: RequestOutcome | None = None
        # what the hook checks read: the request's own call and skill lists, which only the loop appends to
        self._ctx = HookContext(harness, room, rules, scenario.locale, request, skills_loaded=self.skills_loaded,
                                calls=self.calls)
        decision = self._hooks("request_received")
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": render_system(harness, room, scenario.room)},
            *history,
            {"role": "user", "content": render_user(request, decision.note,
                                                    prompt_strings(harness, scenario.locale).user_header)},
        ]
        self._user = len(self.messages) - 1

    # -- what the agent sees -------------------------------------------------------------------------------
    @property
    def user_message(self) -> dict[str, Any]:
        """The rendered user message of this request (the merged comments and any hook note)."""
        return self.messages[self._user]

    def turn_messages(self) -> list[dict[str, Any]]:
        """Messages added during this request (the user message onwards), as a new list."""
        return self.messages[self._user :]

    def agent_request(self) -> AgentRequest:
        """The next turn's input for an agent (messages are shared, not copied: do not mutate them)."""
        return AgentRequest(
            messages=self.messages,
            tools=self.harness.openai_tools,
            harness=self.harness,
            locale=self.scenario.locale,
            request_id=self.request.request_id,
            turn=self.turns,
            vocabulary=self.scenario.vocab,
        )

    @property
    def outcome(self) -> RequestOutcome:
        """What happened, for scoring: the reply, calls, skills, turns, retries, latency, hook decisions.

        Raises:
            RuntimeError: the request is not finished yet.
        """
        if self._outcome is None:
            raise RuntimeError("the request is not finished: feed it until feed() returns True")
        return self._outcome

    # -- one model output ----------------------------------------------------------------------------------
    def feed(self, action: Any) -> bool:
        """Feed one model output.

        Args:
            action: a :class:`~hat_env.types.Turn`, or anything :meth:`Turn.of <hat_env.types.Turn.of>` takes (the
                raw output string, an OpenAI assistant message dict, an :class:`~hat_env.types.AgentResponse`).
                A turn without ``seconds`` takes the scenario's latency model.

        Nothing in ``action`` makes this raise: an action that cannot be read (a ``content`` or ``tool_calls`` of
        the wrong type or shape, arguments nested deeper than :data:`~hat_env.untrusted.MAX_JSON_DEPTH` levels or
        holding NaN) is unreadable output, fed back to the model as ``[harness]`` feedback like any parse error;
        seconds that are not a duration are charged as the scenario's ``latency_max_s`` and traced as a
        ``timing_error`` (see :meth:`_turn_seconds`); lone surrogates in text become U+FFFD.

        Returns:
            ``True`` when the request is finished (a reply or the fallback went out); :attr:`outcome` then holds
            the result.

        Raises:
            RuntimeError: the request is already finished.
        """
        if self.done:
            raise RuntimeError("this request is finished")
        turn = action if type(action) is Turn else Turn.of(action)
        text = turn.text
        error = turn.error
        if not isinstance(text, str):
            error = error or f"the output must be a string, got {describe(text)}"
            text = ""
        elif len(text) > MAX_OUTPUT_CHARS:
            error = error or f"the output is {len(text):,} characters long, over the limit of {MAX_OUTPUT_CHARS:,}"
            text = clean_text(text[:SHOWN_CHARS]) + f" ... [{len(text) - SHOWN_CHARS:,} more characters not read]"
        else:
            text = clean_text(text)
        self.turns += 1
        self._turn_seconds(turn, text)
        parsed = ParsedOutput(error=error) if error is not None else self.harness.parse(text, turn.tool_calls)
        if parsed.error is not None:
            self.messages.append({"role": "assistant", "content": text})
            self._feedback(self._ctx.feedback("bad_output", error=parsed.error))
        elif parsed.tool_calls:
            n = self.turns
            calls: list[dict[str, Any]] = [
                {
                    "id": tc.call_id or f"call_{n}_{i}",
                    "type": "function",
                    "function": {"name": tc.name, "arguments": _dumps(tc.arguments)},
                }
                for i, tc in enumerate(parsed.tool_calls)
            ]
            self.messages.append({"role": "assistant", "content": "", "tool_calls": calls})
            for tc, call in zip(parsed.tool_calls, calls):
                self._run_tool(tc, call["id"])
        else:
            assert parsed.reply is not None
            self.messages.append({"role": "assistant", "content": parsed.reply})
            if self._try_reply(parsed.reply):
                return True
        if self.turns >= self.harness.spec.constraints.turn_limit:
            self._fallback("turn_limit")
            return True
        return False

    def step(self, text: str, tool_calls: list[dict[str, Any]] | None = None, turn_seconds: float | None = None) -> bool:
        """:meth:`feed` with the turn's parts as arguments (``text``, structured ``tool_calls``, ``turn_seconds``)."""
        return self.feed(Turn(text, tool_calls, turn_seconds))

    def close(self, reply: str) -> RequestOutcome:
        """End the request now with ``reply`` going out as it stands (no hook runs), for drivers that have no turn
        left to retry in (an RL rollout whose last reply a hook blocked). The turns already fed count as they are.

        Returns:
            The outcome (as :attr:`outcome`).
        """
        self._finish(reply, fallback=False)
        return self.outcome

    # -- internals -----------------------------------------------------------------------------------------
    def _turn_seconds(self, turn: Turn, text: str) -> float | int:
        """Record turn :attr:`turns`' timings and charge its time; returns the seconds charged.

        ``None`` takes the scenario's latency model. A value that is not a duration (see
        :func:`hat_env.untrusted.seconds_problem`: not a number, NaN, negative, infinite, over a day) is charged
        as the scenario's ``latency_max_s`` (the latency that scores 0: a scored failure, never NaN in a score)
        and the record says why (``timing_error``). Bad timing fields are dropped or nulled the same way
        (:func:`check_timings`).
        """
        seconds = turn.seconds
        why = None if seconds is None else seconds_problem(seconds)
        timings, problems = check_timings(turn.timings, seconds_bad=why is not None)
        record: dict[str, Any] = {"turn": self.turns, **(timings or {})}
        if why is not None:
            charged = self.scenario.scoring.latency_max_s
            problems.insert(0, f"{why}: charged {charged:g} s, the scenario's latency_max_s")
            seconds = charged
        elif seconds is not None:
            seconds = as_seconds(seconds)
        record["turn_s"] = seconds
        if problems:
            record["timing_error"] = "; ".join(problems)
        self.timings.append(record)
        if seconds is None:
            lat = self.scenario.latency
            seconds = lat.per_turn_s + len(text) / lat.chars_per_s
        self._spend(seconds)
        return seconds

    def _spend(self, seconds: float) -> None:
        """Add time to the request's latency (the one place latency grows). A value that is not a duration
        (NaN, negative, infinite, not a number: a caller that skipped :meth:`feed`'s checks) is charged as the
        scenario's ``latency_max_s``."""
        if not (type(seconds) in (int, float) and 0 <= seconds <= MAX_TURN_S):
            seconds = self.scenario.scoring.latency_max_s
        self.latency_s += seconds

    def _hooks(self, event: str, tool_name: str | None = None) -> HookDecision:
        """Run the harness's hooks of ``event``; their records go to :attr:`hook_events`."""
        decision, records = run_hooks(self.harness.spec.hooks, event, self._ctx, tool_name=tool_name)
        self.hook_events.extend(records)
        return decision

    def _feedback(self, text: str) -> None:
        self.messages.append({"role": "user", "content": f"[harness] {text}"})

    def _tool_message(self, call_id: str, name: str, content: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call_id, "name": name, "content": content})

    def _reject(self, call_id: str, call: ExecutedCall) -> None:
        """Record a call that never reached the backend and answer it with its error."""
        self.calls.append(call)
        self._tool_message(call_id, call.name, _dumps({"error": call.error}))

    def _run_tool(self, tc: ToolCall, call_id: str) -> None:
        h = self.harness
        st = h.spec.skill_tool
        if tc.name == st.name:
            self._load_skill(tc, call_id)
            return
        tool = h.tools_by_name.get(tc.name)
        if tool is None:
            err = self._ctx.feedback("unknown_tool", name=tc.name, tools=", ".join(h.tools_by_name) + f", {st.name}")
            self._reject(call_id, ExecutedCall(tc.name, None, {}, False, error=err))
            return
        if not isinstance(tc.arguments, dict):
            err = f"the arguments of {tc.name} must be a JSON object"
            self._reject(call_id, ExecutedCall(tc.name, tool.op, {}, False, error=err))
            return
        try:
            args = h.decode_args(tool, tc.arguments)
        except ArgError as exc:
            err = self._ctx.feedback("bad_args", error=str(exc))
            self._reject(call_id, ExecutedCall(tc.name, tool.op, {}, False, error=err))
            return
        if tool.op is None:
            self._reject(call_id, ExecutedCall(tc.name, None, args, True, error=f"{tc.name} is not available in this room"))
            return
        ctx = self._ctx
        ctx.tool, ctx.args = tool, args
        decision = self._hooks("before_tool", tool.name)
        if decision.decision == "deny":
            self._reject(call_id, ExecutedCall(tc.name, tool.op, args, False, error=decision.reason))
            return
        call = ExecutedCall(tc.name, tool.op, args, True)
        fault = self.backend.draw_fault()
        sc = self.scenario
        self._spend(sc.faults.timeout_s if fault == "timeout" else sc.latency.tool_s)
        content: str
        if fault == "timeout":
            call.fault = fault
            content = _dumps({"error": "timeout: the service did not answer in time"})
        elif fault == "permission_denied":
            call.fault = fault
            content = _dumps({"error": "permission denied"})
        else:
            try:
                result = self.backend.execute(tool.op, args)
            except ToolError as exc:
                call.error = str(exc)
                content = _dumps({"error": str(exc)})
            except (TypeError, ValueError, OverflowError) as exc:  # arguments the schema let through
                call.error = f"bad arguments: {exc}"
                content = _dumps({"error": call.error})
            else:
                if fault == "malformed":
                    call.fault = fault
                    full = _dumps(h.encode_result(tool, result))
                    content = full[: max(1, len(full) // 2)]
                else:
                    call.ok = True
                    call.result = result
                    content = _dumps(h.encode_result(tool, result))
        self.calls.append(call)
        ctx.call = call
        decision = self._hooks("after_tool", tool.name)
        if decision.note:
            content = content + "\n" + decision.note
        self._tool_message(call_id, tc.name, content)

    def _load_skill(self, tc: ToolCall, call_id: str) -> None:
        h = self.harness
        st = h.spec.skill_tool
        name = tc.arguments.get(st.param) if isinstance(tc.arguments, dict) else None
        skill = h.skills_by_name.get(name) if isinstance(name, str) else None
        if skill is None:
            err = f"no skill named {name!r}; skills: {', '.join(h.skills_by_name)}"
            self._reject(call_id, ExecutedCall(tc.name, "load_skill", {"name": name}, False, error=err))
            return
        self.calls.append(ExecutedCall(tc.name, "load_skill", {"name": skill.name}, True, ok=True))
        if skill.name not in self.skills_loaded:
            self.skills_loaded.append(skill.name)
        self._tool_message(call_id, tc.name, f"# {skill.name}\n{skill_text(skill.body, self.scenario.locale)}")

    def _try_reply(self, reply: str) -> bool:
        """Run the reply hooks on ``reply``: it goes out (``True``), or a hook blocks it and the model retries
        (``False``), or the retry budget is spent and the fallback goes out (``True``)."""
        self._ctx.reply = reply
        decision = self._hooks("before_reply")
        if decision.decision == "deny":
            self.retries += 1
            if self.retries > self.harness.spec.constraints.max_retries:
                self._fallback("retry_budget")
                return True
            self._feedback(decision.reason)
            return False
        self._finish(reply, fallback=False)
        return True

    def _fallback(self, why: str) -> None:
        c = self.harness.spec.constraints
        text = c.fallback(self.scenario.locale)
        self.hook_events.append({"event": "before_reply", "check": why, "decision": "fallback", "reason": why})
        self.messages.append({"role": "assistant", "content": text})
        self._finish(text, fallback=True)

    def _finish(self, reply: str, fallback: bool) -> None:
        self.reply = reply
        self.fallback = fallback
        self.done = True
        self._outcome = RequestOutcome(
            request=self.request, reply=reply, calls=self.calls, skills_loaded=self.skills_loaded, turns=self.turns,
            retries=self.retries, latency_s=self.latency_s, hook_events=self.hook_events, fallback=fallback,
            timings=self.timings,
        )
