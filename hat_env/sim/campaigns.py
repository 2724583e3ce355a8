"""Campaigns (coupons, flash sales, bundles, gifts) with time windows, and the effective price of a product.

The effective price at room time ``t`` is: the lowest active flash-sale price (or the product's price), minus
the largest active coupon whose threshold that price meets. It is what "券后价" / "price after coupon" means.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hat_env.sim.catalog import Product


class Campaign(BaseModel):
    """One campaign. ``products`` lists product ids, or is empty for "every product in the room".

    Type-specific fields: ``coupon`` -> ``amount`` off when the price reaches ``threshold``; ``flash_sale`` ->
    ``flash_price``; ``bundle`` -> ``bundle_qty`` items at ``bundle_discount_pct`` percent off; ``gift`` ->
    ``gift``.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # times and amounts are finite numbers

    campaign_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    type: Literal["coupon", "flash_sale", "bundle", "gift"]
    title: str
    start_s: float = Field(0.0, ge=0)
    end_s: float = Field(1e9, gt=0)
    products: list[str] = Field(default_factory=list)
    amount: float | None = Field(None, gt=0)
    threshold: float = Field(0.0, ge=0)
    flash_price: float | None = Field(None, gt=0)
    bundle_qty: int | None = Field(None, ge=2)
    bundle_discount_pct: int | None = Field(None, ge=1, le=90)
    gift: str | None = None

    @model_validator(mode="after")
    def _fields_match_type(self) -> "Campaign":
        need = {"coupon": "amount", "flash_sale": "flash_price", "bundle": "bundle_qty", "gift": "gift"}[self.type]
        if getattr(self, need) is None:
            raise ValueError(f"a {self.type} campaign needs '{need}'")
        if self.type == "bundle" and self.bundle_discount_pct is None:
            raise ValueError("a bundle campaign needs 'bundle_discount_pct'")
        if self.end_s <= self.start_s:
            raise ValueError("end_s must be after start_s")
        return self

    def active(self, t: float) -> bool:
        """Whether the campaign runs at room time ``t``."""
        return self.start_s <= t < self.end_s

    def applies_to(self, product_id: str) -> bool:
        """Whether the campaign covers ``product_id``."""
        return not self.products or product_id in self.products


def active_campaigns(campaigns: list[Campaign], product_id: str | None, t: float) -> list[Campaign]:
    """Campaigns running at ``t`` (for one product, or all when ``product_id`` is ``None``)."""
    return [c for c in campaigns if c.active(t) and (product_id is None or c.applies_to(product_id))]


def best_coupon(campaigns: list[Campaign], product: Product, t: float, base: float) -> Campaign | None:
    """The largest active coupon for ``product`` whose threshold ``base`` meets, or ``None``."""
    best = None
    for c in campaigns:
        if c.type == "coupon" and c.active(t) and c.applies_to(product.product_id) and base >= c.threshold:
            if best is None or (c.amount or 0) > (best.amount or 0):
                best = c
    return best


def effective_price(campaigns: list[Campaign], product: Product, t: float) -> float:
    """The price a viewer pays for one ``product`` at room time ``t`` after flash sales and the best coupon."""
    base = product.price
    for c in campaigns:
        if c.type == "flash_sale" and c.active(t) and c.applies_to(product.product_id) and c.flash_price:
            base = min(base, c.flash_price)
    cp = best_coupon(campaigns, product, t, base)
    if cp is not None:
        base = max(0.01, base - (cp.amount or 0.0))
    return round(base, 2)


def fmt_money(x: float) -> str:
    """Format a price the way replies and facts write it: ``89`` for whole amounts, ``89.5`` otherwise."""
    if abs(x - round(x)) < 1e-9:
        return str(int(round(x)))
    return f"{x:.2f}".rstrip("0").rstrip(".")
