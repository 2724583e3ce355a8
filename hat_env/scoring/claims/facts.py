"""What the room data says at the request's moment, per product, in the shapes claims are checked against.

Everything is read from the room state (catalog, campaigns active at ``t``, stock now, shipping, returns,
orders); spec attributes and FAQ answers are read generically: every spec key the data has, every number with a
unit in its value (parsed with the same reader as replies), never a fixed list of keys.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from hat_env.scoring.claims.numbers import Quantity, read_quantities
from hat_env.scoring.claims.vocab import Vocab
from hat_env.text import normalize

if TYPE_CHECKING:
    from hat_env.sim.campaigns import Campaign
    from hat_env.sim.catalog import Product
    from hat_env.sim.room import RoomState


@dataclass(frozen=True, slots=True)
class NumFact:
    """One number the data states: which attribute, its dimension and value in the dimension's base unit.

    Attributes:
        attr: ``shipping``, ``returns``, ``warranty``, ``stock``, ``spec:<key>``, ``faq``, ``title``...
        dim: the dimension (``time_h``, ``time_m``, ``mass``, ``count``...).
        value: the value in the base unit (hours, months, grams...).
        label: how a note names it (``"ships within 48 h"``).
        lo: the lower end, in the base unit, when the data states a range (``fits 4 to 13 inch``), else ``None``.
    """

    attr: str
    dim: str
    value: float
    label: str
    lo: float | None = None


@dataclass(slots=True)
class ProductFacts:
    """The facts of one product at the request's moment.

    Attributes:
        product: the catalog product.
        effective: the price a viewer pays now for one unit (flash sale and best coupon applied).
        base: the price before coupons (the flash price while a flash sale runs, else the list-free price).
        price: the catalog price before campaigns.
        list_price: the comparison ("was") price.
        history: past deal prices (for "was ..." claims).
        flash: active flash-sale prices.
        flash_ends: seconds until each active flash sale ends.
        coupons: active coupons and checkout codes for the product: ``(amount, threshold, campaign)``.
        applied_coupon: the coupon (else the code) the effective price uses, or ``None``.
        gifts: active gift campaigns' gift texts.
        bundles: active bundle campaigns of one product's quantity: ``(qty, pct off)``.
        sets: active mixed sets holding the product: ``(set price, the set's product ids)``.
        campaigns_active: every active campaign for the product.
        campaigns_later: campaigns for the product not active now.
        stock: units in stock now.
        numbers: every number fact (shipping hours, return days, warranty months, stock, spec and FAQ values).
        text: the product's data text (title, spec values, FAQ, notes), normalised, for feature claims.
        spec_text: spec key -> normalised value.
        bundle_prices: what a running bundle's quantity costs now (``room.bundle_quote``), and that per unit.
    """

    product: "Product"
    effective: float
    base: float
    price: float
    list_price: float
    history: tuple[float, ...]
    flash: tuple[float, ...]
    flash_ends: tuple[float, ...]
    coupons: tuple[tuple[float, float, "Campaign"], ...]
    applied_coupon: "Campaign | None"
    gifts: tuple[str, ...]
    bundles: tuple[tuple[int, int], ...]
    campaigns_active: tuple["Campaign", ...]
    campaigns_later: tuple["Campaign", ...]
    stock: int
    numbers: list[NumFact] = field(default_factory=list)
    text: str = ""
    spec_text: dict[str, str] = field(default_factory=dict)
    bundle_prices: tuple[float, ...] = ()
    sets: tuple[tuple[float, tuple[str, ...]], ...] = ()

    @property
    def pid(self) -> str:
        """The product id."""
        return self.product.product_id

    @property
    def link(self) -> int:
        """The product's link number."""
        return self.product.link


#: vocabularies data texts are read with, by id (they are cached for the process, so an id names one)
_VOCABS: dict[int, Vocab] = {}


@lru_cache(maxsize=8192)
def _quantities(text: str, vocab_id: int) -> tuple[tuple[str, float, float | None], ...]:
    """``(dimension, base value, base lower end of a range or None)`` of every number with a unit in a data text
    (cached: catalog texts repeat)."""
    vocab = _VOCABS[vocab_id]
    return tuple((q.dim, q.base, None if q.lo is None or not q.value else q.lo * q.base / q.value)
                 for q in read_quantities(normalize(text, vocab.locale), vocab, spec=True))


def _q_facts(attr: str, text: str, vocab: Vocab, label: str) -> list[NumFact]:
    """Number facts of attribute ``attr`` read from a data text (with ``vocab``'s units, the room's included)."""
    if _VOCABS.get(id(vocab)) is not vocab:
        _VOCABS[id(vocab)] = vocab
        _quantities.cache_clear()  # an id may name another vocabulary now
    return [NumFact(attr, dim, base, label, lo) for dim, base, lo in _quantities(text, id(vocab))]


def product_facts(room: "RoomState", p: "Product", vocab: Vocab) -> ProductFacts:
    """The facts of product ``p`` in ``room`` at ``room.t`` (see :class:`ProductFacts`)."""
    t = room.t
    pid = p.product_id
    active = tuple(room.active_campaigns(pid))
    later = tuple(c for c in room.campaigns if c.applies_to(pid) and not c.active(t))
    flash = tuple(c.flash_price for c in active if c.type == "flash_sale" and c.flash_price)
    flash_ends = tuple(c.end_s - t for c in active if c.type == "flash_sale" and c.flash_price)
    base = min((p.price, *flash))
    coupons = tuple((float(c.amount or 0), float(c.threshold), c) for c in active if c.type in ("coupon", "code"))
    stock = int(room.stock.get(pid, p.stock))
    s, r = p.shipping, p.returns
    nums: list[NumFact] = [
        NumFact("shipping", "time_h", float(s.window.max_hours), f"ships within {s.ships_within_hours} h"),
        NumFact("returns", "time_h", float(r.return_days) * 24, f"returns within {r.return_days} days"),
        NumFact("stock", "count", float(stock), f"stock {stock}"),
    ]
    w = s.window
    if w.min is not None:  # "ships in 5-7 days": its start is said too
        lo = w.min * (24 if w.unit == "days" else 1)
        nums.append(NumFact("shipping", "time_h", float(lo), f"ships in {w.min}-{w.max} {w.unit}"))
    if r.warranty_months:
        nums.append(NumFact("warranty", "time_m", float(r.warranty_months), f"warranty {r.warranty_months} months"))
    if s.fee:
        nums.append(NumFact("fee", "money", float(s.fee), f"shipping fee {s.fee:g}"))
    spec_text: dict[str, str] = {}
    for k, v in p.specs.items():
        spec_text[k] = normalize(str(v), vocab.locale).text  # cached by text
        nums += _q_facts(f"spec:{k}", str(v), vocab, f"{k} '{v}'")
    nums += _q_facts("title", p.title, vocab, f"title '{p.title}'")
    if r.note:  # "坏果拍照48小时内包赔": the note's own numbers (a claim window, not when it ships)
        nums += _q_facts("note", r.note, vocab, f"note '{r.note}'")
    for f in p.faq:
        nums += _q_facts("faq", f.a, vocab, f"FAQ '{f.a}'")
        # the question's own numbers are the condition its answer holds for ("170cm 60kg穿什么码？" -> M码)
        nums += _q_facts("faq", f.q, vocab, f"FAQ '{f.q}'")
    for c in active:
        if c.type == "bundle" and c.bundle_qty:
            nums.append(NumFact("bundle", "count", float(c.bundle_qty), f"bundle of {c.bundle_qty}"))
        nums += _q_facts("campaign", c.title, vocab, f"campaign '{c.title}'")
        if c.gift:
            nums += _q_facts("gift", c.gift, vocab, f"gift '{c.gift}'")
    for o in room.orders.values():
        if o.product_id == pid and o.eta_days:
            nums.append(NumFact(f"order:{o.order_id}", "time_h", float(o.eta_days) * 24, f"order {o.order_id} ETA {o.eta_days} days"))
    # what the data asserts: title, specs, FAQ answers (not the questions), the after-sales note
    bq = room.bundle_quote(p)
    bundle_prices = (bq.total, round(bq.total / bq.qty, 2)) if bq is not None and bq.qty > 1 else ()
    text = " ".join([p.title, p.brand, *(f"{k} {v}" for k, v in p.specs.items()), *(f.a for f in p.faq), r.note])
    return ProductFacts(
        product=p, effective=room.effective_price(p), base=float(base), price=float(p.price),
        list_price=float(p.list_price), history=tuple(float(h.price) for h in p.price_history), flash=flash,
        flash_ends=flash_ends, coupons=coupons, applied_coupon=room.best_coupon(p) or room.best_code(p),
        gifts=tuple(c.gift for c in active if c.type == "gift" and c.gift),
        bundles=tuple((int(c.bundle_qty or 0), int(c.bundle_discount_pct or 0)) for c in active
                      if c.type == "bundle" and not c.mixed),
        sets=tuple((float(c.set_price or 0), tuple(c.products)) for c in active if c.mixed),
        campaigns_active=active, campaigns_later=later, stock=stock, numbers=nums,
        text=normalize(text, vocab.locale).text.lower(), spec_text=spec_text, bundle_prices=bundle_prices,
    )


class RoomFacts:
    """The facts of every product of a room at one moment (built lazily, product by product).

    Args:
        room: the room state (its clock ``t`` is the request's moment).
        vocab: the locale's vocabulary (to read numbers in spec values and FAQ answers).
    """

    def __init__(self, room: "RoomState", vocab: Vocab):
        """Facts of ``room`` at its clock, read with ``vocab``."""
        self.room = room
        self.vocab = vocab
        self._by_id: dict[str, ProductFacts] = {}

    def of(self, pid: str) -> ProductFacts:
        """The facts of product ``pid``."""
        pf = self._by_id.get(pid)
        if pf is None:
            pf = self._by_id[pid] = product_facts(self.room, self.room.by_id[pid], self.vocab)
        return pf

    def all(self) -> list[ProductFacts]:
        """The facts of every product, by link order."""
        return [self.of(p.product_id) for p in self.room.products]


__all__ = ["NumFact", "ProductFacts", "Quantity", "RoomFacts", "product_facts"]
