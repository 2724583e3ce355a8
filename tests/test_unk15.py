"""Honest "the data does not say" answers (issue 12, unk15): a viewer asks about something the product data does not
have, and the host says so, in any of the many ways real hosts put it ("the listing doesn't mention", "I'm not
seeing that in the details", "详情页没有注明", "说不准", "ese dato no lo tengo", "no te lo podría asegurar"). That
answers the question and states nothing false. Next to them, what must not change: an invented value stated as fact
still fails accuracy, "I don't know" alone does not answer a question whose value the data has, and an
availability word said of information ("that information isn't available") is no stock claim, while one said of a
product still is.

The phrasings are written for these tests (none is taken from a calibration file); the rooms are built-in ones at a
seed no labelled set uses (tests/rooms.py).
"""

from __future__ import annotations

import pytest

from hat_env.scoring.claims.vocab import VOCAB_DIR, load_vocab
from hat_env.sim.room import RoomState
from hat_env.types import Intent
from hat_env.yamlio import load_yaml
from tests.rooms import room, scores

PETS = room("pets_en", 5, 100.0)  # link 3: adult indoor cat food (its FAQ: hairballs); link 1 in stock, link 5 sold out
TECH = room("electronics_en", 5, 100.0)  # link 2: the power bank (FAQ: planes, phone charges); link 1: battery known
HOGAR = room("hogar_es", 5, 100.0)  # link 5: the towels (FAQ: lint); link 1 weight known; link 6 sold out
HEALTH = room("healthfood_zh", 5, 100.0)  # link 1: vitamin C tablets (FAQ: dose, colds); shelf_life known
BEAUTY = room("beauty_zh", 5, 100.0)  # link 5: the niacinamide serum, 30ml, all skin types


def _scores(r: RoomState, text: str, reply: str, *intents: Intent) -> tuple[float, float]:
    """(accuracy, effectiveness) of ``reply`` in room ``r`` to a viewer who wrote ``text`` with ``intents``."""
    return scores(r, reply, *intents, text=text)


def _unknown(link: int) -> Intent:
    """A spec question on ``link`` about an attribute the data does not have."""
    return Intent(kind="spec", link=link, attr="unknown")


@pytest.mark.parametrize(
    "reply",
    [
        "Not stated on the listing, sorry!",
        "I wouldn't want to guess - the bag only says adult cats.",
        "I'm not seeing that in the details, it's an adult indoor formula.",
        "I can't find that in the listing.",
        "Unclear from the listing, sorry.",
        "Not something I can confirm, sorry!",
        "That info isn't something I have.",
        "I'm not certain, it's labelled for adult cats.",
        "Hmm, the product info is unclear on that.",
        "Good question! Nothing about kittens on the product page, it's for adult cats.",
        "No way to verify that from here, sorry.",
        "Hard to say, the label is for adult cats.",
    ],
)
def test_english_ways_of_saying_the_data_does_not_say(reply: str) -> None:
    """An honest "the data does not say" about an attribute the cat food's data lacks answers, truthfully."""
    assert _scores(PETS, "is the indoor cat food ok for a kitten?", reply, _unknown(3)) == (1.0, 1.0)


@pytest.mark.parametrize(
    "reply",
    [
        "No encuentro ese dato, lo siento.",
        "No tengo forma de confirmarlo, son de algodón 100%.",
        "La información del producto no lo aclara.",
        "Desconozco si aguantan la secadora.",
        "No te lo podría asegurar, la ficha solo dice algodón 100%.",
        "Eso no viene detallado en la ficha.",
        "Ese dato no lo tengo, perdona.",
        "Ni idea, la verdad.",
    ],
)
def test_spanish_ways_of_saying_the_data_does_not_say(reply: str) -> None:
    """The towels' data says nothing of tumble drying: saying so, in other words, answers."""
    assert _scores(HOGAR, "¿las toallas se pueden meter en la secadora?", reply, _unknown(5)) == (1.0, 1.0)


