"""Arithmetic a reply shows: ``(69+159)×0.9=205.2元``, ``49.99 + 99 = $148.99``.

A reply that works a total out in the open makes one claim: that the sum is right, with operands the room
knows. Its numbers are not prices of their own (``205.2元`` is not what one unit costs), so the claims the
number reader made inside the expression are replaced by one ``arithmetic`` claim:

- ``false`` when the expression does not give the stated result (rounded to a cent);
- ``false`` when an added or subtracted amount is no money value of the room at this moment (a price now,
  before coupons, a later flash price, a coupon amount or threshold, a bundle price, the shipping fee);
- ``false`` when a factor is neither a count (a whole number up to 99) nor a discount the room runs now
  (``0.9`` for a 10%-off bundle or a 9折 deal);
- else ``true``; with a discount factor it answers the campaign question of the products it names.

A second form gives the result first and the working after it in brackets, with the operator said in words of the
locale's ``subtract_words`` or as a sign (``$264 with TRAIL15 ($279 minus $15)``, ``券后238元（258减20）``,
``pagas 25,50 € (28,50 € menos 3 €)``): the bracket's numbers are no prices of their own (``$15`` is not what one
pays); the claims inside the bracket are replaced by one ``arithmetic`` claim, ``false`` when ``A - B`` is not the
result, when ``B`` is no money value of the room or when ``A`` is neither one nor a count (2 to 9) times a price.
The result keeps its own claim (the price it states is checked as a price), unless ``A`` is a count times a price
(then the result is an order's total, which the working proves).

Expressions are read with a small recursive-descent parser over numbers, ``+ - × x * ÷ /`` and brackets: no
reply text is ever evaluated as code.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading

_NUM = r"[$¥￥]?\s?\d+(?:\.\d+)?"
_OP = r"\s?[-+×x*÷/]\s?"
#: An expression with at least one operator, then ``=`` and a result (project code: linear, no nesting).
_EXPR = re.compile(
    r"(?P<expr>[(（]?\s?" + _NUM + r"(?:\s?[)）]?(?:" + _OP + r")[(（]?\s?" + _NUM + r")+\s?[)）]?)"
    r"\s?[=＝]\s?(?P<result>" + _NUM + r")"
)
_TOKEN = re.compile(r"\s*(?:(?P<num>[$¥￥]?\d+(?:\.\d+)?)|(?P<op>[-+×x*÷/()（）]))")
_CENT = 0.005


class _Parser:
    """Recursive descent over ``expr := term (("+"|"-") term)*``, ``term := atom (("×"|"÷") atom)*``,
    ``atom := number | "(" expr ")" | "-" atom``. Each term's plain numbers are kept (``terms``: one list per term,
    with whether a bracketed part scales it), so the numbers can be checked by what they do."""

    def __init__(self, text: str):
        self.toks: list[tuple[str, str]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None or m.end() == pos:
                if text[pos:].strip():
                    raise ValueError(text)
                break
            pos = m.end()
            if m.group("num") is not None:
                self.toks.append(("num", m.group("num").lstrip("$¥￥")))
            elif m.group("op") is not None:
                op = m.group("op")
                self.toks.append(("op", {"x": "*", "×": "*", "÷": "/", "（": "(", "）": ")"}.get(op, op)))
        self.i = 0
        self.terms: list[tuple[list[float], bool]] = []

    def _peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def parse(self) -> float:
        """The expression's value.

        Raises:
            ValueError: not a well-formed expression.
        """
        v = self._expr()
        if self.i != len(self.toks):
            raise ValueError("trailing tokens")
        return v

    def _expr(self) -> float:
        v = self._term()
        while (t := self._peek()) is not None and t[1] in "+-":
            self.i += 1
            w = self._term()
            v = v + w if t[1] == "+" else v - w
        return v

    def _term(self) -> float:
        plain: list[float] = []
        grouped = False
        v, is_plain = self._atom()
        if is_plain:
            plain.append(v)
        else:
            grouped = True
        while (t := self._peek()) is not None and t[1] in "*/":
            self.i += 1
            w, w_plain = self._atom()
            if w_plain:
                plain.append(w)
            else:
                grouped = True
            if t[1] == "*":
                v *= w
            elif w == 0:
                raise ValueError("division by zero")
            else:
                v /= w
        if plain:
            self.terms.append((plain, grouped))
        return v

    def _atom(self) -> tuple[float, bool]:
        """The atom's value, and whether it is one plain number."""
        t = self._peek()
        if t is None:
            raise ValueError("missing operand")
        self.i += 1
        if t[0] == "num":
            return float(t[1]), True
        if t[1] == "(":
            v = self._expr()
            if self._peek() != ("op", ")"):
                raise ValueError("unbalanced")
            self.i += 1
            return v, False
        if t[1] == "-":
            v, _ = self._atom()
            return -v, False
        raise ValueError(f"unexpected {t[1]}")


