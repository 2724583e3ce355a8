"""The tool-schema transform's per-parent setup: what depends only on the parent's tools and the vocabulary
family (the candidate edits and their weights, the leaf schemas, name pools, encodings and notes per identifier
edit), computed once and kept in the parent's ``record.memo`` (:func:`_setup`), so that
:func:`~hat_env.hsa.transforms.tools.tool_schemas` only draws numbers and builds new, unshared values."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from operator import itemgetter
from typing import Any, Callable, Final

from hat_env.hsa.transforms._common import _BANK, RESULT_FIELDS, _jcopy
from hat_env.hsa.vocab import FAMILIES, Vocab, case_words, vocabulary

_IDS: Final = ("product_id", "coupon_id", "order_id")
#: The variant-wide edits that are candidates only when some tool has an argument they apply to.
_CODEC_GLOBALS: Final = ("link",) + _IDS + ("enum",)
#: Variant-wide edits with their weights, in candidate order: the identifier groups an encoding edit may
#: target (candidates when some tool has one), then the others (always candidates).
_GLOBAL: Final = (("link", 0.5), ("product_id", 0.5), ("coupon_id", 0.35), ("order_id", 0.25), ("enum", 1.0),
           ("distractors", 1.0), ("skill_tool", 1.0), ("order", 0.5))
#: Per-tool edits, in candidate order (and the order of ``_Tool.ix``).
_EDITS: Final = ("rename", "params", "nest", "describe_params", "reorder", "results", "describe")
_OFF: Final = False  # an identifier group without prefix edit, in a codec state (prefixes are str or None)
_ALL_OFF: Final = (False, False, _OFF, _OFF, _OFF)  # the codec state of a variant without identifier edit



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


@lru_cache(maxsize=4096)
def _notes(family: str, codecs: tuple[tuple[str, str], ...]) -> str:
    """The description note explaining the ``(codec type, prefix)`` encodings of a tool's arguments."""
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
def _result_bank(family: str, op: str, style: str) -> tuple[dict[str, str], ...]:
    """:data:`_BANK` result-field renamings of ``op`` (random subsets, random names), fixed per key (never
    handed out: a variant gets a copy)."""
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
        bank.append(dict(res))
    return tuple(bank)


# -- what a parent's tools are made of (computed once per parent and family) ------------------------------


class _State:
    """How one tool's leaves are encoded in one codec state (the identifier edits a variant makes):
    ``changed``, whether an encoding edit applies (the description is then rewritten), ``note``, the
    description note for the resulting codecs, and one row per leaf, in leaf order: ``(leaf name, required,
    canonical argument, name pools by casing, parameter descriptions, kind, schema template, codec type, codec
    prefix, codec map)``. Kinds: 0 copy the template and the codec; 1 the same, with a fresh copy of the
    template's ``enum`` list; 2 rename the enum values (drawn per variant); 3 a leaf bound to no argument (no
    codec). A variant gets copies of templates and maps (one level deep, as leaf schemas always were)."""

    __slots__ = ("changed", "note", "rows")

    def __init__(self, changed: bool, note: str, rows: tuple[tuple[Any, ...], ...]):
        self.changed, self.note, self.rows = changed, note, rows


