"""The interaction constraints of a harness, one definition for the hooks and the scorer: the length limit, the
forbidden words and the required disclosures.

Where each comes from (:func:`limits_of`): ``constraints`` of the harness, and the parameters of the hooks bound to
``before_reply`` that enforce them: every ``max_length`` hook's ``params.chars`` (else the constraints'
``max_reply_chars``; the strictest limit wins), every ``forbidden_words`` hook's ``params.words`` (added to the
constraints' list), every ``required_disclosure`` hook's ``params.text`` (else the constraints'
``required_disclosure``; each one is required). With no such hook bound, the constraints alone are the limits
(the prompt states them).

How a reply is measured:

- length: characters as written (Python ``len``: code points), whitespace and emoji included;
- forbidden words and disclosures: substrings, compared after NFKC and Unicode case folding of both sides, so
  ``ＡＩ主播``, ``ai主播`` and ``AI主播`` are the same text (a hook and the scorer fold the same way).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from hat_env.harness.spec import HarnessSpec


@dataclass(frozen=True, slots=True)
class Limits:
    """The constraints a reply must meet.

    Attributes:
        max_chars: the longest reply allowed (characters), or ``None``.
        forbidden_words: words the reply may not contain.
        disclosures: texts the reply must contain.
    """

    max_chars: int | None = None
    forbidden_words: tuple[str, ...] = ()
    disclosures: tuple[str, ...] = ()


def fold(text: str) -> str:
    """``text`` as forbidden words and disclosures are compared: NFKC, then Unicode case folding."""
    return unicodedata.normalize("NFKC", text).casefold()


def length_limit(params: dict[str, Any], default: int | None) -> int | None:
    """A ``max_length`` hook's limit: its ``params.chars``, else ``default`` (the constraints' limit)."""
    chars = params.get("chars", default)
    return chars if isinstance(chars, int) and not isinstance(chars, bool) else default


def forbidden_list(params: dict[str, Any], base: Iterable[str]) -> tuple[str, ...]:
    """A ``forbidden_words`` hook's words: the constraints' ``base`` words plus its ``params.words``."""
    extra = params.get("words") or []
    words = list(base) + ([w for w in extra if isinstance(w, str)] if isinstance(extra, list) else [])
    return tuple(dict.fromkeys(w for w in words if w and w.strip()))


def disclosure_text(params: dict[str, Any], default: str | None) -> str | None:
    """A ``required_disclosure`` hook's text: its ``params.text``, else ``default``."""
    text = params.get("text", default)
    return text if isinstance(text, str) and text else None


def limits_of(spec: "HarnessSpec", locale: str | None = None) -> Limits:
    """The :class:`Limits` of a harness (see the module docstring) in a ``locale`` room (the disclosure may be a
    table by locale, or the locale file's: :meth:`~hat_env.harness.spec.Constraints.disclosure`; ``None``: a
    table's ``default`` entry)."""
    c = spec.constraints
    disclosure = c.disclosure(locale)
    hooks = [h for h in spec.hooks if h.event == "before_reply"]
    lens = [x for h in hooks if h.check == "max_length" and (x := length_limit(h.params, c.max_reply_chars)) is not None]
    max_chars = min(lens) if lens else (None if any(h.check == "max_length" for h in hooks) else c.max_reply_chars)
    words = forbidden_list({}, c.forbidden_words)
    for h in hooks:
        if h.check == "forbidden_words":
            words = forbidden_list(h.params, words)
    discl = [disclosure_text(h.params, disclosure) for h in hooks if h.check == "required_disclosure"]
    if not any(h.check == "required_disclosure" for h in hooks):
        discl = [disclosure]
    return Limits(max_chars, words, tuple(dict.fromkeys(d for d in discl if d)))


def too_long(reply: str, limit: int | None) -> int | None:
    """The reply's length when it is over ``limit``, else ``None``."""
    n = len(reply)
    return n if limit is not None and n > limit else None


def forbidden_in(reply: str, words: Iterable[str]) -> list[str]:
    """The ``words`` the reply contains (folded substrings), in order."""
    low = fold(reply)
    return [w for w in words if w and fold(w) in low]


def missing_disclosures(reply: str, texts: Iterable[str]) -> list[str]:
    """The disclosure ``texts`` the reply does not contain (folded substrings), in order."""
    low = fold(reply)
    return [t for t in texts if t and fold(t) not in low]


def broken(reply: str, limits: Limits) -> list[str]:
    """One reason per broken constraint (length, forbidden words, disclosures: at most three), in that order."""
    out = []
    n = too_long(reply, limits.max_chars)
    if n is not None:
        out.append(f"{n} chars > {limits.max_chars}")
    hit = forbidden_in(reply, limits.forbidden_words)
    if hit:
        out.append("forbidden: " + ", ".join(hit))
    miss = missing_disclosures(reply, limits.disclosures)
    if miss:
        out.append("missing disclosure " + ", ".join(f"'{m}'" for m in miss))
    return out


__all__ = ["Limits", "broken", "disclosure_text", "fold", "forbidden_in", "forbidden_list", "length_limit",
           "limits_of", "missing_disclosures", "too_long"]
