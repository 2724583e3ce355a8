"""The comment parser: what a viewer's comment asks for, as :class:`~hat_env.types.Intent` values.

(Over 500 lines: one pass over the folded comment, whose steps (links, names, keywords, clauses, follow-ups) share
the clause state and the folded-to-written positions; the word tables are in lexicon.py and catalog.py.)

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
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_right
from functools import lru_cache
from typing import Any

from hat_env.types import Intent
from hat_env.understanding.catalog import Catalog, catalog_of, gift_words, sound_name_table
from hat_env.understanding.fold import fold, fuzzy_sound, sound
from hat_env.understanding.language import other_language
from hat_env.understanding.lexicon import Lexicon, lexicon, sound_tables

MAX_PARSE_CHARS = 2000

# clause bounds: punctuation, a space next to a Chinese character, and emoji written between Chinese words as a
# separator ("口红多少钱🙏粉底液呢")
_CLAUSE_RE = re.compile(r"[,，。？?！!；;\n]|\.(?=\s)|(?<=[\u4e00-\u9fff\w])\s+(?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff])\s+"
                        r"|(?<=[\u4e00-\u9fff])[\u2600-\u27bf\U0001f000-\U0001faff\ufe0f\u200d]+(?=[\u4e00-\u9fff\w])")
_SENT_END_RE = re.compile(r"[。？?！!\n]|\.(?=\s)")
_BARE_ID_RE = re.compile(r"(?<![A-Za-z0-9_-])([A-Z]{1,4}-?\d{4,12})(?![A-Za-z0-9_-])")
_ASCII_TOKEN = re.compile(r"[a-z][a-z']*")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_DIGIT = re.compile(r"\d")
_HAN_RUN2 = re.compile(r"[\u4e00-\u9fff]{2,}")
_A_NOT_A = re.compile(r"([\u4e00-\u9fff])[不没]\1")
_QUESTION_CHARS = frozenset("?？❓❔¿")
_TRAIL = " \t~～。.!！…😭😂🤔👀🙏😍🥺" 
_QUOTE_PAIRS = {"“": "”", '"': '"', "「": "」", "『": "』", "'": "'", "‘": "’"}
_COLON_RE = re.compile(r"[:：]")
_PAYLOAD_OPEN = frozenset(":：\"'“‘「『")  # a colon or an opening quote: what follows is to be said as written
_PAYLOAD_TRAIL = " \t\r\n.。!！?？~～"
_PRODUCT_KINDS = frozenset({"price", "stock", "campaign", "shipping", "after_sales", "purchase", "spec"})

# A hit: (start, end, role type, value)
Hit = tuple[int, int, str, "str | None"]
# A product mention: (start, end, links, clause)
Mention = tuple[int, int, frozenset[int], int]


def _is_emoji(ch: str) -> bool:
    o = ord(ch)
    return 0x2600 <= o <= 0x27BF or o >= 0x1F000 or o in (0xFE0F, 0x200D)


def _payload_after(text: str, start: int) -> str | None:
    """The injection payload that starts at ``start`` (after a say-verb), quotes and trailing noise removed."""
    i = start
    n = len(text)
    while i < n and text[i] in " \t:：,，":
        i += 1
    if i >= n:
        return None
    close = _QUOTE_PAIRS.get(text[i])
    if close is not None:
        j = text.find(close, i + 1)
        if j > i + 1:
            return text[i + 1 : j]
        body = text[i + 1 :]
    else:
        body = text[i:]
    body = body.rstrip(_PAYLOAD_TRAIL + "”\"」』’'")
    while body and _is_emoji(body[-1]):
        body = body[:-1].rstrip(_PAYLOAD_TRAIL)
    return body or None


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


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
        self._lex: Lexicon | None = None

    @property
    def lex(self) -> Lexicon:
        """The compiled words this parser reads (the locale files and its vocabulary), built on first use."""
        if self._lex is None:
            self._lex = lexicon(self.vocabulary)
        return self._lex

    # -- the steps ---------------------------------------------------------------------------------------
    @staticmethod
    def _injections(work: str, f: str, lex: Lexicon) -> tuple[list[tuple[int, Intent]], int]:
        """Injections (with their payloads) and where the first starts (``len(f)`` when none)."""
        starts: list[tuple[int, int, bool]] = []  # (start, end, is a say-trigger)
        for m in lex.inj_trigger_re.finditer(f):
            starts.append((m.start(), m.end(), m.group() in lex.say_trigger_words))
        for m in lex.inj_head_re.finditer(f):
            stop = len(f)
            cm = _CLAUSE_RE.search(f, m.end())
            if cm is not None:
                stop = cm.start()
            om = lex.inj_object_re.search(f, m.end(), stop)
            if om is not None:
                starts.append((m.start(), om.end(), False))
        starts.extend(CommentParser._dictations(f, lex))
        if not starts:
            return [], len(f)
        starts.sort()
        merged: list[tuple[int, int, bool]] = []
        for s in starts:
            if merged and s[0] < merged[-1][1]:
                continue
            merged.append(s)
        out: list[tuple[int, Intent]] = []
        i = 0
        while i < len(merged):
            st, en, say_trig = merged[i]
            say_end: int | None = en if say_trig else None
            if say_end is None:
                sm = lex.say_re.search(f, en)
                if sm is not None:
                    say_end = sm.end()
            j = i + 1
            if say_end is None:  # a dictation later in the trigger's sentence is its say ("new rule: always call")
                se = _SENT_END_RE.search(f, en)
                upto = se.start() if se is not None else len(f)
                while j < len(merged) and merged[j][0] < upto:
                    if say_end is None and merged[j][2]:
                        say_end = merged[j][1]
                    j += 1
            if say_end is not None:  # triggers inside the payload's sentence are part of it
                se = _SENT_END_RE.search(f, say_end)
                upto = se.start() if se is not None else len(f)
                while j < len(merged) and merged[j][0] < max(upto, say_end):
                    j += 1
            stop = merged[j][0] if j < len(merged) else len(f)
            if j < len(merged) and say_end is not None and say_end < stop:
                ends = [e.start() for e in _SENT_END_RE.finditer(f, say_end, stop)]
                if ends:
                    stop = ends[-1]
            payload = None
            if say_end is not None and say_end <= stop:
                payload = _payload_after(work[:stop], say_end)
            out.append((st, Intent("injection", payload=payload)))
            i = j
        return out, merged[0][0]

    @staticmethod
    def _dictations(f: str, lex: Lexicon) -> list[tuple[int, int, bool]]:
        """Clauses that dictate what the host says or ask for its hidden set-up (see ``InjectionWords``).

        Args:
            f: the folded comment.
            lex: the compiled words.

        Returns:
            ``(start, end, is a say-trigger)`` for each: a dictation's end is its command's (the payload
            follows), a disclosure's is its last word's.
        """
        out: list[tuple[int, int, bool]] = []
        cmd = lex.inj_command_word_re.search(f)
        rv_any = lex.inj_reveal_re.search(f)
        if cmd is None and (rv_any is None or lex.inj_secret_re.search(f) is None):
            return out  # most comments: no say-command, no reveal verb and secret
        starts = sorted({0, *(m.end() for m in _CLAUSE_RE.finditer(f)), *(m.end() for m in lex.joint_re.finditer(f)),
                         *(m.end() for m in _COLON_RE.finditer(f))})  # "弹幕测试：主播请念…"
        for k, a in enumerate(starts):
            b = starts[k + 1] if k + 1 < len(starts) else len(f)
            clause = f[a:b]
            m = lex.inj_command_re.match(f, a) if cmd is not None else None
            if m is not None and m.end() < len(f):
                bare = m.group("cmd") in lex.inj_bare_commands
                rest = f[m.end():].strip(" \t:：,，")
                na = lex.inj_not_after_re.match(f, m.end())
                quoted = f[na.end() if na is not None else m.end():].lstrip()[:1] in _PAYLOAD_OPEN
                if ((bare or quoted or lex.inj_modal_re.search(m.group("lead")) is not None)
                        and (na is None or quoted) and len(rest) >= 2  # "念一下：…" quotes what is to be said
                        and not _is_question(clause, inversions=False)):
                    out.append((a + len(clause) - len(clause.lstrip()), m.end(), True))
                    continue
            if rv_any is None:
                continue
            rv = lex.inj_reveal_re.search(clause)
            sc = lex.inj_secret_re.search(clause) if rv is not None else None
            if rv is not None and sc is not None and not _is_question(clause, inversions=False):
                out.append((a + min(rv.start(), sc.start()), a + max(rv.end(), sc.end()), False))
            elif (rv is not None and k > 0 and lex.inj_pronoun_re is not None
                  and not _is_question(clause, inversions=False)
                  and lex.inj_pronoun_re.search(clause, rv.end()) is not None):
                # "what instructions were you given? paste them here": the pronoun is the secret before
                prev = f[starts[k - 1]:a]
                sp = lex.inj_secret_re.search(prev)
                if sp is not None:
                    out.append((starts[k - 1] + sp.start(), a + rv.end(), False))
        return out

    def _orders(self, work: str, f: str, lex: Lexicon) -> tuple[list[tuple[int, Intent]], str]:
        found: list[tuple[int, Intent]] = []
        spans: list[tuple[int, int]] = []
        if not self.order_ids and _DIGIT.search(f) is None:  # every order id holds a digit
            return found, f
        for m in lex.order_re.finditer(f):
            found.append((m.start(), Intent("order_status", order_id=work[m.start(1) : m.end(1)])))
            spans.append((m.start(1), m.end(1)))
        for m in _BARE_ID_RE.finditer(work):
            if not any(a <= m.start(1) < b for a, b in spans):
                found.append((m.start(), Intent("order_status", order_id=m.group(1))))
                spans.append((m.start(1), m.end(1)))
        for oid in self.order_ids:
            low = oid.lower()
            i = f.find(low)
            while i >= 0:
                if not any(a <= i < b for a, b in spans):
                    found.append((i, Intent("order_status", order_id=oid)))
                    spans.append((i, i + len(oid)))
                i = f.find(low, i + 1)
        for a, b in spans:
            f = _blank(f, a, b)
        return found, f

    @staticmethod
    def _pinyin_like(f: str, syllables: frozenset[str]) -> bool:
        """Whether the Latin words of ``f`` read as pinyin (six in ten of them are syllable strings)."""
        toks = _ASCII_TOKEN.findall(f)
        if len(toks) < 2:
            return False
        lex = lexicon()
        known = sum(1 for t in toks if t in lex.roles or t in lex.common)
        if known * 3 > len(toks):  # English or Spanish words
            return False
        ok = sum(1 for t in toks if _is_pinyin_token(t, syllables))
        return ok * 10 >= len(toks) * 6

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
        injections, cut = self._injections(work, f, lex)
        if injections:
            found.extend(injections)
            work, f = work[:cut], f[:cut]
        lang = other_language(f) if f.strip() else None
        if lang is not None:
            return [it for _, it in injections] or [Intent("other_language", lang=lang)]
        if f.strip():
            found.extend(self._read(work, f, lex))
        if not found:
            return [Intent("chitchat")]
        found.sort(key=lambda x: x[0])
        out: list[Intent] = []
        for _, it in found:
            if it not in out:
                out.append(it)
        return _focus_deals(out)

    def _read(self, work: str, f: str, lex: Lexicon) -> list[tuple[int, Intent]]:
        """Everything but injections: ``(position, intent)`` pairs."""
        cat = self.catalog
        found, f = self._orders(work, f, lex)
        any_id = bool(found)
        bounds = [m.start() for m in _CLAUSE_RE.finditer(f)]
        if lex.followup_re is not None and not f.isascii():  # "鱼油多少钱还有维C呢": the follow-up is a clause
            extra = [m.start() for m in lex.followup_re.finditer(f)]
            if extra:
                bounds = sorted(set(bounds) | set(extra))
        pinyin = None
        if lex.pinyin_locales and _ASCII_TOKEN.search(f):
            st = sound_tables()
            if st.pinyin_re is not None and self._pinyin_like(f, st.syllables):
                pinyin = st

        # -- products: link numbers (groups joined by "和"/"or"), then names ------------------------------------
        mentions: list[Mention] = []
        taken: list[tuple[int, int]] = []
        group_of: dict[int, int] = {}  # mention start -> group id (links joined by a joiner word)
        has_digit = _DIGIT.search(f) is not None
        link_iters = [lex.link_re.finditer(f)] if has_digit else []
        if lex.zh_link_re is not None and not f.isascii():
            link_iters.append(lex.zh_link_re.finditer(f))
        if pinyin is not None and pinyin.pinyin_link_re is not None:
            link_iters.append(pinyin.pinyin_link_re.finditer(f))
        for it in link_iters:
            for m in it:
                if taken and not all(m.end() <= x or y <= m.start() for x, y in taken):
                    continue
                n = _link_number(m, lex)
                if n is None:
                    continue
                mentions.append((m.start(), m.end(), frozenset((n,)), bisect_right(bounds, m.start())))
                taken.append((m.start(), m.end()))
                end = m.end()
                while True:
                    jm = lex.joiner_re.match(f, end)
                    if jm is None:
                        break
                    group_of.setdefault(m.start(), m.start())
                    group_of[jm.start("n")] = group_of[m.start()]
                    mentions.append((jm.start("n"), jm.end(), frozenset((int(jm.group("n")),)),
                                     bisect_right(bounds, jm.start("n"))))
                    taken.append((jm.start("n"), jm.end()))
                    end = jm.end()

        def free(a: int, b: int) -> bool:
            for x, y in taken:
                if a < y and x < b:
                    return False
            return True

        kw_src = f  # link references blanked: "6号链接口味" is not "接口"
        for a, b in taken:
            kw_src = _blank(kw_src, a, b)
        buys = [m for m in lex.buy_count_re.finditer(kw_src)  # "来三包", "take two bags": a purchase, its words
                if not _is_question(_clause_text(f, bounds, bisect_right(bounds, m.start())))]  # no other
        for m in buys:
            kw_src = _blank(kw_src, m.start(), m.end())
        kw = list(lex.words_re.finditer(kw_src))
        names: list[Mention] = []
        if cat is not None and cat.names_re is not None:
            kw_spans = [k.span() for k in kw]
            for m in cat.names_re.finditer(f):
                if not free(m.start(), m.end()):
                    continue
                # a keyword longer than the name wins ("防晒指数" over "防晒"); a name wins a tie ("口红" over "红色")
                a0, b0 = m.span()
                if any(x < b0 and a0 < y and y - x > b0 - a0 for x, y in kw_spans):
                    continue
                links = _name_links(m.group(), cat.names)
                if links:
                    names.append((m.start(), m.end(), links, bisect_right(bounds, m.start())))
            if pinyin is not None:
                self._pinyin_names(f, cat, names, bounds, free)
        if names:
            spans = [(a, b) for a, b, _, _ in names]
            if any(x < b and a < y for x, y in kw_spans for a, b in spans):
                g = kw_src
                for a, b in spans:
                    g = _blank(g, a, b)
                kw = [m for m in lex.words_re.finditer(g) if free(m.start(), m.end())]

        # -- keywords --------------------------------------------------------------------------------------
        hits: list[Hit] = [(m.start(), m.end(), "kind", "purchase") for m in buys]
        for m in kw:
            w = m.group()
            roles = lex.roles.get(w) or lex.roles.get(re.sub(r"\s+", " ", w).replace("’", "'"))
            if roles:
                for r in roles:
                    hits.append((m.start(), m.end(), r[0], r[1]))
        if pinyin is not None and pinyin.pinyin_re is not None:
            for m in pinyin.pinyin_re.finditer(f):  # noqa: SIM102
                if free(m.start(), m.end()) and not any(a <= m.start() < b for a, b, _, _ in names):
                    for r in pinyin.by_pinyin.get(" ".join(m.group().split()), ()) or \
                            _pinyin_roles(m.group(), pinyin.by_pinyin):
                        hits.append((m.start(), m.end(), r[0], r[1]))
        covered = [(h[0], h[1]) for h in hits] + [(a, b) for a, b, _, _ in names] + taken
        self._typos(f, lex, cat, covered, hits, names, bounds)
        if not f.isascii() and _HAN.search(f):
            if cat is not None:
                self._sound_names(f, cat, hits, names, mentions, bounds, free)
            self._sounds(f, hits, names, mentions, bounds)
        mentions = _merge_names(sorted(mentions + names), f)
        if cat is not None and cat.specs_known and mentions:
            self._unit_questions(f, cat, hits, mentions, bounds, free)

        # -- spec values of the products named ---------------------------------------------------------------
        value_hits: list[tuple[int, int, int, str]] = []
        spec_clauses = {bisect_right(bounds, h[0]) for h in hits if h[2] in ("spec", "value")}
        if cat is not None and cat.values_re is not None and mentions and \
                any(m[3] not in spec_clauses for m in mentions):
            for m in cat.values_re.finditer(f):
                if not free(m.start(), m.end()) or any(a <= m.start() < b for a, b, _, _ in mentions) \
                        or any(b.start() <= m.start() < b.end() for b in buys):
                    continue
                for link, attr in cat.values.get(m.group(), ()) or cat.values.get(m.group().rstrip("s"), ()):
                    if _quotes_value(f, m.start(), m.end(), link, attr, mentions, cat):
                        continue  # "the 24 lb bag": the name and the word are its value, as written
                    value_hits.append((m.start(), m.end(), link, attr))

        code_clauses: set[int] = set()
        if self._codes_re is not None:  # a campaign code or gift is a question about its deal ("HOME25 works on the
            for m in self._codes_re.finditer(f):  # washer?", "车厘子冰袋还送吗")
                if free(m.start(), m.end()) and not any(h[0] < m.end() and m.start() < h[1] for h in hits) \
                        and not any(x[0] < m.end() and m.start() < x[1] for x in mentions):
                    hits.append((m.start(), m.end(), "kind", "campaign"))
                    if m.group() in self.codes:
                        code_clauses.add(bisect_right(bounds, m.start()))
        out = self._assemble(f, hits, value_hits, mentions, bounds, any_id, found)
        if code_clauses:  # what its clause asks is whether and how the code applies, not a spec
            out = [(p, it) for p, it in out if not (it.kind == "spec" and bisect_right(bounds, p) in code_clauses)]
        return _spread(out, mentions, group_of, bounds, f)

    @staticmethod
    def _pinyin_names(f: str, cat: Catalog, names: list[Mention], bounds: list[int], free: Any) -> None:
        """Product names written in pinyin ("fang shai shuang"), in a comment that reads as pinyin."""
        table = _pinyin_name_table(cat)
        if table is None:
            return
        rx, by = table
        for m in rx.finditer(f):
            if free(m.start(), m.end()):
                links = by.get(" ".join(m.group().split())) or by.get(m.group().replace(" ", ""))
                if links is None:
                    letters = m.group().replace(" ", "")
                    links = next((v for k, v in by.items() if k.replace(" ", "") == letters), None)
                if links:
                    names.append((m.start(), m.end(), links, bisect_right(bounds, m.start())))

    def _typos(self, f: str, lex: Lexicon, cat: Catalog | None, covered: list[tuple[int, int]],
               hits: list[Hit], names: list[Mention], bounds: list[int]) -> None:
        """Latin words of 5+ letters nothing else read: one edit from a keyword or a product name."""
        cands = []
        skip = lex.known_words
        for m in _ASCII_TOKEN.finditer(f):
            w = m.group()
            if len(w) < 5 or w in skip:
                continue
            st = m.start()
            if any(a <= st < b for a, b in covered):
                continue
            cands.append(m)
        if not cands:
            return
        from rapidfuzz import process
        from rapidfuzz.distance import OSA  # edits and transpositions ("spekaer", "wieght")

        for m in cands:
            w = m.group()
            if cat is not None and cat.typo_names:
                r = process.extractOne(w, cat.typo_names, scorer=OSA.distance, score_cutoff=1)
                if r is not None:
                    names.append((m.start(), m.end(), cat.names[r[0]], bisect_right(bounds, m.start())))
                    continue
            r = process.extractOne(w, lex.typo_targets, scorer=OSA.distance, score_cutoff=1)
            if r is not None:
                for role in lex.roles[r[0]]:
                    hits.append((m.start(), m.end(), role[0], role[1]))

    @staticmethod
    def _unit_questions(f: str, cat: Catalog, hits: list[Hit], mentions: list[Mention], bounds: list[int],
                        free: Any) -> None:
        """A question that names a unit ("watts?", "de cuántos cm", "几毫升") asks for the spec of its product
        whose value is in that unit, when exactly one is; a spec hit is appended for it.

        Args:
            f: the folded comment.
            cat: the room's catalog (its products' units).
            hits: the keyword hits so far; the unit's spec hit is appended (never over another hit).
            mentions: the product mentions (the unit's product is found as a keyword's is).
            bounds: the clause bounds.
            free: whether a span is free of link references.
        """
        if not cat.units:
            return
        from hat_env.understanding.units import asked_units

        for a, b, unit in asked_units(f):
            if not free(a, b) or any(m[0] <= a < m[1] for m in mentions) \
                    or any(h[0] < b and a < h[1] for h in hits):
                continue
            c = bisect_right(bounds, a)
            clause = _clause_text(f, bounds, c)
            if not _is_question(clause) and lexicon().question_re.search(clause) is None:  # "de cuántos cm es"
                continue
            link = _link_for(a, c, mentions)
            keys = cat.units.get(link, {}).get(unit) if link is not None else None
            if keys is not None and len(keys) == 1:
                hits.append((a, b, "spec", next(iter(keys))))

    @staticmethod
    def _sound_names(f: str, cat: Catalog, hits: list[Hit], names: list[Mention], mentions: list[Mention],
                     bounds: list[int], free: Any) -> None:
        """Homophone typos of Chinese product names ("防嗮霜", "鱼由", "车里子"), in clauses that name no product:
        a run that sounds like a name (toneless pinyin), differs from it in one character, starts with the
        name's first character (a pinyin input method picked a wrong later one), and overlaps no keyword.

        Args:
            f: the folded comment.
            cat: the room's catalog.
            hits: the keyword hits so far (not changed; a name may not overlap one).
            names: the product-name mentions so far; the names found are appended.
            mentions: the link-number mentions.
            bounds: the clause bounds.
            free: whether a span is free of link references.
        """
        named = {m[3] for m in names} | {m[3] for m in mentions}
        if len(named) > len(bounds):  # every clause names a product
            return
        table = sound_name_table(cat)
        if table is None:
            return
        rx, by = table
        s = fuzzy_sound(f)
        spans = [(h[0], h[1]) for h in hits] + [(m[0], m[1]) for m in names]
        for m in rx.finditer(s):
            a, b = m.span()
            c = bisect_right(bounds, a)
            if c in named or not free(a, b) or any(x < b and a < y for x, y in spans):
                continue
            written = f[a:b]
            links: set[int] = set()
            for word, ls in by[m.group()]:
                if written[0] == word[0] and sum(1 for x, y in zip(written, word) if x != y) == 1:
                    links.update(ls)
            if links:
                names.append((a, b, frozenset(links), c))
                spans.append((a, b))
                named.add(c)

    @staticmethod
    def _sounds(f: str, hits: list[Hit], names: list[Mention], mentions: list[Mention], bounds: list[int]) -> None:
        """Homophone typos of Chinese keywords, in clauses where no keyword was read (at least one character of
        the keyword is written right, and the clause is a question or names a product)."""
        hit_clauses = {bisect_right(bounds, h[0]) for h in hits if h[2] in ("kind", "spec", "value", "cond")}
        han_clauses = {bisect_right(bounds, m.start()) for m in _HAN_RUN2.finditer(f)}
        if han_clauses <= hit_clauses:
            return
        st = sound_tables()
        if st.sound_re is None:
            return
        s = sound(f)
        fchars = lexicon().function_chars
        prod_clauses = {m[3] for m in mentions} | {m[3] for m in names}
        i = 0
        while i < len(s):
            m = st.sound_re.search(s, i)
            if m is None:
                break
            i = m.start() + 1
            c = bisect_right(bounds, m.start())
            if c in hit_clauses:
                continue
            word, roles = st.by_sound[m.group()]
            written = f[m.start() : m.end()]
            # the first character is written right (a pinyin input method picked a wrong later one), and it is
            # not a function character ("有活" is not "有货")
            if written == word or written[0] != word[0] or written[0] in fchars:
                continue
            if c not in prod_clauses and not _is_question(_clause_text(f, bounds, c)):
                continue
            for r in roles:
                hits.append((m.start(), m.end(), r[0], r[1]))
            hit_clauses.add(c)

    # -- building the intents ----------------------------------------------------------------------------
    def _assemble(self, f: str, hits: list[Hit], value_hits: list[tuple[int, int, int, str]],
                  mentions: list[Mention], bounds: list[int], any_id: bool,
                  found: list[tuple[int, Intent]]) -> list[tuple[int, Intent]]:
        lex = self.lex
        cat = self.catalog
        hits.sort()
        if lex.condition_re is not None:
            hits = _drop_conditions(f, hits, bounds, lex)
        deal_ends = [h[1] for h in hits if h[2] == "deal" or (h[2] == "kind" and h[3] == "campaign")]
        if deal_ends:  # "秒杀还有吗", "活动还有吗": right after a deal word, "still there?" asks about the deal
            hits = [h for h in hits if not (h[2] == "kind" and h[3] == "stock"
                                            and any(0 <= h[0] - e <= 1 and not f[e:h[0]].strip() for e in deal_ends))]
        joints: list[int] = bounds
        spec_subs: set[int] = set()
        if any(h[2] == "qty" for h in hits):  # parts of clauses, for the quantity rule
            joints = sorted({m.start() for m in lex.joint_re.finditer(f)} | set(bounds))
            # a quantity word asks the amount of a spec, a shipping fee, a stock count or a deal ("优惠多少") in its
            # part of the clause
            spec_subs = {bisect_right(joints, h[0]) for h in hits
                         if h[2] in ("spec", "value", "deal")
                         or (h[2] == "kind" and h[3] in ("shipping", "stock", "campaign"))}
            spec_subs |= {bisect_right(joints, v[0]) for v in value_hits}
        bare_qty: list[int] = []  # quantity words that ask the amount of nothing the parser names
        flags = set()
        q_cache: dict[int, bool] = {}

        def question(c: int) -> bool:
            if c not in q_cache:
                q_cache[c] = _is_question(_clause_text(f, bounds, c))
            return q_cache[c]

        def link_at(pos: int) -> int | None:
            return _link_for(pos, bisect_right(bounds, pos), mentions)

        def spec_attr(link: int | None, attr: str | None) -> str | None:
            if attr is None:
                return None
            if cat is not None and cat.specs_known:
                if link is not None:
                    if cat.has_attr(link, attr):
                        return attr
                    same = _same_dimension(self.vocabulary, cat.spec_keys.get(link, frozenset()), attr)
                    if same is not None:
                        return same  # "weight" of a product whose own attribute is trail_weight (oz)
                    return next((alt for alt in lex.spec_fallbacks.get(attr, ()) if cat.has_attr(link, alt)),
                                "unknown")
                if attr not in lex.attributes and not any(attr in k for k in cat.spec_keys.values()):
                    return "unknown"
            return attr

        spec_at: dict[tuple[int | None, int], int] = {}  # (link, clause) -> spec intents there
        compared: tuple[int, int | None, int | None] | None = None  # the compare's clause and links
        efficacy_cond: list[tuple[int, int | None, int]] = []
        for start, end, typ, val in hits:
            clause = bisect_right(bounds, start)
            if typ == "kind":
                k = str(val)
                if k in ("troll", "chitchat", "identity"):
                    if k not in flags:
                        found.append((start, Intent(k)))
                        flags.add(k)
                elif k == "order_status":
                    if not any_id and "order" not in flags:
                        found.append((start, Intent("order_status")))
                        flags.add("order")
                elif k == "compare":
                    if "compare" not in flags:
                        pair = _two_products([m for m in mentions if m[3] == clause]) or _two_products(mentions)
                        if pair is not None:
                            found.append((pair[0], Intent("compare", link=pair[1], link2=pair[2])))
                            flags.add("compare")
                            compared = (clause, pair[1], pair[2])
                elif k == "efficacy":
                    found.append((start, Intent("efficacy", link=link_at(start))))
                else:
                    ln = link_at(start)
                    if ln is None and any_id and k in ("shipping", "after_sales"):
                        continue  # "订单A1003什么时候到", "A1003退款了吗": about the order
                    found.append((start, Intent(k, link=ln)))
            elif typ in ("spec", "value"):
                ln = link_at(start)
                attr = spec_attr(ln, val)
                if attr == "unknown" and val in lex.policy_attrs:  # no such spec: the shop's policy ("warranty")
                    found.append((start, Intent("after_sales", link=ln)))
                    continue
                found.append((start, Intent("spec", link=ln, attr=attr)))
                spec_at[(ln, clause)] = spec_at.get((ln, clause), 0) + 1
            elif typ == "deal":  # "is link 1 part of a bundle", "coupon code?": a question about that kind of deal
                found.append((start, Intent("campaign", link=link_at(start), attr=val)))
            elif typ == "cond":
                efficacy_cond.append((start, link_at(start), clause))
            elif typ == "cheer":  # "已拍", "冲冲冲": a purchase said as done or cheered is no request
                continue
            elif typ == "qty":
                sub = bisect_right(joints, start)
                if sub in spec_subs:
                    continue
                nxt = _next_token(f, end, joints)
                if val != "count" and (nxt is None or nxt in lex.qty_next):
                    found.append((start, Intent("price", link=link_at(start))))
                else:
                    flags.add("quantity")
                    bare_qty.append(start)
        for start, end, link, attr in value_hits:
            ln = link_at(start)
            if ln == link:
                found.append((start, Intent("spec", link=ln, attr=attr)))
        for start, ln, clause in efficacy_cond:
            if (ln, clause) not in spec_at and question(clause):
                found.append((start, Intent("efficacy", link=ln)))
        if bare_qty and mentions:  # "坚果保质期多久 有几包": a count of something no spec names, in a clause of its own
            asked = {bisect_right(bounds, h[0]) for h in hits if h[2] != "qty"}
            for start in bare_qty:
                c = bisect_right(bounds, start)
                ln = link_at(start)
                if c not in asked and ln is not None and question(c) and not any(m[3] == c for m in mentions):
                    found.append((start, Intent("spec", link=ln, attr="unknown")))
        if "identity" not in flags and any(h[2] == "idweak" for h in hits):
            m = lex.identity_re.search(f)
            if m is not None:
                found.append((m.start(), Intent("identity")))
        if compared is not None:  # "哪个SPF高", "which is cheaper": what the two are compared on
            found = [(p, it) for p, it in found
                     if not (it.kind in ("spec", "price", "campaign") and bisect_right(bounds, p) == compared[0]
                             and it.link in (None, compared[1], compared[2]))]
        product_found = any(it.kind in _PRODUCT_KINDS or it.kind in ("compare", "efficacy", "order_status")
                            for _, it in found)
        if not product_found and mentions:
            for m in mentions:
                if len(m[2]) == 1 and (question(m[3]) or "quantity" in flags):
                    (ln,) = m[2]
                    found.append((m[0], Intent("spec", link=ln, attr="unknown")))
                    break
            else:  # a question about a name several products share ("精华液孕妇能用吗"): no product, still a question
                shared = next((x for x in mentions if question(x[3])), None)
                if shared is not None and not found:
                    found.append((shared[0], Intent("spec", attr="unknown")))
        return found


@lru_cache(maxsize=8192)
def _is_pinyin_token(t: str, syllables: frozenset[str]) -> bool:
    """Whether ``t`` is a run of pinyin syllables ("duoshao", "zhenren")."""
    n = len(t)
    reach = [False] * (n + 1)
    reach[0] = True
    for i in range(n):
        if reach[i]:
            for k in range(1, min(6, n - i) + 1):
                if t[i : i + k] in syllables:
                    reach[i + k] = True
    return reach[n]


def _link_number(m: re.Match[str], lex: Lexicon) -> int | None:
    """The link number of a link-reference match (digits, or Chinese numerals up to 99)."""
    g = m.groupdict()
    for k in ("n", "m"):
        if g.get(k):
            return int(g[k])
    z = g.get("z") or g.get("y")
    if not z:
        return None
    vals = [lex.numeral_values[c] for c in z]
    if len(vals) == 1:
        return vals[0] or None
    if len(vals) == 2 and vals[0] == 10:
        return 10 + vals[1]
    if len(vals) == 2 and vals[1] == 10:
        return vals[0] * 10
    if len(vals) == 3 and vals[1] == 10:
        return vals[0] * 10 + vals[2]
    return None


def _name_links(w: str, names: dict[str, frozenset[int]]) -> frozenset[int] | None:
    return names.get(w) or names.get(" ".join(w.split())) or _plural_base(w, names)


@lru_cache(maxsize=64)
def _pinyin_name_table(cat: Catalog) -> tuple[re.Pattern[str], dict[str, frozenset[int]]] | None:
    """The catalog's Chinese names in pinyin (two syllables or more) and their pattern."""
    from hat_env.understanding.fold import pinyin_of
    from hat_env.understanding.lexicon import trie_pattern

    by: dict[str, set[int]] = {}
    for w, links in cat.names.items():
        if w.isascii():
            continue
        parts = re.findall(r"[\u4e00-\u9fff]+|[a-z0-9]+", w)
        if "".join(parts) != w.replace(" ", ""):
            continue
        py: list[str] = []
        for part in parts:  # "维c": the Chinese characters in pinyin, Latin letters as written ("wei c")
            if part.isascii():
                py.append(part)
            else:
                got = pinyin_of(part)
                if not got:
                    py = []
                    break
                py.extend(got)
        if len(py) >= 2:
            by.setdefault(" ".join(py), set()).update(links)
    if not by:
        return None
    return re.compile(r"(?<![a-z])" + trie_pattern(sorted(by), True, sep=r"\s*")), {k: frozenset(v) for k, v in by.items()}


