"""The claims engine's vocabulary, per locale, as data: ``hat_env/scoring/claims/vocab/<locale>.yaml``.

Each file names, as regexes over the normalised reply, the words the engine reads: clause boundaries, negation,
questions, honest "the data does not say" phrases, units with their dimension and conversion factor, money
roles (threshold, coupon, reference, ...), availability, shipping, returns, campaign and promise words, health
topics, features, spec attribute keywords and order-status words. Files are loaded once (safely) and compiled;
a new locale or domain is a new file. Keys missing from a locale's file are empty (nothing matched).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from hat_env.yamlio import load_yaml

VOCAB_DIR = Path(__file__).with_name("vocab")

_LISTS = (
    "clause_words", "negation", "question", "honest_unknown", "unavailable", "id_before", "pay_words", "in_stock",
    "sold_out", "low_stock", "sales_figures", "reviews", "ship_words", "deliver_words", "same_day", "next_day",
    "free_shipping", "paid_shipping", "returns_words", "exchange_words", "warranty_words", "lifetime_words", "eta_words",
    "no_questions", "coupon_words", "coupon_conditions", "use_coupon", "promo_code", "flash_words", "ended_words",
    "active_words", "countdown", "deadline_words", "bundle_words", "stacking_words", "gift_words", "free_item",
    "guarantee", "absolute_degree", "health", "health_denial", "ai_disclosure", "human_claim", "greeting",
    "insult", "deal_words", "no_deal", "link_ref", "link_range", "link_list_more", "group_words", "count_before", "no_coupon", "money_after_pay", "money_per_item_after", "money_after_count", "exact_restatement", "pay_before",
    "not_money_after", "negation_after", "usage_duration_before", "buy_words", "certification", "absolute_price", "ranking", "effect_claims", "inactive_words", "leak_words", "dismissive",
    "approximate", "host_promise", "ending_soon", "refusal", "stock_context", "clause_question", "replace_words", "data_lacks", "ample_stock", "no_discount", "size_advice", "exclusive", "supply_words", "per_day", "per_day_after",
    "reported_speech", "condition", "per_unit_after", "per_item_after", "per_unit_lead", "per_unit_filler", "fee_free", "fee_nouns", "no_fees", "gift_object", "gift_generic", "gift_measure", "subject_pronouns", "measure_upper", "measure_lower", "conversion_words", "conversion_breaks", "dimension_words", "deal_nouns", "price_question", "opinion_question", "yes_reply", "no_reply", "no_reason", "conditional", "advice", "suits_frame", "suits_stop", "purity", "caution", "free_of", "free_of_stop", "age_after", "feature_frame",
    "denied_after", "inclusion", "hedged_vow", "compared_after", "yardstick_before", "yardstick_after", "list_gap", "money_list_gap", "bundle_nxm", "bundle_buy_free",
    "unit_equals", "unit_basis", "stream_time_before", "all_values", "yes_no_core", "counted_per_after", "counted_per_before",
    "region_not_shipped", "region_extra_fee", "region_free_there", "region_everywhere",
    "restocking_words", "coverage_words", "return_shipping_free", "return_shipping_words", "return_shipping_covered",
    "return_shipping_paid", "return_verbs", "condition_unmet",
    "comes_with", "ships_on_order", "free_over_words", "free_over_after", "deal_lasts_stream", "deal_lasts_beyond",
    "add_another", "buy_together", "threshold_reached", "data_nouns", "data_only", "extra_discount",
    "audience_before", "audience_after", "order_amount_before", "order_amount_after", "size_question",
    "range_top_before", "total_words",
)


@dataclass(frozen=True, slots=True)
class Unit:
    """One unit: its name, dimension (``money``, ``time_h``, ``time_m``, ``percent``, ``zhe``, ``mass``...), the
    factor to the dimension's base unit (days -> 24 hours), and the regex of its words."""

    name: str
    dim: str
    factor: float
    words: re.Pattern[str]
    prefix: re.Pattern[str] | None = None
    #: added after the factor (an offset scale: °F to a base of °C)
    offset: float = 0.0

    def to_base(self, x: float) -> float:
        """``x`` of this unit in the dimension's base unit (``x * factor + offset``)."""
        return x * self.factor + self.offset


