"""Compliance rules as data: rule packs (YAML), a compiled :class:`RuleSet`, and the check a reply must pass.

(Over 500 lines because the compiled rule, the rule set and the loading of packs are one concern; the pack format,
the text reading, the regexes and the stateful predicates live in the modules named below.)

The pack format (fields, kinds, matching) is documented in :mod:`hat_env.sim.rule_spec`; how rule text becomes RE2
regexes is :mod:`hat_env.sim.rule_regex`; how a reply is normalised against disguises and read for negation and
questions :mod:`hat_env.sim.rule_text`; the stateful predicates (prior prices, deadlines, stock, special use,
sold-out sales, granted coupons) :mod:`hat_env.sim.rule_state`; path confinement :mod:`hat_env.confine`.

:meth:`RuleSet.check` takes the facts of the request (:class:`ReplyFacts`: which product each claim is about, the
tool calls, the prompt and the comments for the ``leak`` and ``echo`` kinds). The ``compliance`` hook and the
``compliance`` scoring component both build them with :func:`hat_env.constraints.compliance_hits`, so they never
disagree on a reply.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from pydantic import ValidationError

from hat_env import saferegex
from hat_env.confine import PathRefused, confine
from hat_env.sim import rule_regex, rule_state
from hat_env.sim.catalog import Product
from hat_env.sim.rule_spec import EVIDENCE_KINDS, NegationSpec, RulePack, RuleSpec
from hat_env.sim.rule_text import ReplyText, prepare, respelled
from hat_env.yamlio import FileError, load_yaml, validate

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import ComplianceSpec, Scenario
    from hat_env.types import ExecutedCall

_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
#: A number bound to a grant claim just before it ("40元券已发", "$10 coupon sent") or just after it ("便宜20").
_NUM_BEFORE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:元|块钱?|%|％|折|美元|dollars?|bucks)?\s*(?:的|off)?\s*$", re.I)
_NUM_AFTER = re.compile(r"^\s*(?:[$¥€£]|价值)?\s*(\d[\d,]*(?:\.\d+)?)")


def _grant_numbers(reply: ReplyText, m: Any) -> list[float]:
    """The numbers a grant claim states: inside the match, and one bound to it just before or after."""
    text = reply.text
    cs, ce = reply.clause(m.start())
    found = _NUMBER.findall(m.group())
    before = _NUM_BEFORE.search(text[cs : m.start()])
    if before:
        found.append(before.group(1))
    after = _NUM_AFTER.search(text[m.end() : max(ce, m.end())])
    if after:
        found.append(after.group(1))
    return [float(x.replace(",", "")) for x in found]


def _price_value(s: str | None) -> float | None:
    """A cited price in digits ("599", "1,299.00") or Chinese numerals ("五百九十九", read as :mod:`hat_env.text`
    reads them), else ``None``."""
    if not s:
        return None
    t = s.replace(",", "")
    if not t[:1].isdigit():
        from hat_env.text import Mapped  # lazy: only a price in numerals needs the number tables
        from hat_env.text.numbers import zh_numerals

        t = zh_numerals(Mapped.of(t.replace("点", "."))).text
    try:
        return float(t)
    except ValueError:
        return None


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


@dataclass(frozen=True, slots=True)
class RuleHit:
    """One violation found in a reply.

    Attributes:
        rule_id: the rule's id (``CN-ABS``...).
        matched: the text that matched, as the reply wrote it.
        reason: a short human-readable reason (what is wrong, with the room fact that contradicts it).
    """

    rule_id: str
    matched: str
    reason: str


class ReplyFacts:
    """What the rules know about the request a reply answers. This plain version knows the products (every claim
    is about all of them) and the tool calls; :class:`hat_env.constraints.facts.RequestFacts` adds which product
    each claim is about, and the evidence of the ``leak`` and ``echo`` kinds.

    Args:
        products: the products the reply is about.
        calls: the tool calls of the request.
    """

    def __init__(self, products: Sequence[Product] = (), calls: Sequence["ExecutedCall"] = ()):
        self.products = tuple(products)
        self.calls = tuple(calls)

    def products_at(self, pos: int) -> Sequence[Product]:
        """The products a claim at normalised offset ``pos`` of the reply is about."""
        return self.products

    def leak(self, reply: ReplyText, min_run: float) -> tuple[str, str] | None:
        """``(quoted text, reason)`` when the reply repeats the prompt, hidden instructions or tool schemas, else
        ``None`` (always ``None`` here: no prompt is known)."""
        return None

    def echo(self, reply: ReplyText, min_tokens: int, min_share: float) -> tuple[str, str] | None:
        """``(quoted text, reason)`` when the reply says an injection comment's payload, else ``None`` (always
        ``None`` here: no comments are known)."""
        return None


def parse_price(s: str, locale: str = "") -> float:
    """A price as a rule matched it: ``"1,299.00"`` (decimal point, comma thousands) or, in a locale with a
    decimal comma, ``"39,90"`` / ``"1.299,90"``.

    Raises:
        ValueError: not a number.
    """
    s = s.strip().rstrip(".,")
    from hat_env.text.normalize import _decimal_comma  # the locale file's formats.decimal_sep, as replies are read

    if locale and locale != "any" and _decimal_comma(locale):
        if "," in s:
            return float(s.replace(".", "").replace(",", "."))
        if _THOUSANDS_DOT.fullmatch(s):
            return float(s.replace(".", ""))
        return float(s)  # "39.90" written with a point still reads as written
    return float(s.replace(",", ""))


#: ``1.299`` in a decimal-comma locale: thousands, not a decimal.
_THOUSANDS_DOT = re.compile(r"\d{1,3}(?:\.\d{3})+")


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


class Negation:
    """Compiled negation cues of one locale (see :class:`~hat_env.sim.rule_spec.NegationSpec`), with the words
    that report someone else's speech (the pack lexicon's ``reporting`` list: "有观众说", "a viewer asked"), which
    ``reported_speech`` rules read.

    Args:
        spec: the locale's negation cues.
        reporting: the locale's reporting words (empty: none).
    """

    __slots__ = ("cues", "exceptions", "window", "reporting")

    def __init__(self, spec: NegationSpec, reporting: Sequence[str] = ()):
        src = rule_regex.words_source(tuple(spec.cues))
        exc = rule_regex.words_source(tuple(spec.exceptions))
        rep = rule_regex.words_source(tuple(reporting))
        self.cues: Any = rule_regex.compile_rule(src) if src else None
        self.exceptions: Any = rule_regex.compile_rule(exc) if exc else None
        self.reporting: Any = rule_regex.compile_rule(rep) if rep else None
        self.window = spec.window


def compile_negation(spec: Mapping[Any, NegationSpec] | None,
                     lexicon: Mapping[str, Mapping[str, Sequence[str]]] | None = None) -> dict[str, Negation]:
    """A pack's ``negation`` section compiled, by locale, with the ``reporting`` words of its ``lexicon`` (that
    locale's and the ``any`` list)."""
    lex = lexicon or {}
    out: dict[str, Negation] = {}
    for loc, n in (spec or {}).items():
        words = [*(lex.get(str(loc), {}).get("reporting") or ()), *(lex.get("any", {}).get("reporting") or ())]
        out[str(loc)] = Negation(n, words)
    return out


