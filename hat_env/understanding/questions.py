"""What makes a clause a question: a question mark, a final particle, a question word, "A不A", an inversion; and a
question phrase a product name is written inside ("any cat food left", "还有口红吗")."""

from __future__ import annotations

import re

from hat_env.understanding.clauses import Hit, Mention, is_emoji
from hat_env.understanding.lexicon import Lexicon, lexicon

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
    if m is not None and (not m.group()[:1].isascii() or not (lead := clause[: m.start()].strip(" ,，!！"))
                          or lex.joint_re.fullmatch(lead) is not None  # "also does it come w a stand"
                          or lead in lex.question_leads):  # "de qué está hecha", "a cuánto sale"
        return True
    if inversions and lex.inversion_re is not None and lex.inversion_re.search(clause) is not None:
        return True
    if lex.tag_re is not None and tail and lex.tag_re.search(tail) is not None:
        return True  # "earbuds have anc or not", "drill is brushless right", "le vale o no"
    if lex.alternative_re is not None and lex.alternative_re.search(clause) is not None:
        return True  # "usa cápsulas o café molido", "the swiftbot mop too or just vacuum": which of two
    return A_NOT_A.search(clause) is not None


_LATIN_WORD = re.compile(r"[a-z\u00e0-\u00ff]{2,}")


def subject_statement(f: str, m: Mention, bounds: list[int], hits: list[Hit], mentions: list[Mention],
                      lex: Lexicon) -> bool:
    """Whether the clause of mention ``m`` is a yes/no question asked by intonation alone: it opens with an article
    of ``lex.subject_articles`` and the product's name, a predicate of two words or more follows ("la batidora
    tritura hielo", "el arnés lleva reflectantes"), and it holds no keyword and no other product name (a keyword
    says what is asked, or that it is praise or a jab; "la freidora blanca" names a variant, no predicate).

    Args:
        f: the folded comment.
        m: the product mention (start, end, links, clause).
        bounds: the clause bounds.
        hits: the keyword hits.
        mentions: every product mention.
        lex: the compiled words (``subject_articles``).

    Returns:
        ``True`` when the clause asks about the product named as its subject.
    """
    if not lex.subject_articles:
        return False
    c = m[3]
    a = bounds[c - 1] + 1 if c > 0 else 0
    b = bounds[c] if c < len(bounds) else len(f)
    if f[a:m[0]].strip(" ,，!！") not in lex.subject_articles:
        return False
    if any(a <= h[0] < b for h in hits) or any(x is not m and x[3] == c for x in mentions):
        return False
    return len(_LATIN_WORD.findall(f[m[1]:b])) >= 2


#: how far either side of a name a phrase written around it is looked for
_AROUND = 12
#: the kinds a phrase written around a name asks (its product is the name inside)
SPLIT_KINDS = frozenset({"stock"})
_HAN = re.compile(r"[\u4e00-\u9fff]")


def split_phrases(f: str, hits: list[Hit], mentions: list[Mention], lex: Lexicon) -> list[Hit]:
    """Question phrases of the locale files written around a product name: the name cut out, the words either side
    of it make one phrase ("any cat food left" is "any left", "还有口红吗" is "还有吗", "is there any dog bed left").

    Args:
        f: the folded comment.
        hits: the keyword hits so far (a phrase over words that are already a keyword is not read again).
        mentions: the product mentions.
        lex: the compiled words (``words_re``, ``roles``).

    Returns:
        A hit per such phrase, of a kind in :data:`SPLIT_KINDS`, spanning the name (its product is the name's).
    """
    out: list[Hit] = []
    for a, b, _, _ in mentions:
        lo, hi = max(0, a - _AROUND), min(len(f), b + _AROUND)
        left, tail = f[lo:a].rstrip(), f[b:hi]
        right = tail.lstrip()
        if not left or not right:
            continue
        sep = "" if _HAN.match(left[-1]) or _HAN.match(right[0]) else " "
        cut, rs = len(left), b + len(tail) - len(right)  # where the right side starts in f
        for m in lex.words_re.finditer(left + sep + right):
            if not (m.start() < cut and m.end() > cut + len(sep)):
                continue  # not across the name
            roles = lex.roles.get(m.group()) or lex.roles.get(re.sub(r"\s+", " ", m.group()))
            kind = next((r[1] for r in roles or () if r[0] == "kind" and r[1] in SPLIT_KINDS), None)
            start, end = lo + m.start(), rs + m.end() - cut - len(sep)
            if kind is None or any(h[0] < a and start < h[1] or h[0] < end and b < h[1] for h in hits):
                continue  # a word of either side is a keyword of its own
            out.append((start, end, "kind", kind))
    return out


__all__ = ["QUESTION_CHARS", "SPLIT_KINDS", "TRAIL", "is_question", "split_phrases", "subject_statement"]
