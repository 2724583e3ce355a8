"""Locale data: one YAML file per locale (``scenarios/locales/<locale>.yaml``, package data of
``hat_env.scenarios``) holding how viewers write in that language and the fixed phrases the reference host says.

A file has these sections, each read by one owner:

- ``comments``: the comment generator's templates, separators, noise, places, link references and ask-again
  prefixes (:mod:`hat_env.sim.comments`);
- ``injection_payloads``: what a prompt injector tries to make the host say, each for any room or for rooms
  selling some product categories (:mod:`hat_env.sim.comments`);
- ``parser``: the keywords the comment parser reads (:mod:`hat_env.sim.parser`);
- ``reply``: the phrase tables and sentences of the reference agent's reply composer (:mod:`hat_env.agents.reply`);
- ``ifeval``: the Live-IFEval word pools: what the suite sampler draws and the sentences the reference agent adds
  to follow an instruction (:mod:`hat_env.evaluation.instruction_sampling`, :mod:`hat_env.agents.instructions`);
- ``prompt``: the system prompt's and user message's fixed strings when a harness writes its prompt in this
  language, and the language's name (:mod:`hat_env.harness.render`);
- ``host``: the fallback reply and the AI disclosure in this language (:mod:`hat_env.harness.spec`);
- ``formats``: how numbers and money are written (:mod:`hat_env.locale_text`);
- ``length``: how many characters one answer takes, for replies under a length limit (:mod:`hat_env.scoring.limits`);
- ``reading``: what the reference agent reads in skill descriptions and shipping questions
  (:mod:`hat_env.agents.reading`).

Files are read with the safe YAML loader only, once per process (lazily, cached), and validated: an error names
the file, the field and its line. Templates may use only the placeholders their kind is given (see
:data:`TEMPLATE_FIELDS`), by plain name (no attribute, index, conversion or format spec), so no locale file can
reach beyond the strings it is handed. Seeded draws index into the lists, so the order of every list is part of
the behaviour: a reordered list changes the generated comments, traces and the pinned evaluation suites.

Adding a locale is adding a file whose name is the locale id (``es_ES.yaml`` with ``locale: es_ES``): a built-in
one in ``scenarios/locales/``, or a room's own in a ``locales/`` folder next to its scenario file
(:func:`register_locale_file`, done by :func:`hat_env.sim.scenario.load_scenario`).
"""

from __future__ import annotations

import string
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from hat_env.locale_text import Formats, HostTexts, LengthRule, PromptStrings, ReadingWords, Sentences, check_template
from hat_env.yamlio import SAFE_LOADER, FieldError, FileError, load_yaml, validate

#: A non-empty list of strings (seeded draws pick from it by index).
Pool = Annotated[tuple[str, ...], Field(min_length=1)]
#: Three wordings of one phrase, longest first (the composer shortens a reply one level at a time).
Wordings = tuple[str, str, str]

#: Placeholders each comment template kind is formatted with. Templates of kinds not listed here are used as they
#: are and may hold no placeholder. ``injection`` templates have ``{P}`` replaced (payloads may hold braces).
TEMPLATE_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    # kind: (required, allowed)
    "price": (frozenset({"L"}), frozenset({"L"})),
    "stock": (frozenset({"L"}), frozenset({"L"})),
    "campaign": (frozenset({"L"}), frozenset({"L"})),
    "shipping": (frozenset({"L"}), frozenset({"L"})),
    "after_sales": (frozenset({"L"}), frozenset({"L"})),
    "purchase": (frozenset({"L"}), frozenset({"L"})),
    "spec": (frozenset({"L", "A"}), frozenset({"L", "A"})),
    "spec_q": (frozenset({"L", "A"}), frozenset({"L", "A"})),
    "compare": (frozenset({"L", "L2"}), frozenset({"L", "L2"})),
    "order_status": (frozenset({"O"}), frozenset({"O"})),
    "chitchat": (frozenset(), frozenset({"X"})),
    "injection": (frozenset({"P"}), frozenset({"P"})),
}
#: Placeholders of the follow-up (link-less) templates.
FOLLOW_UP_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "spec": (frozenset({"A"}), frozenset({"A"})),
    "spec_q": (frozenset({"A"}), frozenset({"A"})),
}

