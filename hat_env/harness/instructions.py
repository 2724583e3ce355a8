"""Verifiable instructions for a spoken live reply (Live-IFEval), kept as harness data.

An instruction is a plain dict ``{"type": TYPE_ID, **params}`` in ``constraints.instructions`` of a harness, so an
operator can change them at runtime with a patch (``{"op": "set", "path": "constraints.instructions", ...}``).
Type ids follow IFEval (google-research ``instruction_following_eval``) where a type fits a spoken reply; a few
live-room types (``startend:start_checker``, ``keywords:mention_link``, ``detectable_content:mention_viewer``)
follow its spirit. Relations are IFEval's ``"less than"`` (``<``) and ``"at least"`` (``>=``).

Every type in :data:`INSTRUCTIONS` offers:

- ``validate(params)``: the params checked by a pydantic model (unknown keys are errors);
- ``describe(params, locale) -> str``: the instruction as shown in the system prompt, in the locale's language;
- ``check(reply, params, locale, context) -> bool``: the strict check (loose checks are in
  :mod:`hat_env.evaluation.ifeval`);
- ``satisfy(reply, params, locale, context) -> str``: a deterministic rewrite of a correct reply that makes it
  follow the instruction (used by the scripted reference agent); it returns the reply unchanged when that is
  impossible (e.g. a reply in the wrong language cannot be translated);
- ``sample(rng, locale) -> params``.

Counting rules. English words are IFEval's ``\\w+`` tokens. Chinese has no spaces, so Chinese replies are measured
in characters with the separate ``length_constraints:number_chars`` type (every character except whitespace), and
Chinese terms match as substrings while ASCII terms match at word boundaries, case-insensitively. Sentences end at
``。！？`` anywhere and at ``.!?`` before whitespace or the end (``3.5g`` and ``P.S.`` do not end one); a sentence
counts when it holds a word character.

``context`` is a dict: ``comments`` (the viewer comments of the request, oldest first: texts, or dicts with
``text`` and ``viewer``), ``prompt`` (the text ``combination:repeat_prompt`` repeats; ``comment`` is accepted too;
default: the first comment), ``viewers`` (viewer names, for ``detectable_content:mention_viewer``; default: the
``viewer`` of comment dicts), ``keep`` (strings a rewrite must leave as they are, e.g. the harness's required
disclosure). :func:`make_context` builds it.
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass
from typing import Any, Callable, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

Relation = Literal["less than", "at least"]
RELATIONS: tuple[str, ...] = ("less than", "at least")
LOCALES: tuple[str, ...] = ("zh_CN", "en_US")

# --- text helpers ------------------------------------------------------------------------------------------

_CJK_RE = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD_RE = re.compile(r"[A-Za-z]+")
_WORD_RE = re.compile(r"\w+")
# A sentence ends at 。！？ (anywhere) or at .!? before whitespace / the end / a Chinese character; closing quotes
# and the whitespace after belong to the terminator. "P.S." and common abbreviations do not end a sentence.
_TERM_RE = re.compile(
    r"(?:[。！？]+|(?<![Pp]\.[Ss])(?<!\bMr)(?<!\bMs)(?<!\bDr)(?<!\bJr)(?<!\bSt)(?<!\bMrs)[.!?]+"
    r"(?=[\s\"'”’」』)）]|$|[\u3400-\u9fff]))[\"'”’」』)）]*\s*"
)
_CLAUSE_RE = re.compile(r"[，,；;、]\s*")
_PUNCT_END = "。！？!?.～~…"


def is_zh(locale: str) -> bool:
    """Whether ``locale`` is Chinese."""
    return str(locale).lower().startswith("zh")


def count_words(text: str) -> int:
    """IFEval's word count: ``\\w+`` tokens (a run of Chinese characters is one token)."""
    return len(_WORD_RE.findall(text))


def count_chars(text: str) -> int:
    """Characters except whitespace (the Chinese length measure)."""
    return sum(1 for ch in text if not ch.isspace())


def split_sentences(text: str) -> list[str]:
    """``text`` cut after each sentence terminator (terminator and trailing spaces kept): ``"".join`` gives it
    back."""
    out: list[str] = []
    prev = 0
    for m in _TERM_RE.finditer(text):
        if m.end() > prev:
            out.append(text[prev : m.end()])
            prev = m.end()
    if prev < len(text):
        out.append(text[prev:])
    return out


def count_sentences(text: str) -> int:
    """Sentences holding at least one word character."""
    return sum(1 for s in split_sentences(text) if _WORD_RE.search(s))


def count_capital_words(text: str) -> int:
    """IFEval's capital-word count: ``\\w+`` tokens that are all upper case (``"SPF50"``, ``"I"``)."""
    return sum(1 for w in _WORD_RE.findall(text) if w.isupper())


def _is_ascii_term(term: str) -> bool:
    return term.isascii()


@functools.lru_cache(maxsize=512)
def _term_re(term: str) -> re.Pattern[str]:
    """Chinese (non-ASCII) terms as substrings; ASCII terms at word boundaries; both case-insensitive."""
    esc = re.escape(term)
    if _is_ascii_term(term):
        return re.compile(rf"(?<![A-Za-z0-9_]){esc}(?![A-Za-z0-9_])", re.IGNORECASE)
    return re.compile(esc, re.IGNORECASE)


def count_term(text: str, term: str) -> int:
    """Occurrences of ``term`` in ``text`` (see :func:`_term_re`)."""
    if not term:
        return 0
    return len(_term_re(term).findall(text))


def _spans(text: str, phrases: list[str]) -> list[tuple[int, int]]:
    low = text.lower()
    out = []
    for p in phrases:
        p = (p or "").strip().lower()
        if not p:
            continue
        i = low.find(p)
        while i >= 0:
            out.append((i, i + len(p)))
            i = low.find(p, i + 1)
    return out


def _overlaps(a: int, b: int, spans: list[tuple[int, int]]) -> bool:
    return any(a < e and b > s for s, e in spans)


def _map_outside(text: str, keep: list[str], fn: Callable[[str], str]) -> str:
    """Apply ``fn`` to the parts of ``text`` outside every occurrence of the ``keep`` strings."""
    spans = sorted(_spans(text, [k for k in keep if k]))
    if not spans:
        return fn(text)
    out, pos = [], 0
    for s, e in spans:
        if s < pos:
            s = pos
        if e <= pos:
            continue
        out.append(fn(text[pos:s]))
        out.append(text[s:e])
        pos = e
    out.append(fn(text[pos:]))
    return "".join(out)


def _tidy(text: str, protect: list[str] | None = None) -> str:
    """Collapse doubled spaces and spaces before punctuation left by removals (not inside ``protect``)."""
    if protect:
        return _map_outside(text, protect, _tidy_part).strip()
    return _tidy_part(text).strip()