@dataclass(frozen=True)
class Vocab:
    """A locale's compiled vocabulary (see the module docstring).

    Attributes:
        locale: the locale (``zh_CN``, ``en_US``).
        lang: its language (``zh``, ``en``): Chinese has no spaces between words.
        rx: name -> one compiled alternation of the list's regexes (``None`` when the list is empty).
        units: the units, in file order.
        unit_rx: one regex matching any unit word right after a number (group name = unit name).
        prefix_rx: one regex matching a currency sign right before a number.
        money_roles: role -> (before regex, after regex).
        features: feature -> regex of its words.
        features_no: feature -> regex of data phrases saying the product does not have it ("adults only").
        features_yes: feature -> regex of data phrases saying the product has it in other words (a title's
            "0-6个月" says a pacifier is for babies).
        attributes: spec attribute key -> regex of its words.
        values: spec attribute key -> known values (lower-case).
        order_status: status -> regex.
        carriers: carrier names the locale knows (the room's own carriers are added by the engine).
        bundle_terms: spoken bundle terms ("第二件半价") -> (regex, quantity, percent off the set).
        low_stock_max: at most this many units count as "only a few left".
    """

    locale: str
    lang: str
    rx: dict[str, re.Pattern[str] | None]
    units: tuple[Unit, ...]
    unit_rx: re.Pattern[str]
    prefix_rx: re.Pattern[str]
    money_roles: dict[str, tuple[re.Pattern[str] | None, re.Pattern[str] | None]]
    features: dict[str, re.Pattern[str]]
    features_no: dict[str, re.Pattern[str]]
    attributes: dict[str, re.Pattern[str]]
    values: dict[str, tuple[str, ...]]
    order_status: dict[str, re.Pattern[str]]
    low_stock_max: int = 10
    negation_window: int = 30
    name_stopwords: frozenset[str] = frozenset()
    link_patterns: tuple[re.Pattern[str], ...] = ()
    range_patterns: tuple[re.Pattern[str], ...] = ()
    carriers: tuple[str, ...] = ()
    shipping_focus: dict[str, re.Pattern[str]] = field(default_factory=dict)
    bundle_terms: tuple[tuple[re.Pattern[str], int, int], ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, repr=False)
    features_yes: dict[str, re.Pattern[str]] = field(default_factory=dict)

    def find(self, name: str, text: str) -> re.Match[str] | None:
        """The first match of list ``name`` in ``text`` (``None`` when none or the list is empty)."""
        r = self.rx.get(name)
        return r.search(text) if r is not None else None

    def all(self, name: str, text: str) -> list[re.Match[str]]:
        """Every match of list ``name`` in ``text``."""
        r = self.rx.get(name)
        return list(r.finditer(text)) if r is not None else []


#: Longest text the engine reads (characters); replies are far shorter (harness limits are in the hundreds).
MAX_TEXT = 4000


def _nested_repeat(tree: Any, inside: bool = False) -> bool:
    """Whether a parsed pattern repeats, without bound, something that itself repeats without bound (``(a+)+``):
    the shape that makes a backtracking engine take exponential time."""
    from re import _constants as c  # type: ignore[attr-defined]

    for op, av in tree:
        if op in (c.MAX_REPEAT, c.MIN_REPEAT, getattr(c, "POSSESSIVE_REPEAT", None)):
            lo, hi, sub = av
            unbounded = hi == c.MAXREPEAT or hi > 100
            if unbounded and inside:
                return True
            if _nested_repeat(sub, inside or unbounded):
                return True
        elif op is c.SUBPATTERN:
            if _nested_repeat(av[-1], inside):
                return True
        elif op is c.BRANCH:
            if any(_nested_repeat(b, inside) for b in av[1]):
                return True
        elif op in (c.ASSERT, c.ASSERT_NOT):
            if _nested_repeat(av[1], inside):
                return True
    return False


