"""The product catalog: products with link numbers, prices and their history, stock, specs, policies and FAQ.

Products are written explicitly in a scenario or generated with Faker per category and locale
(:func:`generate_products`, from the recipes of the room's catalog vocabulary, :mod:`hat_env.sim.vocabulary`).
Categories and spec keys are open: the vocabulary declares them and the scenario loader checks products against
it. Everything is seeded: the same seed gives the same catalog.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from hat_env.sim.after_sales import NoReturn, RestockingFee, SizeChart, WarrantyPart, unique_names

if TYPE_CHECKING:  # pragma: no cover - typing only
    from hat_env.sim.vocabulary import Vocabulary

#: What a category or spec key looks like (which ones exist is the vocabulary's business).
NAME_PATTERN = r"^[a-z][a-z0-9_]{0,39}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # prices and fees are finite numbers


class PricePoint(_Strict):
    """The lowest deal price on one past day. ``days_ago`` 1 is yesterday."""

    days_ago: int = Field(ge=1, le=365)
    price: float = Field(gt=0)


class Window(_Strict):
    """A span of time: from ``min`` to ``max`` ``unit`` ("ships in 5-7 days"), or, without ``min``, within
    ``max`` ("ships within 48 hours")."""

    min: int | None = Field(None, ge=0)
    max: int = Field(ge=1)
    unit: Literal["hours", "days"] = "hours"

    @model_validator(mode="after")
    def _ordered(self) -> "Window":
        if self.min is not None and self.min > self.max:
            raise ValueError(f"min {self.min} is above max {self.max}")
        return self

    @property
    def max_hours(self) -> int:
        """The end of the window in hours."""
        return self.max * (24 if self.unit == "days" else 1)


class Duration(_Strict):
    """A length of time in whole ``unit`` ("2 years", "18 months")."""

    value: int = Field(ge=1)
    unit: Literal["months", "years"]

    @property
    def months(self) -> int:
        """The duration in months."""
        return self.value * (12 if self.unit == "years" else 1)


class Region(_Strict):
    """A shipping region with its own terms: ``names`` are the words a viewer or host uses for it ("新疆",
    "Hawaii", "Canarias"); ``fee`` the extra fee on top of the product's shipping there (0: none); ``ships``
    false when the product is not sent there (then it has no fee)."""

    names: list[str] = Field(min_length=1)
    fee: float = Field(0.0, ge=0)
    ships: bool = True

    @model_validator(mode="after")
    def _names_fee(self) -> "Region":
        if any(not n.strip() for n in self.names):
            raise ValueError("names: a region name is empty")
        if not self.ships and self.fee:
            raise ValueError(f"fee {self.fee:g} for a region the product does not ship to (ships: false): "
                             "give a fee only where it ships")
        return self


class Variant(_Strict):
    """One variant of a product (a size, a colour, both): ``name`` is what a viewer says ("黑色 38码",
    "Black / L"), ``stock`` its own stock."""

    name: str = Field(min_length=1, max_length=60)
    stock: int = Field(ge=0)

    @model_validator(mode="after")
    def _name(self) -> "Variant":
        if not self.name.strip():
            raise ValueError("name: a variant name is empty")
        return self


class Shipping(_Strict):
    """How the product ships.

    ``ships_in`` is the dispatch window (``{min: 5, max: 7, unit: days}``); ``ships_within_hours`` is its end in
    hours (the older way to write a window "within N hours"; filled in from ``ships_in``; 48 when neither is
    given). ``fee`` is the shipping fee when shipping is not free; ``oversize`` marks a bulky item, which may
    carry an ``oversize_fee`` on top; ``cold_chain`` ships refrigerated; ``installation_fee`` is the price of
    installation at delivery (0: free installation; ``None``: no installation service). ``regions`` lists the
    regions with their own terms (an extra fee, or not shipped there); anywhere else the terms above hold.
    ``free_over`` is the order total from which shipping is free ("满99包邮", "free shipping over $50"); below
    it ``fee`` is paid (it needs ``free_shipping: false``).
    """

    ships_within_hours: int | None = Field(None, ge=1)
    ships_in: Window | None = None
    carrier: str = "SF Express"
    free_shipping: bool = True
    fee: float = Field(0.0, ge=0)
    oversize: bool = False
    oversize_fee: float = Field(0.0, ge=0)
    cold_chain: bool = False
    installation_fee: float | None = Field(None, ge=0)
    regions: list[Region] = Field(default_factory=list)
    free_over: float | None = Field(None, gt=0)

    @model_validator(mode="after")
    def _window(self) -> "Shipping":
        if self.ships_in is not None:
            h = self.ships_in.max_hours
            if self.ships_within_hours is not None and self.ships_within_hours != h:
                raise ValueError(f"ships_within_hours {self.ships_within_hours} disagrees with ships_in "
                                 f"(ends at {h} hours); give one of them")
            self.ships_within_hours = h
        elif self.ships_within_hours is None:
            self.ships_within_hours = 48
        if self.oversize_fee and not self.oversize:
            raise ValueError("an oversize_fee needs oversize: true")
        if self.free_shipping and self.fee:
            raise ValueError(f"free_shipping with a fee of {self.fee}: set free_shipping: false or fee: 0")
        if self.free_over is not None and (self.free_shipping or not self.fee):
            raise ValueError(f"free_over {self.free_over:g} (free shipping from that order total) needs "
                             "free_shipping: false and the fee paid below it (fee > 0)")
        seen: dict[str, int] = {}
        for k, reg in enumerate(self.regions):
            for n in reg.names:
                key = n.strip().casefold()
                if key in seen:
                    raise ValueError(f"regions.{k}.names: {n!r} is also a name of regions.{seen[key]}")
                seen[key] = k
        return self

    @property
    def window(self) -> Window:
        """The dispatch window (``ships_in``, else "within ``ships_within_hours`` hours")."""
        return self.ships_in or Window(max=int(self.ships_within_hours or 48))


class Returns(_Strict):
    """After-sales policy.

    ``return_days`` 0 means the product cannot be returned (no returns is its own state: never "0-day returns").
    The warranty is ``warranty`` (``{value: 2, unit: years}``) or ``warranty_months`` (filled in from
    ``warranty``; 0: no warranty). Optional structured terms (:mod:`hat_env.sim.after_sales`):
    ``restocking_fee``, ``warranty_parts`` (what is covered, for how long), ``return_shipping_insurance``
    (运费险: true/false; ``None``: the data does not say) and ``no_return_when`` (final-sale conditions).
    """

    return_days: int = Field(7, ge=0)
    exchange: bool = True
    warranty_months: int = Field(0, ge=0)
    warranty: Duration | None = None
    note: str = ""
    restocking_fee: RestockingFee | None = None
    warranty_parts: list[WarrantyPart] = Field(default_factory=list)
    return_shipping_insurance: bool | None = None
    no_return_when: list[NoReturn] = Field(default_factory=list)

    @model_validator(mode="after")
    def _warranty(self) -> "Returns":
        if self.warranty is not None:
            m = self.warranty.months
            if "warranty_months" in self.model_fields_set and self.warranty_months != m:
                raise ValueError(f"warranty_months {self.warranty_months} disagrees with warranty ({m} months); "
                                 "give one of them")
            self.warranty_months = m
        unique_names(self.warranty_parts, "warranty_parts")  # type: ignore[arg-type]
        unique_names(self.no_return_when, "no_return_when")  # type: ignore[arg-type]
        if not self.returnable and (self.restocking_fee is not None or self.no_return_when):
            raise ValueError("restocking_fee / no_return_when on a product that cannot be returned (return_days: 0)")
        return self

    @property
    def returnable(self) -> bool:
        """Whether the product can be returned at all."""
        return self.return_days > 0


class FAQ(_Strict):
    """One frequently asked question with its answer."""

    q: str
    a: str


class Product(_Strict):
    """One product on sale in the room.

    ``price`` is the current selling price before campaigns; ``list_price`` the comparison ("original") price
    shown next to it; ``price_history`` the lowest deal prices of past days (for the 7-day and 30-day rules).
    ``variants`` (sizes, colours) each have their own stock, which adds up to ``stock``. ``size_chart`` gives
    what each size measures (:class:`hat_env.sim.after_sales.SizeChart`).
    """

    product_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    link: int = Field(ge=1, le=999)
    title: str = Field(min_length=1)
    brand: str = Field(min_length=1)
    category: str = Field(pattern=NAME_PATTERN)
    price: float = Field(gt=0)
    list_price: float = Field(gt=0)
    price_history: list[PricePoint] = Field(default_factory=list)
    stock: int = Field(ge=0)
    specs: dict[str, str] = Field(default_factory=dict)
    shipping: Shipping = Field(default_factory=Shipping)
    returns: Returns = Field(default_factory=Returns)
    faq: list[FAQ] = Field(default_factory=list)
    special_use_registered: bool = False
    variants: list[Variant] = Field(default_factory=list)
    size_chart: SizeChart | None = None

    @model_validator(mode="after")
    def _list_not_below_price(self) -> "Product":
        if self.list_price < self.price:
            raise ValueError(f"list_price {self.list_price} is below price {self.price}")
        if self.variants:
            total = sum(v.stock for v in self.variants)
            if total != self.stock:
                raise ValueError(f"variants: their stock adds up to {total} but the product's stock is {self.stock}; "
                                 "stock must be the sum of its variants' stock")
            seen: set[str] = set()
            for k, v in enumerate(self.variants):
                key = v.name.strip().casefold()
                if key in seen:
                    raise ValueError(f"variants.{k}.name: {v.name!r} is given twice")
                seen.add(key)
        return self

    def variant_stock(self, now: int) -> list[tuple[Variant, int]]:
        """Each variant with its stock when the product's stock is ``now``: the variant's own stock, never more
        than ``now`` (a product sold out is sold out in every variant; which variant a sale took is not
        recorded, so a variant's count is an upper bound once the room has sold some)."""
        return [(v, min(v.stock, max(now, 0))) for v in self.variants]

    def lowest_price_in(self, days: int) -> float | None:
        """Lowest deal price over the last ``days`` days (from the history), or ``None`` without history."""
        pts = [p.price for p in self.price_history if p.days_ago <= days]
        return min(pts) if pts else None


# --- generation -------------------------------------------------------------------------------------------


def _faker(locale: str):
    """The Faker generator of a room's locale: the locale file's ``faker_locale`` (default: the locale id)."""
    from faker import Faker  # imported lazily: Faker's locale data takes a moment to load

    cache = _faker.__dict__.setdefault("cache", {})
    if locale not in cache:
        from hat_env.locales import get_locale

        try:
            name = get_locale(locale).faker_locale or locale
        except ValueError:
            name = locale
        cache[locale] = Faker(name)
    return cache[locale]


def _shipping(rng: random.Random, carriers: tuple[str, ...]) -> Shipping:
    free = rng.random() < 0.8
    return Shipping(
        ships_within_hours=rng.choice([24, 48, 72]),
        carrier=rng.choice(carriers),
        free_shipping=free,
        fee=0.0 if free else float(rng.choice([6, 8, 10])),
    )


def generate_products(
    rng: random.Random, locale: str, categories: list[str], count: int, first_link: int, id_prefix: str = "G",
    vocabulary: "Vocabulary | None" = None,
) -> list[Product]:
    """Generate ``count`` plausible products with Faker brand names, cycling through ``categories``.

    Args:
        rng: the session's seeded generator (the same state gives the same products).
        locale: ``"zh_CN"`` or ``"en_US"``: titles, specs, carriers and brands follow it.
        categories: categories to draw from; each needs a ``generate`` recipe for ``locale`` in the vocabulary.
        count: how many products.
        first_link: link number of the first generated product; the rest follow on.
        id_prefix: prefix of generated product ids.
        vocabulary: the catalog vocabulary whose recipes and carriers are used (``None``: the default one).

    Returns:
        Products with a 30-day price history whose lowest price is never below the comparison price rules allow.

    Raises:
        ValueError: a category has no recipe for ``locale``, or the locale has no carriers.
    """
    if vocabulary is None:
        from hat_env.sim.vocabulary import default_vocabulary

        vocabulary = default_vocabulary()
    carriers = vocabulary.carriers(locale)
    recipes = {}
    for cat in categories:
        c = vocabulary.category(cat)
        if c is None or locale not in c.generate:
            raise ValueError(f"category {cat!r} has no generate recipe for {locale} in vocabulary {vocabulary.source}")
        recipes[cat] = c.generate[locale]
    if count and not carriers:
        raise ValueError(f"vocabulary {vocabulary.source} has no carriers for {locale}")
    fake = _faker(locale)
    fake.seed_instance(rng.getrandbits(32))
    out = []
    for i in range(count):
        cat = categories[i % len(categories)]
        spec = recipes[cat]
        brand = fake.company().split()[0].strip(",") if locale == "en_US" else fake.company_prefix()
        noun = rng.choice(spec.nouns)
        lo, hi = spec.price
        price = float(rng.randrange(lo, hi))
        history = [PricePoint(days_ago=d, price=float(round(price * rng.uniform(1.0, 1.25)))) for d in range(1, 31, 3)]
        # The comparison price is never above the lowest deal price of the last 7 days (CN-PRICE) nor of the last
        # 30 days (EU-PRICE), so generated products never carry a fake "original price".
        list_price = max(price, min(pt.price for pt in history))
        specs = {k: rng.choice(v) for k, v in spec.specs.items()}
        title = f"{brand}{noun}" if locale == "zh_CN" else f"{brand} {noun}"
        out.append(
            Product(
                product_id=f"{id_prefix}{first_link + i:03d}",
                link=first_link + i,
                title=title,
                brand=brand,
                category=cat,
                price=price,
                list_price=list_price,
                price_history=history,
                stock=rng.choice([3, 25, 120, 500, 1000]),
                specs=specs,
                shipping=_shipping(rng, carriers),
                returns=Returns(
                    return_days=rng.choice([7, 15, 30]),
                    exchange=True,
                    warranty_months=spec.warranty_months,
                ),
            )
        )
    return out
