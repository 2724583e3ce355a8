"""The comment parser: what a viewer's comment asks for, as :class:`~hat_env.types.Intent` values.

``parse_comment(text, locale, catalog=None)`` reads a comment the way a host would: link numbers in any form
(``3号``, ``链接3``, ``#3``, ``link 3``, ``enlace 3``, ``3hao``, "link 1 or 3"), product names, brands and short
names resolved against the room's catalog (:mod:`hat_env.understanding.catalog`), keywords of every locale file
(:mod:`hat_env.understanding.lexicon`), slang, typos (misspellings listed in the locale files, one-letter typos of
a keyword or product name, homophone characters), traditional characters, full-width forms, emoji, pinyin, several
questions in one comment, implicit questions ("还有吗", "sold out?"). A comment in a language the parser does not
read is one ``other_language`` intent (:mod:`hat_env.understanding.language`).

The text is untrusted: it is only matched against precompiled alternations of literal words (no nested
quantifiers, so time is linear in its length), never evaluated; text beyond 2,000 characters is ignored. The
comment is folded character for character (:mod:`hat_env.understanding.fold`), so every position found in the
folded text is the same position in the comment as written: injection payloads and order ids are cut from the
original.

The steps are modules of one concern each: :mod:`~hat_env.understanding.injection` (injections by structure),
:mod:`~hat_env.understanding.clauses` (clause splitting), :mod:`~hat_env.understanding.questions` (what makes a
clause a question), :mod:`~hat_env.understanding.links` (link numbers and order ids),
:mod:`~hat_env.understanding.names` (product resolution), :mod:`~hat_env.understanding.fuzzy` (typos, homophones,
pinyin), :mod:`~hat_env.understanding.attributes` (which spec key), :mod:`~hat_env.understanding.assemble` (the
intents from the hits). This module reads a comment through them and keeps parsers bound to rooms.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_right
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.accessories import drop_accessories
from hat_env.understanding.assemble import assemble, focus_deals, spread
from hat_env.understanding.attributes import unit_questions, value_hits
from hat_env.understanding.catalog import Catalog, catalog_of, gift_words
from hat_env.understanding.clauses import Hit, Mention, blank, clause_bounds, clause_text
from hat_env.understanding.faq_names import faq_names
from hat_env.understanding.holders import only_holders, picked_holders
from hat_env.understanding.fold import fold
from hat_env.understanding.fuzzy import ASCII_TOKEN, pinyin_like, pinyin_roles, sounds, typos
from hat_env.understanding.injection import injections
from hat_env.understanding.language import other_language
from hat_env.understanding.later import restates
from hat_env.understanding.lexicon import Lexicon, lexicon, sound_tables
from hat_env.understanding.links import link_mentions, orders
from hat_env.understanding.names import (drop_modifiers, drop_picking_values, elided_names, head_char_names,
                                         merge_names, name_links, pinyin_names, release_keywords, sound_names)
from hat_env.understanding.possessives import drop_possessed
from hat_env.understanding.purchases import count_purchases, done_purchases
from hat_env.understanding.reasons import drop_counted_exchanges, drop_reasons, remedy_hits, replaced_parts
from hat_env.understanding.questions import is_question, split_phrases
from hat_env.understanding.word_langs import comment_lang, foreign_word, respell_spanish
from hat_env.understanding.variant_after import drop_values_after_names
from hat_env.understanding.variant_values import narrow_by_variant, stated_values, value_names, variant_stock_hits
from hat_env.understanding.room_terms import region_variant_hits, region_word_hits, room_terms
from hat_env.understanding.sizes import by_size_word
from hat_env.understanding.spec_match import drop_idle_specs, resolve_unknown_specs

MAX_PARSE_CHARS = 2000
HAN = re.compile(r"[\u4e00-\u9fff]")
#: what the text after an injection is not read as (its instructions go on; only a question of its own is read)
AFTER_INJECTION_DROPS = frozenset({"chitchat", "troll", "injection", "purchase"})
#: link-less intents a troll comment that asks nothing does not ask ("your prices are a ripoff")
TROLL_DROPS = frozenset({"price", "campaign", "stock", "spec", "shipping"})


class CommentParser:
    """A comment parser bound to one room's catalog (or to none).

    Args:
        catalog: the room (anything with ``products``, and ``orders`` for known order ids, and ``vocabulary``
            for its catalog vocabulary), an iterable of products, a
            :class:`~hat_env.understanding.catalog.Catalog`, or ``None`` (names are then not resolved and spec
            attributes are kept as the words say).
        locale: the room's locale (every locale's words are read whatever it is).
        vocabulary: the room's catalog vocabulary (:class:`hat_env.sim.vocabulary.Vocabulary`), whose spec words
            and deal words are read; ``None``: the catalog's ``vocabulary`` if it has one, else the default.
    """

    def __init__(self, catalog: Any = None, locale: str = "zh_CN", vocabulary: Any = None):
        self.locale = locale
        self.catalog: Catalog | None = catalog_of(catalog)
        orders = getattr(catalog, "orders", None)
        self.order_ids: tuple[str, ...] = tuple(str(o) for o in orders) if orders else ()
        self.vocabulary = vocabulary if vocabulary is not None else getattr(catalog, "vocabulary", None)
        #: the room's campaign codes, folded ("paw10"): a comment naming one asks about that deal
        self.codes: tuple[str, ...] = tuple(sorted({fold(str(c.code)) for c in getattr(catalog, "campaigns", None) or ()
                                                    if getattr(c, "code", None)}))
        #: words of the room's gifts ("冰袋", "catnip mouse"): naming one asks about that deal
        self.gift_words: tuple[str, ...] = gift_words(getattr(catalog, "campaigns", None) or (), self.catalog)
        deal_words = sorted({*self.codes, *self.gift_words}, key=len, reverse=True)
        self._codes_re = re.compile("|".join((r"(?<![a-z0-9])" if w[:1].isascii() else "") + re.escape(w)
                                             + (r"(?![a-z0-9])" if w[-1:].isascii() else "") for w in deal_words)) \
            if deal_words else None
        #: the room's shipping regions and product variants, folded (``None`` when it lists none)
        self.terms = room_terms(catalog) if catalog is not None and not isinstance(catalog, Catalog) else None
        self._lex: Lexicon | None = None

    @property
    def lex(self) -> Lexicon:
        """The compiled words this parser reads (the locale files and its vocabulary), built on first use."""
        if self._lex is None:
            self._lex = lexicon(self.vocabulary)
        return self._lex

    def parse(self, text: str) -> list[Intent]:
        """The intents of one comment, in the order they appear, without duplicates.

        ``injection`` intents (with the payload the injector wants said) end the comment: text from the first
        one on is not read further. A comment in a language the parser does not read is ``[other_language]``.
        Otherwise: order ids (``order_status``; an id-less one only when no id is named); ``compare`` for a
        comparison word and two products (of its clause, else of the comment); product intents with the
        product of their clause (the nearest before, else after, else the last of an earlier clause); ``spec``
        intents with the product's spec key (``"unknown"`` when the catalog is known and the product has no such
        key), ``campaign`` with the kind of deal as ``attr`` for a word of the vocabulary's ``campaign_words``
        ("bundle", "优惠码"; a plain campaign question about the same link is then left out, and so is a code one
        when the bundle is asked about), ``efficacy``, ``identity``, ``troll``, and ``chitchat`` for a greeting next to a question. A
        question about a product that names nothing else is ``spec`` with ``attr="unknown"``. When nothing is
        recognised the result is ``[chitchat]``.
        """
        if not text or not text.strip():
            return [Intent("chitchat")]
        lex = self.lex
        work = text[:MAX_PARSE_CHARS]
        f = fold(work)
        found: list[tuple[int, Intent]] = []
        parts: list[int] = []
        inj, cut, resume = injections(work, f, lex)
        if inj:
            found.extend(inj)
            tail = f[resume:]
            if tail.strip() and lex.inj_reveal_re.search(tail) is None \
                    and lex.inj_command_word_re.search(tail) is None:  # a question of its own after it ("发出来" goes on)
                rest = [(p + resume, it) for p, it in self._read(work[resume:], f[resume:], lex, greeting=False)[0]
                        if it.kind not in AFTER_INJECTION_DROPS]
                found.extend(rest)
            work, f = work[:cut], f[:cut]
        lang = other_language(f, work) if f.strip() else None
        if lang is not None:
            return [it for _, it in inj] or [Intent("other_language", lang=lang)]
        if f.strip():
            if comment_lang(f, lex.markers) == "es":  # "kuanto bale": written as it sounds
                f = respell_spanish(f, lex.known_words)
            read, parts = self._read(work, f, lex, greeting=not inj)
            found.extend(read)
        if not found:
            return [Intent("chitchat")]
        found.sort(key=lambda x: x[0])
        out: list[Intent] = []
        seen: set[tuple[Intent, int]] = set()
        for p, it in found:
            if it.kind == "spec" and it.attr == "unknown" and it.link is not None:
                # two questions no spec names, in two parts of the comment, are two questions ("洁面乳能卸妆吗 会不会
                # 紧绷", "does the charger get hot and is it foldable"); one part asks once
                key = (it, bisect_right(parts, p))
                if key not in seen and it in out and _restated(f, parts, key[1], lex):
                    continue  # "维C孩子能吃吗 几岁能吃": the later part repeats the question's words, it asks it again
                if key not in seen:
                    seen.add(key)
                    out.append(it)
            elif it not in out:
                out.append(it)
        # "表带还有货吗 薄荷绿": the value picks the variant whose stock is asked, it asks no spec
        where: dict[Intent, int] = {}
        for p, it in found:
            where.setdefault(it, p)
        if any(it.kind == "identity" for it in out) and all(it.link is None for it in out):
            out = [it for it in out if it.kind != "troll"]  # "是真人还是AI 说话好像念稿": why the host is asked
        return focus_deals(stated_values(f, out, self.catalog, where, parts))

    def _read(self, work: str, f: str, lex: Lexicon,
              greeting: bool = True) -> tuple[list[tuple[int, Intent]], list[int]]:
        """Everything but injections: ``(position, intent)`` pairs (``greeting``: whether an opening greeting is a
        ``chitchat``; not before an injection: "hey assistant, debug mode on: ..."), and where the comment's parts
        start (clause bounds and clause joiners: a question no spec names is asked once per part)."""
        cat = self.catalog
        found, f = orders(work, f, lex, self.order_ids)
        any_id = bool(found)
        bounds = clause_bounds(f, lex)
        pinyin = None
        if lex.pinyin_locales and ASCII_TOKEN.search(f):
            st = sound_tables()
            if st.pinyin_re is not None and pinyin_like(f, st.syllables):
                pinyin = st

        # -- products: link numbers (groups joined by "和"/"or"), then names ------------------------------------
        mentions, taken, group_of = link_mentions(f, lex, bounds, pinyin,
                                                  frozenset(e.link for e in cat.entries) if cat is not None else None)

        def free(a: int, b: int) -> bool:
            for x, y in taken:
                if a < y and x < b:
                    return False
            return True

        kw_src = f  # link references blanked: "6号链接口味" is not "接口"
        for a, b in taken:
            kw_src = blank(kw_src, a, b)
        buys = [m for m in lex.buy_count_re.finditer(kw_src)  # "来三包", "take two bags": a purchase, its words
                if not is_question(clause_text(f, bounds, bisect_right(bounds, m.start())))]  # no other
        for m in buys:
            kw_src = blank(kw_src, m.start(), m.end())
        kw = list(lex.words_re.finditer(kw_src))
        names: list[Mention] = []
        # a campaign code is no product name ("PADDLE20" names no paddle)
        code_spans = [m.span() for m in self._codes_re.finditer(f) if m.group() in self.codes] \
            if self._codes_re is not None and self.codes else []
        if cat is not None and cat.names_re is not None:
            kw_spans = [k.span() for k in kw]
            for m in cat.names_re.finditer(f):
                if not free(m.start(), m.end()) or any(x < m.end() and m.start() < y for x, y in code_spans):
                    continue
                # a keyword longer than the name wins ("防晒指数" over "防晒"); a name wins a tie ("口红" over "红色")
                a0, b0 = m.span()
                over = [x for x, y in kw_spans if x < b0 and a0 < y and y - x > b0 - a0]
                if over:  # "whey protein per scoop": a shorter name before the keyword still names ("whey")
                    m = _shorter_name(cat.names_re, f, a0, min(over))
                    if m is None:
                        continue
                links = name_links(m.group(), cat.names)
                if links:
                    names.append((m.start(), m.end(), links, bisect_right(bounds, m.start())))
            if pinyin is not None:
                pinyin_names(f, cat, names, bounds, free)
            elif HAN.search(f) and ASCII_TOKEN.search(f):  # "weiyi多少钱": a pinyin name in a Chinese comment
                pinyin_names(f, cat, names, bounds, free, whole=True)
        if names and cat is not None:  # "tint spf and finish": a title's last word that is a keyword asks it
            names = release_keywords(f, names, cat, lex)
        if names:
            spans = [(a, b) for a, b, _, _ in names]
            if any(x < b and a < y for x, y in kw_spans for a, b in spans):
                g = kw_src
                for a, b in spans:
                    g = blank(g, a, b)
                kw = [m for m in lex.words_re.finditer(g) if free(m.start(), m.end())]

        # -- keywords --------------------------------------------------------------------------------------
        hits: list[Hit] = [(m.start(), m.end(), "kind", "purchase") for m in buys]
        lang = comment_lang(f, lex.markers)  # an English comment reads no Spanish "hay", a Spanish one no "sale"
        for m in kw:
            w = m.group()
            roles = lex.roles.get(w) or lex.roles.get(re.sub(r"\s+", " ", w).replace("’", "'"))
            if roles and not foreign_word(w, f, lang, lex.word_langs, lex.markers):
                for r in roles:
                    hits.append((m.start(), m.end(), r[0], r[1]))
        if pinyin is not None and pinyin.pinyin_re is not None:
            for m in pinyin.pinyin_re.finditer(f):  # noqa: SIM102
                if free(m.start(), m.end()) and not any(a <= m.start() < b for a, b, _, _ in names):
                    for r in pinyin.by_pinyin.get(" ".join(m.group().split()), ()) or \
                            pinyin_roles(m.group(), pinyin.by_pinyin):
                        hits.append((m.start(), m.end(), r[0], r[1]))
        if greeting and lex.greeting_re is not None:  # "hi!", "hola Lucía,", "谢谢主播 ...": a greeting next to the question
            greet = lex.greeting_re.match(f)
            if greet is not None and not f.lstrip().startswith(lex.filler_openers):  # "hi host, ": the simulator's
                hits.append((greet.end() - 1, greet.end(), "kind", "chitchat"))  # filler, no greeting in its gold
        if lex.amount_re is not None and cat is not None:  # "is the blender still $49": the price asked back
            asking = {bisect_right(bounds, h[0]) for h in hits
                      if h[2] in ("kind", "spec", "deal", "qty", "value") and h[3] != "chitchat"}
            for m in lex.amount_re.finditer(f):
                c = bisect_right(bounds, m.start())
                last = bisect_right(bounds, m.end() - 1)  # "14,50 €?": a decimal comma is a clause bound
                if c not in asking and free(m.start(), m.end()) \
                        and any(is_question(clause_text(f, bounds, x)) for x in {c, last}):
                    hits.append((m.start(), m.end(), "kind", "price"))
                    asking.add(c)
        covered = [(h[0], h[1]) for h in hits] + [(a, b) for a, b, _, _ in names] + taken + code_spans
        typos(f, lex, cat, covered, hits, names, bounds, lang)
        if not f.isascii() and HAN.search(f):
            if cat is not None:
                sound_names(f, cat, hits, names, mentions, bounds, free)
                elided_names(f, cat, hits, names, mentions, bounds, free)
                head_char_names(f, cat, names, mentions, bounds, free)
            sounds(f, hits, names, mentions, bounds)
        mentions = drop_modifiers(f, merge_names(sorted(mentions + names), f), cat, taken,
                                  [h[1] for h in hits if h[2] in ("spec", "value")])
        mentions = drop_accessories(f, mentions, cat)  # "el lumen 6": the reader, not the case "para Lumen 6"
        mentions, owned = drop_possessed(f, mentions, lex, taken)  # "my cat is scared of noises": the viewer's cat
        mentions = narrow_by_variant(f, mentions, bounds, cat)  # "红色的遥控车": the one with that colour
        mentions = by_size_word(f, mentions, hits, cat, lex, self.vocabulary)  # "el saco grande": the biggest
        if not taken:  # "the blue one": a value only one product has names it
            mentions = value_names(f, mentions, bounds, cat)
            # "熊掉毛吗": the words of one product's FAQ question name it
            mentions = faq_names(f, hits, mentions, bounds, cat,
                                 any(is_question(clause_text(f, bounds, c)) for c in range(len(bounds) + 1)))
        if mentions:  # "any cat food left", "还有口红吗": a question phrase written around a name
            hits.extend(split_phrases(f, hits, mentions, lex))
            hits.extend(count_purchases(f, hits, mentions, bounds, lex))  # "2 of link 4 please"
        if cat is not None and cat.specs_known and mentions:
            unit_questions(f, cat, hits, mentions, bounds, free)

        # -- spec values of the products named ---------------------------------------------------------------
        values = value_hits(f, cat, hits, mentions, bounds, buys, free, pinyin=pinyin is not None)
        if owned:  # "my cat": no species asked
            values = [v for v in values if not any(a <= v[0] < b for a, b in owned)]

        code_clauses: set[int] = set()
        if self._codes_re is not None:  # a campaign code or gift is a question about its deal ("HOME25 works on the
            for m in self._codes_re.finditer(f):  # washer?", "车厘子冰袋还送吗")
                if free(m.start(), m.end()) and not any(h[0] < m.end() and m.start() < h[1] for h in hits) \
                        and not any(x[0] < m.end() and m.start() < x[1] for x in mentions) \
                        and not _part_of_named(f, m, hits, mentions, bounds):
                    hits.append((m.start(), m.end(), "kind", "campaign"))
                    if m.group() in self.codes:
                        code_clauses.add(bisect_right(bounds, m.start()))
        hits, values = drop_picking_values(f, hits, values, mentions, bounds)  # "白色的充电器多少钱": which one
        # "连体衣还有66码吗", "do u have chocolate whey": a variant value and a stock word ask that variant's stock
        hits, values = variant_stock_hits(f, hits, values, mentions, bounds, cat, lex.variant_stock_re)
        hits, values = drop_values_after_names(f, hits, values, mentions, bounds)  # "cuánto cuesta la freidora negra"
        if self.terms is not None:  # "2号发西藏吗", "1号黑色39码多少钱": the room's regions and variants
            hits, values, mentions = region_variant_hits(f, bounds, hits, values, mentions, self.terms)
        hits.extend(region_word_hits(f, bounds, hits, lex))  # "手表寄海南吗": a region any shop is asked about
        hits.extend(remedy_hits(f, bounds, hits, lex))  # "收到漏了 咋处理": what to do about what went wrong
        if lex.region_re is not None and lex.ship_re is not None:
            mentions = _regions_not_named(f, bounds, mentions, lex)
        hits = drop_idle_specs(f, hits, mentions, bounds, cat, lex, self.vocabulary)  # "水彩送什么呀🎨"
        out = assemble(f, hits, values, mentions, bounds, any_id, found, lex, cat, self.vocabulary)
        if any(h[2] == "kind" and h[3] == "troll" for h in hits) \
                and not any(is_question(clause_text(f, bounds, c)) for c in range(len(bounds) + 1)):
            # "ur prices are a scam", "全是库存货 垃圾": an insult that asks nothing names no price or stock question
            out = [(p, it) for p, it in out if not (it.link is None and it.kind in TROLL_DROPS)]
        out = done_purchases(f, out, hits, mentions, bounds, lex)  # "已拍 跑鞋41码": bought, says which
        out = drop_reasons(f, out, hits, bounds, lex)  # "口红颜色不合适能退么": the colour is why, not asked
        out = drop_counted_exchanges(f, out, hits, bounds, lex)  # "cada cuánto se cambia el filtro": a spec
        out = replaced_parts(f, out, hits, bounds, lex)  # "cada cuántos meses se cambia el cabezal": how often
        praise = list(lex.praise_re.finditer(f))
        praised = {bisect_right(bounds, m.start()) for m in praise}
        f_praise = f  # "qué guapa la mochila": an exclamation of praise is no question by its "qué"
        for m in praise:
            f_praise = blank(f_praise, m.start(), m.end())
        praised = {c for c in praised if not is_question(clause_text(f_praise, bounds, c))}
        if praised:  # "口红颜色绝了", "口红颜色好看 多少钱": a clause of praise that asks nothing asks no spec
            out = [(p, it) for p, it in out if not (it.kind == "spec" and bisect_right(bounds, p) in praised)]
        if code_clauses:  # what its clause asks is whether and how the code applies, not a spec
            out = [(p, it) for p, it in out if not (it.kind == "spec" and bisect_right(bounds, p) in code_clauses)]
        parts = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
        f_own = f
        for a, b in owned:  # "my cat is scared of noises": the viewer's cat says no spec of the product
            f_own = blank(f_own, a, b)
        out = resolve_unknown_specs(f_own, out, mentions, bounds, cat)  # "sunscreen white cast?"
        if not mentions and not taken:  # "what ring sizes do u have": the one product with ring sizes
            out = only_holders(picked_holders(f, out, cat, hits, bounds), cat, hits, bounds)  # "las de pantalla"
        return spread(out, mentions, group_of, bounds, f, cat), parts


def _shorter_name(names_re: re.Pattern[str], f: str, a: int, b: int) -> re.Match[str] | None:
    """The longest product name of ``names_re`` that starts at ``a`` and ends by ``b`` in the folded comment ``f``
    (at a word's end for Latin names), or ``None``."""
    for end in range(b, a, -1):
        if f[end - 1].isascii() and f[end - 1].isalnum() and end < len(f) and f[end].isascii() and f[end].isalnum():
            continue
        m = names_re.fullmatch(f, a, end)
        if m is not None:
            return m
    return None


def _restated(f: str, parts: list[int], i: int, lex: Lexicon) -> bool:
    """Whether part ``i`` of the folded comment ``f`` (``parts``: where its parts start) restates the part before it
    (:func:`~hat_env.understanding.later.restates`)."""
    if i < 1:
        return False
    def text(k: int) -> str:
        return f[parts[k - 1] if k > 0 else 0: parts[k] if k < len(parts) else len(f)]
    return restates(text(i), text(i - 1), lex)


def praise_re() -> re.Pattern[str]:
    """Every locale's ``praise_words``, folded, as one pattern (:attr:`Lexicon.praise_re`)."""
    return lexicon().praise_re


_DEFAULT = CommentParser()
#: parsers bound to rooms, by the room's identity, with the products they were built from
_BOUND: "weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], CommentParser]]" = weakref.WeakKeyDictionary()


#: parsers bound to a vocabulary only (no catalog), by the vocabulary's key
_BY_VOCAB: dict[str, CommentParser] = {}


def _parser_for(catalog: Any, locale: str, vocabulary: Any = None) -> CommentParser:
    """A parser bound to ``catalog`` (and ``vocabulary``), reused while the room's products are the same objects."""
    if catalog is None:
        key_v = vocabulary.key
        p = _BY_VOCAB.get(key_v)
        if p is None:
            if len(_BY_VOCAB) > 32:
                _BY_VOCAB.clear()
            p = _BY_VOCAB[key_v] = CommentParser(None, locale, vocabulary)
        return p
    products = getattr(catalog, "products", None)
    if products is None or isinstance(catalog, Catalog):
        return CommentParser(catalog, locale, vocabulary)
    vocab = vocabulary if vocabulary is not None else getattr(catalog, "vocabulary", None)
    key = (*map(id, products), len(getattr(catalog, "orders", None) or ()), getattr(vocab, "key", None))
    try:
        got = _BOUND.get(catalog)
    except TypeError:  # not weak-referenceable
        return CommentParser(catalog, locale, vocabulary)
    if got is not None and got[0] == key and got[1].locale == locale:
        return got[1]
    p = CommentParser(catalog, locale, vocabulary)
    _BOUND[catalog] = (key, p)
    return p


def _regions_not_named(f: str, bounds: list[int], mentions: list, lex: Any) -> list:
    """The mentions less those that are exactly a region word asked about with a sending verb, in a question
    clause naming a product of its own ("蚕丝被发新疆吗" with 新疆 in another product's title): the region."""
    out = list(mentions)
    for m in lex.region_re.finditer(f):
        c = bisect_right(bounds, m.start())
        span = (m.start(), m.end())
        if not any((x[0], x[1]) == span for x in out) or not any(x[3] == c and (x[0], x[1]) != span for x in out):
            continue
        text = clause_text(f, bounds, c)
        if lex.ship_re.search(text) is not None and is_question(text):
            out = [x for x in out if (x[0], x[1]) != span]
    return out


def _part_of_named(f: str, m: "re.Match[str]", hits: list, mentions: list, bounds: list[int]) -> bool:
    """Whether the Latin gift word ``m`` follows a product's name right away in a clause naming no deal ("is the
    charger cable included?"): a part of that product, not the gift."""
    if not m.group().isascii():
        return False
    c = bisect_right(bounds, m.start())
    glued = any(x[1] <= m.start() and not f[x[1]:m.start()].strip() and x[3] == c for x in mentions)
    return glued and not any(bisect_right(bounds, h[0]) == c and (h[2] == "deal" or h[2:] == ("kind", "campaign"))
                             for h in hits)


def parse_comment(text: str, locale: str = "zh_CN", catalog: Any = None, vocabulary: Any = None) -> list[Intent]:
    """Read one comment's intents (see :meth:`CommentParser.parse`).

    Args:
        text: the untrusted comment text (only matched, never evaluated; beyond 2,000 characters ignored).
        locale: the room's locale; every locale's words are read whatever it is.
        catalog: the room (or its products, or a :class:`~hat_env.understanding.catalog.Catalog`) to resolve
            product names and spec keys against; ``None`` reads link numbers only and keeps spec attributes as
            the words say.
        vocabulary: the room's catalog vocabulary (:class:`hat_env.sim.vocabulary.Vocabulary`): its spec words
            and deal words are read ("life stage", "bundle"); ``None``: the catalog's ``vocabulary`` attribute
            when it has one, else the default vocabulary.

    Returns:
        The intents in the order they appear, without duplicates; ``[Intent("chitchat")]`` when nothing is
        recognised.
    """
    if catalog is None and vocabulary is None:
        return _DEFAULT.parse(text)
    return _parser_for(catalog, locale, vocabulary).parse(text)


__all__ = ["MAX_PARSE_CHARS", "CommentParser", "parse_comment"]
