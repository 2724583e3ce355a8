"""Clause structure of a folded comment: where its clauses and sentences end, and the span types the parser uses.

A comment is cut into clauses at punctuation, at a space next to a Chinese character, at emoji written between
Chinese words ("口红多少钱🙏粉底液呢"), at a follow-up lead glued to the question before it ("鱼油多少钱还有维C呢",
the locale files' ``followup_leads``) and after a final particle glued to more text ("洁面乳能卸妆吗多少钱",
``clause_final_particles``). Every step of the parser finds a keyword's clause with
``bisect_right(bounds, position)``; clause ``c`` runs from ``bounds[c - 1]`` to ``bounds[c]``.
"""

from __future__ import annotations

import re

from hat_env.understanding.lexicon import Lexicon

# clause bounds: punctuation, a space next to a Chinese character, and emoji written between Chinese words as a
# separator ("口红多少钱🙏粉底液呢")
CLAUSE_RE = re.compile(r"[,，。？?！!；;\n]|\.(?=\s)|(?<=[\u4e00-\u9fff\w])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+"
                       r"|(?<=[\u4e00-\u9fff])[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+(?=[\u4e00-\u9fff\w])"
                       # "how much + can i return them", "precio & cuánto tarda": a plus or an ampersand before a
                       # question word or a topic noun starts another question
                       r"|(?<=[a-z\u00e0-\u00fc?])\s+[+&]\s+(?=\u00bf|(?:can|could|do|does|did|is|are|how|what|when|where"
                       r"|will|would|any|shipping|returns?|warranty|puedo|puede|se|tiene|tienen|hay|env[i\u00ed]o"
                       r"|cu[a\u00e1]nto|cu[a\u00e1]nta|qu[e\u00e9]|c[o\u00f3]mo|garant[i\u00ed]a|devoluci[o\u00f3]n)\b)")
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
    if lex.runon_re is not None and f.isascii():
        extra = runon_bounds(f, bounds, lex)
        if extra:
            bounds = sorted(set(bounds) | set(extra))
    if lex.followup_re is not None and not f.isascii():  # "鱼油多少钱还有维C呢": the follow-up is a clause
        extra = [m.start() for m in lex.followup_re.finditer(f)]
        if extra:
            bounds = sorted(set(bounds) | set(extra))
    if lex.particle_end_re is not None and not f.isascii():  # "洁面乳能卸妆吗多少钱": the particle ends a question
        extra = [m.start() for m in lex.particle_end_re.finditer(f)]
        if extra:
            bounds = sorted(set(bounds) | set(extra))
    return bounds


#: a word of a Latin-script run-on
_WORD = re.compile(r"[a-z0-9']+")


def runon_bounds(f: str, bounds: list[int], lex: Lexicon) -> list[int]:
    """Where a question starts inside an unpunctuated clause ("how much is the blender does it come in black",
    "how big is the dog bed how much is it"): before an inversion or run-on lead (``question_inversions``,
    ``runon_leads``) that follows at least three words of its clause of which one is the auxiliary of an inversion
    ("is", "does": "what color does it come in" and "how many days does the battery last" stay one question), not
    right after a clause joiner ("... and is it dishwasher safe": the joiner already parts them) nor right after
    another lead ("... and how much is it": one question).

    Args:
        f: the folded comment (Latin script only).
        bounds: the clause bounds found so far.
        lex: the compiled words (``runon_re``, ``runon_verbs``, ``joint_re``).

    Returns:
        The positions of the new bounds (the space before each lead).
    """
    out: list[int] = []
    assert lex.runon_re is not None
    start = 0
    cuts = sorted(bounds)
    lead_ends: set[int] = set()
    for m in lex.runon_re.finditer(f):
        lead_ends.add(m.end())
        if m.start() - 1 in lead_ends:  # "... and how much is it": the inversion goes on the lead before it
            continue
        while cuts and cuts[0] < m.start():
            start = cuts.pop(0) + 1
        if out and out[-1] >= start:
            start = out[-1] + 1
        before = _WORD.findall(f[start:m.start()])
        if len(before) >= 3 and f[m.start() - 1:m.start()] == " " and any(w in lex.runon_verbs for w in before) \
                and not lex.joint_re.fullmatch(before[-1]):
            out.append(m.start() - 1)
    return out


def clause_text(f: str, bounds: list[int], c: int) -> str:
    """The text of clause ``c`` of ``f`` (with the separator that ends it, so a final "?" counts)."""
    a = bounds[c - 1] + 1 if c > 0 else 0
    b = bounds[c] + 1 if c < len(bounds) else len(f)
    return f[a:b]


def blank(text: str, start: int, end: int) -> str:
    """``text`` with ``text[start:end]`` replaced by spaces (positions are kept)."""
    return text[:start] + " " * (end - start) + text[end:]


__all__ = ["CLAUSE_RE", "SENT_END_RE", "Hit", "Mention", "blank", "clause_bounds", "clause_text", "is_emoji", "runon_bounds"]