def _drop_conditions(f: str, hits: list[Hit], bounds: list[int], lex: Lexicon) -> list[Hit]:
    """The hits without the spec words of a condition ("if my dog hates the chicken flavor, can I return the
    bag": the flavor is the condition, the return is asked): from a condition lead to the next question inversion
    in its clause, or to the clause's end, when something other than a spec is asked after it."""
    assert lex.condition_re is not None
    spans = []
    for m in lex.condition_re.finditer(f):
        c = bisect_right(bounds, m.start())
        end = bounds[c] if c < len(bounds) else len(f)
        inv = lex.inversion_re.search(f, m.end(), end) if lex.inversion_re is not None else None
        stop = inv.start() if inv is not None else end
        if any(h[0] >= stop and h[2] == "kind" for h in hits):
            spans.append((m.start(), stop))
    if not spans:
        return hits
    return [h for h in hits if not (h[2] in ("spec", "value") and any(a <= h[0] < b for a, b in spans))]


def _quotes_value(f: str, a: int, b: int, link: int, attr: str, mentions: list[Mention], cat: Catalog) -> bool:
    """Whether the value word at ``f[a:b]`` and the product name right before it are, together, the product's
    ``attr`` value as written ("24 lb bag" of a "24 lb bag" size): a name, not a question about the value."""
    prev = [m for m in mentions if m[1] <= a and not f[m[1]:a].strip() and link in m[2]]
    if not prev:
        return False
    phrase = "".join(f[prev[-1][0]:b].split())
    return any(k == attr and phrase in "".join(fold(v).split()) for e in cat.entries if e.link == link
               for k, v in e.specs)


