"""Compliance rules as data: rule packs (YAML), a compiled :class:`RuleSet`, and the check a reply must pass.

This module holds the rule set; the compiled rule, its hit, the request facts and the negation cues are
:mod:`hat_env.sim.rule_compiled`; loading packs :mod:`hat_env.sim.rule_packs`; numbers :mod:`hat_env.sim.rule_numbers`;
plain words as regexes :mod:`hat_env.sim.rule_terms`. Every public name stays importable from here.

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

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from pydantic import ValidationError

from hat_env import saferegex
from hat_env.confine import PathRefused
from hat_env.sim.catalog import Product
from hat_env.sim.rule_compiled import Negation, ReplyFacts, Rule, RuleHit, compile_negation
from hat_env.sim.rule_numbers import parse_count, parse_price
from hat_env.sim.rule_packs import (
    _compiled_pack,
    _load_pack_cached,
    builtin_rule_packs,
    load_rule_pack,
    resolve_rule_pack_path,
    rules_dir,
)
from hat_env.sim.rule_spec import EVIDENCE_KINDS, RulePack, RuleSpec
from hat_env.sim.rule_terms import term_regex_source, words_regex
from hat_env.sim.rule_text import ReplyText, prepare, respelled
from hat_env.yamlio import FileError

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import ComplianceSpec, Scenario


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

    @property
    def false_claim_ids(self) -> frozenset[str]:
        """The ids of the rules marked ``false_claim``: a hit of one also fails accuracy (a medical effect no
        product's data can state)."""
        return frozenset(r.id for r in self.rules if r.false_claim)

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
    "compile_negation",
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
