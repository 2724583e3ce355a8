"""False fails on correct replies, twelfth pass (branch ffail12): mechanisms by which the grader failed true
replies, each with the correct wording next to a false look-alike so a loosening that lets a false statement
through fails here too.

Rooms: built-in rooms and the calibration rooms of scenarios/calibration/rooms; expectations are read from the
room data (``python scenarios/calibration/facts.py room ROOM SEED T``).
"""

from __future__ import annotations

from pathlib import Path

from hat_env.types import Intent

from rooms import bad, room

CAL_ROOMS = Path(__file__).parent.parent / "scenarios" / "calibration" / "rooms"


# --- a coupon's condition said as adding another item ----------------------------------------------------------


def test_adding_another_item_is_the_coupons_condition() -> None:
    # beauty_zh B002 口红 99元, 全店满199减30 (not met alone); B004 粉底液 229
    r = room("beauty_zh", 7001, 100)
    asked = Intent(kind="campaign", link=2)
    assert bad("2号口红99元，单件不够；再加一件4号粉底液一起买，合计328就能减30～", r, asked) == []
    assert bad("2号口红99元，再加一件4号粉底液（229），合计328就能减30～", r, asked) == []
    assert bad("2号口红下单直接满199减30，只要69元", r, asked) != []


def test_adding_a_listed_product_is_no_gift_but_a_gift_word_still_is() -> None:
    # beauty_zh: B002 has no gift campaign; B001's gift is 同款精华5ml小样×2
    r = room("beauty_zh", 7001, 100)
    assert bad("口红99元，再加一件4号粉底液一起下单～", r, Intent(kind="campaign", link=2)) == []
    assert bad("2号口红再加送一件4号粉底液", r, Intent(kind="campaign", link=2)) != []
    assert bad("1号精华送小样，再加一条毛巾", r, Intent(kind="campaign", link=1)) != []


# --- bundle terms ---------------------------------------------------------------------------------------------


def test_second_unit_at_half_price_is_a_quarter_off_the_pair() -> None:
    # belleza_es BZ05 Crema Calma 16,50 €: 2 units 25% off; bodega_es V005 turrón: 2x1 (2 units 50% off)
    crema = room(str(CAL_ROOMS / "belleza_es.yaml"), 7001, 100)
    asked = Intent(kind="campaign", link=5)
    assert bad("La crema Calma tiene la segunda unidad al 50%: dos por 24,75 €.", crema, asked) == []
    assert bad("La crema Calma va en 2x1, te llevas dos por 16,50 €.", crema, asked) != []
    assert bad("La crema Calma tiene la segunda unidad gratis.", crema, asked) != []
    turron = room("bodega_es.yaml", 7001, 100)
    assert bad("El turrón tiene la segunda unidad al 50%.", turron, Intent(kind="campaign", link=5)) != []


# --- short names ----------------------------------------------------------------------------------------------


def test_a_carriers_name_is_no_near_miss_of_a_code() -> None:
    # fitness_en FT06 "Stride HR Fitness Smart Watch with GPS", ships free by UPS within 24 h
    r = room(str(CAL_ROOMS / "fitness_en.yaml"), 7001, 100)
    asked = Intent(kind="shipping", link=6)
    assert bad("The GPS watch ships free by UPS within 24 hours.", r, asked) == []
    assert bad("The GPS watch ships by DHL within 24 hours.", r, asked) != []
    assert bad("The watch has built-in GPX tracking.", r, asked) != []


# --- who has the ailment ----------------------------------------------------------------------------------------


def test_who_has_the_ailment_a_health_effect_is_denied_for_is_no_feature() -> None:
    # groceries_zh GR01 赣南脐橙: its data says nothing of children
    r = room("groceries_zh", 7001, 100)
    asked = Intent(kind="efficacy", link=1)
    assert bad("脐橙就是普通水果，不能治咳嗽，孩子咳嗽还是要看医生～", r, asked) == []
    assert bad("脐橙就是普通水果，孩子吃了能止咳～", r, asked) != []
    assert bad("脐橙孩子老人都适合吃～", r, Intent(kind="spec", link=1, attr="unknown")) != []


def test_together_for_a_load_is_no_bundle() -> None:
    # fitness_en FT03 LoopFlex band set: no bundle runs on it; FT04 whey: two tubs 15% off
    r = room(str(CAL_ROOMS / "fitness_en.yaml"), 7001, 100)
    asked = Intent(kind="spec", link=3, attr="unknown")
    assert bad("The LoopFlex bands clip together for up to 150 lb of resistance.", r, asked) == []
    assert bad("Get two LoopFlex sets together for $30.", r, asked) != []
