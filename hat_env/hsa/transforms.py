"""The five HSA transforms, one per dimension, each a seeded edit of a harness dict.

Every transform has the signature ``(h, rng, strength, vocab, record)``: ``h`` is the harness dict (the
:meth:`~hat_env.harness.core.Harness.to_dict` layout) it edits in place, ``rng`` a ``random.Random``,
``strength`` in ``[0, 1]`` the probability of each elementary edit (at least one edit happens when it is above
0), ``vocab`` the family's :class:`~hat_env.hsa.vocab.Vocab`, and ``record`` the :class:`Record` every change
goes through: changes are :mod:`hat_env.harness.patch` operations, so a variant is its parent plus a replayable
patch (``parent.apply(record.ops)`` gives the variant back, hash for hash).

All transforms are task-preserving: canonical operations, argument meaning (codecs are lossless), intents
covered by reply skills, binding rules and the reply budget stay; only names, encodings, wording, structure and
constraint values change. Nothing here iterates a ``set`` or a hash-ordered container, so a seed fixes the
variant byte for byte.

Speed matters (HSA runs before every rollout): transforms change values they own instead of searching, pick
with one ``random()`` call instead of ``choice``, and keep small per-parent and per-vocabulary caches (pure
functions of their keys; nothing cached is ever handed out for mutation).
"""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any, Callable

from hat_env.harness.hooks import DEFAULT_FEEDBACK
from hat_env.harness.patch import OPERATIONS
from hat_env.hsa.vocab import FAMILIES, INTENT_STEPS, LANGS, PROMO_STEPS, Vocab, case_words, make_code, vocabulary

#: Top-level fields of each canonical operation's result (what ``ToolSpec.results`` may rename).
RESULT_FIELDS: dict[str, tuple[str, ...]] = {
    "product_by_link": ("product_id", "link", "title", "brand", "category", "price", "list_price", "final_price",
                        "coupon", "specs", "faq"),
    "product_by_id": ("product_id", "link", "title", "brand", "category", "price", "list_price", "final_price",
                      "coupon", "specs", "faq"),
    "list_products": ("products",),
    "campaigns": ("campaigns",),
    "stock": ("product_id", "stock", "in_stock"),
    "shipping_policy": ("ships_within_hours", "carrier", "free_shipping", "fee"),
    "after_sales_policy": ("return_days", "exchange", "warranty_months", "note"),
    "order_status": ("order_id", "product_id", "status", "eta_days"),
    "pin_product": ("ok", "pinned", "link"),
    "send_coupon": ("ok", "coupon_id", "amount", "threshold"),
}

#: The lowest reply length limit and turn limit a variant may have, and the highest turn limit it gets.
MIN_REPLY_CHARS = 80
MIN_TURN_LIMIT = 6
MAX_TURN_LIMIT = 12

_PRODUCT_INTENTS = ("price", "spec", "stock", "campaign", "shipping", "compare")
_SOCIAL_INTENTS = ("chitchat", "troll", "injection")
_SECTION_ROLES = ("base", "persona", "products", "campaigns", "skills", "constraints", "tool_protocol")
_BANK = 32  # result-rename and feedback variants per (family, key)


def _jcopy(x: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars): faster than ``copy.deepcopy``."""
    if isinstance(x, dict):
        return {k: _jcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jcopy(v) for v in x]
    return x


def _pick(rng: random.Random, seq: Any) -> Any:
    """``rng.choice`` for short sequences without its rejection loop (a 2**-53 bias is irrelevant here)."""
    return seq[int(rng.random() * len(seq))]


def _shuffle(rng: random.Random, x: list[Any]) -> None:
    """Fisher-Yates with one ``random()`` per step (``rng.shuffle`` pays a rejection loop per element)."""
    rnd = rng.random
    for i in range(len(x) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        x[i], x[j] = x[j], x[i]


def _shuffled(rng: random.Random, x: list[Any]) -> list[Any]:
    """A shuffled copy of ``x`` that differs from it when it can (tries a few times)."""
    out = list(x)
    if len(out) < 2:
        return out
    for _ in range(4):
        _shuffle(rng, out)
        if out != x:
            return out
    return out[1:] + out[:1]  # a rotation: different unless every item is the same


def _sample(rng: random.Random, pool: list[Any], k: int) -> list[Any]:
    """``k`` distinct items of ``pool`` in random order."""
    x = list(pool)
    _shuffle(rng, x)
    return x[:k]


def _choose(rng: random.Random, probs: list[float], forcible: list[bool] | None = None) -> list[bool]:
    """One draw per candidate edit (none when every probability is 1); when none (of the ``forcible`` ones) hits,
    and some probability is above 0, one forcible edit is forced, so a transform at any strength above 0 changes
    something the content hash sees."""
    if all(p >= 1.0 for p in probs):
        return [True] * len(probs)
    rnd = rng.random
    flags = [rnd() < p for p in probs]
    hit = any(flags) if forcible is None else any(f and ok for f, ok in zip(flags, forcible))
    if not hit:
        live = [i for i, p in enumerate(probs) if p > 0 and (forcible is None or forcible[i])]
        if live:
            flags[_pick(rng, live)] = True
    return flags


# -- renames -----------------------------------------------------------------------------------------------

_NAME_EDGE = r"A-Za-z0-9_\-"


@lru_cache(maxsize=512)
def _names_re(names: tuple[str, ...]) -> re.Pattern[str]:
    """Whole-word alternation of ``names`` with the patch machinery's word boundaries."""
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![{_NAME_EDGE}])(?:{alts})(?![{_NAME_EDGE}])")


