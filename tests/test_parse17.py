"""Pass parse17: the comment parser on comments written the way viewers write them (slang, typos, no punctuation,
emoji, pinyin, 繁体, mixed languages, several asks in one line), in phrasings of our own at a seed no labelled set
uses, in built-in rooms and in the calibration rooms.

- a typo is read only as a keyword of the comment's own language, and a word built on a keyword ("preciosa" on
  "precios") is no typo of it; a keyword of another language the comment shows no other sign of is not read
  ("as big as a hay bale": no Spanish "hay");
- Spanish written as it sounds ("kuanto bale", "kuesta") reads as the word it sounds like;
- "protector", "solar" name a sunscreen in Spanish;
- a Spanish colour agrees with its noun ("la freidora blanca"); a variant written right after a name in a
  purchase or price question picks which one and asks no spec, and two products joined across it are both asked;
- the everyday words of praise ("qué guapa", "adorable"), an exclamative "qué ..." of praise being no question.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env.understanding.fuzzy import derived_word
from hat_env.understanding.word_langs import comment_lang, respell_spanish
from rooms import intents, link_of, room

SEED = 1717
CAL = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"


def _room(scenario: str):
    """A built-in room by name, or a calibration room by its file name."""
    return room(CAL / scenario if scenario.endswith(".yaml") else scenario, SEED)


def _expect(r, items: list[tuple]) -> list[tuple]:
    """``(kind, title part or None, attr)`` -> the sorted ``intents`` form of room ``r``."""
    out = []
    for kind, part, attr in items:
        out.append((kind, link_of(r, part) if part else None, None, attr if kind == "spec" else None))
    return sorted(out, key=str)


# -- our own probes: 20+ per locale, with the intents a viewer means -----------------------------------------------

ES = [
    ("hogar_es", "la batidora es preciosa", [("chitchat", None, None)]),
    ("hogar_es", "q preciosa la sarten!! cuanto cuesta", [("price", "Sartén", None)]),
    ("hogar_es", "preciio de la sartén?", [("price", "Sartén", None)]),
    ("hogar_es", "kuanto bale la batidora", [("price", "Batidora", None)]),
    ("hogar_es", "kuanto kuesta la sarten", [("price", "Sartén", None)]),
    ("hogar_es", "me llevo la freidora blanca y la cafetera",
     [("purchase", "Freidora", None), ("purchase", "Cafetera", None)]),
    ("hogar_es", "me quedo con la sartén y la batidora porfa",
     [("purchase", "Sartén", None), ("purchase", "Batidora", None)]),
    ("hogar_es", "cuál sale más barata la freidora o la batidora", [("compare", None, None)]),
    ("hogar_es", "la cafetera sale a cuanto?", [("price", "Cafetera", None)]),
    ("hogar_es", "ya compré la sartén, cuándo llega?", [("shipping", "Sartén", None)]),
    ("hogar_es", "las toallas vienen en gris?", [("spec", "Toallas", "color")]),
    ("hogar_es", "jajaja el chat está animado hoy", [("chitchat", None, None)]),
    ("hogar_es", "la freidora airela cuanto cuesta y tiene garantia",
     [("price", "Freidora", None), ("spec", "Freidora", "warranty")]),
    ("hogar_es", "hola! cuanto vale la cafetera y la batidora",
     [("chitchat", None, None), ("price", "Cafetera", None), ("price", "Batidora", None)]),
    ("belleza_es.yaml", "el protector cuanto cuesta", [("price", "Escudo Solar", None)]),
    ("belleza_es.yaml", "quedan protectores solares?", [("stock", "Escudo Solar", None)]),
    ("belleza_es.yaml", "me llevo el labial y el protector",
     [("purchase", "Labial", None), ("purchase", "Escudo Solar", None)]),
    ("belleza_es.yaml", "el sérum preciosa textura 😍", [("chitchat", None, None)]),
    ("deportes_es.yaml", "las zapas veloz cuanto cuestan", [("price", "Veloz", None)]),
    ("deportes_es.yaml", "me pillo la mochila y la botella", [("purchase", "Mochila", None), ("purchase", "Botella", None)]),
    ("deportes_es.yaml", "qué guapa la mochila", [("chitchat", None, None)]),
    ("deportes_es.yaml", "la mochila viene en negro?", [("spec", "Mochila", "color")]),
    ("cocina_es.yaml", "la olla rapida cuanto vale", [("price", "Olla", None)]),
    ("cocina_es.yaml", "kuanto bale la olla", [("price", "Olla", None)]),
    ("cocina_es.yaml", "me llevo la báscula y la cafetera", [("purchase", "Báscula", None), ("purchase", "Cafetera", None)]),
    ("cocina_es.yaml", "ya compré la olla, cuándo llega?", [("shipping", "Olla", None)]),
]

EN = [
    ("electronics_en", "how much r the earbuds", [("price", "Buds", None)]),
    ("electronics_en", "ill take the earbuds in white and the speaker",
     [("purchase", "Buds", None), ("purchase", "Speaker", None)]),
    ("electronics_en", "is the powerbank in stock rn", [("stock", "Power Bank", None)]),
    ("electronics_en", "speakr price??", [("price", "Speaker", None)]),
    ("electronics_en", "lol this chat is wild", [("chitchat", None, None)]),
    ("electronics_en", "does the smartwatch have gps and how long does the battery last",
     [("spec", "Smartwatch", "battery"), ("spec", "Smartwatch", "connectivity")]),
    ("electronics_en", "already ordered the charger, when does it ship", [("shipping", "Charger", None)]),
    ("electronics_en", "how much is the charger and the speaker", [("price", "Charger", None), ("price", "Speaker", None)]),
    ("electronics_en", "does the speaker come in red", [("spec", "Speaker", "color")]),
    ("appliances_en", "how much is the air fryer", [("price", "Air Fryer", None)]),
    ("appliances_en", "the blender is so pretty", [("chitchat", None, None)]),
    ("appliances_en", "blendr price pls", [("price", "Blender", None)]),
    ("appliances_en", "ill grab the vacuum and the dishwasher", [("purchase", "Vacuum", None), ("purchase", "Dishwasher", None)]),
    ("appliances_en", "ill take the blender in black", [("purchase", "Blender", None)]),
    ("appliances_en", "the vacuum looks so good 😍", [("chitchat", None, None)]),
    ("pets_en", "how much is the puppy food", [("price", "Puppy", None)]),
    ("pets_en", "is the cat tree still on sale", [("campaign", "Cat Tree", None)]),
    ("pets_en", "my dog loves chewing stuff lol", [("chitchat", None, None)]),
    ("pets_en", "the dog bed is as big as a hay bale lol", [("chitchat", None, None)]),
    ("pets_en", "the cat tree is adorable", [("chitchat", None, None)]),
    ("pets_en", "how much for the cat food and the litter box", [("price", "Cat Food", None), ("price", "Litter", None)]),
    ("fitness_en.yaml", "how much is the kettlebell", [("price", "Kettlebell", None)]),
    ("fitness_en.yaml", "whey flavors", [("spec", "Whey", "flavor")]),
    ("fitness_en.yaml", "ill take the yoga mat and the jump rope", [("purchase", "Yoga Mat", None), ("purchase", "Jump Rope", None)]),
]

ZH = [
    ("beauty_zh", "口红多少钱", [("price", "口红", None)]),
    ("beauty_zh", "防晒霜spf多少", [("spec", "防晒霜", "spf")]),
    ("beauty_zh", "粉底液和口红一起拍有优惠吗", [("campaign", "口红", None), ("campaign", "粉底液", None)]),
    ("beauty_zh", "口红颜色好好看啊", [("chitchat", None, None)]),
    ("beauty_zh", "已拍 口红", [("purchase", "口红", None)]),
    ("beauty_zh", "今天冲了两杯咖啡 好困", [("chitchat", None, None)]),
    ("beauty_zh", "防晒霜多少钱 还有货吗", [("price", "防晒霜", None), ("stock", "防晒霜", None)]),
    ("apparel_flash_zh", "卫衣多少钱", [("price", "卫衣", None)]),
    ("apparel_flash_zh", "羽絨服多少錢", [("price", "羽绒服", None)]),
    ("apparel_flash_zh", "围巾是羊毛的吗", [("spec", "围巾", "material")]),
    ("apparel_flash_zh", "weiyi duoshao qian", [("price", "卫衣", None)]),
    ("apparel_flash_zh", "围巾颜色好看 多少钱", [("price", "围巾", None)]),
    ("apparel_flash_zh", "已经拍了卫衣 什么时候发货", [("shipping", "卫衣", None)]),
    ("yundong_zh.yaml", "跑鞋多少钱", [("price", "跑鞋", None)]),
    ("yundong_zh.yaml", "瑜伽垫多厚", [("spec", "瑜伽垫", "thickness")]),
    ("yundong_zh.yaml", "已拍 跑鞋42码", [("purchase", "跑鞋", None)]),
    ("yundong_zh.yaml", "水壶保温多久", [("spec", "水壶", "insulation")]),
    ("yundong_zh.yaml", "筋膜枪有几档", [("spec", "筋膜枪", "gears")]),
    ("shuma_zh.yaml", "充电宝多少钱", [("price", "充电宝", None)]),
    ("shuma_zh.yaml", "数据线多长", [("spec", "数据线", "cable_length")]),
    ("shuma_zh.yaml", "充电器多少瓦", [("spec", "充电器", "output_power")]),
    ("wanju_zh.yaml", "泡泡机多少钱", [("price", "泡泡机", None)]),
    ("wanju_zh.yaml", "主播今天好漂亮", [("chitchat", None, None)]),
    ("wanju_zh.yaml", "哈哈哈 笑死我了", [("chitchat", None, None)]),
]


@pytest.mark.parametrize("scenario,text,expected", ES + EN + ZH)
def test_what_viewers_write_reads_as_they_mean_it(scenario: str, text: str, expected: list[tuple]) -> None:
    """Each probe parses to the intents its viewer means (a compare names no link here: checked by kind)."""
    r = _room(scenario)
    got = intents(r, text)
    if any(k == "compare" for k, _, _ in expected):
        assert [k for k, *_ in got] == ["compare"]
        return
    assert got == _expect(r, expected)


def test_enough_probes_per_locale() -> None:
    """At least twenty probes in each of the three locales."""
    assert min(len(ES), len(EN), len(ZH)) >= 20


# -- typos: real typos only, in the comment's language ---------------------------------------------------------------

def test_a_word_built_on_a_keyword_is_no_typo_of_it() -> None:
    """"preciosa" is "precios" + a letter: a word of its own; a doubled last letter or a plural is a typo or a
    form of the keyword."""
    assert derived_word("preciosa", "precios")
    assert not derived_word("precioo", "precio")
    assert not derived_word("flavors", "flavor")
    assert not derived_word("preico", "precio")


def test_praise_with_a_price_word_inside_asks_no_price() -> None:
    """"preciosa" praises; "precio", "precios" and a typo of them still ask the price."""
    r = _room("hogar_es")
    cafetera = link_of(r, "Cafetera")
    assert intents(r, "la cafetera es preciosa") == [("chitchat", None, None, None)]
    assert intents(r, "la cafetera precio?") == [("price", cafetera, None, None)]
    assert intents(r, "precios de la cafetera") == [("price", cafetera, None, None)]
    assert intents(r, "preico de la cafetera?") == [("price", cafetera, None, None)]


def test_a_typo_reads_only_a_keyword_of_the_comments_language() -> None:
    """An English comment's "loves" is no typo of the Spanish deal word "lotes"; a Spanish "lotes" still asks a
    deal."""
    r = _room("pets_en")
    assert intents(r, "my cat loves this tree") == [("chitchat", None, None, None)]
    es = _room("hogar_es")
    assert [k for k, *_ in intents(es, "hay lotes de toallas?")] == ["campaign"]


def test_a_foreign_keyword_is_read_in_a_mixed_comment() -> None:
    """A comment with other words of the keyword's language mixes them and keeps it ("tienen descuento")."""
    r = _room("electronics_en")
    got = intents(r, "do the earbuds tienen descuento today?")
    assert ("campaign", link_of(r, "Buds"), None, None) in got


