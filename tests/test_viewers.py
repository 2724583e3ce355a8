"""Tests of hat_env.sim.viewers: the viewer population, merged requests, reactions and determinism."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import Scenario
from hat_env.sim.viewers import DEFAULT_MIX, PERSONAS, ViewerPool
from hat_env.types import LiveRequest


def make(
    locale: str = "zh_CN", seed: int = 0, duration_s: float = 600, **viewers: Any
) -> tuple[Scenario, RoomState, ViewerPool]:
    """Scenario (3 products with vocabulary specs, a coupon, 2 orders), its room, and a pool seeded by ``seed``."""
    sc = Scenario.model_validate(
        {
            "name": "viewer-test",
            "locale": locale,
            "seed": seed,
            "duration_s": duration_s,
            "catalog": {
                "products": [
                    {"product_id": "P1", "link": 1, "title": "防晒霜", "brand": "B", "category": "skincare", "price": 99,
                     "list_price": 129, "stock": 100000, "specs": {"spf": "SPF50", "size": "50ml"}},
                    {"product_id": "P2", "link": 2, "title": "口红", "brand": "B", "category": "cosmetics", "price": 79,
                     "list_price": 99, "stock": 100000, "specs": {"shade": "01 自然色"}},
                    {"product_id": "P3", "link": 5, "title": "耳机", "brand": "B", "category": "electronics",
                     "price": 199,
                     "list_price": 299, "stock": 100000, "specs": {"battery": "30h", "warranty": "1年"}},
                ]
            },
            "campaigns": [{"campaign_id": "C1", "type": "coupon", "title": "券", "amount": 10, "threshold": 50}],
            "orders": [
                {"order_id": "A1001", "product_id": "P1", "status": "shipped", "eta_days": 2},
                {"order_id": "A1002", "product_id": "P2", "status": "packed"},
            ],
            "viewers": viewers,
        }
    )
    rng = random.Random(seed)
    room = RoomState(sc, rng)
    return sc, room, ViewerPool(sc, room, rng)


def _dump(req: LiveRequest) -> dict[str, Any]:
    return {
        "id": req.request_id,
        "t": req.t,
        "comments": [
            (c.t, c.viewer_id, c.viewer_name, c.persona, c.text, tuple(tuple(i.to_dict().items()) for i in c.intents))
            for c in req.comments
        ],
    }


def run(seed: int, locale: str = "zh_CN", correct: bool = True, eff: float = 1.0, lat: float = 2.0, **viewers: Any):
    sc, room, pool = make(locale, seed, **viewers)
    reqs: list[dict[str, Any]] = []
    events: list[dict[str, Any]] = []
    n = 0
    while True:
        r = pool.next_request(f"r{n + 1:04d}")
        if r is None:
            break
        n += 1
        reqs.append(_dump(r))
        pool.react(r, correct, eff, lat)
        events += pool.drain_events()
    return reqs, events, room, pool


def test_same_seed_same_run_different_seed_different_run() -> None:
    for loc in ("zh_CN", "en_US"):
        a = run(5, loc)
        b = run(5, loc)
        c = run(6, loc)
        assert json.dumps(a[0], ensure_ascii=False) == json.dumps(b[0], ensure_ascii=False)
        assert json.dumps(a[1], ensure_ascii=False) == json.dumps(b[1], ensure_ascii=False)
        assert a[0] and a[1]
        assert a[0] != c[0]
        assert a[1] != c[1]


def test_requests_merge_one_window_and_advance_the_clock() -> None:
    sc, room, pool = make(initial=60, comment_every_s=20, merge_window_s=3.0, duration_s=300)
    prev_t = 0.0
    n = 0
    while True:
        before = room.t
        r = pool.next_request(f"r{n + 1:04d}")
        if r is None:
            break
        n += 1
        assert r.request_id == f"r{n:04d}"
        assert r.comments
        t0 = r.comments[0].t
        assert t0 >= round(before, 3) - 1e-9
        assert t0 <= sc.duration_s
        assert r.t == pytest.approx(room.t)
        assert room.t == pytest.approx(r.comments[0].t + 3.0, abs=1e-3)
        ts = [c.t for c in r.comments]
        assert ts == sorted(ts)
        assert all(t0 <= t < t0 + 3.0 + 1e-3 for t in ts)
        assert r.t > prev_t
        prev_t = r.t
    assert n > 10
    assert pool.next_request("again") is None  # stays finished


def test_comments_parse_back_to_their_intents() -> None:
    for loc in ("zh_CN", "en_US"):
        reqs, _, room, _ = run(9, loc, correct=False, eff=0.0, lat=1.0)
        total = 0
        for r in reqs:
            for (_, _, _, persona, text, intents) in r["comments"]:
                assert persona in PERSONAS
                parsed = [tuple(i.to_dict().items()) for i in parse_comment(text, loc)]
                assert Counter(parsed) == Counter(tuple(i) for i in intents), text
                total += 1
        assert total > 50


def test_arrivals_respect_max_viewers() -> None:
    sc, room, pool = make(initial=5, max_viewers=12, arrival_per_min=600, mean_stay_s=60, comment_every_s=5)
    present: set[str] = set()
    peak = 0
    n = 0
    while True:
        r = pool.next_request(f"r{n}")
        if r is None:
            break
        n += 1
        assert pool.viewer_count <= 12
        pool.react(r, True, 1.0, 1.0)
        for e in pool.drain_events():
            if e["type"] == "arrive":
                present.add(e["viewer_id"])
            elif e["type"] == "leave":
                present.discard(e["viewer_id"])
            peak = max(peak, len(present))
            assert len(present) <= 12
    assert peak == 12 == pool.peak_viewers
    assert pool.arrivals > 12  # viewers came and went
    assert len(pool.viewers) == pool.viewer_count


def test_initial_viewers_capped_and_ids() -> None:
    sc, room, pool = make(initial=50, max_viewers=20, arrival_per_min=0)
    assert pool.viewer_count == 20
    assert list(pool.viewers)[:3] == ["v0001", "v0002", "v0003"]
    ev = pool.drain_events()
    assert [e["type"] for e in ev] == ["arrive"] * 20
    assert pool.drain_events() == []
    json.dumps(ev, ensure_ascii=False)


def test_mix_controls_personas_and_rejects_unknown() -> None:
    reqs, _, _, _ = run(2, "en_US", mix={"troll": 1.0})
    personas = {c[3] for r in reqs for c in r["comments"]}
    assert personas == {"troll"}
    with pytest.raises(ValueError):
        make(mix={"lurker": 1.0})
    assert set(DEFAULT_MIX) == set(PERSONAS)
    reqs, _, _, _ = run(3, "zh_CN", initial=200)
    personas = Counter(c[3] for r in reqs for c in r["comments"])
    assert set(personas) == set(PERSONAS)


def test_good_fast_answers_sell_more_than_wrong_slow_ones() -> None:
    good_buys = bad_buys = good_leaves = bad_leaves = 0
    for seed in range(4):
        _, ev_good, room_good, _ = run(seed, initial=100, correct=True, eff=1.0, lat=1.5)
        _, ev_bad, room_bad, _ = run(seed, initial=100, correct=False, eff=0.0, lat=12.0)
        good_buys += room_good.purchases
        bad_buys += room_bad.purchases
        good_leaves += sum(1 for e in ev_good if e["type"] == "leave" and e["reason"] == "reply")
        bad_leaves += sum(1 for e in ev_bad if e["type"] == "leave" and e["reason"] == "reply")
        assert sum(1 for e in ev_good if e["type"] == "buy") == room_good.purchases  # stock is ample
    assert good_buys > 100
    assert bad_buys == 0  # q = 0 means nobody buys
    assert bad_leaves > 2 * good_leaves


def test_slow_answers_lose_viewers_and_sales() -> None:
    fast = run(1, initial=100, correct=True, eff=1.0, lat=2.0)
    slow = run(1, initial=100, correct=True, eff=1.0, lat=10.0)
    assert fast[2].purchases > slow[2].purchases
    leaves = lambda ev: sum(1 for e in ev if e["type"] == "leave" and e["reason"] == "reply")  # noqa: E731
    assert leaves(slow[1]) > leaves(fast[1])


def test_ask_again_schedules_a_follow_up_with_the_same_intents() -> None:
    sc, room, pool = make(initial=40, comment_every_s=30, mean_stay_s=10000)
    follow = asked = None
    for i in range(200):
        r = pool.next_request(f"r{i}")
        assert r is not None
        pool.react(r, False, 0.0, 1.0)
        asks = [e for e in pool.drain_events() if e["type"] == "ask_again"]
        if asks:
            follow = asks[0]
            asked = [c for c in r.comments if c.viewer_id == follow["viewer_id"]][-1]
            break
    assert follow is not None and asked is not None
    assert 2.0 - 1e-3 <= follow["at"] - follow["t"] <= 6.0 + 1e-3
    found = None
    for i in range(100):
        r = pool.next_request(f"f{i}")
        if r is None:
            break
        for c in r.comments:
            if c.viewer_id == follow["viewer_id"] and abs(c.t - follow["at"]) < 2e-3:
                found = c
        if found is not None or r.t > follow["at"] + 10:
            break
    assert found is not None
    assert found.intents == asked.intents
    assert found.persona == asked.persona
    assert Counter(parse_comment(found.text, "zh_CN")) == Counter(asked.intents)


def test_events_are_json_ready_and_ordered() -> None:
    _, events, _, _ = run(4, "en_US", initial=30, correct=True, eff=0.5, lat=5.0)
    json.dumps(events)
    types = Counter(e["type"] for e in events)
    assert set(types) <= {"arrive", "leave", "buy", "ask_again"}
    assert types["arrive"] and types["leave"] and types["buy"] and types["ask_again"]
    for e in events:
        assert {"t", "type", "viewer_id"} <= set(e)


def test_large_room_is_cheap() -> None:
    import time

    sc, room, pool = make(initial=1500, max_viewers=3000, arrival_per_min=300, comment_every_s=60, duration_s=120)
    t0 = time.perf_counter()
    n = comments = 0
    while True:
        r = pool.next_request(f"r{n}")
        if r is None:
            break
        n += 1
        comments += len(r.comments)
        pool.react(r, True, 1.0, 2.0)
        pool.drain_events()
    per_comment = (time.perf_counter() - t0) / max(1, comments)
    assert comments > 1000
    assert per_comment < 200e-6
