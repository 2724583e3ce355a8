"""Questions of later clauses and parts of a comment: a clause or a part after a joiner that asks something no
keyword names, about the product asked about before it ("鱼油保质期多久 孕妇能吃吗", "... and is the basket nonstick"),
a part naming one product with an ability word, a later clause that only restates the one before, and an opinion
asked beside another question about the same product."""

from __future__ import annotations

import re
from bisect import bisect_right

from hat_env.types import Intent
from hat_env.understanding.clauses import Hit, Mention, clause_text
from hat_env.understanding.lexicon import Lexicon
from hat_env.understanding.questions import is_question

#: letters and characters of a clause's own words (a clause of only marks or one letter asks nothing)
WORDISH = re.compile(r"[\u4e00-\u9fff]|[a-z\u00e0-\u00ff]{2,}")

#: intents about one product (a follow-up clause or a joined group carries them to another)
PRODUCT_KINDS = frozenset({"price", "stock", "campaign", "shipping", "after_sales", "purchase", "spec"})


def opinions_beside(f: str, found: list[tuple[int, Intent]], bounds: list[int], lex: Lexicon) -> list[tuple[int, Intent]]:
    """An opinion asked ("q tal la sartén", "口红咋样", "worth it?") is no question of its own when another clause asks
    something about the same product ("q tal la sartén, se pega?" asks whether it sticks): its ``spec(unknown)`` is
    dropped.

    Args:
        f: the folded comment.
        found: the intents so far, with their positions.
        bounds: the clause bounds.
        lex: the compiled words (``opinion_re``).

    Returns:
        ``found`` without those ``spec(unknown)`` intents.
    """
    if lex.opinion_re is None or len(found) < 2:
        return found
    ops = {bisect_right(bounds, m.start()) for m in lex.opinion_re.finditer(f)}
    if not ops:
        return found

    def beside(p: int, it: Intent) -> bool:
        c = bisect_right(bounds, p)
        return c in ops and it.kind == "spec" and it.attr == "unknown" and it.link is not None and any(
            o.link == it.link and bisect_right(bounds, q) != c for q, o in found)

    return [(p, it) for p, it in found if not beside(p, it)]


def carried_questions(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]], mentions: list[Mention],
                      bounds: list[int], found: list[tuple[int, Intent]], lex: Lexicon) -> list[tuple[int, Intent]]:
    """A later clause that asks something no keyword names, about the product of the clause before ("鱼油保质期多久
    孕妇能吃吗", "toallas de algodón? se destiñen?"): a ``spec(attr="unknown")`` question about the carried product.

    Args:
        f: the folded comment.
        hits: the keyword hits (a clause with any hit asks what its words say).
        value_hits: spec values of named products.
        mentions: the product mentions (a clause that names a product of its own is a follow-up, see ``spread``).
        bounds: the clause bounds.
        found: the intents so far.
        lex: the compiled words (``ability_re``).

    Returns:
        ``(position, spec intent)`` for each such clause: it follows a clause with a product intent, names no
        product, holds no keyword (a choice word that made no comparison, "饭前还是饭后", is none) and no value of
        that product ("goma" of another product is none), has at least two letters or characters of its own, is a question by
        its own marks or words (not by an inversion: "my kitchen is open plan"), and, after an open spec question
        ("坚果里面有啥") about a spec the product has, holds an ability word (else it goes on asking that spec).
    """
    asked: dict[int, int] = {}  # clause -> the link its product intent is about
    spec_asked: set[int] = set()  # clauses that ask a spec the product has
    for p, it in found:
        if it.link is not None and it.kind in PRODUCT_KINDS:
            c = bisect_right(bounds, p)
            asked.setdefault(c, it.link)
            if it.kind == "spec" and it.attr not in (None, "unknown"):
                spec_asked.add(c)
    if not asked:
        return []
    compared = any(it.kind == "compare" for _, it in found)
    busy = {bisect_right(bounds, h[0]) for h in hits if compared or h[2:] != ("kind", "compare")} \
        | {m[3] for m in mentions} | {bisect_right(bounds, p) for p, _ in found}
    valued = {(bisect_right(bounds, v[0]), v[2]) for v in value_hits}  # a value of another product asks nothing here
    out: list[tuple[int, Intent]] = []
    for c in range(1, len(bounds) + 1):
        if c in busy or c - 1 not in asked or (c, asked[c - 1]) in valued:
            continue
        text = f[bounds[c - 1] + 1 : bounds[c] + 1 if c < len(bounds) else len(f)]  # without the bound before
        if len(WORDISH.findall(text)) < 2 or not is_question(text, inversions=False):
            continue
        own = [w for w in WORDISH.findall(text) if w not in lex.function_chars and w not in lex.common]
        if len(own) < 2 and lex.ability_re.search(text) is None and not any(len(w) > 2 for w in own):
            continue  # "真的吗", "for real?": no words of its own to ask with
        if c - 1 in spec_asked and lex.ability_re.search(text) is None and lex.open_question_re is not None \
                and lex.open_question_re.search(f, bounds[c - 2] + 1 if c > 1 else 0, bounds[c - 1]) is not None:
            continue  # "坚果里面有啥 有没有花生": it goes on asking the open spec question before
        start = bounds[c - 1] + 1
        if restates(text, f[bounds[c - 2] + 1 if c > 1 else 0 : bounds[c - 1]], lex):
            asked[c] = asked[c - 1]  # "维C孩子能吃吗 几岁能吃": the same question again
            continue
        out.append((start, Intent("spec", link=asked[c - 1], attr="unknown")))
        asked[c] = asked[c - 1]
    return out


