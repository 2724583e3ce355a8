"""Run a whole live session with an agent: the engine behind ``hat-env run``.

Each request goes turn by turn through the agent; agent failures (a dead endpoint, a timeout) are recorded as
errors on the turn and fed back as empty output, so the session goes on (or stops with ``on_error="stop"``)
and nothing finished is lost: the trace is appended and flushed per request.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from hat_env.agents.base import call_agent
from hat_env.envs.session import LiveSession
from hat_env.types import AgentResponse


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
            if on_request is not None:
                on_request(session, scores)
    finally:
        summary = session.finish()
    return summary


def print_request(console: Any, session: LiveSession) -> None:
    """Print the last finished request as a transcript block (comments, calls, hooks, reply, score)."""
    out, comp, composite = session.outcomes[-1]
    req = out.request
    for c in req.comments:
        console.print(f"[dim]{req.t:7.1f}s[/dim] [bold]{c.viewer_name}[/bold] [dim]({c.persona})[/dim]: {_esc(c.text)}")
    for call in out.calls:
        mark = "[green]ok[/green]" if call.ok else f"[red]{call.fault or 'error'}[/red]"
        console.print(f"          [cyan]-> {call.name}[/cyan] {_esc(str(call.args))} {mark}")
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
