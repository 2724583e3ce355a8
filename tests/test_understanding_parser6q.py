"""One test per fix of the parser6q pass (what a comment asks: several questions, run-ons, implicit questions, typos,
slang, value words), on the built-in rooms, the calibration rooms, the test rooms and the new room music_en, all at
seed 8612 (no labelled set uses it). Expectations are read from the room data (``python
scenarios/calibration/facts.py room SCENARIO 8612 100``)."""

from __future__ import annotations

from pathlib import Path

from hat_env.types import Intent
from rooms import parser, room

DATA = Path(__file__).parent / "data"
CAL = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"
SEED = 8612
ROOMS = {s: room(s, SEED) for s in ("beauty_zh", "healthfood_zh", "apparel_flash_zh", "groceries_zh",
                                    "electronics_en", "pets_en", "appliances_en", "hogar_es")}
ROOMS.update({n: room(str(CAL / f"{n}.yaml"), SEED) for n in ("muying_zh", "outdoor_en", "shuma_zh", "deportes_es",
                                                               "jiafang_zh")})
ROOMS.update({n: room(str(DATA / "rooms" / f"{n}.yaml"), SEED) for n in ("music_en", "bedding_en", "cycle_en")})
parse = parser(ROOMS)


def spec(link: int, attr: str = "unknown") -> Intent:
    return Intent("spec", link=link, attr=attr)


def test_two_questions_no_spec_names_in_two_clauses_are_two() -> None:
    """A question about a product that names nothing else, then a later clause asking something else: two
    spec(unknown) questions (the first made by the comment-wide rule, the second carried to its product)."""
    assert parse("beauty_zh", "洁面乳能卸妆吗 会不会紧绷") == [spec(6), spec(6)]
    assert parse("hogar_es", "la cafetera hace espuma? hace capuchino?") == [spec(4), spec(4)]
    # one clause asks once
    assert parse("beauty_zh", "洁面乳能卸妆吗") == [spec(6)]


def test_two_unknown_questions_joined_by_and_are_two() -> None:
    """Two parts of one clause joined by a clause joiner, each asking something no spec names."""
    assert parse("electronics_en", "does the charger get hot and is it foldable") == [spec(5), spec(5)]
    assert parse("music_en", "is the ukulele good for kids and does it stay in tune") == [spec(2), spec(2)]


def test_a_later_clause_repeating_a_word_asks_the_same_question() -> None:
    """"维C孩子能吃吗 几岁能吃": the later clause repeats 能吃, it asks the question again, not a second one; a later
    clause with words of its own is a second question."""
    assert parse("healthfood_zh", "维C孩子能吃吗 几岁能吃") == [spec(1)]
    assert parse("healthfood_zh", "鱼油一天吃几粒 孕妇能吃吗") == [spec(3), spec(3)]


def test_an_inversion_right_after_a_quantity_lead_is_one_question() -> None:
    """"... and how much is it": the run-on cut does not fall between "how much" and "is it"."""
    assert parse("appliances_en", "is the robot vacuum good for pet hair and how much is it") == [
        spec(5), Intent("price", link=5)]


def test_a_stock_phrase_written_around_a_name_asks_the_stock() -> None:
    """"any cat food left" is "any left" with the name inside; "还有口红吗" is "还有吗"; a deal word in between asks
    the deal ("any cat food deals left")."""
    assert parse("pets_en", "any cat food left") == [Intent("stock", link=3)]
    assert parse("music_en", "any capos left") == [Intent("stock", link=6)]
    assert parse("beauty_zh", "还有口红吗") == [Intent("stock", link=2)]
    assert parse("pets_en", "any cat food deals left") == [Intent("campaign", link=3)]


def test_spanish_stock_in_the_past_tense_and_restocking_verbs() -> None:
    """"se agotó", "reponéis": the locale's stock words (es_ES.yaml)."""
    assert parse("hogar_es", "la batidora se agotó?") == [Intent("stock", link=6)]
    assert parse("hogar_es", "¿cuándo reponéis la batidora de vaso?") == [Intent("stock", link=6)]


def test_a_question_word_after_a_clause_joiner_makes_a_question() -> None:
    """"piano price? also does it come w a stand": the clause opened by "also" asks something of its own, once."""
    assert parse("music_en", "piano price? also does it come w a stand") == [Intent("price", link=3), spec(3)]


def test_works_with_is_an_ability_word() -> None:
    """"trainer work with zwift": an unpunctuated question about what the product works with."""
    assert parse("cycle_en", "trainer work with zwift") == [spec(5)]


