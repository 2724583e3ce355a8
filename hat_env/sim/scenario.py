"""Scenario files: one YAML document describing a live session, validated with errors that name file, field, line.

A scenario names its harness pack, the harness timeline (patches applied mid-stream), the catalog vocabulary
(categories and spec attributes: :mod:`hat_env.sim.vocabulary`), the catalog (explicit, generated, or both),
campaigns and which of them stack, compliance rule packs, viewers, orders, tool fault rates, locale, duration and
seed. Built-in scenarios live in the ``scenarios/`` folder shipped as ``hat_env.scenarios``.
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from hat_env.sim.campaigns import CAMPAIGN_TYPES, Campaign, StackingRules
from hat_env.sim.catalog import Product
from hat_env.sim.vocabulary import Vocabulary, VocabularySpec, resolve_vocabulary
from hat_env.yamlio import FieldError, FileError, load_yaml, validate

#: The folder of the scenario file being validated: ``vocabulary:`` file references are relative to it.
_BASE_DIR: ContextVar[Path | None] = ContextVar("hat_env_scenario_base_dir", default=None)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GenerateSpec(_Strict):
    """Products generated with Faker in addition to the explicit ones."""

    count: int = Field(0, ge=0, le=200)
    categories: list[str] = Field(default_factory=lambda: ["skincare"], min_length=1)


class CatalogSpec(_Strict):
    """Explicit products and/or a generation recipe."""

    products: list[Product] = Field(default_factory=list)
    generate: GenerateSpec = Field(default_factory=GenerateSpec)

    @model_validator(mode="after")
    def _unique(self) -> "CatalogSpec":
        seen_links: dict[int, int] = {}
        seen_ids: dict[str, int] = {}
        for i, p in enumerate(self.products):
            if p.link in seen_links:
                raise FieldError(("products", i, "link"),
                                 f"link {p.link} is already products[{seen_links[p.link]}]'s link number")
            if p.product_id in seen_ids:
                raise FieldError(("products", i, "product_id"),
                                 f"product_id {p.product_id!r} is already products[{seen_ids[p.product_id]}]'s")
            seen_links[p.link] = i
            seen_ids[p.product_id] = i
        if not self.products and self.generate.count == 0:
            raise FieldError(("generate", "count"), "the catalog is empty: give products or generate.count > 0")
        return self


class Order(_Strict):
    """A viewer's order the after-sales tools can look up."""

    order_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    product_id: str
    status: Literal["paid", "packed", "shipped", "delivered", "refunding"]
    eta_days: int = Field(0, ge=0)


class ViewerSpec(_Strict):
    """Who is in the room and how they behave.

    ``mix`` weights personas (names from :data:`hat_env.sim.vocab.PERSONAS`); ``arrival_per_min`` is the
    Poisson arrival rate; ``comment_every_s`` the mean gap between one viewer's comments; ``merge_window_s`` the
    window in which comments are merged into one request. ``llm_viewers`` (the first N to enter) and
    ``llm_share`` (of later arrivals) are played by an LLM user simulator in the PettingZoo room when the caller
    gives a viewer agent; the file only sets the mix, never which agent (a scenario cannot name code to run).
    """

    initial: int = Field(20, ge=0, le=100000)
    arrival_per_min: float = Field(6.0, ge=0)
    max_viewers: int = Field(1000, ge=1, le=100000)
    comment_every_s: float = Field(40.0, gt=0)
    merge_window_s: float = Field(3.0, gt=0, le=60)
    mix: dict[str, float] = Field(default_factory=dict)
    mean_stay_s: float = Field(300.0, gt=0)
    llm_viewers: int = Field(0, ge=0)
    llm_share: float = Field(0.0, ge=0, le=1)


class Faults(_Strict):
    """Probability per tool call of each injected fault."""

    timeout: float = Field(0.0, ge=0, le=1)
    malformed: float = Field(0.0, ge=0, le=1)
    permission_denied: float = Field(0.0, ge=0, le=1)
    timeout_s: float = Field(3.0, gt=0)


class LatencyModel(_Strict):
    """Modelled time of one agent turn when the agent reports none: ``per_turn_s + chars / chars_per_s``."""

    per_turn_s: float = Field(0.4, ge=0)
    chars_per_s: float = Field(80.0, gt=0)
    tool_s: float = Field(0.05, ge=0)


