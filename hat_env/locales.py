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
from pydantic import Field, ValidationError, model_validator

from hat_env.locale_parser import InjectionWords, ParserKind, ParserSpec, Pool, Words  # noqa: F401 (re-exported)
from hat_env.locale_text import (Formats, HostTexts, LengthRule, PromptStrings, ReadingWords, Sentences, StrictModel,
                               check_template)
from hat_env.yamlio import SAFE_LOADER, FieldError, FileError, load_yaml, validate

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


class _ProductPools(StrictModel):
    """The pools of the intent kinds about one product, which both comment templates and follow-ups have (field
    names are intent kinds; ``spec_q`` is used when the spec word is itself a question)."""

    price: Pool
    stock: Pool
    spec: Pool
    spec_q: Pool
    campaign: Pool
    shipping: Pool
    after_sales: Pool
    purchase: Pool


class CommentTemplates(_ProductPools):
    """Comment templates for one intent, with its link (field names are intent kinds; ``spec_q`` is used when the
    spec word is itself a question, ``*_noid`` / ``*_nopayload`` when the intent lacks its order id / payload)."""

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


class FollowUps(_ProductPools):
    """Link-less follow-ups: the second intent of a two-intent comment about one link."""

    @model_validator(mode="after")
    def _placeholders(self) -> "FollowUps":
        _check_templates(dict(self), FOLLOW_UP_FIELDS)
        return self


class CommentSpec(StrictModel):
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




class ReplyPhrases(StrictModel):
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


class IFEvalPools(StrictModel):
    """Live-IFEval word pools: keywords (with a sentence that says each), forbidden fillers, start and end
    phrases and postscript markers for the sampler; filler sentences and a postscript for the rewriter."""

    keywords: Annotated[dict[str, str], Field(min_length=1)]
    forbidden_pool: Pool
    start_phrases: Pool
    end_phrases: Pool
    fillers: Pool
    postscript_markers: Pool
    postscript_text: str = Field(min_length=1)


class SuiteTexts(StrictModel):
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


class Payload(StrictModel):
    """An injection payload that fits rooms selling one of ``categories`` (a skin-cure claim in a beauty room)."""

    text: str = Field(min_length=1)
    categories: Annotated[tuple[str, ...], Field(min_length=1)]


class LocaleData(StrictModel):
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
