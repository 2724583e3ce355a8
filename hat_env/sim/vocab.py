"""Shared vocabulary: the viewer personas, and the order statuses and fixed phrases that comments, replies and the
scorer must agree on. Keys are canonical; values are the words each locale uses.

Categories and spec attributes are not here: they are data, the catalog vocabulary of each room
(:mod:`hat_env.sim.vocabulary`, ``scenarios/vocabulary/default.yaml``). ``SPEC_ATTRS`` is kept as a read-only view
of the default vocabulary's viewer words (attribute -> locale -> words), read on first use.
"""

from __future__ import annotations

from typing import Any

#: Every viewer persona: what a scenario's ``viewers.mix`` may weight, what :mod:`hat_env.sim.viewers` simulates and
#: :func:`hat_env.sim.comments.persona_intents` draws questions for.
PERSONAS: tuple[str, ...] = (
    "price_asker",
    "spec_asker",
    "comparer",
    "after_sales",
    "purchase_intent",
    "chit_chat",
    "multi_intent",
    "troll",
    "prompt_injector",
)

#: Order statuses and the words a reply may use for each (any one counts).
ORDER_STATUS_WORDS: dict[str, dict[str, list[str]]] = {
    "paid": {"zh_CN": ["已付款", "待发货"], "en_US": ["paid", "waiting to ship"]},
    "packed": {"zh_CN": ["已打包", "打包"], "en_US": ["packed"]},
    "shipped": {"zh_CN": ["已发货", "运输中"], "en_US": ["shipped", "on its way", "in transit"]},
    "delivered": {"zh_CN": ["已签收", "已送达"], "en_US": ["delivered"]},
    "refunding": {"zh_CN": ["退款中"], "en_US": ["refund in progress", "being refunded"]},
}

#: Words that say a product cannot be returned (no returns is its own state, never "0-day returns").
NO_RETURN_WORDS: dict[str, list[str]] = {
    "zh_CN": ["不支持退货", "不支持无理由退货", "不退不换", "不可退货", "不能退货"],
    "en_US": ["no returns", "can't be returned", "cannot be returned", "non-returnable", "final sale"],
}

#: Words that say a product is sold out.
SOLD_OUT_WORDS: dict[str, list[str]] = {"zh_CN": ["售罄", "没货", "缺货"], "en_US": ["sold out", "out of stock"]}

#: Words that say no campaign or coupon applies.
NO_CAMPAIGN_WORDS: dict[str, list[str]] = {
    "zh_CN": ["暂无优惠", "没有优惠", "暂时没有券"],
    "en_US": ["no coupon", "no active deal", "no promotion"],
}

#: Words that say a tool could not answer right now (an honest reply after a fault).
UNAVAILABLE_WORDS: dict[str, list[str]] = {
    "zh_CN": ["暂时查不到", "稍后", "系统繁忙"],
    "en_US": ["can't check", "cannot check", "right now", "in a moment"],
}

#: Currency markers per locale.
CURRENCY: dict[str, str] = {"zh_CN": "元", "en_US": "$"}


def __getattr__(name: str) -> Any:
    if name == "SPEC_ATTRS":  # the default vocabulary's viewer words, in the shape this module once held them
        from hat_env.sim.vocabulary import default_vocabulary

        return default_vocabulary().spec_words()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