class ComplianceSpec(_Strict):
    """Rule packs by name (built-in ``default``) or path, which rule ids are on, and extra rules inline."""

    packs: list[str] = Field(default_factory=lambda: ["default"])
    enabled: list[str] | None = None
    extra_rules: list[dict[str, Any]] = Field(default_factory=list)


class TimelineEntry(_Strict):
    """A harness patch applied when the room clock reaches ``at_s``."""

    at_s: float = Field(ge=0)
    note: str = ""
    patch: list[dict[str, Any]] = Field(min_length=1)


class RoomSpec(_Strict):
    """Names shown in the prompt."""

    host_name: str = "Mia"
    shop_name: str = "hat-env shop"
    ai_label: str = "AI"


class ScoringSpec(_Strict):
    """Composite weights (component name -> weight); missing components keep their default."""

    weights: dict[str, float] = Field(default_factory=dict)
    latency_target_s: float = Field(3.0, gt=0)
    latency_max_s: float = Field(15.0, gt=0)


class Scenario(_Strict):
    """A whole scenario file. See the module docstring; ``source`` is set by the loader, not by the file."""

    name: str = Field(pattern=r"^[a-z0-9_-]{1,64}$")
    description: str = ""
    locale: Literal["zh_CN", "en_US"]
    seed: int = 0
    duration_s: float = Field(600.0, gt=0)
    harness: str = "default"
    harness_timeline: list[TimelineEntry] = Field(default_factory=list)
    room: RoomSpec = Field(default_factory=RoomSpec)
    vocabulary: str | VocabularySpec | None = None
    catalog: CatalogSpec
    campaigns: list[Campaign] = Field(default_factory=list)
    stacking: list[tuple[str, str]] | None = None
    compliance: ComplianceSpec = Field(default_factory=ComplianceSpec)
    viewers: ViewerSpec = Field(default_factory=ViewerSpec)
    orders: list[Order] = Field(default_factory=list)
    faults: Faults = Field(default_factory=Faults)
    latency: LatencyModel = Field(default_factory=LatencyModel)
    scoring: ScoringSpec = Field(default_factory=ScoringSpec)
    source: str = ""
    _vocab: Vocabulary | None = PrivateAttr(default=None)

    @property
    def vocab(self) -> Vocabulary:
        """The resolved catalog vocabulary (``vocabulary:`` over its ``extends``; the default one when absent)."""
        if self._vocab is None:
            self._vocab = resolve_vocabulary(self.vocabulary, Path(self.source).parent if self.source else None)
        return self._vocab

    @property
    def stacking_rules(self) -> StackingRules:
        """Which campaigns combine in a price (``stacking``, else the default rules)."""
        return StackingRules(self.stacking)

    @model_validator(mode="after")
    def _references(self) -> "Scenario":
        ids = {p.product_id for p in self.catalog.products}
        # generated products get ids G<link>, after the explicit links
        first = max((p.link for p in self.catalog.products), default=0) + 1
        ids |= {f"G{first + i:03d}" for i in range(self.catalog.generate.count)}
        for i, c in enumerate(self.campaigns):
            for j, pid in enumerate(c.products):
                if pid not in ids:
                    raise FieldError(("campaigns", i, "products", j),
                                     f"campaign {c.campaign_id} names unknown product {pid!r}")
        for i, o in enumerate(self.orders):
            if o.product_id not in ids:
                raise FieldError(("orders", i, "product_id"),
                                 f"order {o.order_id} names unknown product {o.product_id!r}")
        self._check_catalog()
        self._check_campaigns()
        from hat_env.sim.vocab import PERSONAS

        unknown = sorted(set(self.viewers.mix) - set(PERSONAS))
        if unknown:
            raise FieldError(("viewers", "mix", unknown[0]), f"unknown personas {unknown}; known: {list(PERSONAS)}")
        for i, e in enumerate(self.harness_timeline):
            if e.at_s > self.duration_s:
                raise FieldError(("harness_timeline", i, "at_s"),
                                 f"a harness_timeline entry at {e.at_s}s is after the end ({self.duration_s}s)")
        return self

    def _check_catalog(self) -> None:
        """Products and generated categories against the vocabulary (which it resolves and keeps)."""
        try:
            vocab = self._vocab = resolve_vocabulary(self.vocabulary, _BASE_DIR.get())
        except ValueError as exc:  # a FileError (an invalid vocabulary file) names its own file and line
            raise FieldError(("vocabulary",), str(exc)) from None
        cats = sorted(vocab.categories)
        for i, p in enumerate(self.catalog.products):
            if vocab.category(p.category) is None:
                raise FieldError(("catalog", "products", i, "category"),
                                 f"product {p.product_id}: unknown category {p.category!r}; the vocabulary "
                                 f"({vocab.source}) has {cats}")
            bad = sorted(set(p.specs) - set(vocab.attributes))
            if bad:
                raise FieldError(("catalog", "products", i, "specs", bad[0]),
                                 f"product {p.product_id}: unknown spec keys {bad}; known: {sorted(vocab.attributes)}")
            for key, value in p.specs.items():
                why = vocab.check_value(vocab.attributes[key], value)
                if why:
                    raise FieldError(("catalog", "products", i, "specs", key), f"product {p.product_id}: {key}: {why}")
        gen = self.catalog.generate
        if gen.count:
            for j, cat in enumerate(gen.categories):
                c = vocab.category(cat)
                recipe = c.generate.get(self.locale) if c is not None else None
                if recipe is None:
                    have = sorted(k for k, v in vocab.categories.items() if self.locale in v.generate)
                    raise FieldError(("catalog", "generate", "categories", j),
                                     f"category {cat!r} has no generate recipe for {self.locale}; categories with "
                                     f"one: {have}")
                for key, pool in recipe.specs.items():
                    a = vocab.attribute(key)
                    why = "not an attribute of the vocabulary" if a is None else next(
                        (w for w in (vocab.check_value(a, v) for v in pool) if w), None)
                    if why:
                        raise FieldError(("catalog", "generate", "categories", j),
                                         f"category {cat!r}: its {self.locale} recipe's spec {key!r}: {why}")
            if not vocab.carriers(self.locale):
                raise FieldError(("catalog", "generate", "count"),
                                 f"the vocabulary has no carriers for {self.locale} (generated products need one)")

    def _check_campaigns(self) -> None:
        """Codes are unique; every ``stacking`` entry names a campaign type or a campaign id, two different ones."""
        codes: dict[str, int] = {}
        for i, c in enumerate(self.campaigns):
            if c.code is not None:
                k = c.code.casefold()
                if k in codes:
                    raise FieldError(("campaigns", i, "code"), f"code {c.code!r} is already campaigns[{codes[k]}]'s")
                codes[k] = i
        known = set(CAMPAIGN_TYPES) | {c.campaign_id for c in self.campaigns}
        for i, pair in enumerate(self.stacking or ()):
            for j, name in enumerate(pair):
                if name not in known:
                    raise FieldError(("stacking", i, j),
                                     f"{name!r} is neither a campaign type {list(CAMPAIGN_TYPES)} nor a campaign id")
            if pair[0] == pair[1]:
                raise FieldError(("stacking", i), f"a stacking pair names two different things, got {list(pair)}")