def _alt(path: Path, key: str, pats: Any) -> re.Pattern[str] | None:
    """One case-insensitive alternation of the list's patterns. Patterns are Python regexes (lookaround
    allowed: the files ship with the package); one that repeats a repetition without bound is refused, so no
    file makes matching take more than linear-ish time on a reply (which is also cut at :data:`MAX_TEXT`)."""
    from re import _parser  # type: ignore[attr-defined]

    if not pats:
        return None
    if not isinstance(pats, list) or not all(isinstance(p, str) for p in pats):
        raise ValueError(f"{path}: {key}: expected a list of regex strings")
    for p in pats:
        try:
            tree = _parser.parse(p, re.IGNORECASE)
        except re.error as exc:
            raise ValueError(f"{path}: {key}: bad regex {p!r}: {exc}") from None
        if _nested_repeat(tree):
            raise ValueError(f"{path}: {key}: regex {p!r} repeats a repetition without bound (exponential matching)")
    try:
        return re.compile("|".join(f"(?:{p})" for p in pats), re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"{path}: {key}: bad regex: {exc}") from None


def _bundle_term(path: Path, b: Any) -> tuple[re.Pattern[str], int, int]:
    """One ``bundle_terms`` entry: ``(regex, quantity, percent off)``."""
    if not isinstance(b, dict) or not {"pattern", "qty", "pct"} <= set(b):
        raise ValueError(f"{path}: bundle_terms: each needs 'pattern', 'qty' and 'pct'")
    return re.compile(str(b["pattern"]), re.IGNORECASE), int(b["qty"]), int(b["pct"])


def _lists(data: dict[str, Any]) -> dict[str, Any]:
    """The file's lists with what follows from their meaning added: saying what the data lacks (``data_lacks``:
    "the listing doesn't say", "资料里没有写") is an honest "the data does not say", so every ``data_lacks`` pattern
    is also one of ``honest_unknown`` (a file writes each once, under the narrower list)."""
    out = {k: data.get(k) for k in _LISTS}
    lacks = out.get("data_lacks") or []
    if isinstance(lacks, list) and lacks:
        hu = list(out.get("honest_unknown") or [])
        out["honest_unknown"] = hu + [p for p in lacks if p not in hu]
    return out


def _compile(path: Path, data: dict[str, Any]) -> Vocab:
    """Compile one locale file's data (``path`` names it in errors)."""
    rx = {k: _alt(path, k, pats) for k, pats in _lists(data).items()}
    units: list[Unit] = []
    unit_parts: list[str] = []
    prefix_parts: list[str] = []
    for name, u in (data.get("units") or {}).items():
        if not isinstance(u, dict) or "dim" not in u or "words" not in u:
            raise ValueError(f"{path}: units.{name}: needs 'dim' and 'words'")
        words = _alt(path, f"units.{name}.words", u["words"])
        prefix = _alt(path, f"units.{name}.prefix", u.get("prefix"))
        assert words is not None
        units.append(Unit(name, str(u["dim"]), float(u.get("factor", 1)), words, prefix, float(u.get("offset", 0))))
        unit_parts.append(f"(?P<{name}>{'|'.join(f'(?:{w})' for w in u['words'])})")
        if u.get("prefix"):
            prefix_parts.append(f"(?P<{name}>{'|'.join(f'(?:{w})' for w in u['prefix'])})")
    unit_rx = re.compile(r"(?:\s|-)?(?:" + "|".join(unit_parts) + r")", re.IGNORECASE)
    prefix_rx = re.compile(r"(?:" + ("|".join(prefix_parts) or "(?!x)x") + r")\s?$", re.IGNORECASE)
    roles = {}
    for role, d in (data.get("money_roles") or {}).items():
        roles[role] = (_alt(path, f"money_roles.{role}.before", d.get("before")),
                       _alt(path, f"money_roles.{role}.after", d.get("after")))

    def table(key: str) -> dict[str, re.Pattern[str]]:
        """A mapping of name -> list of patterns, compiled."""
        out = {}
        for k, pats in (data.get(key) or {}).items():
            r = _alt(path, f"{key}.{k}", pats)
            if r is not None:
                out[str(k)] = r
        return out

    features: dict[str, re.Pattern[str]] = {}
    features_no: dict[str, re.Pattern[str]] = {}
    features_yes: dict[str, re.Pattern[str]] = {}
    for k, spec in (data.get("features") or {}).items():
        words = spec.get("words") if isinstance(spec, dict) else spec
        r = _alt(path, f"features.{k}", words)
        if r is not None:
            features[str(k)] = r
        if isinstance(spec, dict) and spec.get("data_no"):
            rn = _alt(path, f"features.{k}.data_no", spec["data_no"])
            assert rn is not None
            features_no[str(k)] = rn
        if isinstance(spec, dict) and spec.get("data_yes"):
            ry = _alt(path, f"features.{k}.data_yes", spec["data_yes"])
            assert ry is not None
            features_yes[str(k)] = ry
    values = {str(k): tuple(str(x).lower() for x in v or ()) for k, v in (data.get("values") or {}).items()}
    return Vocab(
        locale=str(data.get("locale") or path.stem), lang=str(data.get("lang") or "en"), rx=rx, units=tuple(units),
        unit_rx=unit_rx, prefix_rx=prefix_rx, money_roles=roles, features=features, features_no=features_no,
        attributes=table("attributes"), values=values, order_status=table("order_status"),
        low_stock_max=int(data.get("low_stock_max", 10)), negation_window=int(data.get("negation_window", 30)),
        name_stopwords=frozenset(str(w).lower() for w in data.get("name_stopwords") or ()),
        link_patterns=tuple(re.compile(p, re.IGNORECASE) for p in data.get("link_ref") or ()),
        range_patterns=tuple(re.compile(p, re.IGNORECASE) for p in data.get("link_range") or ()),
        carriers=tuple(str(c) for c in data.get("carriers") or ()), shipping_focus=table("shipping_focus"),
        bundle_terms=tuple(_bundle_term(path, b) for b in data.get("bundle_terms") or ()), raw=data,
        features_yes=features_yes,
    )


