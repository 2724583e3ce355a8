"""The strict check of each Live-IFEval instruction type: ``check(reply, params, locale, context) -> bool``.

Every function takes the reply, the validated params, the locale (``"zh_CN"`` or ``"en_US"``, see
:func:`~hat_env.ifeval.text.norm_locale`) and the context dict (:mod:`hat_env.ifeval.context`). Loose checks are
in :mod:`hat_env.evaluation.ifeval`.
"""

from __future__ import annotations

import re
from typing import Any

from hat_env.ifeval.context import repeat_target, viewer_names
from hat_env.ifeval.params import (
    CapitalFrequencyParams,
    CharsParams,
    EndParams,
    ForbiddenParams,
    FrequencyParams,
    KeywordsParams,
    LanguageParams,
    LinkParams,
    NoParams,
    PostscriptParams,
    RepeatParams,
    SentencesParams,
    StartParams,
    ViewerParams,
    WordsParams,
)
from hat_env.ifeval.text import (
    CJK_RE,
    LATIN_WORD_RE,
    count_capital_words,
    count_chars,
    count_sentences,
    count_term,
    count_words,
)

Ctx = dict[str, Any]

#: The opening and closing quotes ``startend:quotation`` accepts.
QUOTES: tuple[tuple[str, str], ...] = (('"', '"'), ("“", "”"))


def relation_ok(n: int, relation: str, bound: int) -> bool:
    """``n < bound`` for ``"less than"``, ``n >= bound`` for ``"at least"``."""
    return n < bound if relation == "less than" else n >= bound


def existence(reply: str, p: KeywordsParams, loc: str, ctx: Ctx) -> bool:
    return all(count_term(reply, k) > 0 for k in p.keywords)


def frequency(reply: str, p: FrequencyParams, loc: str, ctx: Ctx) -> bool:
    return relation_ok(count_term(reply, p.keyword), p.relation, p.frequency)


def forbidden(reply: str, p: ForbiddenParams, loc: str, ctx: Ctx) -> bool:
    return not any(count_term(reply, w) for w in p.forbidden_words)


def mention_link(reply: str, p: LinkParams, loc: str, ctx: Ctx) -> bool:
    n = p.link
    if re.search(rf"(?<!\d){n}\s*号|链接\s*{n}(?!\d)", reply):
        return True
    return bool(re.search(rf"(?<![A-Za-z0-9_])(?:link|item)\s*#?\s*{n}(?!\d)|#{n}(?!\d)", reply, re.IGNORECASE))


def mention_viewer(reply: str, p: ViewerParams, loc: str, ctx: Ctx) -> bool:
    low = reply.lower()
    return any(n.lower() in low for n in viewer_names(p, ctx))


def language(reply: str, p: LanguageParams, loc: str, ctx: Ctx) -> bool:
    cjk = len(CJK_RE.findall(reply))
    latin = len(LATIN_WORD_RE.findall(reply))
    if p.language == "zh":
        return cjk > 0 and cjk >= latin
    return latin > 0 and latin > cjk


def words(reply: str, p: WordsParams, loc: str, ctx: Ctx) -> bool:
    return relation_ok(count_words(reply), p.relation, p.num_words)


def chars(reply: str, p: CharsParams, loc: str, ctx: Ctx) -> bool:
    return relation_ok(count_chars(reply), p.relation, p.num_chars)


def sentences(reply: str, p: SentencesParams, loc: str, ctx: Ctx) -> bool:
    return relation_ok(count_sentences(reply), p.relation, p.num_sentences)


def postscript_re(marker: str) -> re.Pattern[str]:
    """The pattern of a postscript starting with ``marker`` (``P.S.`` and ``P.P.S`` allow a space after a dot)."""
    m = marker.strip().lower()
    if m == "p.p.s":
        return re.compile(r"\s*p\.\s?p\.\s?s.*$", re.MULTILINE)
    if m == "p.s.":
        return re.compile(r"\s*p\.\s?s\..*$", re.MULTILINE)
    return re.compile(r"\s*" + re.escape(m) + r".*$", re.MULTILINE)


def postscript(reply: str, p: PostscriptParams, loc: str, ctx: Ctx) -> bool:
    return bool(postscript_re(p.postscript_marker).findall(reply.lower()))


def start(reply: str, p: StartParams, loc: str, ctx: Ctx) -> bool:
    return reply.strip().lstrip("\"“「").lower().startswith(p.start_phrase.strip().lower())


def end(reply: str, p: EndParams, loc: str, ctx: Ctx) -> bool:
    return reply.strip().strip("\"“”").lower().endswith(p.end_phrase.strip().lower())


def quotation(reply: str, p: NoParams, loc: str, ctx: Ctx) -> bool:
    t = reply.strip()
    return len(t) > 1 and any(t[0] == a and t[-1] == b for a, b in QUOTES)


def lowercase(reply: str, p: NoParams, loc: str, ctx: Ctx) -> bool:
    return reply.islower()


def uppercase(reply: str, p: NoParams, loc: str, ctx: Ctx) -> bool:
    return reply.isupper()


def capital_frequency(reply: str, p: CapitalFrequencyParams, loc: str, ctx: Ctx) -> bool:
    return relation_ok(count_capital_words(reply), p.capital_relation, p.capital_frequency)


def no_comma(reply: str, p: NoParams, loc: str, ctx: Ctx) -> bool:
    return "," not in reply and "，" not in reply


def repeat_prompt(reply: str, p: RepeatParams, loc: str, ctx: Ctx) -> bool:
    target = repeat_target(p, ctx)
    return bool(target) and reply.strip().lower().startswith(target.lower())
