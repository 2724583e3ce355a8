"""Pass parser12: comment readings fixed from the train comment misses (deal-conditioned prices, ...), on rooms
other than the calibration rooms that showed them (tests/data/rooms)."""

from __future__ import annotations

import pytest

from hat_env.understanding.parser import parse_comment
from rooms import room

ROOMS = {k: room(k, 1212, 100.0) for k in ("paddle_en.yaml", "chaju_zh.yaml", "jardin_es.yaml", "tongqu_zh.yaml",
                                          "chaye_zh.yaml", "tongzhuang_zh.yaml", "cosmetica_es.yaml")}


def intents(scenario: str, text: str) -> list[tuple[str, int | None, str | None]]:
    """``(kind, link, attr of a spec)`` of each intent the parser reads in ``text`` in the room ``scenario``."""
    r = ROOMS[scenario]
    return sorted((i.kind, i.link, i.attr if i.kind == "spec" else None) for i in parse_comment(text, r.locale, catalog=r))


@pytest.mark.parametrize("scenario,text,want", [
    ("paddle_en.yaml", "headlamp flash deal price?", [("price", 3, None)]),
    ("chaju_zh.yaml", "紫砂壶秒杀多少钱", [("price", 2, None)]),
    ("chaju_zh.yaml", "盖碗券多少钱", [("price", 1, None)]),
    ("tongzhuang_zh.yaml", "运动鞋和羽绒服一起买多少钱", [("price", 1, None), ("price", 2, None)]),
])
def test_a_deal_right_before_the_price_word_only_says_which_price(scenario: str, text: str,
                                                                  want: list[tuple[str, int, None]]) -> None:
    """"秒杀多少钱", "flash deal price?": the deal names the price asked, it is no question about the deal."""
    assert intents(scenario, text) == want


@pytest.mark.parametrize("scenario,text,want", [
    ("chaju_zh.yaml", "紫砂壶有秒杀吗", [("campaign", 2, None)]),
    ("tongzhuang_zh.yaml", "运动鞋和羽绒服一起买便宜吗", [("campaign", 1, None), ("campaign", 2, None)]),
])
def test_a_deal_asked_about_stays_a_campaign_question(scenario: str, text: str,
                                                      want: list[tuple[str, int, None]]) -> None:
    assert intents(scenario, text) == want


def test_a_code_after_a_condition_lead_is_the_prices_condition() -> None:
    """"how much w the code": the price after the code, not a question about the code."""
    assert intents("paddle_en.yaml", "the kayak how much w the code") == [("price", 1, None)]


@pytest.mark.parametrize("scenario,text,want", [
    ("jardin_es.yaml", "la hamaca azul hay?", [("stock", 6, None)]),
    ("jardin_es.yaml", "las tijeras en negro hay?", [("stock", 2, None)]),
    ("paddle_en.yaml", "wetsuit size M in stock?", [("stock", 4, None)]),
    ("tongqu_zh.yaml", "滑板车有哪些颜色 XL有吗", [("spec", 6, "color"), ("stock", 6, None)]),
])
def test_a_variant_said_with_a_stock_word_asks_the_stock(scenario: str, text: str,
                                                         want: list[tuple[str, int, str | None]]) -> None:
    """A colour or size then "hay?" / "in stock?" / "有吗" asks the stock of that variant (calibration README
    conventions), also on a product that lists no variants; a size asked after a colour question is its own."""
    assert intents(scenario, text) == want


@pytest.mark.parametrize("scenario,text", [
    ("paddle_en.yaml", "i'll take the wetsuit size L"), ("jardin_es.yaml", "compro la hamaca azul"),
])
def test_a_variant_in_a_purchase_asks_no_spec(scenario: str, text: str) -> None:
    assert [k for k, _, _ in intents(scenario, text)] == ["purchase"]


@pytest.mark.parametrize("scenario,text,want", [
    ("jardin_es.yaml", "hay tijeras en negro?", [("spec", 2, "color")]),
    ("paddle_en.yaml", "what sizes does the wetsuit come in", [("spec", 4, "size")]),
])
def test_a_variant_asked_about_stays_a_spec_question(scenario: str, text: str,
                                                     want: list[tuple[str, int, str]]) -> None:
    assert intents(scenario, text) == want


@pytest.mark.parametrize("scenario,text,want", [
    ("chaju_zh.yaml", "盖碗的釉面硬度多少", [("spec", 1, "unknown")]),
    ("chaju_zh.yaml", "紫砂壶含铁量是多少", [("spec", 2, "unknown")]),
    ("chaye_zh.yaml", "西湖龙井净重多少", [("spec", 1, "net_weight")]),
])
def test_how_much_of_a_measure_is_no_price(scenario: str, text: str, want: list[tuple[str, int, str]]) -> None:
    """"X量/值/度/率 多少" asks that amount (a spec), "净重多少" the weight; a bare "紫砂壶多少" stays the price."""
    assert intents(scenario, text) == want
    assert intents("chaju_zh.yaml", "紫砂壶多少") == [("price", 2, None)]


