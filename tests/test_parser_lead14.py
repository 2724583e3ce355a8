"""A variant value said beside a stock or purchase question picks the variant; it asks no spec
(:func:`hat_env.understanding.variant_values.stated_values`). A part of the comment that asks about the value on
its own stays a spec question. Comments written for this test on built-in rooms (apparel_flash_zh, hogar_es).
"""

from __future__ import annotations

import pytest

from hat_env.understanding.parser import parse_comment
from tests.rooms import room

APPAREL = room("apparel_flash_zh", 3)
HOGAR = room("hogar_es", 3)


def _kinds(r, text: str) -> list[tuple[str, int | None, str | None]]:
    return [(i.kind, i.link, i.attr) for i in parse_comment(text, r.locale, catalog=r)]


@pytest.mark.parametrize(("r", "text", "want"), [
    # the value in the stock question's own part, or in a part that is nothing but the value
    (APPAREL, "围巾还有货吗 酒红色", [("stock", 5, None)]),
    (APPAREL, "5号 我要了 驼色", [("purchase", 5, None)]),
    (HOGAR, "sábanas gris quedan?", [("stock", 3, None)]),
    # a part that asks about the value itself stays a question about it
    (APPAREL, "卫衣有灰色吗 还有货没", [("spec", 2, "color"), ("stock", 2, None)]),
    (APPAREL, "牛仔裤有几个颜色？浅蓝色还有吗", [("spec", 3, "color"), ("stock", 3, None)]),
])
def test_a_stated_variant_value_asks_no_spec(r, text: str, want: list) -> None:
    assert _kinds(r, text) == want