#: a word of a clause: two Chinese characters in a row, or a Latin word of four letters or more
_CONTENT = re.compile(r"(?=([\u4e00-\u9fff]{2}))|[a-z\u00e0-\u00ff]{4,}")


def restates(text: str, before: str, lex: Lexicon) -> bool:
    """Whether a later clause ``text`` asks again what the clause ``before`` asked: it repeats one of its words (two
    Chinese characters, not both function characters: "维C孩子能吃吗 几岁能吃"; a Latin word of four letters or more
    that is no common word: "dog bed washable? is the cover washable"), so it is no question of its own.

    Args:
        text: the later clause (folded).
        before: the clause before it (folded).
        lex: the compiled words (``function_chars``, ``common``).

    Returns:
        ``True`` when the two clauses share such a word.
    """
    def words(t: str) -> set[str]:
        out = set()
        for m in _CONTENT.finditer(t):
            w = m.group(1) or m.group()
            if w and not all(ch in lex.function_chars for ch in w) and w not in lex.common:
                out.add(w)
        return out

    return bool(words(text) & words(before))


def named_parts(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]], mentions: list[Mention],
                bounds: list[int], found: list[tuple[int, Intent]], lex: Lexicon) -> list[tuple[int, Intent]]:
    """A part of a clause (between joiners: "and", "y", "另外") that names one product and asks something no keyword
    names, beside other questions of the comment ("is the 65w one good for a laptop and how much is it"): a
    ``spec(attr="unknown")`` question about it.

    Args:
        f: the folded comment.
        hits: the keyword hits (a part with any hit asks what its words say).
        value_hits: spec values of named products.
        mentions: the product mentions.
        bounds: the clause bounds.
        found: the intents so far (only when some product intent was found; else the comment-wide rule applies).
        lex: the compiled words (``joint_re`` parts, ``ability_re``).

    Returns:
        ``(position, spec intent)`` for each part that holds an ability word ("good for", "能", "sirve"), names
        exactly one product, and holds no keyword, value or other intent (a bare "y la batidora?" is a follow-up).
    """
    if not any(it.kind in PRODUCT_KINDS for _, it in found) or not mentions:
        return []
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
    # a greeting opening the part ("hiii 💕 is the sunscreen reef safe and ...") asks nothing of the product
    busy = {bisect_right(parts, h[0]) for h in hits if h[3] != "chitchat"} \
        | {bisect_right(parts, v[0]) for v in value_hits} | {bisect_right(parts, p) for p, it in found if it.kind != "chitchat"}
    out: list[tuple[int, Intent]] = []
    seen: set[int] = set()
    for m in mentions:
        part = bisect_right(parts, m[0])
        if part in busy or part in seen or len(m[2]) != 1:
            continue
        seen.add(part)
        if sum(1 for x in mentions if bisect_right(parts, x[0]) == part) != 1:
            continue
        text = f[parts[part - 1] if part > 0 else 0 : parts[part] + 1 if part < len(parts) else len(f)]
        if lex.ability_re.search(text) is not None or asks_of_its_own(f, m, text, bounds, lex):
            (ln,) = m[2]
            out.append((m[0], Intent("spec", link=ln, attr="unknown")))
    return out


