"""What every HSA transform shares: seeded picking, the edit lottery, and the :class:`Record` that applies and
records patch operations (renames included)."""

from __future__ import annotations

import random
import re
from functools import lru_cache
from typing import Any, Callable, Final, Sequence

from hat_env.harness.patch import OPERATIONS, text_fields

#: Top-level fields of each canonical operation's result (what ``ToolSpec.results`` may rename).
RESULT_FIELDS: Final[dict[str, tuple[str, ...]]] = {
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
MIN_REPLY_CHARS: Final = 80
MIN_TURN_LIMIT: Final = 6
MAX_TURN_LIMIT: Final = 12

_BANK: Final = 32  # result-rename and feedback variants per (family, key)


def _jcopy(x: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars): faster than ``copy.deepcopy``."""
    if isinstance(x, dict):
        return {k: _jcopy(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jcopy(v) for v in x]
    return x


def make_code(rng: random.Random, spec: tuple[tuple[str, int | str], ...]) -> str:
    """A random code from a segment ``spec``: ``(literal, "")`` segments are copied, ``(alphabet, n)`` ones give
    ``n`` characters drawn from ``alphabet`` with ``rng``."""
    out: list[str] = []
    rnd = rng.random
    for chars, n in spec:
        if n == "":
            out.append(chars)
        else:
            k = len(chars)
            out.append("".join([chars[int(rnd() * k)] for _ in range(int(n))]))
    return "".join(out)


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
    if not probs or min(probs) >= 1.0:
        return [True] * len(probs)
    rnd = rng.random
    flags = [rnd() < p for p in probs]
    hit = (True in flags) if forcible is None else any(f and ok for f, ok in zip(flags, forcible))
    if not hit:
        live = [i for i, p in enumerate(probs) if p > 0 and (forcible is None or forcible[i])]
        if live:
            flags[_pick(rng, live)] = True
    return flags


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


# -- renames -----------------------------------------------------------------------------------------------

_NAME_EDGE: Final = r"A-Za-z0-9_\-"


@lru_cache(maxsize=512)
def _names_re(names: tuple[str, ...]) -> re.Pattern[str]:
    """Whole-word alternation of ``names`` with the patch machinery's word boundaries."""
    alts = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![{_NAME_EDGE}])(?:{alts})(?![{_NAME_EDGE}])")


@lru_cache(maxsize=64)
def _split_re(names: tuple[str, ...]) -> re.Pattern[str]:
    """:func:`_names_re` with a capture group: ``pat.split(text)`` gives ``[text, name, text, name, ..., text]``."""
    return re.compile(f"({_names_re(names).pattern})")


def _render(tokens: tuple[str, ...], mapping: dict[str, str]) -> str:
    """``tokens`` (from :func:`_split_re`) joined back with every name looked up in ``mapping``."""
    parts = list(tokens)
    get = mapping.get
    for i in range(1, len(parts), 2):
        parts[i] = get(parts[i], parts[i])
    return "".join(parts)


class _Texts:
    """Rewrites names in a variant's texts without regular expressions in the steady state.

    Every text a rename rewrites is split once per parent (cached in the parent's memo) at whole-word occurrences
    of any of the parent's tool, skill and skill-tool names; a rename joins the pieces back with the new names.
    A text this variant already rewrote is re-rendered from the same pieces with the renames composed (new names
    are fresh tokens, so that equals rewriting the rewritten text).
    """

    __slots__ = ("names", "split", "cache", "plain", "mine")

    def __init__(self, h: dict[str, Any], memo: dict[Any, Any]):
        names = memo.get("_names")
        if names is None:
            names = {t["name"] for t in h["tools"]} | {s["name"] for s in h["skills"]}
            names.add(h["skill_tool"].get("name", "load_skill"))
            names = memo["_names"] = frozenset(names)
        self.names = names
        self.split = _split_re(tuple(sorted(names))).split
        #: text -> (its pieces, the names among them)
        self.cache: dict[str, tuple[tuple[str, ...], frozenset[str]]] = memo.setdefault("_tokens", {})
        #: texts split so far that name none of the parent's names (a subset of ``cache``'s keys)
        self.plain: set[str] = memo.setdefault("_plain", set())
        #: text this variant wrote -> (the pieces it was rendered from, the names among them, the names they were
        #: rendered with)
        self.mine: dict[str, tuple[tuple[str, ...], frozenset[str], dict[str, str]]] = {}

    def rewrite(self, text: str, mapping: dict[str, str]) -> str:
        """``text`` with the names of one rename (``mapping``, old -> new, old names the parent's) replaced."""
        hit = self.mine.get(text)
        if hit is not None:
            tokens, named, done = hit
            if all(done.get(n, n) not in mapping for n in named):  # nothing it names is renamed now
                return text
            names = {k: mapping.get(v, v) for k, v in done.items()}
            for old, new in mapping.items():
                if old not in done:
                    names[old] = new
        else:
            split = self.cache.get(text)
            if split is None:
                tokens = tuple(self.split(text))
                split = (tokens, frozenset(tokens[1::2]))
                if len(self.cache) > 8192:
                    self.cache.clear()
                    self.plain.clear()
                self.cache[text] = split
                if len(tokens) == 1:
                    self.plain.add(text)
            tokens, named = split
            if named.isdisjoint(mapping):
                return text
            names = mapping
        new = _render(tokens, names)
        self.mine[new] = (tokens, named, names)
        return new


