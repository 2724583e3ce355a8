"""The fallback reply: what goes out when the turn limit or the retry budget runs out, held to the same constraints
as any reply.

A fallback skips the ``before_reply`` hooks (it is what is said when the model's replies were blocked), so it is
checked where the harness is, not where it is sent: the text a harness gives must already keep its constraints,
and the runtime sends it as written (:meth:`RequestLoop._fallback <hat_env.harness.runtime.RequestLoop>`).
Checked:

- when a pack is loaded (:meth:`Harness.load <hat_env.harness.core.Harness.load>`): every text of
  ``constraints.fallback_reply``, and the built-in :data:`BUILTIN_FALLBACK` when there is no ``default`` text, with
  the error at the text's line of ``harness.yaml``;
- after every harness-timeline patch of a scenario (:mod:`hat_env.envs.preflight`), with the error at the patch
  (a patch that turns on a disclosure the fallback lacks, or tightens the limit below it);
- against the room's compliance rules, for the text the room's locale gets (:mod:`hat_env.envs.preflight`).

"The constraints" are the harness's ``constraints`` (what the scorer checks) and the parameters of its bound
``before_reply`` hooks: the length limit (``max_reply_chars``, ``max_length`` ``chars``), forbidden words
(``forbidden_words``, ``forbidden_words`` ``words``; matched as the hook does, case-insensitive substrings) and the
required disclosure (``required_disclosure``, ``required_disclosure`` ``text``), which the text must contain.

Harness-State Augmentation variants are derived in code and not checked here: a variant that changes the
disclosure text keeps its parent's fallback text (see ``hsa/transforms/constraints.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.harness.spec import HarnessSpec

#: The text sent when the harness has none for the room's locale and no ``default`` one.
BUILTIN_FALLBACK = "..."


def _constraints(spec: "HarnessSpec") -> tuple[list[int], list[str], list[str]]:
    """The reply length limits, forbidden words and required disclosures of ``spec`` (constraints and hooks)."""
    c = spec.constraints
    limits = [c.max_reply_chars] if c.max_reply_chars else []
    words = [w for w in c.forbidden_words if w]
    disclosures = [c.required_disclosure] if c.required_disclosure else []
    for h in spec.hooks:
        p = h.params
        chars = p.get("chars")
        if h.check == "max_length" and isinstance(chars, int) and not isinstance(chars, bool):
            limits.append(chars)
        elif h.check == "forbidden_words" and isinstance(p.get("words"), list):
            words += [w for w in p["words"] if isinstance(w, str) and w]
        elif h.check == "required_disclosure" and isinstance(p.get("text"), str) and p["text"]:
            disclosures.append(p["text"])
    return limits, words, list(dict.fromkeys(disclosures))


def fallback_text(spec: "HarnessSpec", locale: str) -> tuple[str, str | None]:
    """``(text, key)``: the fallback a room of ``locale`` gets (the choice the request loop makes) and the
    ``fallback_reply`` key it comes from (``locale``, ``"default"``, or ``None`` for :data:`BUILTIN_FALLBACK`)."""
    fb = spec.constraints.fallback_reply
    if fb.get(locale):
        return fb[locale], locale
    if fb.get("default"):
        return fb["default"], "default"
    return BUILTIN_FALLBACK, None


def text_problems(spec: "HarnessSpec", text: str) -> list[str]:
    """Why ``text``, sent as ``spec``'s fallback reply, would break one of its reply constraints (see the module
    docstring); empty when it keeps them all."""
    limits, words, disclosures = _constraints(spec)
    out = []
    if limits and len(text) > min(limits):
        out.append(f"the fallback reply has {len(text)} characters; replies may have at most {min(limits)}")
    missing = [d for d in disclosures if d not in text]
    if missing:
        out.append(f"the fallback reply lacks the required disclosure {missing[0]!r} (every reply must include it)")
    low = text.lower()
    hit = [w for w in words if w.lower() in low]
    if hit:
        out.append(f"the fallback reply contains forbidden words {hit}")
    return out


def fallback_problems(spec: "HarnessSpec") -> list[tuple[tuple, str]]:
    """Every ``constraints.fallback_reply`` text checked with :func:`text_problems`, and the built-in one when no
    ``default`` text is given (a room whose locale has no text sends it), as ``(field path, reason)``."""
    out: list[tuple[tuple, str]] = []
    fb = spec.constraints.fallback_reply
    for key, text in fb.items():
        out += [(("constraints", "fallback_reply", key), why) for why in text_problems(spec, text)]
    if not fb.get("default"):
        out += [(("constraints", "fallback_reply"), f"{why}: the built-in {BUILTIN_FALLBACK!r}, which a room whose "
                 "locale has no text here gets; add a 'default' text") for why in text_problems(spec, BUILTIN_FALLBACK)]
    return out


__all__ = ["BUILTIN_FALLBACK", "fallback_problems", "fallback_text", "text_problems"]