_HITS: dict[re.Pattern[str], dict[str, bool]] = {}


def _rewrite(text: str, pat: re.Pattern[str], mapping: dict[str, str], hits: dict[str, bool]) -> str:
    hit = hits.get(text)
    if hit is None:
        hit = pat.search(text) is not None
        if len(hits) > 16384:
            hits.clear()
        hits[text] = hit
    if not hit:
        return text
    return pat.sub(lambda m: mapping[m.group(0)], text)


class Record:
    """Applies and records patch operations, and follows identities through renames.

    Attributes:
        ops: the operations applied so far (a patch that turns the parent into the variant).
        tools: parent tool name -> current name (``None`` once removed).
        skills: parent skill name -> current name (``None`` once removed).
        memo: a cache of facts about the parent that transforms may share (per parent harness).
    """

    __slots__ = ("ops", "tools", "skills", "memo", "_tcur", "_scur")

    _ADD_FIELD = {"add_tool": "tool", "add_skill": "skill", "add_section": "section"}

    def __init__(self, h: dict[str, Any], memo: dict[Any, Any] | None = None):
        self.ops: list[dict[str, Any]] = []
        self.tools: dict[str, str | None] = {t["name"]: t["name"] for t in h["tools"]}
        self.skills: dict[str, str | None] = {s["name"]: s["name"] for s in h["skills"]}
        self._tcur: dict[str, str] = dict(self.tools)  # type: ignore[arg-type]
        self._scur: dict[str, str] = dict(self.skills)  # type: ignore[arg-type]
        self.memo: dict[Any, Any] = {} if memo is None else memo

    def apply(self, h: dict[str, Any], op: dict[str, Any]) -> None:
        """Apply ``op`` to ``h`` and record it (added items are copied, so the record never changes later)."""
        kind = op["op"]
        run = op
        fld = self._ADD_FIELD.get(kind)
        if fld is not None:  # operations only ever reassign an item's top-level values: a shallow copy will do
            run = dict(op)
            run[fld] = dict(op[fld])
        OPERATIONS[kind](h, run, len(self.ops))
        self.ops.append(op)
        if kind == "rename_tool":
            self._moved(self.tools, self._tcur, op["tool"], op["to"])
        elif kind == "rename_skill":
            self._moved(self.skills, self._scur, op["skill"], op["to"])
        elif kind == "remove_tool":
            self._moved(self.tools, self._tcur, op["tool"], None)
        elif kind == "remove_skill":
            self._moved(self.skills, self._scur, op["skill"], None)

    def update(self, obj: dict[str, Any], op: dict[str, Any]) -> None:
        """Apply and record an ``update_tool`` / ``update_skill`` / ``update_section`` operation whose target
        dict ``obj`` is already at hand: what the operation does, without the search."""
        obj.update(op["set"])
        self.ops.append(op)

    def add_tool(self, h: dict[str, Any], tool: dict[str, Any], index: int) -> None:
        """Insert a new ``tool`` (a name not in use) at ``index``; recorded as ``add_tool`` + ``move_tool``."""
        h["tools"].insert(index, dict(tool))
        self.ops.append({"op": "add_tool", "tool": tool})
        self.ops.append({"op": "move_tool", "tool": tool["name"], "index": index})

    def set(self, obj: dict[str, Any], key: str, path: str, value: Any) -> None:
        """Apply and record ``{"op": "set", "path": path, "value": value}`` as ``obj[key] = value`` (``obj`` is
        the dict ``path`` leads to)."""
        obj[key] = value
        self.ops.append({"op": "set", "path": path, "value": value})

    @staticmethod
    def _moved(names: dict[str, str | None], cur: dict[str, str], old: str, new: str | None) -> None:
        orig = cur.pop(old, None)
        if orig is not None:
            names[orig] = new
            if new is not None:
                cur[new] = orig

    def rename(self, h: dict[str, Any], tools: list[tuple[str, str]] = (), skills: list[tuple[str, str]] = (),
               skill_tool: tuple[str, str] | None = None) -> None:
        """Rename tools, skills and the skill-loading tool (``(new name, new param)``) in one pass over the
        texts, recording one ``rename_tool`` / ``rename_skill`` / ``rename_skill_tool`` operation each.

        Equivalent to applying those operations one by one: new names are fresh tokens of name characters, so
        no rename can touch another's output.
        """
        mapping: dict[str, str] = {}
        ops = self.ops
        if tools:
            by = {t["name"]: t for t in h["tools"]}
            for old, new in tools:
                by[old]["name"] = new
                mapping[old] = new
                ops.append({"op": "rename_tool", "tool": old, "to": new})
                self._moved(self.tools, self._tcur, old, new)
        if skills:
            by = {x["name"]: x for x in h["skills"]}
            for old, new in skills:
                by[old]["name"] = new
                mapping[old] = new
                ops.append({"op": "rename_skill", "skill": old, "to": new})
                self._moved(self.skills, self._scur, old, new)
        if skill_tool is not None:
            st = h["skill_tool"]
            old = st.get("name", "load_skill")
            st["name"], st["param"] = skill_tool
            if skill_tool[0] != old:
                mapping[old] = skill_tool[0]
            ops.append({"op": "rename_skill_tool", "to": skill_tool[0], "param": skill_tool[1]})
        if not mapping:
            return
        pat = _names_re(tuple(mapping))
        hits = _HITS.setdefault(pat, {})
        for sec in h["prompt"]["sections"]:
            t = sec.get("text")
            if t:
                sec["text"] = _rewrite(t, pat, mapping, hits)
        for sk in h["skills"]:
            t = sk.get("body")
            if t:
                sk["body"] = _rewrite(t, pat, mapping, hits)
            t = sk.get("description")
            if t:
                sk["description"] = _rewrite(t, pat, mapping, hits)
        for tool in h["tools"]:
            t = tool.get("description")
            if t:
                tool["description"] = _rewrite(t, pat, mapping, hits)
        for hk in h.get("hooks", ()):
            if hk.get("matcher"):
                hk["matcher"] = _rewrite(hk["matcher"], pat, mapping, hits)
            params = hk.get("params")
            if params:
                for k, v in list(params.items()):
                    if isinstance(v, str) and v in mapping:
                        params[k] = mapping[v]


