"""The Rubric: a weighted set of named components (verifiers-style) and a gated composite score 0-100.

The composite is ``100 * sum(w_i * c_i) / sum(w_i)`` over the components with a positive weight, rounded to two
decimals, with two gates:

- **A false or useless reply earns nothing.** When ``accuracy`` is 0 (the reply states something false) or
  ``effectiveness`` is 0 (it answers nothing the viewers asked), the composite is 0, whatever the tools, skills
  and latency were. This mirrors tau-bench's all-or-nothing reward: a fluent, fast, well-tooled wrong answer is
  still a wrong answer to the viewer.
- **A compliance violation caps the composite at 50**: a correct reply that breaks advertising law cannot be a
  good reply.

Components are registered by name (:meth:`Rubric.register`); each score is in ``[0, 1]``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from hat_env.scoring.components import BUILTIN_COMPONENTS, Component, ScoringContext

#: Default composite weights (they sum to 1).
DEFAULT_WEIGHTS: dict[str, float] = {
    "accuracy": 0.30,
    "effectiveness": 0.25,
    "tool_rationality": 0.15,
    "skill_selection": 0.10,
    "compliance": 0.10,
    "constraints": 0.05,
    "latency": 0.05,
}

#: Composite cap (0-100) when the ``compliance`` component is below 1.
COMPLIANCE_CAP = 50.0


@dataclass(slots=True)
class Scores:
    """The scores of one reply.

    Attributes:
        components: component name -> score in ``[0, 1]``, in registration order.
        composite: the gated weighted score, 0-100, two decimals.
        failed: names of the components below full marks.
        notes: component name -> reasons recorded while scoring (what was wrong).
        gated: why the composite was zeroed or capped (``"accuracy"``, ``"effectiveness"``, ``"compliance"``),
            or ``None``.
    """

    components: dict[str, float]
    composite: float
    failed: list[str] = field(default_factory=list)
    notes: dict[str, list[str]] = field(default_factory=dict)
    gated: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (component scores rounded to 4 decimals)."""
        return {
            "components": {k: round(v, 4) for k, v in self.components.items()},
            "composite": self.composite,
            "failed": list(self.failed),
            "notes": {k: list(v) for k, v in self.notes.items()},
            "gated": self.gated,
        }


class Rubric:
    """Weighted, gated scoring of one reply.

    Args:
        weights: component name -> weight; missing built-in components keep :data:`DEFAULT_WEIGHTS`, registered
            extra components default to 0 (scored and reported, not weighted). Negative weights are refused.
        gate: apply the accuracy/effectiveness zero gate and the compliance cap (True by default).

    Example::

        rubric = Rubric({"latency": 0.0})
        scores = rubric.score(ScoringContext(outcome=outcome, room=room, rules=rules))
        scores.composite  # 0-100
    """

    _registry: ClassVar[dict[str, Component]] = dict(BUILTIN_COMPONENTS)

    def __init__(self, weights: dict[str, float] | None = None, gate: bool = True):
        w = dict(DEFAULT_WEIGHTS)
        for k, v in (weights or {}).items():
            if v < 0:
                raise ValueError(f"weight of {k!r} is negative: {v}")
            if k not in self._registry:
                raise ValueError(f"unknown rubric component {k!r}; known: {', '.join(self._registry)}")
            w[k] = float(v)
        self.weights = w
        self.gate = gate

    @classmethod
    def register(cls, name: str, fn: Component) -> None:
        """Add (or replace) a component for every Rubric: ``fn(ctx: ScoringContext) -> float in [0, 1]``.

        Give it a weight with ``Rubric({name: w})``; without one it is scored and reported but not weighted.
        """
        if not callable(fn):
            raise TypeError(f"component {name!r} must be callable")
        cls._registry[name] = fn

    @classmethod
    def unregister(cls, name: str) -> None:
        """Remove a registered extra component (built-ins cannot be removed)."""
        if name in BUILTIN_COMPONENTS:
            raise ValueError(f"{name!r} is a built-in component")
        cls._registry.pop(name, None)

    @classmethod
    def component_names(cls) -> list[str]:
        """Names of all registered components, in report order."""
        return list(cls._registry)

    def score(self, ctx: ScoringContext) -> Scores:
        """Score one reply.

        Args:
            ctx: the scoring context (outcome, room, rules, current harness constraints and skills).

        Returns:
            :class:`Scores` with every component, the gated composite 0-100 and the components that lost points.
        """
        comps: dict[str, float] = {}
        for name, fn in self._registry.items():
            v = float(fn(ctx))
            comps[name] = 0.0 if v < 0.0 else 1.0 if v > 1.0 else v
        total = 0.0
        wsum = 0.0
        for name, v in comps.items():
            w = self.weights.get(name, 0.0)
            if w > 0:
                total += w * v
                wsum += w
        composite = 100.0 * total / wsum if wsum > 0 else 0.0
        gated = None
        if self.gate:
            if comps.get("accuracy", 1.0) <= 0.0:
                composite, gated = 0.0, "accuracy"
            elif comps.get("effectiveness", 1.0) <= 0.0:
                composite, gated = 0.0, "effectiveness"
            elif comps.get("compliance", 1.0) < 1.0 and composite > COMPLIANCE_CAP:
                composite, gated = COMPLIANCE_CAP, "compliance"
        failed = [k for k, v in comps.items() if v < 1.0]
        return Scores(comps, round(composite, 2), failed, dict(ctx.notes), gated)

    def __call__(self, ctx: ScoringContext) -> Scores:
        """Same as :meth:`score`."""
        return self.score(ctx)


__all__ = ["COMPLIANCE_CAP", "DEFAULT_WEIGHTS", "Rubric", "Scores"]
