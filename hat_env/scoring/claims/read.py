"""Read the claims of one reply and check each against the room data at the request's moment.

The reply is normalised (:func:`hat_env.text.normalize`), split into sentences and clauses (a clause that asks
is not a claim), and its product references found (:mod:`.mentions`). Each claim is attributed to the nearest
product reference in its clause, else earlier in its sentence, else earlier in the reply, else the products the
viewers asked about (any of them may support it). Negation before a claim in its clause flips its polarity.
Number claims are checked by dimension and role (:mod:`.check_numbers`); the other claims (availability,
shipping, returns, campaigns, promises, health, features, spec values, order status) by :mod:`.check_facts`.
"""

from __future__ import annotations

import bisect
import re
from typing import TYPE_CHECKING, Iterable

from hat_env.scoring.claims.facts import ProductFacts, RoomFacts
from hat_env.scoring.claims.mentions import Mention, find_mentions
from hat_env.scoring.claims.model import Claim, Clause, Report
from hat_env.scoring.claims.numbers import Quantity, read_quantities
from hat_env.scoring.claims.vocab import MAX_TEXT, Vocab, load_vocab, with_room_deal_words, with_room_units
from hat_env.text import collapse_spaced, normalize
from hat_env.text.offsets import Mapped

if TYPE_CHECKING:
    from hat_env.sim.room import RoomState
    from hat_env.types import Intent

#: a number with its unit word right before a claim word ("7天", "30-day ", "12个月")
_QTY_BEFORE = re.compile(r"\d+(?:\.\d+)?\s?-?[^\W\d]{0,6}\s?$")
# a tilde ends a sentence the way a chat reply softens a full stop ("退换~中通快递24小时内发"), except between
# numbers, where it is a range ("10~20")
# an emoji ends a sentence too ("casi no sueltan pelusa 🙂 Son de algodón"), as chat replies use it in place of a
# full stop (keycap list markers "2️⃣" are not in these blocks)
_SENT_END = re.compile(r"\.(?!\d)|[!?;\n。；]+|(?<!\d)~+|~+(?![\d.])|[\U0001F300-\U0001FAFF\u2600-\u27BF]+\ufe0f?")
#: clause ends: commas (not the thousands separator of "$1,299"), colons, brackets, a spaced dash
_CLAUSE_END = re.compile(r"(?<!\d),|,(?!\d{3}(?:\D|$))|[:，：()（）|]|(?<=\s)-(?=\s)")


