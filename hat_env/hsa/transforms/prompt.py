"""Dimension 4: system-prompt structure (section order, titles, ids, texts, markup, the product list moved
between the prompt and a tool)."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Final

from hat_env.hsa.transforms._common import Record, _choose, _pick, _shuffled, _unique
from hat_env.hsa.transforms.tools import tool_name
from hat_env.hsa.vocab import FAMILIES, LANGS, Vocab, vocabulary

_SECTION_ROLES: Final = ("base", "persona", "products", "campaigns", "skills", "constraints", "tool_protocol")



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


@lru_cache(maxsize=4096)
def _pool(family: str, table: str, lang: str, role: str, current: str | None) -> tuple[str, ...]:
    """The family's section titles or texts (``table``) for ``role`` in ``lang``, less ``current``."""
    return tuple(t for t in getattr(vocabulary(family), table)[lang][role] if t != current)


@lru_cache(maxsize=1024)
def _section_cands(family: str, lang: str, p: float, roles: tuple[tuple[str, bool], ...]) -> tuple[float, ...]:
    """The lottery weights of the per-section edits (title, id, and text when the family words that role) for
    sections of ``roles`` (``(role, has text)``; ``other`` sections have none)."""
    texts = vocabulary(family).section_texts[lang]
    out: list[float] = []
    for role, has_text in roles:
        if role == "other":
            continue
        out += [p, 0.6 * p]
        if role in texts and (has_text or role != "products"):
            out.append(p)
    return tuple(out)


def prompt(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Restructure the system prompt: reorder sections, change their titles, ids and markup (Markdown,
    XML-like tags, JSON, plain text), reword the persona, style and protocol texts (English or Chinese), and move
    the product list from the prompt into a ``list_products`` tool or back."""
    p = strength
    family = vocab.family
    lang = _pick(rng, LANGS)
    titles_l = vocab.section_titles[lang]
    texts_l = vocab.section_texts[lang]
    secs = h["prompt"]["sections"]
    prod = next((s for s in secs if s.get("source") == "products"), None)
    lp_tool = next((t for t in h["tools"] if t.get("op") == "list_products"), None)
    cands: list[tuple[Any, str]] = []
    weights: list[float] = []
    if (prod is not None and lp_tool is None and len(secs) >= 2) or (prod is None and lp_tool is not None):
        cands.append((None, "move_products"))
        weights.append(0.5 * p)
    roles = [(s, _section_role(s)) for s in secs]
    for s, role in roles:
        if role == "other":
            continue
        cands.append((s, "title"))
        cands.append((s, "id"))
        if role in texts_l and (s.get("text") or role != "products"):
            cands.append((s, "text"))
    weights += _section_cands(vocab.family, lang, p, tuple((r, bool(s.get("text"))) for s, r in roles))
    cur_markup = h["prompt"].get("markup", "markdown")
    others = [m for m in vocab.markups if m != cur_markup]
    if others:  # the family's markups (the current one may be drawn again: then the markup stays)
        cands.append((None, "markup"))
        weights.append(p)
    if len(secs) >= 2:
        cands.append((None, "reorder"))
        weights.append(p)
    flags = _choose(rng, weights)
    chosen = [c for c, f in zip(cands, flags) if f]
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
            titles = _pool(family, "section_titles", lang, role, s["title"])
            if titles:
                upd["title"] = _pick(rng, titles)
        if "text" in edits:
            texts = _pool(family, "section_texts", lang, role, s.get("text"))
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
            record.reorder(h, "sections", new)


_ROLE_BY_ID: Final = _role_by_id()
