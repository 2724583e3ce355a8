"""Which product a reply names (branch mention16).

- A word one title gives as a name (its first word, head noun, last pair) that other products have only in their
  shared brand names the titled product: "el Azahar" of "Azahar de Sevilla Eau de Parfum" (brand Casa Azahar, like
  the house's other scent) is that perfume. A word two titles give stays shared and names neither.
- A Chinese title word that labels a measure in the title ("净重5斤", "单果4-5斤"), when other products' attributes
  use that word, is the label, not the product's name: "3斤净重" names no product.
- A Chinese title's head character with a noun suffix of the locale (``head_noun_suffixes``: 子, 果) names the
  product ("裤子" for the 牛仔裤, "芒果" for a 贵妃芒), unless two titles form the same word ("饼子" of two tea cakes).

Built on built-in rooms, dev rooms and one calibration room at seed 7, which no labelled set uses; the facts each
case relies on are read from the room's own data.
"""

from __future__ import annotations

from pathlib import Path

from hat_env.scoring.claims.facts import RoomFacts
from hat_env.scoring.claims.mentions import find_mentions
from hat_env.scoring.claims.read import Reading
from hat_env.scoring.claims.vocab import load_vocab
from hat_env.sim.room import RoomState
from hat_env.types import Intent
from tests.rooms import bad, room

CAL_ROOMS = Path(__file__).resolve().parent.parent / "scenarios" / "calibration" / "rooms"
SHENGXIAN = CAL_ROOMS / "shengxian_zh.yaml"
BELLEZA = CAL_ROOMS / "belleza_es.yaml"


def _named(r: RoomState, text: str) -> list[tuple[str, tuple[int, ...]]]:
    """(words, links) of each product reference the grader finds in ``text`` (room ``r``)."""
    rd = Reading(text, r, r.locale)
    return [(rd.text[m.start : m.end], tuple(r.by_id[p].link for p in m.pids)) for m in rd.mentions
            if m.how == "name"]


def _pay(r: RoomState, link: int) -> float:
    """What the viewer pays for ``link`` now."""
    return RoomFacts(r, load_vocab(r.locale)).of(r.by_link[link].product_id).effective


def _euros(x: float) -> str:
    """``x`` written the Spanish way ("89,99")."""
    return f"{x:.2f}".replace(".", ",")


# -- a title's name word over a shared brand -------------------------------------------------------------------------
def test_title_word_beats_a_brand_other_products_share() -> None:
    r = room("hogar_es", 7, 100.0)
    assert r.by_link[2].brand == r.by_link[6].brand == "Airela" and "Airela" in r.by_link[2].title
    assert "Airela" not in r.by_link[6].title
    assert _named(r, "La Airela te deja las patatas crujientes.") == [("Airela", (2,))]


def test_line_name_that_is_also_the_house_brand_names_its_title() -> None:
    r = room(BELLEZA, 7, 100.0)
    scents = [p for p in r.products if "Azahar" in p.brand]
    assert len(scents) == 2 and [p.link for p in scents if p.title.startswith("Azahar")] == [3]
    assert _named(r, "El Azahar huele a neroli y bergamota.") == [("Azahar", (3,))]


def test_price_said_with_the_line_name_is_checked_on_that_product() -> None:
    r = room(BELLEZA, 7, 100.0)
    ask = Intent("price", link=4)
    scent = _pay(r, 3)
    assert scent != _pay(r, 4)
    assert bad(f"La de brisa la vemos luego; el Azahar te sale en {_euros(scent)} €.", r, ask) == []
    assert bad(f"La de brisa la vemos luego; el Azahar te sale en {_euros(scent + 6)} €.", r, ask)


def test_a_brand_two_titles_write_names_neither() -> None:
    r = room("electronics_en", 7, 100.0)
    assert r.by_link[2].title.startswith("Voltcore") and r.by_link[5].title.startswith("Voltcore")
    assert _named(r, "Voltcore gear ships fast.") == []


def test_a_brand_word_among_descriptors_stays_shared() -> None:
    r = room("hogar_es", 7, 100.0)
    assert r.by_link[3].brand == r.by_link[5].brand == "Nube"
    assert ("Nube", (3,)) not in _named(r, "Lo de Nube llega en dos días.")


# -- a title's measure label ------------------------------------------------------------------------------------------
def test_measure_label_of_a_title_is_no_name() -> None:
    r = room(SHENGXIAN, 7, 100.0)
    assert "净重" in r.by_link[1].title and "net_weight" in r.by_link[4].specs
    assert all(w != "净重" for w, _ in _named(r, "这箱苹果10斤净重，很压秤"))
    assert all(w != "单果" for w, _ in _named(r, "苹果单果直径八厘米多"))


def test_measure_said_after_a_label_word_belongs_to_the_named_product() -> None:
    r = room(SHENGXIAN, 7, 100.0)
    ask = Intent("spec", link=4, attr="net_weight")
    assert r.by_link[4].specs["net_weight"] == "5kg"
    assert bad("苹果是10斤净重的，整箱发", r, ask) == []
    assert bad("苹果是8斤净重的，整箱发", r, ask)


# -- a head character with a noun suffix ------------------------------------------------------------------------------
def test_head_character_with_noun_suffix_names_the_product() -> None:
    r = room("apparel_flash_zh", 7, 100.0)
    assert r.by_link[3].title.endswith("牛仔裤")
    assert ("裤子", (3,)) in _named(r, "裤子是高腰的，显腿长")
    mango = room(SHENGXIAN, 7, 100.0)
    assert ("芒果", (1,)) in _named(mango, "芒果今天很甜")


def test_price_of_a_product_named_by_its_head_noun() -> None:
    r = room("apparel_flash_zh", 7, 100.0)
    ask = Intent("price", link=1)
    jeans = _pay(r, 3)
    assert jeans != _pay(r, 1)
    assert bad(f"羽绒服先不说，裤子到手{jeans:g}元", r, ask) == []
    assert bad(f"羽绒服先不说，裤子到手{jeans + 30:g}元", r, ask)


def test_a_head_word_two_titles_form_names_neither() -> None:
    r = room("chaye_zh.yaml", 7, 100.0)
    cakes = [p.link for p in r.products if "饼" in p.title]
    assert len(cakes) == 2
    assert _named(r, "饼子都压得很紧实") == []
    assert find_mentions("饼子都压得很紧实", r, load_vocab("zh_CN")) == []