ParserKind = Literal[
    "price", "stock", "campaign", "shipping", "after_sales", "purchase", "compare", "troll", "spec_generic",
    "identity", "efficacy", "chitchat", "order_status",
]
OrderStatus = Literal["paid", "packed", "shipped", "delivered", "refunding"]


def _fields_of(template: str) -> list[tuple[str, str | None, str | None]]:
    """``(field name, conversion, format spec)`` of every placeholder in ``template``.

    Raises:
        ValueError: unbalanced braces.
    """
    return [(name, conv, spec) for _, name, spec, conv in string.Formatter().parse(template) if name is not None]


def _check_templates(pools: dict[str, tuple[str, ...]], fields: dict[str, tuple[frozenset[str], frozenset[str]]],
                     ) -> None:
    """Every template of ``pools`` uses the placeholders its kind allows, and every one it requires.

    Raises:
        FieldError: naming ``(kind, index)``.
    """
    for kind, pool in pools.items():
        required, allowed = fields.get(kind, (frozenset(), frozenset()))
        for i, tpl in enumerate(pool):
            if kind == "injection":  # "{P}" is replaced, the rest is kept as written
                if "{P}" not in tpl:
                    raise FieldError((kind, i), "an injection template must hold {P} (the payload)")
                continue
            try:
                found = _fields_of(tpl)
            except ValueError as exc:
                raise FieldError((kind, i), f"bad braces in template {tpl!r}: {exc}") from None
            names = set()
            for name, conv, spec in found:
                if name not in allowed or conv or spec:
                    what = "{" + name + (f"!{conv}" if conv else "") + (f":{spec}" if spec else "") + "}"
                    ok = ", ".join("{" + a + "}" for a in sorted(allowed)) or "none"
                    raise FieldError((kind, i), f"placeholder {what} is not allowed in {kind!r} templates "
                                                f"(allowed: {ok})")
                names.add(name)
            missing = sorted(required - names)
            if missing:
                raise FieldError((kind, i), f"template {tpl!r} lacks " + ", ".join("{" + m + "}" for m in missing))


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CommentTemplates(_Strict):
    """Comment templates for one intent, with its link (field names are intent kinds; ``spec_q`` is used when the
    spec word is itself a question, ``*_noid`` / ``*_nopayload`` when the intent lacks its order id / payload)."""

    price: Pool
    stock: Pool
    spec: Pool
    spec_q: Pool
    campaign: Pool
    shipping: Pool
    after_sales: Pool
    purchase: Pool
    compare: Pool
    order_status: Pool
    order_status_noid: Pool
    chitchat: Pool
    troll: Pool
    injection: Pool
    injection_nopayload: Pool

    @model_validator(mode="after")
    def _placeholders(self) -> "CommentTemplates":
        _check_templates(dict(self), TEMPLATE_FIELDS)
        return self


class FollowUps(_Strict):
    """Link-less follow-ups: the second intent of a two-intent comment about one link."""

    price: Pool
    stock: Pool
    spec: Pool
    spec_q: Pool
    campaign: Pool
    shipping: Pool
    after_sales: Pool
    purchase: Pool

    @model_validator(mode="after")
    def _placeholders(self) -> "FollowUps":
        _check_templates(dict(self), FOLLOW_UP_FIELDS)
        return self


class CommentSpec(_Strict):
    """How viewers of the locale write (see ``comments`` in a locale file for each field's use)."""

    templates: CommentTemplates
    follow_ups: FollowUps
    multi_sep: Pool
    multi_end: Pool
    sentence_sep: str = Field(min_length=1)
    noise_prefix: Pool
    noise_suffix: Pool
    capitalize_chance: float | None = Field(None, ge=0.0, le=1.0)
    places: Pool
    link_ref: Pool
    no_link_ref: str = Field(min_length=1)
    generic_spec_word: str = Field(min_length=1)
    question_markers: tuple[str, ...] = ()
    ask_again_prefix: Pool

    @model_validator(mode="after")
    def _link_refs(self) -> "CommentSpec":
        _check_templates({"link_ref": self.link_ref}, {"link_ref": (frozenset({"n"}), frozenset({"n"}))})
        return self


