"""The claims engine's value types: a claim, its verdict, the clauses of a reply and the engine's report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Verdicts: the data supports the claim, contradicts it, does not say (stated as fact anyway), or the text is
#: not a claim (a question, a condition).
VERDICTS = ("true", "false", "unsupported", "not_a_claim")


@dataclass(slots=True)
class Claim:
    """One thing the reply asserts, with the engine's verdict.

    Attributes:
        product_id: the product the claim is about (``None``: a room-wide claim, an order, or no product).
        attribute: what it is about: ``price`` (with ``unit`` = the money role), ``stock``, ``availability``,
            ``shipping``, ``delivery``, ``returns``, ``exchange``, ``warranty``, ``free_shipping``, ``spec:<key>``,
            ``feature:<name>``, ``coupon``, ``flash_sale``, ``bundle``, ``gift``, ``deadline``, ``promise``,
            ``health``, ``order_status``, ``sales``, ``reviews``, ``promo_code``, ``countdown``, ``number``.
        value: the value claimed (a number in the unit's base, a word, True/False).
        unit: the unit or role (``pay``, ``coupon``, ``hours``...), ``""`` when none.
        polarity: False when the clause negates it ("not waterproof").
        span: where it is in the reply as written.
        text: the reply's words for it, as written.
        verdict: one of :data:`VERDICTS`.
        reason: why (for notes): ``"link 2: '满299减40' needs 299, price is 139"``.
        pids: every product the claim may be about (when attribution is ambiguous, any may support it).
        answers: ``(intent kind, product id or order id)`` pairs the claim answers when it is true (for a false
            claim: what it would have answered, which it then voids).
    """

    product_id: str | None
    attribute: str
    value: Any
    unit: str
    polarity: bool
    span: tuple[int, int]
    text: str
    verdict: str = "true"
    reason: str = ""
    pids: tuple[str, ...] = ()
    answers: frozenset[tuple[str, str | None]] = frozenset()

    @property
    def bad(self) -> bool:
        """The claim is false or unsupported."""
        return self.verdict in ("false", "unsupported")

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"product_id": self.product_id, "attribute": self.attribute, "value": self.value, "unit": self.unit,
                "polarity": self.polarity, "span": list(self.span), "text": self.text, "verdict": self.verdict,
                "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause of the normalised reply: its span, sentence index and whether it asks rather than states."""

    start: int
    end: int
    sentence: int
    question: bool


@dataclass(slots=True)
class Report:
    """What the engine read in one reply.

    Attributes:
        claims: every claim with its verdict, in reply order.
        honest_unknown: the reply says the data does not have something (at least once).
        unavailable: the reply says a lookup failed and it will check again.
        health_denial: the reply declines a health/medical effect ("not a medicine", "不能降血压").
        health_claim: the reply asserts a health/medical effect (unsupported by the product's data).
        ai_disclosure: the reply says the host is an AI / digital host.
        human_claim: the reply says the host is a real person.
        greeting: a greeting, thanks or apology word.
        insult: an insult word.
        dismissive: the whole reply is a brush-off ("不知道哦", "no idea").
        leak: the reply quotes the harness's tool names or instructions.
        mentioned: products the reply names, in order.
    """

    claims: list[Claim] = field(default_factory=list)
    honest_unknown: bool = False
    unavailable: bool = False
    health_denial: bool = False
    health_claim: bool = False
    ai_disclosure: bool = False
    human_claim: bool = False
    greeting: bool = False
    insult: bool = False
    dismissive: bool = False
    leak: bool = False
    mentioned: list[str] = field(default_factory=list)

    @property
    def bad(self) -> list[Claim]:
        """The false and unsupported claims."""
        return [c for c in self.claims if c.bad]

    def answered(self) -> set[tuple[str, str | None]]:
        """Every ``(intent kind, key)`` a true claim answers and no false claim contradicts (a false claim's
        ``answers`` are what it would have answered: a wrong fact voids the answer)."""
        out: set[tuple[str, str | None]] = set()
        void: set[tuple[str, str | None]] = set()
        for c in self.claims:
            if c.verdict == "true":
                out |= c.answers
            elif c.bad:
                void |= c.answers
        return out - void


__all__ = ["VERDICTS", "Claim", "Clause", "Report"]