def test_comment_language_by_marker_words() -> None:
    from hat_env.understanding.lexicon import lexicon

    markers = lexicon().markers
    assert comment_lang("is the dog bed big", markers) == "en"
    assert comment_lang("la cama es grande", markers) == "es"
    assert comment_lang("ok", markers) is None


# -- Spanish written as it sounds ---------------------------------------------------------------------------------

def test_spanish_written_as_it_sounds() -> None:
    """k for c before a/o/u and b for v spell the known word; a known word or an English comment stays."""
    from hat_env.understanding.lexicon import lexicon

    known = lexicon().known_words
    assert respell_spanish("kuanto bale la olla", known) == "cuanto vale la olla"
    assert respell_spanish("cuanto vale", known) == "cuanto vale"
    r = _room("pets_en")
    assert intents(r, "that bale of hay is huge lol") == [("chitchat", None, None, None)]


# -- variants after the name --------------------------------------------------------------------------------------

def test_a_variant_after_the_name_picks_the_one_meant() -> None:
    """"cuánto cuesta la freidora blanca y la sartén" asks two prices, no colour; the variant alone with the
    name asks nothing; with a question mark it asks whether that colour exists."""
    r = _room("hogar_es")
    fr, sa = link_of(r, "Freidora"), link_of(r, "Sartén")
    assert intents(r, "cuánto cuesta la freidora blanca y la sartén") == [("price", sa, None, None),
                                                                          ("price", fr, None, None)]
    assert intents(r, "me llevo la freidora blanca") == [("purchase", fr, None, None)]
    assert intents(r, "la freidora blanca") == [("chitchat", None, None, None)]
    assert intents(r, "la freidora blanca?") == [("spec", fr, None, "color")]


