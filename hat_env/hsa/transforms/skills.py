"""Dimensions 1 and 2: skill identifiers (rename across naming styles) and skill content (guidance, examples,
advice, order, descriptions, language), with the skill-text knowledge both need."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any, Final

from hat_env.hsa.transforms._common import Record, _choose, _pick, _shuffled, _unique, make_code
from hat_env.hsa.vocab import FAMILIES, INTENT_STEPS, LANGS, PROMO_STEPS, Vocab, vocabulary

_PRODUCT_INTENTS: Final = ("price", "spec", "stock", "campaign", "shipping", "compare")
_SOCIAL_INTENTS: Final = ("chitchat", "troll", "injection")

# -- skills: shared knowledge ------------------------------------------------------------------------------

_PROMO_RE: Final = re.compile(r"campaign|promo|coupon|活动|促销|优惠", re.I)


@lru_cache(maxsize=4096)
def _skill_facts(kind: str, intents: str, description: str) -> tuple[str, tuple[str, ...], bool, bool]:
    """``(role, intents, is_reply, is_promo)`` of a skill from its metadata and description."""
    it = tuple(x.strip() for x in intents.split(",") if x.strip())
    if kind != "reply":
        return "strategy", it, False, bool(_PROMO_RE.search(description))
    if any(i in ("after_sales", "order_status") for i in it):
        role = "after_sales"
    elif "purchase" in it:
        role = "purchase"
    elif any(i in _PRODUCT_INTENTS for i in it):
        role = "product"
    elif any(i in _SOCIAL_INTENTS for i in it):
        role = "social"
    else:
        role = "other"
    return role, it, True, False


def _facts(skill: dict[str, Any]) -> tuple[str, tuple[str, ...], bool, bool]:
    md = skill.get("metadata") or {}
    return _skill_facts(md.get("kind", "strategy"), md.get("intents", ""), skill.get("description", ""))


def _heading_kinds() -> dict[str, str]:
    kinds = {"When to use": "when", "Steps": "steps", "Example": "example", "Examples": "example",
             "Binding rules": "binding", "何时使用": "when", "步骤": "steps", "示例": "example", "约束": "binding",
             "Tips": "advice"}
    for fam in FAMILIES:
        for lang in LANGS:
            for k, head in vocabulary(fam).skill_text[lang]["headings"].items():
                kinds[head] = k
    return kinds


_BINDING_RE: Final = re.compile(r"binding|rule|must|约束|规则|禁止|红线", re.I)


@lru_cache(maxsize=4096)
def parse_body(body: str) -> tuple[str, tuple[tuple[str, str, str], ...]]:
    """Split a SKILL body into its preamble and ``(heading, kind, content)`` sections (``## `` headings).

    ``kind`` is ``when``, ``steps``, ``example``, ``advice``, ``binding`` or ``other``; a heading that is not
    known but reads like rules counts as ``binding`` (kept verbatim).
    """
    kinds = _HEADINGS
    pre: list[str] = []
    secs: list[list[Any]] = []
    for line in body.split("\n"):
        if line.startswith("## "):
            head = line[3:].strip()
            kind = kinds.get(head) or ("binding" if _BINDING_RE.search(head) else "other")
            secs.append([head, kind, []])
        elif secs:
            secs[-1][2].append(line)
        else:
            pre.append(line)
    return "\n".join(pre).strip("\n"), tuple((h, k, "\n".join(c).strip("\n")) for h, k, c in secs)


def join_body(preamble: str, sections: list[tuple[str, str, str]] | tuple[tuple[str, str, str], ...]) -> str:
    """The inverse of :func:`parse_body` (normalised: one blank line between sections, a final newline)."""
    parts = [preamble] if preamble else []
    parts += [f"## {h}\n{c}" if c else f"## {h}" for h, _k, c in sections]
    return "\n\n".join(parts) + "\n"


def _topics(st: dict[str, Any], intents: tuple[str, ...]) -> str:
    words = [st["topics"].get(i, i.replace("_", " ")) for i in intents]
    if len(words) <= 1:
        return "".join(words)
    conj = st["and"]
    if conj == "、":
        return "、".join(words)
    sep = "、" if conj == "或" else ", "
    return sep.join(words[:-1]) + conj + words[-1]


@lru_cache(maxsize=1024)
def _guidance(family: str, lang: str, intents: tuple[str, ...]) -> tuple[str, str]:
    """``(when, steps)`` text for a reply skill covering ``intents`` in ``lang``."""
    st = vocabulary(family).skill_text[lang]
    when = st["when"].format(topics=_topics(st, intents))
    lines: list[str] = []
    if any("lookup" in INTENT_STEPS.get(i, ()) for i in intents):
        lines.append(st["steps"]["lookup"])
    for i in intents:
        keys = [k for k in INTENT_STEPS.get(i, ()) if k != "lookup"]
        if not keys:
            continue
        text = " ".join(st["steps"][k] for k in keys)
        if len(intents) > 1:
            if lang == "en":
                text = text[:1].lower() + text[1:]
            text = st["step_fmt"].format(topic=st["topics"].get(i, i.replace("_", " ")), step=text)
        if text not in lines:
            lines.append(text)
    steps = "\n".join(f"{n}. {line}" for n, line in enumerate(lines, 1))
    return when, steps


@lru_cache(maxsize=256)
def _promo_steps(family: str, lang: str) -> str:
    st = vocabulary(family).skill_text[lang]
    return "\n".join(f"{n}. {st['steps'][k]}" for n, k in enumerate(PROMO_STEPS, 1))


@lru_cache(maxsize=4096)
def _description(family: str, lang: str, kind: str, intents: str, description: str) -> str:
    st = vocabulary(family).skill_text[lang]
    _role, it, is_reply, is_promo = _skill_facts(kind, intents, description)
    if is_reply:
        text = st["desc_reply"].format(topics=_topics(st, it))
    elif is_promo:
        text = st["desc_promo"]
    else:
        text = st["desc_strategy"].format(text=description)
    return text[:1024]


def skill_description(vocab: Vocab, lang: str, skill: dict[str, Any]) -> str:
    """A description of ``skill`` in the family's wording: generated from its kind and intents (reply skills,
    the campaign-push strategy), else the original text behind the family's strategy prefix."""
    md = skill.get("metadata") or {}
    return _description(vocab.family, lang, md.get("kind", "strategy"), md.get("intents", ""),
                        skill.get("description", ""))


