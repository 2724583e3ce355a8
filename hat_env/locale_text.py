"""The text sections of a locale file that the renderer and the reference host say: the system prompt's fixed
strings (``prompt``), the host's fixed texts (``host``: fallback reply, AI disclosure), number and money formats
(``formats``) and the reference composer's sentences (``reply.sentences``).

Every template names its placeholders by plain name (``{price}``; no attribute, index, conversion or format spec),
and each key allows only the placeholders listed here (:data:`PROMPT_FIELDS`, :data:`SENTENCE_FIELDS`), so no
locale file or harness can reach beyond the strings it is handed. A harness may override any prompt string
(``prompt.strings``), checked against the same table.
"""

from __future__ import annotations

import string
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, model_validator

from hat_env.yamlio import FieldError

#: ``(required, allowed)`` placeholders of each prompt string. ``name`` and the mappings are not templates.
PROMPT_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "user_header": (frozenset(), frozenset()),
    "product_line": (frozenset({"link", "title"}), frozenset({"link", "title", "product_id", "category"})),
    "campaign_line": (frozenset({"title"}), frozenset({"title", "type"})),
    "no_campaigns": (frozenset(), frozenset()),
    "skill_line": (frozenset({"name"}), frozenset({"name", "description"})),
    "room_line": (frozenset(), frozenset({"host_name", "ai_label", "shop_name"})),
    "max_reply_chars": (frozenset({"n"}), frozenset({"n"})),
    "require_reply_skill": (frozenset({"skill_tool"}), frozenset({"skill_tool"})),
    "forbidden_words": (frozenset({"words"}), frozenset({"words"})),
    "required_disclosure": (frozenset({"text"}), frozenset({"text"})),
    "turn_limit": (frozenset({"n"}), frozenset({"n"})),
    "instruction": (frozenset({"text"}), frozenset({"text"})),
    "list_sep": (frozenset(), frozenset()),
    # optional lines under a product line, only for products that have variants or shipping regions
    "variants_line": (frozenset(), frozenset({"variants"})),
    "regions_line": (frozenset(), frozenset({"regions"})),
    "region_fee": (frozenset(), frozenset({"names", "fee"})),
    "region_no_ship": (frozenset(), frozenset({"names"})),
}

