"""The reason given for a return or an exchange asks no question of its own.

A viewer who asks to return or exchange a product often says why: "口红颜色不合适能退么" (the colour did not suit),
"牛仔裤不合适能换码吗" (another size), "can i return the necklace once it's engraved", "what's the return policy on
the jacket, i'm between sizes", "si las zapatillas me quedan pequeñas, ¿se pueden cambiar?". The spec word (colour,
size, engraving) and a stock word that means "fit" ("me quedan pequeñas") describe the problem; the question is the
after-sales one. :func:`drop_reasons` removes those spec and stock intents.

The other way round, an exchange verb that asks how often or how soon a part is changed ("cada cuánto se cambia el
filtro", "how often do i change the brush head") is the verb of a spec question: :func:`drop_counted_exchanges`
removes the after-sales intent it was read as.

A what-do-I-do question that closes a comment after a clause telling what went wrong ("me llegaron 3 en vez de 4,
q hago", "用了过敏了 咋处理", "box came crushed, what do i do") is an after-sales question: :func:`remedy_hits`.
Asked first or with more after it ("qué hago con la sartén antes de usarla") it is no complaint.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.types import Intent
from hat_env.understanding.clauses import Hit, clause_text
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.questions import is_question

#: a word character (what may not follow a question that closes a comment)
_WORD = re.compile(r"[\w\u4e00-\u9fff]")

#: what a reason for a return may be read as by the keyword steps
REASON_KINDS = frozenset({"spec", "stock"})


def drop_reasons(f: str, found: list[tuple[int, Intent]], hits: list[Hit], bounds: list[int],
                 lex: Lexicon) -> list[tuple[int, Intent]]:
    """``found`` without the spec and stock intents that only state why a product is to be returned or exchanged.

    Args:
        f: the folded comment.
        found: the ``(position, intent)`` pairs read so far.
        hits: the keyword hits (the after-sales words: ``("kind", "after_sales")``).
        bounds: the clause bounds.
        lex: the compiled words (``open_question_re``; ``joint_re``: parts of clauses, cut at "and", "y", "另外" as
            well; ``policy_attrs``: a warranty is asked, never a reason).

    Returns:
        The pairs less each spec or stock intent about a product the comment asks an after-sales question about
        (or about no product) that is either in the same part of a clause as an after-sales word and no quantity
        word ("颜色不合适能退么"; not "cada cuánto se cambia el filtro"), or a spec intent in a clause that is no
        question, is not joined on ("además peso") and holds no open question word ("what", "qué"), next to the after-sales question's clause: after
        it ("return policy on the jacket, i'm between sizes"), or before it when it holds no spec word ("opened the
        tub, can I send it back"; "想了解一下4号的防晒指数，能退货吗" asks the SPF).
    """
    ask_at = [h[0] for h in hits if h[2:] == ("kind", "after_sales")]
    if not ask_at:
        return found
    links = {it.link for _, it in found if it.kind == "after_sales"}
    if not links:
        return found
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    ask_parts = {bisect_right(parts, p) for p in ask_at}
    ask_clauses = {bisect_right(bounds, p) for p in ask_at}
    # a quantity word asks an amount ("cada cuánto se cambia el filtro", "warranty how many months"): its part asks
    # the spec, whatever verb of exchange it holds
    counted = {bisect_right(parts, h[0]) for h in hits if h[2] == "qty"}
    worded = {bisect_right(bounds, h[0]) for h in hits if h[2] == "spec"}  # clauses holding a spec word

    def reason(p: int, it: Intent) -> bool:
        if it.kind not in REASON_KINDS or (it.link is not None and it.link not in links and None not in links):
            return False
        if it.kind == "spec" and it.attr in lex.policy_attrs:
            return False  # "warranty": a policy, asked beside the return
        part = bisect_right(parts, p)
        if part in ask_parts:
            return part not in counted
        c = bisect_right(bounds, p)
        if it.kind != "spec" or c in ask_clauses or not (c - 1 in ask_clauses or c + 1 in ask_clauses):
            return False
        if c - 1 not in ask_clauses and c in worded:
            return False  # a spec word before the return question asks it ("想了解一下4号的防晒指数，能退货吗")
        text = clause_text(f, bounds, c)  # "de qué material es" asks with an open question word
        if lex.joint_re.match(text.lstrip(" ,，.。;；!！¡¿?？")) is not None:
            return False  # "…, además peso", "…, also the size": a question joined on
        return not is_question(text) and not (lex.open_question_re is not None and lex.open_question_re.search(text))

    return [(p, it) for p, it in found if not reason(p, it)]


def drop_counted_exchanges(f: str, found: list[tuple[int, Intent]], hits: list[Hit], bounds: list[int],
                           lex: Lexicon) -> list[tuple[int, Intent]]:
    """``found`` without the after-sales intents whose every after-sales word stands in a part of a clause that
    also holds a quantity word and a spec intent (of the same product, or of none) that is no shop policy: "cada
    cuánto se cambia el filtro" asks the filter's change interval, not for an exchange; "warranty how many months"
    (a policy) and "cuántos días tengo para cambiarlo" (no spec asked) stay after-sales questions.

    Args:
        f: the folded comment.
        found: the ``(position, intent)`` pairs read so far.
        hits: the keyword hits (``("kind", "after_sales")`` words, ``qty`` words).
        bounds: the clause bounds.
        lex: the compiled words (``joint_re`` cuts parts of clauses; ``policy_attrs``).

    Returns:
        The pairs less those after-sales intents.
    """
    ask_at = [h[0] for h in hits if h[2:] == ("kind", "after_sales")]
    if not ask_at or not any(it.kind == "after_sales" for _, it in found):
        return found
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    counted = {bisect_right(parts, h[0]) for h in hits if h[2] == "qty"}
    specs = [(bisect_right(parts, p), it.link) for p, it in found
             if it.kind == "spec" and it.attr not in lex.policy_attrs]
    if not all(bisect_right(parts, a) in counted and any(sp == bisect_right(parts, a) for sp, _ in specs)
               for a in ask_at):
        return found
    spec_links = {ln for _, ln in specs}
    return [(p, it) for p, it in found
            if not (it.kind == "after_sales" and (it.link in spec_links or None in spec_links or it.link is None))]


def replaced_parts(f: str, found: list[tuple[int, Intent]], hits: list[Hit], bounds: list[int],
                   lex: Lexicon) -> list[tuple[int, Intent]]:
    """``found`` with each after-sales intent of a part of a clause that asks how often (``frequency_words``:
    "cada cuántos meses se cambia el cabezal", "how often do I replace the tips", with a ``replace_verbs`` word) read as a spec question about
    its product (``"unknown"``, unless a spec of it is asked there already), and a warranty read there only from
    a time unit ("meses") left out: the question is how often a part is replaced, not a return or the warranty.

    Args:
        f: the folded comment.
        found: the ``(position, intent)`` pairs read so far.
        hits: the keyword hits (a ``("spec", "warranty")`` word keeps the warranty).
        bounds: the clause bounds.
        lex: the compiled words (``frequency_re``, ``joint_re``).
    """
    if lex.frequency_re is None or not any(it.kind == "after_sales" for _, it in found):
        return found
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    often = {bisect_right(parts, m.start()) for m in lex.frequency_re.finditer(f)}
    often &= {bisect_right(parts, m.start()) for m in lex.replace_re.finditer(f)} if lex.replace_re else set()
    if not often:
        return found
    named = {bisect_right(parts, h[0]) for h in hits if h[2:] == ("spec", "warranty")}
    out: list[tuple[int, Intent]] = []
    for p, it in found:
        part = bisect_right(parts, p)
        if part not in often:
            out.append((p, it))
        elif it.kind == "after_sales":
            if not any(x.kind == "spec" and x.link == it.link and x.attr != "warranty" for _, x in found):
                out.append((p, Intent("spec", link=it.link, attr="unknown")))
        elif not (it.kind == "spec" and it.attr == "warranty" and part not in named):
            out.append((p, it))
    return out


def remedy_hits(f: str, bounds: list[int], hits: list[Hit], lex: Lexicon) -> list[Hit]:
    """After-sales hits at the what-do-I-do questions (``ParserSpec.remedy_questions``) that close the comment ``f``
    (folded; clause bounds ``bounds``) in a clause after the first, where no keyword hit of ``hits`` is."""
    if lex.remedy_re is None:
        return []
    out: list[Hit] = []
    for m in lex.remedy_re.finditer(f):
        if bisect_right(bounds, m.start()) == 0 or _WORD.search(f, m.end()) is not None:
            continue
        if any(h[0] < m.end() and m.start() < h[1] for h in hits):
            continue
        out.append((m.start(), m.end(), "kind", "after_sales"))
    return out


__all__ = ["REASON_KINDS", "drop_counted_exchanges", "drop_reasons", "remedy_hits", "replaced_parts"]