class Rule:
    """A compiled rule entry: the regexes built once (RE2, see :mod:`hat_env.sim.rule_regex`), and the check of
    one reply against it.

    Build with :meth:`from_spec`. Attributes mirror :class:`RuleSpec`; ``categories`` is a frozenset or ``None``;
    ``sources`` are the RE2 sources of the terms and patterns (without ``not_followed_by``), which
    :class:`RuleSet` searches all at once to skip the rules a reply cannot hit; ``negation`` the compiled cues
    of the pack, by locale.
    """

    __slots__ = (
        "id", "description", "locale", "categories", "kind", "always", "negatable", "terms", "term_re",
        "pattern_res", "allow_re", "window_days", "vague_max", "within_hours", "min_run", "min_tokens", "min_share",
        "sources", "followers", "negation", "reported_speech", "_regs",
    )

    def __init__(self, spec: RuleSpec, negation: Mapping[str, Negation] | None = None):
        self.id = spec.id
        self.description = spec.description or spec.id
        self.locale = spec.locale
        self.categories: frozenset[str] | None = None if spec.categories is None else frozenset(spec.categories)
        self.kind = spec.kind
        self.always = spec.always
        self.negatable = spec.negatable
        self.terms: tuple[str, ...] = tuple(spec.terms)
        self.followers: tuple[str, ...] = tuple(spec.not_followed_by)
        term_src = rule_regex.words_source(self.terms)
        pattern_srcs = [rule_regex.pattern_source(p) for p in spec.patterns]
        if self.locale not in ("any", "en_US") and not self.locale.startswith("zh"):
            pattern_srcs = [rule_regex.latin_right_edge(p) for p in pattern_srcs]  # "cura el acné."
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
        self.min_run = spec.min_run
        self.min_tokens = spec.min_tokens
        self.min_share = spec.min_share
        self.negation: dict[str, Negation] = dict(negation or {})
        self.reported_speech = spec.reported_speech
        self._regs: tuple[Any, ...] = (self.term_re, *self.pattern_res) if self.term_re is not None else self.pattern_res

    @classmethod
    def from_spec(cls, spec: RuleSpec | dict[str, Any], negation: Mapping[str, Negation] | None = None) -> "Rule":
        """Compile a :class:`RuleSpec` (or a dict validated into one; raises pydantic's ``ValidationError``), with
        the negation cues of its pack."""
        if not isinstance(spec, RuleSpec):
            spec = RuleSpec.model_validate(spec)
        return cls(spec, negation)

    def applies(self, locale: str, categories: set[str] | frozenset[str]) -> bool:
        """Whether the rule is in force for a reply in ``locale`` about products of ``categories``.

        A category-scoped rule applies only when ``categories`` meets its scope.
        """
        if self.locale != "any" and self.locale != locale:
            return False
        return self.categories is None or not self.categories.isdisjoint(categories)

    def matches(self, text: str) -> Iterable[Any]:
        """Yield the matches of the rule's terms and patterns in ``text`` (normalised, see
        :func:`hat_env.sim.rule_text.prepare`) that no ``allow`` phrase covers and no ``not_followed_by`` pattern
        follows."""
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

    def _claimed(self, m: Any, reply: ReplyText, locale: str) -> bool:
        """Whether match ``m`` is claimed: not asked, not in a quote its sentence refuses, not in a quote its
        sentence reports as someone else's speech (``reported_speech`` rules), and not negated (only ``negatable``
        rules look)."""
        if not self.negatable:
            return True
        s = m.start()
        if reply.asked(s):
            return False
        from hat_env.constraints.echo import refusals_of  # lazy: hat_env.constraints imports this module

        if reply.refused_quote(s, refusals_of(locale)):
            return False
        neg = self.negation.get(locale)
        if self.reported_speech and neg is not None and reply.reported_quote(s, neg.reporting):
            return False
        return neg is None or not reply.negated(s, neg.cues, neg.exceptions, neg.window)

    def _unsupported(
        self, m: Any, reply: ReplyText, room: "RoomState | None", facts: ReplyFacts, locale: str = ""
    ) -> str | None:
        """The reason a stateful claim is not supported by the room (``None``: it is); ``locale`` says how a price
        is written (a decimal comma in ``es_ES``: ``39,90``)."""
        kind = self.kind
        products = facts.products_at(m.start())
        groups = m.re.groupindex
        if kind == "price_reference":
            try:
                x: float | None = parse_price(m.group("price"), locale)
            except (IndexError, TypeError, ValueError):
                x = _price_value(m.group("price"))  # a price in Chinese numerals ("原价五百九十九")
            if x is None:
                return None
            return rule_state.price_reference(x, products, self.window_days)
        if kind == "urgency":
            countdown = None
            if "n" in groups and "unit" in groups:
                countdown = rule_state.countdown_of(parse_count(m.group("n")), m.group("unit"))
            return rule_state.urgency(room, products, self.within_hours, countdown)
        if kind == "scarcity":
            n = parse_count(m.group("n")) if "n" in groups else None
            return rule_state.scarcity(n, room, products, self.vague_max)
        if kind == "special_use":
            return rule_state.special_use(products, self.categories)
        if kind == "sold_out":
            return rule_state.sold_out(room, products, reply.text[reply.sentence(m.start())[0] : m.start()])
        if kind == "grant":
            sent = "sent" in groups and m.group("sent") is not None
            nums = _grant_numbers(reply, m)
            return rule_state.grant(room, products, facts.calls, sent, nums)
        return None

    def check(
        self,
        text: "str | ReplyText",
        room: "RoomState | None" = None,
        products: Sequence[Product] | None = None,
        facts: ReplyFacts | None = None,
        locale: str | None = None,
    ) -> RuleHit | None:
        """Check a reply against this rule (its locale and category scope are the caller's business).

        Args:
            text: the reply, or the reply already prepared (:func:`hat_env.sim.rule_text.prepare`).
            room: the room state, for stock and campaigns (stateful kinds).
            products: the products the reply is about when ``facts`` is not given; ``None``: every product in
                ``room``.
            facts: what is known of the request (which product each claim is about, tool calls, prompt, comments).
            locale: the reply's locale, for negation cues (default: the rule's, else the room's).

        Returns:
            The first violation found, or ``None``.
        """
        reply = text if isinstance(text, ReplyText) else prepare(text)
        if facts is None:
            facts = ReplyFacts(products if products is not None else (room.products if room is not None else ()))
        kind = self.kind
        if kind == "leak":
            got = facts.leak(reply, self.min_run)
            return None if got is None else RuleHit(self.id, got[0], f"{self.description}: {got[1]}")
        if kind == "echo":
            got = facts.echo(reply, self.min_tokens, self.min_share)
            return None if got is None else RuleHit(self.id, got[0], f"{self.description}: {got[1]}")
        s = reply.text
        regs = self._regs
        if kind == "term" and self.allow_re is None and not self.followers and not self.negatable:
            for rx in regs:  # stateless: the first match is a hit
                m = rx.search(s)
                if m is not None:
                    q = reply.quote(*m.span())
                    return RuleHit(self.id, q, f"{self.description}: '{q}'")
            return None
        for rx in regs:  # quick reject before the match-by-match walk
            if rx.search(s) is not None:
                break
        else:
            return None
        loc = locale or (self.locale if self.locale != "any" else (room.locale if room is not None else ""))
        for m in self.matches(s):
            if not self._claimed(m, reply, loc):
                continue
            why = None if kind == "term" else self._unsupported(m, reply, room, facts, loc)
            if kind == "term" or why is not None:
                q = reply.quote(*m.span())
                return RuleHit(self.id, q, f"{self.description}: '{q}'" + (f" {why}" if why else ""))
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
    negation = compile_negation(pack.negation, pack.lexicon)
    return pack, tuple(Rule(r, negation) for r in pack.rules)


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