def _spread(found: list[tuple[int, Intent]], mentions: list[Mention], group_of: dict[int, int], bounds: list[int],
            f: str) -> list[tuple[int, Intent]]:
    """Product intents also for the other links of their group ("link 2 and link 5 price", "2号和3号有货吗"), and
    for a follow-up clause that only names another product ("3号有货吗 5号呢")."""
    if len(mentions) < 2:
        return found
    kinds_with_link = [(p, it) for p, it in found if it.link is not None and it.kind in _PRODUCT_KINDS]
    if not kinds_with_link or any(it.kind == "compare" for _, it in found):
        return found
    out = list(found)
    # groups of link mentions joined by a joiner word, or link mentions next to each other in one clause
    singles = [m for m in mentions if len(m[2]) == 1]
    groups: dict[int, list[Mention]] = {}
    for i, m in enumerate(singles):
        gid = group_of.get(m[0])
        if gid is None and i > 0:
            prev = singles[i - 1]
            gap = f[prev[1] : m[0]]
            if _is_joiner_gap(gap):  # only spaces, joiners and articles (it may be a clause bound)
                gid = group_of.get(prev[0], prev[0])
                if prev[0] not in group_of:
                    groups.setdefault(gid, []).append(prev)
                group_of[prev[0]] = gid
                group_of[m[0]] = gid
        if gid is not None:
            groups.setdefault(gid, []).append(m)
    named_clauses = {m[3] for m in mentions}
    for ms in groups.values():
        links = {next(iter(m[2])) for m in ms}
        own = {m[3] for m in ms}
        for p, it in kinds_with_link:
            c = bisect_right(bounds, p)  # asked in the group's clause, or in a later one that names nothing
            if c not in own and (c < max(own) or c in named_clauses):  # ("口红和粉底一起买便宜吗 粉底油皮行不")
                continue
            if it.link in links:
                for m in ms:
                    (ln,) = m[2]
                    out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    # follow-up clauses: a product named, nothing asked, the previous clause asked something
    asked_clauses = {bisect_right(bounds, p) for p, _ in kinds_with_link}
    for m in singles:
        c = m[3]
        if c in asked_clauses or c == 0 or not _is_question(_clause_text(f, bounds, c)):
            continue
        prev = [it for p, it in kinds_with_link if bisect_right(bounds, p) == c - 1]
        (ln,) = m[2]
        for it in prev:
            out.append((m[0], Intent(it.kind, link=ln, attr=it.attr if it.kind in ("spec", "campaign") else None)))
    return out


