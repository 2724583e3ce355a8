"""How the reference agent follows Live-IFEval instructions: a deterministic rewrite of a correct reply per
instruction type (:func:`satisfy`), all of a harness's instructions together (:func:`satisfy_all`), and the
search for a composed reply short enough that the rewritten one fits the length limit (:func:`fit_reply`).

A rewrite returns the reply unchanged when it already passes the check, or when following is impossible (a reply in
the wrong language cannot be translated). The instruction types, their checks and the kind of edit each asks for
(:class:`~hat_env.ifeval.registry.Stage`) are :mod:`hat_env.ifeval`'s; the sentences a rewrite adds (keyword
sentences, fillers, the postscript) come from the locale file's ``ifeval`` section.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from pydantic import BaseModel

from hat_env.agents.edits import (
    append,
    ctx_keep,
    ctx_protect,
    cut_chars,
    cut_words,
    end_sentence,
    keyword_sentence,
    map_outside,
    merge_sentences,
    pad,
    remove_term,
    tidy,
)
from hat_env.agents.edits import trim as trim_text
from hat_env.ifeval.context import repeat_target, viewer_names
from hat_env.ifeval.params import (
    CapitalFrequencyParams,
    CharsParams,
    EndParams,
    ForbiddenParams,
    FrequencyParams,
    KeywordsParams,
    LinkParams,
    NoParams,
    PostscriptParams,
    RepeatParams,
    SentencesParams,
    StartParams,
    ViewerParams,
    WordsParams,
)
from hat_env.ifeval.registry import InstructionType, Stage, check_all, resolve
from hat_env.ifeval.text import (
    PUNCT_END,
    WORD_RE,
    count_capital_words,
    count_chars,
    count_sentences,
    count_term,
    count_words,
    is_zh,
    norm_locale,
    overlaps,
    spans,
    split_sentences,
)
from hat_env.locales import get_locale

Ctx = dict[str, Any]


@dataclass(frozen=True)
class Rewrite:
    """How the reference agent follows one instruction type.

    Attributes:
        satisfy: ``(reply, params, locale, context) -> reply`` that passes the check (called only when it fails).
        protects: ``(params, locale, context) -> strings`` the other rewrites must not drop or split (keywords,
            phrases, the repeated prompt).
    """

    satisfy: Callable[[str, Any, str, Ctx], str]
    protects: Callable[[Any, str, Ctx], list[str]] = lambda p, loc, ctx: []


# --- one rewrite per type ----------------------------------------------------------------------------------


def _existence(reply: str, p: KeywordsParams, loc: str, ctx: Ctx) -> str:
    for k in p.keywords:
        if count_term(reply, k) == 0:
            reply = append(reply, keyword_sentence(k, loc), loc)
    return reply


def _frequency(reply: str, p: FrequencyParams, loc: str, ctx: Ctx) -> str:
    n = count_term(reply, p.keyword)
    if p.relation == "at least":
        per = max(1, count_term(keyword_sentence(p.keyword, loc), p.keyword))
        while n < p.frequency:
            reply = append(reply, keyword_sentence(p.keyword, loc), loc)
            n += per
        return reply
    extra = n - (p.frequency - 1)
    return remove_term(reply, p.keyword, ctx_keep(ctx), extra, ctx_protect(ctx))


def _forbidden(reply: str, p: ForbiddenParams, loc: str, ctx: Ctx) -> str:
    for w in sorted(p.forbidden_words, key=len, reverse=True):
        reply = remove_term(reply, w, ctx_keep(ctx), None, ctx_protect(ctx))
    return reply


def _link_text(p: LinkParams, loc: str) -> str:
    return f"{p.link}号链接" if is_zh(loc) else f"link {p.link}"


def _mention_link(reply: str, p: LinkParams, loc: str, ctx: Ctx) -> str:
    add = f"大家也可以看看{p.link}号链接。" if is_zh(loc) else f"Also check out link {p.link}."
    return append(reply, add, loc)


def _mention_viewer(reply: str, p: ViewerParams, loc: str, ctx: Ctx) -> str:
    names = viewer_names(p, ctx)
    if not names:
        return reply
    return f"@{names[0]} {reply.lstrip()}"


def _length(reply: str, relation: str, num: int, count: Callable[[str], int], cut: Callable[[str, int, str], str],
            loc: str, ctx: Ctx) -> str:
    """``reply`` brought to ``relation`` (``"at least"`` or ``"less than"``) ``num`` of what ``count`` counts
    (words, characters): padded when it needs at least ``num``, else cut with ``cut(text, n, loc)`` to ``num - 1``
    at most (left as it is when the context says not to trim, ``ctx["_trim"]`` False)."""
    if relation == "at least":
        return pad(reply, lambda t: count(t) >= num, loc)
    if not ctx.get("_trim", True):
        return reply
    n = num - 1
    return trim_text(reply, lambda t: count(t) > n, lambda t: cut(t, n, loc), loc, ctx_protect(ctx))


def _words(reply: str, p: WordsParams, loc: str, ctx: Ctx) -> str:
    return _length(reply, p.relation, p.num_words, count_words, cut_words, loc, ctx)


def _chars(reply: str, p: CharsParams, loc: str, ctx: Ctx) -> str:
    return _length(reply, p.relation, p.num_chars, count_chars, cut_chars, loc, ctx)


def _sentences(reply: str, p: SentencesParams, loc: str, ctx: Ctx) -> str:
    if p.relation == "at least":
        return pad(reply, lambda t: count_sentences(t) >= p.num_sentences, loc)
    text = merge_sentences(reply, p.num_sentences - 1, loc, ctx_protect(ctx))
    if count_sentences(text) >= p.num_sentences and ctx.get("_trim", True):
        n = p.num_sentences - 1
        text = trim_text(text, lambda t: count_sentences(t) > n,
                         lambda t: "".join(split_sentences(t)[:n]).strip(), loc, ctx_protect(ctx))
    return text


def _postscript(reply: str, p: PostscriptParams, loc: str, ctx: Ctx) -> str:
    sep = "" if p.postscript_marker.endswith(("：", ":")) else " "
    gap = "" if is_zh(loc) else " "
    text = get_locale(loc).ifeval.postscript_text
    return f"{end_sentence(reply, loc)}{gap}{p.postscript_marker}{sep}{text}".strip()


def _start(reply: str, p: StartParams, loc: str, ctx: Ctx) -> str:
    phrase = p.start_phrase.strip()
    sep = "" if phrase[-1] in PUNCT_END + "，,：:" else ("！" if is_zh(loc) else "! ")
    return f"{phrase}{sep}{reply.strip()}".strip()


def _end(reply: str, p: EndParams, loc: str, ctx: Ctx) -> str:
    return append(reply.strip(), p.end_phrase.strip(), loc)


def _quotation(reply: str, p: NoParams, loc: str, ctx: Ctx) -> str:
    a, b = ("“", "”") if is_zh(loc) else ('"', '"')
    return f"{a}{reply.strip()}{b}"


def _lowercase(reply: str, p: NoParams, loc: str, ctx: Ctx) -> str:
    return map_outside(reply, ctx_keep(ctx), str.lower)


def _uppercase(reply: str, p: NoParams, loc: str, ctx: Ctx) -> str:
    return map_outside(reply, ctx_keep(ctx), str.upper)


def _capital_frequency(reply: str, p: CapitalFrequencyParams, loc: str, ctx: Ctx) -> str:
    kspans = spans(reply, ctx_keep(ctx))
    toks = [m for m in WORD_RE.finditer(reply) if not overlaps(m.start(), m.end(), kspans)]
    n = count_capital_words(reply)
    chars = list(reply)
    if p.capital_relation == "at least":
        for m in toks:
            if n >= p.capital_frequency:
                break
            w = m.group()
            if not w.isupper() and w.upper().isupper() and w.upper() != w:
                chars[m.start() : m.end()] = list(w.upper())
                n += 1
        out = "".join(chars)
        while n < p.capital_frequency:  # not enough words to raise
            out = append(out, "OK!", loc)
            n += 1
        return out
    for m in reversed(toks):
        if n < p.capital_frequency:
            break
        w = m.group()
        if w.isupper():
            new = w[:1] + w[1:].lower() if len(w) > 1 and w[1:].lower() != w[1:] else w.lower()
            chars[m.start() : m.end()] = list(new)
            n -= 1
    return "".join(chars)


def _no_comma(reply: str, p: NoParams, loc: str, ctx: Ctx) -> str:
    def fix(t: str) -> str:
        t = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", t)
        t = t.replace("，", " ")
        t = re.sub(r"\s*,\s*", "; ", t)
        return t

    return tidy(map_outside(reply, ctx_keep(ctx), fix), ctx_protect(ctx))


def _repeat_prompt(reply: str, p: RepeatParams, loc: str, ctx: Ctx) -> str:
    target = repeat_target(p, ctx)
    if not target:
        return reply
    asks = bool(WORD_RE.match(target[-1]))  # ends in a word: close the question; else (punctuation, emoji) not
    if is_zh(loc):
        sep = "？" if asks else ("" if target[-1] in PUNCT_END else " ")
    else:
        sep = "? " if asks else " "
    return f"{target}{sep}{reply.strip()}"


#: The rewrite of every instruction type of :data:`hat_env.ifeval.INSTRUCTIONS`.
REWRITES: dict[str, Rewrite] = {
    "keywords:existence": Rewrite(_existence, lambda p, loc, c: list(p.keywords)),
    "keywords:frequency": Rewrite(_frequency, lambda p, loc, c: [p.keyword] if p.relation == "at least" else []),
    "keywords:forbidden_words": Rewrite(_forbidden),
    "keywords:mention_link": Rewrite(_mention_link, lambda p, loc, c: [_link_text(p, loc)]),
    "language:response_language": Rewrite(lambda r, p, loc, c: r),
    "length_constraints:number_words": Rewrite(_words),
    "length_constraints:number_chars": Rewrite(_chars),
    "length_constraints:number_sentences": Rewrite(_sentences),
    "detectable_content:postscript": Rewrite(_postscript, lambda p, loc, c: [p.postscript_marker]),
    "detectable_content:mention_viewer": Rewrite(_mention_viewer, lambda p, loc, c: viewer_names(p, c)[:1]),
    "startend:start_checker": Rewrite(_start, lambda p, loc, c: [p.start_phrase]),
    "startend:end_checker": Rewrite(_end, lambda p, loc, c: [p.end_phrase]),
    "startend:quotation": Rewrite(_quotation),
    "change_case:english_lowercase": Rewrite(_lowercase),
    "change_case:english_capital": Rewrite(_uppercase),
    "change_case:capital_word_frequency": Rewrite(_capital_frequency),
    "punctuation:no_comma": Rewrite(_no_comma),
    "combination:repeat_prompt": Rewrite(_repeat_prompt, lambda p, loc, c: [repeat_target(p, c)]),
}


def _rewrite(t: InstructionType, reply: str, p: BaseModel, locale: str, context: Ctx | None) -> str:
    """``reply`` when it passes ``t``'s check, else ``t``'s rewrite of it."""
    loc = norm_locale(locale)
    ctx = context or {}
    reply = reply or ""
    if t.check(reply, p, loc, ctx):
        return reply
    return REWRITES[t.id].satisfy(reply, p, loc, ctx)


def _protects(t: InstructionType, p: BaseModel, locale: str, context: Ctx | None) -> list[str]:
    return REWRITES[t.id].protects(p, norm_locale(locale), context or {})


# --- whole replies -----------------------------------------------------------------------------------------


def satisfy(reply: str, inst: dict[str, Any], locale: str, context: Ctx | None = None) -> str:
    """Rewrite ``reply`` to follow one instruction dict (unchanged when it already does, or cannot).

    Args:
        reply: a correct reply.
        inst: ``{"type": TYPE_ID, **params}``.
        locale: the room's locale.
        context: what the instruction reads (:func:`hat_env.ifeval.make_context`).

    Raises:
        ValueError: unknown type or bad params.
    """
    t, p = resolve(inst)
    return _rewrite(t, reply, p, locale, context)


def _prepared(instructions: list[dict[str, Any]], locale: str, context: Ctx | None,
              trim_: bool) -> tuple[list[tuple[InstructionType, BaseModel]], Ctx]:
    items = [resolve(i) for i in instructions or []]
    ctx = dict(context or {})
    protect = list(ctx.get("protect", []) or [])
    for t, p in items:
        protect += [x for x in _protects(t, p, locale, ctx) if x]
    ctx["protect"] = protect
    ctx["_trim"] = trim_
    return items, ctx


def satisfy_all(reply: str, instructions: list[dict[str, Any]], locale: str, context: Ctx | None = None,
                trim: bool = True, max_chars: int | None = None) -> str:
    """Rewrite ``reply`` to follow every instruction.

    Each instruction's rewrite runs once per pass, in stage order (additions, length padding, postscript, prefixes,
    end phrase, removals, shortening, commas, case, quotes; the list order within a stage), so that a later
    rewrite does not undo an earlier one; up to three passes run until every check holds. Shortening never drops a
    sentence holding a protected string (keywords, phrases, the repeated prompt, ``context["keep"]``).

    Args:
        reply: a correct reply.
        instructions: instruction dicts.
        locale: the room's locale.
        context: what the instructions read (:func:`hat_env.ifeval.make_context`).
        trim: allow "less than" word/character/sentence limits to drop text (merging sentences is always allowed);
            :func:`fit_reply` first tries without, shortening the composed reply instead.
        max_chars: with ``trim``, also drop unprotected sentences / clauses (then cut) so that the reply has at most
            this many characters (``len``) where the instructions allow it.

    Returns:
        The rewritten reply (it may still fail a check that cannot be met).
    """
    items, ctx = _prepared(instructions, locale, context, trim)
    if not items:
        return reply
    loc = norm_locale(locale)
    order = sorted(range(len(items)), key=lambda i: (items[i][0].stage(items[i][1]), i))
    wrap = sum(2 for t, _ in items if t.id == "startend:quotation")
    limit = max_chars - wrap if max_chars else None
    protect = ctx_protect(ctx)
    text = reply
    for _ in range(3):
        shrunk = False
        for i in order:
            t, p = items[i]
            if limit and trim and not shrunk and t.stage(p) > Stage.SHRINK:
                text = _cut_to(text, limit, loc, protect)
                shrunk = True
            text = _rewrite(t, text, p, locale, ctx)
        if limit and trim and not shrunk:
            text = _cut_to(text, limit, loc, protect)
        if all(t.check(text, p, locale, ctx) for t, p in items) and not (max_chars and len(text) > max_chars):
            break
    return text


def _cut_to(text: str, limit: int, loc: str, protect: list[str]) -> str:
    """``text`` shortened to at most ``limit`` characters (``len``), protected sentences kept where possible."""
    return trim_text(text, lambda x: len(x) > limit, lambda x: x[:limit], loc, protect)


def fit_reply(
    compose: Callable[[int], str],
    instructions: list[dict[str, Any]],
    locale: str,
    context: Ctx | None = None,
    max_chars: int | None = None,
    budget: int | None = None,
    min_budget: int = 20,
) -> str:
    """A reply that follows ``instructions`` within ``max_chars``, from a composer of correct replies.

    ``compose(budget)`` writes a correct reply of at most ``budget`` characters (shorter budgets give shorter
    wordings). The budget shrinks until :func:`satisfy_all` (first without trimming, then with it) gives a reply
    that passes every check and fits ``max_chars``; otherwise the reply with the fewest failures is returned.

    Args:
        compose: the composer.
        instructions: instruction dicts.
        locale: the room's locale.
        context: what the instructions read (:func:`hat_env.ifeval.make_context`).
        max_chars: the harness's reply length limit (``None``: none).
        budget: the first budget (default: ``max_chars``, else 400).
        min_budget: the smallest budget tried.
    """
    start = budget if budget is not None else (max_chars or 400)
    best: tuple[tuple[int, int], str] | None = None
    for trim_ in (False, True):
        b = max(min_budget, start)
        seen: set[str] = set()
        for _ in range(24):
            body = compose(b)
            if body not in seen:
                seen.add(body)
                out = satisfy_all(body, instructions, locale, context, trim=trim_,
                                  max_chars=max_chars if trim_ else None)
                fails = sum(1 for ok in check_all(out, instructions, locale, context) if not ok)
                over = len(out) - max_chars if max_chars else 0
                key = (fails + (1 if over > 0 else 0), max(0, over))
                if best is None or key < best[0]:
                    best = (key, out)
                if key == (0, 0):
                    return out
            else:
                over = 0
            if b <= min_budget:
                break
            step = over if over > 0 else max(4, b // 8)
            b = max(min_budget, b - step)
    assert best is not None
    return best[1]


__all__ = ["REWRITES", "Rewrite", "fit_reply", "satisfy", "satisfy_all"]
