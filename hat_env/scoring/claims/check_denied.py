"""What the product's own data denies, said as fact: read from the data's negations, not from a word list.

A product's FAQ answers, after-sales note and spec values say what it does NOT have or do ("No, there is no
piezo igniter", "it is not rated for full submersion", "(reservoir not included)", "the paddle is sold
separately", "不能代替药物", "不支持无理由退换"). Each such statement is a *denial*: the words it denies (after the
negation, or before the locale's ``denied_after`` words such as "sold separately" / "需另购"), and, when the
statement puts a subject before its negation ("reservoir not included"), that subject. A bare "No" opening an
FAQ answer denies what its question asks ("Does it come with a footprint?" "No, ...").

A reply clause that states the denied thing plainly (no negation anywhere in its sentence, not a question, not a
hedge), about that product, is false: "Yes, a push-button piezo igniter is built in", "fully submersible", "a
3 L reservoir comes included", "comes with a paddle", "可以代替药物". A clause that also holds words of the
answer beyond the denied ones restates the answer rather than contradicting it ("the footprint is sold
separately", "60 hours on the low setting") and is left alone: the check prefers saying nothing to a guess.

Words: Latin words of three or more letters (a word and its inflections meet by a shared stem), jieba-free
substrings for Chinese (the denied run after its leading modal, at least two characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab

#: Latin content words (hyphenated ones kept whole: "push-button")
_LATIN = re.compile(r"[a-z][a-z'-]{2,}")
#: Function words and verbs too common to carry a denial (English); a denial needs a content word.
_EN_STOP = frozenset(
    "the and for with you your our its it's this that are was were can could will would just also from have has had "
    "not but they them then than into onto out any all one does did doesn't isn't aren't there here is be been being "
    "what which who how when where why yes no nope only more most much very some such get gets got use used using "
    "about around over under per each every way ones their his her she him".split())
#: Where a data text's statements end (a denial is read within one statement).
_DATA_CLAUSE = re.compile(r"[,.;:!?，。；：！？()（）、]|\bbut\b|但是?|不过")
#: A leading modal or copula of a Chinese denied run ("不能代替药物" denies 代替药物).
_ZH_LEAD = re.compile(r"^(?:能够|能|会|可以|可|是|要|用|支持|含有|含|建议|太|很|算|需要|需)")
#: The denied run of a Chinese statement: Han characters (and Latin letters) up to the statement's end.
_ZH_RUN = re.compile(r"[\u3400-\u9fffA-Za-z0-9]+")


@dataclass(frozen=True, slots=True)
class Denial:
    """One thing a product's data denies.

    Attributes:
        head: the denied words (Latin words, or one Chinese run), all of which a contradicting clause must hold
            (Latin: for a negation, the denied phrase's last word, in English its last two, all in the clause; for an FAQ
            question's words, any of them in the clause and ``need`` of them in its sentence).
        subject: words before the negation in the same statement ("reservoir" of "reservoir not included"); a
            contradicting clause must hold one of them when there are any.
        need: how many of ``head``'s words must be in the clause (Latin; an FAQ question's words need two).
        answer: the words of the data text's other statements (for a bare "No", of the correction after it): a
            clause holding one of them restates that text rather than contradicting it.
        source: the data text, for the note.
        inclusion: whether the clause must also say the thing comes with the product (a ``denied_after`` denial:
            "sold separately" denies that it is included, not that it exists).
        numbers: the numbers of the FAQ question a bare "No" answers ("Is 12 hours at full brightness?"): the
            question is about that value, so a clause that does not hold each of them is not what it denies;
            for a Chinese bare "不够" / "不能", the numbers of its answer (a clause holding one restates it).
        asks: a Chinese bare "No" (an answer opening "不够，" / "不能，"): the character pairs of the question it
            answers ("一瓶够一辆车吗"), one of which the contradicting clause's sentence must hold; ``head`` is then
            the verbs that affirm it (够; 能 and 可以).
    """

    head: tuple[str, ...]
    subject: tuple[str, ...]
    need: int
    answer: frozenset[str]
    source: str
    inclusion: bool = False
    numbers: tuple[str, ...] = ()
    asks: tuple[str, ...] = ()


#: a number written in digits ("12", "1.5")
_DIGITS = re.compile(r"\d+(?:\.\d+)?")


#: what a bare Chinese "No" affirms when the reply says it plainly: the verb after the negation, and its synonyms
_ZH_AFFIRM = {"能": ("能", "可以"), "可以": ("可以", "能"), "会": ("会",), "够": ("够",), "是": ("是",), "有": ("有",),
              "行": ("行", "可以"), "用": ("用",), "适合": ("适合", "可以"), "建议": ("建议",)}
#: a Chinese question's particles and pronouns: pairs holding them say nothing of what it asks
_ZH_FILLER = frozenset("吗呢吧啊呀的了么这那个它")


def _zh_bare_no(piece: str, neg: "re.Pattern[str]") -> tuple[str, ...]:
    """The verbs a bare Chinese "No" opening an FAQ answer denies ("不够" -> 够, "不能" -> 能 and 可以), else
    ``()``: the first statement of the answer is a negation and one verb, nothing more."""
    m = neg.match(piece)
    if m is None:
        return ()
    verb = piece[m.end():].rstrip("哦呢的啊呀了")
    return _ZH_AFFIRM.get(verb, ())


def _zh_pairs(text: str) -> frozenset[str]:
    """The pairs of adjacent Han characters (or a digit and a Han character: the normalised "1瓶") of ``text``
    without particles ("一瓶够一辆车吗": 1瓶, 瓶够...)."""
    return frozenset(text[k : k + 2] for k in range(len(text) - 1)
                     if all(("\u3400" <= ch <= "\u9fff" or ch.isdigit()) and ch not in _ZH_FILLER for ch in text[k : k + 2])
                     and not text[k : k + 2].isdigit())


def _words(text: str) -> list[str]:
    """The Latin content words of ``text`` (lower-case), in order."""
    return [w.strip("'-") for w in _LATIN.findall(text.lower()) if w.strip("'-") not in _EN_STOP and len(w.strip("'-")) >= 3]


def _same(a: str, b: str) -> bool:
    """Whether two Latin words are one word inflected ("submersion" / "submersible", "comes" / "come",
    "brightest" / "brightness"): equal, or sharing a stem of five letters or more that is most of the shorter."""
    if a == b:
        return True
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) < 5:
        return long_.startswith(short) and len(long_) - len(short) <= 3
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 5 and n >= 0.6 * len(short)


def _holds(words: list[str], w: str) -> bool:
    """Whether the clause words ``words`` hold ``w`` (or an inflection of it)."""
    return any(_same(x, w) for x in words)


def _neg_rx(v: "Vocab") -> "re.Pattern[str] | None":
    """The locale's negation pattern."""
    return v.rx.get("negation")