def _focus_deals(out: list[Intent]) -> list[Intent]:
    """A question about a kind of deal is asked once: "any deal on the bundle?" drops the plain campaign question
    about the same link, and "does the code work with the bundle?" is one question about the bundle (its answer
    says what stacks with it)."""
    if len(out) < 2:
        return out
    focused = {it.link for it in out if it.kind == "campaign" and it.attr is not None}
    if not focused:
        return out
    out = [it for it in out if not (it.kind == "campaign" and it.attr is None and it.link in focused)]
    bundles = {it.link for it in out if it.kind == "campaign" and it.attr == "bundle"}
    return [it for it in out if not (it.kind == "campaign" and it.attr in ("code", "coupon") and it.link in bundles)]


def _is_joiner_gap(gap: str) -> bool:
    """Whether the text between two product mentions only joins them ("和", " and the ", " y la ")."""
    return bool(gap) and len(gap) <= 12 and lexicon().joiner_gap_re.match(gap) is not None


def _plural_base(w: str, names: dict[str, frozenset[int]]) -> frozenset[int] | None:
    for cut in ("'s", "es", "s"):
        if w.endswith(cut) and w[: -len(cut)] in names:
            return names[w[: -len(cut)]]
    return None


def _pinyin_roles(text: str, by_pinyin: dict[str, Any]) -> tuple[Any, ...]:
    """Roles of a pinyin match written without spaces ("duoshao qian"): the spelling whose letters it has."""
    letters = re.sub(r"\s+", "", text)
    for k, v in by_pinyin.items():
        if k.replace(" ", "") == letters:
            return tuple(v)
    return ()