class _Tool:
    """One parent tool with an operation, for one family: its leaves (with canonical argument, codec, name
    pools, descriptions), nesting, other schema keys, and candidate indices (``ix``, in :data:`_EDITS` order,
    -1 when absent; ``edits`` picks their flags). Built from a deep copy of the tool's schema and bindings, so
    no parent value reaches a variant through it; read-only once built, but for ``stable`` and the bounded
    cache ``descs`` (description -> (its text without notes, the operation's other descriptions))."""

    __slots__ = ("op", "params", "args", "leaves", "nested", "wrapper", "ap_nest", "flat_extra", "arg_canons",
                 "in_order", "note0", "stable", "tpools", "op_descs", "ix", "edits", "descs", "family")

    def __init__(self, t: dict[str, Any], vocab: Vocab):
        self.family = vocab.family
        self.op = t["op"]
        self.params = _jcopy(t.get("parameters") or {"type": "object", "properties": {}})
        self.args = args = _jcopy(t.get("args") or {})
        by_path = {b["path"]: c for c, b in args.items()}
        found = _leaves(self.params, stop=frozenset(by_path))
        pdescs, ppools = vocab.param_descriptions, vocab.tables["params"]
        #: ``(leaf name, schema, required, canonical argument, its codec, name pools by casing, descriptions)``
        self.leaves: tuple[tuple[Any, ...], ...] = tuple(
            (path.rsplit(".", 1)[-1], sch, req, canon, None if canon is None else args[canon]["codec"],
             ppools.get(canon or "", {}), None if canon is None else pdescs.get(canon))
            for path, sch, req in found for canon in (by_path.get(path),))
        self.nested = any("." in path for path, _s, _r in found)
        self.wrapper = next((path.split(".", 1)[0] for path, _s, _r in found if "." in path), None)
        extra = {k: v for k, v in self.params.items() if k not in ("type", "properties", "required")}
        self.ap_nest = extra.get("additionalProperties", False)
        self.flat_extra = extra if not self.nested else {"additionalProperties": False}
        leaf_canons = tuple(lf[3] for lf in self.leaves if lf[3])
        self.arg_canons = tuple(c for c in args if c and c in leaf_canons)  # the keys of a rebuilt ``args``
        self.in_order = leaf_canons == self.arg_canons  # ... in leaf order
        self.note0 = _notes(self.family, tuple((b["codec"]["type"], b["codec"].get("prefix", ""))
                                               for b in args.values()))
        self.tpools = vocab.tables["tools"].get(self.op or "", {})
        self.op_descs = tuple(vocab.tool_descriptions.get(self.op, ()))
        self.ix: tuple[int, ...] = ()
        self.edits: Callable[[list[bool]], tuple[bool, ...]] = tuple  # set by _Setup
        self.descs: dict[str, tuple[str, tuple[str, ...]]] = {}
        self.stable: bool | None = None  # see is_stable

    def is_stable(self) -> bool:
        """Whether rebuilding the tool without edit gives back its schema and bindings without a draw (distinct
        leaf names, the wrapper kept), so a variant that edits nothing of it may skip the rebuild (cached)."""
        if self.stable is None:
            entries = [(r[2], r[0], *_leaf(r, {}, ""), r[1]) for r in self.state(_ALL_OFF).rows]
            new_params, new_args = _assemble(self, entries, self.nested, "", False, True)
            self.stable = bool(len({lf[0] for lf in self.leaves}) == len(self.leaves) and new_params == self.params
                               and new_args == self.args and (self.wrapper or not self.nested))
        return self.stable

    def state(self, cstate: tuple[Any, ...]) -> _State:
        """The leaves' encodings when a variant makes the identifier edits ``cstate``: ``(link edit, enum
        edit, product/coupon/order id prefix or _OFF)``."""
        link_on, enum_on = cstate[0], cstate[1]
        prefix_for = {c: pre for c, pre in zip(_IDS, cstate[2:]) if pre is not _OFF}
        changed = False
        rows: list[tuple[Any, ...]] = []
        codecs: dict[str, tuple[str, str]] = {}
        for leaf, sch0, req, canon, c0, ppools, descs in self.leaves:
            if canon is None:
                rows.append((leaf, req, None, ppools, None, 3, sch0, None, None, None))
                continue
            ctype = c0["type"]
            map0 = c0.get("map") or {}
            if ctype == "enum":
                changed = changed or enum_on
                mode = (2 if enum_on else 1 if "enum" in sch0 else 0, sch0, "enum", "", map0)
            elif canon == "link" and link_on and ctype in ("identity", "int_as_str"):
                changed = True
                if ctype == "identity":
                    sch = {"type": "string", "pattern": "^[0-9]+$",
                           **{k: v for k, v in sch0.items() if k not in ("minimum", "maximum", "type")}}
                    mode = (0, sch, "int_as_str", "", {})
                else:
                    sch = {"type": "integer", "minimum": 1,
                           **{k: v for k, v in sch0.items() if k not in ("pattern", "type")}}
                    mode = (0, sch, "identity", "", {})
            elif canon in prefix_for and ctype in ("identity", "prefix"):
                changed = True
                new_pre = prefix_for[canon]
                if ctype == "prefix" and new_pre == c0.get("prefix"):
                    new_pre = None
                sch = dict(sch0)
                sch.pop("pattern", None)
                if new_pre:
                    sch["pattern"] = "^" + re.escape(new_pre)
                mode = (0, sch, "prefix", new_pre, {}) if new_pre else (0, sch, "identity", "", {})
            else:
                mode = (0, sch0, ctype, c0.get("prefix", ""), map0)
            rows.append((leaf, req, canon, ppools, descs, *mode))
            codecs[canon] = mode[2:4]
        return _State(changed, _notes(self.family, tuple(codecs[c] for c in self.arg_canons)), tuple(rows))