def _tidy_part(text: str) -> str:
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r"\s+([,.!?;:，。！？；：、])", r"\1", text)
    text = re.sub(r"([，。！？；：、])\s+(?=[\u3400-\u9fff])", r"\1", text)
    text = re.sub(r"([，,])\s*([，,。.!?！？])", r"\2", text)
    text = re.sub(r"^[，,。.;；]+", "", text)
    return text


def _end_sentence(text: str, locale: str) -> str:
    """``text`` with a sentence terminator at its end (added when missing)."""
    t = text.rstrip()
    if not t:
        return t
    if t[-1] in _PUNCT_END or t[-1] in "\"”」』":
        return t
    return t + ("。" if is_zh(locale) else ".")


def _append(text: str, addition: str, locale: str) -> str:
    """Append a sentence (``addition`` already punctuated) to ``text``."""
    t = _end_sentence(text, locale)
    if not t:
        return addition
    return t + addition if is_zh(locale) else f"{t} {addition}"


def _ctx_keep(context: dict[str, Any] | None) -> list[str]:
    return [k for k in (context or {}).get("keep", []) or [] if k]


def _ctx_protect(context: dict[str, Any] | None) -> list[str]:
    c = context or {}
    return [p for p in list(c.get("protect", []) or []) + _ctx_keep(c) if p]


def prompt_of(context: dict[str, Any] | None) -> str:
    """The text ``combination:repeat_prompt`` asks to repeat: ``context["prompt"]`` (or ``context["comment"]``),
    else the first of ``context["comments"]``."""
    c = context or {}
    for key in ("prompt", "comment"):
        if c.get(key):
            return str(c[key]).strip()
    comments = c.get("comments") or []
    if not comments:
        return ""
    first = comments[0]
    return str(first.get("text", "") if isinstance(first, dict) else first).strip()


def make_context(
    comments: list[str] | None = None,
    viewers: list[str] | None = None,
    keep: list[str] | None = None,
    prompt: str | None = None,
) -> dict[str, Any]:
    """The ``context`` dict checks and rewrites read (see the module docstring)."""
    ctx: dict[str, Any] = {"comments": list(comments or []), "viewers": list(viewers or []), "keep": list(keep or [])}
    if prompt:
        ctx["prompt"] = prompt
    return ctx


def _relation_ok(n: int, relation: str, bound: int) -> bool:
    return n < bound if relation == "less than" else n >= bound


_REL_ZH = {"less than": "少于", "at least": "至少"}


# --- word pools (checked in the tests: pools are disjoint and free of compliance terms) --------------------

#: Keywords the sampler asks for (``keywords:existence`` / ``keywords:frequency``), with a sentence that says each.
KEYWORDS: dict[str, dict[str, str]] = {
    "zh_CN": {
        "宝子们": "宝子们看过来！",
        "小伙伴": "小伙伴们看过来！",
        "下单": "喜欢就下单吧！",
        "福利": "福利都在直播间！",
        "点赞": "记得点赞！",
        "收藏": "可以先收藏！",
        "加购": "可以先加购！",
        "划算": "现在入手很划算！",
    },
    "en_US": {
        "deal": "Great deal!",
        "friends": "Hello friends!",
        "checkout": "See you at checkout!",
        "cart": "Add it to your cart!",
        "stream": "Stay on the stream!",
        "shop": "Happy to shop with you!",
    },
}
#: Words the sampler forbids (fillers a reply can lose without losing a fact).
FORBIDDEN_POOL: dict[str, tuple[str, ...]] = {
    "zh_CN": ("哦", "呢", "呀", "啦", "真的", "超级", "非常", "绝对"),
    "en_US": ("really", "very", "just", "honestly", "totally", "actually", "now", "guys"),
}
START_PHRASES: dict[str, tuple[str, ...]] = {
    "zh_CN": ("家人们好", "哈喽大家好", "来了来了", "好的收到", "欢迎欢迎"),
    "en_US": ("Hey everyone", "Hello there", "Great question", "Hi all", "Okay"),
}
END_PHRASES: dict[str, tuple[str, ...]] = {
    "zh_CN": ("有问题随时问我！", "我们下次见～", "谢谢大家的支持！", "大家慢慢挑～"),
    "en_US": ("Any other questions?", "Happy shopping!", "See you in the chat!", "Enjoy the show!"),
}
#: Sentences added to reach an "at least" length (no number, no claim, no comma, no pooled word).
FILLERS: dict[str, tuple[str, ...]] = {
    "zh_CN": ("欢迎新进来的朋友。", "有问题可以打在公屏上。", "喜欢的话可以点个关注。", "主播一直在线陪大家。", "大家按需选择。"),
    "en_US": (
        "Welcome to everyone joining.",
        "Drop your questions in the chat.",
        "Follow the room for more.",
        "Happy to help anytime.",
        "Take your time to choose.",
    ),
}
POSTSCRIPT_MARKERS: dict[str, tuple[str, ...]] = {"zh_CN": ("P.S.", "附："), "en_US": ("P.S.", "P.P.S")}
POSTSCRIPT_TEXT: dict[str, str] = {"zh_CN": "下次开播见。", "en_US": "See you next time."}


def _loc(locale: str) -> str:
    return "zh_CN" if is_zh(locale) else "en_US"


# --- params models -----------------------------------------------------------------------------------------