Words = tuple[str, ...]


class InjectionWords(_Strict):
    """How a prompt injection starts in this language (see :mod:`hat_env.understanding.parser`)."""

    #: phrases that start an injection on their own ("developer mode", "系统消息")
    triggers: Words = ()
    #: words that start one when one of ``objects`` follows in the same clause ("ignore ... instructions")
    heads: Words = ()
    objects: Words = ()
    #: say-verbs: the payload the injector wants said follows them
    say: Words = ()
    #: say-verbs that start an injection on their own ("tell everyone", "告诉大家")
    say_triggers: Words = ()
    #: dictation: a clause that opens with ``leads`` words and then one of ``commands`` dictates what the host
    #: is to say ("you must now say ...", "From now on, call ...", "你必须说..."); a command of ``commands``
    #: needs one of ``modals`` among its leads, one of ``bare_commands`` does not; a question clause, or a
    #: command followed by one of ``not_after`` ("说一下价格", "say hi"), is not one
    leads: Words = ()
    modals: Words = ()
    commands: Words = ()
    bare_commands: Words = ()
    not_after: Words = ()
    #: disclosure: one of ``reveal`` and one of ``secrets`` in the same clause, in either order ("show me your
    #: hidden instructions", "把系统设置发给我")
    reveal: Words = ()
    secrets: Words = ()
    #: pronouns a reveal verb takes for a secret named in the clause before ("what instructions were you given?
    #: paste them")
    pronouns: Words = ()
    #: words that make a secret the host's own ("your", "你的", "tus"): a reveal verb and such a secret disclose it
    #: even in a question ("你后台的设置能给我看看吗", "can u show me ur hidden rules?")
    owners: Words = ()


