"""The text compliance rules read: a reply normalised against disguises, its clauses, and whether a match at a
place is negated or asked rather than claimed.

Rules match on the NORMALISED reply (:func:`prepare`), so a claim reads the same in any disguise:

- NFKC per character (:func:`hat_env.text.nfkc`): full-width ``Ｎｏ．１`` is ``No.1``, ``３件`` is ``3件``, curly
  apostrophes are ``'``;
- traditional Chinese as simplified (:func:`hat_env.text.to_simplified`): ``國家級`` is ``国家级``;
- Chinese characters spelled out one by one are joined (:func:`hat_env.text.collapse_spaced`): ``第 一``, ``全 网
  最 低``, ``国·家·级``, emoji between characters (``最🔥火``);
- single letters spelled out with one and the same separator (a space, ``.``, ``-``, ``_``, ``*``, ``·`` or
  emoji), three letters or more, are joined (:func:`join_letters`): ``b e s t``, ``b-e-s-t``, ``G.O.A.T.``; a
  letter next to an apostrophe is part of a word, so ``I'm a real`` stays as written.

Every normalised character maps back to the reply as written (:class:`hat_env.text.Mapped`), so a hit quotes the
reply, not the normalised form.

Clauses are the pieces between commas, full stops, question and exclamation marks, semicolons, colons and line
breaks, and before "但/但是/可是/不过/but/however" (a ``.`` ends a clause only before a space or the end, so
``No.1`` and ``$39.99`` stay whole). A match is
**asked** when its clause is a question (it ends with ``?`` / ``？`` or with ``吗``/``么``; or with ``呢``/``嘛``
when the clause holds a question word or an A-not-A form: "在直播呢" states, "是什么呢" asks), and **negated**
when a negation cue of the rule's locale ends in the same clause before it, within a window of characters, and no
exception (``不仅``, "not only") covers the cue. Cues and exceptions are data (a rule pack's ``negation`` section).
"""

from __future__ import annotations

import bisect
from functools import lru_cache
import re
from dataclasses import dataclass
from typing import Any

from hat_env import saferegex
from hat_env.text import Mapped, collapse_spaced, nfkc, to_simplified
from hat_env.text.cache import short_text_cache