def test_a_feminine_colour_is_the_colour_of_the_catalog() -> None:
    """The catalog says "negro"; "la batidora negra" is that variant; a skin word "seca" is no finish value."""
    r = _room("hogar_es")
    bt = link_of(r, "Batidora")
    assert intents(r, "me llevo la batidora negra y la cafetera") == sorted(
        [("purchase", bt, None, None), ("purchase", link_of(r, "Cafetera"), None, None)], key=str)
    b = _room("belleza_es.yaml")
    assert intents(b, "el escudo solar sirve para piel seca? tengo la cara muy seca") == [
        ("spec", link_of(b, "Escudo Solar"), None, "skin_type")]


# -- praise ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("scenario,text", [
    ("deportes_es.yaml", "qué guapa la botella"),
    ("hogar_es", "qué bonitas las sábanas"),
    ("hogar_es", "que mona la cafetera"),
    ("appliances_en", "that fridge is stunning"),
])
def test_praise_asks_nothing(scenario: str, text: str) -> None:
    assert intents(_room(scenario), text) == [("chitchat", None, None, None)]


def test_praise_beside_a_question_keeps_the_question() -> None:
    """"qué guapa la mochila! viene en negro?" asks the colour; "qué bonita ..., cuánto cuesta" the price."""
    r = _room("deportes_es.yaml")
    mo, bo = link_of(r, "Mochila"), link_of(r, "Botella")
    assert intents(r, "qué guapa la mochila! viene en negro?") == [("spec", mo, None, "color")]
    assert intents(r, "qué bonita la botella, cuánto cuesta") == [("price", bo, None, None)]