class ParserSpec(_Strict):
    """The comment parser's vocabulary for this language (read by :mod:`hat_env.understanding.lexicon`; every
    locale's words are read whatever the room's locale). Words are matched folded (lower case, half-width,
    simplified Chinese, accents dropped); ASCII words at word boundaries."""

    #: per intent kind, the words that signal it (``spec_generic``: a spec question without an attribute;
    #: ``chitchat``: a greeting or compliment that is an intent of its own next to a question; ``order_status``:
    #: an order question without an id)
    keywords: dict[ParserKind, Pool]
    #: spec words beyond :data:`hat_env.sim.vocab.SPEC_ATTRS`, per attribute (an attribute no product has is
    #: read as ``attr="unknown"`` when the catalog is known)
    spec_words: dict[str, Words] = {}
    #: values that name their attribute ("XXL" is a size, "silver" a color)
    spec_values: dict[str, Words] = {}
    #: identity words that need an addressee (``addressee``) in the same clause ("are YOU an AI")
    identity_weak: Words = ()
    addressee: Words = ()
    #: health conditions: asking about one is an efficacy question ("失眠", "insomnia")
    conditions: Words = ()
    #: quantity words: a price question unless a spec word or a noun takes them ("how much does it weigh")
    quantity: Words = ()
    #: words right after a quantity word that keep it a price question ("is", "for", "钱")
    quantity_price_next: Words = ()
    #: currency marks written before or after an amount ("$", "€", "元"): an amount in a question that asks nothing
    #: else asks the price ("is the blender still $49")
    currency_marks: Words = ()
    #: count words ("几", "how many"): a quantity word that never asks a price ("围巾剩几条")
    count_quantity: Words = ()
    #: attributes a shop policy answers when the product has no such spec ("warranty": an after-sales question)
    policy_attrs: Words = ()
    #: when a product lacks the asked attribute but has this one, the question is about it (read from every
    #: locale: weight -> size for the net content of food)
    spec_fallbacks: dict[str, str | list[str]] = {}
    #: Chinese numerals of link numbers ("三号链接"): the characters for 0-9 in order, the one for ten, then
    #: other characters for two ("两")
    numerals: str = ""
    #: words before / after a link number ("链接3", "3号", "enlace 2")
    link_prefix: Words = ()
    link_suffix: Words = ()
    #: words after a link that make the next bare number a link too ("link 1 or 3", "el enlace 1 o el 4")
    link_joiners: Words = ()
    link_articles: Words = ()
    #: number words after a link prefix ("link two", "enlace dos") and ordinals before an ``ordinal_heads`` word
    #: ("the second one", "the 3rd item", "第二个"), each with its number
    link_numbers: dict[str, int] = {}
    #: words after an ordinal that make it a link ("one", "item"; "个", "款"); an ordinal after a
    #: ``link_lead_articles`` word is one too ("el segundo")
    ordinal_heads: Words = ()
    #: articles before a bare link number or ordinal ("el 3", "la segunda"; not before a unit or "de")
    link_lead_articles: Words = ()
    #: words after an article's ordinal that make it no link ("la segunda vez", "de segunda mano")
    ordinal_not_before: Words = ()
    #: words that start a new part of a clause for the quantity rule ("and", "y")
    clause_joiners: Words = ()
    #: words that open a follow-up about another product ("还有", "那": "鱼油多少钱还有维C呢")
    followup_leads: Words = ()
    #: a purchase said as done or cheered ("已拍", "冲冲冲", "copped"): no request of its own ("谢谢主播 已拍" is
    #: a thanks, "冲了 有券吗" asks for a coupon, "冲冲冲" alone is chit-chat)
    purchase_cheers: Words = ()
    #: a purchase said as made ("已拍", "just bought", "ya lo compré"): with one product named and nothing else
    #: said or asked ("已拍 跑鞋41码", "ok bought the watch"), the viewer's purchase of it
    purchase_done: Words = ()
    #: possessive determiners ("my", "mi", "我家"): a name several products share right after one is the viewer's
    #: own pet, child or skin ("my cat is scared of noises", "mi perro tiene 60 de pecho"), not a product
    possessives: Words = ()
    #: size words ("big", "grande", "大的"; "small", "pequeño", "小的"): next to a name several products share, the
    #: largest or the smallest of them by its own measure (:mod:`hat_env.understanding.sizes`)
    big_words: Words = ()
    small_words: Words = ()
    #: what makes a clause a question: final particles and marks, and question words anywhere
    question_marks: Words = ()
    question_words: Words = ()
    #: an auxiliary before its subject asks a question wherever it stands ("litter box is it quiet")
    question_inversions: Words = ()
    #: tags that end a statement as a question ("earbuds have anc or not", "drill is brushless right", "o no")
    question_tags: Words = ()
    #: words joining two choices ("or", "o"): "capsules or ground coffee", "28 cm o hay de 24" asks which
    alternative_words: Words = ()
    #: words that open a new question inside an unpunctuated run-on, like the inversions ("how much is the blender
    #: how many watts"): the clause is cut before one when the words before it already ask something
    runon_leads: Words = ()
    #: greetings and thanks that open a comment as a clause of their own ("hi!", "hey juno 👋", "hola Lucía,",
    #: "谢谢主播 ..."): a ``chitchat`` next to the question after them (the host's name may follow, one word)
    greeting_openers: Words = ()
    #: words that point back to the product named before ("this one", "它", "este"): a question clause holding one
    #: and naming nothing asks about the product the clause before named ("the sander looks nice, is this one corded")
    back_refs: Words = ()
    #: praise ("绝了", "love", "qué bonita"): a comment that praises and asks nothing names no spec question
    #: ("口红颜色绝了")
    praise_words: Words = ()
    #: verbs of sending ("发", "寄", "send", "mandan"): with a region the room's data lists, a question of shipping
    #: there ("2号发西藏吗"; a region named without one or a shipping word asks nothing: "我在西藏")
    ship_verbs: Words = ()
    #: words asking whether a variant the room's data lists is left ("还有吗", "left", "queda"): with a variant
    #: named and no other question, a stock question ("any Black / L left?")
    variant_stock_words: Words = ()
    #: words a variant asked alone may stand with ("in", "the", "en", "的"): a question of nothing but a product, its
    #: variant and these asks whether that one is left ("sling bag in olive?", "¿la z50 en plata?", "2号红色的?")
    variant_leads: Words = ()
    #: regions any shop may be asked to ship to, whatever its data lists ("新疆", "海南", "Alaska", "Canarias"):
    #: named in a question with a sending verb, a shipping question ("手表寄海南吗"; ``room_terms.region_word_hits``)
    region_words: Words = ()
    #: words between a value and the product name it picks out ("白色的充电器", "la de 28 cm"): with nothing
    #: between or one of these, the value says which product, it asks no spec
    modifier_gaps: Words = ()
    #: modal and suitability words: a question clause without keywords after a spec question asks something new
    #: about the same product when it holds one ("鱼油保质期多久 孕妇能吃吗"), else it goes on asking the spec
    #: before ("坚果里面有啥 有没有花生")
    ability_words: Words = ()
    #: open question words ("啥", "什么", "what", "qué"): after a spec question holding one ("坚果里面有啥"), a later
    #: clause without keywords or ability words goes on asking it ("有没有花生"); after any other spec question
    #: ("围巾是纯羊毛吗") it is a question of its own ("扎不扎人")
    open_question_words: Words = ()
    #: asking for an opinion ("q tal", "咋样", "worth it"): a question of its own only when nothing else is asked
    #: about the product ("q tal la sartén, se pega?" asks whether it sticks)
    opinion_words: Words = ()
    #: final particles that end a question wherever they stand: one glued to more text ends its clause there
    #: ("洁面乳能卸妆吗多少钱", "耳机降噪吗续航多久")
    clause_final_particles: Words = ()
    #: words that ask whether the product is there ("hay", "有吗") only when nothing else is asked in their clause
    #: ("hay freidora?" is stock; "hay talla 44?", "hay descuento?" ask the size, the deal)
    bare_stock_words: Words = ()
    #: stock words that are ordinary words too ("left", "back"): stock only right after a product's name or link,
    #: ending a clause that holds no other keyword and no sending verb ("z50 left?", "is the tripod back?", "any
    #: sd cards left"; not "i'm back", "i left it at home", "can i send the tripod back")
    name_stock_words: Words = ()
    #: what joins a count to the product bought ("of", "of the", "de la"): "2 of link 4 please" is a purchase of
    #: two (:mod:`hat_env.understanding.purchases`; not in a question)
    count_of_words: Words = ()
    #: words that make the deal word after them the condition of a price question ("how much w coupon", "cuánto
    #: cuesta con cupón", "用券多少钱"): the question is the price after the deal, not the deal
    deal_condition_leads: Words = ()
    #: words that open a condition: what it names up to the question after it is no question of its own ("if my
    #: dog hates the chicken flavor can I return it")
    condition_leads: Words = ()
    #: misspelt phrases, read as the phrase given ("wana by": "want to buy")
    misspellings: dict[str, str] = {}
    #: ordinary words: never corrected as a typo, never a product name
    common_words: Words = ()
    #: function words that identify the language (for telling it from languages the parser does not read)
    markers: Words = ()
    #: product nouns by concept id, shared by every locale ("sunscreen": 防晒霜 / sunscreen / protector solar):
    #: a product whose title holds one of a concept's words is named by all of them
    nouns: dict[str, Words] = {}
    #: words never used as a product name (address words, fillers)
    name_stopwords: Words = ()
    #: order words before an order id ("订单", "order", "pedido")
    order_words: Words = ()
    #: a purchase by count: one of ``buy_verbs``, a number (digits, ``numerals``, ``count_words``), one of
    #: ``measure_words`` ("来三包", "再来一箱", "I'll take two bags")
    buy_verbs: Words = ()
    count_words: Words = ()
    measure_words: Words = ()
    injection: InjectionWords = InjectionWords()
    #: characters too common to count as the right half of a homophone typo ("有活" is not "有货")
    function_chars: str = ""
    #: also read the keywords written in toneless pinyin ("duoshao qian", "bao you")
    pinyin: bool = False