def test_a_value_word_in_another_part_of_a_clause_asking_a_spec() -> None:
    """"the kestrel pack torso range and color options" style: a value or spec in each part of a clause joined by a
    joiner; "n" joins parts like "and" ("how much is the rain jacket n what sizes")."""
    assert parse("outdoor_en", "how much is the rain jacket n what sizes") == [
        Intent("price", link=6), spec(6, "size")]
    assert parse("electronics_en", "does the speaker come in blue and how long does the battery last") == [
        spec(4, "color"), spec(4, "battery")]


def test_a_follow_up_lead_right_after_a_question_particle_opens_a_clause() -> None:
    """"洁面乳孕妇可以用吗还有保质期": 还有 after 吗 starts a new question (no particle after it), so the first clause's
    ability question is its own; "口红还有吗" stays one stock question."""
    assert parse("beauty_zh", "洁面乳孕妇可以用吗还有保质期") == [spec(6), spec(6, "shelf_life")]
    assert parse("beauty_zh", "口红还有吗") == [Intent("stock", link=2)]


def test_spanish_suitability_and_size_verbs() -> None:
    """"vale para" is an ability word; "cuánto miden" asks the size (es_ES.yaml)."""
    assert parse("hogar_es", "¿la sartén vale para vitrocerámica y cuánto pesa?") == [spec(1), spec(1, "weight")]
    assert parse("hogar_es", "las toallas son de algodón de verdad y cuánto miden") == [
        spec(5, "material"), spec(5, "size")]


def test_after_a_closed_spec_question_a_later_clause_asks_its_own() -> None:
    """"围巾是纯羊毛吗 扎不扎人": after a yes/no spec question the later clause is a new question; after an open one
    ("坚果里面有啥", open_question_words) it goes on asking that spec ("有没有花生")."""
    assert parse("apparel_flash_zh", "围巾是纯羊毛吗 扎不扎人") == [spec(5, "material"), spec(5)]
    assert parse("groceries_zh", "坚果里面有啥 有没有花生") == [spec(5, "ingredients")]


def test_a_choice_word_or_another_products_value_leaves_a_later_clause_its_own() -> None:
    """"饭前还是饭后": 还是 that compares no two products is no keyword; "goma" (a value of the dumbbells) says
    nothing about the mat: each later clause is a question of its own."""
    assert parse("healthfood_zh", "益生菌冲着喝还是直接吃 饭前还是饭后") == [spec(4), spec(4)]
    assert parse("deportes_es", "¿la esterilla resbala? ¿huele a goma?") == [spec(2), spec(2)]


def test_an_opinion_beside_another_question_about_the_product_is_no_question_of_its_own() -> None:
    """"q tal la sarten, se pega?" asks whether it sticks (opinion_words); alone, "q tal la cafetera" asks about it."""
    assert parse("hogar_es", "q tal la sarten, se pega?") == [spec(1)]
    assert parse("hogar_es", "q tal la cafetera") == [spec(4)]


def test_a_clause_naming_a_product_that_asks_with_words_of_its_own_beside_other_questions() -> None:
    """"大米是新米吗 哪里产的": the first clause asks something no keyword names (新米) beside the origin question;
    "dog bed cover washable? how big is it" likewise; a follow-up ("粉底液呢") or an opinion ("worth it?") does not."""
    assert parse("groceries_zh", "大米是新米吗 哪里产的") == [spec(4), spec(4, "origin")]
    assert parse("pets_en", "dog bed cover washable? how big is it") == [spec(5), spec(5, "dimensions")]
    assert parse("beauty_zh", "口红多少钱 粉底液呢") == [Intent("price", link=2), Intent("price", link=4)]
    assert parse("electronics_en", "the earbuds worth it? how much") == [Intent("price", link=1)]


def test_battery_asked_per_charge() -> None:
    """"how long do the buds last on one charge" asks the battery (en_US.yaml battery words)."""
    assert parse("electronics_en", "how long do the buds last on one charge and do they come in white") == [
        spec(1, "battery"), spec(1, "color")]


def test_a_count_after_a_question_whose_answer_is_an_amount_asks_that_amount() -> None:
    """"litter box returns? how many days": the count asks the return window, no spec of its own."""
    assert parse("pets_en", "litter box returns? how many days") == [Intent("after_sales", link=6)]


def test_chinese_stock_gone_and_when_back() -> None:
    """"葡萄没了吗 什么时候有": one stock question (zh_CN.yaml stock words); "什么时候有活动" asks the deal."""
    assert parse("groceries_zh", "葡萄没了吗 什么时候有") == [Intent("stock", link=3)]
    assert parse("beauty_zh", "口红什么时候有优惠") == [Intent("campaign", link=2)]