def available_locales() -> list[str]:
    """Locales with a vocabulary file."""
    return sorted(p.stem for p in VOCAB_DIR.glob("*.yaml"))


@lru_cache(maxsize=16)
def load_vocab(locale: str) -> Vocab:
    """The compiled vocabulary of ``locale`` (loaded once).

    Args:
        locale: ``zh_CN``, ``en_US``...; a locale without its own file takes a file of the same language
            (``en_GB`` -> ``en_US``), else ``en_US``.

    Raises:
        ValueError: the file is not a mapping or a pattern is not a valid regex (the message names the file and
            key).
    """
    path = VOCAB_DIR / f"{locale}.yaml"
    if not path.exists():
        lang = locale.split("_")[0]
        same = [p for p in sorted(VOCAB_DIR.glob(f"{lang}_*.yaml"))]
        path = same[0] if same else VOCAB_DIR / "en_US.yaml"
    data, _ = load_yaml(path)  # safe, bounded, and a key written twice is an error naming both lines
    if not isinstance(data, dict):
        raise ValueError(f"{path}: expected a mapping")
    return _compile(path, data)


#: dimension of the room's catalog vocabulary -> (the engine's dimension, factor from its base unit to the
#: engine's): grams, millilitres and hours are both sides' bases; the catalog measures length in centimetres and
#: the engine in millimetres (its locale files: mm 1, cm 10, inch 25.4), so "60 in" of a room unit and "152 cm" of
#: the locale's meet in one base
_ROOM_DIMS: dict[str, tuple[str, float]] = {"mass": ("mass", 1.0), "volume": ("volume", 1.0),
                                            "length": ("length", 10.0), "time": ("time_h", 1.0),
                                            "power": ("power", 1.0), "charge": ("capacity", 1.0),
                                            "ratio": ("percent", 1.0), "temperature": ("temperature", 1.0)}
_WITH_UNITS: dict[tuple[str, str], Vocab] = {}