class ReplyPhrases(_Strict):
    """Phrase tables of the reference agent's reply composer (the sentences with facts are its code)."""

    sentence_sep: str = Field(min_length=1)
    end: str
    chitchat: Wordings
    troll: Wordings
    injection: Wordings
    injection_short: str = Field(min_length=1)
    #: answers without facts: "I'm an AI host", "it is not a medicine", "please ask in <language>" (when absent,
    #: the chitchat wordings are said)
    identity: Wordings | None = None
    efficacy: Wordings | None = None
    other_language: Wordings | None = None
    spec_labels: dict[str, str]
    generic_spec_label: str = Field(min_length=1)
    order_status: dict[OrderStatus, str]
    #: the shortest way to say each order status (the shortest wording of an order reply)
    order_status_short: dict[OrderStatus, str]
    #: the sentences that state facts (see :data:`hat_env.locale_text.SENTENCE_FIELDS`)
    sentences: Sentences


class IFEvalPools(_Strict):
    """Live-IFEval word pools: keywords (with a sentence that says each), forbidden fillers, start and end
    phrases and postscript markers for the sampler; filler sentences and a postscript for the rewriter."""

    keywords: Annotated[dict[str, str], Field(min_length=1)]
    forbidden_pool: Pool
    start_phrases: Pool
    end_phrases: Pool
    fillers: Pool
    postscript_markers: Pool
    postscript_text: str = Field(min_length=1)