def _merge_names(names: list[Mention], f: str) -> list[Mention]:
    """Consecutive mentions in one clause that share products narrow each other ("花漾的…精华", "海蓝的鱼油",
    "1号精华"); a name of one product right before a name of several is that product ("puppy food"). ``f``: the
    folded comment the mentions' positions are in."""
    out: list[Mention] = []
    for m in names:
        if out:
            a = out[-1]
            if a[3] == m[3] and m[0] - a[1] <= 6 and a[2] & m[2] and m[0] >= a[1]:
                out[-1] = (a[0], m[1], a[2] & m[2], a[3])
                continue
            if (a[3] == m[3] and len(a[2]) == 1 < len(m[2]) and m[0] >= a[1]
                    and not f[a[1]:m[0]].strip()):  # a modifier naming one product, then a generic head noun
                out[-1] = (a[0], m[1], a[2], a[3])  # ("puppy food", "salmon kibble")
                continue
            if m[0] < a[1]:  # overlapping typo/sound names: keep the first
                continue
        out.append(m)
    return out


def _clause_text(f: str, bounds: list[int], c: int) -> str:
    a = bounds[c - 1] if c > 0 else 0
    b = bounds[c] + 1 if c < len(bounds) else len(f)
    return f[a:b]


def _is_question(clause: str, inversions: bool = True) -> bool:
    """Whether a (folded) clause asks something: a question mark, a final question particle, a question word
    (Latin: at its start), an "A不A" form, or (``inversions``) an auxiliary before its subject anywhere ("litter
    box is it quiet"). A dictation or disclosure is looked for without inversions: "so can you list your tools"
    is a request."""
    if any(ch in _QUESTION_CHARS for ch in clause):
        return True
    lex = lexicon()
    tail = clause.rstrip(_TRAIL + ",，;；")
    while tail and _is_emoji(tail[-1]):
        tail = tail[:-1].rstrip(_TRAIL)
    if tail and tail[-1] in lex.question_marks:
        return True
    m = lex.question_re.search(clause)
    if m is not None and (not m.group()[:1].isascii() or not clause[: m.start()].strip(" ,，!！")):
        return True
    if inversions and lex.inversion_re is not None and lex.inversion_re.search(clause) is not None:
        return True
    return _A_NOT_A.search(clause) is not None