_REF = frozenset({"L", "Ls", "Lm"})
#: The reference composer's sentences: key -> (number of wordings: 1 a single string, 2 full and short, 3 longest
#: first; allowed placeholders). ``L``/``Ls``/``Lm`` are the link reference at sentence start, its short form and
#: the reference mid-sentence (``ref_*``); a placeholder named after another key (``{via}``, ``{eta}``) takes that
#: key's text, or nothing when the fact is absent.
SENTENCE_FIELDS: dict[str, tuple[int, frozenset[str]]] = {
    # link references
    "ref_full": (1, frozenset({"n"})),
    "ref_short": (1, frozenset({"n"})),
    "ref_mid": (1, frozenset({"n"})),
    "ref_none": (1, frozenset()),
    "ref_none_mid": (1, frozenset()),
    # a tool failed
    "unavailable": (3, frozenset({"ref"})),
    "unavailable_product": (1, _REF),
    "unavailable_none": (1, frozenset()),
    "unavailable_order": (1, frozenset({"order_id"})),
    "unavailable_order_none": (1, frozenset()),
    # price
    "price_title": (1, frozenset({"title"})),
    "price_coupon": (3, _REF | {"T", "price", "coupon"}),
    "price_now": (3, _REF | {"T", "price"}),
    # spec
    "spec": (3, _REF | {"label", "value"}),
    # stock
    "stock_in": (3, _REF | {"n"}),
    "stock_out": (3, _REF | {"alt"}),
    "sold_out_alt": (1, frozenset({"alt"})),
    "sold_out_other": (1, frozenset()),
    # campaigns
    "coupon": (3, _REF | {"coupon", "over", "sale"}),
    "coupon_over": (1, frozenset({"threshold"})),
    "coupon_sale": (1, frozenset({"flash"})),
    "flash": (3, _REF | {"flash"}),
    "deal": (3, _REF | {"full", "short"}),
    "deal_threshold": (2, frozenset({"amount", "threshold"})),
    "deal_coupon": (2, frozenset({"amount"})),
    "deal_gift": (2, frozenset({"gift"})),
    "deal_bundle": (2, frozenset({"title"})),
    "no_campaign": (3, _REF),
    # shipping
    "shipping": (3, _REF | {"hours", "via", "cost"}),
    "shipping_via": (1, frozenset({"carrier"})),
    "shipping_free": (1, frozenset()),
    "shipping_fee": (1, frozenset({"fee"})),
    "shipping_free_focus": (3, _REF | {"hours", "via"}),
    "shipping_fee_focus": (3, _REF | {"hours", "via", "fee"}),
    "shipping_carrier_focus": (3, _REF | {"hours", "carrier", "cost"}),
    # after-sales
    "returns": (3, _REF | {"days", "exchange", "warranty"}),
    "no_returns": (3, _REF | {"days", "warranty"}),
    "returns_exchange": (1, frozenset()),
    "warranty": (1, frozenset({"months"})),
    # order status
    "order": (3, frozenset({"id", "status", "status_short", "eta"})),
    "order_id": (1, frozenset({"order_id"})),
    "order_eta": (3, frozenset({"eta", "days"})),
    "day_one": (1, frozenset()),
    "day_other": (1, frozenset()),
    # compare
    "compare": (3, frozenset({"first", "First", "second", "T1", "T2", "p1", "p2"})),
    "compare_first": (1, frozenset({"n"})),
    "compare_first_none": (1, frozenset()),
    "compare_second": (1, frozenset({"n"})),
    "compare_second_none": (1, frozenset()),
    "compare_title": (1, frozenset({"title"})),
    # purchase
    "purchase": (3, _REF | {"head", "price", "sent"}),
    "purchase_pinned": (1, _REF),
    "purchase_ready": (1, _REF),
    "purchase_sent": (3, frozenset({"coupon"})),
    # open catalog (hat_env.agents.reply_catalog): shipping windows and fees
    "ship_window": (3, _REF | {"when", "via", "cold", "cost", "oversize", "install"}),
    "ships_within": (1, frozenset({"span"})),
    "ships_in_range": (1, frozenset({"span"})),
    "window_hours": (1, frozenset({"max"})),
    "window_hours_one": (1, frozenset({"max"})),
    "window_days": (1, frozenset({"max"})),
    "window_days_one": (1, frozenset({"max"})),
    "window_range_hours": (1, frozenset({"min", "max"})),
    "window_range_days": (1, frozenset({"min", "max"})),
    "window_cold_chain": (1, frozenset()),
    "window_oversize": (1, frozenset({"fee"})),
    "window_install_free": (1, frozenset()),
    "window_install_fee": (1, frozenset({"fee"})),
    # open catalog: a shipping region the viewer names ({region}: the name said; {base}: region_base_*)
    "region_extra": (3, _REF | {"region", "fee", "base"}),
    "region_base_free": (1, frozenset()),
    "region_base_fee": (1, frozenset({"fee"})),
    "region_no_ship": (3, _REF | {"region"}),
    # open catalog: the variants a viewer names ({items}: variant_in / variant_out joined by variant_sep)
    "variant_stock": (3, _REF | {"items"}),
    "variant_in": (1, frozenset({"variant", "n"})),
    "variant_out": (1, frozenset({"variant"})),
    "variant_sep": (1, frozenset()),
    # open catalog: no returns, a warranty in years
    "final_sale": (3, _REF | {"exchange", "warranty"}),
    "final_sale_exchange": (1, frozenset()),
    "warranty_years": (1, frozenset({"years"})),
    "warranty_years_one": (1, frozenset({"years"})),
    # open catalog: the deal a viewer asks about (bundle, checkout code, gift), for a product or the whole room
    "deal_name_coupon": (1, frozenset({"amount"})),
    "deal_name_code": (1, frozenset({"code"})),
    "list_and": (1, frozenset()),
    "deal_tail_coupon": (1, frozenset({"coupon"})),
    "deal_tail_flash": (1, frozenset({"flash"})),
    "bundle_head_price": (1, frozenset({"qty", "price"})),
    "bundle_head": (1, frozenset({"qty"})),
    "bundle_deal": (3, _REF | {"head", "Head", "incl", "pct", "tenths", "works", "nope", "tail"}),
    "bundle_room": (3, frozenset({"head", "Head", "incl", "pct", "tenths", "works", "nope", "tail"})),
    "bundle_incl": (2, frozenset({"names"})),
    "bundle_deal_works": (1, frozenset({"names"})),
    "bundle_room_works": (1, frozenset({"names"})),
    "bundle_nope": (1, frozenset({"names"})),
    "code_terms": (1, frozenset({"code", "amount"})),
    "code_terms_threshold": (1, frozenset({"code", "amount", "threshold"})),
    "code_deal": (3, _REF | {"terms", "Terms", "rules", "code", "amount", "tail"}),
    "code_room": (3, frozenset({"terms", "Terms", "rules", "code", "amount", "tail"})),
    "code_with_bundle": (1, frozenset()),
    "code_not_bundle": (1, frozenset()),
    "code_in_flash": (1, frozenset()),
    "code_not_flash": (1, frozenset()),
    "code_with_coupon": (1, frozenset({"coupon"})),
    "code_not_coupon": (1, frozenset({"coupon"})),
    "code_tail_coupon": (1, frozenset({"coupon"})),
    "code_tail_flash": (1, frozenset({"flash"})),
    "gift_deal": (3, _REF | {"gift", "tail"}),
    "gift_room": (3, frozenset({"gift", "tail"})),
    # open catalog: any running bundle or code, when its title cannot be quoted (the {full}/{short} of deal)
    "other_bundle_price": (2, frozenset({"qty", "price", "pct", "tenths"})),
    "other_bundle": (2, frozenset({"qty", "pct", "tenths"})),
    "other_code_threshold": (2, frozenset({"code", "amount", "threshold"})),
    "other_code": (2, frozenset({"code", "amount"})),
    # open catalog: a yes/no attribute
    "spec_bool": (3, _REF | {"label", "value"}),
}


