"""Compliance rules as data: rule packs (YAML), a compiled :class:`RuleSet`, and the check a reply must pass.

(Over 500 lines because the pack format's documentation, the rule model, its compiled form and the rule set are
one concern; how rule text becomes RE2 regexes is :mod:`hat_env.sim.rule_regex`, path confinement
:mod:`hat_env.confine`.)

A rule pack is a YAML file::

    name: default
    description: ...
    rules:
      - id: CN-ABS
        description: no absolute terms (Advertising Law art. 9)
        locale: zh_CN            # zh_CN | en_US | any
        categories: [skincare]   # omit for every category
        kind: term               # term | price_reference | urgency | scarcity | special_use
        terms: [最, 第一]         # plain words
        patterns: ['全网最\\w']   # regular expressions (case-insensitive, RE2: see below)
        allow: [最近, 最后]       # phrases that contain a term but are not violations
        not_followed_by: ['理']  # a match immediately followed by one of these is not a match

Matching: a term containing Chinese (CJK) characters matches as a substring (Chinese has no spaces); a term of
plain ASCII matches at ASCII word boundaries, case-insensitive ("best" does not fire inside "bestow", but does
in "品牌best"). Spaces inside a term match any run of spaces (or none). Patterns are compiled case-insensitive
when the pack is loaded; a bad pattern is a :class:`~hat_env.yamlio.FileError` naming the file, field and line.

Every regex of every pack (the built-in one included) runs on RE2, in time linear in the reply, whatever the
pattern (see :mod:`hat_env.sim.rule_regex`): the syntax is Python's without lookaround or backreferences (a
pattern using them is refused with the reason); ``\\d``, ``\\s`` and ``\\w`` keep Python's Unicode meaning; ``\\b``
is an ASCII word boundary. Instead of a trailing ``(?!...)``, list what may not follow in ``not_followed_by``;
a dropped match's text and what followed it are skipped before the search goes on.

Several entries may share an ``id``: they are parts of one rule (CN-PRICE has a price-reference part and a
fake-price-rise part). ``enabled`` lists and hits use the id.

Kinds (stateful kinds need room facts; without them a matching claim cannot be verified and is a hit):

- ``term``: any match is a violation.
- ``price_reference``: every pattern has a named group ``price`` (the cited prior price X, "原价X", "was $X").
  It is a violation unless, for some product the reply is about, X is not above the lowest deal price of the
  previous ``window_days`` days (:meth:`~hat_env.sim.catalog.Product.lowest_price_in`; 7 unless set). A product
  without price history supports no prior price.
- ``urgency``: "price rises tomorrow", countdowns. A violation unless a campaign on a product the reply is about
  is active and really ends within ``within_hours`` of the room clock.
- ``scarcity``: "只剩最后N件", "only N left". Patterns may have a named group ``n`` (digits or Chinese numerals);
  a violation unless some product the reply is about has stock <= N in the room (<= ``vague_max`` for vague
  claims like "last few", i.e. terms and patterns without ``n``).
- ``special_use``: claims only registered special-use products may make (whitening, spot removal). A violation
  unless some product the reply is about (within the rule's categories) has ``special_use_registered``.

"The products the reply is about" is the ``products`` argument of :meth:`RuleSet.check`, or every product in
the room when it is ``None``. Claims are read leniently: one supporting product is enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Iterable, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, model_validator

from hat_env import saferegex
from hat_env.confine import PathRefused, confine
from hat_env.sim import rule_regex
from hat_env.sim.catalog import Product
from hat_env.yamlio import FileError, load_yaml, validate

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import ComplianceSpec, Scenario

RuleKind = Literal["term", "price_reference", "urgency", "scarcity", "special_use"]
RuleLocale = Literal["zh_CN", "en_US", "any"]

_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
_WS = re.compile(r"\s+")
_ASCII_L = r"(?<![A-Za-z0-9_])"
_ASCII_R = r"(?![A-Za-z0-9_])"


def term_regex_source(term: str) -> str:
    """Python ``re`` source matching ``term`` the way rules, facts and hooks match words.

    For the project's own word lists and the facts scoring reads (product names): the term is escaped, so no
    pattern syntax reaches Python's backtracking engine. Rule terms compile to RE2 instead
    (:func:`hat_env.sim.rule_regex.term_source`, the same matches).

    Args:
        term: a plain word or phrase (not a regex).

    Returns:
        A substring pattern when ``term`` contains CJK characters, otherwise the escaped term between ASCII word
        boundaries (so ``#1`` and ``No. 1`` work, and ``best`` does not fire in ``bestow``). Whitespace in the
        term matches any whitespace or none. Compile it with ``re.IGNORECASE``.
    """
    t = term.strip()
    parts = [re.escape(p) for p in _WS.split(t) if p]
    if not parts:
        return r"(?!x)x"
    body = r"\s*".join(parts)
    if _CJK.search(t):
        return body
    left = _ASCII_L if _is_word_char(t[0]) else ""
    right = _ASCII_R if _is_word_char(t[-1]) else ""
    return f"{left}{body}{right}"


def _is_word_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c == "_")


@lru_cache(maxsize=4096)
def words_regex(words: tuple[str, ...]) -> re.Pattern[str]:
    """One compiled, case-insensitive regex matching any of ``words`` (see :func:`term_regex_source`); cached."""
    srcs = [term_regex_source(w) for w in sorted(set(words), key=len, reverse=True) if w.strip()]
    return re.compile("|".join(srcs) if srcs else r"(?!x)x", re.IGNORECASE)


def _non_blank(s: str) -> str:
    if not s.strip():
        raise ValueError("must not be blank")
    return s


Regex = Annotated[str, AfterValidator(rule_regex.check_pattern)]
Follower = Annotated[str, AfterValidator(rule_regex.check_follower)]
Word = Annotated[str, AfterValidator(_non_blank)]


class RuleSpec(BaseModel):
    """One rule entry as written in a pack (see the module docstring for the fields and kinds)."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    id: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    description: str = ""
    locale: RuleLocale = "any"
    categories: list[str] | None = None  # category names of the rooms' vocabularies
    kind: RuleKind = "term"
    terms: list[Word] = Field(default_factory=list)
    patterns: list[Regex] = Field(default_factory=list)
    allow: list[Word] = Field(default_factory=list)
    not_followed_by: list[Follower] = Field(default_factory=list)
    window_days: int | None = Field(None, ge=1, le=365)
    vague_max: int = Field(10, ge=0)
    within_hours: float = Field(24.0, gt=0)

    @model_validator(mode="after")
    def _kind_fields(self) -> "RuleSpec":
        if not self.terms and not self.patterns:
            raise ValueError("a rule needs at least one of 'terms' or 'patterns'")
        if self.kind == "price_reference":
            if self.terms:
                raise ValueError("a price_reference rule takes 'patterns' with a (?P<price>...) group, not 'terms'")
            for p in self.patterns:
                if "price" not in rule_regex.compile_rule(rule_regex.pattern_source(p)).groupindex:
                    raise ValueError(f"price_reference pattern {p!r} has no named group (?P<price>...)")
        if self.window_days is not None and self.kind != "price_reference":
            raise ValueError("'window_days' only applies to price_reference rules")
        return self


class RulePack(BaseModel):
    """A rule pack file: a name, a description and its rules."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    name: str = Field(pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    description: str = ""
    rules: list[RuleSpec] = Field(default_factory=list)


@dataclass(frozen=True, slots=True)
class RuleHit:
    """One violation found in a reply.

    Attributes:
        rule_id: the rule's id (``CN-ABS``...).
        matched: the text that matched.
        reason: a short human-readable reason (what is wrong, with the room fact that contradicts it).
    """

    rule_id: str
    matched: str
    reason: str


_CN_NUM = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "俩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}


def parse_count(s: str | None) -> int | None:
    """Parse a count written in digits or Chinese numerals (``"3"``, ``"三"``, ``"十二"``, ``"二十"``).

    Returns:
        The integer, or ``None`` for vague words (``几``) and anything unparseable.
    """
    if not s:
        return None
    s = s.strip().replace(",", "")
    if s.isdigit():
        return int(s)
    if "十" in s:
        head, _, tail = s.partition("十")
        tens = _CN_NUM.get(head, None) if head else 1
        ones = _CN_NUM.get(tail, None) if tail else 0
        if tens is None or ones is None:
            return None
        return tens * 10 + ones
    if len(s) == 1 and s in _CN_NUM:
        return _CN_NUM[s]
    return None


def _fmt(x: float) -> str:
    return str(int(round(x))) if abs(x - round(x)) < 1e-9 else f"{x:.2f}".rstrip("0").rstrip(".")


class Rule:
    """A compiled rule entry: the regexes built once (RE2, see :mod:`hat_env.sim.rule_regex`), and the check of
    one reply against it.

    Build with :meth:`from_spec`. Attributes mirror :class:`RuleSpec`; ``categories`` is a frozenset or ``None``;
    ``sources`` are the RE2 sources of the terms and patterns (without ``not_followed_by``), which
    :class:`RuleSet` searches all at once to skip the rules a reply cannot hit.
    """

    __slots__ = (
        "id",
        "description",
        "locale",
        "categories",
        "kind",
        "terms",
        "term_re",
        "pattern_res",
        "allow_re",
        "window_days",
        "vague_max",
        "within_hours",
        "sources",
        "followers",
        "_regs",
    )

    def __init__(self, spec: RuleSpec):
        self.id = spec.id
        self.description = spec.description or spec.id
        self.locale = spec.locale
        self.categories: frozenset[str] | None = None if spec.categories is None else frozenset(spec.categories)
        self.kind = spec.kind
        self.terms: tuple[str, ...] = tuple(spec.terms)
        self.followers: tuple[str, ...] = tuple(spec.not_followed_by)
        term_src = rule_regex.words_source(self.terms)
        pattern_srcs = [rule_regex.pattern_source(p) for p in spec.patterns]
        self.sources: tuple[str, ...] = tuple(([term_src] if term_src else []) + pattern_srcs)

        def build(src: str) -> Any:
            return rule_regex.compile_rule(rule_regex.with_followers(src, self.followers))

        self.term_re: Any = build(term_src) if term_src else None
        self.pattern_res: tuple[Any, ...] = tuple(build(p) for p in pattern_srcs)
        allow_src = rule_regex.words_source(tuple(spec.allow))
        self.allow_re: Any = rule_regex.compile_rule(allow_src) if allow_src else None
        self.window_days = spec.window_days or 7
        self.vague_max = spec.vague_max
        self.within_hours = spec.within_hours
        self._regs: tuple[Any, ...] = (self.term_re, *self.pattern_res) if self.term_re is not None else self.pattern_res

    @classmethod
    def from_spec(cls, spec: RuleSpec | dict[str, Any]) -> "Rule":
        """Compile a :class:`RuleSpec` (or a dict validated into one; raises pydantic's ``ValidationError``)."""
        if not isinstance(spec, RuleSpec):
            spec = RuleSpec.model_validate(spec)
        return cls(spec)

    def applies(self, locale: str, categories: set[str] | frozenset[str]) -> bool:
        """Whether the rule is in force for a reply in ``locale`` about products of ``categories``.

        A category-scoped rule applies only when ``categories`` meets its scope.
        """
        if self.locale != "any" and self.locale != locale:
            return False
        return self.categories is None or not self.categories.isdisjoint(categories)

    def matches(self, text: str) -> Iterable[Any]:
        """Yield the matches of the rule's terms and patterns in ``text`` that no ``allow`` phrase covers and no
        ``not_followed_by`` pattern follows (``text`` must be :func:`hat_env.saferegex.clean`)."""
        allowed: list[tuple[int, int]] | None = None
        follow = bool(self.followers)
        for rx in self._regs:
            for m in rx.finditer(text):
                if follow and m.group(rule_regex.NFB_GROUP) is not None:
                    continue
                if self.allow_re is not None:
                    if allowed is None:
                        allowed = [a.span() for a in self.allow_re.finditer(text)]
                    s, e = m.span()
                    if any(a <= s and e <= b for a, b in allowed):
                        continue
                yield m

    # -- stateful checks: return a reason when the claim is not supported, else None ----------------------
    def _price_reference(self, m: Any, products: list[Product]) -> str | None:
        try:
            x = float(m.group("price").replace(",", ""))
        except (IndexError, TypeError, ValueError):
            return None
        lows = [low for p in products if (low := p.lowest_price_in(self.window_days)) is not None]
        if any(x <= low + 1e-6 for low in lows):
            return None
        if not lows:
            return f"cites prior price {_fmt(x)} but no price history of the last {self.window_days} days supports it"
        return (
            f"cites prior price {_fmt(x)}, above the lowest price {_fmt(min(lows))} of the last "
            f"{self.window_days} days"
        )

    def _urgency(self, room: "RoomState | None", products: list[Product]) -> str | None:
        if room is None:
            return "claims a deadline, but no room state can confirm a campaign ending"
        horizon = room.t + self.within_hours * 3600.0
        for p in products:
            for c in room.active_campaigns(p.product_id):
                if c.end_s <= horizon:
                    return None
        return f"claims a deadline, but no campaign on these products ends within {_fmt(self.within_hours)} h"

    def _scarcity(self, m: Any, room: "RoomState | None", products: list[Product]) -> str | None:
        n = None
        if "n" in m.re.groupindex:
            n = parse_count(m.group("n"))
        limit = self.vague_max if n is None else n
        stocks = [(room.stock.get(p.product_id, p.stock) if room is not None else p.stock) for p in products]
        if any(s <= limit for s in stocks):
            return None
        if not stocks:
            return "claims scarcity, but no product stock can confirm it"
        return f"claims only {limit} left, but stock is {min(stocks)}"

    def _special_use(self, products: list[Product]) -> str | None:
        scoped = [p for p in products if self.categories is None or p.category in self.categories]
        if any(p.special_use_registered for p in scoped):
            return None
        return "a special-use claim for a product not registered for special use"

    def check(
        self, text: str, room: "RoomState | None" = None, products: list[Product] | None = None
    ) -> RuleHit | None:
        """Check ``text`` against this rule (its locale and category scope are the caller's business).

        Args:
            text: the reply (lone surrogates are replaced, see :func:`hat_env.saferegex.clean`).
            room: the room state, for stock and campaigns (stateful kinds).
            products: the products the reply is about; ``None`` means every product in ``room``.

        Returns:
            The first violation found, or ``None``.
        """
        text = saferegex.clean(text)
        regs = self._regs
        if self.kind == "term" and self.allow_re is None and not self.followers:  # stateless: first match is a hit
            for rx in regs:
                m = rx.search(text)
                if m is not None:
                    return RuleHit(self.id, m.group(0), f"{self.description}: '{m.group(0)}'")
            return None
        for rx in regs:  # quick reject before the match-by-match walk
            if rx.search(text) is not None:
                break
        else:
            return None
        if products is None:
            products = room.products if room is not None else []
        for m in self.matches(text):
            kind = self.kind
            if kind == "term":
                return RuleHit(self.id, m.group(0), f"{self.description}: '{m.group(0)}'")
            if kind == "price_reference":
                why = self._price_reference(m, products)
            elif kind == "urgency":
                why = self._urgency(room, products)
            elif kind == "scarcity":
                why = self._scarcity(m, room, products)
            else:
                why = self._special_use(products)
            if why is not None:
                return RuleHit(self.id, m.group(0), f"{self.description}: '{m.group(0)}' {why}")
        return None

    def __repr__(self) -> str:
        return f"Rule({self.id!r}, kind={self.kind!r}, locale={self.locale!r})"


# --- packs --------------------------------------------------------------------------------------------------


def rules_dir() -> Path:
    """The folder of built-in rule packs (``scenarios/rules``, shipped as ``hat_env.scenarios`` package data)."""
    try:
        return Path(str(resources.files("hat_env.scenarios"))) / "rules"
    except ModuleNotFoundError:  # running from a source checkout that is not installed
        return Path(__file__).resolve().parents[2] / "scenarios" / "rules"


def builtin_rule_packs() -> list[str]:
    """Names of the built-in rule packs, sorted."""
    return sorted(p.stem for p in rules_dir().glob("*.yaml"))


def resolve_rule_pack_path(
    name_or_path: str | Path, base_dir: str | Path | None = None, roots: tuple[Path, ...] = ()
) -> Path:
    """Turn a built-in pack name or a file path into a path.

    Args:
        name_or_path: a built-in pack name (``default``) or a path (it ends in ``.yaml``/``.yml`` or has a ``/``).
        base_dir: the folder of the scenario that names the pack. A relative path is resolved against it, and the
            path must resolve inside it, the built-in packs or ``roots`` (see :mod:`hat_env.confine`). ``None``:
            the path is the caller's own and is used as written.
        roots: further folders a scenario's pack path may lead into.

    Raises:
        FileError: neither a built-in pack nor an existing file.
        PathRefused: the path leads outside the folders a scenario may use.
    """
    s = str(name_or_path)
    p = Path(s)
    if p.suffix in (".yaml", ".yml") or "/" in s or "\\" in s:
        if not p.is_absolute() and base_dir is not None:
            p = Path(base_dir) / p
        if base_dir is not None:
            confine(p, [Path(base_dir), rules_dir(), *roots], f"rule pack {s!r}")
        if not p.is_file():
            raise FileError(p, [("", None, "no such rule pack file")])
        return p
    cand = rules_dir() / f"{s}.yaml"
    if cand.exists():
        return cand
    raise FileError(s, [("", None, f"unknown rule pack; built-in ones are: {', '.join(builtin_rule_packs())}")])


@lru_cache(maxsize=64)
def _load_pack_cached(path: str, mtime: float) -> tuple[RulePack, tuple[Rule, ...]]:
    data, lines = load_yaml(path)
    if not isinstance(data, dict):
        raise FileError(path, [("", 1, "a rule pack must be a YAML mapping")])
    pack = validate(RulePack, data, path, lines)
    return pack, tuple(Rule(r) for r in pack.rules)


def load_rule_pack(name_or_path: str | Path, base_dir: str | Path | None = None) -> RulePack:
    """Load and validate a rule pack by built-in name (``"default"``) or path (cached per file mtime).

    Args:
        name_or_path: a built-in pack name or a ``.yaml`` path.
        base_dir: folder that relative paths are resolved against (a scenario's folder).

    Returns:
        The validated :class:`RulePack` (its regexes are known to compile).

    Raises:
        FileError: naming the file, field path and line of every problem (unknown field, bad regex, ...).
    """
    return _compiled_pack(name_or_path, base_dir)[0]


def _compiled_pack(name_or_path: str | Path, base_dir: str | Path | None = None) -> tuple[RulePack, tuple[Rule, ...]]:
    p = resolve_rule_pack_path(name_or_path, base_dir).resolve()
    try:
        mtime = p.stat().st_mtime
    except OSError as exc:
        raise FileError(p, [("", None, f"cannot read file: {exc.strerror or exc}")]) from None
    return _load_pack_cached(str(p), mtime)


@lru_cache(maxsize=64)
def _pattern_set(sources: tuple[str, ...]) -> saferegex.PatternSet | None:
    """One RE2 set of ``sources`` (shared by rule sets with the same rules); ``None`` when there are none or RE2
    cannot build the set (each rule is then searched on its own)."""
    if not sources:
        return None
    try:
        return saferegex.PatternSet(sources, ignorecase=True)
    except saferegex.RegexError:  # too large for one set: correctness does not depend on the set
        return None


def _loc(field: str) -> tuple[str | int, ...]:
    """``"compliance.extra_rules.0.patterns"`` -> ``("compliance", "extra_rules", 0, "patterns")``."""
    return tuple(int(x) if x.isdigit() else x for x in field.split("."))


class RuleSet:
    """The compiled rules in force in a scenario.

    Args:
        rules: compiled rule entries, in order.
    """

    def __init__(self, rules: Iterable[Rule]):
        self.rules: tuple[Rule, ...] = tuple(rules)
        self._by_locale: dict[str, tuple[Rule, ...]] = {}
        self._prefilter: dict[str, tuple[saferegex.PatternSet | None, tuple[int, ...]]] = {}

    @property
    def ids(self) -> list[str]:
        """The distinct rule ids, in order."""
        return list(dict.fromkeys(r.id for r in self.rules))

    @classmethod
    def default(cls) -> "RuleSet":
        """Every rule of the built-in ``default`` pack."""
        return cls(_compiled_pack("default")[1])

    @classmethod
    def for_scenario(cls, sc: "Scenario") -> "RuleSet":
        """The rule set scenario ``sc`` asks for: :meth:`from_spec` with its folder, file, allowed roots (pack
        paths are confined, see :mod:`hat_env.confine`) and the lines of its fields in errors."""
        try:
            return cls.from_spec(sc.compliance, sc.folder, source=sc.source or None, roots=sc.allowed_roots)
        except FileError as exc:
            if exc.path != (sc.source or "<scenario>"):
                raise
            fixed = [(f, line if line is not None else sc.line(*_loc(f)), r) for f, line, r in exc.problems]
            raise FileError(exc.path, fixed) from None

    @classmethod
    def from_spec(
        cls,
        spec: "ComplianceSpec | None" = None,
        base_dir: str | Path | None = None,
        source: str | None = None,
        roots: Iterable[Path] = (),
    ) -> "RuleSet":
        """Build the rule set a scenario's ``compliance`` section asks for.

        Args:
            spec: the scenario's :class:`~hat_env.sim.scenario.ComplianceSpec` (``None``: the default pack).
            base_dir: the scenario's folder: relative pack paths are resolved against it, and a pack path must
                resolve inside it, the built-in packs or ``roots`` (see :mod:`hat_env.confine`). ``None``: a
                scenario built in code, whose paths are the caller's own and are used as written.
            source: the scenario file, named in errors about ``extra_rules``, ``enabled`` and pack paths.
            roots: further folders pack paths may lead into.

        Returns:
            The rules of ``spec.packs`` (in order) plus ``spec.extra_rules``, filtered to ``spec.enabled`` ids
            when that is set.

        Raises:
            FileError: a pack is missing or invalid, an extra rule is invalid, or ``enabled`` names an unknown id.
        """
        packs = ["default"] if spec is None else list(spec.packs)
        rules: list[Rule] = []
        where = source or "<scenario>"
        for i, name in enumerate(packs):
            try:
                p = resolve_rule_pack_path(name, base_dir, roots=tuple(roots))
            except PathRefused as exc:
                raise FileError(where, [(f"compliance.packs.{i}", None, str(exc))]) from None
            rules.extend(_compiled_pack(p)[1])
        if spec is not None and spec.extra_rules:
            problems: list[tuple[str, int | None, str]] = []
            for i, d in enumerate(spec.extra_rules):
                try:
                    rules.append(Rule.from_spec(d))
                except ValidationError as exc:
                    for err in exc.errors():
                        fld = ".".join(str(x) for x in ("compliance", "extra_rules", i, *err["loc"]))
                        reason = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
                        problems.append((fld, None, reason))
            if problems:
                raise FileError(where, problems)
        if spec is not None and spec.enabled is not None:
            known = {r.id for r in rules}
            bad = [(f"compliance.enabled.{i}", None, f"unknown rule id {x!r}") for i, x in enumerate(spec.enabled) if x not in known]
            if bad:
                raise FileError(where, bad)
            on = set(spec.enabled)
            rules = [r for r in rules if r.id in on]
        return cls(rules)

    def for_locale(self, locale: str) -> tuple[Rule, ...]:
        """The rules in force for ``locale`` (``any``-locale rules included), cached."""
        got = self._by_locale.get(locale)
        if got is None:
            got = self._by_locale[locale] = tuple(r for r in self.rules if r.locale in ("any", locale))
        return got

    def _candidates(self, locale: str, text: str) -> set[int] | None:
        """Positions (in :meth:`for_locale` order) of the rules with a term or pattern matching somewhere in
        ``text``, found in one pass over it; ``None`` when unknown (then every rule is checked)."""
        got = self._prefilter.get(locale)
        if got is None:
            owners: list[int] = []
            sources: list[str] = []
            for j, r in enumerate(self.for_locale(locale)):
                sources.extend(r.sources)
                owners.extend([j] * len(r.sources))
            got = self._prefilter[locale] = (_pattern_set(tuple(sources)), tuple(owners))
        pset, owners_t = got
        if pset is None:
            return None
        found = pset.matching(text)
        return None if found is None else {owners_t[i] for i in found}

    def check(
        self,
        text: str,
        locale: str,
        categories: set[str] | frozenset[str] | Iterable[str] = (),
        room: "RoomState | None" = None,
        products: list[Product] | None = None,
    ) -> list[RuleHit]:
        """Check a reply against every rule in force.

        Args:
            text: the reply text.
            locale: the reply's locale (``zh_CN`` / ``en_US``); rules of other locales are skipped.
            categories: categories of the products the reply is about; category-scoped rules (CN-HEALTHFOOD,
                CN-COSM) apply only when one of theirs is here.
            room: the room state (stock, campaigns and the clock) for stateful rules; ``None`` when unknown.
            products: the products the reply is about (prices, history, stock); ``None``: every room product.

        Returns:
            One :class:`RuleHit` per violated rule entry (the first violating match of each), in rule order;
            empty when the reply is clean.
        """
        if not text:
            return []
        text = saferegex.clean(text)
        cats = categories if isinstance(categories, (set, frozenset)) else set(categories)
        hits: list[RuleHit] = []
        maybe = self._candidates(locale, text)
        for j, rule in enumerate(self.for_locale(locale)):
            if maybe is not None and j not in maybe:
                continue
            if rule.categories is not None and rule.categories.isdisjoint(cats):
                continue
            hit = rule.check(text, room, products)
            if hit is not None:
                hits.append(hit)
        return hits

    def terms(self, locale: str, categories: Iterable[str] | None = None) -> list[str]:
        """The plain forbidden terms of the ``term`` rules in force for ``locale`` (for a deny-list hook).

        Args:
            locale: the reply locale.
            categories: product categories in play; ``None`` leaves out category-scoped rules.

        Returns:
            Distinct terms in rule order. Patterns, ``allow`` exceptions and stateful rules are not included:
            use :meth:`check` for the exact verdict.
        """
        cats = set(categories) if categories is not None else None
        out: dict[str, None] = {}
        for r in self.for_locale(locale):
            if r.kind != "term":
                continue
            if r.categories is not None and (cats is None or r.categories.isdisjoint(cats)):
                continue
            for t in r.terms:
                out.setdefault(t, None)
        return list(out)

    def __len__(self) -> int:
        return len(self.rules)

    def __repr__(self) -> str:
        return f"RuleSet({self.ids})"


__all__ = [
    "Rule",
    "RuleHit",
    "RulePack",
    "RuleSet",
    "RuleSpec",
    "builtin_rule_packs",
    "load_rule_pack",
    "parse_count",
    "resolve_rule_pack_path",
    "rules_dir",
    "term_regex_source",
    "words_regex",
]