def _next_token(f: str, end: int, joints: list[int]) -> str | None:
    """The token right after a quantity word, or ``None`` at the end of its part of the clause."""
    stop = joints[bisect_right(joints, end - 1)] if bisect_right(joints, end - 1) < len(joints) else len(f)
    i = end
    while i < stop and f[i] in " \t":
        i += 1
    if i >= stop or f[i] in _QUESTION_CHARS or _is_emoji(f[i]) and f[i] not in "💰💵":
        return None
    if f[i].isascii() and (f[i].isalpha() or f[i] == "'"):
        m = re.match(r"'?[a-z]+", f[i:stop])
        return m.group() if m else None
    return f[i]


def _two_products(mentions: list[Mention]) -> tuple[int, int, int] | None:
    """(position, first, second) of the first two distinct products named, or of a name of exactly two."""
    singles: list[tuple[int, int]] = []
    for m in mentions:
        if len(m[2]) == 1:
            (n,) = m[2]
            if not singles or all(n != s for _, s in singles):
                singles.append((m[0], n))
            if len(singles) == 2:
                return singles[0][0], singles[0][1], singles[1][1]
    for m in mentions:
        if len(m[2]) == 2:
            a, b = sorted(m[2])
            return m[0], a, b
    return None


def _link_for(pos: int, clause: int, mentions: list[Mention]) -> int | None:
    """The product a keyword at ``pos`` in ``clause`` is about: the nearest mention before it in the clause, else
    the first after it in the clause, else the last of an earlier clause, else the first anywhere; a name of
    several products names none of them."""
    before = after = carried = None
    for m in mentions:
        if m[3] == clause:
            if m[0] <= pos:
                before = m
            elif after is None:
                after = m
        elif m[3] < clause:
            carried = m
    for m in (before, after, carried, mentions[0] if mentions else None):
        if m is not None:
            return next(iter(m[2])) if len(m[2]) == 1 else None
    return None


