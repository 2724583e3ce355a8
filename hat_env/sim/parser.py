"""The rule-based comment parser: ``parse_comment(text, locale) -> list[Intent]``.

It recovers the intents of any comment :func:`hat_env.sim.comments.render_comment` can write (and of many a viewer
writes by hand), in every locale with a locale file, with precompiled regular expressions and no evaluation of the
text. The keywords are the ``parser`` sections of the locale files; the spec words and the campaign-type words are
the room's catalog vocabulary (:mod:`hat_env.sim.vocabulary`; the default one when none is given). Link numbers, order ids and prompt-injection triggers are matched by the
patterns below (they cover Chinese and English forms). The keyword table is built on first use and cached per vocabulary.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import TYPE_CHECKING, Any

from hat_env.locales import builtin_locales, get_locale
from hat_env.types import Intent

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.vocabulary import Vocabulary


def _char_pat(ch: str) -> str:
    if ch == " ":
        return r"\s+"
    if ch == "'":
        return "['’]"
    return re.escape(ch)


def _trie_pattern(words: list[str], ascii_words: bool) -> str:
    """A prefix-factored alternation of ``words`` (longer matches tried first, word boundaries for ASCII)."""
    root: dict[str, Any] = {}
    for w in words:
        node = root
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node: dict[str, Any]) -> str:
        alts = [_char_pat(ch) + emit(child) for ch, child in sorted(node.items()) if ch]
        if "" in node:
            alts.append(r"(?![A-Za-z])" if ascii_words else "")
        if len(alts) == 1:
            return alts[0]
        return "(?:" + "|".join(alts) + ")"

    return emit(root)


_TABLES: dict[str, tuple[re.Pattern[str], dict[str, tuple[str, str | None]]]] = {}


def _keyword_table(vocabulary: "Vocabulary | None" = None) -> tuple[re.Pattern[str], dict[str, tuple[str, str | None]]]:
    """The keyword pattern and ``{lower-case word: (kind, attr)}`` over every locale, in locale order: a word's
    first kind wins among keywords, a spec word's attr wins over a keyword, and a campaign-type word of the
    vocabulary (``("campaign", "bundle")``) wins over both. Cached per vocabulary (:attr:`Vocabulary.key`)."""
    if vocabulary is None:
        hit = _TABLES.get("")
        if hit is not None:
            return hit
        from hat_env.sim.vocabulary import default_vocabulary

        hit = _TABLES[""] = _keyword_table(default_vocabulary())
        return hit
    hit = _TABLES.get(vocabulary.key)
    if hit is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        hit = _TABLES[vocabulary.key] = _build_table(vocabulary)
    return hit


def _build_table(vocabulary: "Vocabulary") -> tuple[re.Pattern[str], dict[str, tuple[str, str | None]]]:
    table: dict[str, tuple[str, str | None]] = {}
    locales = list(builtin_locales())
    extra = sorted({loc for a in vocabulary.attributes.values() for loc in a.words} - set(locales))
    for loc in locales + extra:
        if loc in locales:
            for kind, words in get_locale(loc).parser.keywords.items():
                for w in words:
                    key = w.lower()
                    if kind == "spec_generic":
                        table.setdefault(key, ("spec", None))
                    else:
                        table.setdefault(key, (kind, None))
        for attr, spec in vocabulary.attributes.items():
            for w in spec.words_for(loc):
                table[w.lower()] = ("spec", attr)
    for loc in locales + extra:
        for deal, deal_words in vocabulary.campaign_words(loc).items():
            for w in deal_words:
                table[w.lower()] = ("campaign", deal)
    asc = [w for w in table if w[0].isascii()]
    other = [w for w in table if not w[0].isascii()]
    pat = r"(?<![A-Za-z])" + _trie_pattern(asc, True) + "|" + _trie_pattern(other, False)
    return re.compile(pat, re.IGNORECASE), table


_WS_RE = re.compile(r"\s+")
_SENT_END_RE = re.compile(r"[。？?！!\n]|\.(?=\s)")
_CLAUSE_RE = re.compile(r"[，,。？?！!；;\n]|\.(?=\s)")

_LINK_RE = re.compile(
    r"(?<![A-Za-z0-9_-])(\d{1,3})\s*号"
    r"|链接\s*[#＃]?\s*(\d{1,3})(?!\d)"
    r"|(?<![A-Za-z])(?:link|item)\s*[#＃]?\s*(\d{1,3})(?!\d)"
    r"|[#＃](\d{1,3})(?!\d)",
    re.IGNORECASE,
)
_ORDER_ID_RE = re.compile(
    r"(?:订单号?|单号|(?<![A-Za-z])order(?:\s+(?:id|no\.?))?)\s*[:：]?\s*"
    r"(?!\d{1,3}(?![A-Za-z0-9_-]))"  # 1-3 bare digits are link numbers ("order #3" is a purchase)
    r"((?=[A-Za-z0-9_-]*\d)[A-Za-z0-9][A-Za-z0-9_-]{0,39})(?![A-Za-z0-9_-])",
    re.IGNORECASE,
)
_MY_ORDER_RE = re.compile(r"我的订单|(?<![A-Za-z])my\s+order(?![A-Za-z])", re.IGNORECASE)
_INJ_TRIGGER_RE = re.compile(
    r"忽略|无视|系统消息|系统指令|系统提示|开发者模式|新指令|管理员指令|越狱"
    r"|(?<![A-Za-z])ignore\s+(?:(?:all|any|your|the|of)\s+)*(?:(?:previous|prior|above|earlier)\s+)?"
    r"(?:instructions|rules|guidelines|prompts?)"
    r"|(?<![A-Za-z])system\s*(?:override|prompt|message)|\[(?:system|admin)\]|developer\s+mode"
    r"|new\s+instructions|override\s+your|forget\s+(?:all\s+)?your|jailbreak",
    re.IGNORECASE,
)
_SAY_RE = re.compile(
    r"直接说|请说|马上说|复述|重复|回复|告诉大家|念出来|说"
    r"|(?<![A-Za-z])(?:repeat\s+after\s+me|tell\s+everyone|announce|say|repeat|type|reply\s+with|output)(?![A-Za-z])",
    re.IGNORECASE,
)
_QUOTE_PAIRS = {"“": "”", '"': '"', "「": "」", "『": "』", "'": "'", "‘": "’"}
_PAYLOAD_TRAIL = " \t\r\n.。!！?？~～"
_MAX_PARSE_CHARS = 2000


def _payload_after(text: str, start: int) -> str | None:
    """The injection payload that starts at ``start`` (after a say-verb), quotes and trailing noise removed."""
    i = start
    n = len(text)
    while i < n and text[i] in " \t:：,，":
        i += 1
    if i >= n:
        return None
    q = text[i]
    close = _QUOTE_PAIRS.get(q)
    if close is not None:
        j = text.find(close, i + 1)
        if j > i + 1:
            return text[i + 1 : j]
        body = text[i + 1 :]
    else:
        body = text[i:]
    body = body.rstrip(_PAYLOAD_TRAIL + "”\"」』’'")
    # drop trailing emoji noise (symbols, pictographs, variation selectors, zero-width joiners)
    while body and _is_emoji(body[-1]):
        body = body[:-1].rstrip(_PAYLOAD_TRAIL)
    return body or None


def _is_emoji(ch: str) -> bool:
    o = ord(ch)
    return 0x2600 <= o <= 0x27BF or o >= 0x1F000 or o in (0xFE0F, 0x200D)


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]


def parse_comment(text: str, locale: str = "zh_CN", vocabulary: "Vocabulary | None" = None) -> list[Intent]:
    """Recover the intents of one comment with keyword rules (every locale is always understood).

    Args:
        text: the untrusted comment text. It is only matched against precompiled patterns, never evaluated;
            text beyond 2,000 characters is ignored.
        locale: the room's locale. The parser understands every locale whatever it is; the argument is kept so
            callers need not change if locale-specific rules are added.
        vocabulary: the room's catalog vocabulary, whose spec words and campaign-type words are read (``None``:
            the default vocabulary).

    Returns:
        The intents in the order they appear, without duplicates: ``injection`` (with the payload the injector
        wants said, when there is one) first detected and its text removed from further matching; then order
        ids (``order_status``; an id-less "我的订单"/"my order" only when no id is named); ``compare`` when a
        comparison word and two different links share a clause; product intents with the link of their clause
        (the nearest before the keyword, else the first after it), else the last link of an earlier clause
        ("3号多少钱，还有货吗"), else ``None``; spec intents with the canonical attr key of the spec word (or
        ``None`` for a generic "参数"/"specs"); campaign intents asked with a campaign-type word ("bundle",
        "优惠码") with that type as ``attr`` (the deal the viewer asks about; a plain campaign intent about the
        same link is then left out, and so is a code one when the bundle is asked about: "does the code work
        with the bundle?" is a question about the bundle); ``troll``. When nothing is recognised the result is
        ``[Intent("chitchat")]``.
    """
    del locale  # every locale is always parsed
    if not text:
        return [Intent("chitchat")]
    kw_re, kw_table = _keyword_table(vocabulary)
    work = text[:_MAX_PARSE_CHARS]
    found: list[tuple[int, Intent]] = []

    m = _INJ_TRIGGER_RE.search(work)
    if m is not None:
        cut = m.start()
        while m is not None:
            s = _SAY_RE.search(work, m.end())
            nxt = _INJ_TRIGGER_RE.search(work, s.end() if s is not None else m.end())
            stop = nxt.start() if nxt is not None else len(work)
            if nxt is not None and s is not None and s.end() < stop:
                # the next injection starts a new sentence: end this payload at the last sentence end before it
                ends = [e.start() for e in _SENT_END_RE.finditer(work, s.end(), stop)]
                if ends:
                    stop = ends[-1]
            payload = None
            if s is not None and s.end() <= stop:
                payload = _payload_after(work[:stop], s.end())
            found.append((m.start(), Intent("injection", payload=payload)))
            m = nxt
        work = work[:cut]

    any_order = False
    for om in _ORDER_ID_RE.finditer(work):
        found.append((om.start(), Intent("order_status", order_id=om.group(1))))
        any_order = True
        work = _blank(work, om.start(), om.end())
    if not any_order:
        mo = _MY_ORDER_RE.search(work)
        if mo is not None:
            found.append((mo.start(), Intent("order_status")))

    bounds = [bm.start() for bm in _CLAUSE_RE.finditer(work)]
    # links: (position, number, clause index)
    links: list[tuple[int, int, int]] = []
    for lm in _LINK_RE.finditer(work):
        g = lm.group(1) or lm.group(2) or lm.group(3) or lm.group(4)
        links.append((lm.start(), int(g), bisect_right(bounds, lm.start())))

    troll_seen = False
    compare_done = False
    for km in kw_re.finditer(work):
        key = km.group(0).lower()
        hit = kw_table.get(key)
        if hit is None:  # a multi-word keyword matched with other whitespace or apostrophe
            hit = kw_table.get(_WS_RE.sub(" ", key).replace("’", "'"))
            if hit is None:
                continue
        kind, attr = hit
        pos = km.start()
        if kind == "troll":
            if not troll_seen:
                found.append((pos, Intent("troll")))
                troll_seen = True
            continue
        clause = bisect_right(bounds, pos)
        if kind == "compare":
            if compare_done:
                continue
            pair = _two_links([x for x in links if x[2] == clause])
            if pair is not None:
                found.append((pair[0], Intent("compare", link=pair[1], link2=pair[2])))
                compare_done = True
            continue
        found.append((pos, Intent(kind, link=_link_for(pos, clause, links), attr=attr)))

    if not found:
        return [Intent("chitchat")]
    found.sort(key=lambda x: x[0])
    out: list[Intent] = []
    for _, it in found:
        if it not in out:
            out.append(it)
    focused = {it.link for it in out if it.attr is not None and it.kind == "campaign"} if len(out) > 1 else None
    if focused:  # "any deal on the bundle?": the question is about the bundle, asked once
        out = [it for it in out if not (it.kind == "campaign" and it.attr is None and it.link in focused)]
        bundles = {it.link for it in out if it.kind == "campaign" and it.attr == "bundle"}
        # "does the code work with the bundle?": one question about the bundle (its answer says what stacks)
        out = [it for it in out if not (it.kind == "campaign" and it.attr in ("code", "coupon")
                                         and it.link in bundles)]
    return out


def _two_links(links: list[tuple[int, int, int]]) -> tuple[int, int, int] | None:
    """(position, first, second) of the first two distinct link numbers, or ``None``."""
    if not links:
        return None
    first = links[0][1]
    for _, n, _c in links:
        if n != first:
            return links[0][0], first, n
    return None


def _link_for(pos: int, clause: int, links: list[tuple[int, int, int]]) -> int | None:
    """The link a keyword at ``pos`` in ``clause`` refers to.

    The nearest link before it in the same clause, else the first after it in the same clause, else the last
    link of an earlier clause (a follow-up such as "，还有货吗"), else the first link anywhere, else ``None``.
    """
    before = after = carried = None
    for lpos, n, c in links:
        if c == clause:
            if lpos <= pos:
                before = n
            elif after is None:
                after = n
        elif c < clause:
            carried = n
    if before is not None:
        return before
    if after is not None:
        return after
    if carried is not None:
        return carried
    return links[0][1] if links else None


__all__ = ["parse_comment"]
