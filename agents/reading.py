"""What the reference agent reads the way a model does: the skills it may load (their names in the skill tool's
schema, their descriptions in the prompt's skill lines, the reply skills a hook's feedback names), the products
the prompt lists, and what a shipping question asks.

The words come from the ``reading`` section of every locale file (a harness written in one language may run in a
room of another), so a new locale is a new file. Nothing here reads a skill's hidden metadata (``kind``,
``intents``) or the harness's bindings beyond what the prompt and tool schemas show.
"""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from hat_env.locale_text import placeholders
from hat_env.locales import get_locale, known_locales
from hat_env.sim.room_words import regions_named, variants_named

#: What each placeholder of a prompt line template matches.
_GROUPS = {
    "link": r"\d{1,4}",
    "product_id": r"[A-Za-z0-9_-]{1,40}",
    "name": r"[A-Za-z0-9_.\-]{1,64}",
}


@lru_cache(maxsize=64)
def template_regex(template: str) -> re.Pattern[str]:
    """A regex matching one line written from ``template`` (a prompt string), with a named group per
    placeholder (links and ids by their shape, other values as short as possible)."""
    out = []
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is not None:
            out.append(f"(?P<{name}>{_GROUPS.get(name, '.+?')})")
    return re.compile("^" + "".join(out) + r"\s*$", re.M)


def prompt_text(system: str) -> str:
    """The system prompt as lines of text: a JSON-markup prompt's section contents joined, others as written."""
    if system.startswith("{"):
        try:
            data = json.loads(system)
            return "\n".join(f"{s.get('title', '')}\n{s.get('content', '')}" for s in data.get("sections", []))
        except (ValueError, AttributeError):
            return system
    return system


@dataclass(frozen=True)
class PromptProduct:
    """A product as the prompt lists it."""

    link: int
    title: str
    product_id: str
    category: str


def prompt_products(system: str, product_line: str) -> list[PromptProduct]:
    """The products listed in a system prompt written with ``product_line`` (the harness's prompt string); empty
    when the prompt lists none (a harness without a products section)."""
    names = {n for n, _c, _s in placeholders(product_line)}
    if "link" not in names:
        return []
    out = []
    for m in template_regex(product_line).finditer(prompt_text(system)):
        g = m.groupdict()
        out.append(PromptProduct(int(g["link"]), g.get("title") or "", g.get("product_id") or "",
                                 g.get("category") or ""))
    return out


def prompt_skills(system: str, skill_line: str) -> dict[str, str]:
    """Skill name -> description as the prompt's skill lines give them (empty without a skills section)."""
    return {m.group("name"): (m.groupdict().get("description") or "")
            for m in template_regex(skill_line).finditer(prompt_text(system))}


def tool_enum(tools: list[dict[str, Any]], name: str, param: str) -> list[str]:
    """The values the schema of tool ``name`` allows for ``param`` (the skill tool's skill names)."""
    for t in tools:
        fn = t.get("function", t)
        if fn.get("name") == name:
            prop = ((fn.get("parameters") or {}).get("properties") or {}).get(param) or {}
            return [str(x) for x in prop.get("enum") or []]
    return []


def _rx(words: list[str]) -> re.Pattern[str] | None:
    """One case-insensitive pattern for ``words`` (ASCII words at word boundaries)."""
    alts = sorted({w.casefold() for w in words if w}, key=len, reverse=True)
    if not alts:
        return None
    parts = [rf"\b{re.escape(w)}\b" if w.isascii() else re.escape(w) for w in alts]
    return re.compile("|".join(parts), re.I)


@dataclass(frozen=True)
class _Vocab:
    intents: dict[str, list[str]]
    reply: re.Pattern[str] | None
    strategy: re.Pattern[str] | None
    focus: dict[str, re.Pattern[str]]


@lru_cache(maxsize=4)
def _vocab(locales: tuple[str, ...]) -> _Vocab:
    intents: dict[str, list[str]] = {}
    reply: list[str] = []
    strategy: list[str] = []
    focus: dict[str, list[str]] = {}
    for loc in locales:
        r = get_locale(loc).reading
        for kind, words in r.skill_intents.items():
            intents.setdefault(kind, []).extend(words)
        reply += r.reply_skill
        strategy += r.strategy_skill
        for f, words in r.shipping_focus.items():
            focus.setdefault(f, []).extend(words)
    fx = {f: rx for f, w in focus.items() if (rx := _rx(w)) is not None}
    return _Vocab({k: sorted(set(v)) for k, v in intents.items()}, _rx(reply), _rx(strategy), fx)


def vocab() -> _Vocab:
    """The reading words of every known locale, compiled."""
    return _vocab(known_locales())


def shipping_focus(text: str) -> str | None:
    """What a shipping question asks: ``carrier``, ``free`` (free shipping or the fee), or ``None`` (when it
    ships)."""
    v = vocab()
    for f in ("carrier", "free"):
        rx = v.focus.get(f)
        if rx is not None and rx.search(text):
            return f
    return None


def pick_region(facts: dict[str, Any], text: str) -> None:
    """Set ``facts["region"]`` (``{"said", "fee", "ships"}``) to the first of a shipping record's ``regions``
    that comment ``text`` names (the word said is the one the reply repeats); nothing when it names none."""
    regions = [g for g in facts.get("regions") or [] if isinstance(g, dict) and isinstance(g.get("names"), list)]
    hits = regions_named(text, [[str(n) for n in g["names"]] for g in regions]) if regions and text else []
    if hits:
        k, s, e = hits[0]
        facts["region"] = {"said": text[s:e], "fee": regions[k].get("fee"), "ships": regions[k].get("ships")}