class _P(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _NoParams(_P):
    pass


def _nonempty_words(v: list[str]) -> list[str]:
    if any(not isinstance(w, str) or not w.strip() for w in v):
        raise ValueError("words must be non-empty strings")
    return [w.strip() for w in v]


class KeywordsParams(_P):
    keywords: list[str] = Field(min_length=1, max_length=8)

    @field_validator("keywords")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _nonempty_words(v)


class FrequencyParams(_P):
    keyword: str = Field(min_length=1, pattern=r"\S")
    frequency: int = Field(ge=1, le=20)
    relation: Relation = "at least"


class ForbiddenParams(_P):
    forbidden_words: list[str] = Field(min_length=1, max_length=16)

    @field_validator("forbidden_words")
    @classmethod
    def _words(cls, v: list[str]) -> list[str]:
        return _nonempty_words(v)


class LinkParams(_P):
    link: int = Field(ge=1, le=999)


class LanguageParams(_P):
    language: Literal["zh", "en"]


class WordsParams(_P):
    num_words: int = Field(ge=1, le=2000)
    relation: Relation


class CharsParams(_P):
    num_chars: int = Field(ge=1, le=5000)
    relation: Relation


class SentencesParams(_P):
    num_sentences: int = Field(ge=1, le=100)
    relation: Relation


class PostscriptParams(_P):
    postscript_marker: str = Field("P.S.", min_length=1, max_length=16)


class StartParams(_P):
    start_phrase: str = Field(min_length=1, max_length=80)


class EndParams(_P):
    end_phrase: str = Field(min_length=1, max_length=80)


class CapitalFrequencyParams(_P):
    capital_frequency: int = Field(ge=1, le=50)
    capital_relation: Relation


class RepeatParams(_P):
    prompt_to_repeat: str | None = Field(None, max_length=500)


class ViewerParams(_P):
    name: str | None = Field(None, max_length=64)


# --- the type record ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InstructionType:
    """One verifiable instruction type (see the module docstring for the methods).

    Attributes:
        id: the type id (``"keywords:existence"``).
        model: the pydantic params model.
        locales: locales the sampler draws it for (every type can still be checked in any locale).
        stage: where :func:`satisfy_all` applies its rewrite (additions first, removals and trimming later,
            case changes and the wrapping quotes last), given the params.
        group: instruction types of one group exclude each other in :func:`sample_instructions`.
    """

    id: str
    model: type[BaseModel]
    locales: tuple[str, ...]
    _describe: Callable[[Any, str], str]
    _check: Callable[[str, Any, str, dict[str, Any]], bool]
    _satisfy: Callable[[str, Any, str, dict[str, Any]], str]
    _sample: Callable[[random.Random, str], dict[str, Any]]
    _stage: Callable[[Any], int]
    _protects: Callable[[Any, str, dict[str, Any]], list[str]] = lambda p, loc, ctx: []
    group: str = ""

    def validate(self, params: dict[str, Any] | BaseModel | None) -> BaseModel:
        """Validated params (a ``"type"`` key, as in a whole instruction dict, is ignored).

        Raises:
            ValueError: the params do not fit the type.
        """
        if isinstance(params, self.model):
            return params
        d = dict(params or {})
        d.pop("type", None)
        try:
            return self.model.model_validate(d)
        except ValidationError as exc:
            errs = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'params'}: {e['msg']}" for e in exc.errors())
            raise ValueError(f"instruction {self.id}: {errs}") from None

    def describe(self, params: dict[str, Any] | BaseModel | None, locale: str) -> str:
        """The instruction as shown to the model, in ``locale``'s language."""
        return self._describe(self.validate(params), _loc(locale))

    def check(self, reply: str, params: dict[str, Any] | BaseModel | None, locale: str,
              context: dict[str, Any] | None = None) -> bool:
        """Strict check of ``reply``."""
        return bool(self._check(reply or "", self.validate(params), _loc(locale), context or {}))

    def satisfy(self, reply: str, params: dict[str, Any] | BaseModel | None, locale: str,
                context: dict[str, Any] | None = None) -> str:
        """A deterministic rewrite of ``reply`` that follows the instruction (unchanged when impossible)."""
        p = self.validate(params)
        loc = _loc(locale)
        ctx = context or {}
        reply = reply or ""
        if self._check(reply, p, loc, ctx):
            return reply
        return self._satisfy(reply, p, loc, ctx)

    def sample(self, rng: random.Random, locale: str) -> dict[str, Any]:
        """Random params for ``locale``."""
        return self._sample(rng, _loc(locale))

    def stage(self, params: dict[str, Any] | BaseModel | None) -> int:
        """Rewrite order in :func:`satisfy_all`."""
        return self._stage(self.validate(params))

    def protects(self, params: dict[str, Any] | BaseModel | None, locale: str,
                 context: dict[str, Any] | None = None) -> list[str]:
        """Strings the other rewrites must not drop or split (keywords, phrases, the repeated prompt)."""
        return self._protects(self.validate(params), _loc(locale), context or {})


# Stages of satisfy_all.
_S_ADD, _S_PAD, _S_PS, _S_PREFIX, _S_END, _S_REMOVE, _S_SHRINK, _S_COMMA, _S_CASE, _S_WRAP = range(10)


def _const(n: int) -> Callable[[Any], int]:
    return lambda p: n


def _rel_stage(relation_attr: str) -> Callable[[Any], int]:
    return lambda p: _S_PAD if getattr(p, relation_attr) == "at least" else _S_SHRINK


def _quote_list(words: list[str], zh: bool) -> str:
    return "、".join(f"“{w}”" for w in words) if zh else ", ".join(f'"{w}"' for w in words)


# keywords:existence ----------------------------------------------------------------------------------------


def _kw_sentence(kw: str, locale: str) -> str:
    s = KEYWORDS.get(locale, {}).get(kw)
    if s is None:
        s = f"{kw}！" if is_zh(locale) else f"{kw[:1].upper()}{kw[1:]}!"
    return s


def _existence_check(reply: str, p: KeywordsParams, loc: str, ctx: dict[str, Any]) -> bool:
    return all(count_term(reply, k) > 0 for k in p.keywords)


def _existence_satisfy(reply: str, p: KeywordsParams, loc: str, ctx: dict[str, Any]) -> str:
    for k in p.keywords:
        if count_term(reply, k) == 0:
            reply = _append(reply, _kw_sentence(k, loc), loc)
    return reply


