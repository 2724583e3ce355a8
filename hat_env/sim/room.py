"""The room state: catalog, campaigns, stock, orders, pinned product and coupons sent, at the room clock.

This is the single source of truth the tool backend reads and the scorer checks replies against.
"""

from __future__ import annotations

import random
from typing import Any

from hat_env.sim.campaigns import Campaign, active_campaigns, best_coupon, effective_price
from hat_env.sim.catalog import Product, generate_products
from hat_env.sim.scenario import Order, Scenario


class RoomState:
    """Mutable state of one live session.

    Args:
        scenario: the validated scenario.
        rng: the session's seeded generator (used only to generate products).

    Attributes:
        t: the room clock, seconds since the stream started.
        products: all products, by link order.
        pinned: product id pinned on screen, or ``None``.
        coupons_sent: coupon campaign ids sent so far.
        purchases: number of purchases; ``gmv`` their value.
    """

    def __init__(self, scenario: Scenario, rng: random.Random):
        self.scenario = scenario
        self.locale = scenario.locale
        products = [p.model_copy() for p in scenario.catalog.products]
        gen = scenario.catalog.generate
        if gen.count:
            first = max((p.link for p in products), default=0) + 1
            products += generate_products(rng, scenario.locale, gen.categories, gen.count, first)
        self.products: list[Product] = sorted(products, key=lambda p: p.link)
        self.by_link: dict[int, Product] = {p.link: p for p in self.products}
        self.by_id: dict[str, Product] = {p.product_id: p for p in self.products}
        self.campaigns: list[Campaign] = list(scenario.campaigns)
        self.orders: dict[str, Order] = {o.order_id: o for o in scenario.orders}
        self.stock: dict[str, int] = {p.product_id: p.stock for p in self.products}
        self.t = 0.0
        self.pinned: str | None = None
        self.coupons_sent: list[str] = []
        self.purchases = 0
        self.gmv = 0.0
        #: rendered system prompts by (harness hash, names, active campaigns); see harness.render
        self.prompt_cache: dict[tuple, str] = {}
        #: per (harness hash, names): prompt sections with all but live campaigns filled in (see harness.render)
        self.prompt_parts: dict[tuple, tuple] = {}

    # -- facts ---------------------------------------------------------------------------------------------
    def effective_price(self, product: Product) -> float:
        """Price of one unit of ``product`` now, after flash sales and the best coupon."""
        return effective_price(self.campaigns, product, self.t)

    def active_campaigns(self, product_id: str | None = None) -> list[Campaign]:
        """Campaigns running now (for one product, or all)."""
        return active_campaigns(self.campaigns, product_id, self.t)

    def best_coupon(self, product: Product) -> Campaign | None:
        """The coupon that the effective price uses now, if any."""
        base = product.price
        for c in self.active_campaigns(product.product_id):
            if c.type == "flash_sale" and c.flash_price:
                base = min(base, c.flash_price)
        return best_coupon(self.campaigns, product, self.t, base)

    def buy(self, product_id: str) -> bool:
        """Record one purchase if stock allows; returns whether it happened."""
        if self.stock.get(product_id, 0) <= 0:
            return False
        self.stock[product_id] -= 1
        self.purchases += 1
        self.gmv += self.effective_price(self.by_id[product_id])
        return True

    def snapshot(self) -> dict[str, Any]:
        """A small JSON-ready summary of the room for traces."""
        return {
            "t": round(self.t, 3),
            "pinned": self.pinned,
            "purchases": self.purchases,
            "gmv": round(self.gmv, 2),
            "active_campaigns": [c.campaign_id for c in self.active_campaigns()],
        }