def _pieces(text: str) -> tuple[list[str], list[str]]:
    """The statements of a data text (split at :data:`_DATA_CLAUSE`, empty ones dropped) and, for each, the
    separator before it ("" for the first)."""
    out: list[tuple[str, str]] = []
    last, sep = 0, ""
    for m in _DATA_CLAUSE.finditer(text):
        out.append((text[last : m.start()], sep))
        last, sep = m.end(), m.group()
    out.append((text[last:], sep))
    kept = [(x, s) for x, s in out if x.strip()]
    return [x for x, _ in kept], [s for _, s in kept]


@lru_cache(maxsize=4096)
def _denials_of(pid: str, texts: tuple[tuple[str, str], ...], lang: str, locale: str, neg_src: str,
                after_src: str) -> tuple[Denial, ...]:
    """The denials of one product's data (``texts``: its FAQ questions and answers, ``("", note)`` and
    ``("", spec value)`` pairs), cached per product and locale."""
    neg = re.compile(neg_src, re.IGNORECASE) if neg_src else None
    after = re.compile(after_src, re.IGNORECASE) if after_src else None
    out: list[Denial] = []
    for q, a in texts:
        an = normalize(a, locale).text.lower()
        pieces, before = _pieces(an)

        def rest(k: int) -> frozenset[str]:
            """The words of the answer's other statements than piece ``k`` (a clause holding them restates it)."""
            other = " ".join(x for j, x in enumerate(pieces) if j != k)
            return frozenset(_words(other)) if lang != "zh" else frozenset(_ZH_RUN.findall(other))

        # a bare "No" opening the answer denies what the question asks; the statement after it is its correction
        if q and neg is not None and pieces and neg.fullmatch(pieces[0].strip()) and lang != "zh":
            qw = _words(normalize(q, locale).text)
            if qw:
                fix = frozenset(w for w in _words(pieces[1]) if not any(_same(w, x) for x in qw)) if len(pieces) > 1 else frozenset()
                nums = tuple(_DIGITS.findall(q))
                out.append(Denial(tuple(qw), (), min(2, len(qw)), fix, a, numbers=nums))
        if q and neg is not None and pieces and lang == "zh":
            bare = _zh_bare_no(pieces[0].strip(), neg)
            if bare:
                qn = normalize(q, locale).text
                asks = tuple(sorted(x for x in _zh_pairs(qn) if not set(x) & set(bare)))
                if asks:
                    out.append(Denial(bare, (), 1, rest(0), a, numbers=tuple(_DIGITS.findall(an)), asks=asks))
        for k, p in enumerate(pieces):
            if neg is not None:
                for m in neg.finditer(p):
                    if lang == "zh":
                        run = _ZH_RUN.match(p, m.end())
                        if run is None:
                            continue
                        core = _ZH_LEAD.sub("", run.group())
                        if len(core) == 1 and m.start() >= 2 and p[m.start() - 2] == "只" and "\u3400" <= core <= "\u9fff":
                            # "只换不修": only the one, never the other (a one-character verb, no subject)
                            out.append(Denial((core,), (), 1, rest(k), a))
                            continue
                        if len(core) >= 2 and re.search(r"[\u3400-\u9fff]", core):
                            # a condition before the negation ("拆封后非质量问题不支持退换") is the denial's subject
                            prior = _ZH_RUN.findall(p[: m.start()])
                            cond = tuple(prior[-1:]) if prior and len(prior[-1]) >= 2 else ()
                            out.append(Denial((core,), cond, 1, rest(k), a))
                        continue
                    head = _words(p[m.end() :])
                    if not head:
                        continue
                    subj = tuple(_words(p[: m.start()]))
                    if not subj and not p[: m.start()].strip() and k > 0 and before[k] == ",":
                        # an elliptical "..., not X" continues the statement before it ("the warranty covers the
                        # movement only, not the strap"): X is denied of that statement, whose words are its subject
                        subj = tuple(_words(pieces[k - 1]))
                    # English (head-final phrases): the denied phrase's last two words, its head and the word
                    # before it ("not certified lactose free", "no calls on the watch"): the last word alone
                    # ("free", "watch") is too often an innocent word of another statement. Spanish phrases put
                    # their modifiers after the head ("ni promete quitar manchas"): the last word alone there.
                    out.append(Denial(tuple(head[-2:]) if lang == "en" else (head[-1],), subj, 1, rest(k), a))
            if after is not None:
                for m in after.finditer(p):
                    lead = p[: m.start()]
                    if lang == "zh":
                        runs = _ZH_RUN.findall(lead)
                        if runs and len(runs[-1]) >= 2:
                            out.append(Denial((runs[-1][-4:],), (), 1, rest(k), a, inclusion=True))
                        continue
                    thing = _words(lead) or (_words(pieces[k - 1]) if k > 0 else [])
                    if thing:
                        out.append(Denial((thing[-1],), (), 1, rest(k), a, inclusion=True))
    return tuple(out)


