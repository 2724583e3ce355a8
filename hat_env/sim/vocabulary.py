"""The catalog vocabulary: the product categories and spec attributes a room may use, as data.

A vocabulary is a YAML mapping (``scenarios/vocabulary/default.yaml`` is the default one, with the seven
categories and thirteen spec attributes every built-in room uses) with these sections:

- ``units``: name -> ``{dimension, factor, offset?, words}``: how quantities in spec values are written and converted
  (:mod:`hat_env.sim.units`);
- ``categories``: name -> ``{labels: {locale: label}, generate: {locale: recipe}}``: what the prompt calls the
  category, and how Faker products of it are made (``nouns``, ``specs`` value pools, ``price: [low, high]``);
- ``attributes``: name -> :class:`AttributeSpec` (``type``, ``unit``, ``labels``, ``words``, ``compare``,
  ``values``);
- ``carriers``: locale -> carrier names for generated products;
- ``campaign_words``: campaign type -> locale -> the words viewers use when they ask about that kind of deal
  ("bundle", "套装"); the parser gives such a campaign question that type as its ``attr`` (its focus);
- ``campaign_questions``: campaign type -> locale -> comment templates (``{L}``: the link) the viewer simulator
  uses for a question about that kind of deal when the product has one running (none by default).

A scenario's ``vocabulary:`` is a built-in vocabulary name, a file next to it, or an inline mapping of the same
shape; ``extends`` (default ``default``; ``null`` for none) names the vocabulary it builds on: an entry of the
child replaces the parent's entry of the same name, the rest is inherited. :func:`resolve_vocabulary` gives the
resolved, immutable :class:`Vocabulary` (cached): the one API the simulator, tools, reference agent, renderer and
grader read (``vocabulary.attribute(name)``, ``vocabulary.category(name)``).
"""

from __future__ import annotations

import hashlib
import re
import json
import unicodedata
from difflib import SequenceMatcher
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hat_env.sim.units import Quantity, Unit, UnitTable, same_quantity
from hat_env.yamlio import FieldError, FileError, load_yaml, validate

AttrType = Literal["text", "number", "range", "bool", "list"]
CompareMode = Literal["exact", "fuzzy", "numeric"]

#: The comparison each attribute type gets when ``compare`` is not given.
DEFAULT_COMPARE: dict[str, str] = {"text": "fuzzy", "list": "fuzzy", "number": "numeric", "range": "numeric",
                                   "bool": "exact"}
#: Words a ``bool`` value may be written with (any case), and what they mean.
BOOL_WORDS: dict[str, bool] = {"yes": True, "no": False, "true": True, "false": False, "是": True, "否": False,
                               "有": True, "无": False, "支持": True, "不支持": False, "sí": True}
#: A decimal comma in a number or range value: between digits, followed by one or two digits ("1,1 kg", "29,90";
#: not the thousands group of "1,000 g"), as :mod:`hat_env.text.normalize` reads replies.
DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d{1,2}(?!\d))")
#: What separates the items of a ``list`` value.
LIST_SEPARATORS = ("、", ",", "，", "/", ";", "；")
#: Similarity (difflib ratio, 0-1) from which a ``fuzzy`` comparison calls two normalised texts the same.
FUZZY_MIN = 0.85

_NAME = r"^[a-z][a-z0-9_]{0,39}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class UnitSpec(_Strict):
    """One unit as written in a vocabulary file."""

    dimension: str = Field(min_length=1)
    factor: float = Field(gt=0)
    #: added after the factor, for an offset scale (°F to a base of °C: factor 0.5556, offset -17.78); default 0
    offset: float = 0.0
    words: tuple[str, ...] = Field(min_length=1)


class GenerateRecipe(_Strict):
    """How Faker products of a category are made in one locale: title nouns, spec value pools (drawn in the
    order written), the price range ``[low, high)`` and the warranty they carry."""

    nouns: tuple[str, ...] = Field(min_length=1)
    specs: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    price: tuple[int, int]
    warranty_months: int = Field(0, ge=0)

    @model_validator(mode="after")
    def _price_range(self) -> "GenerateRecipe":
        lo, hi = self.price
        if not 0 < lo < hi:
            raise FieldError(("price",), f"price must be [low, high] with 0 < low < high, got {list(self.price)}")
        for k, pool in self.specs.items():
            if not pool:
                raise FieldError(("specs", k), "a spec value pool needs at least one value")
        return self