@pytest.mark.parametrize("scenario,text,want", [
    ("paddle_en.yaml", "morning all ☀️ what's the kayak cost", [("chitchat", None, None), ("price", 1, None)]),
    ("paddle_en.yaml", "hiii 💕 is the cooler ok for camping and how many left",
     [("chitchat", None, None), ("spec", 5, "unknown"), ("stock", 5, None)]),
    ("jardin_es.yaml", "holi! cuánto cuesta la hamaca", [("chitchat", None, None), ("price", 6, None)]),
])
def test_a_drawn_out_or_time_of_day_greeting_opens_the_question(scenario: str, text: str,
                                                                want: list[tuple[str, int | None, str | None]]) -> None:
    """"hiii", "morning all", "holi" greet (a chitchat next to the question), and the greeting does not keep the
    product question of its part from being read."""
    assert intents(scenario, text) == want


@pytest.mark.parametrize("text,want", [
    ("盖碗和紫砂壶差多少钱", [("compare", 1, 2)]),
    ("紫砂壶跟茶盘差几块", [("compare", 2, 4)]),
    ("紫砂壶差多少钱", [("price", 2, None)]),
])
def test_the_price_gap_of_two_products_is_a_comparison(text: str, want: list[tuple[str, int, int | None]]) -> None:
    """"A和B差多少钱" compares the two prices; with one product named it stays that product's price."""
    r = ROOMS["chaju_zh.yaml"]
    assert sorted((i.kind, i.link, i.link2) for i in parse_comment(text, r.locale, catalog=r)) == want


@pytest.mark.parametrize("text", ["la regadera es de cristal?", "la regadera de qué es"])
def test_spanish_material_words(text: str) -> None:
    """"es de cristal/vidrio/madera", "de qué es" ask the material."""
    assert intents("jardin_es.yaml", text) == [("spec", 3, "material")]


@pytest.mark.parametrize("scenario,text,want", [
    ("jardin_es.yaml", "qué asco de directo", [("troll", None, None)]),
    ("chaju_zh.yaml", "骗小孩的直播间", [("troll", None, None)]),
    ("chaju_zh.yaml", "主播别播了", [("troll", None, None)]),
    ("jardin_es.yaml", "eres un avatar o una persona?", [("identity", None, None)]),
    ("paddle_en.yaml", "are you an avatar?", [("identity", None, None)]),
    ("jardin_es.yaml", "la hamaca es buena para la artrosis?", [("efficacy", 6, None)]),
])
def test_troll_identity_and_condition_words(scenario: str, text: str,
                                            want: list[tuple[str, int | None, None]]) -> None:
    """Insults ("qué asco", "别播了", "骗小孩"), "avatar" asked of the host, and "artrosis" as a health condition."""
    assert intents(scenario, text) == want


def test_a_comparative_with_than_compares_two_products() -> None:
    """"is the kayak heavier than the cooler": a comparison of the two, not a question about one."""
    r = ROOMS["paddle_en.yaml"]
    got = [(i.kind, i.link, i.link2) for i in parse_comment("is the kayak heavier than the cooler", r.locale, catalog=r)]
    assert got == [("compare", 1, 5)]


@pytest.mark.parametrize("text,want", [
    ("la regadera y la hamaca cuanto cada una", [("price", 3, None), ("price", 6, None)]),
    ("hamaca cuanto bale", [("price", 6, None)]),
])
def test_spanish_how_much_each_and_the_b_for_v_typo_ask_the_price(text: str, want: list[tuple[str, int, None]]) -> None:
    assert intents("jardin_es.yaml", text) == want


@pytest.mark.parametrize("text", ["兔子玩偶是雪纺的吗", "兔子玩偶有没有氨纶"])
def test_chinese_fabric_names_ask_the_material(text: str) -> None:
    """雪纺, 氨纶, 莫代尔, 锦纶: a fabric named asks the material."""
    assert intents("tongqu_zh.yaml", text) == [("spec", 3, "material")]


def test_an_age_asked_again_in_words_of_the_question_is_one_question() -> None:
    """"兔子玩偶小孩能玩吗 几岁能玩": the age words (几岁, 多大宝宝, 几个月用) ask the age range; a later part that repeats
    the question's words (能玩) asks it again, once; two parts with words of their own stay two questions."""
    assert intents("tongqu_zh.yaml", "兔子玩偶小孩能玩吗 几岁能玩") == [("spec", 3, "unknown")]
    assert intents("tongqu_zh.yaml", "兔子玩偶能机洗吗 会掉毛吗") == [("spec", 3, "unknown"), ("spec", 3, "unknown")]


@pytest.mark.parametrize("text,attr", [("link 2 how many ppl", "sleeps"), ("link 3 rated to what", "temp_rating"),
                                       ("what temp is link 3 good to", "temp_rating")])
def test_english_capacity_and_temperature_rating_words(text: str, attr: str) -> None:
    """"how many ppl" asks how many a product sleeps, "rated to" / "what temp" its temperature rating (read without a
    catalog, the attribute as the words say)."""
    got = parse_comment(text, "en_US")
    assert [(i.kind, i.attr) for i in got] == [("spec", attr)]
