"""The sandboxed tool backend: canonical operations over the room state, with injected faults.

A harness binds its tools (any names, any argument encoding) to these canonical operations; the backend only
ever sees canonical argument names and values, and returns canonical result dicts. Faults are drawn from the
session's seeded generator at the rates the scenario sets.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from hat_env.sim.campaigns import Campaign, fmt_money, quote
from hat_env.sim.catalog import Product
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Faults


@dataclass(frozen=True, slots=True)
class OpSpec:
    """A canonical operation: its argument names (required first) and whether it changes the room."""

    name: str
    args: tuple[str, ...]
    required: tuple[str, ...]
    mutating: bool = False


#: The canonical operations a harness tool may bind to.
OPS: dict[str, OpSpec] = {
    o.name: o
    for o in (
        OpSpec("product_by_link", ("link",), ("link",)),
        OpSpec("product_by_id", ("product_id",), ("product_id",)),
        OpSpec("list_products", (), ()),
        OpSpec("campaigns", ("product_id", "kind"), ()),
        OpSpec("stock", ("product_id",), ("product_id",)),
        OpSpec("shipping_policy", ("product_id",), ("product_id",)),
        OpSpec("after_sales_policy", ("product_id",), ("product_id",)),
        OpSpec("order_status", ("order_id",), ("order_id",)),
        OpSpec("pin_product", ("product_id",), ("product_id",), mutating=True),
        OpSpec("send_coupon", ("coupon_id",), ("coupon_id",), mutating=True),
    )
}


class ToolError(Exception):
    """A tool refused the call (unknown product, unknown order...). The message goes back to the model."""


def _campaign_view(c: Campaign, room: RoomState, product: Product | None, others: list[Campaign]) -> dict[str, Any]:
    """The canonical record of one campaign. Codes and bundles, the deals a viewer combines by hand, say which of
    ``others`` (the campaigns listed with it that cover a product in common, gifts left out) they combine with
    (``stacks_with``: campaign ids) and which they do not (``does_not_stack_with``);
    a bundle asked about for one product also gives the price of its quantity of that product
    (``bundle_price``, every campaign that stacks included) and the campaigns in that price (``bundle_price_with``);
    a mixed set gives its ``set_price``, its ``set_products`` (``{"product_id", "link", "title"}``) and what they
    cost bought one by one now (``separately``)."""
    d: dict[str, Any] = {"campaign_id": c.campaign_id, "type": c.type, "title": c.title, "ends_at_s": c.end_s}
    if c.type == "coupon":
        d.update(amount=c.amount, threshold=c.threshold)
    elif c.type == "code":
        d.update(code=c.code, amount=c.amount, threshold=c.threshold)
    elif c.type == "flash_sale":
        d.update(flash_price=c.flash_price)
    elif c.type == "bundle" and c.mixed:  # one of each product for the set price
        items = [room.by_id[x] for x in c.products if x in room.by_id]
        d.update(set_price=c.set_price,
                 set_products=[{"product_id": x.product_id, "link": x.link, "title": x.title} for x in items],
                 separately=round(sum(room.quote(x).total for x in items), 2))
    elif c.type == "bundle":
        d.update(bundle_qty=c.bundle_qty, bundle_discount_pct=c.bundle_discount_pct)
        if product is not None and c.bundle_qty:
            q = quote(room.campaigns, product, room.t, c.bundle_qty, room.stacking, bundle=c)
            if q.bundle is not None:
                d.update(bundle_price=q.total,
                         bundle_price_with=[x.campaign_id for x in q.applied if x is not c])
    elif c.type == "gift":
        d.update(gift=c.gift)
    if c.type in ("bundle", "code"):
        near = [o for o in others if o is not c and o.type != "gift" and _overlap(c, o)]
        d["stacks_with"] = [o.campaign_id for o in near if room.stacks(c, o)]
        d["does_not_stack_with"] = [o.campaign_id for o in near if not room.stacks(c, o)]
    return d


def _overlap(a: Campaign, b: Campaign) -> bool:
    """Whether two campaigns cover a product in common (an empty product list covers the whole room)."""
    return not a.products or not b.products or not set(a.products).isdisjoint(b.products)


class ToolBackend:
    """Executes canonical operations against a :class:`RoomState`.

    Args:
        room: the room state to read and change.
        faults: fault rates; ``None`` for none.
        rng: seeded generator for fault draws.
    """

    def __init__(self, room: RoomState, faults: Faults | None, rng: random.Random):
        self.room = room
        self.faults = faults or Faults()
        self.rng = rng
        self._ops: dict[str, Callable[..., dict[str, Any]]] = {
            "product_by_link": self._product_by_link,
            "product_by_id": self._product_by_id,
            "list_products": self._list_products,
            "campaigns": self._campaigns,
            "stock": self._stock,
            "shipping_policy": self._shipping,
            "after_sales_policy": self._after_sales,
            "order_status": self._order_status,
            "pin_product": self._pin,
            "send_coupon": self._send_coupon,
        }

    def draw_fault(self) -> str | None:
        """Draw the fault for the next call (``None`` most of the time). Always consumes one random number."""
        f = self.faults
        x = self.rng.random()
        if x < f.timeout:
            return "timeout"
        if x < f.timeout + f.malformed:
            return "malformed"
        if x < f.timeout + f.malformed + f.permission_denied:
            return "permission_denied"
        return None

    def execute(self, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """Run ``op`` with canonical ``args`` and return its canonical result.

        Raises:
            ToolError: the arguments name nothing that exists (the message says what).
            KeyError: ``op`` is not a canonical operation.
        """
        return self._ops[op](**args)

    # -- helpers -------------------------------------------------------------------------------------------
    def _product(self, product_id: str) -> Product:
        p = self.room.by_id.get(str(product_id))
        if p is None:
            raise ToolError(f"no product with id {product_id!r}")
        return p

    def product_view(self, p: Product) -> dict[str, Any]:
        """The canonical product record: identity, prices now (``final_price`` for one unit, with the ``coupon``
        and, in rooms with codes, the ``code`` it uses), specs, FAQ (stock and policies have own tools)."""
        room = self.room
        q = room.quote(p)
        cp = q.coupon
        view = {
            "product_id": p.product_id,
            "link": p.link,
            "title": p.title,
            "brand": p.brand,
            "category": p.category,
            "price": p.price,
            "list_price": p.list_price,
            "final_price": q.total,
            "coupon": None if cp is None else {"coupon_id": cp.campaign_id, "amount": cp.amount, "threshold": cp.threshold},
            "specs": dict(p.specs),
            "faq": [f.model_dump() for f in p.faq],
        }
        if q.code is not None:  # a code the viewer types at checkout is in the final price
            view["code"] = {"code": q.code.code, "amount": q.code.amount, "threshold": q.code.threshold}
        if p.variants:  # sizes / colours (their stock is the stock tool's)
            view["variants"] = [v.name for v in p.variants]
        if p.size_chart is not None:  # what each size measures
            view["size_chart"] = p.size_chart.model_dump(exclude_none=True)
        return view

    # -- operations ----------------------------------------------------------------------------------------
    def _product_by_link(self, link: int) -> dict[str, Any]:
        p = self.room.by_link.get(int(link))
        if p is None:
            raise ToolError(f"no product on link {link}; links are {sorted(self.room.by_link)}")
        return self.product_view(p)

    def _product_by_id(self, product_id: str) -> dict[str, Any]:
        return self.product_view(self._product(product_id))

    def _list_products(self) -> dict[str, Any]:
        return {"products": [{"link": p.link, "product_id": p.product_id, "title": p.title} for p in self.room.products]}

    def _campaigns(self, product_id: str | None = None, kind: str | None = None) -> dict[str, Any]:
        """Active campaigns, for one product or the room, optionally only of one ``kind`` (campaign type)."""
        if product_id is not None:
            self._product(product_id)
        act = self.room.active_campaigns(product_id)
        if kind is not None:
            act = [c for c in act if c.type == kind]
        p = self.room.by_id[str(product_id)] if product_id is not None else None
        every = self.room.active_campaigns(product_id)
        return {"campaigns": [_campaign_view(c, self.room, p, every) for c in act]}

    def _stock(self, product_id: str) -> dict[str, Any]:
        """Stock now; a product with variants also lists each (``variants``: ``{"name", "stock", "in_stock"}``)."""
        p = self._product(product_id)
        n = self.room.stock[p.product_id]
        d: dict[str, Any] = {"product_id": p.product_id, "stock": n, "in_stock": n > 0}
        if p.variants:
            d["variants"] = [{"name": v.name, "stock": k, "in_stock": k > 0} for v, k in p.variant_stock(n)]
        return d

    def _shipping(self, product_id: str) -> dict[str, Any]:
        """Dispatch time, carrier and fees. ``ships_within_hours`` is the end of the dispatch window; a product
        whose scenario gives a window (``ships_in``) also has ``ships_in`` (``{"min", "max", "unit"}``), and the
        other fields a product may use are listed only when it does: ``oversize`` with ``oversize_fee``,
        ``cold_chain``, ``installation_fee`` (0: free installation), ``regions`` (``{"names", "fee", "ships"}``:
        the extra fee to a region, or ``ships`` false where it is not sent), ``free_over`` (the order total from
        which shipping is free)."""
        s = self._product(product_id).shipping
        d: dict[str, Any] = {
            "ships_within_hours": s.ships_within_hours,
            "carrier": s.carrier,
            "free_shipping": s.free_shipping,
            "fee": s.fee,
        }
        if s.ships_in is not None:
            d["ships_in"] = s.ships_in.model_dump()
        if s.oversize:
            d.update(oversize=True, oversize_fee=s.oversize_fee)
        if s.cold_chain:
            d["cold_chain"] = True
        if s.installation_fee is not None:
            d["installation_fee"] = s.installation_fee
        if s.regions:
            d["regions"] = [{"names": list(g.names), "fee": g.fee, "ships": g.ships} for g in s.regions]
        if s.free_over is not None:
            d["free_over"] = s.free_over
        return d

    def _after_sales(self, product_id: str) -> dict[str, Any]:
        """Returns, exchange and warranty. ``return_days`` 0 means no returns; a warranty the scenario gives with
        a unit (``{value: 2, unit: years}``) is also listed as ``warranty``. The structured terms are listed only
        for products that have them: ``restocking_fee`` (``{"percent"|"amount", "when"}``), ``warranty_parts``
        (``{"names", "covered", "warranty"?}``), ``return_shipping_insurance`` (true/false) and
        ``no_return_when`` (``[{"names"}]``: the product cannot be returned then)."""
        r = self._product(product_id).returns
        d: dict[str, Any] = {"return_days": r.return_days, "exchange": r.exchange,
                             "warranty_months": r.warranty_months, "note": r.note}
        if r.warranty is not None:
            d["warranty"] = r.warranty.model_dump()
        if r.restocking_fee is not None:
            d["restocking_fee"] = r.restocking_fee.model_dump(exclude_none=True)
        if r.warranty_parts:
            d["warranty_parts"] = [w.model_dump(exclude_none=True) for w in r.warranty_parts]
        if r.return_shipping_insurance is not None:
            d["return_shipping_insurance"] = r.return_shipping_insurance
        if r.no_return_when:
            d["no_return_when"] = [n.model_dump() for n in r.no_return_when]
        return d

    def _order_status(self, order_id: str) -> dict[str, Any]:
        o = self.room.orders.get(str(order_id))
        if o is None:
            raise ToolError(f"no order {order_id!r}")
        return {"order_id": o.order_id, "product_id": o.product_id, "status": o.status, "eta_days": o.eta_days}

    def _pin(self, product_id: str) -> dict[str, Any]:
        p = self._product(product_id)
        self.room.pinned = p.product_id
        return {"ok": True, "pinned": p.product_id, "link": p.link}

    def _send_coupon(self, coupon_id: str) -> dict[str, Any]:
        for c in self.room.active_campaigns():
            if c.campaign_id == coupon_id and c.type == "coupon":
                self.room.coupons_sent.append(c.campaign_id)
                return {"ok": True, "coupon_id": c.campaign_id, "amount": c.amount, "threshold": c.threshold}
        raise ToolError(f"no active coupon {coupon_id!r}")


__all__ = ["OPS", "OpSpec", "ToolBackend", "ToolError", "fmt_money"]