def denials(pf: "ProductFacts", v: "Vocab") -> tuple[Denial, ...]:
    """What ``pf``'s data denies (FAQ answers, the after-sales note, spec values), see :class:`Denial`."""
    p = pf.product
    texts = tuple((f.q, f.a) for f in p.faq)
    if p.returns.note:
        texts += (("", p.returns.note),)
    texts += tuple(("", str(x)) for x in p.specs.values())
    neg = _neg_rx(v)
    da = v.rx.get("denied_after")
    return _denials_of(p.product_id, texts, v.lang, v.locale, neg.pattern if neg is not None else "",
                       da.pattern if da is not None else "")


def _contradicts(r: "Reading", i: int, d: Denial) -> bool:
    """Whether clause ``i`` states what denial ``d`` denies (see the module docstring)."""
    low = r.ctext(i).lower()
    v = r.vocab
    if v.lang == "zh" and d.asks:
        # a bare "No" to the FAQ's question: the clause affirms its verb, its sentence is about what was asked, and
        # it holds none of the answer's numbers (a clause holding them restates the answer: "两瓶够一辆轿车")
        st = r.stext(i).lower()
        if not any(h in low for h in d.head) or not any(x in st for x in d.asks):
            return False
        return not any(n in _DIGITS.findall(st) for n in d.numbers)
    if v.lang == "zh":
        if d.head[0] not in low:
            return False
        if d.subject and not any(d.subject[0][j : j + 2] in low for j in range(len(d.subject[0]) - 1)):
            return False
        if d.inclusion and v.find("inclusion", low) is None:
            return False
        # the clause restates the data text when it holds another of its statements
        return not any(len(w) >= 2 and w in low for w in d.answer)
    words = _words(low)
    if not words:
        return False
    if d.numbers and not all(n in _DIGITS.findall(low) for n in d.numbers):
        return False
    if d.need == 1:
        if not all(_holds(words, h) for h in d.head):
            return False
    elif not any(_holds(words, h) for h in d.head) or \
            sum(1 for h in d.head if _holds(_words(r.stext(i).lower()), h)) < d.need:
        # an FAQ question's words: one in the clause, the rest in its sentence ("Ships anywhere..., Hawaii included")
        return False
    if d.subject and not any(_holds(words, s) for s in d.subject):
        return False
    if d.inclusion and v.find("inclusion", low) is None:
        return False
    denied = set(d.head) | set(d.subject)
    # the clause (for an FAQ question's words read over the sentence, the sentence) restates the answer when it
    # holds its other words ("It ships by ground..., though Hawaii is out")
    seen = _words(r.stext(i).lower()) if d.need > 1 else words
    others = [w for w in seen if not any(_same(w, x) for x in denied) and any(_same(w, a) for a in d.answer)]
    return not others


