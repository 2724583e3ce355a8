"""Dimension 3: tool schemas (names, parameters, nesting, identifier encodings, enum values, result fields,
descriptions, the skill-loading tool, tool order, distractor tools)."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any

from hat_env.hsa.transforms._common import (_BANK, RESULT_FIELDS, Record, _choose, _jcopy, _pick, _sample,
                                            _shuffled, _unique)
from hat_env.hsa.vocab import FAMILIES, Vocab, case_words, make_code, vocabulary

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
