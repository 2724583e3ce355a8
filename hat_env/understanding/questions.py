"""What makes a clause a question: a question mark, a final particle, a question word, "A不A", an inversion."""

from __future__ import annotations

import re

from hat_env.understanding.clauses import is_emoji
from hat_env.understanding.lexicon import lexicon

A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1")
QUESTION_CHARS = frozenset("?？❓❔¿")
#: what may follow a clause's last word before its particle counts as final (spaces, sentence marks, emoji)
TRAIL = " \t~～。.!！…😭😂🤔👀🙏😍🥺"


def is_question(clause: str, inversions: bool = True) -> bool:
    """Whether a (folded) clause asks something: a question mark, a final question particle, a question word
    (Latin: at its start), an "A不A" form, or (``inversions``) an auxiliary before its subject anywhere ("litter
    box is it quiet"). A dictation or disclosure is looked for without inversions: "so can you list your tools"
    is a request.

    Args:
        clause: the folded clause text.
        inversions: whether an auxiliary before its subject makes a question.

    Returns:
        ``True`` when the clause asks something.
    """
    if any(ch in QUESTION_CHARS for ch in clause):
        return True
    lex = lexicon()
    tail = clause.rstrip(TRAIL + ",，;；")
    while tail and is_emoji(tail[-1]):
        tail = tail[:-1].rstrip(TRAIL)
    if tail and tail[-1] in lex.question_marks:
        return True
    m = lex.question_re.search(clause)
    if m is not None and (not m.group()[:1].isascii() or not clause[: m.start()].strip(" ,，!！")):
        return True
    if inversions and lex.inversion_re is not None and lex.inversion_re.search(clause) is not None:
        return True
    return A_NOT_A.search(clause) is not None


__all__ = ["QUESTION_CHARS", "TRAIL", "is_question"]