def _money_known(r: "Reading", v: float) -> bool:
    """Whether ``v`` is a money value of some product of the room at this moment."""
    for p in r.room.products:
        pf = r.facts.of(p.product_id)
        later = [float(c.flash_price) for c in pf.campaigns_later if c.type == "flash_sale" and c.flash_price]
        vals = [pf.effective, pf.base, pf.price, *pf.flash, *later, *pf.bundle_prices,
                *(a for a, _t, _c in pf.coupons), *(t for _a, t, _c in pf.coupons), pf.product.shipping.fee or 0.0]
        if any(abs(v - x) < _CENT for x in vals):
            return True
    return False


def _discounts(r: "Reading") -> list[float]:
    """Multipliers of the discounts running now (``0.9`` for 10% off a bundle)."""
    out = []
    for p in r.room.products:
        out += [1 - pct / 100 for _q, pct in r.facts.of(p.product_id).bundles]
    return out


_PNUM = r"(?<![\w.,])[$¥￥€]?\s?\d+(?:[.,]\d{1,2})?(?![\d])\s?(?:€|元|块|euros?|dollars?)?"


def _paren_rx(r: "Reading") -> "re.Pattern[str] | None":
    """The bracketed-working pattern of the reply's locale."""
    return _paren_rx_for(tuple(w for w in r.vocab.raw.get("subtract_words", []) if isinstance(w, str)))


@functools.lru_cache(maxsize=16)
def _paren_rx_for(words: tuple[str, ...]) -> "re.Pattern[str]":
    """``RESULT ... (A op B)`` with the locale's subtraction words (``subtract_words``) or a minus sign; between
    the result and the bracket no number but one glued to letters (a code: ``with TRAIL15``)."""
    op = "|".join([*words, r"[-\u2212\u2013]"])
    return re.compile(
        r"(?P<result>" + _PNUM + r")(?P<gap>(?:[^()（）;!?。！？\n\d]|(?<=[A-Za-z])\d+){0,30}?)[(（]\s?(?P<a>" + _PNUM
        + r")\s?(?:" + op + r")\s?(?P<b>" + _PNUM + r")\s?[)）]", re.IGNORECASE)


def _amount(raw: str) -> float:
    """The value of a bracket number (``28,50 €`` -> 28.5)."""
    m = re.search(r"\d+(?:[.,]\d{1,2})?", raw)
    return float(m.group().replace(",", ".")) if m else 0.0


def _multiple_of_price(r: "Reading", v: float) -> bool:
    """Whether ``v`` is a count (2 to 9) times the price one pays, or the price, of some product of the room."""
    for p in r.room.products:
        pf = r.facts.of(p.product_id)
        for x in (pf.effective, pf.price, pf.base):
            if x and any(abs(v - k * x) < _CENT for k in range(2, 10)):
                return True
    return False