def _existence_describe(p: KeywordsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中要包含这些词：{_quote_list(p.keywords, True)}。"
    return f"Include the keywords {_quote_list(p.keywords, False)} in your reply."


def _existence_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    return {"keywords": rng.sample(sorted(KEYWORDS[loc]), rng.randint(1, 2))}


# keywords:frequency ----------------------------------------------------------------------------------------


def _remove_term(text: str, term: str, keep: list[str], count_from_end: int | None = None,
                 protect: list[str] | None = None) -> str:
    """Remove occurrences of ``term`` outside ``keep``; with ``count_from_end``, only that many, last first.
    Spacing is tidied outside ``protect``."""
    rx = _term_re(term)
    kspans = _spans(text, keep)
    hits = [m for m in rx.finditer(text) if not _overlaps(m.start(), m.end(), kspans)]
    if count_from_end is not None:
        hits = hits[len(hits) - count_from_end :] if count_from_end > 0 else []
    if not hits:
        return text
    for m in reversed(hits):
        text = text[: m.start()] + text[m.end() :]
    return _tidy(text, protect)


def _frequency_check(reply: str, p: FrequencyParams, loc: str, ctx: dict[str, Any]) -> bool:
    return _relation_ok(count_term(reply, p.keyword), p.relation, p.frequency)


def _frequency_satisfy(reply: str, p: FrequencyParams, loc: str, ctx: dict[str, Any]) -> str:
    n = count_term(reply, p.keyword)
    if p.relation == "at least":
        per = max(1, count_term(_kw_sentence(p.keyword, loc), p.keyword))
        while n < p.frequency:
            reply = _append(reply, _kw_sentence(p.keyword, loc), loc)
            n += per
        return reply
    extra = n - (p.frequency - 1)
    return _remove_term(reply, p.keyword, _ctx_keep(ctx), extra, _ctx_protect(ctx))


def _frequency_describe(p: FrequencyParams, loc: str) -> str:
    if is_zh(loc):
        return f"“{p.keyword}”这个词在回复中要出现{_REL_ZH[p.relation]}{p.frequency}次。"
    return f'In your reply, the word "{p.keyword}" should appear {p.relation} {p.frequency} times.'


def _frequency_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {
        "keyword": rng.choice(sorted(KEYWORDS[loc])),
        "frequency": rng.choice((2, 3)) if rel == "at least" else rng.choice((1, 2)),
        "relation": rel,
    }


# keywords:forbidden_words ----------------------------------------------------------------------------------


def _forbidden_check(reply: str, p: ForbiddenParams, loc: str, ctx: dict[str, Any]) -> bool:
    return not any(count_term(reply, w) for w in p.forbidden_words)


def _forbidden_satisfy(reply: str, p: ForbiddenParams, loc: str, ctx: dict[str, Any]) -> str:
    for w in sorted(p.forbidden_words, key=len, reverse=True):
        reply = _remove_term(reply, w, _ctx_keep(ctx), None, _ctx_protect(ctx))
    return reply


def _forbidden_describe(p: ForbiddenParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中不能出现这些词：{_quote_list(p.forbidden_words, True)}。"
    return f"Do not include the keywords {_quote_list(p.forbidden_words, False)} in your reply."


def _forbidden_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    return {"forbidden_words": rng.sample(FORBIDDEN_POOL[loc], rng.randint(1, 3))}


# keywords:mention_link (live room) -------------------------------------------------------------------------


def _link_check(reply: str, p: LinkParams, loc: str, ctx: dict[str, Any]) -> bool:
    n = p.link
    if re.search(rf"(?<!\d){n}\s*号|链接\s*{n}(?!\d)", reply):
        return True
    return bool(re.search(rf"(?<![A-Za-z0-9_])(?:link|item)\s*#?\s*{n}(?!\d)|#{n}(?!\d)", reply, re.IGNORECASE))


def _link_text(p: LinkParams, loc: str) -> str:
    return f"{p.link}号链接" if is_zh(loc) else f"link {p.link}"


def _link_satisfy(reply: str, p: LinkParams, loc: str, ctx: dict[str, Any]) -> str:
    add = f"大家也可以看看{p.link}号链接。" if is_zh(loc) else f"Also check out link {p.link}."
    return _append(reply, add, loc)


def _link_describe(p: LinkParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复中要提到{p.link}号链接。"
    return f"Mention link {p.link} in your reply."


# detectable_content:mention_viewer (live room) -------------------------------------------------------------


def _viewer_names(p: ViewerParams, ctx: dict[str, Any]) -> list[str]:
    if p.name:
        return [p.name]
    names = [str(v).strip() for v in ctx.get("viewers", []) or [] if str(v).strip()]
    if not names:  # comments given as dicts (suite cases, traces) carry their viewer
        names = [str(c.get("viewer") or c.get("viewer_name") or "").strip()
                 for c in ctx.get("comments", []) or [] if isinstance(c, dict)]
    return [n for n in names if n]


def _viewer_check(reply: str, p: ViewerParams, loc: str, ctx: dict[str, Any]) -> bool:
    low = reply.lower()
    return any(n.lower() in low for n in _viewer_names(p, ctx))


def _viewer_satisfy(reply: str, p: ViewerParams, loc: str, ctx: dict[str, Any]) -> str:
    names = _viewer_names(p, ctx)
    if not names:
        return reply
    return f"@{names[0]} {reply.lstrip()}"


def _viewer_describe(p: ViewerParams, loc: str) -> str:
    if p.name:
        return f"回复中要点名“{p.name}”。" if is_zh(loc) else f'Address the viewer "{p.name}" by name in your reply.'
    if is_zh(loc):
        return "回复时要带上提问观众的昵称（点名回应）。"
    return "Address the viewer who asked by their name in your reply."


# language:response_language --------------------------------------------------------------------------------


def _language_check(reply: str, p: LanguageParams, loc: str, ctx: dict[str, Any]) -> bool:
    cjk = len(_CJK_RE.findall(reply))
    latin = len(_LATIN_WORD_RE.findall(reply))
    if p.language == "zh":
        return cjk > 0 and cjk >= latin
    return latin > 0 and latin > cjk


def _language_describe(p: LanguageParams, loc: str) -> str:
    if is_zh(loc):
        return f"请只用{'中文' if p.language == 'zh' else '英文'}回复。"
    lang = "Chinese" if p.language == "zh" else "English"
    return f"Your ENTIRE reply should be in {lang}, no other language is allowed."


# length_constraints ----------------------------------------------------------------------------------------


def _cut_words(text: str, n: int, loc: str) -> str:
    """The text up to the end of its ``n``-th word, ended as a sentence."""
    ms = list(_WORD_RE.finditer(text))
    if n <= 0 or not ms:
        return ""
    if len(ms) <= n:
        return text
    return _end_sentence(text[: ms[n - 1].end()].rstrip(" ,，;；:："), loc)


def _cut_chars(text: str, n: int, loc: str) -> str:
    """The text with at most ``n`` non-space characters (the last one a terminator when it fits)."""
    if count_chars(text) <= n:
        return text
    out, k = [], 0
    for ch in text:
        if not ch.isspace():
            if k >= n - 1:
                break
            k += 1
        out.append(ch)
    t = "".join(out).rstrip(" ,，;；:：")
    return _end_sentence(t, loc) if n > 1 else t


def _trim(text: str, too_long: Callable[[str], bool], cut: Callable[[str], str], loc: str,
          protect: list[str]) -> str:
    """Shorten ``text`` until ``too_long`` is false: drop whole unprotected sentences from the end (keeping one),
    then unprotected clauses from the end, then cut the end."""
    text = text.strip()
    for splitter in ("sentence", "clause"):
        while too_long(text):
            units = split_sentences(text) if splitter == "sentence" else _clauses(text)
            spans = _spans(text, protect)
            pos, candidates = 0, []
            for i, u in enumerate(units):
                if _WORD_RE.search(u) and not _overlaps(pos, pos + len(u), spans):
                    candidates.append(i)
                pos += len(u)
            counted = sum(1 for u in units if _WORD_RE.search(u))
            if not candidates or counted <= 1:
                break
            last = candidates[-1] == len(units) - 1
            del units[candidates[-1]]
            text = "".join(units).strip()
            if last:
                text = _end_sentence(text.rstrip(" ,，;；、:："), loc)
    if too_long(text):
        text = cut(text)
    return text


def _clauses(text: str) -> list[str]:
    out, prev = [], 0
    cuts = sorted({m.end() for m in _TERM_RE.finditer(text)} | {m.end() for m in _CLAUSE_RE.finditer(text)})
    for c in cuts:
        if c > prev:
            out.append(text[prev:c])
            prev = c
    if prev < len(text):
        out.append(text[prev:])
    return out


def _pad(text: str, enough: Callable[[str], bool], loc: str) -> str:
    """Append filler sentences until ``enough`` (at most 12)."""
    fillers = FILLERS[loc]
    for i in range(12):
        if enough(text):
            break
        text = _append(text, fillers[i % len(fillers)], loc)
    return text


def _words_check(reply: str, p: WordsParams, loc: str, ctx: dict[str, Any]) -> bool:
    return _relation_ok(count_words(reply), p.relation, p.num_words)


def _words_satisfy(reply: str, p: WordsParams, loc: str, ctx: dict[str, Any]) -> str:
    if p.relation == "at least":
        return _pad(reply, lambda t: count_words(t) >= p.num_words, loc)
    if not ctx.get("_trim", True):
        return reply
    n = p.num_words - 1
    return _trim(reply, lambda t: count_words(t) > n, lambda t: _cut_words(t, n, loc), loc, _ctx_protect(ctx))


def _words_describe(p: WordsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复的英文单词数要{_REL_ZH[p.relation]}{p.num_words}个。"
    return f"Answer with {p.relation} {p.num_words} words."


def _words_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_words": rng.choice((8, 10, 12, 15, 20) if rel == "at least" else (20, 25, 30, 40)), "relation": rel}


def _chars_check(reply: str, p: CharsParams, loc: str, ctx: dict[str, Any]) -> bool:
    return _relation_ok(count_chars(reply), p.relation, p.num_chars)


def _chars_satisfy(reply: str, p: CharsParams, loc: str, ctx: dict[str, Any]) -> str:
    if p.relation == "at least":
        return _pad(reply, lambda t: count_chars(t) >= p.num_chars, loc)
    if not ctx.get("_trim", True):
        return reply
    n = p.num_chars - 1
    return _trim(reply, lambda t: count_chars(t) > n, lambda t: _cut_chars(t, n, loc), loc, _ctx_protect(ctx))


def _chars_describe(p: CharsParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复的字数（不计空格，标点也算）要{_REL_ZH[p.relation]}{p.num_chars}个字。"
    return f"Your reply must have {p.relation} {p.num_chars} characters (spaces not counted)."


def _chars_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_chars": rng.choice((15, 20, 30, 40) if rel == "at least" else (40, 60, 80, 100)), "relation": rel}


def _merge_sentences(text: str, limit: int, loc: str, protect: list[str]) -> str:
    """Join sentences with commas (terminators outside protected spans, first ones first) until at most
    ``limit`` sentences remain."""
    sep = "，" if is_zh(loc) else ", "
    while count_sentences(text) > limit:
        spans = _spans(text, protect)
        segs = split_sentences(text)
        pos, done = 0, False
        for i, s in enumerate(segs[:-1]):
            end = pos + len(s)
            m = _TERM_RE.search(s)
            if m is None or not _WORD_RE.search(s) or not any(_WORD_RE.search(x) for x in segs[i + 1 :]):
                pos = end
                continue
            # the terminator is the tail of s
            tstart = pos + m.start()
            while m is not None and pos + m.end() < end:
                m = _TERM_RE.search(s, m.end())
                if m is not None:
                    tstart = pos + m.start()
            if m is None or _overlaps(tstart, end, spans):
                pos = end
                continue
            text = text[:tstart] + sep + text[end:].lstrip()
            done = True
            break
        if not done:
            break
    return text


def _sentences_check(reply: str, p: SentencesParams, loc: str, ctx: dict[str, Any]) -> bool:
    return _relation_ok(count_sentences(reply), p.relation, p.num_sentences)


def _sentences_satisfy(reply: str, p: SentencesParams, loc: str, ctx: dict[str, Any]) -> str:
    if p.relation == "at least":
        return _pad(reply, lambda t: count_sentences(t) >= p.num_sentences, loc)
    text = _merge_sentences(reply, p.num_sentences - 1, loc, _ctx_protect(ctx))
    if count_sentences(text) >= p.num_sentences and ctx.get("_trim", True):
        n = p.num_sentences - 1
        text = _trim(text, lambda t: count_sentences(t) > n, lambda t: "".join(split_sentences(t)[:n]).strip(),
                     loc, _ctx_protect(ctx))
    return text


def _sentences_describe(p: SentencesParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要{_REL_ZH[p.relation]}{p.num_sentences}句话（句子以。！？结尾）。"
    return f"Your reply should contain {p.relation} {p.num_sentences} sentences."


def _sentences_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_sentences": rng.choice((2, 3) if rel == "at least" else (2, 3, 4)), "relation": rel}


# detectable_content:postscript -----------------------------------------------------------------------------


def _postscript_re(marker: str) -> re.Pattern[str]:
    m = marker.strip().lower()
    if m == "p.p.s":
        return re.compile(r"\s*p\.\s?p\.\s?s.*$", re.MULTILINE)
    if m == "p.s.":
        return re.compile(r"\s*p\.\s?s\..*$", re.MULTILINE)
    return re.compile(r"\s*" + re.escape(m) + r".*$", re.MULTILINE)


def _postscript_check(reply: str, p: PostscriptParams, loc: str, ctx: dict[str, Any]) -> bool:
    return bool(_postscript_re(p.postscript_marker).findall(reply.lower()))


def _postscript_satisfy(reply: str, p: PostscriptParams, loc: str, ctx: dict[str, Any]) -> str:
    sep = "" if p.postscript_marker.endswith(("：", ":")) else " "
    gap = "" if is_zh(loc) else " "
    return f"{_end_sentence(reply, loc)}{gap}{p.postscript_marker}{sep}{POSTSCRIPT_TEXT[loc]}".strip()


def _postscript_describe(p: PostscriptParams, loc: str) -> str:
    if is_zh(loc):
        return f"在回复的最后加一句以“{p.postscript_marker}”开头的附言。"
    return f"At the end of your reply, please explicitly add a postscript starting with {p.postscript_marker}"


# startend ------------------------------------------------------------------------------------------------


def _start_check(reply: str, p: StartParams, loc: str, ctx: dict[str, Any]) -> bool:
    return reply.strip().lstrip("\"“「").lower().startswith(p.start_phrase.strip().lower())


def _start_satisfy(reply: str, p: StartParams, loc: str, ctx: dict[str, Any]) -> str:
    phrase = p.start_phrase.strip()
    sep = "" if phrase[-1] in _PUNCT_END + "，,：:" else ("！" if is_zh(loc) else "! ")
    return f"{phrase}{sep}{reply.strip()}".strip()


def _start_describe(p: StartParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要以“{p.start_phrase}”开头。"
    return f'Start your reply with the exact phrase "{p.start_phrase}".'


def _end_check(reply: str, p: EndParams, loc: str, ctx: dict[str, Any]) -> bool:
    return reply.strip().strip("\"“”").lower().endswith(p.end_phrase.strip().lower())


def _end_satisfy(reply: str, p: EndParams, loc: str, ctx: dict[str, Any]) -> str:
    return _append(reply.strip(), p.end_phrase.strip(), loc)


def _end_describe(p: EndParams, loc: str) -> str:
    if is_zh(loc):
        return f"回复要以“{p.end_phrase}”结尾，后面不能再有别的内容。"
    return f'Finish your reply with this exact phrase "{p.end_phrase}". No other words should follow this phrase.'


_QUOTES = (('"', '"'), ("“", "”"))


def _quotation_check(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> bool:
    t = reply.strip()
    return len(t) > 1 and any(t[0] == a and t[-1] == b for a, b in _QUOTES)


def _quotation_satisfy(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> str:
    a, b = _QUOTES[1] if is_zh(loc) else _QUOTES[0]
    return f"{a}{reply.strip()}{b}"


def _quotation_describe(p: _NoParams, loc: str) -> str:
    if is_zh(loc):
        return "把整个回复用双引号括起来。"
    return "Wrap your entire reply with double quotation marks."


# change_case -------------------------------------------------------------------------------------------------


def _lower_check(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> bool:
    return reply.islower()


def _lower_satisfy(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> str:
    return _map_outside(reply, _ctx_keep(ctx), str.lower)


def _lower_describe(p: _NoParams, loc: str) -> str:
    if is_zh(loc):
        return "整个回复要用英文，并且全部是小写字母，不能有大写字母。"
    return "Your entire reply should be in English, and in all lowercase letters. No capital letters are allowed."


def _upper_check(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> bool:
    return reply.isupper()


def _upper_satisfy(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> str:
    return _map_outside(reply, _ctx_keep(ctx), str.upper)


def _upper_describe(p: _NoParams, loc: str) -> str:
    if is_zh(loc):
        return "整个回复要用英文，并且全部是大写字母。"
    return "Your entire reply should be in English, and in all capital letters."


def _capfreq_check(reply: str, p: CapitalFrequencyParams, loc: str, ctx: dict[str, Any]) -> bool:
    return _relation_ok(count_capital_words(reply), p.capital_relation, p.capital_frequency)


def _capfreq_satisfy(reply: str, p: CapitalFrequencyParams, loc: str, ctx: dict[str, Any]) -> str:
    kspans = _spans(reply, _ctx_keep(ctx))
    toks = [m for m in _WORD_RE.finditer(reply) if not _overlaps(m.start(), m.end(), kspans)]
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
            out = _append(out, "OK!", loc)
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


def _capfreq_describe(p: CapitalFrequencyParams, loc: str) -> str:
    if is_zh(loc):
        return f"全大写的英文单词要出现{_REL_ZH[p.capital_relation]}{p.capital_frequency}次。"
    return (f"In your reply, words with all capital letters should appear {p.capital_relation} "
            f"{p.capital_frequency} times.")


def _capfreq_sample(rng: random.Random, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"capital_frequency": rng.choice((1, 2, 3) if rel == "at least" else (3, 5, 8)), "capital_relation": rel}


# punctuation:no_comma ----------------------------------------------------------------------------------------


def _comma_check(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> bool:
    return "," not in reply and "，" not in reply


def _comma_satisfy(reply: str, p: _NoParams, loc: str, ctx: dict[str, Any]) -> str:
    def fix(t: str) -> str:
        t = re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", t)
        t = t.replace("，", " ")
        t = re.sub(r"\s*,\s*", "; ", t)
        return t

    return _tidy(_map_outside(reply, _ctx_keep(ctx), fix), _ctx_protect(ctx))


def _comma_describe(p: _NoParams, loc: str) -> str:
    if is_zh(loc):
        return "回复中不要使用任何逗号（，或 ,）。"
    return "In your entire reply, refrain from the use of any commas."


# combination:repeat_prompt -----------------------------------------------------------------------------------


def _repeat_target(p: RepeatParams, ctx: dict[str, Any]) -> str:
    return (p.prompt_to_repeat or prompt_of(ctx)).strip()


def _repeat_check(reply: str, p: RepeatParams, loc: str, ctx: dict[str, Any]) -> bool:
    target = _repeat_target(p, ctx)
    return bool(target) and reply.strip().lower().startswith(target.lower())


def _repeat_satisfy(reply: str, p: RepeatParams, loc: str, ctx: dict[str, Any]) -> str:
    target = _repeat_target(p, ctx)
    if not target:
        return reply
    asks = bool(_WORD_RE.match(target[-1]))  # ends in a word: close the question; else (punctuation, emoji) not
    if is_zh(loc):
        sep = "？" if asks else ("" if target[-1] in _PUNCT_END else " ")
    else:
        sep = "? " if asks else " "
    return f"{target}{sep}{reply.strip()}"


def _repeat_describe(p: RepeatParams, loc: str) -> str:
    if p.prompt_to_repeat:
        if is_zh(loc):
            return f"先一字不差地复述这句话，再回答（复述前不要说别的）：{p.prompt_to_repeat}"
        return f"First repeat the request word for word without change, then give your answer: {p.prompt_to_repeat}"
    if is_zh(loc):
        return "先一字不差地复述观众的问题，再回答（复述前不要说别的）。"
    return ("First repeat the viewer's question word for word without change, then give your answer "
            "(do not say anything before repeating the question).")


# --- the registry --------------------------------------------------------------------------------------------

_BOTH = LOCALES
_EN = ("en_US",)
_ZH = ("zh_CN",)

INSTRUCTIONS: dict[str, InstructionType] = {
    t.id: t
    for t in [
        InstructionType("keywords:existence", KeywordsParams, _BOTH, _existence_describe, _existence_check,
                        _existence_satisfy, _existence_sample, _const(_S_ADD), lambda p, loc, c: list(p.keywords)),
        InstructionType("keywords:frequency", FrequencyParams, _BOTH, _frequency_describe, _frequency_check,
                        _frequency_satisfy, _frequency_sample,
                        lambda p: _S_ADD if p.relation == "at least" else _S_REMOVE,
                        lambda p, loc, c: [p.keyword] if p.relation == "at least" else []),
        InstructionType("keywords:forbidden_words", ForbiddenParams, _BOTH, _forbidden_describe, _forbidden_check,
                        _forbidden_satisfy, _forbidden_sample, _const(_S_REMOVE)),
        InstructionType("keywords:mention_link", LinkParams, _BOTH, _link_describe, _link_check, _link_satisfy,
                        lambda rng, loc: {"link": rng.randint(1, 8)}, _const(_S_ADD),
                        lambda p, loc, c: [_link_text(p, loc)]),
        InstructionType("language:response_language", LanguageParams, _BOTH, _language_describe, _language_check,
                        lambda r, p, loc, c: r, lambda rng, loc: {"language": "zh" if is_zh(loc) else "en"},
                        _const(_S_ADD)),
        InstructionType("length_constraints:number_words", WordsParams, _EN, _words_describe, _words_check,
                        _words_satisfy, _words_sample, _rel_stage("relation"), group="length"),
        InstructionType("length_constraints:number_chars", CharsParams, _ZH, _chars_describe, _chars_check,
                        _chars_satisfy, _chars_sample, _rel_stage("relation"), group="length"),
        InstructionType("length_constraints:number_sentences", SentencesParams, _BOTH, _sentences_describe,
                        _sentences_check, _sentences_satisfy, _sentences_sample, _rel_stage("relation"),
                        group="length"),
        InstructionType("detectable_content:postscript", PostscriptParams, _BOTH, _postscript_describe,
                        _postscript_check, _postscript_satisfy,
                        lambda rng, loc: {"postscript_marker": rng.choice(POSTSCRIPT_MARKERS[loc])}, _const(_S_PS),
                        lambda p, loc, c: [p.postscript_marker]),
        InstructionType("detectable_content:mention_viewer", ViewerParams, _BOTH, _viewer_describe, _viewer_check,
                        _viewer_satisfy, lambda rng, loc: {}, _const(_S_PREFIX),
                        lambda p, loc, c: _viewer_names(p, c)[:1], group="prefix"),
        InstructionType("startend:start_checker", StartParams, _BOTH, _start_describe, _start_check, _start_satisfy,
                        lambda rng, loc: {"start_phrase": rng.choice(START_PHRASES[loc])}, _const(_S_PREFIX),
                        lambda p, loc, c: [p.start_phrase], group="prefix"),
        InstructionType("startend:end_checker", EndParams, _BOTH, _end_describe, _end_check, _end_satisfy,
                        lambda rng, loc: {"end_phrase": rng.choice(END_PHRASES[loc])}, _const(_S_END),
                        lambda p, loc, c: [p.end_phrase]),
        InstructionType("startend:quotation", _NoParams, _BOTH, _quotation_describe, _quotation_check,
                        _quotation_satisfy, lambda rng, loc: {}, _const(_S_WRAP)),
        InstructionType("change_case:english_lowercase", _NoParams, _EN, _lower_describe, _lower_check,
                        _lower_satisfy, lambda rng, loc: {}, _const(_S_CASE), group="case"),
        InstructionType("change_case:english_capital", _NoParams, _EN, _upper_describe, _upper_check,
                        _upper_satisfy, lambda rng, loc: {}, _const(_S_CASE), group="case"),
        InstructionType("change_case:capital_word_frequency", CapitalFrequencyParams, _EN, _capfreq_describe,
                        _capfreq_check, _capfreq_satisfy, _capfreq_sample, _const(_S_CASE), group="case"),
        InstructionType("punctuation:no_comma", _NoParams, _BOTH, _comma_describe, _comma_check, _comma_satisfy,
                        lambda rng, loc: {}, _const(_S_COMMA)),
        InstructionType("combination:repeat_prompt", RepeatParams, _BOTH, _repeat_describe, _repeat_check,
                        _repeat_satisfy, lambda rng, loc: {}, _const(_S_PREFIX),
                        lambda p, loc, c: [_repeat_target(p, c)], group="prefix"),
    ]
}

#: Type pairs that are never drawn together (besides one type per group and no type twice). Repeating the viewer's
#: words verbatim cannot be squared with rules that would rewrite them.
INCOMPATIBLE: frozenset[frozenset[str]] = frozenset(
    frozenset(p)
    for p in [
        ("startend:quotation", "combination:repeat_prompt"),
        ("combination:repeat_prompt", "keywords:forbidden_words"),
        ("combination:repeat_prompt", "punctuation:no_comma"),
        ("combination:repeat_prompt", "keywords:frequency"),
        ("combination:repeat_prompt", "length_constraints:number_sentences"),
        ("combination:repeat_prompt", "length_constraints:number_words"),
        ("combination:repeat_prompt", "length_constraints:number_chars"),
    ]
)


def get_type(type_id: str) -> InstructionType:
    """The registered type ``type_id``.

    Raises:
        ValueError: no such type.
    """
    t = INSTRUCTIONS.get(type_id)
    if t is None:
        raise ValueError(f"unknown instruction type {type_id!r}; known: {sorted(INSTRUCTIONS)}")
    return t


def _split(inst: dict[str, Any]) -> tuple[InstructionType, BaseModel]:
    if not isinstance(inst, dict) or "type" not in inst:
        raise ValueError(f"an instruction is a dict with a 'type' key, got {inst!r}")
    t = get_type(str(inst["type"]))
    return t, t.validate(inst)


def resolve(inst: dict[str, Any]) -> tuple[InstructionType, BaseModel]:
    """The type of an instruction dict and its validated params.

    Raises:
        ValueError: not a dict with a known ``type``, or bad params.
    """
    return _split(inst)


def validate_instruction(inst: dict[str, Any]) -> dict[str, Any]:
    """``inst`` checked and normalised (defaults filled): ``{"type": ..., **params}``.

    Raises:
        ValueError: unknown type or bad params.
    """
    t, p = _split(inst)
    return {"type": t.id, **p.model_dump(exclude_none=True)}


def validate_instructions(instructions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every instruction normalised (:func:`validate_instruction`); the first error names its index."""
    out = []
    for i, inst in enumerate(instructions or []):
        try:
            out.append(validate_instruction(inst))
        except ValueError as exc:
            raise ValueError(f"instructions[{i}]: {exc}") from None
    return out


def describe(inst: dict[str, Any], locale: str) -> str:
    """The text of one instruction dict in ``locale``'s language."""
    t, p = _split(inst)
    return t.describe(p, locale)


def check(reply: str, inst: dict[str, Any], locale: str, context: dict[str, Any] | None = None) -> bool:
    """Strict check of one instruction dict."""
    t, p = _split(inst)
    return t.check(reply, p, locale, context)


def satisfy(reply: str, inst: dict[str, Any], locale: str, context: dict[str, Any] | None = None) -> str:
    """Rewrite ``reply`` to follow one instruction dict."""
    t, p = _split(inst)
    return t.satisfy(reply, p, locale, context)


def _prepared(instructions: list[dict[str, Any]], locale: str, context: dict[str, Any] | None,
              trim: bool) -> tuple[list[tuple[InstructionType, BaseModel]], dict[str, Any]]:
    items = [_split(i) for i in instructions or []]
    ctx = dict(context or {})
    protect = list(ctx.get("protect", []) or [])
    for t, p in items:
        protect += [x for x in t.protects(p, locale, ctx) if x]
    ctx["protect"] = protect
    ctx["_trim"] = trim
    return items, ctx


def check_all(reply: str, instructions: list[dict[str, Any]], locale: str,
              context: dict[str, Any] | None = None) -> list[bool]:
    """Strict result of every instruction, in order."""
    return [t.check(reply, p, locale, context) for t, p in (_split(i) for i in instructions or [])]


def satisfy_all(reply: str, instructions: list[dict[str, Any]], locale: str, context: dict[str, Any] | None = None,
                trim: bool = True, max_chars: int | None = None) -> str:
    """Rewrite ``reply`` to follow every instruction.

    Each instruction's ``satisfy`` runs once per pass, in stage order (additions, length padding, postscript,
    prefixes, end phrase, removals, shortening, commas, case, quotes; the list order within a stage), so that a
    later rewrite does not undo an earlier one; up to three passes run until every check holds. Shortening never
    drops a sentence holding a protected string (keywords, phrases, the repeated prompt, ``context["keep"]``).

    Args:
        trim: allow "less than" word/character/sentence limits to drop text (merging sentences is always allowed);
            :func:`fit_reply` first tries without, shortening the composed reply instead.
        max_chars: with ``trim``, also drop unprotected sentences / clauses (then cut) so that the reply has at most
            this many characters (``len``) where the instructions allow it.
    """
    items, ctx = _prepared(instructions, locale, context, trim)
    if not items:
        return reply
    loc = _loc(locale)
    order = sorted(range(len(items)), key=lambda i: (items[i][0].stage(items[i][1]), i))
    wrap = sum(2 for t, _ in items if t.id == "startend:quotation")
    limit = max_chars - wrap if max_chars else None
    protect = _ctx_protect(ctx)
    text = reply
    for _ in range(3):
        shrunk = False
        for i in order:
            t, p = items[i]
            if limit and trim and not shrunk and t.stage(p) > _S_SHRINK:
                text = _trim(text, lambda x: len(x) > limit, lambda x: x[:limit], loc, protect)
                shrunk = True
            text = t.satisfy(text, p, locale, ctx)
        if limit and trim and not shrunk:
            text = _trim(text, lambda x: len(x) > limit, lambda x: x[:limit], loc, protect)
        if all(t.check(text, p, locale, ctx) for t, p in items) and not (max_chars and len(text) > max_chars):
            break
    return text


def fit_reply(
    compose: Callable[[int], str],
    instructions: list[dict[str, Any]],
    locale: str,
    context: dict[str, Any] | None = None,
    max_chars: int | None = None,
    budget: int | None = None,
    min_budget: int = 20,
) -> str:
    """A reply that follows ``instructions`` within ``max_chars``, from a composer of correct replies.

    ``compose(budget)`` writes a correct reply of at most ``budget`` characters (shorter budgets give shorter
    wordings). The budget shrinks until :func:`satisfy_all` (first without trimming, then with it) gives a reply
    that passes every check and fits ``max_chars``; otherwise the reply with the fewest failures is returned.
    """
    start = budget if budget is not None else (max_chars or 400)
    best: tuple[tuple[int, int], str] | None = None
    for trim in (False, True):
        b = max(min_budget, start)
        seen: set[str] = set()
        for _ in range(24):
            body = compose(b)
            if body not in seen:
                seen.add(body)
                out = satisfy_all(body, instructions, locale, context, trim=trim, max_chars=max_chars if trim else None)
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


# --- sampling -------------------------------------------------------------------------------------------------


def compatible(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two instructions may be drawn together: different types, not of one group, not a known conflict,
    and no keyword both required and forbidden."""
    ta, tb = get_type(a["type"]), get_type(b["type"])
    if ta.id == tb.id or (ta.group and ta.group == tb.group):
        return False
    if frozenset((ta.id, tb.id)) in INCOMPATIBLE:
        return False
    words = {w.lower() for x in (a, b) for w in x.get("keywords", []) + ([x["keyword"]] if "keyword" in x else [])}
    forbidden = {w.lower() for x in (a, b) for w in x.get("forbidden_words", [])}
    if any(f in w or w in f for f in forbidden for w in words):
        return False
    kws = [set(map(str.lower, x.get("keywords", []) + ([x["keyword"]] if "keyword" in x else []))) for x in (a, b)]
    if kws[0] & kws[1]:
        return False
    return True


def types_for(locale: str) -> list[str]:
    """Type ids the sampler draws for ``locale``."""
    loc = _loc(locale)
    return [t.id for t in INSTRUCTIONS.values() if loc in t.locales]


def sample_instructions(rng: random.Random, locale: str, n: int | None = None) -> list[dict[str, Any]]:
    """Draw ``n`` (default: 1-3 at random) mutually compatible instructions for ``locale``, in stage order.

    Raises:
        ValueError: ``n`` < 1, or no compatible set of that size could be drawn.
    """
    if n is None:
        n = rng.randint(1, 3)
    if n < 1:
        raise ValueError("n must be at least 1")
    loc = _loc(locale)
    ids = types_for(loc)
    for _ in range(50):
        out: list[dict[str, Any]] = []
        pool = list(ids)
        rng.shuffle(pool)
        for tid in pool:
            if len(out) == n:
                break
            inst = {"type": tid, **INSTRUCTIONS[tid].sample(rng, loc)}
            if all(compatible(inst, o) for o in out):
                out.append(inst)
        if len(out) == n:
            out.sort(key=lambda d: INSTRUCTIONS[d["type"]].stage(d))
            return out
    raise ValueError(f"could not draw {n} compatible instructions for {loc}")


__all__ = [
    "FILLERS",
    "FORBIDDEN_POOL",
    "INCOMPATIBLE",
    "INSTRUCTIONS",
    "KEYWORDS",
    "RELATIONS",
    "InstructionType",
    "check",
    "check_all",
    "compatible",
    "count_capital_words",
    "count_chars",
    "count_sentences",
    "count_words",
    "describe",
    "fit_reply",
    "get_type",
    "make_context",
    "prompt_of",
    "resolve",
    "sample_instructions",
    "satisfy",
    "satisfy_all",
    "split_sentences",
    "types_for",
    "validate_instruction",
    "validate_instructions",
]