def test_emoji_written_for_a_chinese_character() -> None:
    """"口红🈶货吗": 🈶 is 有 (fold.py), "🈚货" is 无货; neither separates two clauses as other emoji do."""
    assert parse("beauty_zh", "口红🈶货吗") == [Intent("stock", link=2)]
    assert parse("beauty_zh", "口红🈚货了吗") == [Intent("stock", link=2)]


def test_slang_for_and_and_for() -> None:
    """"how much 4 the earbuds" asks the price; "earbuds n speaker price" asks both (en_US.yaml)."""
    assert parse("electronics_en", "how much 4 the earbuds") == [Intent("price", link=1)]
    assert parse("electronics_en", "earbuds n speaker price") == [Intent("price", link=1), Intent("price", link=4)]


def test_short_word_typos_and_dialect_particles() -> None:
    """Misspellings listed in the locale files: "prce", "how mch", "wite", "多小钱", "还有伐"; "work on" asks."""
    assert parse("electronics_en", "earbuds prce?") == [Intent("price", link=1)]
    assert parse("electronics_en", "how mch are the earbuds") == [Intent("price", link=1)]
    assert parse("electronics_en", "do u have the earbuds in wite") == [spec(1, "color")]
    assert parse("beauty_zh", "口红多小钱") == [Intent("price", link=2)]
    assert parse("beauty_zh", "粉底液还有伐") == [Intent("stock", link=4)]
    assert parse("appliances_en", "vacuum work on hardwood and carpet") == [spec(5)]


def test_a_final_particle_glued_to_more_text_ends_its_question() -> None:
    """"洁面乳能卸妆吗多少钱" is two questions (clause_final_particles); "卫衣有黑色吗还有货吗" asks the colour and the
    stock (the value question is no qualifier of the stock once it is a clause of its own)."""
    assert parse("beauty_zh", "洁面乳能卸妆吗多少钱") == [spec(6), Intent("price", link=6)]
    assert parse("apparel_flash_zh", "卫衣有黑色吗还有货吗") == [spec(2, "color"), Intent("stock", link=2)]


def test_a_group_asked_before_and_after_asks_each_end_its_own() -> None:
    """"cuánto cuesta la freidora y la sartén tiene garantía?": the price is the fryer's, the warranty the pan's; a
    group asked on one side only shares the question ("la sartén y la freidora tienen garantía")."""
    assert parse("hogar_es", "cuánto cuesta la freidora y la sartén tiene garantía?") == [
        Intent("price", link=2), spec(1, "warranty")]
    assert parse("hogar_es", "la sartén y la freidora tienen garantía") == [spec(1, "warranty"), spec(2, "warranty")]


def test_spanish_no_longer_there() -> None:
    """"ya no hay", "ya no está": stock questions (es_ES.yaml)."""
    assert parse("hogar_es", "la batidora ya no está?") == [Intent("stock", link=6)]


def test_chinese_arrival_and_freshness_words() -> None:
    """"車厘子新鮮嗎 幾天能到" (traditional): freshness asks the shelf life, 几天能到 the shipping (zh_CN.yaml)."""
    assert parse("groceries_zh", "車厘子新鮮嗎 幾天能到") == [spec(2, "shelf_life"), Intent("shipping", link=2)]


def test_a_shared_name_narrowed_by_the_attribute_or_value_asked() -> None:
    """"guitar" is in three titles (the guitar, the guitar amp, the guitar capo): a spec only one of them has
    ("scale length"), or a value only one of them holds ("sunburst"), says which; a spec several have asks each; a
    condition word in a spec question about a shared name is part of it ("does the tent sleep")."""
    assert parse("music_en", "guitar scale length") == [spec(1, "scale_length")]
    assert parse("music_en", "u got the guitar in sunburst") == [spec(1, "color")]
    assert parse("music_en", "guitar sunburst still in stock?") == [Intent("stock", link=1)]
    assert parse("outdoor_en", "how many people does the tent sleep") == [spec(1, "sleeps"), spec(7, "sleeps")]


def test_a_hyphenated_value_written_with_a_space() -> None:
    """"is the power bank usb c": the value word "usb-c" of its connectivity, written with a space."""
    assert parse("electronics_en", "is the power bank usb c") == [spec(2, "connectivity")]


def test_a_spec_word_in_praise_asks_nothing() -> None:
    """"口红颜色好好看" praises (a chitchat word, no question); "口红颜色好看吗" asks the shade."""
    assert parse("beauty_zh", "口红颜色好好看") == [Intent("chitchat")]
    assert parse("beauty_zh", "口红颜色好看吗") == [spec(2, "shade")]