@pytest.mark.parametrize(
    "reply",
    [
        "有机与否商品页没有注明哦，成分是维生素C和山梨糖醇",
        "目前没看到相关的说明哦",
        "这个不太确定哈",
        "具体的我也说不准",
        "这个没办法确认哦",
        "这个我这边看不到哦",
        "这个没法保证哈，详情里只写了成分",
        "这个问题我回答不了哦",
        "页面上没显示是不是有机的",
    ],
)
def test_chinese_ways_of_saying_the_data_does_not_say(reply: str) -> None:
    """Whether the vitamin C is organic is not in its data: saying so answers."""
    assert _scores(HEALTH, "维C片是不是有机的", reply, _unknown(1)) == (1.0, 1.0)


@pytest.mark.parametrize(
    ("r", "text", "link", "reply"),
    [
        (HEALTH, "维C片是有机的吗", 1, "是的，这款是有机认证的维C哦～"),
        (TECH, "does the power bank do wireless charging?", 2, "Yep, it supports 15W wireless charging."),
    ],
)
def test_an_invented_value_still_fails(r: RoomState, text: str, link: int, reply: str) -> None:
    """A value the data does not have, stated as fact, is not accurate and answers nothing."""
    assert _scores(r, text, reply, _unknown(link)) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("r", "text", "intent", "reply"),
    [
        (TECH, "battery life on the volt buds?", Intent(kind="spec", link=1, attr="battery"),
         "Not sure about the battery, sorry!"),
        (TECH, "battery life on the volt buds?", Intent(kind="spec", link=1, attr="battery"),
         "I'm not seeing that in the details."),
        (HEALTH, "维C保质期多久", Intent(kind="spec", link=1, attr="shelf_life"), "这个不太确定哦"),
        (HOGAR, "¿cuánto pesa la sartén?", Intent(kind="spec", link=1, attr="weight"),
         "No te lo podría asegurar, lo siento."),
    ],
)
def test_not_knowing_a_value_the_data_has_does_not_answer(r: RoomState, text: str, intent: Intent,
                                                          reply: str) -> None:
    """"I don't know" with nothing else, about a spec whose value the data has: nothing false, no answer."""
    assert _scores(r, text, reply, intent) == (1.0, 0.0)


@pytest.mark.parametrize(
    ("r", "text", "intent", "reply", "want"),
    [
        (PETS, "ok for kittens?", _unknown(3), "We don't have that information available, sorry.", (1.0, 1.0)),
        (PETS, "ok for kittens?", _unknown(3), "That detail isn't available, it's an adult formula.", (1.0, 1.0)),
        (HOGAR, "¿sirven para secadora?", _unknown(5), "No tengo esa información disponible.", (1.0, 1.0)),
        # said of a product, availability is still checked against its stock
        (PETS, "is the dog bed in stock?", Intent(kind="stock", link=5), "Sorry, the dog bed isn't available right now.",
         (1.0, 1.0)),
        (PETS, "is the dog food in stock?", Intent(kind="stock", link=1), "Sorry, the dog food isn't available right now.",
         (0.0, 0.0)),
        (HOGAR, "¿la batidora está disponible?", Intent(kind="stock", link=6), "Sí, la batidora está disponible.",
         (0.0, 0.0)),
    ],
)
def test_availability_of_information_is_no_stock_claim(r: RoomState, text: str, intent: Intent, reply: str,
                                                       want: tuple[float, float]) -> None:
    """"That information isn't available" says what the data lacks, not that a product is sold out."""
    assert _scores(r, text, reply, intent) == want


def test_an_opinion_question_in_chinese_is_answered_by_a_true_fact() -> None:
    """"好不好" / "怎么样" asks an opinion: a true fact of the product answers it (as "好用吗" does)."""
    for text in ("烟酰胺精华好不好", "这个精华怎么样"):
        assert _scores(BEAUTY, text, "这款烟酰胺精华30ml，所有肤质都能用～", _unknown(5)) == (1.0, 1.0)


@pytest.mark.parametrize("locale", ["en_US", "es_ES", "zh_CN"])
def test_what_the_data_lacks_is_an_honest_unknown_written_once(locale: str) -> None:
    """Every ``data_lacks`` pattern is read as ``honest_unknown`` too, and no file writes one in both lists."""
    raw, _ = load_yaml(VOCAB_DIR / f"{locale}.yaml")
    lacks, hu = raw.get("data_lacks") or [], raw.get("honest_unknown") or []
    assert not set(lacks) & set(hu)
    v = load_vocab(locale)
    rx = v.rx["honest_unknown"]
    assert rx is not None
    for p in lacks:
        assert f"(?:{p})" in rx.pattern


