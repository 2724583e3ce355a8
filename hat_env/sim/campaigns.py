"""Campaigns (coupons, codes, flash sales, bundles, gifts) with time windows, the rules of which ones stack, and
the price a viewer pays (:func:`quote`) for one unit and for a bundle's quantity.

The price of ``qty`` units at room time ``t``: the lowest active flash-sale price (or the product's price) per
unit; a bundle whose quantity ``qty`` reaches takes its percentage off the set (when flash sale and bundle do not
stack, the cheaper of the two applies); then the best coupon and the best code whose thresholds that subtotal
meets come off, each only when it stacks with everything already applied and with each other (a viewer uses the
combination that pays least). For one unit with today's campaign types this is what "券后价" / "price after
coupon" always meant: flash price, minus the largest coupon whose threshold it meets.

Which campaign types (or campaign ids) stack is the scenario's ``stacking`` (:class:`StackingRules`); without it,
:data:`DEFAULT_STACKING`. Gifts never change a price and go with everything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hat_env.sim.catalog import Product

#: Every campaign type.
CAMPAIGN_TYPES: tuple[str, ...] = ("coupon", "code", "flash_sale", "bundle", "gift")
#: Which campaign types combine when a scenario states no ``stacking``: coupons and codes go with flash sales and
#: bundles; a coupon and a code do not combine, nor do a flash sale and a bundle.
DEFAULT_STACKING: tuple[tuple[str, str], ...] = (
    ("coupon", "flash_sale"), ("coupon", "bundle"), ("code", "flash_sale"), ("code", "bundle"),
)


class Campaign(BaseModel):
    """One campaign. ``products`` lists product ids, or is empty for "every product in the room".

    Type-specific fields: ``coupon`` -> ``amount`` off when the price reaches ``threshold`` (claimed in the room:
    the host can send it); ``code`` -> a ``code`` the viewer types at checkout for ``amount`` off from
    ``threshold``; ``flash_sale`` -> ``flash_price``; ``bundle`` -> ``bundle_qty`` items at
    ``bundle_discount_pct`` percent off the set, or a mixed set: one of each of its ``products`` (two or more)
    for ``set_price`` together (no quantity nor percentage then; a set changes no product's own price);
    ``gift`` -> ``gift``.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # times and amounts are finite numbers

    campaign_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    type: Literal["coupon", "code", "flash_sale", "bundle", "gift"]
    title: str
    start_s: float = Field(0.0, ge=0)
    end_s: float = Field(1e9, gt=0)
    products: list[str] = Field(default_factory=list)
    amount: float | None = Field(None, gt=0)
    threshold: float = Field(0.0, ge=0)
    code: str | None = Field(None, pattern=r"^[A-Za-z0-9_-]{2,24}$")
    flash_price: float | None = Field(None, gt=0)
    bundle_qty: int | None = Field(None, ge=2)
    bundle_discount_pct: int | None = Field(None, ge=1, le=90)
    set_price: float | None = Field(None, gt=0)
    gift: str | None = None

    @model_validator(mode="after")
    def _fields_match_type(self) -> "Campaign":
        if self.set_price is not None:
            if self.type != "bundle":
                raise ValueError(f"'set_price' is for bundle campaigns, not {self.type}")
            if len(set(self.products)) < 2:
                raise ValueError("a mixed set (set_price) lists two or more different products in 'products'")
            if self.bundle_qty is not None or self.bundle_discount_pct is not None:
                raise ValueError("a mixed set (set_price) has no bundle_qty nor bundle_discount_pct: give one or the "
                                 "other kind of bundle")
            if self.end_s <= self.start_s:
                raise ValueError("end_s must be after start_s")
            return self
        need = {"coupon": "amount", "code": "code", "flash_sale": "flash_price", "bundle": "bundle_qty",
                "gift": "gift"}[self.type]
        if getattr(self, need) is None:
            raise ValueError(f"a {self.type} campaign needs '{need}'")
        if self.type == "code" and self.amount is None:
            raise ValueError("a code campaign needs 'amount'")
        if self.type == "bundle" and self.bundle_discount_pct is None:
            raise ValueError("a bundle campaign needs 'bundle_discount_pct'")
        if self.code is not None and self.type != "code":
            raise ValueError(f"'code' is for code campaigns, not {self.type}")
        if self.end_s <= self.start_s:
            raise ValueError("end_s must be after start_s")
        return self

    @property
    def mixed(self) -> bool:
        """Whether this is a mixed set (one of each of its products for ``set_price``)."""
        return self.set_price is not None

    def active(self, t: float) -> bool:
        """Whether the campaign runs at room time ``t``."""
        return self.start_s <= t < self.end_s

    def applies_to(self, product_id: str) -> bool:
        """Whether the campaign covers ``product_id``."""
        return not self.products or product_id in self.products


class StackingRules:
    """Which campaigns combine: pairs of campaign types or campaign ids (``("coupon", "bundle")``,
    ``("PAW10", "BDL-1")``). Two campaigns stack when some pair names one by its type or id and the other by its
    type or id; two campaigns of one type never do (only the best one is used); a gift stacks with everything.

    Args:
        pairs: the pairs; ``None`` for :data:`DEFAULT_STACKING`.
    """

    def __init__(self, pairs: Iterable[Iterable[str]] | None = None):
        self.declared = pairs is not None
        src = DEFAULT_STACKING if pairs is None else pairs
        self.pairs: frozenset[frozenset[str]] = frozenset(frozenset(p) for p in (tuple(x) for x in src))

    def stack(self, a: "Campaign", b: "Campaign") -> bool:
        """Whether ``a`` and ``b`` can both apply to one purchase."""
        if a.campaign_id == b.campaign_id:
            return True
        if a.type == "gift" or b.type == "gift":
            return True
        if a.type == b.type:
            return False
        for x in (a.type, a.campaign_id):
            for y in (b.type, b.campaign_id):
                if frozenset((x, y)) in self.pairs:
                    return True
        return False


DEFAULT_RULES = StackingRules()


@dataclass(frozen=True, slots=True)
class Quote:
    """What a viewer pays for ``qty`` units of one product now, and which campaigns make that price.

    Attributes:
        qty: the number of units.
        total: the price of all of them (rounded to the cent, never below 0.01).
        flash, bundle, coupon, code: the campaign of each kind in the price, or ``None``.
    """

    qty: int
    total: float
    flash: Campaign | None = None
    bundle: Campaign | None = None
    coupon: Campaign | None = None
    code: Campaign | None = None

    @property
    def unit(self) -> float:
        """The price per unit (``total / qty``, to the cent)."""
        return round(self.total / self.qty, 2)

    @property
    def applied(self) -> tuple[Campaign, ...]:
        """The campaigns in the price, in the order they apply."""
        return tuple(c for c in (self.flash, self.bundle, self.coupon, self.code) if c is not None)


def active_campaigns(campaigns: list[Campaign], product_id: str | None, t: float) -> list[Campaign]:
    """Campaigns running at ``t`` (for one product, or all when ``product_id`` is ``None``)."""
    return [c for c in campaigns if c.active(t) and (product_id is None or c.applies_to(product_id))]


def best_coupon(campaigns: list[Campaign], product: Product, t: float, base: float) -> Campaign | None:
    """The largest active coupon for ``product`` whose threshold ``base`` meets, or ``None`` (the first listed of
    equal ones)."""
    best = None
    for c in campaigns:
        if c.type == "coupon" and c.active(t) and c.applies_to(product.product_id) and base >= c.threshold:
            if best is None or (c.amount or 0) > (best.amount or 0):
                best = c
    return best


def _best_of(kind: str, act: list[Campaign], subtotal: float, with_: tuple[Campaign, ...],
             rules: StackingRules) -> Campaign | None:
    best = None
    for c in act:
        if c.type == kind and subtotal >= c.threshold and all(rules.stack(c, w) for w in with_):
            if best is None or (c.amount or 0) > (best.amount or 0):
                best = c
    return best


def quote(campaigns: list[Campaign], product: Product, t: float, qty: int = 1,
          rules: StackingRules | None = None, bundle: Campaign | None = None) -> Quote:
    """What a viewer pays for ``qty`` units of ``product`` at room time ``t`` (see the module docstring).

    Args:
        campaigns: the room's campaigns.
        product: the product.
        t: room time.
        qty: units bought together.
        rules: the stacking rules (``None``: :data:`DEFAULT_STACKING`).
        bundle: consider only this bundle (``None``: every active bundle whose quantity ``qty`` reaches).

    Returns:
        The cheapest :class:`Quote` (on equal totals: the one with fewer campaigns, then the first found).
    """
    rules = rules or DEFAULT_RULES
    act = active_campaigns(campaigns, product.product_id, t)
    flash: Campaign | None = None
    unit = product.price
    for c in act:
        if c.type == "flash_sale" and c.flash_price and c.flash_price < unit:
            flash, unit = c, c.flash_price
    autos: list[tuple[Campaign | None, Campaign | None]] = [(flash, None)]
    for b in act:
        if b.type == "bundle" and b.bundle_qty and qty >= b.bundle_qty and (bundle is None or b is bundle):
            autos.append((flash, b) if flash is None or rules.stack(flash, b) else (None, b))
    best: Quote | None = None
    for fl, bd in autos:
        u = unit if fl is not None else product.price
        sub = u * qty
        if bd is not None:
            sub = sub * (100 - (bd.bundle_discount_pct or 0)) / 100
        base = tuple(c for c in (fl, bd) if c is not None)
        cp = _best_of("coupon", act, sub, base, rules)
        options: list[tuple[Campaign | None, Campaign | None]] = [(None, _best_of("code", act, sub, base, rules))]
        if cp is not None:
            options.insert(0, (cp, _best_of("code", act, sub, base + (cp,), rules)))
        for c1, c2 in options + [(cp, None), (None, None)]:
            total = sub - (c1.amount or 0 if c1 else 0) - (c2.amount or 0 if c2 else 0)
            q = Quote(qty, round(max(0.01, total), 2), fl, bd, c1, c2)
            if best is None or q.total < best.total - 1e-9 or (
                    abs(q.total - best.total) < 1e-9 and len(q.applied) < len(best.applied)):
                best = q
    assert best is not None
    return best


def bundle_quote(campaigns: list[Campaign], product: Product, t: float,
                 rules: StackingRules | None = None) -> Quote | None:
    """The cheapest price per unit through an active bundle covering ``product`` (its quantity's total), or
    ``None`` when no bundle runs for it."""
    best = None
    for b in active_campaigns(campaigns, product.product_id, t):
        if b.type == "bundle" and b.bundle_qty:
            q = quote(campaigns, product, t, b.bundle_qty, rules, bundle=b)
            if q.bundle is not None and (best is None or q.unit < best.unit):
                best = q
    return best


def effective_price(campaigns: list[Campaign], product: Product, t: float, rules: StackingRules | None = None) -> float:
    """The price a viewer pays for one ``product`` at room time ``t`` (:func:`quote` for one unit)."""
    return quote(campaigns, product, t, 1, rules).total


def fmt_money(x: float) -> str:
    """Format a price the way replies and facts write it: ``89`` for whole amounts, ``89.5`` otherwise."""
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")
