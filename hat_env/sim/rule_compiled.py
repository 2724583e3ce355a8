"""One compiled compliance rule (:class:`Rule`), its hit (:class:`RuleHit`), the facts of a request it reads
(:class:`ReplyFacts`) and the compiled negation cues of a pack (:class:`Negation`).

Split out of :mod:`hat_env.sim.compliance` (which keeps the rule set and re-exports these names). The pack format is
:mod:`hat_env.sim.rule_spec`; the regexes :mod:`hat_env.sim.rule_regex`; the text reading
:mod:`hat_env.sim.rule_text`; the stateful predicates :mod:`hat_env.sim.rule_state`; numbers
:mod:`hat_env.sim.rule_numbers`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from hat_env.sim import rule_regex, rule_state
from hat_env.sim.catalog import Product
from hat_env.sim.rule_numbers import _grant_numbers, _price_value, parse_count, parse_price
from hat_env.sim.rule_spec import NegationSpec, RuleSpec
from hat_env.sim.rule_text import ReplyText, prepare

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.types import ExecutedCall


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
        "sources", "followers", "negation", "reported_speech", "false_claim", "_regs",
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
        self.false_claim = spec.false_claim
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
