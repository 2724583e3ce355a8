"""Scoring of one reply: gold needs and facts, the claims engine, rubric components, the gated composite score,
and offline grading (:func:`grade`).

See :mod:`hat_env.scoring.gold` (what a request needs and what a good reply says),
:mod:`hat_env.scoring.components` (the named components) and :mod:`hat_env.scoring.rubric` (weights, gates).
"""

from hat_env.scoring.components import (
    BUILTIN_COMPONENTS,
    INVALID_PENALTY,
    NEEDLESS_PENALTY,
    Component,
    NumberClaim,
    ScoringContext,
    accuracy,
    claims_report,
    compliance,
    constraints,
    effectiveness,
    latency,
    number_claims,
    skill_selection,
    tool_rationality,
)
from hat_env.scoring.claims import Claim, Report, read_claims
from hat_env.scoring.gold import (
    ANY,
    GREETING_WORDS,
    INSULT_WORDS,
    AbsentFact,
    AnyOfFact,
    Fact,
    Need,
    NumberFact,
    PoliteFact,
    need_of_call,
    needs_for,
    needs_for_request,
    parse_numbers,
    reply_skill_for,
    required_facts,
    satisfies,
)
from hat_env.scoring.rubric import COMPLIANCE_CAP, DEFAULT_GATES, DEFAULT_WEIGHTS, Gates, Rubric, Scores


def grade(case: dict, turns: list) -> dict:
    """Grade stored model outputs for one evaluation case offline (see :func:`hat_env.scoring.offline.grade`):
    the turns are fed in order and the last is graded as written. Returns ``{"composite", "components",
    "notes", "intents", "hooks", "request_done"}``."""
    from hat_env.scoring.offline import grade as _grade

    return _grade(case, turns)


__all__ = [
    "ANY",
    "BUILTIN_COMPONENTS",
    "COMPLIANCE_CAP",
    "DEFAULT_GATES",
    "DEFAULT_WEIGHTS",
    "GREETING_WORDS",
    "INSULT_WORDS",
    "INVALID_PENALTY",
    "NEEDLESS_PENALTY",
    "AbsentFact",
    "AnyOfFact",
    "Claim",
    "Component",
    "NumberClaim",
    "Report",
    "Fact",
    "Gates",
    "Need",
    "NumberFact",
    "PoliteFact",
    "Rubric",
    "Scores",
    "ScoringContext",
    "accuracy",
    "compliance",
    "constraints",
    "effectiveness",
    "grade",
    "claims_report",
    "latency",
    "need_of_call",
    "needs_for",
    "needs_for_request",
    "number_claims",
    "parse_numbers",
    "reply_skill_for",
    "required_facts",
    "satisfies",
    "skill_selection",
    "read_claims",
    "tool_rationality",
]