class CategorySpec(_Strict):
    """A product category: its labels per locale (the key is shown where a locale has none) and its generators."""

    labels: dict[str, str] = Field(default_factory=dict)
    generate: dict[str, GenerateRecipe] = Field(default_factory=dict)
    name: str = ""

    def label(self, locale: str) -> str:
        """What the room calls the category in ``locale`` (its key when no label is given)."""
        return self.labels.get(locale) or self.name


def _norm(s: str) -> str:
    """NFKC, case-folded, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", s).casefold().split())


def _squash(s: str) -> str:
    """:func:`_norm` without spaces and punctuation (for fuzzy comparison)."""
    return "".join(ch for ch in _norm(s) if ch.isalnum())


class AttributeSpec(_Strict):
    """One spec attribute: how its values are written and compared, and the words for it.

    Attributes:
        type: ``text`` (any string), ``number`` (one quantity, "1.5 kg"), ``range`` (a range, "22-44 lb", or one
            number), ``bool`` (yes/no: :data:`BOOL_WORDS`), ``list`` (items joined by :data:`LIST_SEPARATORS`).
        unit: for ``number``/``range``: the unit (a key of ``units``) a value without one is read in; a value's own
            unit must be of the same dimension.
        labels: locale -> what the host calls the attribute in a reply ("life stage", "适用阶段").
        words: locale -> the words viewers use for it (the parser and the comment generator read them).
        compare: how a stated value is checked against the product's: ``exact`` (the normalised value appears),
            ``fuzzy`` (normalised, spaces and punctuation ignored, similarity >= :data:`FUZZY_MIN`; a list: any
            item), ``numeric`` (quantities equal after unit conversion; a range: both ends). Default by type
            (:data:`DEFAULT_COMPARE`).
        values: the allowed values (text) or items (list), if the attribute is a closed set.
        name: its key (set by the vocabulary).
    """

    type: AttrType = "text"
    unit: str | None = None
    labels: dict[str, str] = Field(default_factory=dict)
    words: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    compare: CompareMode | None = None
    values: tuple[str, ...] | None = None
    name: str = ""

    @model_validator(mode="after")
    def _fits_type(self) -> "AttributeSpec":
        if self.unit is not None and self.type not in ("number", "range"):
            raise FieldError(("unit",), f"a unit is for number and range attributes, not {self.type}")
        if self.compare == "numeric" and self.type not in ("number", "range"):
            raise FieldError(("compare",), f"numeric comparison is for number and range attributes, not {self.type}")
        if self.values is not None and self.type not in ("text", "list"):
            raise FieldError(("values",), f"allowed values are for text and list attributes, not {self.type}")
        return self

    @property
    def compare_mode(self) -> str:
        """The comparison in force (``compare``, else the type's default)."""
        return self.compare or DEFAULT_COMPARE[self.type]

    def label(self, locale: str) -> str | None:
        """The reply label in ``locale``, or ``None`` when the vocabulary gives none."""
        return self.labels.get(locale)

    def words_for(self, locale: str) -> tuple[str, ...]:
        """The viewer words in ``locale`` (empty when none)."""
        return self.words.get(locale, ())

    def items(self, value: str) -> list[str]:
        """The items of a ``list`` value (the whole value, stripped, for other types)."""
        if self.type != "list":
            return [value.strip()]
        parts = [value]
        for sep in LIST_SEPARATORS:
            parts = [x for p in parts for x in p.split(sep)]
        return [p.strip() for p in parts if p.strip()]


class VocabularySpec(_Strict):
    """A vocabulary file (or a scenario's inline ``vocabulary:``): see the module docstring."""

    name: str = ""
    description: str = ""
    extends: str | None = "default"
    units: dict[str, UnitSpec] = Field(default_factory=dict)
    categories: dict[str, CategorySpec] = Field(default_factory=dict)
    attributes: dict[str, AttributeSpec] = Field(default_factory=dict)
    carriers: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    campaign_words: dict[str, dict[str, tuple[str, ...]]] = Field(default_factory=dict)
    campaign_questions: dict[str, dict[str, tuple[str, ...]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _names(self) -> "VocabularySpec":
        import re

        for section in ("units", "categories", "attributes"):
            for key in getattr(self, section):
                if not re.match(_NAME, key):
                    raise FieldError((section, key), f"{section[:-1] if section != 'categories' else 'category'} "
                                                     f"name {key!r} must match {_NAME} (lower case, digits, _)")
        from hat_env.sim.campaigns import CAMPAIGN_TYPES

        for section in ("campaign_words", "campaign_questions"):
            for kind, by_loc in getattr(self, section).items():
                if kind not in CAMPAIGN_TYPES:
                    raise FieldError((section, kind), f"unknown campaign type {kind!r}; known: {list(CAMPAIGN_TYPES)}")
                if section == "campaign_questions":
                    for loc, pool in by_loc.items():
                        for i, tpl in enumerate(pool):
                            if "{L}" not in tpl or tpl.replace("{L}", "").count("{"):
                                raise FieldError((section, kind, loc, i),
                                                 f"a campaign question holds {{L}} (the link) and no other placeholder: {tpl!r}")
        return self


class Vocabulary:
    """A resolved vocabulary (immutable, shared by every room that uses it).

    Args:
        spec: the merged vocabulary (no ``extends`` left to follow).
        source: where it came from, for messages (``"default"``, a file path, ``"<inline>"``).
    """

    def __init__(self, spec: VocabularySpec, source: str = ""):
        self.spec = spec
        self.source = source
        self.units = UnitTable(Unit(k, u.dimension, u.factor, u.words, u.offset) for k, u in spec.units.items())
        self.categories: dict[str, CategorySpec] = {
            k: c.model_copy(update={"name": k}) for k, c in spec.categories.items()
        }
        self.attributes: dict[str, AttributeSpec] = {
            k: a.model_copy(update={"name": k}) for k, a in spec.attributes.items()
        }

    def __deepcopy__(self, memo: dict) -> "Vocabulary":
        return self  # immutable: scenario copies share it

    def __repr__(self) -> str:
        return f"Vocabulary({self.source!r}: {len(self.categories)} categories, {len(self.attributes)} attributes)"

    # -- the API -------------------------------------------------------------------------------------------
    def attribute(self, name: str) -> AttributeSpec | None:
        """The declaration of spec attribute ``name``, or ``None`` when the vocabulary has no such attribute."""
        return self.attributes.get(name)

    def category(self, name: str) -> CategorySpec | None:
        """The declaration of category ``name``, or ``None``."""
        return self.categories.get(name)

    def carriers(self, locale: str) -> tuple[str, ...]:
        """Carrier names for generated products in ``locale`` (empty when none)."""
        return self.spec.carriers.get(locale, ())

    def campaign_words(self, locale: str) -> dict[str, tuple[str, ...]]:
        """Campaign type -> the words viewers in ``locale`` use for it."""
        return {k: v[locale] for k, v in self.spec.campaign_words.items() if v.get(locale)}

    def campaign_questions(self, kind: str, locale: str) -> tuple[str, ...]:
        """Comment templates for a question about a ``kind`` deal in ``locale`` (empty: none)."""
        return self.spec.campaign_questions.get(kind, {}).get(locale, ())

    def spec_words(self) -> dict[str, dict[str, list[str]]]:
        """Attribute -> locale -> viewer words (the shape of the former ``vocab.SPEC_ATTRS``)."""
        return {k: {loc: list(w) for loc, w in a.words.items()} for k, a in self.attributes.items()}

    @cached_property
    def key(self) -> str:
        """A digest of every word the parser reads from this vocabulary (equal vocabularies share parser tables)."""
        data: list[Any] = [[k, sorted((loc, list(w)) for loc, w in a.words.items())] for k, a in self.attributes.items()]
        data.append(sorted((k, sorted((loc, list(w)) for loc, w in v.items())) for k, v in self.spec.campaign_words.items()))
        return hashlib.sha256(json.dumps(data, ensure_ascii=False).encode()).hexdigest()[:16]

    # -- values --------------------------------------------------------------------------------------------
    def quantities(self, text: str) -> list[Quantity]:
        """Every number or range in ``text`` with its unit (see :class:`~hat_env.sim.units.UnitTable`)."""
        return self.units.quantities(text)

    def check_value(self, attr: AttributeSpec, value: str, decimal_sep: str = ".") -> str | None:
        """Why ``value`` is not a valid value of ``attr`` (``None`` when it is).

        Args:
            attr: the attribute.
            value: the catalog's value, as written.
            decimal_sep: how the room's locale writes a decimal (its file's ``formats.decimal_sep``): with ``","``
                a number or range may hold a decimal comma ("1,1 kg", "1,5-2 litros"); elsewhere such a comma is
                an error that says how to write the number.
        """
        if not value.strip():
            return "the value is empty"
        t = attr.type
        if t in ("number", "range"):
            comma = DECIMAL_COMMA.search(value)
            if comma is not None and decimal_sep != ",":
                fixed = DECIMAL_COMMA.sub(".", value)
                return (f"{value!r} has a decimal comma, which only a locale that writes one (formats.decimal_sep: "
                        f"',', e.g. es_ES) reads; write {fixed!r}")
            qs = self.quantities(DECIMAL_COMMA.sub(".", value) if comma is not None else value)
            if not qs:
                return f"a {t} value needs a number, e.g. '1.5 kg' (got {value!r})"
            if len(qs) > 1 or (t == "number" and qs[0].is_range):
                return f"a {t} value holds one {'number' if t == 'number' else 'number or range'} (got {value!r})"
            q = qs[0]
            unit = self.units.get(attr.unit) if attr.unit else None
            if q.unit is not None and unit is not None and q.unit.dimension != unit.dimension:
                return f"unit {q.unit.name!r} is not a {unit.dimension} unit like {unit.name!r} (got {value!r})"
            if q.low > q.high:
                return f"a range goes from low to high (got {value!r})"
            return None
        if t == "bool":
            return None if value.strip().casefold() in BOOL_WORDS else (
                f"a bool value is one of {sorted(BOOL_WORDS)} (got {value!r})")
        if attr.values is not None:
            allowed = {_norm(v) for v in attr.values}
            bad = [x for x in attr.items(value) if _norm(x) not in allowed]
            if bad:
                return f"{bad[0]!r} is not an allowed value; allowed: {list(attr.values)}"
        return None

    def matches(self, attr: AttributeSpec, value: str, said: str) -> bool:
        """Whether the text ``said`` (a reply, or the part of it about ``attr``) states the product's ``value``
        of ``attr``, by the attribute's comparison (see :class:`AttributeSpec`)."""
        mode = attr.compare_mode
        if attr.type == "bool":
            truth = BOOL_WORDS.get(value.strip().casefold())
            return any(_norm(w) in _norm(said) for w, b in BOOL_WORDS.items() if b == truth and len(w) > 1) or (
                _norm(value) in _norm(said))
        if mode == "numeric":
            unit = self.units.get(attr.unit) if attr.unit else None
            want = self.quantities(DECIMAL_COMMA.sub(".", value))  # a value with a decimal comma is a room's
            # whose locale writes one (check_value refuses it elsewhere)
            if not want:
                return False
            return any(same_quantity(want[0], q, unit) for q in self.quantities(said))
        if mode == "exact":
            return any(_norm(x) in _norm(said) for x in attr.items(value))
        s = _squash(said)
        for item in attr.items(value):
            v = _squash(item)
            if not v:
                continue
            if v in s:
                return True
            n = len(v)
            if n >= 4 and any(SequenceMatcher(None, v, s[i:i + n]).ratio() >= FUZZY_MIN
                              for i in range(0, max(1, len(s) - n + 1))):
                return True
        return False


# --- loading ------------------------------------------------------------------------------------------------


def vocabularies_dir() -> Path:
    """The folder of built-in vocabularies (``scenarios/vocabulary``, package data)."""
    return Path(str(resources.files("hat_env.scenarios"))) / "vocabulary"


def builtin_vocabularies() -> list[str]:
    """Names of the built-in vocabularies, sorted."""
    return sorted(p.stem for p in vocabularies_dir().glob("*.yaml"))


def _merge(parent: VocabularySpec, child: VocabularySpec) -> VocabularySpec:
    """``child`` over ``parent``: each entry of a section replaces the parent's entry of the same name."""
    upd: dict[str, Any] = {"extends": None, "name": child.name or parent.name,
                           "description": child.description or parent.description}
    for section in ("units", "categories", "attributes", "carriers", "campaign_words", "campaign_questions"):
        upd[section] = {**getattr(parent, section), **getattr(child, section)}
    return parent.model_copy(update=upd)


@lru_cache(maxsize=64)
def _load_file(path: str, mtime: float) -> VocabularySpec:
    data, lines = load_yaml(path)
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a vocabulary must be a YAML mapping")])
    return validate(VocabularySpec, data, path, lines)


def _locate(ref: str, base_dir: Path | None) -> Path:
    """The file a vocabulary reference names: a built-in name, or a path relative to ``base_dir`` (the scenario's
    folder) that stays inside it, the built-in vocabularies or a root ``HAT_ENV_ALLOW_ROOTS`` names
    (:mod:`hat_env.confine`).

    Raises:
        ValueError: no such vocabulary, or the path leads outside the permitted folders.
    """
    from hat_env.confine import allowed_roots, confine

    p = Path(ref)
    if p.suffix not in (".yaml", ".yml") and "/" not in ref and "\\" not in ref:
        cand = vocabularies_dir() / f"{ref}.yaml"
        if cand.is_file():
            return cand
        if base_dir is None or not (base_dir / f"{ref}.yaml").is_file():
            raise ValueError(f"unknown vocabulary {ref!r}; built-in ones are: {', '.join(builtin_vocabularies())}")
        p = Path(f"{ref}.yaml")
    if base_dir is None:
        raise ValueError(f"vocabulary file {ref!r}: a path is relative to a scenario file (this scenario has none)")
    full = p if p.is_absolute() else base_dir / p
    confine(full, [base_dir, vocabularies_dir(), *allowed_roots()], f"vocabulary file {ref!r}")
    if not full.is_file():
        raise ValueError(f"no vocabulary file {ref!r} next to the scenario")
    return full.resolve()


def _resolve_spec(spec: VocabularySpec, base_dir: Path | None, seen: tuple[str, ...]) -> VocabularySpec:
    if spec.extends is None:
        return spec
    path = _locate(spec.extends, base_dir)
    key = str(path)
    if key in seen:
        raise ValueError(f"vocabulary {spec.extends!r} extends itself (through {' -> '.join(seen)})")
    parent = _resolve_spec(_load_file(key, path.stat().st_mtime), path.parent, seen + (key,))
    return _merge(parent, spec)


_CACHE: dict[tuple, Vocabulary] = {}


def resolve_vocabulary(ref: "str | VocabularySpec | None", base_dir: Path | None = None) -> Vocabulary:
    """The resolved vocabulary of a scenario's ``vocabulary:`` (cached: rooms with one declaration share it).

    Args:
        ref: ``None`` (the default vocabulary), a built-in vocabulary name or a file path (relative to
            ``base_dir``), or an inline :class:`VocabularySpec`.
        base_dir: the scenario file's folder, where file references are looked up (``None``: built-in names only).

    Raises:
        ValueError: an unknown name, a path outside the scenario's folder, a cycle of ``extends``.
        FileError: a vocabulary file is invalid (its file, field and line).
    """
    if ref is None:
        ref = "default"
    if isinstance(ref, str):
        path = _locate(ref, base_dir)
        key: tuple = ("file", str(path), path.stat().st_mtime)
        hit = _CACHE.get(key)
        if hit is None:
            spec = _resolve_spec(_load_file(str(path), path.stat().st_mtime), path.parent, (str(path),))
            hit = _CACHE[key] = Vocabulary(spec, str(path) if path.parent != vocabularies_dir() else path.stem)
        return hit
    key = ("inline", str(base_dir), ref.model_dump_json())
    hit = _CACHE.get(key)
    if hit is None:
        if len(_CACHE) > 256:
            _CACHE.clear()
        hit = _CACHE[key] = Vocabulary(_resolve_spec(ref, base_dir, ()), "<inline>")
    return hit


@lru_cache(maxsize=1)
def default_vocabulary() -> Vocabulary:
    """The built-in ``default`` vocabulary (read once per process: built-in data does not change under a run)."""
    return resolve_vocabulary("default")


__all__ = [
    "AttributeSpec", "BOOL_WORDS", "CategorySpec", "GenerateRecipe", "UnitSpec", "Vocabulary", "VocabularySpec",
    "builtin_vocabularies", "default_vocabulary", "resolve_vocabulary", "vocabularies_dir",
]