def pick_variants(facts: dict[str, Any], text: str) -> None:
    """Set ``facts["variant_hits"]`` to the names of a stock record's ``variants`` that comment ``text`` names
    (:func:`hat_env.sim.room_words.variants_named`); nothing when it names none."""
    rows = [v for v in facts.get("variants") or [] if isinstance(v, dict) and isinstance(v.get("name"), str)]
    hits = variants_named(text, [v["name"] for v in rows]) if rows and text else []
    if hits:
        facts["variant_hits"] = [rows[k]["name"] for k, _s, _e in hits]


def _count(words: list[str], text: str) -> int:
    rx = _rx(words)
    return len(rx.findall(text)) if rx is not None else 0


#: The product questions a skill's general product words ("item", "商品") point at.
_PRODUCT_QUESTIONS = frozenset({"price", "spec", "stock", "campaign", "shipping", "compare"})


_SENTENCE_END = re.compile(r"[.!?。！？](?:\s|$)|[。！？]")


def _first_sentence(text: str) -> tuple[str, str]:
    """``(first sentence, the rest)`` of a skill description."""
    m = _SENTENCE_END.search(text)
    return (text, "") if m is None else (text[: m.end()], text[m.end() :])


def skill_fit(kind: str, name: str, description: str) -> float:
    """How well a skill fits viewer intent ``kind``: the kind's words in its description, and in its name (a
    third as much when there is a description: names are often codes or puns, "post-purchase"; the name written
    inside the description counts as the name), plus a tenth per
    general product word (at most three) when the kind is a product question; far below every other skill when
    it reads as a strategy skill and not as a reply skill."""
    v = vocab()
    words = v.intents.get(kind, [])
    name_text = name.replace("-", " ").replace("_", " ")
    if name:  # the skill's own name inside its description is a label ("post-purchase-v3 questions"): name weight
        description = description.replace(name, " ")
    name_w = 1 / 3 if description.strip() else 1.0
    # the first sentence says what the skill is for ("Reply skill for viewers who want to buy."); words after it are
    # its instructions ("... and give the final price"), which count half
    scope, rest = _first_sentence(description)
    score = _count(words, scope) + 0.5 * _count(words, rest) + name_w * _count(words, name_text)
    if kind in _PRODUCT_QUESTIONS:
        score += 0.1 * min(3, _count(v.intents.get("product", []), f"{description} {name_text}"))
    text = f"{description} {name_text}"
    if v.strategy is not None and v.strategy.search(text) and not (v.reply is not None and v.reply.search(text)):
        score -= 100.0
    return score


def choose_skill(kind: str, skills: dict[str, str], only: list[str] | None = None,
                 skip: set[str] | None = None, others: tuple[str, ...] = ()) -> str | None:
    """The skill to load for a request whose primary intent is ``kind``.

    Args:
        kind: the primary intent kind.
        skills: skill name -> description ("" when the prompt gives none), in the order the model sees them.
        only: the skills a hook named as reply skills (``None``: any).
        skip: skills already tried.
        others: the request's other intent kinds: among skills that fit ``kind`` as well, the one that also
            covers more of them wins (a skill "for the price, stock and coupons" over one "to buy ... the final
            price" for a price, stock and coupon request).

    Returns:
        The best fitting skill (the first on ties), or ``None`` when there is none left.
    """
    cands = [n for n in skills if (only is None or n in only) and n not in (skip or set())]
    if not cands:
        return None
    rest = [k for k in dict.fromkeys(others) if k != kind]

    def key(n: str) -> tuple[int, float, int]:
        fit = skill_fit(kind, n, skills[n])
        if fit < 1.0:  # no word of the primary intent (at most general product words): ranked below those that have
            return (0, fit, -cands.index(n))
        covered = sum(1 for k in rest if skill_fit(k, n, skills[n]) >= 1.0)
        return (1, fit + covered, -cands.index(n))

    return max(cands, key=key)


__all__ = [
    "PromptProduct",
    "choose_skill",
    "prompt_products",
    "prompt_skills",
    "prompt_text",
    "read_feedback",
    "shipping_focus",
    "skill_fit",
    "template_regex",
    "tool_enum",
    "vocab",
]


def read_feedback(text: str, harness: Any) -> tuple[str | None, dict[str, str]]:
    """Which of the harness's hook feedback messages ``text`` is (``missing_skill``, ``too_long``, ``forbidden``,
    ...) and the values written into it, read against the harness's feedback templates (the defaults where it
    has none); ``(None, {})`` when it is none of them."""
    from hat_env.harness.hooks import DEFAULT_FEEDBACK

    own = harness.spec.constraints.feedback
    for key in DEFAULT_FEEDBACK:
        tpl = own.get(key) or DEFAULT_FEEDBACK[key]
        m = _feedback_regex(tpl).match(text.strip())
        if m is not None:
            return key, {k: v for k, v in m.groupdict().items() if v is not None}
    return None, {}


@lru_cache(maxsize=256)
def _feedback_regex(template: str) -> re.Pattern[str]:
    out = []
    seen: set[str] = set()
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return re.compile(re.escape(template))
    for literal, name, _spec, _conv in parsed:
        out.append(re.escape(literal))
        if name is not None:
            out.append(f"(?P<{name}>.+?)" if name.isidentifier() and name not in seen else "(?:.+?)")
            seen.add(name)
    return re.compile("".join(out) + r"\Z", re.S)
