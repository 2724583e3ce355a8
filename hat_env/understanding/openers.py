"""Patterns for what opens a clause: a follow-up lead glued to a Chinese question ("鱼油多少钱还有维C呢") and a
greeting opening a comment ("hi!", "hola Lucía,", "谢谢主播 ..."), built from the locale files' words."""

from __future__ import annotations

import re

from hat_env.understanding.wordpat import alternation, trie_pattern


def greeting_re(openers: list[str], addressees: list[str] | None = None) -> re.Pattern[str] | None:
    """A greeting at the start of a comment: a Latin one (then at most one word, a name; or after one word, the
    name: "aria hiii 💕") before a clause mark, an emoji or the end, or then a Chinese addressee before those or a space ("hello 主播 ..."); a Chinese one before
    those or a space (``None`` without openers).

    Args:
        openers: the locale files' ``greeting_openers``, folded.
        addressees: the locale files' ``addressee`` words, folded (the Chinese ones may follow a Latin greeting).
    """
    asc = [w for w in openers if w[:1].isascii()]
    han = [w for w in openers if w and not w[:1].isascii()]
    if not openers:
        return None
    marks = r"[,，.。!！?？~～;；:：\n\u2600-\u27bf\U0001f000-\U0001faff]"
    alts = []
    if asc:
        han_addr = [w for w in addressees or () if len(w) >= 2 and all("\u4e00" <= c <= "\u9fff" for c in w)]
        to = rf"|\s*(?:{trie_pattern(han_addr, False)})(?=$|{marks}|\s)" if han_addr else ""
        # "hola lucía,", and the host's name before it ("aria hiii 💕"): at most one word besides the greeting
        alts.append(rf"(?:[a-z\u00e0-\u00ff]+\s+(?=(?:{trie_pattern(asc, True)})(?![a-z\u00e0-\u00ff])\s*(?:$|{marks})))?"
                    rf"(?:{trie_pattern(asc, True)})(?![a-z\u00e0-\u00ff])(?:(?:\s+[a-z\u00e0-\u00ff]+)?\s*(?=$|{marks}){to})")
    if han:
        alts.append(rf"(?:{trie_pattern(han, False)})(?=$|{marks}|\s)")
    return re.compile(r"^[^\w]*(?:" + "|".join(alts) + ")")


def thanks_re(openers: list[str]) -> re.Pattern[str] | None:
    """A greeting or thanks anywhere in a comment ("just ordered it, ty", "graciass!! ya pedí"): a Latin one whole,
    its last letter written once or more ("graciass", "thxx"); a Chinese one as it is (``None`` without openers).

    Args:
        openers: the locale files' ``greeting_openers``, folded.
    """
    alts = [re.escape(w) + (re.escape(w[-1]) + "*" if w[-1:].isalpha() and w.isascii() else "")
            for w in sorted(set(openers), key=len, reverse=True) if w]
    if not alts:
        return None
    return re.compile(r"(?<![a-z\u00e0-\u00ff])(?:" + "|".join(alts) + r")(?![a-z\u00e0-\u00ff])")


def followup_re(leads: list[str], qmarks: frozenset[str]) -> re.Pattern[str] | None:
    """A follow-up lead right after a Chinese character, followed by at most ten characters and a final
    question particle before the clause ends ("鱼油多少钱还有维C呢"), or right after a final particle ("...可以用吗还有
    保质期").

    Args:
        leads: the locale files' ``followup_leads``, folded.
        qmarks: the question marks and particles of every locale, folded.
    """
    han = [w for w in leads if not w.isascii()]
    finals = [q for q in qmarks if len(q) == 1 and not q.isascii() and "\u4e00" <= q <= "\u9fff"]
    if not han or not finals:
        return None
    fin = "".join(re.escape(q) for q in sorted(finals))
    lead = alternation(han)
    # glued to a question before it: a final particle then the lead ("洁面乳孕妇可以用吗还有保质期"), or the lead then
    # a question of at most ten characters ending in a particle ("鱼油多少钱还有维C呢")
    return re.compile(rf"(?<=[{fin}])(?:{lead})(?=[^\s,，。？?！!；;])|(?<=[\u4e00-\u9fff])(?:{lead})"
                      rf"(?=[^\s,，。？?！!；;]{{1,10}}[{fin}][\s?？~～!！。]*(?:$|[\s,，。？?！!；;]))")


__all__ = ["followup_re", "greeting_re", "thanks_re"]
