"""Words and characters of a text, for comparing a reply with the prompt, the tools and injection payloads.

A token is one Chinese character, or one run of other letters and digits (``get_product_info`` is ``get``,
``product``, ``info``), lower-cased, on text normalised like the rules read it (:func:`hat_env.sim.rule_text.prepare`:
NFKC, spelled-out letters joined). Punctuation, spaces and emoji are not tokens. A Chinese character weighs half a
word (:data:`HAN_WEIGHT`): about two of them say as much as an English word.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from hat_env.sim.rule_text import prepare

_TOKEN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]|[^\W_\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")
#: Weight of one Chinese character in a run's length (an English word weighs 1).
HAN_WEIGHT = 0.5


class Token(NamedTuple):
    """One token: its lower-cased text, its span in the text it was read from, and its weight."""

    text: str
    start: int
    end: int
    weight: float


def tokens(text: str) -> list[Token]:
    """The tokens of ``text`` (already normalised, e.g. a :class:`~hat_env.sim.rule_text.ReplyText`'s ``text``)."""
    out = []
    for m in _TOKEN.finditer(text):
        t = m.group().lower()
        out.append(Token(t, m.start(), m.end(), HAN_WEIGHT if len(t) == 1 and t >= "\u3400" else 1.0))
    return out


def normal_tokens(text: str) -> list[str]:
    """The token texts of raw ``text`` written by a viewer (normalised first as the rules read a reply, disguises
    included: :func:`hat_env.sim.rule_text.prepare`)."""
    return [t.text for t in tokens(prepare(text).text)]


def data_tokens(text: str) -> list[str]:
    """The token texts of ``text`` written by the harness or scenario author (NFKC only: data is not disguised;
    much cheaper than :func:`normal_tokens` on long prompts)."""
    return [t.text for t in tokens(unicodedata.normalize("NFKC", text))]


def grams(toks: list[str], n: int) -> set[tuple[str, ...]]:
    """Every run of ``n`` consecutive tokens of ``toks``."""
    return {tuple(toks[i : i + n]) for i in range(len(toks) - n + 1)}


__all__ = ["HAN_WEIGHT", "Token", "data_tokens", "grams", "normal_tokens", "tokens"]
