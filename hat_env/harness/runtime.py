"""The agent loop for one live request, under the harness: parse, validate, hooks, tools, reply.

Every model output goes through :meth:`RequestLoop.step`. Errors of any kind (unparsable output, unknown tool,
arguments that fail the schema, a hook's denial, a tool fault) become messages to the model, never exceptions
out of the loop. The loop ends with a reply (or the harness's fallback when the turn limit or the retry
budget runs out) and yields a :class:`~hat_env.types.RequestOutcome` for scoring.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from hat_env.harness.core import ArgError
from hat_env.harness.hooks import HookContext, run_hooks
from hat_env.harness.render import render_system, render_user
from hat_env.sim.tools import ToolError
from hat_env.types import AgentRequest, ExecutedCall, LiveRequest, RequestOutcome, ToolCall

if TYPE_CHECKING:
    from hat_env.harness.core import Harness
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import Scenario
    from hat_env.sim.tools import ToolBackend


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


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
        self.request = request
        self.ctx = HookContext(harness, room, rules, scenario.locale, request, [], [])
        self.outcome = RequestOutcome(request=request, reply="")
        self.done = False
        decision, records = run_hooks(harness.spec.hooks, "request_received", self.ctx)
        self.outcome.hook_events.extend(records)
        self.messages: list[dict[str, Any]] = [
            {"role": "system", "content": render_system(harness, room, scenario.room)},
            *history,
            {"role": "user", "content": render_user(request, decision.note)},
        ]
        self._n_start = len(self.messages)

    # -- what the agent sees -------------------------------------------------------------------------------
    def agent_request(self) -> AgentRequest:
        """The next turn's input for an agent (messages are shared, not copied: do not mutate them)."""
        return AgentRequest(
            messages=self.messages,
            tools=self.harness.openai_tools,
            harness=self.harness,
            locale=self.scenario.locale,
            request_id=self.request.request_id,
            turn=self.outcome.turns,
        )

    def turn_messages(self) -> list[dict[str, Any]]:
        """Messages added during this request (the user message onwards)."""
        return self.messages[self._n_start - 1 :]

    # -- one model output ----------------------------------------------------------------------------------
    def step(self, text: str, tool_calls: list[dict[str, Any]] | None = None, turn_seconds: float | None = None) -> bool:
        """Feed one raw model output.

        Args:
            text: the raw output text.
            tool_calls: structured OpenAI tool calls, if the backend returned them.
            turn_seconds: how long the model took; ``None`` uses the scenario's latency model.

        Returns:
            ``True`` when the request is finished (a reply or the fallback went out).
        """
        if self.done:
            raise RuntimeError("this request is finished")
        out = self.outcome
        out.turns += 1
        lat = self.scenario.latency
        if turn_seconds is None:
            turn_seconds = lat.per_turn_s + len(text or "") / lat.chars_per_s
        out.latency_s += turn_seconds
        parsed = self.harness.parse(text, tool_calls)
        if parsed.error is not None:
            self.messages.append({"role": "assistant", "content": text if isinstance(text, str) else str(text)})
            self._feedback(self.ctx.feedback("bad_output", error=parsed.error))
        elif parsed.tool_calls:
            self.messages.append(
                {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {
                            "id": tc.call_id or f"call_{out.turns}_{i}",
                            "type": "function",
                            "function": {"name": tc.name, "arguments": _dumps(tc.arguments)},
                        }
                        for i, tc in enumerate(parsed.tool_calls)
                    ],
                }
            )
            ids = [c["id"] for c in self.messages[-1]["tool_calls"]]
            for tc, cid in zip(parsed.tool_calls, ids):
                self._run_tool(tc, cid)
        else:
            assert parsed.reply is not None
            self.messages.append({"role": "assistant", "content": parsed.reply})
            if self._try_reply(parsed.reply):
                return True
        if out.turns >= self.harness.spec.constraints.turn_limit:
            self._fallback("turn_limit")
            return True
        return False

    def _feedback(self, text: str) -> None:
        self.messages.append({"role": "user", "content": f"[harness] {text}"})

    def _tool_message(self, call_id: str, name: str, content: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call_id, "name": name, "content": content})

    def _run_tool(self, tc: ToolCall, call_id: str) -> None:
        h = self.harness
        ctx = self.ctx
        st = h.spec.skill_tool
        if tc.name == st.name:
            self._load_skill(tc, call_id)
            return
        tool = h.tools_by_name.get(tc.name)
        if tool is None:
            err = ctx.feedback("unknown_tool", name=tc.name, tools=", ".join(h.tools_by_name) + f", {st.name}")
            ctx.calls.append(ExecutedCall(tc.name, None, {}, False, error=err))
            self._tool_message(call_id, tc.name, _dumps({"error": err}))
            return
        if not isinstance(tc.arguments, dict):
            err = f"the arguments of {tc.name} must be a JSON object"
            ctx.calls.append(ExecutedCall(tc.name, tool.op, {}, False, error=err))
            self._tool_message(call_id, tc.name, _dumps({"error": err}))
            return
        try:
            args = h.decode_args(tool, tc.arguments)
        except ArgError as exc:
            err = ctx.feedback("bad_args", error=str(exc))
            ctx.calls.append(ExecutedCall(tc.name, tool.op, {}, False, error=err))
            self._tool_message(call_id, tc.name, _dumps({"error": err}))
            return
        if tool.op is None:
            err = f"{tc.name} is not available in this room"
            ctx.calls.append(ExecutedCall(tc.name, None, args, True, error=err))
            self._tool_message(call_id, tc.name, _dumps({"error": err}))
            return
        ctx.tool, ctx.args = tool, args
        decision, records = run_hooks(h.spec.hooks, "before_tool", ctx, tool_name=tool.name)
        self.outcome.hook_events.extend(records)
        if decision.decision == "deny":
            ctx.calls.append(ExecutedCall(tc.name, tool.op, args, False, error=decision.reason))
            self._tool_message(call_id, tc.name, _dumps({"error": decision.reason}))
            return
        call = ExecutedCall(tc.name, tool.op, args, True)
        fault = self.backend.draw_fault()
        sc = self.scenario
        self.outcome.latency_s += sc.faults.timeout_s if fault == "timeout" else sc.latency.tool_s
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
            except TypeError as exc:
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
        ctx.calls.append(call)
        ctx.call = call
        decision, records = run_hooks(h.spec.hooks, "after_tool", ctx, tool_name=tool.name)
        self.outcome.hook_events.extend(records)
        if decision.note:
            content = content + "\n" + decision.note
        self._tool_message(call_id, tc.name, content)

    def _load_skill(self, tc: ToolCall, call_id: str) -> None:
        h, ctx = self.harness, self.ctx
        st = h.spec.skill_tool
        name = tc.arguments.get(st.param) if isinstance(tc.arguments, dict) else None
        skill = h.skills_by_name.get(name) if isinstance(name, str) else None
        if skill is None:
            err = f"no skill named {name!r}; skills: {', '.join(h.skills_by_name)}"
            ctx.calls.append(ExecutedCall(tc.name, "load_skill", {"name": name}, False, error=err))
            self._tool_message(call_id, tc.name, _dumps({"error": err}))
            return
        ctx.calls.append(ExecutedCall(tc.name, "load_skill", {"name": skill.name}, True, ok=True))
        if skill.name not in ctx.skills_loaded:
            ctx.skills_loaded.append(skill.name)
        self._tool_message(call_id, tc.name, f"# {skill.name}\n{skill.body}")

    def _try_reply(self, reply: str) -> bool:
        ctx, out = self.ctx, self.outcome
        ctx.reply = reply
        decision, records = run_hooks(self.harness.spec.hooks, "before_reply", ctx)
        out.hook_events.extend(records)
        if decision.decision == "deny":
            out.retries += 1
            if out.retries > self.harness.spec.constraints.max_retries:
                self._fallback("retry_budget")
                return True
            self._feedback(decision.reason)
            return False
        self._finish(reply, fallback=False)
        return True

    def _fallback(self, why: str) -> None:
        c = self.harness.spec.constraints
        text = c.fallback_reply.get(self.scenario.locale) or c.fallback_reply.get("default") or "..."
        self.outcome.hook_events.append({"event": "before_reply", "check": why, "decision": "fallback", "reason": why})
        self.messages.append({"role": "assistant", "content": text})
        self._finish(text, fallback=True)

    def _finish(self, reply: str, fallback: bool) -> None:
        out = self.outcome
        out.reply = reply
        out.fallback = fallback
        out.calls = self.ctx.calls
        out.skills_loaded = self.ctx.skills_loaded
        self.done = True
