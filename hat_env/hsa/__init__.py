"""Harness-State Augmentation (HSA): task-preserving harness variants and the gold mapping between them.

From one harness, :func:`augment` makes a variant that asks for the same behaviour under other names, schemas,
wording, structure and constraint values, along five dimensions (:data:`DIMENSIONS`, one seeded transform each,
see :mod:`hat_env.hsa.transforms`), and an :class:`HSAMapping` that carries gold actions (tool calls, skill
loads, constraint values, replies) from the original to the variant and back. Names and wordings come from one
of two disjoint vocabulary families (:data:`FAMILIES`, :mod:`hat_env.hsa.vocab`): ``train`` for training data,
``heldout`` for evaluation on harness states never seen in training.

Every change is a :mod:`hat_env.harness.patch` operation, the machinery scenario timelines use for mid-stream
harness changes: ``original.apply(mapping.ops)`` rebuilds the variant (same hash), and the trace can record a
variant as its parent hash plus that patch.

    >>> import random
    >>> from hat_env.harness import Harness
    >>> from hat_env.hsa import augment
    >>> h = Harness.load("default")
    >>> v, m = augment(h, random.Random(0), dims="all", strength=1.0, family="heldout")
    >>> name, args = m.translate_call("get_product_info_by_link_id", {"link_id": 3})
    >>> m.inverse().translate_call(name, args)
    ('get_product_info_by_link_id', {'link_id': 3})
"""

from __future__ import annotations

import random
from functools import cached_property
from typing import TYPE_CHECKING, Any, Iterable

from hat_env.hsa.transforms import run as run_transforms
from hat_env.hsa.vocab import FAMILIES, Vocab, vocabulary

if TYPE_CHECKING:
    from hat_env.harness.core import Harness

#: The augmentation dimensions, as the paper lists them: Skill identifiers, Skill wording, tool schemas,
#: system-prompt structure, interaction constraints (hook behaviour).
DIMENSIONS: tuple[str, ...] = ("skill_ids", "skill_content", "tool_schemas", "prompt", "constraints")

#: Keys :func:`augment_from_options` accepts.
OPTION_KEYS: tuple[str, ...] = ("dims", "strength", "family")


class UntranslatableError(ValueError):
    """A gold action names something that has no counterpart on the other side of the mapping."""


def parse_dims(dims: str | Iterable[str] | None) -> tuple[str, ...]:
    """Normalise ``dims`` (``"all"``, ``"a,b"``, or a list) to a tuple in :data:`DIMENSIONS` order.

    Raises:
        ValueError: an unknown dimension (the message names the valid ones).
    """
    if dims is None or dims == "all":
        return DIMENSIONS
    if isinstance(dims, str):
        items = [d.strip() for d in dims.split(",") if d.strip()]
    else:
        items = [str(d).strip() for d in dims]
    if "all" in items:
        return DIMENSIONS
    bad = [d for d in items if d not in DIMENSIONS]
    if bad:
        raise ValueError(f"unknown HSA dimension(s) {bad}; valid: {list(DIMENSIONS)} or 'all'")
    return tuple(d for d in DIMENSIONS if d in items)


def _parent_dict(harness: "Harness") -> dict[str, Any]:
    """The parent's dict (in authoring order, not the hash's sorted order), dumped once per harness and never
    changed: :func:`~hat_env.hsa.transforms.pipeline.working_copy` copies what a transform may change."""
    cache = harness.__dict__.get("_hsa_parent")
    if cache is None:
        cache = harness.__dict__["_hsa_parent"] = harness.spec.model_dump(mode="json", by_alias=True)
    return cache


def _parent_hooks(harness: "Harness", parent: dict[str, Any]) -> dict[int, Any]:
    """The parent's validated hook models by the ``id()`` of its (cached, never changed) hook dicts, which
    variants share until a rename changes a hook (transforms copy a hook before changing it)."""
    memo = harness.__dict__.setdefault("_hsa_memo", {})
    hooks = memo.get("_hooks")
    if hooks is None:
        hooks = memo["_hooks"] = {id(d): m for d, m in zip(parent.get("hooks", []), harness.spec.hooks)}
    return hooks


