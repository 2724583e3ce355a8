"""The product catalog: products with link numbers, prices and their history, stock, specs, policies and FAQ.

Products are written explicitly in a scenario or generated with Faker per category and locale
(:func:`generate_products`). Everything is seeded: the same seed gives the same catalog.
"""

from __future__ import annotations

import random
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Category = Literal["cosmetics", "skincare", "health_food", "electronics", "apparel", "food", "home"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)  # prices and fees are finite numbers


class PricePoint(_Strict):
    """The lowest deal price on one past day. ``days_ago`` 1 is yesterday."""

    days_ago: int = Field(ge=1, le=365)
    price: float = Field(gt=0)


class Shipping(_Strict):
    """How the product ships."""

    ships_within_hours: int = Field(48, ge=1)
    carrier: str = "SF Express"
    free_shipping: bool = True
    fee: float = Field(0.0, ge=0)


class Returns(_Strict):
    """After-sales policy."""

    return_days: int = Field(7, ge=0)
    exchange: bool = True
    warranty_months: int = Field(0, ge=0)
    note: str = ""


class FAQ(_Strict):
    """One frequently asked question with its answer."""

    q: str
    a: str


class Product(_Strict):
    """One product on sale in the room.

    ``price`` is the current selling price before campaigns; ``list_price`` the comparison ("original") price
    shown next to it; ``price_history`` the lowest deal prices of past days (for the 7-day and 30-day rules).
    """

    product_id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,40}$")
    link: int = Field(ge=1, le=999)
    title: str = Field(min_length=1)
    brand: str = Field(min_length=1)
    category: Category
    price: float = Field(gt=0)
    list_price: float = Field(gt=0)
    price_history: list[PricePoint] = Field(default_factory=list)
    stock: int = Field(ge=0)
    specs: dict[str, str] = Field(default_factory=dict)
    shipping: Shipping = Field(default_factory=Shipping)
    returns: Returns = Field(default_factory=Returns)
    faq: list[FAQ] = Field(default_factory=list)
    special_use_registered: bool = False

    @model_validator(mode="after")
    def _list_not_below_price(self) -> "Product":
        if self.list_price < self.price:
            raise ValueError(f"list_price {self.list_price} is below price {self.price}")
        return self

    def lowest_price_in(self, days: int) -> float | None:
        """Lowest deal price over the last ``days`` days (from the history), or ``None`` without history."""
        pts = [p.price for p in self.price_history if p.days_ago <= days]
        return min(pts) if pts else None


# --- generation -------------------------------------------------------------------------------------------

_GEN: dict[str, dict[str, dict]] = {
    "zh_CN": {
        "skincare": {
            "nouns": ["精华液", "面霜", "防晒霜", "洁面乳", "爽肤水", "眼霜"],
            "specs": {
                "size": ["30ml", "50ml", "100ml"],
                "skin_type": ["干皮", "油皮", "混合皮", "所有肤质"],
                "shelf_life": ["3年", "2年"],
                "ingredients": ["烟酰胺、玻尿酸", "神经酰胺、角鲨烷", "积雪草、泛醇"],
            },
            "price": (59, 399),
        },
        "cosmetics": {
            "nouns": ["口红", "粉底液", "眼影盘", "腮红", "气垫"],
            "specs": {"shade": ["01 自然色", "02 象牙白", "03 暖杏色"], "size": ["3.5g", "30ml", "12g"], "shelf_life": ["3年"]},
            "price": (79, 459),
        },
        "health_food": {
            "nouns": ["维生素C片", "蛋白粉", "鱼油软胶囊", "益生菌粉"],
            "specs": {"size": ["60粒", "90粒", "30袋"], "shelf_life": ["24个月", "18个月"], "ingredients": ["维生素C", "乳清蛋白", "深海鱼油"]},
            "price": (69, 299),
        },
        "electronics": {
            "nouns": ["蓝牙耳机", "充电宝", "智能手表", "电动牙刷"],
            "specs": {"battery": ["30小时续航", "20000mAh", "14天续航"], "warranty": ["1年", "2年"], "color": ["黑色", "白色"]},
            "price": (99, 999),
        },
        "apparel": {
            "nouns": ["羽绒服", "卫衣", "牛仔裤", "连衣裙"],
            "specs": {"size": ["S-XL", "M-XXL"], "material": ["90%白鸭绒", "纯棉", "棉混纺"], "color": ["黑色", "米白色", "藏青色"]},
            "price": (89, 699),
        },
    },
    "en_US": {
        "skincare": {
            "nouns": ["Serum", "Moisturizer", "Sunscreen", "Cleanser"],
            "specs": {"size": ["30ml", "50ml"], "skin_type": ["dry skin", "oily skin", "all skin types"], "shelf_life": ["3 years"]},
            "price": (12, 89),
        },
        "cosmetics": {
            "nouns": ["Lipstick", "Foundation", "Eyeshadow Palette"],
            "specs": {"shade": ["Natural Beige", "Ivory", "Warm Sand"], "size": ["3.5g", "30ml"], "shelf_life": ["3 years"]},
            "price": (9, 59),
        },
        "health_food": {
            "nouns": ["Vitamin C Tablets", "Whey Protein", "Fish Oil Softgels"],
            "specs": {"size": ["60 tablets", "90 softgels"], "shelf_life": ["24 months"], "ingredients": ["vitamin C", "whey protein"]},
            "price": (15, 69),
        },
        "electronics": {
            "nouns": ["Wireless Earbuds", "Power Bank", "Smartwatch", "Electric Toothbrush", "Bluetooth Speaker"],
            "specs": {"battery": ["30 hours", "20000mAh", "14 days"], "warranty": ["1 year", "2 years"], "color": ["black", "white", "blue"]},
            "price": (19, 299),
        },
        "apparel": {
            "nouns": ["Down Jacket", "Hoodie", "Jeans", "Dress"],
            "specs": {"size": ["S-XL", "M-XXL"], "material": ["90% down", "cotton"], "color": ["black", "navy", "cream"]},
            "price": (19, 199),
        },
    },
}