#: Clause boundaries (project code: a fixed, linear pattern).
_CLAUSE_END = re.compile(r"[，,。!！?？；;：\n～~…]|\.(?=\s|$)|:(?=\s|$)|\s[-–—]\s|但是?|可是|不过|\b(?:but|however)\b", re.I)
_SENTENCE_END = re.compile(r"[。!！?？；;\n]|\.(?=\s|$)")
_LETTERS = re.compile(
    r"(?<![A-Za-z0-9'’])[A-Za-z]((?:[ .\-_*·•]|[\U0001F300-\U0001FAFF\u2600-\u27BF\uFE0F]){1,3})(?:[A-Za-z]\1)+[A-Za-z]"
    r"(?![A-Za-z0-9'’])"
)
#: A quoted span (project code: a fixed, linear pattern); a ``'`` opens a quote only after a space or the start.
_QUOTED = re.compile(r"\"[^\"\n]{1,200}\"|“[^”\n]{1,200}”|「[^」\n]{1,200}」|『[^』\n]{1,200}』|(?:(?<=\s)|^)'[^'\n]{1,200}'")
_QUESTION_TAIL = re.compile(r"(?:[?？]|[吗么][\s～~!！。.]*)$")
#: 呢 and 嘛 end statements as often as questions ("我在直播呢", "就是嘛"): a clause ending in one asks only when it
#: holds a question word or an A-not-A form (project code: fixed, linear patterns).
_SOFT_TAIL = re.compile(r"[嘛呢][\s～~!！。.]*$")
_QUESTION_WORD = re.compile(r"什么|啥|怎么|怎样|咋|哪|谁|为什么|为何|多少|几|还是|(.)不\1|(.)没\2")
#: Characters of a reply that are normalised; the rest (a reply far over any harness's length limit) is matched as
#: written, so a hostile megabyte costs linear time only.
NORMALISE_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class ReplyText:
    """A reply prepared for rule matching.

    Attributes:
        mapped: the normalised text and its map back to the reply as written.
        clause_starts: start offsets (in the normalised text) of its clauses, ascending.
        clause_ends: end offsets of those clauses (the boundary character excluded).
        sentence_starts: start offsets of its sentences, ascending.
    """

    mapped: Mapped
    clause_starts: tuple[int, ...]
    clause_ends: tuple[int, ...]
    sentence_starts: tuple[int, ...]

    @property
    def text(self) -> str:
        """The normalised text the rules match."""
        return self.mapped.text

    @property
    def original(self) -> str:
        """The reply as written."""
        return self.mapped.source

    def quote(self, start: int, end: int) -> str:
        """The reply as written behind ``text[start:end]`` (a rule hit's ``matched``)."""
        return self.mapped.original(start, end) or self.text[start:end]

    def clause(self, pos: int) -> tuple[int, int]:
        """``(start, end)`` of the clause holding normalised offset ``pos``."""
        i = max(0, bisect.bisect_right(self.clause_starts, pos) - 1)
        return self.clause_starts[i], self.clause_ends[i]

    def sentence(self, pos: int) -> tuple[int, int]:
        """``(start, end)`` of the sentence holding normalised offset ``pos``."""
        i = max(0, bisect.bisect_right(self.sentence_starts, pos) - 1)
        end = self.sentence_starts[i + 1] if i + 1 < len(self.sentence_starts) else len(self.text)
        return self.sentence_starts[i], end

    def asked(self, pos: int) -> bool:
        """Whether the clause holding ``pos`` is a question (so what it says there is asked, not claimed)."""
        s, e = self.clause(pos)
        tail_end = e
        text = self.text
        if tail_end < len(text) and text[tail_end] in "?？":
            return True
        piece = text[s:tail_end].rstrip()
        if _QUESTION_TAIL.search(piece) is not None:
            return True
        return _SOFT_TAIL.search(piece) is not None and _QUESTION_WORD.search(piece) is not None

    def quoted_at(self, pos: int) -> tuple[int, int] | None:
        """``(start, end)`` of the quoted span (``"..."``, ``“...”``, ``「...」``, ``『...』``, ``'...'`` after a
        space) of the sentence holding ``pos`` that contains it, quote marks included, else ``None``."""
        s, e = self.sentence(pos)
        for q in _QUOTED.finditer(self.text, s, e):
            if q.start() < pos < q.end():
                return q.span()
        return None

    def refused_quote(self, pos: int, refusals: Any) -> bool:
        """Whether ``pos`` lies in a quoted span that its sentence refuses or denies outside the quote (a
        compiled RE2 pattern ``refusals`` matches there): "“吃了就能降血压”这种话我不能说", "I can't say
        'cures acne'". What a reply quotes to refuse it, it does not claim."""
        if refusals is None:
            return False
        q = self.quoted_at(pos)
        if q is None:
            return False
        s, e = self.sentence(pos)
        text = self.text
        return any(refusals.search(part) is not None for part in (text[s : q[0]], text[q[1] : e]) if part)

    def quote_around(self, pos: int) -> tuple[int, int] | None:
        """``(start, end)`` of the quoted span holding ``pos``, quote marks included, wherever its sentences end
        (a quoted question "'I use it every day, will it last?'" spans a sentence end), else ``None``."""
        text = self.text
        lo = max(0, pos - 202)
        for q in _QUOTED.finditer(text, lo, min(len(text), pos + 202)):
            if q.start() < pos < q.end():
                return q.span()
            if q.start() >= pos:
                break
        return None

    def reported_quote(self, pos: int, reporters: Any) -> bool:
        """Whether ``pos`` lies in a quoted span that its sentence reports as someone else's speech: a reporting
        word (a compiled RE2 pattern ``reporters``: "有观众说", "a viewer asked") in the sentence before the quote
        or in the one after it. "有观众说“我每天吃一片”" reports a viewer; a host's own "“我每天都吃”" does not."""
        if reporters is None:
            return False
        q = self.quote_around(pos)
        if q is None:
            return False
        text = self.text
        before = text[self.sentence(q[0])[0] : q[0]]
        after = text[q[1] : self.sentence(min(q[1], len(text) - 1))[1]] if q[1] < len(text) else ""
        return any(reporters.search(part) is not None for part in (before, after) if part)

    def negated(self, start: int, cues: Any, exceptions: Any, window: int) -> bool:
        """Whether a negation cue (a compiled RE2 pattern ``cues``) ends in the clause of ``start`` before it, at
        most ``window`` characters before it, and no ``exceptions`` match (``不仅``, "not only") covers that cue."""
        if cues is None:
            return False
        cs, _ = self.clause(start)
        lo = max(cs, start - window)
        piece = self.text[lo:start]
        if not piece:
            return False
        skip: list[tuple[int, int]] = []
        if exceptions is not None:
            skip = [m.span() for m in exceptions.finditer(piece)]
        for m in cues.finditer(piece):
            a, b = m.span()
            if not any(x <= a and b <= y for x, y in skip):
                return True
        return False