def augment(
    harness: "Harness",
    rng: random.Random,
    dims: str | Iterable[str] = "all",
    strength: float = 1.0,
    family: str = "train",
    check: bool = False,
) -> tuple["Harness", "HSAMapping"]:
    """A task-preserving variant of ``harness`` and the mapping from it to the variant.

    Args:
        harness: the original harness (not changed).
        rng: the random source; the same seed (and the same other arguments) gives the same variant, hash for
            hash. The transforms draw from it in turn (how many numbers depends on the harness and options).
        dims: ``"all"``, a comma-separated string or a list of :data:`DIMENSIONS`.
        strength: 0-1; the probability of each elementary edit (at least one edit per selected dimension when
            above 0). 0 returns ``harness`` itself with an identity mapping.
        family: ``"train"`` or ``"heldout"``: the vocabulary names and wordings come from.
        check: also run the harness's semantic checks on the variant (slow: JSON-Schema meta-validation).
            Transforms preserve validity, so by default the variant is only validated by pydantic
            (:func:`hat_env.harness.trusted.trusted_spec`); the tests run both and compare.

    Returns:
        ``(variant, mapping)``.

    Raises:
        ValueError: an unknown dimension or family, or a strength outside [0, 1].
    """
    from hat_env.harness.core import Harness

    dims_t = parse_dims(dims)
    vocab = vocabulary(family)
    strength = float(strength)
    if not 0.0 <= strength <= 1.0:
        raise ValueError(f"HSA strength must be in [0, 1], got {strength}")
    if strength == 0.0 or not dims_t:
        return harness, HSAMapping(harness, harness, [], {t: t for t in harness.tools_by_name},
                                   {s: s for s in harness.skills_by_name}, dims_t, strength, family)
    parent = _parent_dict(harness)
    h, rec = run_transforms(parent, rng, dims_t, strength, vocab, harness.__dict__.setdefault("_hsa_memo", {}))
    source = f"{harness.source or harness.name}+hsa"
    if check:
        variant = Harness.from_dict(h, source=source, check=True)
    else:  # valid by construction: pydantic validation only, no semantic checks (the tests check both agree)
        from hat_env.harness.trusted import trusted_spec

        variant = Harness(trusted_spec(h, _parent_hooks(harness, parent)), source=source, check=False)
        variant.__dict__["_dumped"] = h  # what model_dump would give: the hash needs no dump
    tools = {k: v for k, v in rec.tools.items() if v is not None}
    skills = {k: v for k, v in rec.skills.items() if v is not None}
    return variant, HSAMapping(harness, variant, rec.ops, tools, skills, dims_t, strength, family)


def augment_from_options(harness: "Harness", options: dict[str, Any] | None, rng: random.Random
                         ) -> tuple["Harness", dict[str, Any]]:
    """:func:`augment` driven by an options dict (what environments take as ``hsa=``).

    Args:
        harness: the original harness.
        options: ``{"dims": "all" | [...], "strength": 0-1, "family": "train" | "heldout"}`` (all optional:
            defaults ``all``, ``1.0``, ``train``).
        rng: the random source.

    Returns:
        ``(variant, info)``; ``info`` (recorded in the trace) holds ``dims``, ``strength``, ``family``, the
        variant's ``hash``, the ``parent_hash``, the number of patch ``ops`` and the ``patch`` itself (so the
        variant can be rebuilt as ``parent.apply(patch)``).

    Raises:
        ValueError: an unknown key, dimension or family, or a bad strength.
    """
    opts = dict(options or {})
    bad = [k for k in opts if k not in OPTION_KEYS]
    if bad:
        raise ValueError(f"unknown HSA option(s) {bad}; valid: {list(OPTION_KEYS)}")
    strength = opts.get("strength", 1.0)
    try:
        strength = float(strength)
    except (TypeError, ValueError):
        raise ValueError(f"HSA strength must be a number in [0, 1], got {strength!r}") from None
    variant, mapping = augment(harness, rng, opts.get("dims", "all"), strength, opts.get("family", "train"))
    info = {
        "dims": list(mapping.dims),
        "strength": mapping.strength,
        "family": mapping.family,
        "hash": variant.hash,
        "parent_hash": harness.hash,
        "ops": len(mapping.ops),
        "patch": mapping.ops,
    }
    return variant, info