def with_room_units(vocab: Vocab, catalog_vocabulary: Any) -> Vocab:
    """``vocab`` plus the units of a room's catalog vocabulary (:class:`hat_env.sim.vocabulary.Vocabulary`) whose
    words it does not read ("24 lb bag", "12 oz", "14 °Bx"), so a spec value with such a unit is a measure, not an
    amount of money. Words the locale file already reads keep its reading. Cached per locale and unit table.

    Args:
        vocab: the locale's vocabulary (:func:`load_vocab`).
        catalog_vocabulary: the room's catalog vocabulary, or ``None`` (``vocab`` is returned as is).
    """
    units = getattr(catalog_vocabulary, "units", None)
    if units is None:
        return vocab
    table = sorted((u.name, u.dimension, u.factor, tuple(u.words), getattr(u, "offset", 0.0)) for u in units.units.values())
    key = (vocab.locale, repr(table))
    hit = _WITH_UNITS.get(key)
    if hit is not None:
        return hit
    from dataclasses import replace

    new_units: list[Unit] = []
    parts: list[str] = []
    for name, dim, factor, words, offset in table:
        fresh = []
        for w in words:
            m = vocab.unit_rx.match(" " + w)
            if m is not None and m.end() == len(w) + 1:
                continue  # the locale file reads this word already
            esc = re.escape(w).replace(r"\ ", r"\s+")
            fresh.append(esc + r"(?![a-z])" if w[-1:].isascii() and w[-1:].isalpha() else esc)
        if not fresh:
            continue
        edim, scale = _ROOM_DIMS.get(dim, (f"room:{dim}", 1.0))
        uname = f"room_{name}"
        alt = "|".join(sorted(fresh, key=len, reverse=True))
        new_units.append(Unit(uname, edim, factor * scale, re.compile(alt, re.IGNORECASE), None, offset * scale))
        parts.append(f"(?P<{uname}>{alt})")
    if not parts:
        hit = vocab
    else:
        # the room's units first: a room's word is the more specific one ("inch-pounds" of torque, not "inch")
        pat, head = vocab.unit_rx.pattern, r"(?:\s|-)?(?:"
        assert pat.startswith(head)
        hit = replace(vocab, units=(*vocab.units, *new_units),
                      unit_rx=re.compile(head + "|".join(parts) + "|" + pat[len(head):], re.IGNORECASE))
    if len(_WITH_UNITS) > 64:
        _WITH_UNITS.clear()
    _WITH_UNITS[key] = hit
    return hit


#: Which list of the claims vocabulary a campaign type's words (a catalog vocabulary's ``campaign_words``) join.
_DEAL_LISTS = {"bundle": "bundle_words", "coupon": "coupon_words", "flash_sale": "flash_words", "gift": "gift_words"}
_WITH_DEALS: dict[tuple[int, str], tuple[Any, Vocab, Vocab]] = {}


def with_room_deal_words(vocab: Vocab, catalog_vocabulary: Any) -> Vocab:
    """``vocab`` plus the deal words a room's catalog vocabulary adds for its campaigns (``campaign_words`` of
    the reply's locale, beyond those of the default vocabulary): a baby room's "第二瓶半价" names its bundle as the
    locale's "第二件" does. Words are literal; the locale's lists keep their patterns. Cached per vocabulary.

    Args:
        vocab: the locale's vocabulary (possibly with the room's units, :func:`with_room_units`).
        catalog_vocabulary: the room's catalog vocabulary (:class:`hat_env.sim.vocabulary.Vocabulary`), or
            ``None`` (``vocab`` is returned as is).
    """
    words_of = getattr(catalog_vocabulary, "campaign_words", None)
    if words_of is None:
        return vocab
    key = (id(catalog_vocabulary), repr((vocab.locale, vocab.unit_rx.pattern)))
    hit = _WITH_DEALS.get(key)
    if hit is not None and hit[0] is catalog_vocabulary and hit[1] is vocab:
        return hit[2]
    from dataclasses import replace

    from hat_env.sim.vocabulary import default_vocabulary
    from hat_env.text import normalize

    base = default_vocabulary().campaign_words(vocab.locale)
    rx = dict(vocab.rx)
    for kind, words in words_of(vocab.locale).items():
        name = _DEAL_LISTS.get(kind)
        # as the reply is read: normalised ("第二瓶半价" -> "第2瓶半价")
        own = sorted({normalize(w, vocab.locale).text.lower() for w in words if w and w not in base.get(kind, ())},
                     key=len, reverse=True)
        if name is None or not own:
            continue
        old = rx.get(name)
        alt = "|".join(re.escape(w) for w in own)
        rx[name] = re.compile(f"{old.pattern}|{alt}" if old is not None else alt, re.IGNORECASE)
    out = replace(vocab, rx=rx) if rx != vocab.rx else vocab
    if len(_WITH_DEALS) > 64:
        _WITH_DEALS.clear()
    _WITH_DEALS[key] = (catalog_vocabulary, vocab, out)
    return out


__all__ = ["MAX_TEXT", "VOCAB_DIR", "Unit", "Vocab", "available_locales", "load_vocab", "with_room_deal_words",
           "with_room_units"]