def skill_name(rng: random.Random, vocab: Vocab, role: str, used: set[str]) -> str:
    """A new valid Agent Skills name for a skill of ``role``, in one of the family's styles: a descriptive
    synonym, a versioned name or an opaque code (falling back to the next style when taken)."""
    rnd = rng.random
    pool = vocab.skill_names.get(role) or vocab.skill_names["other"]
    fmt = vocab.skill_version[0]
    nums = vocab.skill_version_numbers
    style = int(rnd() * 3)
    for attempt in range(10):
        if style == 0 and attempt < 4:
            name = pool[int(rnd() * len(pool))]
        elif style <= 1 and attempt < 7:
            name = fmt.format(base=pool[int(rnd() * len(pool))], n=nums[int(rnd() * len(nums))])
        else:
            name = make_code(rng, vocab.skill_code[0])
        if name not in used:
            used.add(name)
            return name
    return _unique(lambda: make_code(rng, vocab.skill_code[0]), used, lambda: make_code(rng, vocab.skill_code[0]))



# -- dimension 1: skill identifiers ------------------------------------------------------------------------


def skill_ids(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Rename skills across naming styles (descriptive synonyms, versioned names, opaque codes). Every
    reference follows (``rename_skill``: prompt text, skill text, hook parameters); the reply-skill requirement
    follows the skills' metadata, which stays."""
    skills = h["skills"]
    flags = _choose(rng, [strength] * len(skills))
    used = {s["name"] for s in skills}
    pairs = [(s["name"], skill_name(rng, vocab, _facts(s)[0], used)) for s, f in zip(skills, flags) if f]
    record.rename(h, skills=pairs)


# -- dimension 2: skill content ----------------------------------------------------------------------------


def _section_text(heading: str, content: str) -> str:
    """One body section as :func:`join_body` writes it."""
    return f"## {heading}\n{content}" if content else f"## {heading}"


@lru_cache(maxsize=4096)
def _sections(body: str) -> tuple[str, tuple[tuple[str, str], ...], bool, int]:
    """``(preamble, sections as (kind, text as written), has an example, number of non-binding sections)``."""
    pre, secs = parse_body(body)
    return (pre, tuple((k, _section_text(hd, c)) for hd, k, c in secs), any(k == "example" for _h, k, _c in secs),
            sum(1 for _h, k, _c in secs if k != "binding"))


@lru_cache(maxsize=1024)
def _wording(family: str, lang: str, kind: str, intents_s: str, is_promo: bool) -> tuple[Any, ...]:
    """The family's sections for a skill of this kind and these intents in ``lang``: ``(guidance sections by kind
    (``None`` when there is no guidance to write), example sections, advice section pairs)``."""
    st = vocabulary(family).skill_text[lang]
    heads = st["headings"]
    _role, intents, is_reply, _promo = _skill_facts(kind, intents_s, "")
    guidance: tuple[tuple[str, str], ...] | None = None
    if is_reply and intents:
        when, steps = _guidance(family, lang, intents)
        guidance = (("when", _section_text(heads["when"], when)), ("steps", _section_text(heads["steps"], steps)))
    elif is_promo and not is_reply:  # the campaign-push strategy
        guidance = (("steps", _section_text(heads["steps"], _promo_steps(family, lang))),)
    exs = st["examples"]
    examples = tuple(("example", _section_text(heads["example"], exs[i])) for i in intents if i in exs)
    lines = st["advice"]
    n = len(lines)
    advice = tuple(
        (("advice", _section_text(heads["advice"], f"- {lines[a]}")),
         ("advice", _section_text(heads["advice"], f"- {lines[a]}\n- {lines[(a + 1) % n]}")))
        for a in range(n))
    return guidance, examples, advice


class _SkillPlan:
    """What :func:`skill_content` may do to one skill in one language, worked out once per (family, language,
    body, metadata, description): the candidate edits and every text they can produce. Sections are kept as
    ``(kind, text as written)`` pairs, so a new body is one join.

    Attributes:
        edits: the candidate edits, in lottery order.
        pre: the body's preamble.
        secs: the sections; ``guided``: the sections after the guidance edit (``None`` when it is no candidate).
        examples: example sections to pick from (in the skill's intent order); ``advice``: ``(one line, two
            lines)`` advice sections per starting line.
        description: the reworded description.
    """

    __slots__ = ("edits", "pre", "secs", "guided", "examples", "advice", "description")

    def __init__(self, family: str, lang: str, body: str, kind: str, intents_s: str, description: str):
        _role, intents, is_reply, is_promo = _skill_facts(kind, intents_s, description)
        guidance, self.examples, self.advice = _wording(family, lang, kind, intents_s, is_promo)
        self.pre, self.secs, has_example, free = _sections(body)
        edits = []
        self.guided: tuple[tuple[str, str], ...] | None = None
        if guidance is not None:
            edits.append("guidance")
            new = dict(guidance)
            out = []
            for k, text in self.secs:
                rep = new.pop(k, None)
                out.append((k, rep if rep is not None else text))
            self.guided = tuple([(k, new[k]) for k in ("when", "steps") if k in new] + out)  # missing goes first
        if self.examples or has_example:
            edits.append("example")
        edits.append("advice")
        if free >= 2:
            edits.append("reorder")
        edits.append("description")
        self.edits = tuple(edits)
        self.description = _description(family, lang, kind, intents_s, description)

    def body(self, edits: set[str], rng: random.Random) -> str:
        """The body after ``edits`` (drawing from ``rng`` exactly as the edits need)."""
        rnd = rng.random
        guided = self.guided
        secs = list(guided if guided is not None and "guidance" in edits else self.secs)
        if "example" in edits:
            idx = [i for i, sec in enumerate(secs) if sec[0] == "example"]
            if self.examples and (not idx or rnd() < 0.7):
                ex = _pick(rng, self.examples)
                if idx:
                    secs[idx[0]] = ex
                    for i in reversed(idx[1:]):
                        del secs[i]
                else:
                    secs.append(ex)
            elif idx:
                secs = [sec for sec in secs if sec[0] != "example"]
        if "advice" in edits:
            idx = [i for i, sec in enumerate(secs) if sec[0] == "advice"]
            if idx and rnd() < 0.5:
                secs = [sec for sec in secs if sec[0] != "advice"]
            else:
                pair = self.advice[int(rnd() * len(self.advice))]
                adv = pair[0] if rnd() < 0.5 else pair[1]
                if idx:
                    secs[idx[0]] = adv
                else:
                    secs.insert(int(rnd() * (len(secs) + 1)), adv)
        if "reorder" in edits:
            free = [i for i, sec in enumerate(secs) if sec[0] != "binding"]
            if len(free) >= 2:
                order = _shuffled(rng, [secs[i] for i in free])
                for i, sec in zip(free, order):
                    secs[i] = sec
        parts = [text for _k, text in secs]
        if self.pre:
            parts.insert(0, self.pre)
        return "\n\n".join(parts) + "\n"


@lru_cache(maxsize=4096)
def _skill_plan(family: str, lang: str, body: str, kind: str, intents: str, description: str) -> _SkillPlan:
    return _SkillPlan(family, lang, body, kind, intents, description)


def skill_content(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Rephrase skills without changing what they ask for: regenerate guidance ("when to use" and steps) from
    the skill's intents, vary or drop examples, add or drop non-binding advice, reorder non-binding sections,
    rewrite descriptions, and switch the instruction language between English and Chinese. ``Binding rules``
    sections stay verbatim; ``metadata`` (kind, intents) stays."""
    lang = _pick(rng, LANGS)
    family = vocab.family
    skills = h["skills"]
    plans = []
    cands: list[tuple[int, str]] = []
    for i, s in enumerate(skills):
        md = s.get("metadata") or {}
        kind = md.get("kind", "strategy")
        # a reply skill's description does not shape its plan (renames make it vary): left out of the key
        pl = _skill_plan(family, lang, s.get("body", ""), kind, md.get("intents", ""),
                         s.get("description", "") if kind != "reply" else "")
        plans.append(pl)
        cands += [(i, e) for e in pl.edits]
    flags = _choose(rng, [strength] * len(cands))
    per: list[set[str]] = [set() for _ in skills]
    for (i, e), f in zip(cands, flags):
        if f:
            per[i].add(e)
    for s, pl, edits in zip(skills, plans, per):
        if not edits:
            continue
        upd: dict[str, Any] = {}
        if len(edits) > 1 or "description" not in edits:
            body = pl.body(edits, rng)
            if body != s.get("body", ""):
                upd["body"] = body
        if "description" in edits:
            desc = pl.description
            if desc != s.get("description"):
                upd["description"] = desc
        if upd:
            record.update(s, {"op": "update_skill", "skill": s["name"], "set": upd})


_HEADINGS: Final = _heading_kinds()
