"""The room state: catalog and its vocabulary, campaigns and their stacking rules, stock, orders, pinned product
and coupons sent, at the room clock.

This is the single source of truth the tool backend reads and the scorer checks replies against. What a grader
reads besides the products: :meth:`RoomState.attribute` (how a spec attribute is typed, labelled and compared),
:meth:`RoomState.category`, :meth:`RoomState.quote` / :meth:`RoomState.bundle_quote` (the price for one unit and
for a bundle's quantity, with the campaigns in it), :meth:`RoomState.stacks` (whether two campaigns combine).
"""

from __future__ import annotations

import random
from typing import Any

from hat_env.sim.campaigns import Campaign, Quote, StackingRules, active_campaigns, bundle_quote, quote
from hat_env.sim.catalog import Product, generate_products
from hat_env.sim.scenario import Order, Scenario
from hat_env.sim.vocabulary import AttributeSpec, CategorySpec, Vocabulary


class RoomState:
    """Mutable state of one live session.

    Args:
        scenario: the validated scenario.
        rng: the session's seeded generator (used only to generate products).

    Attributes:
        vocabulary: the catalog vocabulary (categories, spec attributes, units).
        stacking: which campaigns combine in a price.
        t: the room clock, seconds since the stream started.
        products: all products, by link order.
        pinned: product id pinned on screen, or ``None``.
        coupons_sent: coupon campaign ids sent so far.
        purchases: number of purchases; ``gmv`` their value.
    """

    def __init__(self, scenario: Scenario, rng: random.Random):
        self.scenario = scenario
        self.locale = scenario.locale
        self.vocabulary: Vocabulary = scenario.vocab
        self.stacking: StackingRules = scenario.stacking_rules
        products = [p.model_copy() for p in scenario.catalog.products]
        gen = scenario.catalog.generate
        if gen.count:
            first = max((p.link for p in products), default=0) + 1
            products += generate_products(rng, scenario.locale, gen.categories, gen.count, first,
                                          vocabulary=self.vocabulary)
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

    # -- the vocabulary ------------------------------------------------------------------------------------
    def attribute(self, name: str) -> AttributeSpec | None:
        """How spec attribute ``name`` is typed, labelled and compared in this room (``None``: not declared).
        Compare a stated value with ``room.vocabulary.matches(room.attribute(name), product.specs[name], said)``."""
        return self.vocabulary.attribute(name)

    def category(self, name: str) -> CategorySpec | None:
        """The declaration of category ``name`` in this room (labels per locale), or ``None``."""
        return self.vocabulary.category(name)

    # -- facts ---------------------------------------------------------------------------------------------
    def quote(self, product: Product, qty: int = 1) -> Quote:
        """What a viewer pays now for ``qty`` units of ``product``, and the campaigns in that price."""
        return quote(self.campaigns, product, self.t, qty, self.stacking)

    def bundle_quote(self, product: Product) -> Quote | None:
        """The price now of a running bundle's quantity of ``product`` (the cheapest per unit), or ``None``."""
        return bundle_quote(self.campaigns, product, self.t, self.stacking)

    def stacks(self, a: Campaign, b: Campaign) -> bool:
        """Whether campaigns ``a`` and ``b`` combine in one purchase (the scenario's ``stacking``)."""
        return self.stacking.stack(a, b)

    def effective_price(self, product: Product) -> float:
        """Price of one unit of ``product`` now (flash sale, then the best coupon or code that stacks)."""
        return self.quote(product).total

    def active_campaigns(self, product_id: str | None = None) -> list[Campaign]:
        """Campaigns running now (for one product, or all)."""
        return active_campaigns(self.campaigns, product_id, self.t)

    def best_coupon(self, product: Product) -> Campaign | None:
        """The coupon that the effective price uses now, if any."""
        return self.quote(product).coupon

    def best_code(self, product: Product) -> Campaign | None:
        """The code (typed at checkout) that the effective price uses now, if any."""
        return self.quote(product).code

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
