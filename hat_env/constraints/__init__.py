"""One definition per constraint: the predicates the harness hooks (:mod:`hat_env.harness.hooks`) and the scorer
(:mod:`hat_env.scoring.components`) both call, so a hook and the scorer never disagree on the same reply.

- :func:`compliance_hits`: the compliance rules on a reply, with one scope (each claim checked against the
  product it is about, :mod:`~hat_env.constraints.scope`), the stateful rules of :mod:`hat_env.sim.rule_state`,
  system-prompt and tool-schema leakage (:mod:`~hat_env.constraints.leak`) and injected payloads
  (:mod:`~hat_env.constraints.echo`).
- :func:`~hat_env.constraints.limits.limits_of` and :func:`~hat_env.constraints.limits.broken`: the length
  limit (the ``max_length`` hook's ``params.chars`` included), forbidden words and required disclosures, each
  measured one way (:mod:`~hat_env.constraints.limits`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from hat_env.constraints.facts import RequestFacts
from hat_env.constraints.limits import (
    Limits,
    broken,
    disclosure_text,
    fold,
    forbidden_in,
    forbidden_list,
    length_limit,
    limits_of,
    missing_disclosures,
    too_long,
)
from hat_env.sim.rule_text import prepare

if TYPE_CHECKING:
    from hat_env.harness.hooks import HarnessView
    from hat_env.sim.compliance import RuleHit, RuleSet
    from hat_env.sim.room import RoomState
    from hat_env.types import ExecutedCall, LiveRequest


def compliance_hits(
    reply: str,
    room: "RoomState",
    rules: "RuleSet | None",
    locale: str | None = None,
    request: "LiveRequest | None" = None,
    calls: Sequence["ExecutedCall"] = (),
    harness: "HarnessView | None" = None,
) -> list["RuleHit"]:
    """The compliance rules a reply breaks: what the ``compliance`` hook denies and the ``compliance`` component
    scores 0.

    Args:
        reply: the reply as written.
        room: the room state at the request's moment.
        rules: the scenario's rule set (``None``: no rules, no hits).
        locale: the reply's locale (default: the room's).
        request: the request the reply answers (its intents name products; its comments hold injections and are
            public text), or ``None``.
        calls: the request's tool calls so far (products they returned are in scope; a coupon sent supports
            "coupon sent").
        harness: the harness of the request (its prompt, skills and tools must not leak), or ``None``.

    Returns:
        One hit per violated rule entry, in rule order; empty when the reply is compliant.
    """
    if rules is None or not reply:
        return []
    text = prepare(reply)
    loc = locale or room.locale
    facts = RequestFacts(text, room, loc, request, calls, harness)
    return rules.check(text, loc, facts.scope.categories, room=room, facts=facts)


__all__ = [
    "Limits",
    "RequestFacts",
    "broken",
    "compliance_hits",
    "disclosure_text",
    "fold",
    "forbidden_in",
    "forbidden_list",
    "length_limit",
    "limits_of",
    "missing_disclosures",
    "too_long",
]
