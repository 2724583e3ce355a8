"""Clause structure of a folded comment: where its clauses and sentences end, and the span types the parser uses.

A comment is cut into clauses at punctuation, at a space next to a Chinese character, at emoji written between
Chinese words ("口红多少钱🙏粉底液呢") and at a follow-up lead glued to the question before it ("鱼油多少钱还有维C呢",
the locale files' ``followup_leads``). Every step of the parser finds a keyword's clause with
``bisect_right(bounds, position)``; clause ``c`` runs from ``bounds[c - 1]`` to ``bounds[c]``.
"""

from __future__ import annotations

import re

from hat_env.understanding.lexicon import Lexicon

# clause bounds: punctuation, a space next to a Chinese character, and emoji written between Chinese words as a
# separator ("口红多少钱🙏粉底液呢")
CLAUSE_RE = re.compile(r"[,，。？?！!；;\n]|\.(?=\s)|(?<=[\u4e00-\u9fff\w])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+"
                       r"|(?<=[\u4e00-\u9fff])[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+(?=[\u4e00-\u9fff\w])")
#: sentence ends (an injection's payload runs to one)
SENT_END_RE = re.compile(r"[。？?！!\n]|\.(?=\s)")

#: A keyword hit: (start, end, role type, value)
Hit = tuple[int, int, str, "str | None"]
#: A product mention: (start, end, links, clause)
Mention = tuple[int, int, frozenset[int], int]


def is_emoji(ch: str) -> bool:
    """Whether the character ``ch`` is an emoji (or a variation selector / zero-width joiner of one)."""
    o = ord(ch)
    return 0x2600 <= o <= 0x27BF or o >= 0x1F000 or o in (0xFE0F, 0x200D)


def clause_bounds(f: str, lex: Lexicon) -> list[int]:
    """Where the clauses of the folded comment ``f`` end (the start of each separator), in order.

    Args:
        f: the folded comment.
        lex: the compiled words (its ``followup_re`` cuts a follow-up lead glued to a Chinese question).

    Returns:
        The sorted clause-bound positions; clause ``c`` of a position ``p`` is ``bisect_right(bounds, p)``.
    """
    bounds = [m.start() for m in CLAUSE_RE.finditer(f)]
    if lex.followup_re is not None and not f.isascii():  # "鱼油多少钱还有维C呢": the follow-up is a clause
        extra = [m.start() for m in lex.followup_re.finditer(f)]
        if extra:
            bounds = sorted(set(bounds) | set(extra))
    return bounds


def clause_text(f: str, bounds: list[int], c: int) -> str:
    """The text of clause ``c`` of ``f`` (with the separator that ends it, so a final "?" counts)."""
    a = bounds[c - 1] if c > 0 else 0
    b = bounds[c] + 1 if c < len(bounds) else len(f)
    return f[a:b]


def blank(text: str, start: int, end: int) -> str:
    """``text`` with ``text[start:end]`` replaced by spaces (positions are kept)."""
    return text[:start] + " " * (end - start) + text[end:]


__all__ = ["CLAUSE_RE", "SENT_END_RE", "Hit", "Mention", "blank", "clause_bounds", "clause_text", "is_emoji"]