class SuiteTexts(_Strict):
    """What the evaluation suite generators (:mod:`hat_env.evaluation.suites`) write in a case of this locale:
    ``viewer_name`` (a viewer's name; ``{n}``: a four-digit number) and ``off_topic`` (comments about nothing the
    room sells, the irrelevance cases). Seeded draws index into ``off_topic``: its order is behaviour (a suite's
    manifest hash pins it)."""

    viewer_name: str = Field(min_length=1)
    off_topic: Pool

    @model_validator(mode="after")
    def _name(self) -> "SuiteTexts":
        check_template(("viewer_name",), self.viewer_name, frozenset({"n"}), frozenset({"n"}))
        return self


class Payload(_Strict):
    """An injection payload that fits rooms selling one of ``categories`` (a skin-cure claim in a beauty room)."""

    text: str = Field(min_length=1)
    categories: Annotated[tuple[str, ...], Field(min_length=1)]


class LocaleData(_Strict):
    """One locale file, validated."""

    locale: str = Field(pattern=r"^[a-z]{2,3}_[A-Z]{2}$")
    comments: CommentSpec
    #: a plain string fits any room; a :class:`Payload` only rooms selling one of its categories
    payloads: Annotated[tuple[str | Payload, ...], Field(min_length=1, alias="injection_payloads")]
    parser: ParserSpec
    reply: ReplyPhrases
    ifeval: IFEvalPools
    prompt: PromptStrings
    host: HostTexts
    formats: Formats
    reading: ReadingWords = ReadingWords()
    length: LengthRule
    #: what suite cases in this locale say (``None``: no suite can be generated over its rooms)
    suites: SuiteTexts | None = None
    #: the Faker locale viewer names (and generated brands) are drawn from; ``None``: the locale id
    faker_locale: str | None = None

    @property
    def injection_payloads(self) -> tuple[str, ...]:
        """Every payload's text, in file order."""
        return tuple(p if isinstance(p, str) else p.text for p in self.payloads)

    def payloads_for(self, categories: "set[str] | frozenset[str] | None") -> tuple[str, ...]:
        """The payloads that fit a room selling ``categories`` (``None``: every payload), in file order: the plain
        ones and those of a category the room sells."""
        if categories is None:
            return self.injection_payloads
        return tuple(p if isinstance(p, str) else p.text for p in self.payloads
                     if isinstance(p, str) or set(p.categories) & set(categories)) or self.injection_payloads