def join_letters(m: Mapped) -> Mapped:
    """Join single letters spelled out with one separator (see the module docstring), keeping the map."""
    # the letters make one word in capitals: a word spelled out is an acronym or a shout ("g.o.a.t." is GOAT)
    pieces = [(x.start(), x.end(), re.sub(r"[^A-Za-z]", "", x.group()).upper()) for x in _LETTERS.finditer(m.text)]
    return m.replace(pieces) if pieces else m


def _bounds(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    starts, ends = [0], []
    for m in _CLAUSE_END.finditer(text):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(len(text))
    sent = [0] + [m.end() for m in _SENTENCE_END.finditer(text) if m.end() < len(text)]
    return tuple(starts), tuple(ends), tuple(sorted(set(sent)))


@short_text_cache(maxsize=2048)
def prepare(reply: str) -> ReplyText:
    """The reply normalised for rule matching, with its clauses (cached: the hook and the scorer read the same
    reply).

    Args:
        reply: the reply as written (lone surrogates are replaced first, see :func:`hat_env.saferegex.clean`).

    Returns:
        The :class:`ReplyText`.
    """
    text = saferegex.clean(reply)
    m = join_letters(collapse_spaced(to_simplified(nfkc(Mapped.of(text[:NORMALISE_CHARS]))), min_ascii=1 << 30))
    if len(text) > NORMALISE_CHARS:
        rest = range(NORMALISE_CHARS, len(text))
        m = Mapped(m.text + text[NORMALISE_CHARS:], text, m.starts + tuple(rest), m.ends + tuple(i + 1 for i in rest))
    starts, ends, sents = _bounds(m.text)
    return ReplyText(m, starts, ends, sents)


@lru_cache(maxsize=4096)
def respelled(reply: ReplyText, index: Any) -> ReplyText:
    """``reply`` with the spellings by sound of the words of ``index`` (a :class:`hat_env.sim.sound_alike.SoundIndex`)
    put back ("降 血 鸭" reads 降血压), its clauses recomputed; ``reply`` itself when it has none (cached: the hook and
    the scorer read the same reply)."""
    from hat_env.sim.sound_alike import respell

    m = respell(reply.mapped, index)
    if m is reply.mapped:
        return reply
    starts, ends, sents = _bounds(m.text)
    return ReplyText(m, starts, ends, sents)


__all__ = ["NORMALISE_CHARS", "ReplyText", "join_letters", "prepare", "respelled"]