def _leaf(row: tuple[Any, ...], enum_new: dict[str, str], pstyle: str) -> tuple[dict[str, Any], Any]:
    """A fresh ``(schema, codec)`` for a :class:`_State` row (no codec for a leaf bound to no argument); kind 2
    renames the enum values: to ``enum_new``'s (the variant's draws), else to words in casing ``pstyle``."""
    kind, sch_t, ctype, pre, map0 = row[5:]
    sch = dict(sch_t)
    if kind == 3:
        return sch, None
    if kind == 2:
        new_map: dict[str, str] = {}
        for old_v, canon_v in map0.items():
            nv = enum_new.get(canon_v) or case_words((canon_v + " opt").replace("_", " ").split(), pstyle)
            if nv in new_map or nv == old_v:
                nv = case_words(f"{canon_v} {old_v} v".replace("_", " ").split(), pstyle)
            new_map[nv] = canon_v
        sch["enum"] = list(new_map)
        return sch, {"type": "enum", "prefix": "", "map": new_map}
    if kind == 1:
        sch["enum"] = list(sch["enum"])
    return sch, {"type": ctype, "prefix": pre, "map": dict(map0)}


def _assemble(ti: _Tool, entries: list[tuple[Any, str, dict[str, Any], Any, bool]], nest: bool, wrapper: str,
              renamed: bool, in_order: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The new ``parameters`` and ``args`` of tool ``ti`` from its leaf ``entries`` (``(canonical argument,
    name, schema, codec, required)``, in their new order; ``in_order``: in leaf order), nested in an object
    (``wrapper``, or the tool's own when it keeps its nesting and its names) when ``nest``."""
    props: dict[str, Any] = {}
    req = []
    for e in entries:
        props[e[1]] = e[2]
        if e[4]:
            req.append(e[1])
    if nest:
        if ti.nested and not renamed and ti.wrapper:
            wname = ti.wrapper
        else:
            wname = wrapper if wrapper not in props else wrapper + "_"
        inner: dict[str, Any] = {"type": "object", "properties": props}
        if req:
            inner["required"] = req
        inner["additionalProperties"] = False
        new_params: dict[str, Any] = {"type": "object", "properties": {wname: inner}}
        if req:
            new_params["required"] = [wname]
        new_params["additionalProperties"] = ti.ap_nest
        at = wname + "."
    else:
        new_params = {"type": "object", "properties": props}
        if req:
            new_params["required"] = req
        new_params.update(ti.flat_extra)
        at = ""
    bound = {}
    for canon, name, _s, codec, _r in entries:
        if canon:
            bound[canon] = {"path": at + name, "codec": codec}
    # ``args`` keeps the parent's key order (its keys are exactly ``ti.arg_canons``)
    return new_params, bound if in_order and ti.in_order else {c: bound[c] for c in ti.arg_canons}


class _Setup:
    """A parent's tools (those with an operation) for one family: their :class:`_Tool` and the candidate
    edits, in the order they are drawn (``_Tool.ix`` gives a tool's; ``gix`` picks the flags of the
    variant-wide ones, :data:`_GLOBAL`). An absent candidate has index -1: the flag list gets a ``False``
    appended. Caches (bounded) the probabilities per strength, the tools' :class:`_State` per codec state
    and the skill-tool parameters other than the current one."""

    __slots__ = ("sig", "tools", "weights", "forcible", "reorders", "gix", "by_strength", "states", "st_params")

    def __init__(self, sig: list[tuple[Any, Any, Any]], tools: list[dict[str, Any]], vocab: Vocab):
        self.sig = sig
        self.tools = tuple(_Tool(t, vocab) for t in tools)
        weights: list[float] = []
        forcible: list[bool] = []
        has: set[str] = set()
        for ti in self.tools:
            for canon, b in ti.args.items():
                ctype = b["codec"]["type"]
                if ctype == "enum":
                    has.add("enum")
                elif canon == "link" and ctype in ("identity", "int_as_str"):
                    has.add("link")
                elif canon in _IDS and ctype in ("identity", "prefix"):
                    has.add(canon)
            present = {"rename": 1.0, "describe": 1.0}
            if ti.args:
                present.update(params=1.0, nest=0.5, describe_params=1.0)
            if len(ti.leaves) >= 2:
                present["reorder"] = 1.0
            if ti.op in RESULT_FIELDS:
                present["results"] = 0.6
            ix = []
            for e in _EDITS:
                ix.append(len(weights) if e in present else -1)
                if e in present:
                    weights.append(present[e])
                    forcible.append(e != "reorder")  # a reorder alone is not forced: the hash does not see it
            ti.ix, ti.edits = tuple(ix), itemgetter(*ix)
        gix = []
        for g, w in _GLOBAL:
            gix.append(len(weights) if g in has or g not in _CODEC_GLOBALS else -1)
            if gix[-1] >= 0:
                weights.append(w)
                forcible.append(True)
        self.gix = itemgetter(*gix)
        self.weights, self.forcible = tuple(weights), tuple(forcible)
        self.reorders = tuple(i for i, f in enumerate(forcible) if not f)
        self.by_strength: dict[float, tuple[list[float], list[int], bool]] = {}
        self.states: dict[tuple[Any, ...], tuple[_State, ...]] = {}
        self.st_params: dict[Any, tuple[str, ...]] = {}

    def probs(self, p: float) -> tuple[list[float], list[int], bool]:
        """``(probabilities, forcible candidates with a probability above 0, every probability is 1)`` at
        strength ``p`` (cached)."""
        got = self.by_strength.get(p)
        if got is None:
            probs = [w * p for w in self.weights]
            live = [i for i, q in enumerate(probs) if q > 0 and self.forcible[i]]
            if len(self.by_strength) > 64:
                self.by_strength.clear()
            got = self.by_strength[p] = (probs, live, all(q >= 1.0 for q in probs))
        return got

    def state(self, cstate: tuple[Any, ...]) -> tuple[_State, ...]:
        """Every tool's :class:`_State` in codec state ``cstate`` (cached)."""
        got = self.states.get(cstate)
        if got is None:
            if len(self.states) > 256:
                self.states.clear()
            got = self.states[cstate] = tuple(ti.state(cstate) for ti in self.tools)
        return got


def _setup(tools: list[dict[str, Any]], vocab: Vocab, memo: dict[Any, Any]) -> _Setup:
    """The :class:`_Setup` of ``tools`` (the tools with an operation) for ``vocab``'s family, cached in the
    parent's ``memo``. It is reused while every tool has the same parameters, bindings and operation as when
    it was built: compared by identity first (cheap: a working copy shares the parent's, which are never
    changed; transforms replace these values, never change them in place), else by value."""
    sig = [(t.get("parameters"), t.get("args"), t["op"]) for t in tools]
    key = ("tool_schemas", vocab.family)
    s = memo.get(key)
    if s is None or s.sig != sig:
        s = memo[key] = _Setup(sig, tools, vocab)
    return s