# -- skills: shared knowledge ------------------------------------------------------------------------------

_PROMO_RE = re.compile(r"campaign|promo|coupon|活动|促销|优惠", re.I)


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


_BINDING_RE = re.compile(r"binding|rule|must|约束|规则|禁止|红线", re.I)


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


# -- names -------------------------------------------------------------------------------------------------


def _unique(make: Callable[[], str], used: set[str], fallback: Callable[[], str], tries: int = 6) -> str:
    """A name from ``make`` (tried ``tries`` times), else from ``fallback`` (until free), added to ``used``.
    Both must be pure generators (they must not touch ``used``)."""
    for _ in range(tries):
        name = make()
        if name not in used:
            used.add(name)
            return name
    while True:
        name = fallback()
        if name not in used:
            used.add(name)
            return name


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


def tool_name(rng: random.Random, vocab: Vocab, op: str | None, style: str, used: set[str],
              p_scramble: float = 0.2) -> str:
    """A new tool name for ``op`` in casing ``style`` (sometimes a scrambled code, as ToolSandbox does)."""
    rnd = rng.random
    names = vocab.tables["tools"].get(op or "", {}).get(style)
    if names and rnd() >= p_scramble:
        for _ in range(6):
            name = names[int(rnd() * len(names))]
            if name not in used:
                used.add(name)
                return name
    while True:
        name = make_code(rng, vocab.scramble[0])
        if name not in used:
            used.add(name)
            return name


def _param_name(rng: random.Random, vocab: Vocab, canon: str | None, style: str, used: set[str]) -> str:
    rnd = rng.random
    pool = vocab.tables["params"].get(canon or "", {}).get(style)
    if pool:
        for _ in range(6):
            name = pool[int(rnd() * len(pool))]
            if name not in used:
                used.add(name)
                return name
    while True:
        name = make_code(rng, vocab.param_code[0])
        if name not in used:
            used.add(name)
            return name


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


def _rewrite_body(skill: dict[str, Any], edits: set[str], rng: random.Random, vocab: Vocab, lang: str) -> str:
    pre, secs0 = parse_body(skill.get("body", ""))
    secs = list(secs0)
    st = vocab.skill_text[lang]
    heads = st["headings"]
    _role, intents, is_reply, _promo = _facts(skill)
    rnd = rng.random
    if "guidance" in edits:
        if is_reply and intents:
            when, steps = _guidance(vocab.family, lang, intents)
            new = {"when": (heads["when"], "when", when), "steps": (heads["steps"], "steps", steps)}
        else:  # the campaign-push strategy
            new = {"steps": (heads["steps"], "steps", _promo_steps(vocab.family, lang))}
        out = []
        for sec in secs:
            rep = new.pop(sec[1], None)
            out.append(rep if rep is not None else sec)
        secs = [new[k] for k in ("when", "steps") if k in new] + out  # missing guidance goes first
    if "example" in edits:
        exs = st["examples"]
        cands = [i for i in intents if i in exs]
        idx = [i for i, sec in enumerate(secs) if sec[1] == "example"]
        if cands and (not idx or rnd() < 0.7):
            ex = (heads["example"], "example", exs[_pick(rng, cands)])
            if idx:
                secs[idx[0]] = ex
                for i in reversed(idx[1:]):
                    del secs[i]
            else:
                secs.append(ex)
        else:
            secs = [sec for sec in secs if sec[1] != "example"]
    if "advice" in edits:
        idx = [i for i, sec in enumerate(secs) if sec[1] == "advice"]
        if idx and rnd() < 0.5:
            secs = [sec for sec in secs if sec[1] != "advice"]
        else:
            adv_lines = st["advice"]
            a = int(rnd() * len(adv_lines))
            lines = [adv_lines[a]] if rnd() < 0.5 else [adv_lines[a], adv_lines[(a + 1) % len(adv_lines)]]
            adv = (heads["advice"], "advice", "\n".join(f"- {x}" for x in lines))
            if idx:
                secs[idx[0]] = adv
            else:
                secs.insert(int(rnd() * (len(secs) + 1)), adv)
    if "reorder" in edits:
        free = [i for i, sec in enumerate(secs) if sec[1] != "binding"]
        if len(free) >= 2:
            order = _shuffled(rng, [secs[i] for i in free])
            for i, sec in zip(free, order):
                secs[i] = sec
    return join_body(pre, secs)


