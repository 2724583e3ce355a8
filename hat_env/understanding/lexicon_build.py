"""Compiling the parser vocabulary (:class:`~hat_env.understanding.lexicon_fields.Lexicon`): every locale
file's ``parser`` section with a catalog vocabulary's spec and deal words. Cached per vocabulary by
:func:`hat_env.understanding.lexicon.lexicon`; see that module for the word roles."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hat_env.locales import ParserSpec, builtin_locales, get_locale
from hat_env.understanding.fold import fold
from hat_env.understanding.lexicon_fields import Lexicon
from hat_env.understanding.lexicon_parts import (
    _add,
    _all,
    _buy_count_re,
    _count_of_re,
    _fallbacks,
    _joiner_gap_re,
    _lang,
    _whole_words_re,
)
from hat_env.understanding.openers import followup_re, greeting_re, thanks_re
from hat_env.understanding.word_langs import word_langs
from hat_env.understanding.wordpat import Role, alternation, latin_whole_re

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.vocabulary import Vocabulary


def build_lexicon(vocabulary: "Vocabulary") -> Lexicon:
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


__all__ = ["build_lexicon"]
