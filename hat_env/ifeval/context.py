"""The ``context`` of a Live-IFEval check: what some instructions read besides the reply.

``context`` is a dict: ``comments`` (the viewer comments of the request, oldest first: texts, or dicts with
``text`` and ``viewer``), ``prompt`` (the text ``combination:repeat_prompt`` repeats; ``comment`` is accepted too;
default: the first comment), ``viewers`` (viewer names, for ``detectable_content:mention_viewer``; default: the
``viewer`` of comment dicts), ``keep`` (strings a rewrite must leave as they are, e.g. the harness's required
disclosure). :func:`make_context` builds it.
"""

from __future__ import annotations

from typing import Any

from hat_env.ifeval.params import RepeatParams, ViewerParams


def make_context(
    comments: list[str] | None = None,
    viewers: list[str] | None = None,
    keep: list[str] | None = None,
    prompt: str | None = None,
) -> dict[str, Any]:
    """The ``context`` dict checks and rewrites read.

    Args:
        comments: the request's comment texts, oldest first.
        viewers: the names of the viewers who wrote them.
        keep: strings a rewrite must leave as they are (the required disclosure).
        prompt: the text to repeat, when it is not the first comment.
    """
    ctx: dict[str, Any] = {"comments": list(comments or []), "viewers": list(viewers or []), "keep": list(keep or [])}
    if prompt:
        ctx["prompt"] = prompt
    return ctx


def prompt_of(context: dict[str, Any] | None) -> str:
    """The text ``combination:repeat_prompt`` asks to repeat: ``context["prompt"]`` (or ``context["comment"]``),
    else the first of ``context["comments"]`` (``""`` when there is none)."""
    c = context or {}
    for key in ("prompt", "comment"):
        if c.get(key):
            return str(c[key]).strip()
    comments = c.get("comments") or []
    if not comments:
        return ""
    first = comments[0]
    return str(first.get("text", "") if isinstance(first, dict) else first).strip()


def viewer_names(p: ViewerParams, ctx: dict[str, Any]) -> list[str]:
    """The names ``detectable_content:mention_viewer`` accepts: ``p.name``, else the context's viewers (or the
    ``viewer`` of its comment dicts), non-blank."""
    if p.name:
        return [p.name]
    names = [str(v).strip() for v in ctx.get("viewers", []) or [] if str(v).strip()]
    if not names:  # comments given as dicts (suite cases, traces) carry their viewer
        names = [str(c.get("viewer") or c.get("viewer_name") or "").strip()
                 for c in ctx.get("comments", []) or [] if isinstance(c, dict)]
    return [n for n in names if n]


def repeat_target(p: RepeatParams, ctx: dict[str, Any]) -> str:
    """The text ``combination:repeat_prompt`` wants at the start of the reply."""
    return (p.prompt_to_repeat or prompt_of(ctx)).strip()


__all__ = ["make_context", "prompt_of", "repeat_target", "viewer_names"]
