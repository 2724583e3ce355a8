"""The compiled parser vocabulary's fields (:class:`Lexicon`): what :func:`hat_env.understanding.lexicon.lexicon`
returns; compiled by :func:`hat_env.understanding.lexicon_build.build_lexicon`. Word roles are described in
:mod:`hat_env.understanding.lexicon`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from hat_env.understanding.wordpat import Role


@dataclass(frozen=True)
class Lexicon:
    """Every locale's parser vocabulary, compiled (see the module docstring)."""

    #: the catalog vocabulary whose spec and deal words it holds (:attr:`Vocabulary.key`), and its attributes
    vocabulary_key: str
    attributes: frozenset[str]
    #: folded word -> its roles
    roles: dict[str, tuple[Role, ...]]
    #: all words of ``roles``
    words_re: re.Pattern[str]
    #: link references: group ``n`` is the number (prefix or suffix forms), or a joiner + bare number
    link_re: re.Pattern[str]
    joiner_re: re.Pattern[str]
    #: order ids after an order word (group 1: the id)
    order_re: re.Pattern[str]
    #: injections
    inj_trigger_re: re.Pattern[str]
    inj_head_re: re.Pattern[str]
    inj_object_re: re.Pattern[str]
    say_re: re.Pattern[str]
    say_trigger_words: frozenset[str]
    #: dictation at a clause start: leads (group ``lead``) then a command (group ``cmd``); the modals; the
    #: commands that need no modal; what may not follow a command
    inj_command_re: re.Pattern[str]
    inj_command_word_re: re.Pattern[str]
    inj_modal_re: re.Pattern[str]
    inj_bare_commands: frozenset[str]
    inj_not_after_re: re.Pattern[str]
    #: attributes a shop policy answers when the product lacks them
    policy_attrs: frozenset[str]
    #: a purchase by count ("来三包", "take two bags")
    buy_count_re: re.Pattern[str]
    #: a count then a ``count_of_words`` word ("2 of the", "dos de la"): a purchase when a product follows
    #: (:mod:`~hat_env.understanding.purchases`), or ``None``
    count_of_re: re.Pattern[str] | None
    #: an amount with a currency mark, or with two decimals ("$49", "21.99", "69 €"), or ``None``
    amount_re: re.Pattern[str] | None
    #: disclosure: a reveal verb and a secret in one clause
    inj_reveal_re: re.Pattern[str]
    inj_secret_re: re.Pattern[str]
    #: "you ... ai": an addressee, up to two filler words, an identity word
    identity_re: re.Pattern[str]
    #: sub-clause boundaries for the quantity rule, and clause boundaries
    joint_re: re.Pattern[str]
    #: words that keep a quantity word a price question
    qty_next: frozenset[str]
    #: question marks (clause-final) and question words
    question_marks: frozenset[str]
    question_re: re.Pattern[str]
    #: clause-final question tags ("or not", "right", "o no") and the "A or B" of a choice asked, or ``None``
    tag_re: re.Pattern[str] | None
    alternative_re: re.Pattern[str] | None
    #: auxiliary-subject inversions: a question anywhere in a clause
    inversion_re: re.Pattern[str] | None
    #: inversions and run-on leads, with the words before them (``clauses.runon_bounds``)
    runon_re: re.Pattern[str] | None
    #: the auxiliaries the inversions open with ("is", "does")
    runon_verbs: frozenset[str]
    #: a greeting opening the comment as a clause of its own (``greeting_openers``), or ``None``
    greeting_re: re.Pattern[str] | None
    #: a greeting or thanks anywhere in the comment (``greeting_openers``; a done purchase beside it), or ``None``
    thanks_re: re.Pattern[str] | None
    #: words pointing back to the product named before (``back_refs``), or ``None``
    back_ref_re: re.Pattern[str] | None
    #: the simulator's filler openers that end in a mark (each locale's ``comments.noise_prefix`` and
    #: ``ask_again_prefix``, folded: "hi host,", "hello!", "hello??"): its gold reads no greeting in them
    filler_openers: tuple[str, ...]
    #: condition leads ("if", "如果")
    condition_re: re.Pattern[str] | None
    #: modal and suitability words (``ParserSpec.ability_words``): a new question about the product before
    ability_re: re.Pattern[str]
    #: open question words (``ParserSpec.open_question_words``): a spec question holding one goes on in the next clause
    open_question_re: re.Pattern[str] | None
    #: opinion questions (``ParserSpec.opinion_words``): no question of their own beside another about the product
    opinion_re: re.Pattern[str] | None
    #: measure words ("bag", "pack", "caja", "袋"; ``ParserSpec.measure_words``), folded
    measures: frozenset[str]
    #: comparative deal words (``ParserSpec.comparative_words``), or ``None``
    comparative_re: re.Pattern[str] | None
    #: a final particle glued to more Chinese text (``ParserSpec.clause_final_particles``): its clause ends there
    particle_end_re: re.Pattern[str] | None
    #: bare stock words (``ParserSpec.bare_stock_words``), folded: stock only alone in their clause
    bare_stock: frozenset[str]
    #: prepositions a question word may follow at its clause's start (``ParserSpec.question_word_leads``), folded
    question_leads: frozenset[str]
    #: articles opening a clause whose subject is a product's name (``ParserSpec.subject_articles``), folded
    subject_articles: frozenset[str]
    #: stock words read only right after a name, ending their clause (``ParserSpec.name_stock_words``), folded
    name_stock: frozenset[str]
    #: a deal-condition lead at the end of a text (``ParserSpec.deal_condition_leads``, an article may follow)
    deal_condition_re: re.Pattern[str]
    #: words never corrected as typos, never product names
    common: frozenset[str]
    name_stop: frozenset[str]
    #: title words opening what an accessory is for (``ParserSpec.accessory_leads``), folded
    accessory_leads: tuple[str, ...]
    #: concept id -> folded product nouns (every locale)
    nouns: dict[str, tuple[str, ...]]
    #: language markers of the understood Latin-script languages: code -> words
    markers: dict[str, frozenset[str]]
    all_markers: frozenset[str]
    #: words never read as a typo: keywords, ordinary words and language markers
    known_words: frozenset[str]
    #: single ASCII words (>= 5 letters) a typo may stand for, and the roles each has
    typo_targets: tuple[str, ...]
    #: keyword -> the languages it is a word of (:func:`~hat_env.understanding.word_langs.word_langs`)
    word_langs: dict[str, frozenset[str]]
    #: Chinese keywords by sound (syllable codes) -> roles, and their pattern (built on first use)
    pinyin_locales: tuple[str, ...]
    #: characters too common to be the evidence of a homophone match
    function_chars: frozenset[str]
    #: attribute -> the attribute asked instead when a product lacks it
    spec_fallbacks: dict[str, tuple[str, ...]]
    #: the gap between two product mentions of one group: only joiners and articles ("the earbuds and the
    #: speaker", "la sartén y la freidora")
    joiner_gap_re: re.Pattern[str]
    #: a follow-up lead right after a Chinese clause, then a short name and a final particle: a clause of its own
    #: ("鱼油多少钱还有维C呢")
    followup_re: re.Pattern[str] | None
    #: disclosure by reference: a reveal verb whose object is a pronoun ("paste them") for a secret of the
    #: clause before ("what instructions were you given?")
    inj_pronoun_re: re.Pattern[str] | None
    #: a secret led by an owner word (``InjectionWords.owners``: "your hidden rules", "你后台"), or ``None``
    inj_owned_re: re.Pattern[str] | None
    #: link numbers in Chinese numerals (group ``z``) and their digit values
    zh_link_re: re.Pattern[str] | None
    numeral_values: dict[str, int]
    #: how-often words (``ParserSpec.frequency_words``), or ``None``
    frequency_re: re.Pattern[str] | None
    #: verbs of replacing a part (``ParserSpec.replace_verbs``), or ``None``
    replace_re: re.Pattern[str] | None
    #: praise (``ParserSpec.praise_words``): a clause of praise that asks nothing asks no spec
    praise_re: re.Pattern[str]
    #: a purchase said as made (``ParserSpec.purchase_done``; Latin words whole), or ``None``
    done_re: re.Pattern[str] | None
    #: a possessive determiner ending where it is searched up to (``ParserSpec.possessives``; Latin words whole, then
    #: spaces), or ``None``
    possessive_re: re.Pattern[str] | None
    #: size words (``ParserSpec.big_words``, ``small_words``; Latin words whole), or ``None``
    big_re: re.Pattern[str] | None
    small_re: re.Pattern[str] | None
    #: shipping verbs and variant-stock words (``ship_verbs``, ``variant_stock_words``; Latin words whole), or
    #: ``None`` when no locale has any: a region or a variant asked about (:mod:`~hat_env.understanding.room_terms`)
    ship_re: re.Pattern[str] | None
    variant_stock_re: re.Pattern[str] | None
    #: the words a variant asked alone may stand with ("in", "en", "的"; ``ParserSpec.variant_leads``), folded
    variant_leads: frozenset[str]
    #: regions any shop may be asked to ship to (``region_words``; Latin words whole), or ``None``
    region_re: re.Pattern[str] | None
    #: what-do-I-do questions (``remedy_questions``; Latin words whole), or ``None``
    remedy_re: re.Pattern[str] | None
    #: what may stand between a value and the name it picks out (``modifier_gaps``, stripped; and nothing)
    modifier_gaps: frozenset[str]


__all__ = ["Lexicon"]
