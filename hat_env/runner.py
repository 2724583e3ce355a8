"""Run a whole live session with an agent: the engine behind ``hat-env run``.

Each request goes turn by turn through the agent; agent failures (a dead endpoint, a timeout) are recorded as
errors on the turn and fed back as empty output, so the session goes on (or stops with ``on_error="stop"``)
and nothing finished is lost: the trace is appended and flushed per request.
"""

from __future__ import annotations

import json
import weakref
from pathlib import Path
from typing import Any, Callable

from hat_env.agents.base import call_agent
from hat_env.envs.session import LiveSession
from hat_env.types import AgentResponse


#: The turn messages of the request :func:`run_session` finished last, per session: what :func:`print_request`
#: reads the arguments as the model wrote them from (the outcome keeps only the decoded ones).
_LAST_MESSAGES: "weakref.WeakKeyDictionary[LiveSession, list[dict[str, Any]]]" = weakref.WeakKeyDictionary()


class AgentFailed(RuntimeError):
    """The agent failed and the run was configured to stop on errors."""


def run_session(
    session: LiveSession,
    agent: Any,
    on_request: Callable[[LiveSession, dict[str, Any]], None] | None = None,
    on_error: str = "continue",
) -> dict[str, Any]:
    """Drive ``session`` with ``agent`` until the stream ends.

    Args:
        session: a fresh :class:`LiveSession`.
        agent: anything :func:`hat_env.agents.call_agent` accepts.
        on_request: called after each finished request with the session and the request's scores.
        on_error: ``"continue"`` (record the failure, go on) or ``"stop"`` (raise :class:`AgentFailed`).

    Returns:
        The session summary (see :meth:`LiveSession.summary`).
    """
    try:
        while session.next_request():
            loop = session.loop
            assert loop is not None
            scores = None
            while scores is None:
                try:
                    resp = call_agent(agent, loop.agent_request())
                except Exception as exc:  # a plug-in's bug must not lose the session
                    resp = AgentResponse(error=f"{type(exc).__name__}: {exc}")
                if resp.error and on_error == "stop":
                    raise AgentFailed(resp.error)
                scores = session.feed(resp)
            _LAST_MESSAGES[session] = loop.turn_messages()
            if on_request is not None:
                on_request(session, scores)
    finally:
        summary = session.finish()
    return summary


def print_request(console: Any, session: LiveSession, messages: list[dict[str, Any]] | None = None) -> None:
    """Print the last finished request as a transcript block (comments, calls, hooks, reply, score).

    Each call shows its arguments as the model wrote them (under HSA ``{"position":5}``, not the backend's
    ``{"link": 5}``), from ``messages`` (the request's turn messages; default: those :func:`run_session` kept);
    without them, the decoded arguments, marked ``decoded``.
    """
    from hat_env.view.steps import written_calls

    out, comp, composite = session.outcomes[-1]
    req = out.request
    msgs = messages if messages is not None else _LAST_MESSAGES.get(session)
    written = written_calls(msgs) if msgs else []
    for c in req.comments:
        console.print(f"[dim]{req.t:7.1f}s[/dim] [bold]{c.viewer_name}[/bold] [dim]({c.persona})[/dim]: {_esc(c.text)}")
    for i, call in enumerate(out.calls):
        mark = "[green]ok[/green]" if call.ok else f"[red]{call.fault or 'error'}[/red]"
        args = written[i][1] if i < len(written) else "decoded " + json.dumps(call.args, ensure_ascii=False)
        console.print(f"          [cyan]-> {call.name}[/cyan] {_esc(args)} {mark}")
    for ev in out.hook_events:
        if ev["decision"] != "allow":
            console.print(f"          [yellow]hook {ev['check']}: {ev['decision']}[/yellow] {_esc(ev['reason'])[:120]}")
    style = "red" if out.fallback else "green"
    console.print(f"          [{style}]host:[/{style}] {_esc(out.reply)}  [dim]score {composite:.0f}[/dim]")


def _esc(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def print_summary(console: Any, summary: dict[str, Any]) -> None:
    """Print the score table per component."""
    from rich.table import Table

    t = Table(title=f"{summary['scenario']} (seed {summary['seed']}): score {summary['score']:.2f} / 100")
    t.add_column("component")
    t.add_column("mean", justify="right")
    for k, v in summary["components"].items():
        t.add_row(k, f"{v:.3f}")
    t.add_row("[bold]composite[/bold]", f"[bold]{summary['score']:.2f}[/bold]")
    console.print(t)
    console.print(
        f"requests {summary['requests']}, fallbacks {summary['fallbacks']}, purchases {summary['purchases']}, "
        f"GMV {summary['gmv']}, latency P50 {summary['latency_p50_s']} s / P95 {summary['latency_p95_s']} s"
    )


def default_trace_path(scenario: str, seed: int) -> Path:
    """``runs/SCENARIO-seedN.jsonl``."""
    return Path("runs") / f"{Path(scenario).stem}-seed{seed}.jsonl"
