"""Scenario files: one YAML document describing a live session, validated with errors that name file, field, line.

A scenario names its harness pack, the harness timeline (patches applied mid-stream), the catalog vocabulary
(categories and spec attributes: :mod:`hat_env.sim.vocabulary`), the catalog (explicit, generated, or both),
campaigns and which of them stack, compliance rule packs, viewers, a script of comments and room events
(``timeline``: :mod:`hat_env.sim.timeline`), orders, tool fault rates, locale, duration and seed. Built-in
scenarios live in the ``scenarios/`` folder shipped as ``hat_env.scenarios``.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PrivateAttr, model_validator

from hat_env.sim.campaigns import CAMPAIGN_TYPES, Campaign, StackingRules
from hat_env.sim.catalog import Product
from hat_env.sim.vocabulary import Vocabulary, VocabularySpec, resolve_vocabulary
from hat_env.sim.timeline import TimelineSpec, check_references
from hat_env.yamlio import FieldError, FileError, line_of, load_yaml, validate

#: The folder of the scenario file being validated: ``vocabulary:`` file references are relative to it.
_BASE_DIR: ContextVar[Path | None] = ContextVar("hat_env_scenario_base_dir", default=None)


class _Strict(BaseModel):
    # unknown fields are errors; numbers are finite (a duration of .inf would run forever, .nan compares false)
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


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
    ``generate`` keeps the generated crowd (``true``), removes it (``false``: only the scripted viewers of
    ``timeline.comments`` speak), or keeps a share of it (a weight 0-1 scaling ``initial`` and ``arrival_per_min``).
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
    generate: bool | Annotated[float, Field(ge=0, le=1)] = True


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


def _printable(v: str) -> str:
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in v):
        raise ValueError("must not contain control characters (a name or path never needs them)")
    return v


#: A name or path written in a scenario: no control characters, 1-1024 characters.
PathRef = Annotated[str, Field(min_length=1, max_length=1024), AfterValidator(_printable)]


class ComplianceSpec(_Strict):
    """Rule packs by name (built-in ``default``) or path, which rule ids are on, and extra rules inline."""

    packs: list[PathRef] = Field(default_factory=lambda: ["default"])
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
    locale: str = Field(pattern=r"^[a-z]{2,3}_[A-Z]{2}$")
    seed: int = 0
    duration_s: float = Field(600.0, gt=0)
    harness: PathRef = "default"
    harness_timeline: list[TimelineEntry] = Field(default_factory=list)
    room: RoomSpec = Field(default_factory=RoomSpec)
    vocabulary: str | VocabularySpec | None = None
    catalog: CatalogSpec
    campaigns: list[Campaign] = Field(default_factory=list)
    stacking: list[tuple[str, str]] | None = None
    compliance: ComplianceSpec = Field(default_factory=ComplianceSpec)
    viewers: ViewerSpec = Field(default_factory=ViewerSpec)
    timeline: TimelineSpec = Field(default_factory=TimelineSpec)
    orders: list[Order] = Field(default_factory=list)
    faults: Faults = Field(default_factory=Faults)
    latency: LatencyModel = Field(default_factory=LatencyModel)
    scoring: ScoringSpec = Field(default_factory=ScoringSpec)
    source: str = ""
    # set by the loader, never by the file: the folders its paths may also lead into, and the line index
    _roots: tuple[Path, ...] = PrivateAttr(default=())
    _lines: dict[tuple, int] = PrivateAttr(default_factory=dict)
    _vocab: Vocabulary | None = PrivateAttr(default=None)

    @property
    def folder(self) -> Path | None:
        """The folder of the scenario file (what its relative paths are relative to); ``None`` when built in code."""
        return Path(self.source).parent if self.source else None

    @property
    def allowed_roots(self) -> tuple[Path, ...]:
        """Folders besides its own and the built-ins that the scenario's paths may lead into (see
        :mod:`hat_env.confine`): the ``roots`` given to :func:`load_scenario` and ``HAT_ENV_ALLOW_ROOTS``."""
        from hat_env.confine import allowed_roots

        return allowed_roots(self._roots)

    def line(self, *loc: str | int) -> int | None:
        """The line of field ``loc`` in the scenario file (``None`` when unknown or built in code)."""
        return line_of(self._lines, loc) if self._lines else None

    @property
    def vocab(self) -> Vocabulary:
        """The resolved catalog vocabulary (``vocabulary:`` over its ``extends``; the default one when absent)."""
        if self._vocab is None:
            self._vocab = resolve_vocabulary(self.vocabulary, self.folder)
        return self._vocab

    @property
    def stacking_rules(self) -> StackingRules:
        """Which campaigns combine in a price (``stacking``, else the default rules)."""
        return StackingRules(self.stacking)

    @model_validator(mode="after")
    def _references(self) -> "Scenario":
        from hat_env.locales import known_locales

        if self.locale not in known_locales():
            raise FieldError(("locale",), f"unknown locale {self.locale!r}: neither built in ({', '.join(known_locales())}) "
                                          f"nor a file locales/{self.locale}.yaml next to the scenario file")

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
        sep = _decimal_sep(self.locale)
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
                why = vocab.check_value(vocab.attributes[key], value, sep)
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
                        (w for w in (vocab.check_value(a, v, sep) for v in pool) if w), None)
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

    @model_validator(mode="after")
    def _script(self) -> "Scenario":
        if self.timeline:  # the scripted comments and room events (sim/timeline.py)
            first = max((p.link for p in self.catalog.products), default=0) + 1
            ids = {p.product_id for p in self.catalog.products}
            check_references(self, ids | {f"G{first + i:03d}" for i in range(self.catalog.generate.count)})
        return self


def scenarios_dir() -> Path:
    """The folder of built-in scenarios (shipped as package data)."""
    return Path(str(resources.files("hat_env.scenarios")))


def builtin_scenarios() -> list[str]:
    """Names of the built-in scenarios, sorted."""
    return sorted(p.stem for p in scenarios_dir().glob("*.yaml"))


def relative_scenario_ref(scenario: Any, base: Path) -> Any:
    """A data file's scenario reference as a loadable one.

    Args:
        scenario: the ``scenario`` field as written (a built-in name or a path).
        base: the folder of the file that names it (a calibration set, say).

    Returns:
        For a relative ``.yaml``/``.yml`` path that exists under ``base``, that file's path, so a set can ship its
        own rooms next to it (``rooms/jewelry_en.yaml``) and be read from any working directory; anything else
        unchanged (resolved later as usual, relative to the working directory).
    """
    if isinstance(scenario, str) and scenario.endswith((".yaml", ".yml")) and not Path(scenario).is_absolute():
        cand = base / scenario
        if cand.is_file():
            return str(cand)
    return scenario


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


def _decimal_sep(locale: str) -> str:
    """How ``locale`` writes a decimal (its file's ``formats.decimal_sep``); ``"."`` when its file does not load
    (the locale file's own error is reported where the locale is read)."""
    from hat_env.locales import get_locale

    try:
        return get_locale(locale).formats.decimal_sep
    except ValueError:  # FileError is a ValueError
        return "."


def register_room_locale(scenario_file: str | Path, locale: Any) -> None:
    """Register the room's own locale file, ``locales/<locale>.yaml`` next to ``scenario_file``, when there is one
    (see :func:`hat_env.locales.register_locale_file`); a built-in id or a non-id is left to validation.

    Raises:
        FileError: the locale file is invalid or clashes with another one.
    """
    from hat_env.locales import builtin_locales, register_locale_file

    if not isinstance(locale, str) or locale in builtin_locales() or not re.fullmatch(r"[a-z]{2,3}_[A-Z]{2}", locale):
        return
    cand = Path(scenario_file).parent / "locales" / f"{locale}.yaml"
    if cand.is_file():
        register_locale_file(cand)


@lru_cache(maxsize=64)
def _load_cached(path: str, mtime: float) -> tuple[Scenario, dict[tuple, int]]:
    data, lines = load_yaml(path)
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a scenario must be a YAML mapping")])
    register_room_locale(path, data.get("locale"))
    token = _BASE_DIR.set(Path(path).parent)
    try:
        sc = validate(Scenario, data, path, lines)
    finally:
        _BASE_DIR.reset(token)
    sc.source = path
    return sc, lines


def load_scenario(name_or_path: str | Path, roots: list[str | Path] | tuple[str | Path, ...] | None = None) -> Scenario:
    """Load and validate a scenario by built-in name or path (cached per file modification time). The nested
    parts (catalog, campaigns, orders, viewer settings...) are shared with the cache: treat them as read-only and
    change a scenario with ``model_copy(update=...)``.

    Args:
        name_or_path: a built-in scenario name or a YAML file.
        roots: folders besides the scenario's own and the built-ins that its ``harness:`` and rule-pack paths may
            lead into (see :mod:`hat_env.confine`; ``HAT_ENV_ALLOW_ROOTS`` adds more).

    Raises:
        FileError: with file, field path and line for every problem.
    """
    p = resolve_scenario_path(name_or_path).resolve()
    cached, lines = _load_cached(str(p), p.stat().st_mtime)
    # A shallow copy: its own top-level fields (set, or model_copy(update=...), without touching the cache) over
    # the cached parts, which nothing changes in place (rooms copy the products, lists and dicts they change).
    # A deep copy per load was most of building an evaluation case's session.
    sc = cached.model_copy()
    sc._lines = lines  # shared, never changed
    sc._roots = tuple(Path(r) for r in roots or ())
    return sc


def locate_harness(sc: Scenario, ref: str | Path | None = None) -> str | Path:
    """Where the harness pack for ``sc`` is, as :meth:`hat_env.harness.Harness.load` takes it.

    Args:
        sc: the scenario.
        ref: a pack the caller names (``--harness``, ``harness=``): a folder, tried next to the scenario file
            first, else as given, else a built-in name. ``None``: the scenario's own ``harness:``, which is data
            and confined (see :mod:`hat_env.confine`): a bare name is a pack folder next to the scenario file or
            a built-in pack; a path must resolve inside the scenario's folder, the built-ins or an allowed root.

    Returns:
        A folder path or a built-in pack name.

    Raises:
        FileError: the scenario's path leads outside the permitted folders (naming the file, line and field).
    """
    from hat_env.confine import PathRefused, confine, is_plain_name
    from hat_env.harness.core import harnesses_dir

    base = sc.folder
    if ref is not None or base is None:  # named by the caller, or a scenario built in code: the caller's choice
        r = sc.harness if ref is None else ref
        hp = Path(str(r))
        if base is not None and not hp.is_absolute() and (base / hp / "harness.yaml").exists():
            return base / hp
        return hp if hp.exists() else str(r)
    name = sc.harness
    if is_plain_name(name) and not (base / name / "harness.yaml").exists():
        builtin = harnesses_dir() / name
        if (builtin / "harness.yaml").is_file():
            return builtin
        known = sorted(d.name for d in harnesses_dir().iterdir() if (d / "harness.yaml").exists())
        raise FileError(sc.source, [("harness", sc.line("harness"),
                                     f"no harness pack {name!r} next to the scenario file, and no built-in one; "
                                     f"built-in: {known}")])
    cand = Path(name) if Path(name).is_absolute() else base / name
    try:
        return confine(cand, [base, harnesses_dir(), *sc.allowed_roots], f"harness pack {name!r}")
    except PathRefused as exc:
        raise FileError(sc.source, [("harness", sc.line("harness"), str(exc))]) from None