class HSAMapping:
    """Carries gold actions from one harness state to another (original -> variant), and back via
    :meth:`inverse`. Translation goes through canonical operations: a call is decoded with the source
    harness's bindings and codecs and encoded with the target tool bound to the same operation, so the
    round trip is exact.

    Attributes:
        original: the source harness.
        variant: the target harness.
        ops: the patch operations that turn ``original`` into ``variant``.
        tools: source tool name -> target tool name (tools on both sides).
        skills: source skill name -> target skill name.
        dims: the dimensions applied; ``strength``, ``family``: as given to :func:`augment`.
    """

    def __init__(self, original: "Harness", variant: "Harness", ops: list[dict[str, Any]], tools: dict[str, str],
                 skills: dict[str, str], dims: tuple[str, ...], strength: float, family: str):
        self.original = original
        self.variant = variant
        self.ops = ops
        self.tools = tools
        self.skills = skills
        self.dims = dims
        self.strength = strength
        self.family = family

    # -- what changed ------------------------------------------------------------------------------------
    @cached_property
    def constraints(self) -> dict[str, tuple[Any, Any]]:
        """Constraint field -> ``(source value, target value)`` for every field that differs."""
        a = self.original.spec.constraints.model_dump()
        b = self.variant.spec.constraints.model_dump()
        return {k: (a[k], b[k]) for k in a if a[k] != b.get(k)}

    @cached_property
    def reply_skills(self) -> dict[str, tuple[str | None, str | None]]:
        """Intent kind -> ``(source reply skill, target reply skill)`` for every intent either side covers;
        the target is what a gold ``load_skill`` for that intent becomes."""
        kinds: list[str] = []
        for h in (self.original, self.variant):
            for intents in h.reply_skills.values():
                for k in sorted(intents):
                    if k not in kinds:
                        kinds.append(k)
        return {k: (self.original.reply_skill_for(k), self.variant.reply_skill_for(k)) for k in kinds}

    @property
    def skill_tool(self) -> tuple[tuple[str, str], tuple[str, str]]:
        """``((source name, source param), (target name, target param))`` of the skill-loading tool."""
        a, b = self.original.spec.skill_tool, self.variant.spec.skill_tool
        return (a.name, a.param), (b.name, b.param)

    @property
    def added_tools(self) -> list[str]:
        """Target tools with no source counterpart (distractors, a moved-in product list)."""
        mapped = set(self.tools.values())
        return [t.name for t in self.variant.spec.tools if t.name not in mapped]

    @property
    def removed_tools(self) -> list[str]:
        """Source tools with no target counterpart."""
        return [t.name for t in self.original.spec.tools if t.name not in self.tools]

    @property
    def added_skills(self) -> list[str]:
        """Target skills with no source counterpart (a new reply skill)."""
        mapped = set(self.skills.values())
        return [s.name for s in self.variant.spec.skills if s.name not in mapped]

    # -- translation -------------------------------------------------------------------------------------
    def translate_skill(self, name: str, intent: str | None = None) -> str:
        """The target name of skill ``name``. With ``intent``, a load of the reply skill the source requires for
        that intent becomes a load of the reply skill the target requires for it (it may be a new skill).

        Raises:
            UntranslatableError: the skill has no counterpart.
        """
        if intent is not None and self.original.reply_skill_for(intent) == name:
            target = self.variant.reply_skill_for(intent)
            if target is not None:
                return target
        new = self.skills.get(name)
        if new is None:
            raise UntranslatableError(f"skill {name!r} has no counterpart in the target harness")
        return new

    def translate_call(self, name: str, arguments: dict[str, Any], intent: str | None = None
                       ) -> tuple[str, dict[str, Any]]:
        """The target form of the gold call ``name(arguments)``: tool name, argument names, nesting and value
        encodings (a skill load translates the skill name; see :meth:`translate_skill` for ``intent``).

        Raises:
            UntranslatableError: the tool has no counterpart (or the call is not valid for the source).
        """
        src, dst = self.original, self.variant
        st_a, st_b = src.spec.skill_tool, dst.spec.skill_tool
        if name == st_a.name:
            skill = arguments.get(st_a.param) if isinstance(arguments, dict) else None
            if not isinstance(skill, str):
                raise UntranslatableError(f"{name} needs a string {st_a.param!r} argument")
            return st_b.name, {st_b.param: self.translate_skill(skill, intent)}
        tool = src.tools_by_name.get(name)
        if tool is None:
            raise UntranslatableError(f"{name!r} is not a tool of the source harness")
        new = self.tools.get(name)
        target = dst.tools_by_name.get(new) if new is not None else None
        if target is None and tool.op is not None:
            target = dst.tool_for_op.get(tool.op)
        if target is None:
            raise UntranslatableError(f"tool {name!r} has no counterpart in the target harness")
        if tool.op is None:
            return target.name, dict(arguments)
        try:
            canon = src.decode_args(tool, arguments)
        except ValueError as exc:
            raise UntranslatableError(str(exc)) from None
        return target.name, dst.encode_args(target, canon)

    def translate_result(self, name: str, result: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The target form of a tool result: the source tool's field names -> the target's."""
        tool = self.original.tools_by_name.get(name)
        new = self.tools.get(name)
        if tool is None or new is None:
            raise UntranslatableError(f"tool {name!r} has no counterpart in the target harness")
        target = self.variant.tools_by_name[new]
        return target.name, self.variant.encode_result(target, self.original.decode_result(tool, result))

    def translate_reply(self, reply: str, locale: str | None = None) -> str:
        """A gold reply under the target constraints: the source's required disclosure swapped for the
        target's (added when the target requires one), both as said in a ``locale`` room. Length and words need
        no change: the budget beside the disclosure is kept and new forbidden words are words gold replies never
        use (see :meth:`check_reply`)."""
        old = self.original.spec.constraints.disclosure(locale)
        new = self.variant.spec.constraints.disclosure(locale)
        if old == new:
            return reply
        if old and old in reply:
            if new:
                return reply.replace(old, new)
            return reply.replace(" " + old, "").replace(old, "")
        if new and new not in reply:
            return f"{reply} {new}"
        return reply

    def check_reply(self, reply: str, locale: str | None = None) -> list[str]:
        """Problems of ``reply`` under the target's constraints (length, forbidden words, the disclosure of a
        ``locale`` room)."""
        c = self.variant.spec.constraints
        out = []
        if c.max_reply_chars is not None and len(reply) > c.max_reply_chars:
            out.append(f"{len(reply)} characters > {c.max_reply_chars}")
        low = reply.lower()
        hit = [w for w in c.forbidden_words if w and w.lower() in low]
        if hit:
            out.append(f"forbidden words: {hit}")
        disclosure = c.disclosure(locale)
        if disclosure and disclosure not in reply:
            out.append(f"missing disclosure {disclosure!r}")
        return out

    def inverse(self) -> "HSAMapping":
        """The mapping from the variant back to the original (``ops`` empty: patches are not inverted)."""
        inv = HSAMapping(self.variant, self.original, [], {v: k for k, v in self.tools.items()},
                         {v: k for k, v in self.skills.items()}, self.dims, self.strength, self.family)
        return inv

    def summary(self) -> dict[str, Any]:
        """A JSON-ready account of what the mapping translates."""
        (sa, pa), (sb, pb) = self.skill_tool
        return {
            "family": self.family,
            "dims": list(self.dims),
            "strength": self.strength,
            "parent_hash": self.original.hash,
            "hash": self.variant.hash,
            "ops": len(self.ops),
            "tools": {k: v for k, v in self.tools.items() if k != v},
            "added_tools": self.added_tools,
            "removed_tools": self.removed_tools,
            "skills": {k: v for k, v in self.skills.items() if k != v},
            "added_skills": self.added_skills,
            "skill_tool": {"from": [sa, pa], "to": [sb, pb]} if (sa, pa) != (sb, pb) else None,
            "reply_skills": {k: list(v) for k, v in self.reply_skills.items()},
            "constraints": {k: list(v) for k, v in self.constraints.items()},
        }

    def __repr__(self) -> str:
        return (f"HSAMapping({self.original.hash} -> {self.variant.hash}, family={self.family!r}, "
                f"dims={list(self.dims)}, ops={len(self.ops)})")


__all__ = ["DIMENSIONS", "FAMILIES", "HSAMapping", "OPTION_KEYS", "UntranslatableError", "Vocab", "augment",
           "augment_from_options", "parse_dims", "vocabulary"]
