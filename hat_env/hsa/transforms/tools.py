"""Dimension 3: tool schemas (names, parameters, nesting, identifier encodings, enum values, result fields,
descriptions, the skill-loading tool, tool order, distractor tools).

What depends only on the parent's tools and the vocabulary family is computed once per parent and family
(:mod:`hat_env.hsa.transforms.tool_setup`); a call then only draws numbers and builds new, unshared values.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from hat_env.hsa.transforms._common import Record, _jcopy, _sample, _shuffled, make_code
from hat_env.hsa.transforms.tool_setup import _IDS, _OFF, _assemble, _leaf, _result_bank, _setup, _strip_notes
from hat_env.hsa.vocab import Vocab


def _draw(rnd: Callable[[], float], rng: random.Random, pool: Any, tries: int, spec: Any, used: set[str]) -> str:
    """A name not in ``used`` (then added to it): up to ``tries`` picks from ``pool`` (when it is not empty),
    then random codes made from segment ``spec`` until one is free."""
    if pool:
        n = len(pool)
        for _ in range(tries):
            name = pool[int(rnd() * n)]
            if name not in used:
                used.add(name)
                return name
    while True:
        name = make_code(rng, spec)
        if name not in used:
            used.add(name)
            return name


def tool_name(rng: random.Random, vocab: Vocab, op: str | None, style: str, used: set[str],
              p_scramble: float = 0.2) -> str:
    """A new tool name for ``op`` in casing ``style`` (sometimes a scrambled code, as ToolSandbox does)."""
    rnd = rng.random
    names = vocab.tables["tools"].get(op or "", {}).get(style)
    if names and rnd() >= p_scramble:
        return _draw(rnd, rng, names, 6, vocab.scramble[0], used)
    return _draw(rnd, rng, None, 0, vocab.scramble[0], used)


def tool_schemas(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Rename tools (synonyms in the family's casing styles, or scrambled codes) and their parameters, reorder
    parameters, nest them in a wrapper object or flatten them, change identifier encodings losslessly (link
    number as a string, prefixed product/coupon/order ids), rename enum values, rename result fields, rewrite
    descriptions, rename the skill-loading tool, reorder the tool list, and add distractor tools
    (``op: null``) that must not be called.

    Args:
        h: the harness dict being augmented (changed in place).
        rng: the random source.
        strength: 0-1, the probability of each elementary edit.
        vocab: the vocabulary family names and wordings come from.
        record: applies and records the patch operations; its ``memo`` caches the parent's :class:`_Setup`.
    """
    p = strength
    rnd = rng.random
    tables = vocab.tables
    tools = [t for t in h["tools"] if t.get("op")]
    setup = _setup(tools, vocab, record.memo)
    seq = vocab.tool_casings
    tstyle = seq[int(rnd() * len(seq))]
    seq = vocab.param_casings
    pstyle = seq[int(rnd() * len(seq))]
    seq = tables["wrappers"][pstyle]
    wrapper = seq[int(rnd() * len(seq))]
    # the edit lottery (as _choose): one draw per candidate, then one forced edit when no forcible one hit
    probs, live, all_one = setup.probs(p)
    if all_one:
        flags = [True] * len(probs)
    else:
        flags = [rnd() < q for q in probs]
        hits = flags.count(True)
        for i in setup.reorders:
            hits -= flags[i]
        if hits <= 0 and live:
            flags[live[int(rnd() * len(live))]] = True
    flags.append(False)  # what absent candidates (index -1) point at
    g_link, g_prod, g_coup, g_ord, g_enum, g_dist, g_st, g_order = setup.gix(flags)
    used = {t["name"] for t in h["tools"]}
    used.add(h["skill_tool"]["name"])
    # identifier encodings, decided once per variant so every tool agrees
    prefix_for: dict[str, str | None] = {}
    for canon, on in zip(_IDS, (g_prod, g_coup, g_ord)):
        if on:
            seq = vocab.prefixes.get(canon) or ()
            prefix_for[canon] = seq[int(rnd() * len(seq))] if seq else None
    enum_new: dict[str, str] = {}
    if g_enum:
        for canon_v, styles in tables["enum"].items():
            seq = styles[pstyle]
            enum_new[canon_v] = seq[int(rnd() * len(seq))]
    # 1) renames first (one pass; references in texts follow); tool_name with its first pick inlined
    scramble = vocab.scramble[0]
    pairs = []
    for t, ti in zip(tools, setup.tools):
        if flags[ti.ix[0]]:
            seq = ti.tpools.get(tstyle)
            if seq and rnd() >= 0.2:
                name = seq[int(rnd() * len(seq))]
                if name in used:
                    name = _draw(rnd, rng, seq, 5, scramble, used)
                else:
                    used.add(name)
            else:
                name = _draw(rnd, rng, None, 0, scramble, used)
            pairs.append((t["name"], name))
    st_new = None
    if g_st:
        param = h["skill_tool"].get("param")
        name = _draw(rnd, rng, vocab.skill_tool_names, 6, scramble, used)
        seq = setup.st_params.get(param)
        if seq is None:
            seq = setup.st_params[param] = tuple(x for x in vocab.skill_tool_params if x != param)
        st_new = (name, seq[int(rnd() * len(seq))])
    record.rename(h, tools=pairs, skill_tool=st_new)
    if st_new is not None:
        seq = vocab.skill_tool_descriptions
        desc = seq[int(rnd() * len(seq))]
        if desc != h["skill_tool"].get("description"):
            record.set(h["skill_tool"], "description", "skill_tool.description", desc)
    # 2) schema, codecs, results, descriptions: one update per tool
    codec_glob = g_link or g_prod or g_coup or g_ord or g_enum
    states = setup.state((g_link, g_enum, prefix_for.get("product_id", _OFF), prefix_for.get("coupon_id", _OFF),
                          prefix_for.get("order_id", _OFF)))
    pcode = vocab.param_code[0]
    update = record.update
    for t, ti, st in zip(tools, setup.tools, states):
        _r, rename_params, nest, describe, reorder, results, rewrite = ti.edits(flags)
        upd: dict[str, Any] = {}
        new_args = args = ti.args
        changed_codec = st.changed
        # rebuilt when it has leaves and an edit touches them (or might: an unstable tool); rebuilding a stable
        # tool no edit touches would give it back unchanged, without a draw
        if st.rows and (rename_params or nest or reorder or describe or changed_codec
                        or (codec_glob and not ti.is_stable())):
            names_used: set[str] = set()
            entries = []
            for row in st.rows:
                leaf, req, canon, ppools, descs, kind, sch_t, ctype, pre, map0 = row
                if canon is not None and rename_params:  # _draw with ``leaf`` taken, its first pick inlined
                    seq = ppools.get(pstyle)
                    if seq and (name := seq[int(rnd() * len(seq))]) != leaf and name not in names_used:
                        names_used.add(name)
                    else:
                        names_used.add(leaf)
                        name = _draw(rnd, rng, seq, 5, pcode, names_used)
                    names_used.discard(leaf)
                elif leaf in names_used:
                    name = _draw(rnd, rng, ppools.get(pstyle), 6, pcode, names_used)
                else:
                    name = leaf
                    names_used.add(name)
                if kind == 0:  # _leaf's common case, inlined
                    sch = dict(sch_t)
                    codec = {"type": ctype, "prefix": pre, "map": dict(map0)}
                else:
                    sch, codec = _leaf(row, enum_new, pstyle)
                if describe and canon is not None:
                    if descs and (rnd() < 0.75 or "description" not in sch):
                        sch["description"] = descs[int(rnd() * len(descs))]
                    else:
                        sch.pop("description", None)  # a removed type hint, as ToolSandbox does
                entries.append((canon, name, sch, codec, req))
            shuffled = reorder and len(entries) >= 2
            if shuffled:
                entries = _shuffled(rng, entries)
            new_params, new_args = _assemble(ti, entries, (not ti.nested) if nest else ti.nested, wrapper,
                                             rename_params, not shuffled)
            if reorder or new_params != ti.params:  # dicts compare equal whatever their order
                upd["parameters"] = new_params
            if new_args != args:
                upd["args"] = new_args
        else:
            changed_codec = False
        if results:
            bank = _result_bank(vocab.family, ti.op, pstyle)
            res = bank[int(rnd() * len(bank))].copy()
            if res and res != t.get("results"):
                upd["results"] = res
        if rewrite or changed_codec:
            old = t.get("description")
            raw = t.get("description", "")
            got = ti.descs.get(raw)
            if got is None:
                cur = _strip_notes(raw)
                if len(ti.descs) > 256:
                    ti.descs.clear()
                got = ti.descs[raw] = (cur, tuple(d for d in ti.op_descs if d != cur))
            cur, seq = got
            base = seq[int(rnd() * len(seq))] if rewrite and seq else cur
            note = ti.note0 if new_args is args else st.note
            desc = f"{base} {note}" if note else base
            if desc != old:
                upd["description"] = desc
        if upd:
            update(t, {"op": "update_tool", "tool": t["name"], "set": upd})
    # 3) distractors: tools bound to nothing, that must not be called
    if g_dist:
        pool = [d for d in tables["distractors"][tstyle] if d[0] not in used]
        k = min(len(pool), 1 + (rnd() < p) + (rnd() < 0.5 * p))
        for name, desc, dparams in _sample(rng, pool, k):
            used.add(name)
            tool = {"name": name, "op": None, "description": desc,
                    "parameters": {"type": "object", "properties": _jcopy(dparams), "required": list(dparams)[:1],
                                   "additionalProperties": False}, "args": {}, "results": {}}
            record.add_tool(h, tool, int(rnd() * (len(h["tools"]) + 1)))
    # 4) tool order
    if g_order and len(h["tools"]) >= 2:
        names = [t["name"] for t in h["tools"]]
        new = _shuffled(rng, names)
        if new != names:
            record.reorder(h, "tools", new)
