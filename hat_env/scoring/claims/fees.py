"""Money roles read from the room's own fields: a shipping fee, an oversize fee, an installation fee, a deposit,
a gift's value ("$79 oversize fee", "installation is $99", "运费5元", "shipping itself is free, but there's a $15
oversize fee").

The roles are data: the locale's vocabulary (``fee_roles`` in ``vocab/<locale>.yaml``) names, per role, the
product field it is checked against (a dotted path into the catalog product: ``shipping.oversize_fee``; ``null``
when the catalog has no such field, so a stated amount is unsupported), the words that name it (``words``, for
"free"/"no fee" claims), and the text just before or just after an amount that gives the amount that role
(``before`` anchored at its end, ``after`` anchored at its start, like ``money_roles``). An amount in a fee role
is that fee, never the price the viewer pays; a fee said to be free or absent must be 0 in the data (or, for
shipping, the product must ship free).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hat_env.scoring.claims.numbers import Quantity

if TYPE_CHECKING:
    from hat_env.scoring.claims.facts import ProductFacts
    from hat_env.scoring.claims.read import Reading
    from hat_env.scoring.claims.vocab import Vocab

_EPS = 0.0051


@dataclass(frozen=True, slots=True)
class FeeRole:
    """One money role read from a product field.

    Attributes:
        name: the role's name (``shipping``, ``oversize``, ``installation``, ``deposit``...).
        field: dotted path of the product field holding the amount (``shipping.oversize_fee``), or ``None`` when
            the catalog has none (a stated amount is then unsupported).
        words: regex of the words naming the fee anywhere in a clause (for "free" and "no ... fee"), or ``None``.
        before: regex anchored at the end of the text just before an amount giving it this role, or ``None``.
        after: regex anchored at the start of the text just after an amount giving it this role, or ``None``.
        answers: the intent answer a true claim of this role gives (``shipping:free``: the fee question).
    """

    name: str
    field: str | None
    words: re.Pattern[str] | None
    before: re.Pattern[str] | None
    after: re.Pattern[str] | None
    answers: str = "shipping:free"


_ROLES: dict[tuple[str, int], tuple[FeeRole, ...]] = {}


def _rx(where: str, pats: Any) -> re.Pattern[str] | None:
    """One compiled alternation of a list of regexes (``None`` when empty); ``where`` names it in errors."""
    if not pats:
        return None
    if not isinstance(pats, list) or not all(isinstance(p, str) for p in pats):
        raise ValueError(f"{where}: expected a list of regex strings")
    try:
        return re.compile("|".join(f"(?:{p})" for p in pats), re.IGNORECASE)
    except re.error as exc:
        raise ValueError(f"{where}: bad regex: {exc}") from None


def fee_roles(vocab: "Vocab") -> tuple[FeeRole, ...]:
    """The fee roles of ``vocab``'s locale file (``fee_roles``), compiled once per vocabulary.

    Raises:
        ValueError: an entry is not a mapping or a pattern is not a valid regex (the message names the key).
    """
    key = (vocab.locale, id(vocab.raw))
    hit = _ROLES.get(key)
    if hit is not None:
        return hit
    out = []
    for name, d in (vocab.raw.get("fee_roles") or {}).items():
        where = f"vocab/{vocab.locale}.yaml: fee_roles.{name}"
        if not isinstance(d, dict):
            raise ValueError(f"{where}: expected a mapping with field, words, before, after")
        fld = d.get("field")
        if fld is not None:
            _check_field(where, str(fld))
        out.append(FeeRole(str(name), None if fld is None else str(fld), _rx(f"{where}.words", d.get("words")),
                           _rx(f"{where}.before", d.get("before")), _rx(f"{where}.after", d.get("after")),
                           str(d.get("answers", "shipping:free"))))
    roles = tuple(out)
    if len(_ROLES) > 32:
        _ROLES.clear()
    _ROLES[key] = roles
    return roles


_MISSING = object()


def _check_field(where: str, path: str) -> None:
    """Raise ``ValueError`` naming ``where`` when ``path`` is not a field path of the catalog product model
    (``shipping.oversize_fee``), so a typo in a vocabulary file is an error, not a fee that is never found."""
    from hat_env.sim.catalog import Product

    model: Any = Product
    for part in path.split("."):
        fields = getattr(model, "model_fields", None)
        if fields is None or part not in fields:
            raise ValueError(f"{where}.field: {path!r} is not a field of the catalog product "
                             f"(e.g. shipping.fee, shipping.oversize_fee, shipping.installation_fee)")
        ann = fields[part].annotation
        model = next((a for a in getattr(ann, "__args__", (ann,)) if hasattr(a, "model_fields")), ann)


def field_value(product: Any, path: str | None) -> Any:
    """The value at dotted ``path`` of a catalog product (``shipping.oversize_fee``), ``None`` when the path is
    ``None`` or the product has no such field."""
    if path is None:
        return None
    cur = product
    for part in path.split("."):
        cur = getattr(cur, part, _MISSING)
        if cur is _MISSING:
            return None
    return cur


def amount_role(r: "Reading", q: Quantity, i: int, after_only: bool = False) -> FeeRole | None:
    """The fee role the words right before or after amount ``q`` (in clause ``i``) give it, or ``None``: the role
    whose matching word stands nearest to the amount (``after_only``: only words right after it, "$200 deposit",
    which name the amount whatever stands before it)."""
    c = r.clauses[i]
    before = r.text[max(c.start, q.start - 40) : q.start]
    after = r.text[q.end : min(c.end, q.end + 30)]
    best: tuple[int, FeeRole] | None = None
    for role in fee_roles(r.vocab):
        for rx, text, is_before in ((role.before, before, True), (role.after, after, False)):
            if rx is None or (is_before and after_only):
                continue
            m = rx.search(text)
            if m is None:
                continue
            dist = len(text) - m.end() if is_before else m.start()
            if best is None or dist < best[0]:
                best = (dist, role)
    return best[1] if best is not None else None


def _fee_of(pf: "ProductFacts", role: FeeRole) -> float | None:
    """The amount of ``role`` for a product (0 for free shipping), or ``None`` when the data has none."""
    if role.field is None:
        return None
    v = field_value(pf.product, role.field)
    if v is None:
        return None
    return float(v)


_SHARED = re.compile(r"[\u4e00-\u9fff]{2}|[a-z]{4,}")


def _faq_amount(r: "Reading", i: int, pf: "ProductFacts", v: float) -> bool:
    """Whether amount ``v`` is one an FAQ answer of ``pf`` states for a case the reply's sentence names too (a word
    or two Chinese characters of the answer besides the amount: "偏远地区"), so the reply restates that answer."""
    from hat_env.text import normalize

    st = r.stext(i).lower()
    num = re.compile(rf"(?<![\d.]){re.escape(f'{v:g}')}(?:\.0+)?(?![\d.])")
    for f in pf.product.faq:
        a = normalize(f.a, r.vocab.locale).text.lower()
        if not num.search(a):
            continue
        words = {w for w in _SHARED.findall(num.sub(" ", a)) if w not in ("运费", "需要", "可以", "shipping")}
        if sum(1 for w in words if w in st) >= 1:
            return True
    return False


def named_fee_role(r: "Reading", i: int, pfs: list, v: float,
                   role: FeeRole | None = None) -> "tuple[FeeRole, list] | None":
    """A fee role (other than ``role``) whose words the sentence of clause ``i`` names ("oversize", "installation")
    and whose field holds amount ``v`` (above 0) on some of ``pfs``: ``(that role, those products)``, else
    ``None``. "Since it's oversize there's a fifteen-dollar fee": the generic fee is the oversize fee."""
    st = r.stext(i)
    for other in fee_roles(r.vocab):
        if other is role or other.words is None or other.words.search(st) is None:
            continue
        good = [pf for pf in pfs if (x := _fee_of(pf, other)) is not None and x > 0 and abs(x - v) < _EPS]
        if good:
            return other, good
    return None


def claim_named_fee(r: "Reading", q: Quantity, i: int, pfs: list, role: FeeRole | None = None) -> bool:
    """Record amount ``q`` as the fee of the role the sentence names (:func:`named_fee_role`, other than ``role``)
    when that field holds it: a true claim in that role. Returns whether it did."""
    named = named_fee_role(r, i, pfs, q.value, role)
    if named is None:
        return False
    other, good = named
    r.claim(q.start, q.end, tuple(pf.pid for pf in good), "price", q.value, other.name, True, "true", "",
            [(other.answers, pf.pid) for pf in good])
    return True


def check_fee_amount(r: "Reading", q: Quantity, i: int, pids: tuple[str, ...], role: FeeRole) -> None:
    """Check an amount said in a fee role ("$79 oversize fee") against that field of the products it may be about;
    record the claim (true, false, or unsupported when the data has no such field)."""
    pfs = r.pfs(pids)
    if not pfs:
        return
    v = q.value
    orig = r.m.original(q.start, q.end)
    good = [pf for pf in pfs if (x := _fee_of(pf, role)) is not None and abs(x - v) < _EPS]
    if good:
        r.claim(q.start, q.end, tuple(pf.pid for pf in good), "price", v, role.name, True, "true", "",
                [(role.answers, pf.pid) for pf in good])
        return
    if claim_named_fee(r, q, i, pfs, role):
        return  # "since it's oversize there's a fifteen-dollar fee": the generic fee word is the oversize fee
    said = next((pf for pf in pfs if _faq_amount(r, i, pf, v) or (role.name == "shipping" and _region_fee(r, q, pf))),
                None)
    if said is not None:
        # "新疆西藏这些偏远地区要补10元运费": the FAQ's own fee for a case it names ("偏远地区…需补运费10元")
        r.claim(q.start, q.end, (said.pid,), "price", v, role.name, True, "true", "", [(role.answers, said.pid)])
        return
    pf = pfs[0]
    x = _fee_of(pf, role)
    if x is None:
        r.claim(q.start, q.end, pids, "price", v, role.name, True, "unsupported",
                f"{r.label(pf.pid)}: '{orig}' ({role.name}) but the data gives no {role.name} amount")
        return
    shown = "none" if x == 0 else f"{x:.2f}".rstrip("0").rstrip(".")
    r.claim(q.start, q.end, pids, "price", v, role.name, True, "false",
            f"{r.label(pf.pid)}: '{orig}' ({role.name}) but the {role.name} fee is {shown}", [(role.answers, pf.pid)])


def _region_fee(r: "Reading", q: Quantity, pf: "ProductFacts") -> bool:
    """Whether a shipping fee ``q`` is the fee of a region the product ships to at a charge ("西藏可以发的～要补二十块
    运费", "to Alaska it's $15 shipping") and that the reply names before the amount, in its sentence or the one
    before it."""
    from hat_env.scoring.claims.faq_regions import faq_regions
    from hat_env.sim.room_words import regions_named
    from hat_env.text import normalize

    regs = [g for g in faq_regions(r, pf.product) if g.ships and g.fee and abs(g.fee - q.value) < _EPS]
    if not regs:
        return False
    sent = r.clauses[r.clause_at(q.start)].sentence
    start = min((c.start for c in r.clauses if c.sentence >= sent - 1), default=0)
    text = r.text[start : q.start]
    return bool(regions_named(text, [[normalize(n, r.vocab.locale).text for n in g.names] for g in regs]))


def free_fee_word(r: "Reading", i: int, pos: int) -> FeeRole | None:
    """The fee role a "free" word at ``pos`` of clause ``i`` is about: a role word before it in the clause
    ("shipping itself is free", "installation is free", "安装免费"), else ``None``."""
    c = r.clauses[i]
    text = r.text[c.start : pos]
    best: tuple[int, FeeRole] | None = None
    for role in fee_roles(r.vocab):
        if role.words is None:
            continue
        for m in role.words.finditer(text):
            if best is None or m.start() > best[0]:
                best = (m.start(), role)
    return best[1] if best is not None else None


def _no_fees(r: "Reading", i: int) -> None:
    """"No extra fees at all", "sin gastos adicionales" (the locale's ``no_fees``): every fee field of the product
    (shipping, oversize, installation...) must be 0 in the data; a fee above 0 makes the claim false."""
    m = r.cfind("no_fees", i)
    if m is None:
        return
    c0 = r.clauses[i].start
    s, e = c0 + m.start(), c0 + m.end()
    pids, _how = r.subject(s, i)
    pfs = r.pfs(pids)
    if not pfs:
        return
    charged = [(pf, role, x) for pf in pfs for role in fee_roles(r.vocab) if role.field is not None
               for x in (_fee_of(pf, role),) if x]
    if charged:
        pf, role, x = charged[0]
        r.claim(s, e, pids, "fees", 0.0, "", True, "false",
                f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but the {role.name} fee is {x:g}")
    else:
        r.claim(s, e, pids, "fees", 0.0, "", True, "true", "")


def _free_negated(r: "Reading", c0: int, s: int, e: int, f: "re.Match[str]") -> bool:
    """Whether free word ``f`` next to the fee word at ``[s, e)`` is negated: a negation of the locale right before
    it ("不包安装", "not free"), or between the fee word and a free word after it ("installation isn't included");
    a free word that itself holds a negation ("不收") is not."""
    neg = r.vocab.rx.get("negation")
    if neg is None or neg.search(f.group()) is not None:
        return False
    if f.start() < s:
        return neg.search(r.text, max(c0, f.start() - 6), f.start()) is not None
    return neg.search(r.text, e, f.start()) is not None


def read_free_fees(r: "Reading", i: int) -> None:
    """"Installation is free", "no oversize fee", "运费全免", "免安装费": a fee said to be free (or absent) must be
    0 in the data; said to be charged ("there's an oversize fee") it must be above 0. Shipping is left to the
    free-shipping claims (its field is the fee; "free" also needs ``free_shipping``)."""
    ct = r.ctext(i)
    c0 = r.clauses[i].start
    _no_fees(r, i)
    free = r.vocab.rx.get("fee_free")
    for role in fee_roles(r.vocab):
        if role.words is None or role.name == "shipping":
            continue
        m = role.words.search(ct)
        if m is None:
            continue
        s, e = c0 + m.start(), c0 + m.end()
        pids, _how = r.subject(s, i)
        pfs = r.pfs(pids)
        if not pfs:
            continue
        # the free word right around the fee word ("installation is free", "free installation"), not anywhere in
        # the clause ("not returnable after installation, though damage is replaced free")
        f = None
        if free is not None:
            f = free.search(r.text, e, min(c0 + len(ct), e + 25)) or free.search(r.text, max(c0, s - 12), s)
        nouns = r.vocab.rx.get("fee_nouns")
        # "no oversize fee": a negation before the fee word, which a fee noun follows (not "hasn't been installed")
        negated = r.negated(i, s) and nouns is not None and nouns.match(r.text, e, min(c0 + len(ct), e + 12)) is not None
        if f is None and not negated:
            # "there's a $15 oversize fee": the amount is checked as a number; a bare mention says nothing
            continue
        says_free = (f is not None) != negated  # "not free": charged; "no oversize fee": free
        # the free word negated ("不包安装", "installation isn't included"): not part of the deal, true when the
        # data charges for it or offers none ("送货上门，不含安装")
        excluded = f is not None and not negated and _free_negated(r, c0, s, e, f)
        vals = [(pf, _fee_of(pf, role)) for pf in pfs]
        if role.field is None:
            continue
        if excluded:
            good = [pf for pf, x in vals if x is None or x > 0]
            says_free = False
        else:
            good = [pf for pf, x in vals if x is not None and ((x == 0) == says_free)]
        if good:
            r.claim(s, e, tuple(pf.pid for pf in good), role.name, 0.0 if says_free else "charged", "", says_free,
                    "true", "", [(role.answers, pf.pid) for pf in good])
        else:
            pf, x = vals[0]
            why = "not offered" if x is None else ("free" if x == 0 else f"{x:g}")
            r.claim(s, e, pids, role.name, 0.0 if says_free else "charged", "", says_free, "false",
                    f"{r.label(pf.pid)}: '{r.m.original(s, e)}' but the {role.name} fee is {why}")


__all__ = ["FeeRole", "amount_role", "check_fee_amount", "fee_roles", "field_value", "free_fee_word",
           "read_free_fees"]