class Reading:
    """The state of reading one reply: text, clauses, mentions, facts, scope.

    Args:
        reply: the reply as written.
        room: the room state at the request's moment.
        locale: the reply's locale.
        intents: the request's intents (their products are the default subject of a claim).
        facts: the room's facts at this moment (shared between replies of one moment), or ``None``.
    """

    def __init__(self, reply: str, room: "RoomState", locale: str, intents: Iterable["Intent"] = (),
                 facts: RoomFacts | None = None):
        """Normalise the reply, split it, find its references and the products asked about."""
        # the locale's words, and the units of the room's catalog vocabulary ("24 lb bag" is a weight)
        voc = getattr(room, "vocabulary", None)
        self.vocab: Vocab = with_room_deal_words(with_room_units(load_vocab(locale), voc), voc)
        self.room = room
        self.m: Mapped = collapse_spaced(normalize(reply[:MAX_TEXT], locale), min_ascii=3)
        self.text = self.m.text
        self.facts = facts if facts is not None and facts.vocab is self.vocab else RoomFacts(room, self.vocab)
        self.intents = list(intents)
        self.clauses = self._clauses()
        self._ctexts = [self.text[c.start : c.end] for c in self.clauses]
        self._starts = [c.start for c in self.clauses]
        self._present: dict[str, bool] = {}
        self._quantities: tuple[Quantity, ...] | None = None
        self.mentions: list[Mention] = find_mentions(self.text, room, self.vocab)
        scope: list[str] = []
        self.orders: list[str] = []
        for it in self.intents:
            for ln in (it.link, it.link2):
                if ln is not None and int(ln) in room.by_link:
                    pid = room.by_link[int(ln)].product_id
                    if pid not in scope:
                        scope.append(pid)
            if it.order_id is not None and str(it.order_id) in room.orders:
                oid = str(it.order_id)
                self.orders.append(oid)
                opid = room.orders[oid].product_id
                if opid in room.by_id and opid not in scope:
                    scope.append(opid)
        self.scope = tuple(scope)
        self.mentions = [m for m in self.mentions if not self._policy_word(m) and not self._asked_value(m)
                         and not self._gift_item(m)]
        self.report = Report()
        for mt in self.mentions:
            for pid in mt.pids:
                if mt.how in ("link", "name") and pid not in self.report.mentioned:
                    self.report.mentioned.append(pid)

    def _asked_value(self, m: Mention) -> bool:
        """Whether name reference ``m`` of a product nobody asked about is an item of the attribute a viewer asked
        about ("这款精华里有烟酰胺" on the hyaluronic serum's ingredients: 烟酰胺 is an ingredient, not the niacinamide
        serum's short name)."""
        if m.how != "name" or not self.scope or any(p in self.scope for p in m.pids):
            return False
        attrs = {it.attr for it in self.intents if it.kind == "spec" and it.attr and it.attr != "unknown"}
        if not attrs:
            return False
        word = self.text[m.start : m.end].strip().lower()
        for p in self.room.products:
            for a in attrs:
                v = p.specs.get(a)
                if v is not None and word in {x.strip().lower() for x in re.split(r"[,、，/]| and | or |和|或", str(v))}:
                    return True
        return False

    def _gift_item(self, m: Mention) -> bool:
        """Whether name reference ``m`` is the item of a gift campaign running now for another product, named right
        after a gift word in its sentence ("1号椅子...还送记忆棉腰靠一个" when the chair's gift is a memory-foam
        cushion, not link 4's cushion; "a free 30 ml travel rosewater mist" with the serum): the gift, not a product
        the claim is about. The words come from the room's own campaigns."""
        if m.how != "name":
            return False
        gw = self.vocab.rx.get("gift_words")
        if gw is None:
            return False
        lo = max(0, m.start - 40)
        before = [g for g in gw.finditer(self.text, lo, m.end) if g.start() < m.start]
        if not before or _SENT_END.search(self.text, before[-1].start(), m.start) is not None:
            return False
        word = self.text[m.start : m.end].strip().lower()
        for c in self.room.campaigns:
            if c.type != "gift" or not c.gift or not c.active(self.room.t):
                continue
            if any(c.applies_to(p) for p in m.pids):
                continue  # the product's own gift ("送同款精华小样"): the name may be the product's
            if word and word in normalize(c.gift, self.vocab.locale).text.lower():
                return True
        return False

    def _policy_word(self, m: Mention) -> bool:
        """Whether name reference ``m`` of a product nobody asked about is a word of an asked product's own
        after-sales note or FAQ answer, said with the word before it ("in the original box" of "Returns within 30
        days in the original box" is not the litter box)."""
        if m.how != "name" or not self.scope or any(p in self.scope for p in m.pids):
            return False
        w = re.search(r"(\S+\s+)?\S*$", self.text[max(0, m.start - 24) : m.end])
        phrase = w.group().strip().lower() if w else ""
        if " " not in phrase:
            return False
        for pid in self.scope:
            p = self.room.by_id.get(pid)
            if p is None:
                continue
            data = normalize(" ".join([p.returns.note, *(f.a for f in p.faq)]), self.vocab.locale).text.lower()
            if phrase in data:
                return True
        return False

    # -- structure ---------------------------------------------------------------------------------------
    def _clauses(self) -> list[Clause]:
        """Sentences (by end punctuation) split into clauses (commas, colons, brackets, the locale's clause words)."""
        text = self.text
        out: list[Clause] = []
        cw = self.vocab.rx.get("clause_words")
        q = self.vocab.rx.get("question")
        s0 = 0
        sent = 0
        bounds = [m.end() for m in _SENT_END.finditer(text)]
        if not bounds or bounds[-1] < len(text):
            bounds.append(len(text))
        for e in bounds:
            seg = text[s0:e]
            is_q = bool(q.search(seg)) if q is not None else False
            cuts = [s0]
            for m in _CLAUSE_END.finditer(seg):
                cuts.append(s0 + m.end())
            if cw is not None:
                for m in cw.finditer(seg):
                    cuts.append(s0 + m.start())
            cuts = sorted(set(cuts)) + [e]
            pieces = [(a, b) for a, b in zip(cuts, cuts[1:]) if text[a:b].strip(" ,.!?;:、")]
            aq = self.vocab.rx.get("clause_question")
            for i, (a, b) in enumerate(pieces):
                # a clause that asks by its form ("能不能吃", "是不是"), wherever it stands, is not a claim either
                asks = aq is not None and aq.search(text, a, b) is not None
                out.append(Clause(a, b, sent, (is_q and i == len(pieces) - 1) or asks))
            s0 = e
            sent += 1
        return out

    def clause_at(self, pos: int) -> int:
        """Index of the clause holding normalised offset ``pos``."""
        i = bisect.bisect_right(self._starts, pos) - 1
        return min(max(i, 0), max(0, len(self.clauses) - 1))

    def ctext(self, i: int) -> str:
        """The text of clause ``i``."""
        return self._ctexts[i]

    def has(self, name: str) -> bool:
        """Whether the vocabulary list ``name`` matches anywhere in the reply (computed once per list)."""
        got = self._present.get(name)
        if got is None:
            got = self._present[name] = self.vocab.find(name, self.text) is not None
        return got

    def cfind(self, name: str, i: int) -> "re.Match[str] | None":
        """The first match of list ``name`` in clause ``i`` (offsets relative to the clause)."""
        return self.vocab.find(name, self._ctexts[i]) if self.has(name) else None

    def call(self, name: str, i: int) -> "list[re.Match[str]]":
        """Every match of list ``name`` in clause ``i`` (offsets relative to the clause)."""
        return self.vocab.all(name, self._ctexts[i]) if self.has(name) else []

    @property
    def quantities(self) -> tuple[Quantity, ...]:
        """Every number of the normalised reply with its unit (:func:`.numbers.read_quantities`), read once: the
        number checks, conversions and money roles all look at them."""
        if self._quantities is None:
            self._quantities = tuple(read_quantities(self.m, self.vocab))
        return self._quantities

    def stext(self, i: int) -> str:
        """The text of the sentence holding clause ``i``."""
        sent = self.clauses[i].sentence
        cs = [c for c in self.clauses if c.sentence == sent]
        return self.text[cs[0].start : cs[-1].end]

    def negated(self, i: int, pos: int) -> bool:
        """Whether a negation word stands in clause ``i`` before ``pos`` (within the locale's window)."""
        c = self.clauses[i]
        # a quantity between the negation and the claim does not count towards the window ("不支持7天无理由退货")
        q = _QTY_BEFORE.search(self.text, max(c.start, pos - 12), pos)
        lo = max(c.start, pos - self.vocab.negation_window - (q.end() - q.start() if q is not None else 0))
        r = self.vocab.rx.get("negation")
        if r is None:
            return False
        last = None
        for m in r.finditer(self.text, lo, pos):
            last = m
        if last is None:
            return False
        # a negation a condition word closes is the condition's own ("封膜没开的话7天内可以换": the exchange is said)
        cond = self.vocab.rx.get("conditional")
        return not (cond is not None and cond.search(self.text[last.end() : pos]) is not None
                    and self.vocab.lang == "zh")

    def in_mention(self, s: int, e: int) -> bool:
        """Whether ``[s, e)`` lies inside a product or order reference."""
        return any(m.start <= s and e <= m.end for m in self.mentions)

    # -- attribution -------------------------------------------------------------------------------------
    def subject(self, pos: int, i: int | None = None) -> tuple[tuple[str, ...], str]:
        """The products a claim at ``pos`` may be about, the likeliest first, and how that was decided:
        ``clause`` (the nearest reference in its clause, then the clause's other references), ``sentence`` or
        ``earlier`` (the last reference before it, then the products the viewers asked about), ``group`` (a
        reference to several products: "links 1 to 6", "everything"), ``asked`` (the products asked about) or
        ``room`` (every product)."""
        if i is None:
            i = self.clause_at(pos)
        c = self.clauses[i]
        prod = [m for m in self.mentions if m.pids]
        inside = [m for m in prod if m.start >= c.start and m.end <= c.end]

        def join(*groups: tuple[str, ...]) -> tuple[str, ...]:
            """The groups' product ids, in order, each once."""
            return tuple(dict.fromkeys(p for g in groups for p in g))

        if inside:
            before = [m for m in inside if m.start < pos]
            first = before[-1] if before else inside[0]
            how = "group" if first.how in ("group", "range") else "clause"
            if before:
                return join(first.pids, *(m.pids for m in reversed(inside))), how
            # only references after the claim ("100ml, twice link 3's"): the sentence's subject may be earlier
            prev = [m for m in prod if m.end <= c.start and self.clauses[self.clause_at(m.start)].sentence == c.sentence]
            return join(first.pids, *(m.pids for m in inside), *(m.pids for m in prev[-1:])), how
        sent = [m for m in prod if m.end <= pos and self.clauses[self.clause_at(m.start)].sentence == c.sentence]
        if sent and _HEADS.match(self.text, sent[-1].end) and not any(
                x.start >= sent[-1].end and x.end <= pos for x in prod):
            # "Link 3: Wi-Fi + Bluetooth 5.3, $99": a reference the reply heads with a colon is the subject of what
            # follows it in the sentence, as if named in the clause
            return join(sent[-1].pids), "group" if sent[-1].how in ("group", "range") else "clause"
        if sent:
            # "维C+益生菌任选2件..., 单件69元": the last reference joined to the one before it names both
            pair = sent[-2].pids if len(sent) > 1 and _JOINED.fullmatch(self.text[sent[-2].end : sent[-1].start]) else ()
            return join(sent[-1].pids, pair, self.scope), "group" if sent[-1].how in ("group", "range") else "sentence"
        earlier = [m for m in prod if m.end <= pos]
        if earlier:
            return join(earlier[-1].pids, self.scope), "group" if earlier[-1].how in ("group", "range") else "earlier"
        if self.scope:
            return self.scope, "asked"
        return tuple(p.product_id for p in self.room.products), "room"

    def pfs(self, pids: Iterable[str]) -> list[ProductFacts]:
        """The facts of ``pids``."""
        return [self.facts.of(p) for p in pids if p in self.room.by_id]

    def label(self, pid: str | None) -> str:
        """How a note names a product (``"link 3"``)."""
        if pid is None or pid not in self.room.by_id:
            return "the room"
        return f"link {self.room.by_id[pid].link}"

    def claim(self, s: int, e: int, pids: tuple[str, ...], attribute: str, value: object, unit: str,
              polarity: bool, verdict: str, reason: str = "", answers: Iterable[tuple[str, str | None]] = ()) -> Claim:
        """Record a claim at normalised ``[s, e)`` (its span and text are the reply's, as written)."""
        span = self.m.span(s, e)
        c = Claim(pids[0] if len(pids) == 1 else None, attribute, value, unit, polarity, span,
                  self.m.source[span[0] : span[1]], verdict, reason, pids, frozenset(answers))
        self.report.claims.append(c)
        return c