# -- a bare number that is no link of the room; "me quedo la ..." -----------------------------------------------

def test_an_article_and_a_number_no_link_has_is_no_link() -> None:
    """"las zapas en la 43": a shoe size, not link 43 of a seven-link room; "el 3" still names link 3."""
    r = _room("deportes_es.yaml")
    veloz = link_of(r, "Veloz")
    assert intents(r, "las zapas veloz en la 43 cuanto cuestan") == [("price", veloz, None, None)]
    h = _room("hogar_es")
    assert intents(h, "el 3 cuánto cuesta") == [("price", 3, None, None)]


def test_me_quedo_el_is_a_purchase_and_quedo_no_typo_of_queda() -> None:
    """"me quedo la freidora y la sartén" takes both; "quedan sartenes?" still asks the stock."""
    r = _room("hogar_es")
    fr, sa = link_of(r, "Freidora"), link_of(r, "Sartén")
    assert intents(r, "me quedo la freidora y la sartén") == sorted(
        [("purchase", fr, None, None), ("purchase", sa, None, None)], key=str)
    assert intents(r, "quedan sartenes?") == [("stock", sa, None, None)]


# -- how often a part is replaced -------------------------------------------------------------------------------

def test_how_often_a_part_is_replaced_is_a_spec_question() -> None:
    """"cada cuánto hay que cambiar la cuchilla", "how often do i replace the tips": a spec of the product, not a
    return; how often one may return ("devolver", "return") stays an after-sales question."""
    h = _room("hogar_es")
    bt = link_of(h, "Batidora")
    assert intents(h, "cada cuánto hay que cambiar la cuchilla de la batidora") == [("spec", bt, None, "unknown")]
    assert intents(h, "se puede cambiar la batidora si no me gusta") == [("after_sales", bt, None, None)]
    assert [k for k, *_ in intents(h, "cada cuánto tiempo puedo devolver la batidora si no me gusta")] == ["after_sales"]
    e = _room("electronics_en")
    assert intents(e, "how often should i replace the earbuds tips") == [("spec", link_of(e, "Buds"), None, "unknown")]