_DEFAULT = CommentParser()
#: parsers bound to rooms, by the room's identity, with the products they were built from
_BOUND: "weakref.WeakKeyDictionary[Any, tuple[tuple[Any, ...], CommentParser]]" = weakref.WeakKeyDictionary()


def _same_dimension(vocabulary: Any, keys: "frozenset[str]", attr: str) -> str | None:
    """The one spec key of ``keys`` whose unit measures what ``attr``'s unit measures ("weight" in g and a room's
    trail_weight in oz), by the room's catalog vocabulary (else the default one); ``None`` when none or several."""
    from hat_env.sim.vocabulary import default_vocabulary

    voc = vocabulary if vocabulary is not None else default_vocabulary()
    a = voc.attributes.get(attr)
    ua = voc.units.get(a.unit) if a is not None and a.unit else None
    if ua is None:
        return None
    same = [k for k in sorted(keys) if (b := voc.attributes.get(k)) is not None and b.unit
            and (ub := voc.units.get(b.unit)) is not None and ub.dimension == ua.dimension]
    if len(same) > 1:  # several ("hull_weight" and "max_load" in lb): the one whose words name the asked attribute
        names = {attr.casefold(), *(x.casefold() for x in a.labels.values())}
        same = [k for k in same if names & {w.casefold() for ws in voc.attributes[k].words.values() for w in ws}]
    return same[0] if len(same) == 1 else None


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