def asks_of_its_own(f: str, m: Mention, text: str, bounds: list[int], lex: Lexicon) -> bool:
    """Whether the part ``text`` naming ``m`` is a whole clause that is a question by its own marks or particles (not
    by an inversion alone) and holds at least two words of its own besides the name ("大米是新米吗 哪里产的": 新米, "dog
    bed cover washable? how big is it"); "5号呢", "粉底液呢" hold none (follow-ups), an opinion asks nothing beside
    another question ("worth it?").

    Args:
        f: the folded comment.
        m: the product mention of the part.
        text: the part's text (with the separator that ends it).
        bounds: the clause bounds (the part must be the whole clause).
        lex: the compiled words (``function_chars``, ``common``, ``opinion_re``).

    Returns:
        ``True`` when the clause asks something of its own about the product.
    """
    clause = clause_text(f, bounds, m[3])
    if clause.strip() != text.strip() or not is_question(text, inversions=False) \
            or (lex.opinion_re is not None and lex.opinion_re.search(text) is not None):
        return False
    rest = text.replace(f[m[0]:m[1]], " ")
    own = [w for w in WORDISH.findall(rest) if w not in lex.function_chars and w not in lex.common]
    return len(own) >= 2 or any(len(w) > 3 for w in own)


def joined_parts(f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]], mentions: list[Mention],
                 bounds: list[int], found: list[tuple[int, Intent]], lex: Lexicon) -> list[tuple[int, Intent]]:
    """A part of a clause after a joiner ("and", "y") that names no product and asks something no keyword names,
    with an ability word or an inversion of its own ("air fryer how many quarts and is the basket nonstick", "cuánto
    cuesta la sartén y sirve para inducción"): a ``spec(attr="unknown")`` question about the product the part
    before it asked about.

    Args:
        f: the folded comment.
        hits: the keyword hits (a part with any hit asks what its words say).
        value_hits: spec values of named products.
        mentions: the product mentions (a part naming one is :func:`named_parts`' or a follow-up).
        bounds: the clause bounds.
        found: the intents so far.
        lex: the compiled words (``joint_re``, ``ability_re``, ``inversion_re``).

    Returns:
        ``(position, spec intent)`` for each such part, about the single product of the part right before it in
        the same clause.
    """
    parts = sorted({m.start() for m in lex.joint_re.finditer(f)} - set(bounds))
    if not parts:
        return []
    cuts = sorted(set(parts) | set(bounds))
    busy = {bisect_right(cuts, h[0]) for h in hits} | {bisect_right(cuts, v[0]) for v in value_hits} \
        | {bisect_right(cuts, m[0]) for m in mentions} | {bisect_right(cuts, p) for p, _ in found}
    asked: dict[int, set[int]] = {}
    for p, it in found:
        if it.link is not None and it.kind in PRODUCT_KINDS:
            asked.setdefault(bisect_right(cuts, p), set()).add(it.link)
    out: list[tuple[int, Intent]] = []
    for j in parts:  # a joiner inside a clause: the part it opens
        part = bisect_right(cuts, j)
        before = asked.get(part - 1, set())
        if part in busy or len(before) != 1 or bisect_right(bounds, j) != bisect_right(bounds, cuts[part - 1]):
            continue
        if part >= 2 and cuts[part - 2] in bounds and not f[cuts[part - 2] + 1 : j].strip():
            continue  # "piano price? also does it ...": a joiner opening a clause parts nothing (the clause is carried)
        end = cuts[part] if part < len(cuts) else len(f)
        text = f[j:end]
        if lex.ability_re.search(text) is None and (lex.inversion_re is None or lex.inversion_re.search(text) is None):
            continue
        if len(WORDISH.findall(text)) < 3:
            continue
        out.append((j, Intent("spec", link=next(iter(before)), attr="unknown")))
    return out


__all__ = ["PRODUCT_KINDS", "WORDISH", "asks_of_its_own", "carried_questions", "joined_parts", "named_parts", "opinions_beside", "restates"]


# the old private names, for code that still imports them
_WORDISH = WORDISH
