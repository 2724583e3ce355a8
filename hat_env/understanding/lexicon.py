"""The comment parser's vocabulary, compiled: every locale file's ``parser`` section (:class:`hat_env.locales
.ParserSpec`) and the spec words and campaign-type words of the room's catalog vocabulary
(:mod:`hat_env.sim.vocabulary`; the default one unless a room declares its own), folded
(:func:`~hat_env.understanding.fold.fold`) and turned into a few precompiled patterns, built on first use and
cached per vocabulary.

A word has one or more *roles*: ``("kind", k)`` an intent keyword, ``("spec", attr)`` a spec word (``attr`` None:
a generic spec question), ``("value", attr)`` a spec value that names its attribute, ``("cond", None)`` a health
condition, ``("qty", None)`` a quantity word, ``("idweak", None)`` an identity word that needs an addressee,
``("addr", None)`` an addressee, ``("deal", type)`` a word for a kind of deal (``bundle``, ``code``: the
vocabulary's ``campaign_words``; it replaces the word's other roles). Every pattern is an alternation of literal words factored into a trie (no
nested quantifiers), so matching is linear in the comment's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hat_env.locales import ParserSpec, builtin_locales, get_locale
from hat_env.understanding.fold import fold
from hat_env.understanding.openers import followup_re, greeting_re, thanks_re
from hat_env.understanding.sounds import SoundTables, sound_tables
from hat_env.understanding.word_langs import word_langs
from hat_env.understanding.wordpat import Role, alternation, latin_whole_re, locale_words, trie_pattern

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.vocabulary import Vocabulary


def _buy_count_re(specs: dict[str, ParserSpec]) -> re.Pattern[str]:
    """A buy verb, a count (digits, a locale's numeral characters or count words) and a measure word."""
    verbs = sorted({fold(w) for p in specs.values() for w in p.buy_verbs})
    counts = sorted({fold(w) for p in specs.values() for w in p.count_words})
    chars = "".join(sorted({c for p in specs.values() for c in fold(p.numerals)}))
    measures = sorted({fold(w) for p in specs.values() for w in p.measure_words})
    num = r"\d{1,3}" + (f"|[{re.escape(chars)}]{{1,3}}" if chars else "") + (f"|{alternation(counts)}" if counts else "")
    return re.compile(rf"(?:{alternation(verbs)})\s*(?:{num})\s*(?:{alternation(measures)})")


def _count_of_re(specs: dict[str, ParserSpec]) -> re.Pattern[str] | None:
    """A count (1-2 digits or a count word) then a ``count_of_words`` word and the spaces after it."""
    of_words = sorted({fold(w) for p in specs.values() for w in p.count_of_words if fold(w)})
    if not of_words:
        return None
    counts = sorted({fold(w) for p in specs.values() for w in p.count_words if fold(w)})
    num = r"\d{1,2}" + (f"|{alternation(counts)}" if counts else "")
    return re.compile(rf"(?<![\w.,])(?:{num})\s+(?:{alternation(of_words)})\s*")


def _all(inj: list[Any], *fields: str) -> list[str]:
    """The folded words of ``fields`` of every locale's injection words (``inj``), sorted, without repeats."""
    return sorted({fold(w) for i in inj for f in fields for w in getattr(i, f)})


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


def _add(roles: dict[str, list[Role]], word: str, role: Role) -> None:
    """Give the folded ``word`` the role ``role``; a Latin word written with an apostrophe ("what's inside",
    "don't buy") gets it without the apostrophe too, as viewers type it ("whats inside", "dont buy")."""
    w = fold(word.strip())
    if not w:
        return
    for v in {w, *([w.replace("'", "")] if "'" in w and w.replace("'", "").strip() else [])}:
        lst = roles.setdefault(v, [])
        if role not in lst:
            lst.append(role)


def _lang(locale: str) -> str:
    return locale.split("_")[0]


_DEFAULT: list[Lexicon] = []
_BY_KEY: dict[str, Lexicon] = {}


def lexicon(vocabulary: "Vocabulary | None" = None) -> Lexicon:
    """The compiled vocabulary of every built-in locale with the spec and deal words of ``vocabulary`` (``None``:
    the default catalog vocabulary). Built on first use, then cached per vocabulary (:attr:`Vocabulary.key`)."""
    if vocabulary is None or (_DEFAULT and vocabulary.key == _DEFAULT[0].vocabulary_key):
        if not _DEFAULT:
            from hat_env.sim.vocabulary import default_vocabulary

            _DEFAULT.append(_build(default_vocabulary()))
        return _DEFAULT[0]
    if not _DEFAULT:
        lexicon()
        if vocabulary.key == _DEFAULT[0].vocabulary_key:
            return _DEFAULT[0]
    hit = _BY_KEY.get(vocabulary.key)
    if hit is None:
        if len(_BY_KEY) > 32:
            _BY_KEY.clear()
        hit = _BY_KEY[vocabulary.key] = _build(vocabulary)
    return hit


def _build(vocabulary: "Vocabulary") -> Lexicon:
    """Compile the locale files' parser sections with ``vocabulary``'s spec words and deal words."""
    specs: dict[str, ParserSpec] = {loc: get_locale(loc).parser for loc in builtin_locales()}
    roles: dict[str, list[Role]] = {}
    spec_words = vocabulary.spec_words()
    for loc, p in specs.items():
        for kind, words in p.keywords.items():
            for w in words:
                _add(roles, w, ("spec", None) if kind == "spec_generic" else ("kind", kind))
        for attr, by_loc in spec_words.items():
            for w in by_loc.get(loc, ()):
                _add(roles, w, ("spec", attr))
        for attr, words in p.spec_words.items():
            for w in words:
                _add(roles, w, ("spec", attr))
        for attr, words in p.spec_values.items():
            for w in words:
                _add(roles, w, ("value", attr))
        for w in p.conditions:
            _add(roles, w, ("cond", None))
        for w in p.purchase_cheers:
            _add(roles, w, ("cheer", None))
        for w in p.count_quantity:
            _add(roles, w, ("qty", "count"))
        for w in p.quantity:
            _add(roles, w, ("qty", None))
        for w in p.identity_weak:
            _add(roles, w, ("idweak", None))
    extra = sorted({loc for by_loc in spec_words.values() for loc in by_loc} - set(specs))
    for loc in extra:  # a vocabulary's words in a locale with no locale file are read too
        for attr, by_loc in spec_words.items():
            for w in by_loc.get(loc, ()):
                _add(roles, w, ("spec", attr))
    for attr, spec in vocabulary.attributes.items():  # what the host calls an attribute, and its key's words
        names = [*spec.labels.values(), attr.replace("_", " ")]  # ("noise level", "适用阶段"): a word nothing else is
        for w in names:
            fw = fold(w.strip())
            if len(fw) >= (2 if not fw.isascii() else 4) and fw not in roles:
                _add(roles, fw, ("spec", attr))
    own: dict[str, set[str]] = {}  # the vocabulary's spec words win over the locale files' guesses
    for attr, by_loc in spec_words.items():
        for words_ in by_loc.values():
            for w in words_:
                if fold(w.strip()):
                    own.setdefault(fold(w.strip()), set()).add(attr)
    for w, attrs in own.items():
        roles[w] = [r for r in roles[w] if r[0] not in ("spec", "value") or r[1] in attrs]
    deal_locales = sorted({loc for v in vocabulary.spec.campaign_words.values() for loc in v})
    for loc in deal_locales:  # a word for a kind of deal is only that ("bundle": a question about the bundle)
        for deal, deal_words in vocabulary.campaign_words(loc).items():
            for w in deal_words:
                if fold(w.strip()):
                    roles[fold(w.strip())] = [("deal", deal)]
    for loc, p in specs.items():  # misspellings take the roles of what they stand for
        for wrong, right in p.misspellings.items():
            for r in roles.get(fold(right), []):
                _add(roles, wrong, r)
    frozen = {w: tuple(rs) for w, rs in roles.items()}

    def words(attr: str) -> list[str]:
        out: list[str] = []
        for p in specs.values():
            out.extend(fold(w) for w in getattr(p, attr))
        return sorted(set(w for w in out if w))

    prefixes, suffixes = words("link_prefix"), words("link_suffix")
    num = r"(?P<n>\d{1,3})(?![\d.,]?\d)"
    pre = "|".join(re.escape(w) + (r"\s*" if w[-1].isalnum() else r"\s*") for w in sorted(prefixes, key=len, reverse=True))
    suf = "|".join(re.escape(w) + (r"(?![a-z])" if w[-1].isascii() else "")
                   for w in sorted(suffixes, key=len, reverse=True))
    link_re = re.compile(
        rf"(?<![a-z0-9_-])(?:{pre})[#＃]?\s*{num}|(?<![a-z0-9_.-])(?P<m>\d{{1,3}})\s*(?:{suf})"
    )
    joiners, articles = words("link_joiners"), words("link_articles")
    j = "|".join(re.escape(w) for w in sorted(joiners, key=len, reverse=True))
    a = "|".join(re.escape(w) for w in sorted(articles, key=len, reverse=True))
    joiner_re = re.compile(rf"\s*(?:,\s*)?(?:{j})\s*(?:(?:{a})\s*)?[#＃]?(?P<n>\d{{1,3}})(?![\d.,]?\d)(?!\s*(?:{suf}))")
    numeral_values: dict[str, int] = {}
    for p in specs.values():
        if len(p.numerals) >= 11:
            for i, ch in enumerate(p.numerals[:11]):
                numeral_values[ch] = i
            for ch in p.numerals[11:]:
                numeral_values[ch] = 2
    zh_link_re = None
    if numeral_values:
        cls = "[" + "".join(re.escape(c) for c in numeral_values) + "]{1,3}"
        han_suf = [re.escape(w) for w in suffixes if not w.isascii() and len(w) >= 2]
        han_pre = [re.escape(w) for w in prefixes if not w.isascii()]
        alts = []
        if han_suf:  # "三号链接" (a bare "三号" may be a date: "三号发货")
            alts.append(f"(?P<z>{cls})\\s*(?:{'|'.join(sorted(han_suf, key=len, reverse=True))})")
        if han_pre:
            alts.append(f"(?:{'|'.join(han_pre)})\\s*(?P<y>{cls})")
        zh_link_re = re.compile("|".join(alts)) if alts else None
    ow = words("order_words")
    order_re = re.compile(
        r"(?:" + alternation(ow) + r")\s*(?:[:：#]|no\.?|number|id)?\s*"
        r"(?!\d{1,3}(?![a-z0-9_-]))"  # 1-3 bare digits are link numbers ("order #3" is a purchase)
        r"((?=[a-z0-9_-]*\d)[a-z0-9][a-z0-9_-]{0,39})(?![a-z0-9_-])"
    )
    inj = [p.injection for p in specs.values()]
    trig = sorted({fold(w) for i in inj for w in (*i.triggers, *i.say_triggers)})
    heads = sorted({fold(w) for i in inj for w in i.heads})
    objs = sorted({fold(w) for i in inj for w in i.objects})
    says = sorted({fold(w) for i in inj for w in (*i.say, *i.say_triggers)})
    addr, weak = words("addressee"), [w for w, rs in frozen.items() if ("idweak", None) in rs]
    filler = r"(?:(?:a|an|the|really|actually|even|just|like|是|是不是|是个|真的是|不会是|该不会是|难道是|怕不是|其实是|una?|de verdad)\s*){0,2}"
    identity_re = re.compile(rf"(?:{alternation(addr)})\s*{filler}(?:{alternation(weak)})")
    cj = words("clause_joiners")
    joint_re = re.compile(r"[,，。？?！!；;\n]|\.(?=\s)|(?<![a-z])(?:" + "|".join(map(re.escape, cj)) + r")(?![a-z])")
    qmarks = frozenset(fold(w) for p in specs.values() for w in p.question_marks)
    qwords = words("question_words")
    nouns: dict[str, list[str]] = {}
    for p in specs.values():
        for cid, ws in p.nouns.items():
            nouns.setdefault(cid, []).extend(fold(w) for w in ws)
    markers = {_lang(loc): frozenset(fold(w) for w in p.markers) for loc, p in specs.items() if p.markers}
    typo_targets = tuple(sorted(w for w, rs in frozen.items()
                                if w.isascii() and w.isalpha() and len(w) >= 5
                                and any(r[0] in ("kind", "spec", "deal") for r in rs)))
    return Lexicon(
        vocabulary_key=vocabulary.key,
        attributes=frozenset(vocabulary.attributes),
        roles=frozen,
        words_re=re.compile(alternation(list(frozen))),
        link_re=link_re,
        joiner_re=joiner_re,
        order_re=order_re,
        inj_trigger_re=re.compile(alternation(trig, plural=True)),
        inj_head_re=re.compile(alternation(heads)),
        inj_object_re=re.compile(alternation(objs)),
        say_re=re.compile(alternation(says)),
        say_trigger_words=frozenset(fold(w) for i in inj for w in i.say_triggers),
        inj_command_re=re.compile(
            rf"[\s,，:：]*(?P<lead>(?:(?:{alternation(_all(inj, 'leads', 'modals'))})[\s,，:：]*)*)"
            rf"(?P<cmd>{alternation(_all(inj, 'commands', 'bare_commands'))})"),
        inj_command_word_re=re.compile(alternation(_all(inj, "commands", "bare_commands"))),
        inj_modal_re=re.compile(alternation(_all(inj, "modals"))),
        inj_bare_commands=frozenset(_all(inj, "bare_commands")),
        inj_not_after_re=re.compile(rf"[\s,，:：]*(?:{alternation(_all(inj, 'not_after'))})(?![a-z])"),
        buy_count_re=_buy_count_re(specs),
        count_of_re=_count_of_re(specs),
        amount_re=re.compile(rf"(?:{alternation(words('currency_marks'))})\s?\d+(?:[.,]\d{{1,2}})?(?![\d.,]*\d)"
                             rf"|(?<![\d.,a-z])\d+(?:[.,]\d{{2}})?\s?(?:{alternation(words('currency_marks'))})"
                             r"|(?<![\d.,a-z])\d+[.,]\d{2}(?![\w.,-])") if words("currency_marks") else None,
        policy_attrs=frozenset(a for p in specs.values() for a in p.policy_attrs),
        inj_reveal_re=re.compile(alternation(_all(inj, "reveal"))),
        inj_secret_re=re.compile(alternation(_all(inj, "secrets"))),
        identity_re=identity_re,
        joint_re=joint_re,
        qty_next=frozenset(fold(w) for p in specs.values() for w in p.quantity_price_next),
        question_marks=qmarks,
        question_re=re.compile(alternation(qwords)),
        tag_re=re.compile(r"(?:^|(?<=[\s,，]))(?:" + alternation(words("question_tags")) + r")$")
        if words("question_tags") else None,
        alternative_re=re.compile(r"[a-z0-9\u00e0-\u00ff]\s+(?:" + alternation(words("alternative_words"))
                                  + r")\s+[a-z0-9\u00e0-\u00ff]") if words("alternative_words") else None,
        inversion_re=re.compile(alternation(words("question_inversions")) + r"(?![a-z])")
        if words("question_inversions") else None,
        greeting_re=greeting_re(words("greeting_openers"), addr),
        thanks_re=thanks_re(words("greeting_openers")),
        back_ref_re=re.compile(r"(?<![a-z])(?:" + alternation(words("back_refs")) + r")(?![a-z])")
        if words("back_refs") else None,
        filler_openers=tuple(sorted({fold(w).strip() for loc in builtin_locales()
                                     for w in (*get_locale(loc).comments.noise_prefix,
                                               *get_locale(loc).comments.ask_again_prefix)
                                     if fold(w).strip() and not fold(w).strip()[-1].isalnum()})),
        runon_verbs=frozenset(w.split()[0] for w in words("question_inversions") if " " in w),
        runon_re=re.compile(r"(?<![a-z'])(?:" + alternation([*words("question_inversions"), *words("runon_leads")])
                            + r")(?![a-z])") if words("question_inversions") or words("runon_leads") else None,
        condition_re=re.compile(alternation(words("condition_leads")) + r"(?![a-z])")
        if words("condition_leads") else None,
        ability_re=re.compile(alternation(words("ability_words"))),
        open_question_re=re.compile(alternation(words("open_question_words"))) if words("open_question_words") else None,
        opinion_re=re.compile(alternation(words("opinion_words"))) if words("opinion_words") else None,
        measures=frozenset(words("measure_words")),
        comparative_re=re.compile(alternation(words("comparative_words"))) if words("comparative_words") else None,
        bare_stock=frozenset(words("bare_stock_words")),
        question_leads=frozenset(words("question_word_leads")),
        subject_articles=frozenset(words("subject_articles")),
        name_stock=frozenset(words("name_stock_words")),
        particle_end_re=re.compile("(?<=[\u4e00-\u9fff])[" + "".join(map(re.escape, words("clause_final_particles")))
                                   + "](?=[\u4e00-\u9fff])") if words("clause_final_particles") else None,
        deal_condition_re=re.compile(rf"(?:{alternation(words('deal_condition_leads'))})\s*"
                                     rf"(?:(?:{alternation(articles)})\s*)?$"),
        common=frozenset(fold(w) for p in specs.values() for w in p.common_words),
        name_stop=frozenset(fold(w) for p in specs.values() for w in p.name_stopwords),
        accessory_leads=tuple(sorted({fold(w) for p in specs.values() for w in p.accessory_leads if fold(w)})),
        nouns={k: tuple(dict.fromkeys(v)) for k, v in nouns.items()},
        markers=markers,
        all_markers=frozenset().union(*markers.values()) if markers else frozenset(),
        known_words=frozenset(frozen) | frozenset(fold(w) for p in specs.values() for w in p.common_words)
        | (frozenset().union(*markers.values()) if markers else frozenset())
        # a word of praise is a word, not a typo ("preciosa" is no "precios")
        | frozenset(w for w in words("praise_words") if " " not in w),
        typo_targets=typo_targets,
        word_langs=word_langs(specs, vocabulary),
        pinyin_locales=tuple(loc for loc, p in specs.items() if p.pinyin),
        function_chars=frozenset(fold("".join(p.function_chars for p in specs.values()))),
        spec_fallbacks=_fallbacks(specs),
        joiner_gap_re=_joiner_gap_re(joiners, articles, words("count_words")),
        followup_re=followup_re(words("followup_leads"), qmarks),
        inj_pronoun_re=re.compile(alternation(_all(inj, "pronouns"))) if _all(inj, "pronouns") else None,
        inj_owned_re=re.compile(r"(?<![a-z])(?:" + alternation(_all(inj, "owners")) + r")(?:(?:\s?[a-z0-9]+){0,2}\s?|[\u4e00-\u9fff]{0,3}?)(?:"
                                + alternation(_all(inj, "secrets")) + ")") if _all(inj, "owners") else None,
        zh_link_re=zh_link_re,
        numeral_values=numeral_values,
        praise_re=re.compile(alternation(words("praise_words"))),
        frequency_re=re.compile(alternation(words("frequency_words"))) if words("frequency_words") else None,
        replace_re=_whole_words_re(words("replace_verbs")),
        done_re=latin_whole_re(words("purchase_done")),
        possessive_re=re.compile(r"(?<![a-z])(?:" + alternation(words("possessives")) + r")\s*$")
        if words("possessives") else None,
        big_re=_whole_words_re(words("big_words")),
        small_re=_whole_words_re(words("small_words")),
        ship_re=_whole_words_re(words("ship_verbs")),
        variant_stock_re=_whole_words_re(words("variant_stock_words")),
        region_re=_whole_words_re(words("region_words")),
        remedy_re=_whole_words_re(words("remedy_questions")),
        variant_leads=frozenset(words("variant_leads")),
        modifier_gaps=frozenset({"", *(w.strip() for w in words("modifier_gaps"))}),
    )


def _whole_words_re(words: list[str]) -> re.Pattern[str] | None:
    """``words`` as one pattern, Latin ones whole (``None`` without words)."""
    if not words:
        return None
    return re.compile(r"(?<![a-z])(?:" + alternation(words) + r")(?![a-z])")


def _fallbacks(specs: dict[str, ParserSpec]) -> dict[str, tuple[str, ...]]:
    """Attribute -> the attributes asked instead when a product lacks it, in order, from every locale."""
    out: dict[str, list[str]] = {}
    for p in specs.values():
        for k, v in p.spec_fallbacks.items():
            for alt in ([v] if isinstance(v, str) else v):
                if alt not in out.setdefault(k, []):
                    out[k].append(alt)
    return {k: tuple(v) for k, v in out.items()}


def _joiner_gap_re(joiners: list[str], articles: list[str], counts: list[str] | None = None) -> re.Pattern[str]:
    """The gap between two mentions of one group: separators, joiners, articles and counts ("y dos", "and 2"), in
    any order (6 words at most); Latin words at word boundaries."""
    words = {*joiners, *articles, *(counts or ()), "&", "/", "+"}
    alts = "|".join(re.escape(w) + (r"(?![a-z])" if w[-1:].isascii() and w[-1:].isalpha() else "")
                    for w in sorted(words, key=len, reverse=True) if w) + r"|\d{1,2}(?![\d.,])"
    return re.compile(rf"^[\s,，、]*(?:(?:{alts})[\s,，、]*){{0,6}}$")


__all__ = ["Lexicon", "Role", "SoundTables", "alternation", "lexicon", "locale_words", "sound_tables", "trie_pattern"]