#: The field of an ``add_*`` operation that holds what it adds.
_ADD_FIELD: Final = {"add_tool": "tool", "add_skill": "skill", "add_section": "section"}


class Record:
    """Applies and records patch operations, and follows identities through renames.

    Attributes:
        ops: the operations applied so far (a patch that turns the parent into the variant).
        tools: parent tool name -> current name (``None`` once removed).
        skills: parent skill name -> current name (``None`` once removed).
        memo: a cache of facts about the parent that transforms may share (per parent harness).
    """

    __slots__ = ("ops", "tools", "skills", "memo", "_tcur", "_scur", "_texts", "_own_hooks")

    def __init__(self, h: dict[str, Any], memo: dict[Any, Any] | None = None):
        self.ops: list[dict[str, Any]] = []
        self.tools: dict[str, str | None] = {t["name"]: t["name"] for t in h["tools"]}
        self.skills: dict[str, str | None] = {s["name"]: s["name"] for s in h["skills"]}
        self._tcur: dict[str, str] = dict(self.tools)  # type: ignore[arg-type]
        self._scur: dict[str, str] = dict(self.skills)  # type: ignore[arg-type]
        self.memo: dict[Any, Any] = {} if memo is None else memo
        self._texts: _Texts | None = None
        self._own_hooks = False  # the hook dicts start out shared with the parent (see hat_env.hsa.transforms.pipeline.working_copy)

    def apply(self, h: dict[str, Any], op: dict[str, Any]) -> None:
        """Apply ``op`` to ``h`` and record it (added items are copied, so the record never changes later)."""
        kind = op["op"]
        run = op
        fld = _ADD_FIELD.get(kind)
        if fld is not None:  # operations only ever reassign an item's top-level values: a shallow copy will do
            run = dict(op)
            run[fld] = dict(op[fld])
        if not self._own_hooks and (kind.startswith("rename") or kind == "set"):  # may change hooks in place
            h["hooks"] = [dict(hk, params=_jcopy(hk.get("params") or {})) for hk in h.get("hooks", [])]
            self._own_hooks = True
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

    def reorder(self, h: dict[str, Any], kind: str, order: list[str]) -> None:
        """Apply and record ``reorder_tools`` (``kind`` ``tools``) or ``reorder_sections`` (``sections``);
        ``order`` must be a permutation of the current names or ids (a shuffle of them)."""
        if kind == "tools":
            by = {t["name"]: t for t in h["tools"]}
            h["tools"] = [by[n] for n in order]
        else:
            prompt = h["prompt"]
            by = {x["id"]: x for x in prompt["sections"]}
            prompt["sections"] = [by[n] for n in order]
        self.ops.append({"op": "reorder_" + kind, "order": order})

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

    def rename(self, h: dict[str, Any], tools: Sequence[tuple[str, str]] = (), skills: Sequence[tuple[str, str]] = (),
               skill_tool: tuple[str, str] | None = None) -> None:
        """Rename tools, skills and the skill-loading tool (``(new name, new param)``) in one pass over the
        texts, recording one ``rename_tool`` / ``rename_skill`` / ``rename_skill_tool`` operation each.

        Equivalent to applying those operations one by one: new names are fresh tokens of name characters, so
        no rename can touch another's output.
        """
        texts = self._texts
        if texts is None:  # before the first rename: the names it splits texts at are the parent's
            texts = self._texts = _Texts(h, self.memo)
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
        rewrite: Callable[[str, dict[str, str]], str] = texts.rewrite
        plain: Any = texts.plain  # texts known to name none of the parent's names: skipped without a call
        if not texts.names.issuperset(mapping):  # a name the parent did not have: the general, slower path
            pat = _names_re(tuple(mapping))
            plain = ()

            def by_pattern(t: str, mapping: dict[str, str]) -> str:
                texts.mine.clear()
                return pat.sub(lambda m: mapping[m.group(0)], t)

            rewrite = by_pattern

        for item, key in text_fields(h):
            t = item.get(key)
            if t and t not in plain:
                item[key] = rewrite(t, mapping)
        hooks: list[dict[str, Any]] = h.get("hooks") or []
        for i, hk in enumerate(hooks):
            matcher = hk.get("matcher")
            params = hk.get("params")
            if not matcher and not params:
                continue
            new_matcher = _names_re(tuple(mapping)).sub(lambda m: mapping[m.group(0)], matcher) if matcher else matcher
            new_params = {k: mapping.get(v, v) if isinstance(v, str) else v for k, v in (params or {}).items()}
            if new_matcher != matcher or new_params != (params or {}):  # copy on write: hooks may be the parent's
                hooks[i] = {**hk, "matcher": new_matcher, "params": new_params}