def read_bracketed_working(r: "Reading") -> None:
    """The second form of the module docstring: ``RESULT ... (A minus B)``."""
    text = r.text
    if "(" not in text and "（" not in text:
        return
    rx = _paren_rx(r)
    if rx is None:
        return
    for m in rx.finditer(text):
        result, a, b = (_amount(m.group(k)) for k in ("result", "a", "b"))
        s, e = m.start("a"), m.end()
        src = r.m.span(s, e)
        inside = [c for c in r.report.claims if src[0] <= c.span[0] < src[1]]
        res_span = r.m.span(m.start("result"), m.end("result"))
        around = [c for c in r.report.claims if res_span[0] <= c.span[0] < res_span[1]]
        pids = tuple(dict.fromkeys(c.product_id for c in (*around, *inside) if c.product_id))
        r.report.claims[:] = [c for c in r.report.claims if c not in inside]
        shown = r.m.original(s, e)
        if abs(round(a - b, 2) - result) >= 2 * _CENT:
            why = f"the working gives {round(a - b, 2):g}"
        elif not _money_known(r, b):
            why = f"{b:g} is no price or deal amount of the room now"
        elif not (_money_known(r, a) or _multiple_of_price(r, a)):
            why = f"{a:g} is no price of the room now"
        else:
            why = ""
            if not _money_known(r, a):  # "tres botellas 25,50 € (28,50 € menos 3 €)": an order's total, no unit price
                r.report.claims[:] = [c for c in r.report.claims if c not in around]
        if why:
            why = f"'{shown}': {why}"
        # a coupon or code taken off answers the deal question of the product ("$484 with SPIN15 ($499 minus $15)")
        answers = [("campaign", pid) for pid in pids if not why
                   and any(abs(b - amt) < _CENT for amt, _t, _c in r.facts.of(pid).coupons)]
        r.claim(s, e, pids, "arithmetic", result, "", True, "false" if why else "true",
                (f"{r.label(pids[0])}: {why}" if why and len(pids) == 1 else why), answers)


def read_arithmetic(r: "Reading") -> None:
    """Replace the claims inside each worked expression of the reply by one ``arithmetic`` claim (see the
    module docstring)."""
    read_bracketed_working(r)
    text = r.text
    if "=" not in text and "＝" not in text:
        return
    for m in _EXPR.finditer(text):
        try:
            p = _Parser(m.group("expr"))
            got = p.parse()
        except ValueError:
            continue
        result = float(m.group("result").lstrip("$¥￥ "))
        s, e = m.span()
        s += len(m.group()) - len(m.group().lstrip())
        src = r.m.span(s, e)
        inside = [c for c in r.report.claims if src[0] <= c.span[0] < src[1]]  # "205.2元" starts inside
        pids = tuple(dict.fromkeys(c.product_id for c in inside if c.product_id))
        r.report.claims[:] = [c for c in r.report.claims if c not in inside]
        shown = r.m.original(s, e)
        discounts = _discounts(r)
        why, deal = _check(r, p, got, result, discounts)
        if why:
            why = f"'{shown}': {why}"
        answers = [("campaign", pid) for pid in pids] if deal and not why else []
        if not why:  # "(69+159)×0.9=205.2元": each product's own price, added in, is said too
            answers += [a for c in inside if c.verdict == "true" and c.attribute == "price" for a in c.answers
                        if a[0] == "price"]
        r.claim(s, e, pids, "arithmetic", result, "", True, "false" if why else "true",
                (f"{r.label(pids[0])}: {why}" if why and len(pids) == 1 else why), answers)


def _check(r: "Reading", p: _Parser, got: float, result: float, discounts: list[float]) -> tuple[str, bool]:
    """``(reason it is false or "", whether a running discount is applied)``: the sum must give the result, each
    term's numbers must be an amount of the room (or, in a product, counts and running discounts)."""
    if abs(round(got, 2) - result) >= 2 * _CENT:
        return f"the sum gives {round(got, 2):g}", False
    deal = False
    for plain, grouped in p.terms:
        money = 0
        for v in plain:
            if len(plain) > 1 or grouped:
                if any(abs(v - d) < 0.001 for d in discounts):
                    deal = True
                    continue
                if v == int(v) and 1 <= v <= 99 and not _money_known(r, v):
                    continue  # a count
            if not _money_known(r, v):
                if 0 < v < 1:
                    return f"{v:g} is no discount running now", deal
                return f"{v:g} is no price or deal amount of the room now", deal
            money += 1
        if not money and not grouped:
            return "no amount of the room in it", deal
    return "", deal


__all__ = ["read_arithmetic"]
