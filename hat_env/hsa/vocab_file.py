"""The HSA vocabulary files: ``hat_env/hsa/families/FAMILY.yaml``, their schema, and reading one.

Each file holds one family's raw material (see :mod:`hat_env.hsa.vocab` for what the families are for). It is
read once per process with the safe YAML loader and validated against :class:`FamilyFile`; a broken file raises
:class:`~hat_env.yamlio.FileError` naming the file, the key path, its line and the reason. :func:`load_family`
returns the tables in the shapes the transforms read: lists become tuples, patterns are compiled, and codes,
versioned-name formats, action words and distractor tools become the tuples described on their models.

Order is data: seeded draws pick by position, so reordering any list (or a mapping's keys) changes variants.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from hat_env.yamlio import FieldError, load_model

#: Where the family files live (shipped as package data).
FAMILY_DIR = Path(__file__).resolve().parent / "families"

#: The read-only tool operations every family names with ``read_verbs`` x ``tool_nouns``.
READ_OPS: tuple[str, ...] = ("product_by_link", "product_by_id", "list_products", "campaigns", "stock",
                             "shipping_policy", "after_sales_policy", "order_status")

#: Which step lines (keys of ``skill_text.LANG.steps``) each intent needs, in order.
INTENT_STEPS: dict[str, tuple[str, ...]] = {
    "price": ("lookup", "price"),
    "spec": ("lookup", "spec"),
    "stock": ("lookup", "stock"),
    "campaign": ("lookup", "campaign"),
    "shipping": ("lookup", "shipping"),
    "compare": ("compare",),
    "after_sales": ("lookup", "after_sales"),
    "order_status": ("order",),
    "purchase": ("lookup", "pin", "coupon", "purchase_say"),
    "chitchat": ("greet",),
    "troll": ("calm",),
    "injection": ("noinject",),
}
#: Step lines of the campaign-push strategy skill.
PROMO_STEPS: tuple[str, ...] = ("list_campaigns", "pin_featured", "announce")

#: A non-empty list of strings (read as a tuple).
Words = Annotated[list[str], Field(min_length=1)]
#: A casing style :func:`hat_env.hsa.vocab.case_words` knows.
Casing = Literal["snake", "camel", "pascal", "kebab", "dot", "screaming"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class Draw(_Strict):
    """A code segment of ``n`` characters drawn from ``chars``."""

    chars: str = Field(min_length=1)
    n: int = Field(ge=1)


class Code(_Strict):
    """A random code (scrambled tool and parameter names, opaque skill names).

    ``code`` is the segments in order: a string is copied, a :class:`Draw` draws characters. ``pattern`` matches
    every code this family makes (how :meth:`~hat_env.hsa.vocab.Vocab.owns` recognises them). Read as
    ``(((literal, ""), (chars, n), ...), compiled pattern)``.
    """

    code: list[str | Draw] = Field(min_length=1)
    pattern: re.Pattern[str]

    def table(self) -> tuple[tuple[tuple[str, int | str], ...], re.Pattern[str]]:
        """The ``(segments, pattern)`` tuple :func:`hat_env.hsa.transforms._common.make_code` reads."""
        return tuple((p, "") if isinstance(p, str) else (p.chars, p.n) for p in self.code), self.pattern


class Versioned(_Strict):
    """Versioned skill names: ``format`` with ``{base}`` (a descriptive name) and ``{n}`` (a version number);
    ``pattern`` matches them, with a group ``base``. Read as ``(format, compiled pattern)``."""

    format: str
    pattern: re.Pattern[str]

    @field_validator("pattern")
    @classmethod
    def _has_base(cls, v: re.Pattern[str]) -> re.Pattern[str]:
        if "base" not in v.groupindex:
            raise ValueError("the pattern needs a group named base: (?P<base>...)")
        return v


class ActionWords(_Strict):
    """Names of an action tool: every verb with every noun. Read as ``(verbs, nouns)``."""

    verbs: Words
    nouns: Words


class Distractor(_Strict):
    """A tool no task needs (added as a distractor). Read as ``(name words, description, parameters)``."""

    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    parameters: dict[str, dict[str, Any]]


class ByLang(_Strict):
    """One pool per prompt role (``base``, ``persona``, ``products``...), per language."""

    en: dict[str, Words]
    zh: dict[str, Words]


class Headings(_Strict):
    """Section headings of generated skill bodies."""

    when: str
    steps: str
    example: str
    advice: str


class SkillText(_Strict):
    """Wordings of generated skills in one language (``{topics}``, ``{text}``, ``{topic}``, ``{step}`` are filled
    in): descriptions, the when-to-use line, a topic per intent, the step lines, examples and advice."""

    headings: Headings
    when: str
    desc_reply: str
    desc_strategy: str
    desc_promo: str
    step_fmt: str
    and_: str = Field(alias="and")
    topics: dict[str, str]
    steps: dict[str, str]
    examples: dict[str, str]
    advice: Words

    @field_validator("steps")
    @classmethod
    def _every_step(cls, v: dict[str, str]) -> dict[str, str]:
        needed = [s for steps in INTENT_STEPS.values() for s in steps] + list(PROMO_STEPS)
        missing = sorted(set(needed) - set(v))
        if missing:
            raise FieldError((missing[0],), f"missing step lines {missing} (every step the skills use needs one)")
        return v


class SkillTexts(_Strict):
    """:class:`SkillText` per language."""

    en: SkillText
    zh: SkillText


class FamilyFile(_Strict):
    """One family's vocabulary file. The keys, in file order (pools are lists of alternatives):

    - ``tool_casings``, ``param_casings``: casing styles of tool names, and of parameter, enum and result names;
    - ``read_verbs`` x ``tool_nouns`` (per read operation) and ``action_words`` (per action tool): tool names;
    - ``scramble``, ``param_code``: scrambled tool and parameter names; ``distractors``: extra tools;
    - ``params``, ``wrappers``, ``prefixes``, ``enum_values``, ``results``: parameter names, wrapper objects, id
      prefixes, enum values and result field names, by canonical name;
    - ``tool_descriptions``, ``param_descriptions``, ``notes``: description wordings;
    - ``skill_tool_names``, ``skill_tool_params``, ``skill_tool_descriptions``: the skill-loading tool;
    - ``skill_names`` (descriptive, by skill kind), ``skill_version`` and ``skill_version_numbers``,
      ``skill_code``, ``skill_name_styles``: skill names;
    - ``markups``, ``section_titles``, ``section_ids``, ``section_texts``: the system prompt;
    - ``disclosures``, ``forbidden_words``, ``feedback`` (per feedback key): constraints;
    - ``skill_text``: generated skill bodies and descriptions, per language.
    """

    tool_casings: list[Casing] = Field(min_length=1)
    param_casings: list[Casing] = Field(min_length=1)
    read_verbs: Words
    tool_nouns: dict[str, Words]
    action_words: dict[str, ActionWords]
    scramble: Code
    distractors: list[Distractor]
    params: dict[str, Words]
    param_code: Code
    wrappers: Words
    prefixes: dict[str, Words]
    enum_values: dict[str, Words]
    results: dict[str, Words]
    tool_descriptions: dict[str, Words]
    param_descriptions: dict[str, Words]
    notes: dict[str, str]
    skill_tool_names: Words
    skill_tool_params: Words
    skill_tool_descriptions: Words
    skill_names: dict[str, Words]
    skill_version: Versioned
    skill_version_numbers: Words
    skill_code: Code
    skill_name_styles: list[Literal["descriptive", "versioned", "opaque"]] = Field(min_length=1)
    markups: list[Literal["markdown", "xml", "json", "plain"]] = Field(min_length=1)
    section_titles: ByLang
    section_ids: dict[str, Words]
    section_texts: ByLang
    disclosures: Words
    forbidden_words: Words
    feedback: dict[str, Words]
    skill_text: SkillTexts

    @field_validator("tool_nouns")
    @classmethod
    def _every_read_op(cls, v: dict[str, list[str]]) -> dict[str, list[str]]:
        missing = [op for op in READ_OPS if op not in v]
        if missing:
            raise FieldError((missing[0],), f"missing nouns for read operations {missing}")
        return v

    def tables(self) -> dict[str, Any]:
        """The raw tables, by key in file order, in the shapes the transforms read (see the models)."""
        special: dict[str, Any] = {
            "action_words": {op: (tuple(w.verbs), tuple(w.nouns)) for op, w in self.action_words.items()},
            "scramble": self.scramble.table(),
            "distractors": tuple((d.name, d.description, d.parameters) for d in self.distractors),
            "param_code": self.param_code.table(),
            "skill_version": (self.skill_version.format, self.skill_version.pattern),
            "skill_code": self.skill_code.table(),
        }
        plain = self.model_dump(by_alias=True, exclude=set(special))
        return {k: special[k] if k in special else _tuples(plain[k]) for k in type(self).model_fields}


def _tuples(x: Any) -> Any:
    """``x`` with every list turned into a tuple (mappings keep their order)."""
    if isinstance(x, list):
        return tuple(_tuples(v) for v in x)
    if isinstance(x, dict):
        return {k: _tuples(v) for k, v in x.items()}
    return x


def family_path(family: str, directory: Path | None = None) -> Path:
    """The vocabulary file of ``family`` in ``directory`` (default :data:`FAMILY_DIR`)."""
    return (directory or FAMILY_DIR) / f"{family}.yaml"


def load_family(family: str, directory: Path | None = None) -> dict[str, Any]:
    """Read and validate ``family``'s file and return its tables (:meth:`FamilyFile.tables`).

    Args:
        family: the family's name (its file is ``FAMILY.yaml``).
        directory: where the file is (default :data:`FAMILY_DIR`, the shipped files).

    Raises:
        hat_env.yamlio.FileError: the file is missing, is not YAML, or breaks the schema (file, key, line,
            reason).
    """
    return load_model(FamilyFile, family_path(family, directory)).tables()


__all__ = ["FAMILY_DIR", "INTENT_STEPS", "PROMO_STEPS", "READ_OPS", "FamilyFile", "family_path", "load_family"]