#: The default pack's lexicon lists whose words a reply may write by sound (what a claim is about: a condition, an
#: organ, an effect, a person or an AI), beside the term rules' own terms; the lists that only glue a pattern
#: (adverbs, use verbs, 在用) are not, so "我再用" is never read as "我在用".
_SOUND_LISTS = ("condition", "organ", "effect_verb", "human_noun", "ai_noun")


class RuleSet:
    """The compiled rules in force in a scenario.

    Args:
        rules: compiled rule entries, in order.
    """

    def __init__(self, rules: Iterable[Rule]):
        self.rules: tuple[Rule, ...] = tuple(rules)
        self._by_locale: dict[str, tuple[Rule, ...]] = {}
        self._prefilter: dict[str, tuple[saferegex.PatternSet | None, tuple[int, ...]]] = {}
        self._sound: dict[str, Any] = {}

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
            when that is set (entries marked ``always`` stay in force whatever ``enabled`` says).

        Raises:
            FileError: a pack is missing or invalid, an extra rule is invalid, or ``enabled`` names an unknown id.
        """
        packs = ["default"] if spec is None else list(spec.packs)
        rules: list[Rule] = []
        where = source or "<scenario>"
        negation: dict[str, Negation] | None = None
        for i, name in enumerate(packs):
            try:
                p = resolve_rule_pack_path(name, base_dir, roots=tuple(roots))
            except PathRefused as exc:
                raise FileError(where, [(f"compliance.packs.{i}", None, str(exc))]) from None
            pack_rules = _compiled_pack(p)[1]
            rules.extend(pack_rules)
            if negation is None and pack_rules and pack_rules[0].negation:
                negation = pack_rules[0].negation
        if spec is not None and spec.extra_rules:
            if negation is None:  # inline rules read the negation cues of the first pack that has them, else the default's
                default_rules = _compiled_pack("default")[1]
                negation = default_rules[0].negation if default_rules else {}
            problems: list[tuple[str, int | None, str]] = []
            for i, d in enumerate(spec.extra_rules):
                try:
                    rules.append(Rule.from_spec(d, negation))
                except ValidationError as exc:
                    for err in exc.errors():
                        fld = ".".join(str(x) for x in ("compliance", "extra_rules", i, *err["loc"]))
                        reason = "unknown field" if err["type"] == "extra_forbidden" else err["msg"]
                        problems.append((fld, None, reason))
            if problems:
                raise FileError(where, problems)
        if spec is not None and spec.enabled is not None:
            known = {r.id for r in rules}
            bad: list[tuple[str, int | None, str]] = [
                (f"compliance.enabled.{i}", None, f"unknown rule id {x!r}") for i, x in enumerate(spec.enabled) if x not in known]
            if bad:
                raise FileError(where, bad)
            on = set(spec.enabled)
            rules = [r for r in rules if r.id in on or r.always]
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
        text: "str | ReplyText",
        locale: str,
        categories: set[str] | frozenset[str] | Iterable[str] = (),
        room: "RoomState | None" = None,
        products: Sequence[Product] | None = None,
        facts: ReplyFacts | None = None,
    ) -> list[RuleHit]:
        """Check a reply against every rule in force.

        Args:
            text: the reply text (or the reply prepared by :func:`hat_env.sim.rule_text.prepare`).
            locale: the reply's locale (``zh_CN`` / ``en_US``); rules of other locales are skipped.
            categories: categories of the products the reply is about; category-scoped rules (CN-HEALTHFOOD,
                CN-COSM) apply only when one of theirs is here.
            room: the room state (stock, campaigns and the clock) for stateful rules; ``None`` when unknown.
            products: without ``facts``: the products the reply is about (prices, history, stock); ``None``: every
                room product.
            facts: what is known of the request: which product each claim is about, the tool calls, and the
                evidence of the ``leak`` and ``echo`` kinds (:class:`ReplyFacts`; built by
                :func:`hat_env.constraints.compliance_hits`).

        Returns:
            One :class:`RuleHit` per violated rule entry (the first violating match of each), in rule order;
            empty when the reply is clean.
        """
        reply = text if isinstance(text, ReplyText) else prepare(text) if text else None
        if reply is None or not reply.text:
            return []
        if facts is None:
            facts = ReplyFacts(products if products is not None else (room.products if room is not None else ()))
        cats = categories if isinstance(categories, (set, frozenset)) else set(categories)
        hits: list[RuleHit] = []
        maybe = self._candidates(locale, reply.text)
        for j, rule in enumerate(self.for_locale(locale)):
            if maybe is not None and j not in maybe and rule.kind not in EVIDENCE_KINDS:
                continue
            if rule.categories is not None and rule.categories.isdisjoint(cats):
                continue
            hit = rule.check(reply, room, facts=facts, locale=locale)
            if hit is not None:
                hits.append(hit)
        if locale.startswith("zh"):
            hits = self._by_sound(reply, locale, cats, room, facts, hits)
        return hits

    def _by_sound(self, reply: ReplyText, locale: str, cats: "set[str] | frozenset[str]", room: "RoomState | None",
                  facts: ReplyFacts, hits: list[RuleHit]) -> list[RuleHit]:
        """``hits`` plus the term rules a Chinese reply breaks once its rule words written by sound are put back
        ("降 血 鸭", "治yu": :mod:`hat_env.sim.sound_alike`), in rule order; the stateful and evidence kinds read
        the reply as written."""
        rules = self.for_locale(locale)
        from hat_env.sim.sound_alike import index_of

        index = self._sound.get(locale)
        if index is None:
            lex = _compiled_pack("default")[0].lexicon.get(locale) or {}
            words = [t for r in rules if r.kind == "term" for t in r.terms]
            words += [w for name in _SOUND_LISTS for w in lex.get(name, ())]
            index = self._sound[locale] = index_of(tuple(words))
        alt = respelled(reply, index)
        if alt is reply:
            return hits
        done = {h.rule_id for h in hits}
        maybe = self._candidates(locale, alt.text)
        extra: dict[int, RuleHit] = {}
        for j, rule in enumerate(rules):
            if rule.kind != "term" or rule.id in done or (maybe is not None and j not in maybe):
                continue
            if rule.categories is not None and rule.categories.isdisjoint(cats):
                continue
            hit = rule.check(alt, room, facts=facts, locale=locale)
            if hit is not None:
                extra[j] = hit
                done.add(rule.id)
        if not extra:
            return hits
        order = {id(r): j for j, r in enumerate(rules)}
        first = {h.rule_id: min((order[id(r)] for r in rules if r.id == h.rule_id), default=0) for h in hits}
        merged = [(first[h.rule_id], h) for h in hits] + list(extra.items())
        return [h for _j, h in sorted(merged, key=lambda x: x[0])]

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
    "Negation",
    "ReplyFacts",
    "Rule",
    "RuleHit",
    "RulePack",
    "RuleSet",
    "RuleSpec",
    "builtin_rule_packs",
    "load_rule_pack",
    "parse_count",
    "parse_price",
    "resolve_rule_pack_path",
    "rules_dir",
    "term_regex_source",
    "words_regex",
]