def placeholders(template: str) -> list[tuple[str, str | None, str | None]]:
    """``(name, conversion, format spec)`` of every placeholder of ``template``.

    Raises:
        ValueError: unbalanced braces.
    """
    return [(name, conv, spec) for _, name, spec, conv in string.Formatter().parse(template) if name is not None]


def check_template(where: tuple[str | int, ...], template: str, allowed: frozenset[str],
                   required: frozenset[str] = frozenset()) -> None:
    """``template`` uses only ``allowed`` placeholders, each by plain name, and every ``required`` one.

    Args:
        where: the field path reported in the error.
        template: the text.
        allowed: the placeholder names it may use.
        required: the names it must use.

    Raises:
        FieldError: naming ``where`` and the offending placeholder.
    """
    try:
        found = placeholders(template)
    except ValueError as exc:
        raise FieldError(where, f"bad braces in {template!r}: {exc}") from None
    names = set()
    for name, conv, spec in found:
        if name not in allowed or conv or spec:
            what = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
            ok = ", ".join("{" + a + "}" for a in sorted(allowed)) or "none"
            raise FieldError(where, f"placeholder {what} is not allowed here (allowed: {ok})")
        names.add(name)
    missing = sorted(required - names)
    if missing:
        raise FieldError(where, f"{template!r} lacks " + ", ".join("{" + m + "}" for m in missing))


def fill(template: str, **values: Any) -> str:
    """``template`` with its placeholders replaced (the template was checked: plain names only)."""
    return template.format(**values) if "{" in template else template


class StrictModel(BaseModel):
    """A locale-file model: unknown fields are an error, values are frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def check_prompt_strings(strings: dict[str, Any], where: tuple[str | int, ...] = ()) -> None:
    """Every key of ``strings`` is a prompt string (:data:`PROMPT_FIELDS`) and uses only its placeholders.

    Raises:
        FieldError: an unknown key, a value that is not a string, or a bad placeholder.
    """
    for key, text in strings.items():
        if key not in PROMPT_FIELDS:
            raise FieldError((*where, key), f"unknown prompt string {key!r}; known: {sorted(PROMPT_FIELDS)}")
        if not isinstance(text, str):
            raise FieldError((*where, key), "a prompt string must be a string")
        required, allowed = PROMPT_FIELDS[key]
        check_template((*where, key), text, allowed, required)


class PromptStrings(StrictModel):
    """The system prompt's and user message's fixed strings in this language (see ``prompt`` in a locale file).

    ``name`` is the language's own name; ``language_names`` how this language names others (what
    ``{reply_language}`` says in a prompt written in it; a language it does not name is called by its own
    ``name``); ``campaign_types`` labels campaign types in the campaign lines (a type not listed is shown as its
    id)."""

    name: str = Field(min_length=1)
    language_names: dict[str, str] = Field(default_factory=dict)
    campaign_types: dict[str, str] = Field(default_factory=dict)
    user_header: str = Field(min_length=1)
    product_line: str
    campaign_line: str
    no_campaigns: str
    skill_line: str
    room_line: str
    max_reply_chars: str
    require_reply_skill: str
    forbidden_words: str
    required_disclosure: str
    turn_limit: str
    instruction: str
    list_sep: str
    #: under a product with variants / shipping regions ("" leaves the line out; see PROMPT_FIELDS)
    variants_line: str = ""
    regions_line: str = ""
    region_fee: str = ""
    region_no_ship: str = ""

    @model_validator(mode="after")
    def _templates(self) -> "PromptStrings":
        check_prompt_strings({k: getattr(self, k) for k in PROMPT_FIELDS})
        return self

    def with_overrides(self, strings: dict[str, str]) -> "PromptStrings":
        """These strings with a harness's ``prompt.strings`` put over them (already checked)."""
        return self.model_copy(update=dict(strings)) if strings else self


class HostTexts(StrictModel):
    """Fixed texts the host says in this language: the ``fallback`` reply (sent when the turn limit or retry
    budget runs out and the harness has none for the locale) and the AI ``disclosure`` a harness asks for with
    ``required_disclosure: true`` (or when its per-locale table lacks the room's locale)."""

    fallback: str = Field(min_length=1)
    disclosure: str = Field(min_length=1)