def _denied_in_reply(r: "Reading", d: Denial, neg: "re.Pattern[str]") -> bool:
    """Whether the reply itself denies ``d``'s head somewhere (a negation shortly before it, in any sentence:
    "支持7天退换哦～不过拆封后...就不能退换了"): it restates the data's denial, and the check says nothing."""
    low = r.text.lower()
    h = d.head[-1]
    win = r.vocab.negation_window + (8 if r.vocab.lang == "zh" else 0)
    for m in neg.finditer(low):
        seg = low[m.end() : m.end() + win + len(h) + 4]
        if (h in seg) if r.vocab.lang == "zh" else any(_same(w, h) for w in _words(seg)):
            return True
    return False


def _specific(d: Denial, v: "Vocab") -> bool:
    """Whether denial ``d``'s words are specific enough to read past a negation later in the sentence: a Chinese
    run of two characters or more (its subject too, when it has one), or two Latin words."""
    if v.lang == "zh":
        return bool(d.head) and len(d.head[0]) >= 2 and not d.asks
    return len(d.head) >= 2 and d.need == 1


def _negation_before(r: "Reading", i: int, neg: "re.Pattern[str]") -> bool:
    """Whether a clause of clause ``i``'s sentence before it holds a negation ("不是平铺的，是床笠" and "no laser, but
    a notch" read as one denial); a negation only in a later clause ("配的是床笠，四边有松紧，不跑床") is a fact of
    its own, which leaves the earlier clauses' claims standing."""
    c = r.clauses[i]
    return any(x.sentence == c.sentence and x.start < c.start and neg.search(r.text[x.start:x.end].lower())
               for x in r.clauses)


def read_denied_claims(r: "Reading") -> None:
    """Record, for each stated clause about a product, a false claim when it states what the product's data
    denies (see the module docstring)."""
    from hat_env.scoring.claims.check_product import hedged

    v = r.vocab
    neg = _neg_rx(v)
    if neg is None:
        return
    done_sent: set[int] = set()
    for i, c in enumerate(r.clauses):
        if c.question or c.sentence in done_sent:
            continue
        st = r.stext(i)
        if neg.search(r.ctext(i)) is not None or v.find("denied_after", st) is not None \
                or _negation_before(r, i, neg):
            continue  # the clause (or its sentence before it) denies something: it may well restate the data's denial
        # a negation only in a later clause of the sentence leaves the clause's claim standing for a denial
        # whose words are specific (a Chinese run, two English words), not for a one-word head ("graduación")
        later_neg = neg.search(st) is not None
        if hedged(r, i) or r.cfind("honest_unknown", i) is not None or r.cfind("condition", i) is not None:
            continue
        pids, how = r.subject(c.start, i)
        if how == "room":
            continue
        pfs = r.pfs(pids)
        if not pfs:
            continue
        # weakly attributed: false only when every product it may be about denies it; a sentence that turns to a
        # product nobody asked about ("吸尘器也可以带一台，8000Pa吸力，还能吸水") is about that product
        cands = pfs[:1] if how == "clause" or (how == "sentence" and pids[0] not in r.scope) else pfs
        hits: list[Denial] = []
        for pf in cands:
            hit = next((d for d in denials(pf, v) if (not later_neg or _specific(d, v)) and _contradicts(r, i, d)
                        and not _denied_in_reply(r, d, neg)), None)
            if hit is None:
                hits = []
                break
            hits.append(hit)
        if not hits:
            continue
        ct = r.ctext(i)
        lead = len(ct) - len(ct.lstrip(" ,.!?;:、，。"))
        s, e = c.start + lead, c.end
        r.claim(s, e, tuple(pf.pid for pf in cands), "denied", True, "", True, "false",
                f"{r.label(cands[0].pid)}: '{r.m.original(s, e).strip()}' but the data says '{hits[0].source}'",
                [("spec:unknown", cands[0].pid), ("spec:*", cands[0].pid)])
        done_sent.add(c.sentence)


__all__ = ["Denial", "denials", "read_denied_claims"]
