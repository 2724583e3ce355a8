"""The Rubric: a weighted set of named components (verifiers-style) and a gated composite score 0-100.

The composite is ``100 * sum(w_i * c_i) / sum(w_i)`` over the components with a positive weight, rounded to two
decimals, with two gates:

- **A false or useless reply earns nothing.** When ``accuracy`` is 0 (the reply states something false) or
  ``effectiveness`` is 0 (it answers nothing the viewers asked), the composite is 0, whatever the tools, skills
  and latency were. This mirrors tau-bench's all-or-nothing reward: a fluent, fast, well-tooled wrong answer is
  still a wrong answer to the viewer.
- **A compliance violation caps the composite at 50**: a correct reply that breaks advertising law cannot be a
  good reply.

A rubric is an instance: its components (name -> ``fn(ctx) -> [0, 1]``), weights and gates are its own
configuration, so two rubrics in one process never change each other. ``Rubric()`` is the default above.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

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


@dataclass(frozen=True)
class Gates:
    """When the composite is zeroed or capped, whatever the weighted mean.

    Attributes:
        zero: components that zero the composite when they score 0, checked in order (the first one that
            fires names the gate).
        caps: ``(component, cap)`` pairs, checked in order after ``zero``: the composite is capped at ``cap``
            (0-100) when the component is below 1.

    A gate on a component the rubric does not have never fires.
    """

    zero: tuple[str, ...] = ("accuracy", "effectiveness")
    caps: tuple[tuple[str, float], ...] = (("compliance", COMPLIANCE_CAP),)


#: The gates of the module docstring.
DEFAULT_GATES = Gates()


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
        weights: component name -> weight; built-in components without one keep :data:`DEFAULT_WEIGHTS`, other
            components default to 0 (scored and reported, not weighted). Negative weights and names of no
            component are refused.
        gate: apply :attr:`gates` (True by default; False: the plain weighted mean).
        components: name -> ``fn(ctx: ScoringContext) -> float in [0, 1]``, in report order (default: the
            built-ins, :data:`~hat_env.scoring.components.BUILTIN_COMPONENTS`). To add one, extend the built-ins:
            ``Rubric({"emoji_free": 1.0}, components={**BUILTIN_COMPONENTS, "emoji_free": fn})``.
        gates: which components zero or cap the composite (default :data:`DEFAULT_GATES`).

    Raises:
        ValueError: a negative weight, or a weight for no component (the message lists the components).
        TypeError: a component is not callable.

    Example::

        rubric = Rubric({"latency": 0.0})
        scores = rubric.score(ScoringContext(outcome=outcome, room=room, rules=rules))
        scores.composite  # 0-100
    """

    def __init__(self, weights: Mapping[str, float] | None = None, gate: bool = True,
                 components: Mapping[str, Component] | None = None, gates: Gates = DEFAULT_GATES):
        comps = dict(BUILTIN_COMPONENTS if components is None else components)
        for name, fn in comps.items():
            if not callable(fn):
                raise TypeError(f"component {name!r} must be callable")
        w = {name: DEFAULT_WEIGHTS.get(name, 0.0) for name in comps}
        for k, v in (weights or {}).items():
            if v < 0:
                raise ValueError(f"weight of {k!r} is negative: {v}")
            if k not in comps:
                raise ValueError(f"unknown rubric component {k!r}; known: {', '.join(comps)}")
            w[k] = float(v)
        self.components: dict[str, Component] = comps
        self.weights: dict[str, float] = w
        self.gate = gate
        self.gates = gates

    def component_names(self) -> list[str]:
        """Names of this rubric's components, in report order."""
        return list(self.components)

    def score(self, ctx: ScoringContext) -> Scores:
        """Score one reply.

        Args:
            ctx: the scoring context (outcome, room, rules, current harness constraints and skills).

        Returns:
            :class:`Scores` with every component, the gated composite 0-100 and the components that lost points.
        """
        comps: dict[str, float] = {}
        for name, fn in self.components.items():
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
            gated = next((name for name in self.gates.zero if comps.get(name, 1.0) <= 0.0), None)
            if gated is not None:
                composite = 0.0
            else:
                for name, cap in self.gates.caps:
                    if comps.get(name, 1.0) < 1.0 and composite > cap:
                        composite, gated = cap, name
                        break
        failed = [k for k, v in comps.items() if v < 1.0]
        return Scores(comps, round(composite, 2), failed, dict(ctx.notes), gated)

    def __call__(self, ctx: ScoringContext) -> Scores:
        """Same as :meth:`score`."""
        return self.score(ctx)


__all__ = ["COMPLIANCE_CAP", "DEFAULT_GATES", "DEFAULT_WEIGHTS", "Gates", "Rubric", "Scores"]