def test_emoji_that_ask_a_spec_or_the_price() -> None:
    """🔋 asks the battery, 🎨 the colour, 💶 the price (locale words), beside a product name."""
    assert parse("electronics_en", "earbuds 🔋?") == [spec(1, "battery")]
    assert parse("electronics_en", "watch 🎨?") == [spec(3, "color")]
    assert parse("hogar_es", "sartén 💶?") == [Intent("price", link=1)]


def test_a_unit_the_product_has_no_value_in_asks_an_unknown_spec() -> None:
    """"la freidora cuántos watios tiene": the fryer has no spec in watts (units.yaml: watios), a spec(unknown);
    the air fryer's 1700 W is its power."""
    assert parse("hogar_es", "la freidora cuantos watios tiene") == [spec(2)]
    assert parse("appliances_en", "air fryer how many watts") == [spec(1, "power")]


def test_a_price_word_beside_the_shipping_named_asks_the_fee() -> None:
    """"cuánto cuesta el envío", "口红运费多少钱": the shipping fee (one shipping question); a price "with shipping"
    or a shipping question of its own ("几天到") leaves the price."""
    assert parse("hogar_es", "envio de las sabanas cuanto es") == [Intent("shipping", link=3)]
    assert parse("beauty_zh", "口红运费多少钱") == [Intent("shipping", link=2)]
    assert parse("electronics_en", "speaker price with shipping") == [Intent("price", link=4), Intent("shipping", link=4)]
    assert parse("groceries_zh", "车厘子什么价几天到") == [Intent("price", link=2), Intent("shipping", link=2)]


def test_spanish_comes_back() -> None:
    """"la batidora vuelve? la quiero": stock and purchase (es_ES.yaml vuelve)."""
    assert parse("hogar_es", "la batidora vuelve? la quiero") == [Intent("stock", link=6), Intent("purchase", link=6)]


def test_a_size_asked_of_a_product_whose_key_names_the_size() -> None:
    """"what sizes" of the helmet is its frame_size, of the sheet set its bed_size (the one key with the attribute's
    name as a word, before a fallback to its weight); "how big is the dog bed" keeps the dimensions fallback."""
    assert parse("cycle_en", "helmet what sizes") == [spec(4, "frame_size")]
    assert parse("bedding_en", "what size is the sheet set and how deep") == [spec(1, "bed_size"), spec(1, "depth")]
    assert parse("pets_en", "how big is the dog bed") == [spec(5, "dimensions")]


def test_a_spec_word_of_several_attributes_asks_the_one_the_product_has() -> None:
    """"四件套什么面料": 面料 names the default material and the room's fabric; the set has a fabric, so no unknown
    material question beside it (the later clause is a question of its own)."""
    assert parse("jiafang_zh", "四件套什么面料 会掉色吗") == [spec(3, "fabric"), spec(3)]


def test_a_value_word_written_in_pinyin() -> None:
    """"niu rou gan you xiang la de ma": 香辣 in pinyin, with or without spaces, is the jerky's flavour value."""
    assert parse("groceries_zh", "niu rou gan you xiang la de ma") == [spec(6, "flavor")]
    assert parse("groceries_zh", "niu rou gan you xiangla de ma") == [spec(6, "flavor")]


def test_english_stock_words_almost_gone() -> None:
    """"cat food almost gone?": a stock question (en_US.yaml)."""
    assert parse("pets_en", "cat food almost gone?") == [Intent("stock", link=3)]


def test_a_clause_after_a_question_mark_is_not_a_question_by_that_mark() -> None:
    """"whiskerwell almost gone?? i need 2 bags": the "?" ends the first clause only, so the second is a purchase
    by count; a name alone after a question that named nothing is what it asks about ("does it charge fast? the
    65w one")."""
    assert parse("pets_en", "cat food almost gone?? i need 2 bags") == [
        Intent("stock", link=3), Intent("purchase", link=3)]
    assert parse("electronics_en", "does it get hot? the charger") == [spec(5)]


def test_bare_stock_words_ask_the_stock_only_alone() -> None:
    """"hay freidora?", "口红有吗", "有口红吗" ask the stock (bare_stock_words); beside a value, a deal or shipping, or
    after a spec question, they ask what those name ("hay envio gratis?", "牛仔裤腰围有几码 26的有吗")."""
    assert parse("hogar_es", "hay freidora?") == [Intent("stock", link=2)]
    assert parse("beauty_zh", "有口红吗") == [Intent("stock", link=2)]
    assert parse("hogar_es", "hay envio gratis?") == [Intent("shipping")]
    assert parse("hogar_es", "la sartén hay en rojo?") == [spec(1, "color")]
    assert parse("apparel_flash_zh", "牛仔裤腰围有几码 26的有吗") == [spec(3, "size")]
