"""Shared text normalisation: numbers in words and numerals, traditional characters, full-width forms,
spelled-out letters, and the map back to the text as written."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hat_env.text import Mapped, collapse_spaced, normalize, segment


@pytest.mark.parametrize(
    ("text", "locale", "want"),
    [
        ("到手三百六十五元，保质期十八个月", "zh_CN", "到手365元，保质期18个月"),
        ("一年半，两天内发货，半年", "zh_CN", "1.5年，2天内发货，0.5年"),
        ("八五折，百分之十五", "zh_CN", "85折，15%"),
        ("一起买更划算，一定要试试", "zh_CN", "一起买更划算，一定要试试"),
        ("Link 1 is forty-nine ninety-nine after the ten-dollar coupon", "en_US",
         "Link 1 is 49.99 after the 10-dollar coupon"),
        ("a hundred and twenty-nine bucks", "en_US", "129 bucks"),
        ("a two-year warranty, the blue one, ships in two to three days", "en_US",
         "a 2-year warranty, the blue one, ships in 2 to 3 days"),
        ("half an hour", "en_US", "0.5 hour"),
        ("cuesta treinta y cinco dólares", "es_ES", "cuesta 35 dólares"),
    ],
)
def test_numbers_become_digits(text: str, locale: str, want: str) -> None:
    assert normalize(text, locale).text == want


def test_traditional_and_full_width() -> None:
    assert normalize("龍井能降血壓嗎？還有貨嗎", "zh_CN").text == "龙井能降血压吗?还有货吗"
    assert normalize("ＳＰＦ５０＋ ￥８９", "zh_CN").text == "SPF50+ ¥89"


def test_offsets_quote_the_original() -> None:
    m = normalize("到手三百六十五元哦", "zh_CN")
    i = m.text.index("365")
    assert m.original(i, i + 3) == "三百六十五"
    e = normalize("Link 1 is forty-nine ninety-nine now", "en_US")
    j = e.text.index("49.99")
    assert e.original(j, j + 5) == "forty-nine ninety-nine"
    assert e.span(0, 4) == (0, 4)


def test_mapped_replace_rejects_overlaps() -> None:
    m = Mapped.of("abcdef")
    assert m.replace([(1, 3, "X"), (4, 5, "YY")]).text == "aXdYYf"
    with pytest.raises(ValueError):
        m.replace([(1, 4, "X"), (2, 5, "Y")])


def test_spelled_out_letters_join() -> None:
    assert collapse_spaced("the b e s t charger").text == "the best charger"
    assert collapse_spaced("it's the G.O.A.T. of speakers").text == "it's the GOAT of speakers"
    assert collapse_spaced("全 网 最 低，国·家·级").text == "全网最低，国家级"
    assert collapse_spaced("best wishes, do my best").text == "best wishes, do my best"
    m = collapse_spaced("b-e-s-t")
    assert m.text == "best" and m.original(0, 4) == "b-e-s-t"


def test_segmentation() -> None:
    words = segment("浓缩乳清蛋白加分离乳清蛋白")
    assert {"浓缩", "分离", "乳清"} <= set(words) and "".join(words) == "浓缩乳清蛋白加分离乳清蛋白"


def test_import_stays_light() -> None:
    code = ("import sys, hat_env, hat_env.scoring, hat_env.text; "
            "heavy = [m for m in ('jieba', 'rapidfuzz', 'cn2an', 'zhconv', 'text_to_num', 'torch') if m in sys.modules]; "
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