#: A colon right after a product reference: it heads what follows ("Link 3: ...", "Cat tree: ...", "3号：...").
_HEADS = re.compile(r"\s*(?:\*\*)?\s*[:：]")
#: What joins two product references into one subject ("维C+益生菌", "the buds and the watch").
_JOINED = re.compile(r"\s?(?:\+|＋|&|和|与|及|跟|加|and|plus)\s?", re.IGNORECASE)
_QUOTE = re.compile(r"[\"“「『]([^\"”」』]{2,80})[\"”」』]")


def _drop_refused_quotes(r: Reading) -> None:
    """A quoted sentence in a sentence that refuses or denies it ("“吃了就能降血压”这种话我不能说", "I can't say
    'cures acne'") is not asserted: its claims are dropped and the quote is recorded as refused."""
    if not r.has("refusal"):
        return
    spans: list[tuple[int, int]] = []
    for q in _QUOTE.finditer(r.text):
        i = r.clause_at(q.start())
        if r.vocab.find("refusal", r.stext(i)) is not None:
            spans.append(q.span())
            r.report.refused.append(q.group(1))
    if not spans:
        return
    src = [r.m.span(a, b) for a, b in spans]
    keep = [c for c in r.report.claims if not any(a <= c.span[0] and c.span[1] <= b for a, b in src)]
    if len(keep) != len(r.report.claims):
        r.report.claims[:] = keep
        r.report.health_claim = any(c.attribute == "health" for c in keep)