class Formats(StrictModel):
    """How numbers and money are written: ``money`` holds ``{amount}``; ``decimal_sep`` separates the fraction;
    ``fraction_digits`` is how many fraction digits a non-whole amount shows (``None``: as few as needed, ``89.5``).
    Whole amounts show none. No separator groups thousands (the grader reads ``1299`` either way)."""

    money: str
    decimal_sep: str = Field(".", min_length=1, max_length=1)
    fraction_digits: int | None = Field(None, ge=1, le=4)

    @model_validator(mode="after")
    def _money(self) -> "Formats":
        check_template(("money",), self.money, frozenset({"amount"}), frozenset({"amount"}))
        return self

    def number(self, x: float) -> str:
        """``x`` written for a reply: ``89``, ``89.5`` (or ``89,50`` with ``decimal_sep: ","`` and two digits)."""
        if abs(x - round(x)) < 1e-9:
            return str(int(round(x)))
        if self.fraction_digits is None:
            s = f"{x:.2f}".rstrip("0").rstrip(".")
        else:
            s = f"{x:.{self.fraction_digits}f}"
        return s.replace(".", self.decimal_sep) if self.decimal_sep != "." else s

    def amount(self, x: float) -> str:
        """``x`` as money: ``89元``, ``$89``, ``89,50 €``."""
        return self.money.format(amount=self.number(x))


class LengthRule(StrictModel):
    """How many characters one answer takes in this language, its separator included: a reply of at most N
    characters is expected to answer ``max(1, (N + 1) // answer_chars)`` intents, in the order of
    :func:`hat_env.scoring.limits.answer_order` (docs/grading.md, "Replies under a length limit")."""

    answer_chars: int = Field(ge=1, le=200)


class ReadingWords(StrictModel):
    """What the reference agent reads in this language (:mod:`hat_env.agents.reading`; every locale's words are
    read, whatever the room's): per viewer intent kind (and ``product``, any product question) the words of a
    skill's description or name that say it covers the kind; the words that mark a reply skill and a strategy
    skill; and the words of a shipping question that ask about free shipping / the fee (``free``) or the carrier
    (``carrier``)."""

    skill_intents: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    reply_skill: tuple[str, ...] = ()
    strategy_skill: tuple[str, ...] = ()
    shipping_focus: dict[Literal["free", "carrier"], tuple[str, ...]] = Field(default_factory=dict)


Sentence = str | tuple[str, ...]


class Sentences(RootModel[dict[str, Sentence]]):
    """The reference composer's sentences (:data:`SENTENCE_FIELDS`): every key present, each with its number of
    wordings and only its placeholders."""

    model_config = ConfigDict(frozen=True)

    @model_validator(mode="after")
    def _check(self) -> "Sentences":
        table = self.root
        missing = sorted(set(SENTENCE_FIELDS) - set(table))
        if missing:
            raise FieldError((), f"missing sentence(s) {missing}")
        for key, value in table.items():
            if key not in SENTENCE_FIELDS:
                raise FieldError((key,), f"unknown sentence {key!r}; known: {sorted(SENTENCE_FIELDS)}")
            n, allowed = SENTENCE_FIELDS[key]
            texts = (value,) if isinstance(value, str) else tuple(value)
            if n == 1 and not isinstance(value, str):
                raise FieldError((key,), "must be one string")
            if n > 1 and (isinstance(value, str) or len(texts) != n):
                raise FieldError((key,), f"must be a list of {n} wordings ({'full, short' if n == 2 else 'longest first'})")
            for i, t in enumerate(texts):
                check_template((key,) if n == 1 else (key, i), t, allowed)
        return self

    def one(self, key: str, **values: Any) -> str:
        """Sentence ``key`` (a single string) filled with ``values``."""
        v = self.root[key]
        assert isinstance(v, str), key
        return fill(v, **values)

    def all(self, key: str, **values: Any) -> list[str]:
        """Every wording of sentence ``key`` filled with ``values``; a value given as a list or tuple takes its
        item at the wording's index (a tail said at the same length level)."""
        v = self.root[key]
        texts = (v,) if isinstance(v, str) else v
        out = []
        for i, t in enumerate(texts):
            vals = {k: (x[min(i, len(x) - 1)] if isinstance(x, (list, tuple)) else x) for k, x in values.items()}
            out.append(fill(t, **vals))
        return out


__all__ = [
    "PROMPT_FIELDS",
    "SENTENCE_FIELDS",
    "Formats",
    "HostTexts",
    "LengthRule",
    "PromptStrings",
    "ReadingWords",
    "Sentences",
    "check_prompt_strings",
    "check_template",
    "fill",
    "placeholders",
]
