"""Shared vocabulary: the viewer personas, and the spec attributes, order statuses and fixed phrases that
comments, replies and the scorer must agree on. Keys are canonical; values are the words each locale uses."""

from __future__ import annotations

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

#: Spec attribute keys a product's ``specs`` may use, with the words viewers use for them.
SPEC_ATTRS: dict[str, dict[str, list[str]]] = {
    "shade": {"zh_CN": ["色号", "颜色深浅"], "en_US": ["shade"], "es_ES": ["tono"]},
    "size": {"zh_CN": ["规格", "容量", "尺码"], "en_US": ["size"], "es_ES": ["talla", "tamaño"]},
    "skin_type": {"zh_CN": ["适合什么肤质", "肤质"], "en_US": ["skin type"], "es_ES": ["tipo de piel"]},
    "shelf_life": {"zh_CN": ["保质期"], "en_US": ["shelf life"], "es_ES": ["caducidad"]},
    "ingredients": {"zh_CN": ["成分"], "en_US": ["ingredients"], "es_ES": ["ingredientes"]},
    "battery": {"zh_CN": ["续航", "电池"], "en_US": ["battery"], "es_ES": ["batería"]},
    "warranty": {"zh_CN": ["保修"], "en_US": ["warranty"], "es_ES": ["garantía"]},
    "color": {"zh_CN": ["颜色"], "en_US": ["color", "colour"], "es_ES": ["color"]},
    "material": {"zh_CN": ["材质", "面料"], "en_US": ["material", "fabric"], "es_ES": ["material"]},
    "spf": {"zh_CN": ["防晒指数", "SPF"], "en_US": ["SPF"], "es_ES": ["FPS"]},
    "weight": {"zh_CN": ["重量"], "en_US": ["weight"], "es_ES": ["peso"]},
    "screen": {"zh_CN": ["屏幕"], "en_US": ["screen"], "es_ES": ["pantalla"]},
    "connectivity": {"zh_CN": ["连接方式"], "en_US": ["connectivity", "bluetooth version"], "es_ES": ["conectividad"]},
}

#: Order statuses and the words a reply may use for each (any one counts).
ORDER_STATUS_WORDS: dict[str, dict[str, list[str]]] = {
    "paid": {"zh_CN": ["已付款", "待发货"], "en_US": ["paid", "waiting to ship"]},
    "packed": {"zh_CN": ["已打包", "打包"], "en_US": ["packed"]},
    "shipped": {"zh_CN": ["已发货", "运输中"], "en_US": ["shipped", "on its way", "in transit"]},
    "delivered": {"zh_CN": ["已签收", "已送达"], "en_US": ["delivered"]},
    "refunding": {"zh_CN": ["退款中"], "en_US": ["refund in progress", "being refunded"]},
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