def skill_content(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Rephrase skills without changing what they ask for: regenerate guidance ("when to use" and steps) from
    the skill's intents, vary or drop examples, add or drop non-binding advice, reorder non-binding sections,
    rewrite descriptions, and switch the instruction language between English and Chinese. ``Binding rules``
    sections stay verbatim; ``metadata`` (kind, intents) stays."""
    lang = _pick(rng, LANGS)
    exs = vocab.skill_text[lang]["examples"]
    cands: list[tuple[int, str]] = []
    for i, s in enumerate(h["skills"]):
        _pre, secs = parse_body(s.get("body", ""))
        _role, intents, is_reply, is_promo = _facts(s)
        if (is_reply and intents) or is_promo:
            cands.append((i, "guidance"))
        if any(x in exs for x in intents) or any(k == "example" for _h, k, _c in secs):
            cands.append((i, "example"))
        cands.append((i, "advice"))
        if sum(1 for _h, k, _c in secs if k != "binding") >= 2:
            cands.append((i, "reorder"))
        cands.append((i, "description"))
    flags = _choose(rng, [strength] * len(cands))
    per: dict[int, set[str]] = {}
    for (i, e), f in zip(cands, flags):
        if f:
            per.setdefault(i, set()).add(e)
    for i, s in enumerate(h["skills"]):
        edits = per.get(i)
        if not edits:
            continue
        upd: dict[str, Any] = {}
        if len(edits) > 1 or "description" not in edits:
            body = _rewrite_body(s, edits, rng, vocab, lang)
            if body != s.get("body", ""):
                upd["body"] = body
        if "description" in edits:
            desc = skill_description(vocab, lang, s)
            if desc != s.get("description"):
                upd["description"] = desc
        if upd:
            record.update(s, {"op": "update_skill", "skill": s["name"], "set": upd})


# -- dimension 3: tool schemas -----------------------------------------------------------------------------


def _leaves(schema: dict[str, Any], prefix: str = "", req: bool = True, stop: frozenset[str] = frozenset()
            ) -> list[tuple[str, dict[str, Any], bool]]:
    """``(dotted path, leaf schema, required)`` for every leaf property of an object schema, in order."""
    out = []
    props = schema.get("properties") or {}
    required = schema.get("required") or []
    for name, sub in props.items():
        path = f"{prefix}{name}"
        r = req and name in required
        if path not in stop and isinstance(sub, dict) and sub.get("type") == "object" and "properties" in sub:
            out += _leaves(sub, path + ".", r, stop)
        else:
            out.append((path, sub, r))
    return out


class _ToolPlan:
    """What a tool's schema is made of, computed once per parent tool: leaves with their canonical argument,
    whether the arguments are nested (and in which wrapper), the other top-level schema keys, the codecs."""

    __slots__ = ("src", "params", "args", "leaves", "nested", "extra", "wrapper", "codecs")

    def __init__(self, src: Any, t: dict[str, Any]):
        self.src = src
        self.params = t.get("parameters") or {"type": "object", "properties": {}}
        self.args = t.get("args") or {}
        by_path = {b["path"]: c for c, b in self.args.items()}
        found = _leaves(self.params, stop=frozenset(by_path))
        self.leaves = tuple((path.rsplit(".", 1)[-1], sch, req, by_path.get(path)) for path, sch, req in found)
        self.nested = any("." in path for path, _s, _r in found)
        self.wrapper = next((path.split(".", 1)[0] for path, _s, _r in found if "." in path), None)
        self.extra = {k: v for k, v in self.params.items() if k not in ("type", "properties", "required")}
        self.codecs = {c: b["codec"]["type"] for c, b in self.args.items()}


def _plan(t: dict[str, Any], memo: dict[Any, Any]) -> _ToolPlan:
    key = ("tool", t["name"])
    pl = memo.get(key)
    src = t.get("parameters")
    if pl is None or not ((pl.src is src or pl.params == src) and pl.args == t.get("args")):
        pl = _ToolPlan(src, _jcopy(t))
        if len(memo) > 4096:
            memo.clear()
        memo[key] = pl
    return pl


def _codec(ctype: str, prefix: str = "", cmap: dict[str, str] | None = None) -> dict[str, Any]:
    return {"type": ctype, "prefix": prefix, "map": {} if cmap is None else cmap}


@lru_cache(maxsize=4096)
def _notes(family: str, codecs: tuple[tuple[str, str], ...]) -> str:
    notes = vocabulary(family).notes
    out = []
    prefixes: list[str] = []
    for ctype, prefix in codecs:
        if ctype == "int_as_str":
            out.append(notes["int_as_str"])
        elif ctype == "prefix" and prefix not in prefixes:
            prefixes.append(prefix)
    for p in prefixes:
        out.append(notes["prefix"].format(prefix=p))
    return " ".join(out)


@lru_cache(maxsize=1024)
def _strip_notes(desc: str) -> str:
    """Remove codec notes an earlier augmentation appended (either family's wording)."""
    for fam in FAMILIES:
        for tpl in vocabulary(fam).notes.values():
            pat = re.escape(tpl).replace(re.escape("{prefix}"), r"\S+")
            desc = re.sub(r"\s*" + pat, "", desc)
    return desc.strip()


@lru_cache(maxsize=1024)
def _result_bank(family: str, op: str, style: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """:data:`_BANK` result-field renamings of ``op`` (random subsets, random names), fixed per key."""
    fields = RESULT_FIELDS.get(op, ())
    pools = vocabulary(family).tables["results"]
    r = random.Random(f"results:{family}:{op}:{style}")
    bank = []
    for _ in range(_BANK):
        taken = set(fields)
        res = []
        for fld in fields:
            pool = pools.get(fld)
            if pool is None or r.random() >= 0.6:
                continue
            for _ in range(4):
                nn = pool[style][int(r.random() * len(pool[style]))]
                if nn not in taken:
                    taken.add(nn)
                    res.append((fld, nn))
                    break
        if not res and fields and pools.get(fields[0]):
            res.append((fields[0], pools[fields[0]][style][0]))
        bank.append(tuple(res))
    return tuple(bank)


def _distractor(name: str, desc: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "op": None, "description": desc,
            "parameters": {"type": "object", "properties": _jcopy(params), "required": list(params)[:1],
                           "additionalProperties": False},
            "args": {}, "results": {}}


def tool_schemas(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Rename tools (synonyms in the family's casing styles, or scrambled codes) and their parameters, reorder
    parameters, nest them in a wrapper object or flatten them, change identifier encodings losslessly (link
    number as a string, prefixed product/coupon/order ids), rename enum values, rename result fields, rewrite
    descriptions, rename the skill-loading tool, reorder the tool list, and add distractor tools
    (``op: null``) that must not be called."""
    p = strength
    rnd = rng.random
    tables = vocab.tables
    family = vocab.family
    tools = [t for t in h["tools"] if t.get("op")]
    plans = [_plan(t, record.memo) for t in tools]
    tstyle = _pick(rng, vocab.tool_casings)
    pstyle = _pick(rng, vocab.param_casings)
    wrapper = _pick(rng, tables["wrappers"][pstyle])
    has: set[str] = set()
    for pl in plans:
        for canon, ctype in pl.codecs.items():
            if ctype == "enum":
                has.add("enum")
            elif canon == "link" and ctype in ("identity", "int_as_str"):
                has.add("link")
            elif canon in ("product_id", "coupon_id", "order_id") and ctype in ("identity", "prefix"):
                has.add(canon)
    cands: list[tuple[int, str, float]] = []
    for i, (t, pl) in enumerate(zip(tools, plans)):
        cands.append((i, "rename", p))
        if pl.args:
            cands.append((i, "params", p))
            cands.append((i, "nest", 0.5 * p))
            cands.append((i, "describe_params", p))
        if len(pl.leaves) >= 2:
            cands.append((i, "reorder", p))
        if t["op"] in RESULT_FIELDS:
            cands.append((i, "results", 0.6 * p))
        cands.append((i, "describe", p))
    for g, w in (("link", 0.5), ("product_id", 0.5), ("coupon_id", 0.35), ("order_id", 0.25), ("enum", 1.0)):
        if g in has:
            cands.append((-1, g, w * p))
    cands.append((-1, "distractors", p))
    cands.append((-1, "skill_tool", p))
    cands.append((-1, "order", 0.5 * p))
    # a parameter reorder alone is not forced: the content hash (sorted keys) does not see it
    flags = _choose(rng, [w for _i, _e, w in cands], [e != "reorder" for _i, e, _w in cands])
    per: list[set[str]] = [set() for _ in tools]
    glob: set[str] = set()
    for (i, e, _w), f in zip(cands, flags):
        if f:
            (glob if i < 0 else per[i]).add(e)
    used = {t["name"] for t in h["tools"]}
    used.add(h["skill_tool"]["name"])
    # identifier encodings, decided once per variant so every tool agrees
    prefix_for: dict[str, str | None] = {}
    for canon in ("product_id", "coupon_id", "order_id"):
        if canon in glob:
            pool = vocab.prefixes.get(canon) or ()
            prefix_for[canon] = _pick(rng, pool) if pool else None
    enum_new: dict[str, str] = {}
    if "enum" in glob:
        for canon_v, styles in tables["enum"].items():
            enum_new[canon_v] = _pick(rng, styles[pstyle])
    # 1) renames first (one pass; references in texts follow)
    pairs = [(t["name"], tool_name(rng, vocab, t["op"], tstyle, used)) for t, e in zip(tools, per) if "rename" in e]
    st_new = None
    if "skill_tool" in glob:
        st = h["skill_tool"]
        names = vocab.skill_tool_names
        name = _unique(lambda: _pick(rng, names), used, lambda: make_code(rng, vocab.scramble[0]))
        st_new = (name, _pick(rng, [x for x in vocab.skill_tool_params if x != st.get("param")]))
    record.rename(h, tools=pairs, skill_tool=st_new)
    if st_new is not None:
        desc = _pick(rng, vocab.skill_tool_descriptions)
        if desc != h["skill_tool"].get("description"):
            record.set(h["skill_tool"], "description", "skill_tool.description", desc)
    # 2) schema, codecs, results, descriptions: one update per tool
    codec_glob = bool(glob & {"link", "product_id", "coupon_id", "order_id", "enum"})
    pdescs = vocab.param_descriptions
    for t, pl, edits in zip(tools, plans, per):
        upd: dict[str, Any] = {}
        args = pl.args
        new_args = args
        changed_codec = False
        if pl.leaves and (codec_glob or ("params" in edits or "nest" in edits or "reorder" in edits
                                         or "describe_params" in edits)):
            want_nest = (not pl.nested) if "nest" in edits else pl.nested
            rename_params = "params" in edits
            describe = "describe_params" in edits
            names_used: set[str] = set()
            entries = []
            for leaf, sch0, req, canon in pl.leaves:
                if canon is not None and rename_params:
                    names_used.add(leaf)
                    name = _param_name(rng, vocab, canon, pstyle, names_used)
                    names_used.discard(leaf)
                    names_used.add(name)
                elif leaf in names_used:
                    name = _param_name(rng, vocab, canon, pstyle, names_used)
                else:
                    name = leaf
                    names_used.add(name)
                sch = dict(sch0)
                codec = None
                if canon is not None:
                    c0 = args[canon]["codec"]
                    ctype = c0["type"]
                    if ctype == "enum":
                        if "enum" in glob:
                            changed_codec = True
                            new_map: dict[str, str] = {}
                            for old_v, canon_v in (c0.get("map") or {}).items():
                                nv = enum_new.get(canon_v) or case_words((canon_v + " opt").replace("_", " ").split(),
                                                                         pstyle)
                                if nv in new_map or nv == old_v:
                                    nv = case_words(f"{canon_v} {old_v} v".replace("_", " ").split(), pstyle)
                                new_map[nv] = canon_v
                            codec = _codec("enum", "", new_map)
                            sch["enum"] = list(new_map)
                        else:
                            codec = _codec("enum", "", dict(c0.get("map") or {}))
                            if "enum" in sch:
                                sch["enum"] = list(sch["enum"])
                    elif canon == "link" and "link" in glob and ctype in ("identity", "int_as_str"):
                        changed_codec = True
                        if ctype == "identity":
                            codec = _codec("int_as_str")
                            sch = {"type": "string", "pattern": "^[0-9]+$",
                                   **{k: v for k, v in sch.items() if k not in ("minimum", "maximum", "type")}}
                        else:
                            codec = _codec("identity")
                            sch = {"type": "integer", "minimum": 1,
                                   **{k: v for k, v in sch.items() if k not in ("pattern", "type")}}
                    elif canon in prefix_for and ctype in ("identity", "prefix"):
                        changed_codec = True
                        new_pre = prefix_for[canon]
                        if ctype == "prefix" and new_pre == c0.get("prefix"):
                            new_pre = None
                        sch.pop("pattern", None)
                        if new_pre:
                            codec = _codec("prefix", new_pre)
                            sch["pattern"] = "^" + re.escape(new_pre)
                        else:
                            codec = _codec("identity")
                    else:
                        codec = _codec(ctype, c0.get("prefix", ""), dict(c0.get("map") or {}))
                    if describe:
                        descs = pdescs.get(canon)
                        if descs and (rnd() < 0.75 or "description" not in sch):
                            sch["description"] = _pick(rng, descs)
                        else:
                            sch.pop("description", None)  # a removed type hint, as ToolSandbox does
                entries.append((canon, name, sch, req, codec))
            if "reorder" in edits and len(entries) >= 2:
                entries = _shuffled(rng, entries)
            props = {e[1]: e[2] for e in entries}
            req = [e[1] for e in entries if e[3]]
            if want_nest:
                if pl.nested and not rename_params and pl.wrapper:
                    wname = pl.wrapper
                else:
                    wname = wrapper if wrapper not in props else wrapper + "_"
                inner: dict[str, Any] = {"type": "object", "properties": props}
                if req:
                    inner["required"] = req
                inner["additionalProperties"] = False
                new_params: dict[str, Any] = {"type": "object", "properties": {wname: inner}}
                if req:
                    new_params["required"] = [wname]
                new_params["additionalProperties"] = pl.extra.get("additionalProperties", False)
                bound = {e[0]: {"path": f"{wname}.{e[1]}", "codec": e[4]} for e in entries if e[0]}
            else:
                new_params = {"type": "object", "properties": props}
                if req:
                    new_params["required"] = req
                new_params.update(pl.extra if not pl.nested else {"additionalProperties": False})
                bound = {e[0]: {"path": e[1], "codec": e[4]} for e in entries if e[0]}
            new_args = {c: bound[c] for c in args if c in bound}
            if new_params != pl.params or "reorder" in edits:  # dicts compare equal whatever their order
                upd["parameters"] = new_params
            if new_args != args:
                upd["args"] = new_args
        if "results" in edits:
            bank = _result_bank(family, t["op"], pstyle)
            res = dict(bank[int(rnd() * len(bank))])
            if res and res != t.get("results"):
                upd["results"] = res
        if "describe" in edits or changed_codec:
            cur = _strip_notes(t.get("description", ""))
            op_descs = [d for d in vocab.tool_descriptions.get(t["op"], ()) if d != cur]
            base = _pick(rng, op_descs) if "describe" in edits and op_descs else cur
            note = _notes(family, tuple((b["codec"]["type"], b["codec"].get("prefix", "")) for b in new_args.values()))
            desc = f"{base} {note}" if note else base
            if desc != t.get("description"):
                upd["description"] = desc
        if upd:
            record.update(t, {"op": "update_tool", "tool": t["name"], "set": upd})
    # 3) distractors: tools bound to nothing, that must not be called
    if "distractors" in glob:
        pool = [d for d in tables["distractors"][tstyle] if d[0] not in used]
        k = min(len(pool), 1 + (rnd() < p) + (rnd() < 0.5 * p))
        for name, desc, dparams in _sample(rng, pool, k):
            used.add(name)
            record.add_tool(h, _distractor(name, desc, dparams), int(rnd() * (len(h["tools"]) + 1)))
    # 4) tool order
    if "order" in glob and len(h["tools"]) >= 2:
        names = [t["name"] for t in h["tools"]]
        new = _shuffled(rng, names)
        if new != names:
            record.apply(h, {"op": "reorder_tools", "order": new})


# -- dimension 4: prompt structure -------------------------------------------------------------------------


def _role_by_id() -> dict[str, str]:
    out = {r: r for r in _SECTION_ROLES}
    for fam in FAMILIES:
        for role, ids in vocabulary(fam).section_ids.items():
            for i in ids:
                out[i] = role
    return out


def _section_role(s: dict[str, Any]) -> str:
    src = s.get("source")
    if src in ("products", "campaigns", "skills", "constraints"):
        return src
    if src == "room":
        return "other"
    return _ROLE_BY_ID.get(s["id"], "other")


def prompt(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Restructure the system prompt: reorder sections, change their titles, ids and markup (Markdown,
    XML-like tags, JSON, plain text), reword the persona, style and protocol texts (English or Chinese), and move
    the product list from the prompt into a ``list_products`` tool or back."""
    p = strength
    lang = _pick(rng, LANGS)
    titles_l = vocab.section_titles[lang]
    texts_l = vocab.section_texts[lang]
    secs = h["prompt"]["sections"]
    prod = next((s for s in secs if s.get("source") == "products"), None)
    lp_tool = next((t for t in h["tools"] if t.get("op") == "list_products"), None)
    cands: list[tuple[Any, str, float]] = []
    if (prod is not None and lp_tool is None and len(secs) >= 2) or (prod is None and lp_tool is not None):
        cands.append((None, "move_products", 0.5 * p))
    for s in secs:
        role = _section_role(s)
        if role == "other":
            continue
        cands.append((s, "title", p))
        cands.append((s, "id", 0.6 * p))
        if role in texts_l and (s.get("text") or role != "products"):
            cands.append((s, "text", p))
    cur_markup = h["prompt"].get("markup", "markdown")
    others = [m for m in vocab.markups if m != cur_markup]
    if others:  # the family's markups (the current one may be drawn again: then the markup stays)
        cands.append((None, "markup", p))
    if len(secs) >= 2:
        cands.append((None, "reorder", p))
    flags = _choose(rng, [w for _s, _e, w in cands])
    chosen = [(s, e) for (s, e, _w), f in zip(cands, flags) if f]
    glob = {e for s, e in chosen if s is None}
    ids = {s["id"] for s in secs}
    if "move_products" in glob:
        if prod is not None:
            record.apply(h, {"op": "remove_section", "section": prod["id"]})
            used = {t["name"] for t in h["tools"]}
            used.add(h["skill_tool"]["name"])
            name = tool_name(rng, vocab, "list_products", _pick(rng, vocab.tool_casings), used)
            desc = _pick(rng, vocab.tool_descriptions["list_products"])
            record.add_tool(h, {"name": name, "op": "list_products", "description": desc,
                                "parameters": {"type": "object", "properties": {}, "additionalProperties": False},
                                "args": {}, "results": {}}, int(rng.random() * (len(h["tools"]) + 1)))
        else:
            assert lp_tool is not None
            record.apply(h, {"op": "remove_tool", "tool": lp_tool["name"]})
            sid = _unique(lambda: _pick(rng, vocab.section_ids["products"]), ids,
                          lambda: f"products_{int(rng.random() * 98) + 2}")
            sec = {"id": sid, "title": _pick(rng, titles_l["products"]), "text": _pick(rng, texts_l["products"]),
                   "source": "products"}
            record.apply(h, {"op": "add_section", "section": sec, "index": int(rng.random() * (len(secs) + 1))})
    per: dict[int, set[str]] = {}
    for s, e in chosen:
        if s is not None and not (prod is not None and s is prod and "move_products" in glob):
            per.setdefault(id(s), set()).add(e)
    for s in h["prompt"]["sections"]:
        edits = per.get(id(s))
        if not edits:
            continue
        role = _section_role(s)
        upd: dict[str, Any] = {}
        if "title" in edits:
            titles = [t for t in titles_l[role] if t != s["title"]]
            if titles:
                upd["title"] = _pick(rng, titles)
        if "text" in edits:
            texts = [t for t in texts_l[role] if t != s.get("text")]
            if texts:
                upd["text"] = _pick(rng, texts)
        if "id" in edits:
            cand = [i for i in vocab.section_ids[role] if i not in ids]
            if cand:
                new_id = _pick(rng, cand)
                ids.add(new_id)
                upd["id"] = new_id
        if upd:
            record.update(s, {"op": "update_section", "section": s["id"], "set": upd})
    if "markup" in glob and others:
        markup = _pick(rng, vocab.markups)
        if markup == cur_markup and len(chosen) == 1:  # the only edit drawn: it must change something
            markup = _pick(rng, others)
        if markup != cur_markup:
            record.set(h["prompt"], "markup", "prompt.markup", markup)
    if "reorder" in glob:
        cur = [s["id"] for s in h["prompt"]["sections"]]
        new = _shuffled(rng, cur)
        if new != cur:
            record.apply(h, {"op": "reorder_sections", "order": new})


# -- dimension 5: interaction constraints ------------------------------------------------------------------


@lru_cache(maxsize=256)
def _feedback_bank(family: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """:data:`_BANK` full sets of reworded feedback templates (one wording per key), fixed per family."""
    fb = vocabulary(family).feedback
    r = random.Random(f"feedback:{family}")
    return tuple(tuple((k, fb[k][int(r.random() * len(fb[k]))]) for k in DEFAULT_FEEDBACK if k in fb)
                 for _ in range(_BANK))


def constraints(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Change what the hooks enforce, keeping the gold behaviour valid: the required disclosure text (the reply
    length limit moves with it, so the reply budget beside the disclosure stays the same: a tighter budget
    would change what a gold reply can say), forbidden words (words a gold reply never uses), the turn limit
    (6 to 12), the retry feedback wording, and which reply skill is required for which intents (some intents
    move to a new reply skill)."""
    p = strength
    rnd = rng.random
    c = h["constraints"]
    cands: list[tuple[str, float]] = []
    limit = c.get("max_reply_chars")
    if limit is not None:
        cands.append(("disclosure", p))
    cands.append(("forbidden", p))
    cands.append(("turn_limit", p))
    cands.append(("feedback", p))
    split = [s for s in h["skills"] if _facts(s)[2] and len(_facts(s)[1]) >= 2]
    if split and c.get("require_reply_skill", True):
        cands.append(("reply_skill", p))
    flags = _choose(rng, [w for _e, w in cands])
    chosen = {e for (e, _w), f in zip(cands, flags) if f}
    if "disclosure" in chosen:
        old = c.get("required_disclosure")
        pool = [d for d in vocab.disclosures if d != old]
        start = int(rnd() * len(pool)) if pool else 0
        for j in range(len(pool)):
            new = pool[(start + j) % len(pool)]
            new_limit = limit + len(new) + 1 - ((len(old) + 1) if old else 0)
            if new_limit >= MIN_REPLY_CHARS:
                record.set(c, "required_disclosure", "constraints.required_disclosure", new)
                record.set(c, "max_reply_chars", "constraints.max_reply_chars", new_limit)
                break
    if "forbidden" in chosen:
        cur = list(c.get("forbidden_words") or [])
        pool = [w for w in vocab.forbidden_words if w not in cur]
        if pool:
            k = min(len(pool), 1 + int(2 * p * rnd() + 0.5))
            record.set(c, "forbidden_words", "constraints.forbidden_words", cur + _sample(rng, pool, k))
    if "turn_limit" in chosen:
        cur_t = int(c.get("turn_limit", 8))
        vals = [v for v in range(MIN_TURN_LIMIT, MAX_TURN_LIMIT + 1) if v != cur_t]
        record.set(c, "turn_limit", "constraints.turn_limit", _pick(rng, vals))
    if "feedback" in chosen:
        old_fb = c.get("feedback") or {}
        fb = dict(old_fb)
        bank = _feedback_bank(vocab.family)
        wording = bank[int(rnd() * len(bank))]
        if p >= 1.0:
            fb.update(wording)
        else:
            keys = _choose(rng, [max(p, 0.2)] * len(wording))
            fb.update(kv for kv, f in zip(wording, keys) if f)
        if fb != old_fb:
            record.set(c, "feedback", "constraints.feedback", fb)
    if "reply_skill" in chosen:
        src = _pick(rng, split)
        intents = list(_facts(src)[1])
        k = 1 + int(rnd() * (len(intents) - 1))
        pick = _sample(rng, intents, k)
        moved = [i for i in intents if i in pick]
        keep = [i for i in intents if i not in pick]
        lang = _pick(rng, LANGS)
        used = {s["name"] for s in h["skills"]}
        md_new = {"kind": "reply", "intents": ",".join(moved)}
        role = _skill_facts("reply", md_new["intents"], "")[0]
        new = {"name": skill_name(rng, vocab, role, used),
               "description": _description(vocab.family, lang, "reply", md_new["intents"], ""),
               "metadata": md_new, "allowed-tools": src.get("allowed-tools")}
        when, steps = _guidance(vocab.family, lang, tuple(moved))
        heads = vocab.skill_text[lang]["headings"]
        _pre, src_secs = parse_body(src.get("body", ""))
        secs = [(heads["when"], "when", when), (heads["steps"], "steps", steps)]
        secs += [sec for sec in src_secs if sec[1] == "binding"]
        new["body"] = join_body("", secs)
        md = dict(src.get("metadata") or {})
        md["intents"] = ",".join(keep)
        record.update(src, {"op": "update_skill", "skill": src["name"], "set": {"metadata": md}})
        record.apply(h, {"op": "add_skill", "skill": new})


#: Transform of each dimension.
TRANSFORMS: dict[str, Callable[[dict[str, Any], random.Random, float, Vocab, Record], None]] = {
    "skill_ids": skill_ids,
    "skill_content": skill_content,
    "tool_schemas": tool_schemas,
    "prompt": prompt,
    "constraints": constraints,
}

#: The order transforms run in: renames first (the texts they rewrite are then the parent's, which keeps their
#: scan cache warm), then the new reply skill, the wording, and the prompt (which may add a tool).
APPLY_ORDER: tuple[str, ...] = ("skill_ids", "tool_schemas", "constraints", "skill_content", "prompt")

_HEADINGS = _heading_kinds()
_ROLE_BY_ID = _role_by_id()

__all__ = ["APPLY_ORDER", "MAX_TURN_LIMIT", "MIN_REPLY_CHARS", "MIN_TURN_LIMIT", "RESULT_FIELDS", "Record",
           "TRANSFORMS", "constraints", "join_body", "parse_body", "prompt", "skill_content", "skill_description",
           "skill_ids", "skill_name", "tool_name", "tool_schemas"]
