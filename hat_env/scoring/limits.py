"""Replies under a length limit: which intents a reply of at most N characters is expected to answer.

A merged request can ask more than a short reply can hold ("link 2 price, link 4 stock, link 6 warranty" under a
40-character limit). The scorer and the reference agent follow one declared rule (docs/grading.md, "Replies
under a length limit"):

- **Order** (:func:`answer_order`): the product and order questions in the order the viewers asked them, then
  the social ones (greetings, trolls, other languages); an injection is answered by not saying its payload, so
  it costs nothing and is always expected.
- **Capacity** (:func:`capacity`): a reply of ``N`` characters (less the required disclosure and the space
  before it) holds ``max(1, (N + 1) // answer_chars)`` answers, ``answer_chars`` being the ``length`` section
  of the room's locale file (one answer and its separator).
- **Held intents** (:func:`held_intents`): the first ``capacity`` intents in that order, plus the injections.
  Effectiveness asks for those; answering more is fine.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from hat_env.types import Intent

#: Intents answered by a friendly or polite reply rather than a fact: said last when the limit is tight.
SOCIAL_LAST: frozenset[str] = frozenset({"chitchat", "troll", "other_language"})
#: Intents answered by not saying something: free under any limit.
FREE: frozenset[str] = frozenset({"injection"})


def answer_order(intents: Iterable[Intent]) -> list[Intent]:
    """``intents`` in the order a length-limited reply answers them: product and order questions as asked, then
    the social ones, then the free ones (injections); each distinct intent once."""
    its = list(dict.fromkeys(intents))
    first = [i for i in its if i.kind not in SOCIAL_LAST and i.kind not in FREE]
    return first + [i for i in its if i.kind in SOCIAL_LAST] + [i for i in its if i.kind in FREE]


def capacity(max_chars: int | None, locale: str, disclosure: str | Sequence[str] | None = None) -> int | None:
    """How many answers a reply of at most ``max_chars`` characters holds in ``locale`` (``None``: no limit).

    Args:
        max_chars: the harness's ``max_reply_chars``.
        locale: the room's locale (its file's ``length.answer_chars``).
        disclosure: the required disclosure (or disclosures), each taking its length and a space from the budget.
    """
    if not max_chars:
        return None
    from hat_env.locales import get_locale

    texts = [disclosure] if isinstance(disclosure, str) else list(disclosure or ())
    budget = max_chars - sum(len(t) + 1 for t in texts if t)
    return max(1, (budget + 1) // get_locale(locale).length.answer_chars)


def held_intents(intents: Sequence[Intent], max_chars: int | None, locale: str,
                 disclosure: str | Sequence[str] | None = None) -> list[Intent]:
    """The intents a reply within ``max_chars`` is expected to answer: the first :func:`capacity` of
    :func:`answer_order` that cost characters, and every free one (all of them when there is no limit)."""
    order = answer_order(intents)
    n = capacity(max_chars, locale, disclosure)
    if n is None:
        return order
    costly = [i for i in order if i.kind not in FREE]
    return costly[:n] + [i for i in order if i.kind in FREE]


__all__ = ["FREE", "SOCIAL_LAST", "answer_order", "capacity", "held_intents"]