@pytest.mark.parametrize(
    ("r", "text", "link", "reply", "want"),
    [
        # the pan's FAQ answers induction; the towels' data says nothing of tumble drying
        (HOGAR, "¿la sartén sirve para inducción?", 1, "La ficha no lo indica, lo siento.", (1.0, 0.0)),
        (HOGAR, "¿la sartén sirve para inducción?", 1, "Sí, sirve para inducción.", (1.0, 1.0)),
        (HOGAR, "¿las toallas se pueden meter en la secadora?", 5, "La ficha no lo indica, lo siento.", (1.0, 1.0)),
        # the power bank's FAQ answers flying with it, not wireless charging
        (TECH, "can i take the power bank on a plane?", 2, "The listing doesn't say, sorry.", (1.0, 0.0)),
        (TECH, "does the power bank support wireless charging?", 2, "The listing doesn't say, sorry.", (1.0, 1.0)),
        # the vitamin C's FAQ answers the daily dose, not whether it is organic
        (HEALTH, "维C一天吃几片", 1, "这个详情页没写哦", (1.0, 0.0)),
        (HEALTH, "维C是不是有机的", 1, "这个详情页没写哦", (1.0, 1.0)),
    ],
)
def test_the_data_does_not_say_only_when_its_faq_does_not(r: RoomState, text: str, link: int, reply: str,
                                                          want: tuple[float, float]) -> None:
    """"It doesn't say" answers a question the data does not answer; when the product's FAQ answers it (its
    question's words are the comment's), the data does say, and the honest-sounding reply answers nothing."""
    assert _scores(r, text, reply, _unknown(link)) == want


DRESS = room("apparel_flash_zh", 5, 100.0)  # link 4: the floral dress; its FAQ: "有内衬吗？" -> "有半身内衬，不透。"


@pytest.mark.parametrize(
    ("reply", "want"),
    [
        ("不透哦～", (1.0, 1.0)),  # one part of the FAQ's answer, word for word
        ("放心，不透的", (1.0, 1.0)),
        ("会透一点", (1.0, 0.0)),  # the opposite polarity restates nothing
        ("可以的", (1.0, 0.0)),  # a bare yes names nothing
    ],
)
def test_a_short_answer_that_is_one_part_of_the_faq_answers(reply: str, want: tuple[float, float]) -> None:
    """A reply of one content word that is a whole part of the product's FAQ answer restates it."""
    assert _scores(DRESS, "连衣裙会不会透光", reply, _unknown(4)) == want


@pytest.mark.parametrize(
    ("r", "text", "link", "reply", "want"),
    [
        # all the data says, said as such: the rest it does not say
        (PETS, "ok for kittens?", 3, "The listing only says it's for adult indoor cats.", (1.0, 1.0)),
        (PETS, "ok for kittens?", 3, "All the bag tells us is that it's an adult formula.", (1.0, 1.0)),
        (HEALTH, "维C片是不是有机的", 1, "详情页只标了成分，维生素C和山梨糖醇", (1.0, 1.0)),
        (HOGAR, "¿las toallas se pueden meter en la secadora?", 5, "En la descripción solo pone algodón 100%, lo siento.",
         (1.0, 1.0)),
    ],
)
def test_saying_all_the_data_says(r: RoomState, text: str, link: int, reply: str, want: tuple[float, float]) -> None:
    """"The listing only says X" is an honest "it does not say" about the rest."""
    assert _scores(r, text, reply, _unknown(link)) == want


@pytest.mark.parametrize(
    ("r", "text", "link", "reply"),
    [
        (TECH, "are the volt buds waterproof?", 1, "The listing only says they're fully waterproof for swimming."),
        (HEALTH, "维C片是不是有机的", 1, "详情页只写了是有机认证的"),
        (PETS, "ok for kittens?", 3, "The listing doesn't mention kittens, but it has 50% protein."),
    ],
)
def test_what_the_data_is_said_to_say_is_still_checked(r: RoomState, text: str, link: int, reply: str) -> None:
    """What "the listing only says" is followed by, and a fact beside an honest unknown, are checked as any fact
    is: a wrong one fails accuracy."""
    assert _scores(r, text, reply, _unknown(link))[0] == 0.0