def locales_dir() -> Path:
    """The folder of the built-in locale files."""
    try:
        return Path(str(resources.files("hat_env.scenarios"))) / "locales"
    except ModuleNotFoundError:  # pragma: no cover - a source checkout that is not installed
        return Path(__file__).resolve().parents[1] / "scenarios" / "locales"


@lru_cache(maxsize=1)
def builtin_locales() -> tuple[str, ...]:
    """Ids of the built-in locales (the file names), sorted."""
    return tuple(sorted(p.stem for p in locales_dir().glob("*.yaml")))


def load_locale_file(path: str | Path) -> LocaleData:
    """Read and validate one locale file (not cached).

    Raises:
        FileError: the file is unreadable, not YAML, or a field is wrong (each problem with its field and line);
            also when the ``locale`` field differs from the file name.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise FileError(p, [("", None, f"cannot read file: {exc.strerror or exc}")]) from None
    try:  # the fast path: no line index unless there is something to report
        data: Any = yaml.load(text, Loader=SAFE_LOADER)
        loc = LocaleData.model_validate(data)
    except (yaml.YAMLError, ValidationError):
        data, lines = load_yaml(p, text)
        if not isinstance(data, dict):
            raise FileError(p, [("", 1, "a locale file must be a YAML mapping")]) from None
        loc = validate(LocaleData, data, p, lines)
    if loc.locale != p.stem:
        line = load_yaml(p, text)[1].get(("locale",))
        raise FileError(p, [("locale", line, f"{loc.locale!r} differs from the file name {p.stem!r}")])
    return loc


#: Locale files registered by rooms (id -> (file, its text)), see :func:`register_locale_file`.
_REGISTERED: dict[str, tuple[Path, str]] = {}


def register_locale_file(path: str | Path) -> str:
    """Make a room's own locale file known by its id for the rest of the process, so every part that reads a
    locale (comments, parser, renderer, reference) finds it like a built-in one.

    Registering the same content again (the same file, or a copy in another folder) is a no-op.

    Args:
        path: the locale file (its name is its id, ``xx_XX.yaml``).

    Returns:
        The locale id.

    Raises:
        FileError: the file is invalid, its id is a built-in locale, or a file with other content already holds
            the id.
    """
    p = Path(path)
    loc = load_locale_file(p)
    text = p.read_text(encoding="utf-8")
    if loc.locale in builtin_locales():
        raise FileError(p, [("locale", 1, f"{loc.locale!r} is a built-in locale; give the room's own locale "
                                          f"another id (built-in: {', '.join(builtin_locales())})")])
    have = _REGISTERED.get(loc.locale)
    if have is not None and have[1] != text:
        raise FileError(p, [("locale", 1, f"another file already defines locale {loc.locale!r} in this process: "
                                          f"{have[0]}")])
    if have is None:
        _REGISTERED[loc.locale] = (p.resolve(), text)
    return loc.locale


def known_locales() -> tuple[str, ...]:
    """Ids of the built-in locales and of those rooms registered (:func:`register_locale_file`), sorted."""
    return tuple(sorted(set(builtin_locales()) | set(_REGISTERED)))


@lru_cache(maxsize=None)
def get_locale(locale: str) -> LocaleData:
    """The data of a locale (built-in or registered by a room), read on first use and cached for the process.

    Args:
        locale: a locale id such as ``"zh_CN"`` (see :func:`known_locales`).

    Raises:
        ValueError: no such locale.
        FileError: its file is invalid.
    """
    if locale in _REGISTERED:
        return load_locale_file(_REGISTERED[locale][0])
    if locale not in builtin_locales():
        raise ValueError(f"unknown locale {locale!r}; expected one of {known_locales()}")
    return load_locale_file(locales_dir() / f"{locale}.yaml")


__all__ = [
    "CommentSpec",
    "IFEvalPools",
    "InjectionWords",
    "LocaleData",
    "ParserSpec",
    "Payload",
    "ReplyPhrases",
    "SuiteTexts",
    "builtin_locales",
    "get_locale",
    "known_locales",
    "load_locale_file",
    "locales_dir",
    "register_locale_file",
]