# -- the Spanish verb "sale" --------------------------------------------------------------------------------------

def test_spanish_sale_is_the_verb_not_the_english_deal() -> None:
    """"la sartén sale barata?" asks what it comes to; an English "on sale" (also inside a Spanish comment that
    has an English word beside it) still asks the deal."""
    h = _room("hogar_es")
    sa, ca = link_of(h, "Sartén"), link_of(h, "Cafetera")
    assert intents(h, "la sartén sale barata?") == [("price", sa, None, None)]
    assert intents(h, "la cafetera on sale?") == [("campaign", ca, None, None)]
    e = _room("electronics_en")
    assert intents(e, "is the speaker on sale") == [("campaign", link_of(e, "Speaker"), None, None)]


def test_how_much_with_a_variant_after_the_name_asks_the_price() -> None:
    """"how much is the speaker in blue": the price of that one (a colour keyword, not only a catalog value, picks
    it); "does the speaker come in blue" still asks the colour."""
    e = _room("electronics_en")
    sp = link_of(e, "Speaker")
    assert intents(e, "how much is the speaker in blue") == [("price", sp, None, None)]
    assert intents(e, "price of the earbuds in white?") == [("price", link_of(e, "Buds"), None, None)]
    assert intents(e, "does the speaker come in blue") == [("spec", sp, None, "color")]
    h = _room("hogar_es")
    assert intents(h, "cuánto cuesta la freidora en negro") == [("price", link_of(h, "Freidora"), None, None)]
    assert intents(h, "la freidora en negro?") == [("spec", link_of(h, "Freidora"), None, "color")]
