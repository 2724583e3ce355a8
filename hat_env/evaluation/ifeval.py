"""Live-IFEval scoring: strict and loose checks, prompt-level and instruction-level accuracy, as IFEval defines
them (google-research ``instruction_following_eval``), over the live-reply instructions of
:mod:`hat_env.ifeval`.

- Strict: each instruction is checked on the reply as it is; an empty (all-whitespace) reply fails every one.
- Loose: an instruction passes when any of 8 variants of the reply passes: the original, with the first line
  removed, with the last line removed, with both removed, and each of those four with every ``*`` removed
  (empty variants are skipped).
- Prompt-level accuracy: share of replies (prompts) whose every instruction passes; instruction-level accuracy:
  passing instructions over all instructions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from hat_env.ifeval import resolve


def loose_variants(reply: str) -> list[str]:
    """IFEval's 8 loose variants of ``reply``, in IFEval's order."""
    lines = reply.split("\n")
    remove_first = "\n".join(lines[1:]).strip()
    remove_last = "\n".join(lines[:-1]).strip()
    remove_both = "\n".join(lines[1:-1]).strip()
    return [
        reply,
        reply.replace("*", ""),
        remove_first,
        remove_last,
        remove_both,
        remove_first.replace("*", ""),
        remove_last.replace("*", ""),
        remove_both.replace("*", ""),
    ]


@dataclass(slots=True)
class IFEvalResult:
    """The result of one reply against its instructions.

    Attributes:
        types: the instruction type ids, in order.
        strict: instruction-level strict results, in order.
        loose: instruction-level loose results, in order.
    """

    types: list[str]
    strict: list[bool] = field(default_factory=list)
    loose: list[bool] = field(default_factory=list)

    @property
    def prompt_strict(self) -> bool:
        """Every instruction passes strictly."""
        return all(self.strict)

    @property
    def prompt_loose(self) -> bool:
        """Every instruction passes loosely."""
        return all(self.loose)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "types": list(self.types),
            "strict": list(self.strict),
            "loose": list(self.loose),
            "prompt_strict": self.prompt_strict,
            "prompt_loose": self.prompt_loose,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "IFEvalResult":
        """Inverse of :meth:`to_dict` (e.g. from a results file)."""
        return cls(list(d["types"]), [bool(x) for x in d["strict"]], [bool(x) for x in d["loose"]])


def evaluate(
    reply: str,
    instructions: list[dict[str, Any]],
    locale: str,
    context: dict[str, Any] | None = None,
) -> IFEvalResult:
    """Check ``reply`` against ``instructions`` (dicts ``{"type", **params}``) strictly and loosely.

    Args:
        reply: the reply text.
        instructions: the instructions of the case.
        locale: ``zh_CN`` or ``en_US``.
        context: what some checks read (viewer comments for ``combination:repeat_prompt``, viewer names...), see
            :func:`hat_env.ifeval.make_context`.

    Raises:
        ValueError: an unknown instruction type or bad params.
    """
    reply = reply or ""
    items = [resolve(i) for i in instructions or []]
    variants = [v for v in loose_variants(reply) if v.strip()]
    strict: list[bool] = []
    loose: list[bool] = []
    for t, p in items:
        s = bool(reply.strip()) and t.check(reply, p, locale, context)
        strict.append(s)
        loose.append(s or any(t.check(v, p, locale, context) for v in variants))
    return IFEvalResult([t.id for t, _ in items], strict, loose)


def aggregate(results: Iterable[IFEvalResult | dict[str, Any]]) -> dict[str, float]:
    """IFEval's four numbers over many replies.

    Returns:
        ``{"prompt_strict", "inst_strict", "prompt_loose", "inst_loose"}`` in ``[0, 1]`` (prompt-level: share of
        replies whose every instruction passes; instruction-level: passes / instructions), plus ``"prompts"`` and
        ``"instructions"`` (the counts). A reply with no instruction counts as a passing prompt, as in IFEval
        (``all([])``); every number is 0.0 when there is nothing to count.
    """
    rs = [r if isinstance(r, IFEvalResult) else IFEvalResult.from_dict(r) for r in results]
    n_p = len(rs)
    n_i = sum(len(r.strict) for r in rs)
    return {
        "prompt_strict": sum(r.prompt_strict for r in rs) / n_p if n_p else 0.0,
        "inst_strict": sum(sum(r.strict) for r in rs) / n_i if n_i else 0.0,
        "prompt_loose": sum(r.prompt_loose for r in rs) / n_p if n_p else 0.0,
        "inst_loose": sum(sum(r.loose) for r in rs) / n_i if n_i else 0.0,
        "prompts": n_p,
        "instructions": n_i,
    }


def aggregate_dicts(results: Iterable[dict[str, Any]]) -> dict[str, float]:
    """:func:`aggregate` over :meth:`IFEvalResult.to_dict` dicts (e.g. read back from a results file)."""
    return aggregate(results)


def by_type(results: Iterable[IFEvalResult | dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Instruction-level strict and loose accuracy per instruction type: ``{type: {"strict", "loose", "n"}}``."""
    acc: dict[str, list[int]] = {}
    for r in results:
        r = r if isinstance(r, IFEvalResult) else IFEvalResult.from_dict(r)
        for t, s, lo in zip(r.types, r.strict, r.loose):
            a = acc.setdefault(t, [0, 0, 0])
            a[0] += s
            a[1] += lo
            a[2] += 1
    return {t: {"strict": a[0] / a[2], "loose": a[1] / a[2], "n": a[2]} for t, a in sorted(acc.items())}


__all__ = ["IFEvalResult", "aggregate", "aggregate_dicts", "by_type", "evaluate", "loose_variants"]
