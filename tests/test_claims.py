"""The claims engine: what a reply asserts, about which product, and whether the room data at the request's
moment says so. Rooms are the built-in scenarios (their data is the ground truth) plus one custom catalog."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from hat_env.envs.session import stream
from hat_env.scoring.claims import load_vocab, read_claims
from hat_env.scoring.claims.vocab import _compile
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario, load_scenario
from hat_env.types import Intent


def room(name: str, t: float = 100.0) -> RoomState:
    sc = load_scenario(name)
    r = RoomState(sc, stream(sc.seed, "catalog"))
    r.t = t
    return r


def bad(reply: str, r: RoomState, *intents: Intent) -> list[str]:
    """Reasons of the false or unsupported claims of ``reply``."""
    return [c.reason for c in read_claims(reply, r, intents=intents).bad]


EN = room("electronics_en")


@pytest.mark.parametrize(
    ("reply", "ok"),
    [
        ("Link 1 earbuds are forty-nine ninety-nine after the ten-dollar coupon", True),
        ("Link 1 earbuds are fifty dollars with the coupon", False),  # 49.99: rounding changes a price
        ("The power bank has a two-year warranty", True),  # 24 months
        ("The earbuds have a two-year warranty", False),  # 12 months
        ("The watch weighs 32 grams, the power bank 0.35 kilos", True),
        ("Link 1 battery: eight hours, thirty-two with the case", True),
        ("The speaker runs about twelve hours per charge", False),
        ("The watch is $99 with the launch deal and the coupon", True),  # 109 flash - 10 at t=100
        ("It's 10% off the $39.99 list price", True),  # power bank (asked) 35.99
    ],
)
def test_numbers_in_any_form_against_their_product(reply: str, ok: bool) -> None:
    assert (not bad(reply, EN, Intent("price", link=2))) is ok


def test_each_value_is_checked_against_its_own_product() -> None:
    assert not bad("The earbuds are $49.99 and the power bank is $35.99.", EN)
    reasons = bad("The earbuds are $35.99 and the power bank is $49.99.", EN)
    assert len(reasons) == 2 and "link 1" in reasons[0] and "link 2" in reasons[1]
    # a product nobody asked about is checked too
    assert bad("The power bank is $35.99; the speaker on link 4 is $40.", EN, Intent("price", link=2))


def test_campaigns_at_the_request_moment() -> None:
    late = room("electronics_en", 700.0)
    assert not bad("The launch deal is still live on the watch!", EN)
    assert any("no flash sale" in x for x in bad("The launch deal is still live on the watch!", late))
    # a coupon whose threshold the price does not meet
    beauty = room("beauty_zh")
    reasons = bad("2号口红用满199减30的券，到手69元", beauty, Intent("price", link=2))
    assert any("needs 199" in x and "99" in x for x in reasons)
    # stating the coupon's terms with its condition is true
    assert not bad("2号口红99元，还不够满199减30哦，单买用不了这张券", beauty, Intent("campaign", link=2))
    # gifts belong to their product
    assert not bad("The power bank comes with a free USB-C cable", EN)
    assert bad("The charger comes with a free braided USB-C cable", EN)


def test_polarity_negation_and_questions() -> None:
    assert not bad("Not sold out at all, the Boom Mini is available!", EN)
    assert bad("Sorry, the Boom Mini is sold out", EN)
    assert bad("Sorry, the speaker can't be exchanged", EN)
    assert not bad("Is the speaker sold out? Nope, plenty left!", EN)
    assert bad("Free shipping on the stand!", EN)  # the stand's shipping is paid
    assert not bad("The stand ships within two days and shipping is $3.99", EN)


def test_features_come_from_the_products_own_data() -> None:
    intent = Intent("spec", link=3, attr="unknown")
    assert bad("Yes, the watch is water resistant to 50 meters", EN, intent)
    assert not bad("The listing doesn't give a water rating for the watch, so I won't guess", EN, intent)
    assert bad("No, the Volt Buds don't have noise cancelling", EN)  # FAQ: active noise cancelling
    assert not bad("The Volt Buds have active noise cancelling", EN)


def test_health_claims_and_denials() -> None:
    assert bad("It tracks your blood pressure", EN)
    assert not bad("No, it's not a medical device and it doesn't lower blood pressure.", EN)
    hf = room("healthfood_zh")
    assert not bad("维C片是膳食营养补充食品，不能治疗感冒，身体不舒服请及时就医哦", hf)
    assert bad("维C片能预防感冒，还能增强免疫力", hf)


def test_promises_beyond_the_data() -> None:
    assert bad("Order the charger now and it ships today!", EN)
    assert bad("Returns within a year, no questions asked!", EN)
    assert bad("Guaranteed to survive drops from any height.", EN)
    assert bad("500 sold in the last hour!", EN)
    hf = room("healthfood_zh")
    assert bad("5号已经挂好了，199元直接拍～", hf)  # sold out
    assert not bad("2号蛋白粉只剩最后3件了", hf)  # stock really is 3
    assert bad("1号维C只剩最后几件了", hf)  # stock 600


def test_spec_values_and_invented_values() -> None:
    assert not bad("The Boom Mini comes in blue or black", EN, Intent("spec", link=4, attr="color"))
    assert bad("The Boom Mini comes in red and black", EN, Intent("spec", link=4, attr="color"))
    beauty = room("beauty_zh")
    assert bad("2号有01正红、02豆沙、03奶茶、04枫叶红四个色", beauty, Intent("spec", link=2, attr="shade"))
    assert not bad("2号有01正红、02豆沙、03奶茶三个色", beauty, Intent("spec", link=2, attr="shade"))


def test_claims_quote_the_reply_as_written() -> None:
    rep = read_claims("3号防晒券后八十九块钱到手～", room("beauty_zh", 130.0), intents=[Intent("price", link=3)])
    price = [c for c in rep.claims if c.attribute == "price"]
    assert price and price[0].text == "八十九块钱" and price[0].verdict == "true" and price[0].product_id == "B003"


def _custom_room() -> RoomState:
    """A one-product room whose spec key no vocabulary names (scenario files will declare such keys, issue 14;
    here it is set on the room's own copy of the product)."""
    sc = Scenario.model_validate({
        "name": "custom", "locale": "en_US",
        "catalog": {"products": [{
            "product_id": "K1", "link": 1, "title": "Kettle Pro", "brand": "Brewly", "category": "home",
            "price": 30, "list_price": 30, "stock": 5}]},
    })
    r = RoomState(sc, random.Random(0))
    r.products[0].specs["boil_time"] = "4 minutes"
    return r


def test_attributes_are_read_from_the_data() -> None:
    """Spec keys the vocabulary never names are still checked by their values and units."""
    r = _custom_room()
    assert not bad("The kettle boils in four minutes", r)
    assert bad("The kettle boils in two minutes", r)


def test_vocabulary_is_data_and_checked() -> None:
    assert {"zh_CN", "en_US"} <= set(__import__("hat_env.scoring.claims", fromlist=["x"]).available_locales())
    assert load_vocab("en_GB").locale == "en_US"  # a locale without a file takes its language's
    with pytest.raises(ValueError, match="negation"):
        _compile(Path("broken.yaml"), {"negation": ["("]})
    # a pattern that repeats a repetition without bound (exponential backtracking on a crafted reply) is refused
    with pytest.raises(ValueError, match="broken.yaml: in_stock: .*repeats a repetition"):
        _compile(Path("broken.yaml"), {"in_stock": ["(in stock+)+$"]})
    assert _compile(Path("ok.yaml"), {"in_stock": ["in stock(?! soon)", "x{0,8}y"]}).rx["in_stock"] is not None


def test_every_vocab_file_loads_with_each_key_once(tmp_path, monkeypatch) -> None:
    """A word list written twice in a vocab file would silently lose its first copy (PyYAML keeps the last); the
    loader refuses it, naming the file, the key and both lines."""
    import pytest

    from hat_env.scoring.claims import vocab as vocab_mod
    from hat_env.yamlio import FileError

    load = vocab_mod.load_vocab.__wrapped__  # past the cache
    assert [load(loc).locale for loc in vocab_mod.available_locales()] == vocab_mod.available_locales()
    twice = tmp_path / "vocab"
    twice.mkdir()
    src = (vocab_mod.VOCAB_DIR / "en_US.yaml").read_text(encoding="utf-8")
    (twice / "en_US.yaml").write_text(src + "\nnegation: ['nope']\n", encoding="utf-8")
    monkeypatch.setattr(vocab_mod, "VOCAB_DIR", twice)
    with pytest.raises(FileError, match="duplicate key 'negation'"):
        load("en_US")