def _one_reading_per_number(r: Reading) -> None:
    """A number the catalog's labels read ("2× USB-C": two USB-C ports) is that count, not also an amount of
    money that a role word near it suggested ("connects over 2× USB-C" is no threshold of 2)."""
    labels = [c.span for c in r.report.claims if c.attribute.startswith("label:")]
    if not labels:
        return
    r.report.claims[:] = [c for c in r.report.claims if c.attribute != "price"
                          or not any(a <= c.span[0] and c.span[1] <= b for a, b in labels)]


def read_claims(reply: str, room: "RoomState", locale: str | None = None, intents: Iterable["Intent"] = (),
                tool_names: Iterable[str] = (), facts: RoomFacts | None = None) -> Report:
    """Every claim of ``reply`` with its verdict against ``room`` at ``room.t``.

    Args:
        reply: the reply as written.
        room: the room state at the request's moment.
        locale: the reply's locale (default: the room's).
        intents: the request's intents (their products are a claim's default subject).
        tool_names: the harness's tool names (quoting them to viewers is a leak).
        facts: shared :class:`RoomFacts` for this moment, or ``None``.

    Returns:
        The :class:`~hat_env.scoring.claims.model.Report`.
    """
    from hat_env.scoring.claims.detect import read_fact_claims
    from hat_env.scoring.claims.check_codes import read_labelled_numbers
    from hat_env.scoring.claims.arithmetic import read_arithmetic
    from hat_env.scoring.claims.check_numbers import read_number_claims
    from hat_env.scoring.claims.check_exclusive import read_exclusive_claims
    from hat_env.scoring.claims.check_sizes import read_size_claims
    from hat_env.scoring.claims.check_denied import read_denied_claims
    from hat_env.scoring.claims.check_nearmiss import read_nearmiss_codes
    from hat_env.scoring.claims.check_pairs import read_swapped_numbers
    from hat_env.scoring.claims.check_counted import read_counted_things
    from hat_env.scoring.claims.check_totals import read_unit_price_totals

    r = Reading(reply, room, locale or room.locale, intents, facts)
    if not r.text.strip():
        return r.report
    read_number_claims(r)
    read_labelled_numbers(r)
    _one_reading_per_number(r)
    read_size_claims(r)
    read_exclusive_claims(r)
    read_fact_claims(r, tuple(tool_names))
    read_denied_claims(r)
    read_nearmiss_codes(r)
    read_swapped_numbers(r)
    read_counted_things(r)
    read_unit_price_totals(r)
    _drop_refused_quotes(r)
    read_arithmetic(r)
    r.report.claims.sort(key=lambda c: c.span)
    ends: dict[int, tuple[int, int]] = {}
    for c in r.clauses:
        a, b = ends.get(c.sentence, (c.start, c.end))
        ends[c.sentence] = (min(a, c.start), max(b, c.end))
    r.report.sentences = [r.m.span(a, b) for a, b in ends.values() if b > a]
    r.report.source = r.m.source
    return r.report


__all__ = ["Reading", "read_claims"]
