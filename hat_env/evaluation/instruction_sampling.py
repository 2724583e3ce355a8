"""Drawing Live-IFEval instructions for an evaluation suite (``ifeval-live-v1``): which types are drawn in which
locale, which may not be drawn together, and random parameters from the locale file's ``ifeval`` word pools.

Every draw comes from the ``random.Random`` passed in, in a fixed order, so a seed fixes the suite to the byte
(its manifest hash is pinned in :data:`hat_env.evaluation.suites.PINNED`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from hat_env.ifeval.params import RELATIONS
from hat_env.ifeval.registry import INSTRUCTIONS, get_type
from hat_env.ifeval.text import LOCALES, is_zh, norm_locale
from hat_env.locales import IFEvalPools, get_locale


@dataclass(frozen=True)
class Sampler:
    """How one instruction type is drawn.

    Attributes:
        draw: ``(rng, pools, locale) -> params`` (``pools``: the locale's ``ifeval`` word pools).
        locales: the locales it is drawn for (every type can still be checked in any locale).
        group: types of one group exclude each other in :func:`sample_instructions` (``""``: no group).
    """

    draw: Callable[[random.Random, IFEvalPools, str], dict[str, Any]]
    locales: tuple[str, ...] = LOCALES
    group: str = ""


def _keywords(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    return {"keywords": rng.sample(sorted(w.keywords), rng.randint(1, 2))}


def _frequency(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {
        "keyword": rng.choice(sorted(w.keywords)),
        "frequency": rng.choice((2, 3)) if rel == "at least" else rng.choice((1, 2)),
        "relation": rel,
    }


def _forbidden(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    return {"forbidden_words": rng.sample(w.forbidden_pool, rng.randint(1, 3))}


def _words(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_words": rng.choice((8, 10, 12, 15, 20) if rel == "at least" else (20, 25, 30, 40)), "relation": rel}


def _chars(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_chars": rng.choice((15, 20, 30, 40) if rel == "at least" else (40, 60, 80, 100)), "relation": rel}


def _sentences(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"num_sentences": rng.choice((2, 3) if rel == "at least" else (2, 3, 4)), "relation": rel}


def _capital_frequency(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    rel = rng.choice(RELATIONS)
    return {"capital_frequency": rng.choice((1, 2, 3) if rel == "at least" else (3, 5, 8)), "capital_relation": rel}


def _none(rng: random.Random, w: IFEvalPools, loc: str) -> dict[str, Any]:
    return {}


_EN = ("en_US",)
_ZH = ("zh_CN",)

#: The sampler of each drawn type (types of :data:`hat_env.ifeval.INSTRUCTIONS` not listed are never drawn).
SAMPLERS: dict[str, Sampler] = {
    "keywords:existence": Sampler(_keywords),
    "keywords:frequency": Sampler(_frequency),
    "keywords:forbidden_words": Sampler(_forbidden),
    "keywords:mention_link": Sampler(lambda rng, w, loc: {"link": rng.randint(1, 8)}),
    "language:response_language": Sampler(lambda rng, w, loc: {"language": "zh" if is_zh(loc) else "en"}),
    "length_constraints:number_words": Sampler(_words, _EN, "length"),
    "length_constraints:number_chars": Sampler(_chars, _ZH, "length"),
    "length_constraints:number_sentences": Sampler(_sentences, group="length"),
    "detectable_content:postscript": Sampler(
        lambda rng, w, loc: {"postscript_marker": rng.choice(w.postscript_markers)}),
    "detectable_content:mention_viewer": Sampler(_none, group="prefix"),
    "startend:start_checker": Sampler(lambda rng, w, loc: {"start_phrase": rng.choice(w.start_phrases)},
                                      group="prefix"),
    "startend:end_checker": Sampler(lambda rng, w, loc: {"end_phrase": rng.choice(w.end_phrases)}),
    "startend:quotation": Sampler(_none),
    "change_case:english_lowercase": Sampler(_none, _EN, "case"),
    "change_case:english_capital": Sampler(_none, _EN, "case"),
    "change_case:capital_word_frequency": Sampler(_capital_frequency, _EN, "case"),
    "punctuation:no_comma": Sampler(_none),
    "combination:repeat_prompt": Sampler(_none, group="prefix"),
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


def sample_params(type_id: str, rng: random.Random, locale: str) -> dict[str, Any]:
    """Random params of ``type_id`` for ``locale`` (without the ``"type"`` key).

    Raises:
        ValueError: an unknown type, or one that is never drawn.
    """
    get_type(type_id)
    s = SAMPLERS.get(type_id)
    if s is None:
        raise ValueError(f"instruction type {type_id!r} is never drawn")
    loc = norm_locale(locale)
    return s.draw(rng, get_locale(loc).ifeval, loc)


def _group(type_id: str) -> str:
    s = SAMPLERS.get(type_id)
    return s.group if s is not None else ""


def compatible(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two instructions may be drawn together: different types, not of one group, not a known conflict,
    and no keyword both required and forbidden (nor required by both)."""
    ta, tb = get_type(a["type"]), get_type(b["type"])
    ga, gb = _group(ta.id), _group(tb.id)
    if ta.id == tb.id or (ga and ga == gb):
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
    """Type ids the sampler draws for ``locale``, in the registry's order."""
    loc = norm_locale(locale)
    return [tid for tid in INSTRUCTIONS if tid in SAMPLERS and loc in SAMPLERS[tid].locales]


def sample_instructions(rng: random.Random, locale: str, n: int | None = None) -> list[dict[str, Any]]:
    """Draw ``n`` (default: 1-3 at random) mutually compatible instructions for ``locale``, in stage order.

    Args:
        rng: the seeded generator every draw comes from.
        locale: the room's locale.
        n: how many.

    Raises:
        ValueError: ``n`` < 1, or no compatible set of that size could be drawn.
    """
    if n is None:
        n = rng.randint(1, 3)
    if n < 1:
        raise ValueError("n must be at least 1")
    loc = norm_locale(locale)
    ids = types_for(loc)
    pools = get_locale(loc).ifeval
    for _ in range(50):
        out: list[dict[str, Any]] = []
        pool = list(ids)
        rng.shuffle(pool)
        for tid in pool:
            if len(out) == n:
                break
            inst = {"type": tid, **SAMPLERS[tid].draw(rng, pools, loc)}
            if all(compatible(inst, o) for o in out):
                out.append(inst)
        if len(out) == n:
            out.sort(key=lambda d: INSTRUCTIONS[d["type"]].stage(d))
            return out
    raise ValueError(f"could not draw {n} compatible instructions for {loc}")


__all__ = ["INCOMPATIBLE", "SAMPLERS", "Sampler", "compatible", "sample_instructions", "sample_params", "types_for"]
