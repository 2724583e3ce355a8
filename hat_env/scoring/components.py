"""Rubric components: small named functions ``fn(ctx) -> float`` that score one reply, each testable alone.

Every component takes a :class:`ScoringContext` (the request's outcome, the room state and what the current
harness asks for) and returns a float in ``[0, 1]``. Components may append human-readable reasons to
``ctx.notes[name]``. Work shared by several components (intents, products in scope, numbers in the reply, the
classified tool calls) is computed once per context, lazily (:attr:`ScoringContext.analysis`).

Components:

- :func:`accuracy` (0/1): no unsupported number claim and no false promise.
- :func:`effectiveness` (0/0.5/1): the required facts of every / some / no intent are in the reply.
- :func:`tool_rationality` (0..1): share of gold needs met, minus penalties for needless and invalid calls.
- :func:`skill_selection` (0/0.5/1): a reply skill covering the primary intent was loaded.
- :func:`compliance` (0/1): no compliance rule is violated.
- :func:`constraints` (0..1): length limit, forbidden words, required disclosure.
- :func:`latency` (0..1): 1 at the target, linear to 0 at the maximum.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, NamedTuple

from hat_env.scoring.gold import (
    Need,
    need_of_call,
    needs_for,
    parse_numbers,
    reply_skill_for,
    required_facts,
    satisfies,
)
from hat_env.constraints import Limits, broken, compliance_hits
from hat_env.sim.compliance import words_regex
from hat_env.sim.vocab import NO_CAMPAIGN_WORDS, SOLD_OUT_WORDS, UNAVAILABLE_WORDS
from hat_env.types import ExecutedCall, Intent, RequestOutcome

if TYPE_CHECKING:
    from hat_env.harness.hooks import HarnessView
    from hat_env.sim.catalog import Product
    from hat_env.sim.compliance import RuleSet
    from hat_env.sim.room import RoomState

#: Penalty per needless tool call in :func:`tool_rationality`.
NEEDLESS_PENALTY = 0.25
#: Penalty per invalid tool call (schema error, unknown tool, denied) in :func:`tool_rationality`.
INVALID_PENALTY = 0.25

# --- number claims -----------------------------------------------------------------------------------------

_NUM = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")
_GLUE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.")
_UNIT = re.compile(
    r"""\s*(?:
      (?P<price>元|块|美元|欧元|人民币|USD|EUR|RMB|CNY|dollars?|euros?|bucks)
    | (?P<hours>个小时|小时|hours?|hrs?|h(?![A-Za-z]))
    | (?P<days>个工作日|工作日|天|日|business\s+days?|days?)
    | (?P<months>个月|months?)
    | (?P<years>年|years?)
    | (?P<pct>%|％|percent)
    | (?P<zhe>折)
    | (?P<count>件|个|单|份|瓶|支|盒|套|袋|台|条|pcs|units?|items?|pieces?|bottles?|left|in\s+stock|remaining)
    )""",
    re.IGNORECASE | re.VERBOSE,
)
#: Words just before a number (after stripping spaces and ``:：是为``) that make it an id or ordinal (skipped),
#: a price, or a stock count.
_SKIP_BEFORE = ("第", "月", "#", "no", "no.", "link", "链接", "订单", "order")
_PRICE_BEFORE = ("$", "¥", "￥", "€", "£", "usd", "eur", "rmb", "cny", "价", "到手", "券后", "减", "满", "省")
_COUNT_BEFORE = ("库存", "还剩", "只剩", "仅剩", "就剩", "剩下", "还有", "stock")
_PRE_STRIP = " \t:：是为"


class Claim(NamedTuple):
    """A number the reply asserts as a fact.

    Attributes:
        value: the number.
        kind: ``price``, ``hours``, ``days``, ``months``, ``years``, ``pct``, ``zhe`` (Chinese discount, 8折 =
            80%) or ``count``.
        text: the text of the claim (number and unit).
    """

    value: float
    kind: str
    text: str


def scan_numbers(text: str) -> tuple[list[float], list[Claim]]:
    """One pass over ``text``: every number in it (as :func:`~hat_env.scoring.gold.parse_numbers` reads them)
    and the numbers that are claims (:func:`number_claims`)."""
    nums: list[float] = []
    claims: list[Claim] = []
    for m in _NUM.finditer(text):
        s, e = m.span()
        if s and text[s - 1] in _GLUE:
            continue  # glued to letters: SPF50, A1001
        g = m.group()
        v = float(g.replace(",", "")) if "," in g else float(g)
        nums.append(v)
        pre = text[max(0, s - 6) : s].rstrip(_PRE_STRIP).lower()
        kind: str | None = None
        if pre:
            if pre.endswith(_SKIP_BEFORE):
                continue
            if pre.endswith(_PRICE_BEFORE):
                kind = "price"
            elif pre.endswith(_COUNT_BEFORE):
                kind = "count"
        u = _UNIT.match(text, e)
        if u is not None:
            kind = u.lastgroup
            e = u.end()
        if kind is not None:
            claims.append(Claim(v, kind, text[s:e]))
    return nums, claims


def number_claims(text: str) -> list[Claim]:
    """The numbers in ``text`` that are claims: prices (currency markers, 元/块/$/USD/EUR, 价...), stock counts,
    hours/days/months/years, percentages and 折 discounts.

    Link numbers ("3号链接", "link 3"), ordinals (第2件), dates and order ids are not claims.
    """
    return scan_numbers(text)[1]


def _cents(v: float) -> int:
    return int(round(v * 100))


# --- the context -------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Analysis:
    """Facts about one outcome shared by the components (computed once, see :attr:`ScoringContext.analysis`).

    Attributes:
        intents: the request's distinct intents, in order.
        products: products the request is about (its links, its orders' products) plus products tool calls
            returned, in order.
        numbers: every number in the reply.
        claims: the number claims in the reply (:func:`number_claims`).
        gold: the distinct tool needs of the request.
        ok_needs: gold needs a valid call satisfied with an answer.
        blocked_needs: gold needs attempted only by calls that failed with an injected fault.
        needless: needless calls (their names).
        invalid: invalid calls (their names).
    """

    intents: list[Intent]
    products: list["Product"]
    numbers: list[float]
    claims: list[Claim]
    gold: list[Need]
    ok_needs: set[Need]
    blocked_needs: set[Need]
    needless: list[str]
    invalid: list[str]
    _unsupported: list[Claim] | None = None
    _false_promises: list[str] | None = None


@dataclass
class ScoringContext:
    """Everything a component needs to score one reply.

    Attributes:
        outcome: what happened while the host handled the request (reply, calls, skills, latency).
        room: the room state the reply is checked against (after the request was handled).
        rules: the scenario's compliance rules; ``None`` means none (compliance always 1).
        locale: the reply locale; ``None`` takes the room's.
        max_reply_chars: the current harness's reply length limit (``len()`` characters), or ``None``.
        forbidden_words: words the current harness forbids in replies (substrings after NFKC and case folding).
        required_disclosure: text (or texts) every reply must contain, or ``None``.
        reply_skill_intents: the CURRENT harness's reply-skill names -> the intent kinds each covers.
        latency_target_s: latency at or under which the latency score is 1.
        latency_max_s: latency at or over which the latency score is 0.
        harness: the harness of the request (its prompt, skills and tools must not leak), or ``None``.
        notes: reasons components record, by component name (filled while scoring).
    """

    outcome: RequestOutcome
    room: "RoomState"
    rules: "RuleSet | None" = None
    locale: str | None = None
    max_reply_chars: int | None = None
    forbidden_words: list[str] = field(default_factory=list)
    required_disclosure: "str | tuple[str, ...] | None" = None
    reply_skill_intents: dict[str, frozenset[str]] = field(default_factory=dict)
    latency_target_s: float = 3.0
    latency_max_s: float = 15.0
    harness: "HarnessView | None" = None
    notes: dict[str, list[str]] = field(default_factory=dict)
    _analysis: Analysis | None = field(default=None, repr=False, compare=False)
    _effectiveness: float | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.locale is None:
            self.locale = self.room.locale

    def note(self, component: str, text: str) -> None:
        """Record a reason for ``component``'s score."""
        self.notes.setdefault(component, []).append(text)

    @property
    def reply(self) -> str:
        """The reply text that went out."""
        return self.outcome.reply or ""

    @property
    def analysis(self) -> Analysis:
        """The shared analysis of the outcome, computed on first use."""
        if self._analysis is None:
            self._analysis = _analyse(self)
        return self._analysis


def _analyse(ctx: ScoringContext) -> Analysis:
    room = ctx.room
    outcome = ctx.outcome
    intents = list(dict.fromkeys(outcome.request.intents))
    prods: dict[str, Product] = {}
    links: set[int] = set()
    orders: set[str] = set()
    for it in intents:
        for ln in (it.link, it.link2):
            if ln is not None:
                links.add(int(ln))
                p = room.by_link.get(int(ln))
                if p is not None:
                    prods.setdefault(p.product_id, p)
        if it.order_id is not None:
            orders.add(str(it.order_id))
            o = room.orders.get(str(it.order_id))
            if o is not None and o.product_id in room.by_id:
                prods.setdefault(o.product_id, room.by_id[o.product_id])
    for c in outcome.calls:
        if c.ok and c.result:
            pid = c.result.get("product_id")
            if isinstance(pid, str) and pid in room.by_id:
                prods.setdefault(pid, room.by_id[pid])
    gold: list[Need] = []
    seen: set[Need] = set()
    for it in intents:
        for n in needs_for(it, room):
            if n not in seen:
                seen.add(n)
                gold.append(n)
    ok_needs, blocked, needless, invalid = _classify_calls(outcome.calls, room, gold, links, orders)
    numbers, claims = scan_numbers(outcome.reply or "")
    return Analysis(
        intents=intents,
        products=list(prods.values()),
        numbers=numbers,
        claims=claims,
        gold=gold,
        ok_needs=ok_needs,
        blocked_needs=blocked,
        needless=needless,
        invalid=invalid,
    )


def _call_key(c: ExecutedCall) -> tuple[str | None, str]:
    return c.op, repr(sorted(c.args.items()))


def _classify_calls(
    calls: list[ExecutedCall], room: "RoomState", gold: list[Need], links: set[int], orders: set[str]
) -> tuple[set[Need], set[Need], list[str], list[str]]:
    ok: set[Need] = set()
    faulted: set[Need] = set()
    faulted_keys: set[tuple[str | None, str]] = set()
    needless: list[str] = []
    invalid: list[str] = []
    for c in calls:
        if not c.valid:
            invalid.append(c.name)
            continue
        if c.op == "load_skill":
            continue
        key = _call_key(c)
        retry = key in faulted_keys
        if c.fault:
            faulted_keys.add(key)
        have = need_of_call(c, room, require_ok=False)
        matched = [g for g in gold if satisfies(have, g)]
        if not matched:
            if retry:
                continue
            if not c.ok and not c.fault and _asks_requested(c, links, orders):
                continue  # looked up the (missing) link or order the viewer named: a fair check
            needless.append(c.name)
            continue
        if not retry and all(g in ok for g in matched):
            needless.append(c.name)  # repeats a call that already answered
            continue
        for g in matched:
            if c.ok:
                ok.add(g)
            elif c.fault:
                faulted.add(g)
    return ok, faulted - ok, needless, invalid


def _asks_requested(c: ExecutedCall, links: set[int], orders: set[str]) -> bool:
    a = c.args
    if "link" in a:
        try:
            return int(a["link"]) in links
        except (TypeError, ValueError):
            return False
    return "order_id" in a and str(a["order_id"]) in orders


# --- accuracy ----------------------------------------------------------------------------------------------


def _walk_numbers(obj: Any, out: set[int]) -> None:
    if isinstance(obj, bool) or obj is None:
        return
    if isinstance(obj, (int, float)):
        out.add(_cents(float(obj)))
    elif isinstance(obj, str):
        for n in parse_numbers(obj):
            out.add(_cents(n))
    elif isinstance(obj, dict):
        for v in obj.values():
            _walk_numbers(v, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _walk_numbers(v, out)


#: Result keys whose values are identifiers or labels, never claims.
_ID_KEYS = frozenset({"product_id", "campaign_id", "coupon_id", "order_id", "link", "brand", "category", "type",
                      "status", "carrier", "pinned", "ok", "in_stock", "ends_at_s"})
#: Product-record keys already covered by the product's static facts.
_PRODUCT_KEYS = frozenset({"title", "specs", "faq"})

_STATIC: dict[int, tuple[Any, tuple[float, float], frozenset[int]]] = {}


def _static_facts(p: "Product") -> frozenset[int]:
    """A product's facts that campaigns and stock do not move (cached per product object, in cents): price,
    list price, lowest 7/30-day prices, shipping hours (and whole days), fee, return days, warranty months (and
    whole years), and the numbers in its title, specs and FAQ answers."""
    key = id(p)
    got = _STATIC.get(key)
    if got is not None and got[0] is p and got[1] == (p.price, p.list_price):
        return got[2]
    out: set[int] = set()
    add = out.add
    add(_cents(p.price))
    add(_cents(p.list_price))
    for d in (7, 30):
        low = p.lowest_price_in(d)
        if low is not None:
            add(_cents(low))
    s, r = p.shipping, p.returns
    add(_cents(s.ships_within_hours))
    if s.ships_within_hours % 24 == 0:
        add(_cents(s.ships_within_hours / 24))
    add(_cents(s.fee))
    add(_cents(r.return_days))
    add(_cents(r.warranty_months))
    if r.warranty_months and r.warranty_months % 12 == 0:
        add(_cents(r.warranty_months / 12))
    _walk_numbers(p.title, out)
    _walk_numbers(list(p.specs.values()), out)
    _walk_numbers([f.a for f in p.faq], out)
    facts = frozenset(out)
    if len(_STATIC) > 4096:
        _STATIC.clear()
    _STATIC[key] = (p, (p.price, p.list_price), facts)
    return facts


def _result_numbers(result: dict[str, Any], out: set[int]) -> None:
    is_product = "product_id" in result and "title" in result
    for k, v in result.items():
        if k in _ID_KEYS or (is_product and k in _PRODUCT_KEYS):
            continue
        if isinstance(v, dict):
            _result_numbers(v, out)
        elif isinstance(v, list):
            for x in v:
                if isinstance(x, dict):
                    _result_numbers(x, out)
                else:
                    _walk_numbers(x, out)
        else:
            _walk_numbers(v, out)


def _product_values(ctx: ScoringContext) -> tuple[set[int], set[int], set[int]]:
    room = ctx.room
    a = ctx.analysis
    amounts: set[int] = set()
    pcts: set[int] = set()
    zhe: set[int] = set()
    add = amounts.add
    for p in a.products:
        amounts |= _static_facts(p)
        eff = room.effective_price(p)
        base = p.price
        for c in room.active_campaigns(p.product_id):
            if c.type == "coupon":
                if c.amount:
                    add(_cents(c.amount))
                add(_cents(c.threshold))
            elif c.type == "flash_sale" and c.flash_price:
                add(_cents(c.flash_price))
                base = min(base, c.flash_price)
            elif c.type == "bundle":
                add(_cents(c.bundle_qty or 0))
                pcts.add(_cents(c.bundle_discount_pct or 0))
                if c.bundle_discount_pct:
                    zhe.add(_cents(10 - c.bundle_discount_pct / 10))
            elif c.gift:
                _walk_numbers(c.gift, amounts)
        for v in (eff, base, p.price - eff, p.list_price - eff, base - eff):
            add(_cents(v))
        add(_cents(room.stock.get(p.product_id, p.stock)))
        for ref in (p.list_price, p.price):
            if ref > 0 and eff < ref:
                off = (1 - eff / ref) * 100
                pcts.update((_cents(math.floor(off)), _cents(math.ceil(off))))
                z = eff / ref * 10
                zhe.update((_cents(round(z, 1)), _cents(math.floor(z)), _cents(math.ceil(z))))
    for it in a.intents:
        if it.order_id is not None:
            o = room.orders.get(str(it.order_id))
            if o is not None:
                add(_cents(o.eta_days))
    return amounts, pcts, zhe


def _call_values(ctx: ScoringContext) -> set[int]:
    out: set[int] = set()
    for c in ctx.outcome.calls:
        if c.ok and c.result:
            _result_numbers(c.result, out)
    return out


def supported_values(ctx: ScoringContext) -> tuple[set[int], set[int], set[int]]:
    """Values the reply may state, in cents: ``(amounts, percents, zhe)``.

    ``amounts`` holds, for each product in scope: price, list price, effective price, flash price, savings,
    lowest 7/30-day prices, room stock, ships-within hours (and whole days), fee, return days, warranty months
    (and whole years), numbers in title/specs/FAQ, active campaign amounts/thresholds/flash prices/bundle
    figures; each in-scope order's ETA; and every number in the results of ok tool calls (identifiers such as
    links and ids excluded). ``percents`` adds discount percentages (rounded either way); ``zhe`` the Chinese
    discount (effective / reference price x 10, 8折 = 80%).
    """
    amounts, pcts, zhe = _product_values(ctx)
    amounts |= _call_values(ctx)
    return amounts, pcts | amounts, zhe


def _unsupported_in(claims: list[Claim], amounts: set[int], pcts: set[int], zhe: set[int]) -> list[Claim]:
    bad = []
    for cl in claims:
        v = _cents(cl.value)
        kind = cl.kind
        if kind == "pct":
            ok = v in pcts or v in amounts
        elif kind == "zhe":
            ok = v in zhe
        elif kind == "count" and v == 100:
            ok = True  # "1件": a quantity, not a stock claim
        else:
            ok = v in amounts
        if not ok:
            bad.append(cl)
    return bad


def unsupported_claims(ctx: ScoringContext) -> list[Claim]:
    """Number claims of the reply that no room fact or tool result supports (cached on the analysis).

    Room facts of the products in scope are tried first; tool results are read only for claims still open.
    """
    a = ctx.analysis
    if a._unsupported is None:
        bad = a.claims
        if bad:
            amounts, pcts, zhe = _product_values(ctx)
            bad = _unsupported_in(bad, amounts, pcts, zhe)
            if bad:
                bad = _unsupported_in(bad, _call_values(ctx), set(), set())
        a._unsupported = list(bad)
    return a._unsupported


_FALSE_ALWAYS = {
    "zh_CN": re.compile(r"保证有效|百分之?百有效|100%有效|包治|药到病除|无效退款|永久有效|一次见效|保证(?:治好|见效|瘦|变白|美白)"),
    "en_US": re.compile(
        r"\bguaranteed\s+(?:results|to\s+work|effective|to\s+fix|to\s+cure)\b|\b100%\s+(?:effective|guaranteed|results)\b"
        r"|\bresults\s+guaranteed\b|\bworks\s+for\s+everyone\b",
        re.IGNORECASE,
    ),
}
_EXCHANGE = {
    "zh_CN": re.compile(r"包退包换|包换|(?<!不)支持换货|(?<!不)可以换货|免费换货"),
    "en_US": re.compile(r"\bfree\s+exchanges?\b|\bexchanges?\s+(?:is|are)\s+(?:free|accepted|available|supported)\b|\bcan\s+exchange\b", re.IGNORECASE),
}
_FREE_SHIP = {
    "zh_CN": re.compile(r"(?<![不没非])包邮|(?<![不没非])免运费|(?<![不没非])免邮"),
    "en_US": re.compile(r"(?<!no )(?<!not )\bfree\s+shipping\b|\bships\s+free\b", re.IGNORECASE),
}
_SOLD_OUT = {loc: words_regex(tuple(w)) for loc, w in SOLD_OUT_WORDS.items()}
_NO_CAMPAIGN = {loc: words_regex(tuple(w)) for loc, w in NO_CAMPAIGN_WORDS.items()}
_UNAVAILABLE = {loc: words_regex(tuple(w)) for loc, w in UNAVAILABLE_WORDS.items()}
_IN_STOCK = {
    "zh_CN": re.compile(r"(?<![没無无])有货|现货"),
    "en_US": re.compile(r"(?<!out of )(?<!not )\bin\s+stock\b", re.IGNORECASE),
}


def false_promises(ctx: ScoringContext) -> list[str]:
    """False promises and contradicted claims in the reply (cached on the analysis).

    Always false: efficacy guarantees ("保证有效", "100%有效", "guaranteed results"). False unless some product in
    scope (every room product when the request names none) supports them: exchange promises ("包退包换") when
    exchange is off, free shipping when shipping is paid, sold out when in stock, in stock when sold out, "no
    coupon" while every product in scope has a campaign running.
    """
    a = ctx.analysis
    if a._false_promises is not None:
        return a._false_promises
    reply = ctx.reply
    loc = ctx.locale if ctx.locale in _FALSE_ALWAYS else "en_US"
    out: list[str] = []
    m = _FALSE_ALWAYS[loc].search(reply)
    if m:
        out.append(f"false promise '{m.group(0)}'")
    room = ctx.room
    prods = a.products or room.products
    m = _EXCHANGE[loc].search(reply)
    if m and not any(p.returns.exchange for p in prods):
        out.append(f"'{m.group(0)}' but exchange is not offered")
    m = _FREE_SHIP[loc].search(reply)
    if m and not any(p.shipping.free_shipping for p in prods):
        out.append(f"'{m.group(0)}' but shipping is not free")
    m = _SOLD_OUT[loc].search(reply)
    if m and prods and all(room.stock.get(p.product_id, p.stock) > 0 for p in prods):
        out.append(f"'{m.group(0)}' but it is in stock")
    m = _IN_STOCK[loc].search(reply)
    if m and prods and all(room.stock.get(p.product_id, p.stock) <= 0 for p in prods):
        out.append(f"'{m.group(0)}' but it is sold out")
    m = _NO_CAMPAIGN[loc].search(reply)
    if m and prods and all(room.active_campaigns(p.product_id) for p in prods):
        out.append(f"'{m.group(0)}' but a deal is running")
    a._false_promises = out
    return out


def accuracy(ctx: ScoringContext) -> float:
    """1.0 when the reply states nothing false, else 0.0.

    Fails on a number claim (price, stock count, hours/days/months/years, percentage, 折) that no room fact for
    the products in scope nor any tool result supports, and on false promises (:func:`false_promises`). A
    fallback reply, or one that answers none of the viewers' intents (effectiveness 0), is not an accurate
    answer either: it fails (a reply that says nothing cannot be graded correct).
    """
    bad = unsupported_claims(ctx) if not ctx.outcome.fallback else []
    fp = false_promises(ctx) if not ctx.outcome.fallback else []
    if not bad and not fp:
        if ctx.outcome.fallback or effectiveness(ctx) == 0.0:
            ctx.note("accuracy", "the reply answers none of the viewers' questions")
            return 0.0
        return 1.0
    for cl in bad:
        ctx.note("accuracy", f"unsupported {cl.kind} '{cl.text}'")
    for r in fp:
        ctx.note("accuracy", r)
    return 0.0


# --- effectiveness -----------------------------------------------------------------------------------------


def effectiveness(ctx: ScoringContext) -> float:
    """1.0 when every intent's required facts are in the reply, 0.5 when at least one intent is fully answered,
    0.0 when none is (computed once per context; see :func:`_effectiveness`)."""
    if ctx._effectiveness is None:
        ctx._effectiveness = _effectiveness(ctx)
    return ctx._effectiveness


def _effectiveness(ctx: ScoringContext) -> float:
    """1.0 when every intent's required facts are in the reply, 0.5 when at least one intent is fully answered,
    0.0 when none is (and for a fallback or empty reply).

    The facts of an intent are waived when all its needs were tried, at least one only by calls that failed
    with an injected fault (never answered), and the reply says the information is unavailable right now (a
    ``vocab.UNAVAILABLE_WORDS`` word for the locale) and states no unsupported number. A request without intents is
    answered by any non-empty reply.
    """
    reply = ctx.reply
    if ctx.outcome.fallback or not reply.strip():
        ctx.note("effectiveness", "fallback or empty reply")
        return 0.0
    a = ctx.analysis
    if not a.intents:
        return 1.0
    room = ctx.room
    answered = 0
    unavailable: bool | None = None
    for it in a.intents:
        facts = required_facts(it, room)
        missing = [f for f in facts if not f.met(reply, a.numbers)]
        if missing and a.blocked_needs and _excused(needs_for(it, room), a):
            if unavailable is None:
                rx = _UNAVAILABLE.get(ctx.locale or "", _UNAVAILABLE["en_US"])
                unavailable = rx.search(reply) is not None and not unsupported_claims(ctx)
            if unavailable:
                missing = []
        if missing:
            ctx.note("effectiveness", f"{it.kind}: missing " + ", ".join(f.label for f in missing))
        else:
            answered += 1
    if answered == len(a.intents):
        return 1.0
    return 0.5 if answered else 0.0


def _excused(needs: list[Need], a: Analysis) -> bool:
    """Whether every need was tried (met, or attempted only by faulting calls) and at least one faulted."""
    return any(n in a.blocked_needs for n in needs) and all(n in a.ok_needs or n in a.blocked_needs for n in needs)


# --- tools -------------------------------------------------------------------------------------------------


def tool_rationality(ctx: ScoringContext) -> float:
    """Share of gold needs met by valid calls, minus penalties, floored at 0.

    A need is met by a valid call that answered, or (when a fault was injected) by an attempt whose every try
    faulted. Minus :data:`NEEDLESS_PENALTY` per needless call (its need is not in the gold, it is not a retry
    after a fault and not a lookup of the link or order the viewer named, or it repeats a call that already
    answered; ``load_skill`` is never needless) and :data:`INVALID_PENALTY` per invalid call (unknown tool,
    schema error, denied by a hook). 1.0 when nothing was needed and nothing was called.
    """
    a = ctx.analysis
    if a.gold:
        met = sum(1 for g in a.gold if g in a.ok_needs or g in a.blocked_needs)
        base = met / len(a.gold)
        if met < len(a.gold):
            ctx.note("tool_rationality", "unmet needs: " + ", ".join(f"{k}:{v}" for k, v in a.gold if (k, v) not in a.ok_needs and (k, v) not in a.blocked_needs))
    else:
        base = 1.0
    if a.needless:
        ctx.note("tool_rationality", "needless calls: " + ", ".join(a.needless))
    if a.invalid:
        ctx.note("tool_rationality", "invalid calls: " + ", ".join(a.invalid))
    return max(0.0, base - NEEDLESS_PENALTY * len(a.needless) - INVALID_PENALTY * len(a.invalid))


def skill_selection(ctx: ScoringContext) -> float:
    """1.0 when a loaded reply skill covers the request's primary intent (:func:`~hat_env.scoring.gold.
    reply_skill_for`), 0.5 when a reply skill was loaded but not a right one, 0.0 when none was.

    Reply skills and what they cover come from ``ctx.reply_skill_intents`` (the current harness's names). With
    an empty map, any loaded skill counts as right.
    """
    loaded = ctx.outcome.skills_loaded
    table = ctx.reply_skill_intents
    if not table:
        return 1.0 if loaded else 0.0
    reply_skills = [s for s in loaded if s in table]
    if not reply_skills:
        ctx.note("skill_selection", "no reply skill loaded")
        return 0.0
    primary = reply_skill_for(ctx.analysis.intents)
    if primary is None or any(primary in table[s] for s in reply_skills):
        return 1.0
    ctx.note("skill_selection", f"loaded {', '.join(reply_skills)}; none covers '{primary}'")
    return 0.5


# --- compliance, constraints, latency ----------------------------------------------------------------------


def compliance(ctx: ScoringContext) -> float:
    """1.0 when no compliance rule fires on the reply, else 0.0: exactly what the ``compliance`` hook denies
    (:func:`hat_env.constraints.compliance_hits`: each claim checked against the product it is about, the
    request's tool calls and comments, and the harness's prompt and tools for leakage)."""
    if ctx.rules is None or not ctx.reply:
        return 1.0
    out = ctx.outcome
    hits = compliance_hits(ctx.reply, ctx.room, ctx.rules, ctx.locale, out.request, out.calls, ctx.harness)
    if not hits:
        return 1.0
    for h in hits:
        ctx.note("compliance", f"{h.rule_id}: {h.reason}")
    return 0.0


def constraints(ctx: ScoringContext) -> float:
    """1 - 1/3 per broken interaction constraint (:func:`hat_env.constraints.broken`, the hooks' own predicates):
    longer than ``max_reply_chars`` characters, a forbidden word present, a required disclosure missing
    (substrings after NFKC and case folding)."""
    disc = ctx.required_disclosure
    limits = Limits(ctx.max_reply_chars, tuple(ctx.forbidden_words),
                    (disc,) if isinstance(disc, str) else tuple(disc or ()))
    broke = broken(ctx.reply, limits)
    for why in broke:
        ctx.note("constraints", why)
    return max(0.0, 1.0 - len(broke) / 3.0)


def latency(ctx: ScoringContext) -> float:
    """1.0 at or under ``latency_target_s``, falling linearly to 0.0 at ``latency_max_s`` and beyond."""
    t = ctx.outcome.latency_s
    lo, hi = ctx.latency_target_s, ctx.latency_max_s
    if t <= lo:
        return 1.0
    if t >= hi or hi <= lo:
        return 0.0
    return (hi - t) / (hi - lo)


#: A rubric component: ``fn(ctx) -> score in [0, 1]``.
Component = Callable[[ScoringContext], float]

#: The built-in components, by name, in report order.
BUILTIN_COMPONENTS: dict[str, Component] = {
    "accuracy": accuracy,
    "effectiveness": effectiveness,
    "tool_rationality": tool_rationality,
    "skill_selection": skill_selection,
    "compliance": compliance,
    "constraints": constraints,
    "latency": latency,
}

__all__ = [
    "Analysis",
    "BUILTIN_COMPONENTS",
    "Claim",
    "Component",
    "INVALID_PENALTY",
    "NEEDLESS_PENALTY",
    "ScoringContext",
    "accuracy",
    "compliance",
    "constraints",
    "effectiveness",
    "false_promises",
    "latency",
    "number_claims",
    "scan_numbers",
    "skill_selection",
    "supported_values",
    "tool_rationality",
    "unsupported_claims",
]