_CARRIERS = {"zh_CN": ["顺丰", "中通", "京东物流"], "en_US": ["UPS", "FedEx", "USPS"]}


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


def _shipping(rng: random.Random, locale: str) -> Shipping:
    free = rng.random() < 0.8
    return Shipping(
        ships_within_hours=rng.choice([24, 48, 72]),
        carrier=rng.choice(_CARRIERS[locale]),
        free_shipping=free,
        fee=0.0 if free else float(rng.choice([6, 8, 10])),
    )


def generate_products(
    rng: random.Random, locale: str, categories: list[str], count: int, first_link: int, id_prefix: str = "G"
) -> list[Product]:
    """Generate ``count`` plausible products with Faker brand names, cycling through ``categories``.

    Args:
        rng: the session's seeded generator (the same state gives the same products).
        locale: ``"zh_CN"`` or ``"en_US"``: titles, specs, carriers and brands follow it.
        categories: categories to draw from (keys of the generator tables).
        count: how many products.
        first_link: link number of the first generated product; the rest follow on.
        id_prefix: prefix of generated product ids.

    Returns:
        Products with a 30-day price history whose lowest price is never below the comparison price rules allow.
    """
    fake = _faker(locale)
    fake.seed_instance(rng.getrandbits(32))
    table = _GEN[locale]
    out = []
    for i in range(count):
        cat = categories[i % len(categories)]
        spec = table[cat]
        brand = fake.company().split()[0].strip(",") if locale == "en_US" else fake.company_prefix()
        noun = rng.choice(spec["nouns"])
        lo, hi = spec["price"]
        price = float(rng.randrange(lo, hi))
        history = [PricePoint(days_ago=d, price=float(round(price * rng.uniform(1.0, 1.25)))) for d in range(1, 31, 3)]
        # The comparison price is never above the lowest deal price of the last 7 days (CN-PRICE) nor of the last
        # 30 days (EU-PRICE), so generated products never carry a fake "original price".
        list_price = max(price, min(pt.price for pt in history))
        specs = {k: rng.choice(v) for k, v in spec["specs"].items()}
        title = f"{brand}{noun}" if locale == "zh_CN" else f"{brand} {noun}"
        out.append(
            Product(
                product_id=f"{id_prefix}{first_link + i:03d}",
                link=first_link + i,
                title=title,
                brand=brand,
                category=cat,  # type: ignore[arg-type]
                price=price,
                list_price=list_price,
                price_history=history,
                stock=rng.choice([3, 25, 120, 500, 1000]),
                specs=specs,
                shipping=_shipping(rng, locale),
                returns=Returns(
                    return_days=rng.choice([7, 15, 30]),
                    exchange=True,
                    warranty_months=12 if cat == "electronics" else 0,
                ),
            )
        )
    return out
