"""Scripted timelines (hat_env/sim/timeline.py, the scripted-viewer path of sim/viewers.py): scripted comments mixed
with or instead of generated viewers, room events (price changes, stock-outs, campaign edits) applied at their time
and traced, errors with file and line, and a seed that still fixes the session to the byte."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from hat_env.agents import make_agent
from hat_env.cli import main
from hat_env.envs.session import LiveSession
from hat_env.harness.render import render_system
from hat_env.runner import run_session
from hat_env.sim.parser import parse_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.sim.viewers import ViewerPool
from hat_env.yamlio import FileError

BASE = load_scenario("electronics_en")


def _write(tmp_path: Path, name: str = "s.yaml", **changes: Any) -> Path:
    """electronics_en as a file in ``tmp_path`` with top-level ``changes`` (``viewers`` merged key by key)."""
    data = yaml.safe_load((Path(BASE.source)).read_text(encoding="utf-8"))
    for k, v in changes.items():
        if k == "viewers":
            data["viewers"] = {**data["viewers"], **v}
        else:
            data[k] = v
    p = tmp_path / name
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return p


SCRIPT = {
    "comments": [
        {"at_s": 5, "viewer": "alice", "text": "how much is link 2?"},
        {"at_s": 6, "viewer": "bob", "text": "anything", "intents": [{"kind": "stock", "link": 3}]},
        {"at_s": 40, "viewer": "alice", "text": "is link 1 water resistant?"},
        {"at_s": 120, "viewer": "carol", "text": "link 2 price now?"},
    ],
    "events": [
        {"at_s": 60, "type": "price", "product": "E002", "price": 29.99},
        {"at_s": 60, "type": "stock", "product": "E003", "stock": 0},
        {"at_s": 100, "type": "campaign", "campaign": "CPN-10-OFF-50", "set": {"end_s": 100}},
    ],
}


def _session(path: Path, trace: Path | None = None, seed: int | None = None) -> LiveSession:
    return LiveSession(load_scenario(path), seed=seed, trace=trace)


def _requests(trace: Path) -> list[dict[str, Any]]:
    return [r for r in map(json.loads, trace.read_text(encoding="utf-8").splitlines()) if r["type"] == "request"]


def test_scripted_only_session_replays_the_script_merged_by_window(tmp_path: Path) -> None:
    p = _write(tmp_path, timeline=SCRIPT, viewers={"generate": False})
    tr = tmp_path / "t.jsonl"
    summary = run_session(_session(p, tr), make_agent("reference"))
    reqs = _requests(tr)
    # 5 s and 6 s share one 3 s window; the others are alone; nobody else speaks
    assert [[c["text"] for c in r["comments"]] for r in reqs] == [
        ["how much is link 2?", "anything"], ["is link 1 water resistant?"], ["link 2 price now?"]]
    assert [r["t"] for r in reqs] == [8.0, 43.0, 123.0]
    first = reqs[0]["comments"]
    assert first[0]["viewer"] == "alice" and first[0]["persona"] == "scripted"
    assert first[1]["intents"] == [{"kind": "stock", "link": 3}]  # given intents are kept
    # intents not given are the comment parser's reading
    assert first[0]["intents"] == [i.to_dict() for i in parse_comment("how much is link 2?", "en_US")]
    # one name, one viewer: alice's two comments come from the same id
    assert reqs[1]["comments"][0]["viewer_id"] == first[0]["viewer_id"]
    assert summary["requests"] == 3 and summary["purchases"] == 0  # scripted viewers do not react


def test_room_events_change_the_state_at_their_time_and_are_traced(tmp_path: Path) -> None:
    p = _write(tmp_path, timeline=SCRIPT, viewers={"generate": False})
    tr = tmp_path / "t.jsonl"
    s = _session(p, tr)
    e2 = s.room.by_id["E002"]
    old_price = e2.price
    assert s.next_request()  # t = 8: nothing has happened yet
    assert s.room.by_id["E002"].price == old_price and s.room.stock["E003"] > 0
    coupon_on = "CPN-10-OFF-50" in [c.campaign_id for c in s.room.active_campaigns()]
    assert coupon_on
    prompt_before = render_system(s.harness, s.room, s.scenario.room)
    agent = make_agent("reference")
    while s.loop is not None and not s.feed(agent.act(s.loop.agent_request())):
        pass
    assert s.next_request()  # t = 43: still before the events at 60
    assert s.room.by_id["E002"].price == old_price
    while s.loop is not None and not s.feed(agent.act(s.loop.agent_request())):
        pass
    assert s.next_request()  # t = 123: price, stock and campaign events have applied
    assert s.room.by_id["E002"].price == 29.99 and s.room.stock["E003"] == 0
    assert "CPN-10-OFF-50" not in [c.campaign_id for c in s.room.active_campaigns()]
    # the backend (what tools return) and the prompt (cached per room) see the new state
    assert s.backend.execute("stock", {"product_id": "E003"})["in_stock"] is False
    assert render_system(s.harness, s.room, s.scenario.room) != prompt_before
    # the scenario's own objects are untouched: a second session starts from the file's values
    assert load_scenario(p).campaigns[1].end_s == 900 and _session(p).room.by_id["E002"].price == old_price
    while s.loop is not None and not s.feed(agent.act(s.loop.agent_request())):
        pass
    assert not s.next_request()  # the script is over
    recs = [json.loads(x) for x in tr.read_text(encoding="utf-8").splitlines()]
    ev = [r for r in recs if r["type"] == "room_event"]
    assert [(r["t"], r["event"]["type"]) for r in ev] == [(60.0, "price"), (60.0, "stock"), (100.0, "campaign")]
    assert all(r["applied_t"] >= r["t"] for r in ev)
    # traced before the request they affect
    kinds = [r["type"] for r in recs]
    assert kinds.index("room_event") < max(i for i, k in enumerate(kinds) if k == "request")


def test_mixed_with_generated_viewers_and_a_seed_fixes_it_to_the_byte(tmp_path: Path) -> None:
    p = _write(tmp_path, timeline=SCRIPT, duration_s=200)
    traces = []
    for k in range(2):
        tr = tmp_path / f"t{k}.jsonl"
        run_session(_session(p, tr, seed=5), make_agent("reference"))
        traces.append(tr.read_bytes())
    assert traces[0] == traces[1]
    said = [c for r in _requests(tmp_path / "t0.jsonl") for c in r["comments"]]
    scripted = [c["text"] for c in said if c["persona"] == "scripted"]
    # the script speaks (a comment sent while the host is busy is missed, as any other) and generated viewers too
    assert scripted and set(scripted) <= {c["text"] for c in SCRIPT["comments"]}
    assert len({c["persona"] for c in said}) > 1
    other = tmp_path / "t2.jsonl"
    run_session(_session(p, other, seed=6), make_agent("reference"))
    assert other.read_bytes() != traces[0]


def test_generate_weight_scales_the_generated_crowd(tmp_path: Path) -> None:
    def crowd(gen: Any) -> tuple[int, int]:
        sc = load_scenario(_write(tmp_path, f"g{gen}.yaml", viewers={"generate": gen, "initial": 40}))
        pool = ViewerPool(sc, RoomState(sc, random.Random(1)), random.Random(1))
        n0 = pool.viewer_count
        while pool.next_request("r") is not None:
            pass
        return n0, pool.arrivals

    full, half, none = crowd(True), crowd(0.5), crowd(False)
    assert full[0] == 40 and half[0] == 20 and none == (0, 0)
    assert half[1] < full[1]


def test_no_script_leaves_sessions_as_they_were(tmp_path: Path) -> None:
    # writing the defaults out changes nothing: same trace bytes as the built-in scenario
    p = _write(tmp_path, timeline={"comments": [], "events": []}, viewers={"generate": True})
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    run_session(LiveSession(load_scenario(p), seed=2, trace=a, duration_s=120), make_agent("reference"))
    run_session(LiveSession("electronics_en", seed=2, trace=b, duration_s=120), make_agent("reference"))
    assert a.read_bytes() == b.read_bytes()


def test_scripted_viewers_leave_after_their_last_comment_and_never_react(tmp_path: Path) -> None:
    sc = load_scenario(_write(tmp_path, timeline=SCRIPT, viewers={"generate": False, "mean_stay_s": 30}))
    room = RoomState(sc, random.Random(0))
    pool = ViewerPool(sc, room, random.Random(0))
    req = pool.next_request("r1")
    assert req is not None
    pool.react(req, False, 0.0, 30.0)  # the worst answer: a simulated viewer would likely leave or ask again
    ev = pool.drain_events()
    assert [e["type"] for e in ev] == ["arrive", "arrive"] and all(e["scripted"] for e in ev)
    while pool.next_request("r") is not None:
        pass
    room.t = 10_000
    pool.next_request("end")
    leaves = [e for e in pool.drain_events() if e["type"] == "leave"]
    assert {e["reason"] for e in leaves} == {"script_end"} and pool.viewer_count == 0
    bob = next(e for e in leaves if e["viewer_id"] == "v0002")
    assert bob["t"] == 6 + 30


def test_clocked_pool_sends_the_script_too() -> None:
    sc = BASE.model_copy(update={
        "timeline": BASE.timeline.model_validate(SCRIPT),
        "viewers": BASE.viewers.model_copy(update={"generate": False})})
    pool = ViewerPool(sc, RoomState(sc, random.Random(0)), random.Random(0), max_arrivals=2)
    got = pool.advance(200.0)
    # carol is the third viewer: turned away at max_arrivals=2, so her comment is not sent
    assert [c.text for c in got] == ["how much is link 2?", "anything", "is link 1 water resistant?"]
    assert pool.turned_away == 1


@pytest.mark.parametrize("where,bad,field,reason", [
    ("comments", {"at_s": 5000, "viewer": "a", "text": "hi"}, "timeline.comments.0.at_s", "after the end"),
    ("comments", {"at_s": 1, "viewer": "a", "text": "hi\x07"}, "timeline.comments.0.text", "control character"),
    ("comments", {"at_s": 1, "viewer": "a", "text": "x" * 2001}, "timeline.comments.0.text", "at most 2000"),
    ("comments", {"at_s": 1, "viewer": "", "text": "hi"}, "timeline.comments.0.viewer", "at least 1"),
    ("comments", {"at_s": 1, "viewer": "a", "text": "hi", "intents": [{"kind": "prices"}]},
     "timeline.comments.0.intents.0.kind", "unknown intent kind 'prices'"),
    ("events", {"at_s": 1, "type": "price", "product": "NOPE", "price": 3}, "timeline.events.0.product",
     "unknown product 'NOPE'"),
    ("events", {"at_s": 1, "type": "campaign", "campaign": "NOPE", "set": {"end_s": 5}}, "timeline.events.0.campaign",
     "unknown campaign 'NOPE'"),
    ("events", {"at_s": 1, "type": "campaign", "campaign": "GIFT-E002", "set": {"type": "coupon"}},
     "timeline.events.0.set", "cannot change ['type']"),
    ("events", {"at_s": 1, "type": "restock", "product": "E001"}, "timeline.events.0", "does not match any"),
])
def test_bad_script_entries_name_file_field_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str,
                                                     bad: dict[str, Any], field: str, reason: str) -> None:
    p = _write(tmp_path, timeline={where: [bad]})
    with pytest.raises(FileError) as ei:
        load_scenario(p)
    fld, line, why = ei.value.problems[0]
    assert fld.startswith(field) and reason in why and line is not None
    assert main(["validate", str(p)]) == 1
    out = capsys.readouterr().out
    assert f"{p}:{line}: {fld}:" in out


def test_events_that_cannot_apply_fail_before_the_session_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # E002's list price is 49.99: a price above it without a new list_price leaves the product invalid
    script = {"events": [{"at_s": 10, "type": "price", "product": "E002", "price": 80},
                         {"at_s": 20, "type": "campaign", "campaign": "CPN-10-OFF-50", "set": {"start_s": 950}}]}
    p = _write(tmp_path, timeline=script)
    sc = load_scenario(p)  # the references are fine: what fails is the room after each event
    with pytest.raises(FileError) as ei:
        LiveSession(sc)
    lines = {f: ln for f, ln, _ in ei.value.problems}
    assert set(lines) == {"timeline.events.0.price", "timeline.events.1.set"}
    text = p.read_text(encoding="utf-8").splitlines()
    assert "price: 80" in text[lines["timeline.events.0.price"] - 1]
    assert "set:" in text[lines["timeline.events.1.set"] - 1]
    assert "list_price" in str(ei.value) and "end_s must be after start_s" in str(ei.value)
    assert main(["validate", str(p)]) == 1
    assert "timeline.events.1.set" in capsys.readouterr().out
    assert main(["run", "--scenario", str(p), "--trace", "none", "--quiet"]) == 2
    # with list_price given it applies
    ok = _write(tmp_path, "ok.yaml", timeline={"events": [
        {"at_s": 10, "type": "price", "product": "E002", "price": 80, "list_price": 90}]})
    s = LiveSession(load_scenario(ok), viewers=False)
    s.room.t = 11
    s.apply_events(11)
    assert (s.room.by_id["E002"].price, s.room.by_id["E002"].list_price) == (80, 90)