def scenarios_dir() -> Path:
    """The folder of built-in scenarios (shipped as package data)."""
    return Path(str(resources.files("hat_env.scenarios")))


def builtin_scenarios() -> list[str]:
    """Names of the built-in scenarios, sorted."""
    return sorted(p.stem for p in scenarios_dir().glob("*.yaml"))


def resolve_scenario_path(name_or_path: str | Path) -> Path:
    """Turn a built-in scenario name or a file path into a path.

    Raises:
        FileError: neither a built-in name nor an existing file.
    """
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        if not p.exists():
            raise FileError(p, [("", None, "no such scenario file")])
        return p
    cand = scenarios_dir() / f"{name_or_path}.yaml"
    if cand.exists():
        return cand
    raise FileError(
        str(name_or_path), [("", None, f"unknown scenario; built-in ones are: {', '.join(builtin_scenarios())}")]
    )


@lru_cache(maxsize=64)
def _load_cached(path: str, mtime: float) -> Scenario:
    data, lines = load_yaml(path)
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a scenario must be a YAML mapping")])
    token = _BASE_DIR.set(Path(path).parent)
    try:
        sc = validate(Scenario, data, path, lines)
    finally:
        _BASE_DIR.reset(token)
    sc.source = path
    return sc


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load and validate a scenario by built-in name or path (cached per file modification time).

    Raises:
        FileError: with file, field path and line for every problem.
    """
    p = resolve_scenario_path(name_or_path).resolve()
    return _load_cached(str(p), p.stat().st_mtime).model_copy(deep=True)
