"""scenarios/calibration/facts.py: the room data an annotator labels from, and the form check of a reply or comment
file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FACTS = ROOT / "scenarios" / "calibration" / "facts.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(FACTS), *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_room_prints_every_product_at_that_moment() -> None:
    from hat_env.envs.session import stream
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    r = _run("room", "hogar_es", "1", "60")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
    room = RoomState(load_scenario("hogar_es"), stream(1, "catalog"))
    room.t = 60.0
    assert [row["link"] for row in rows] == [p.link for p in room.products]
    assert all(row["effective_price_now"] == room.effective_price(room.by_link[row["link"]]) for row in rows)
    assert any(ln.startswith("order ") for ln in r.stdout.splitlines())


def test_check_names_the_bad_line_and_fails(tmp_path: Path) -> None:
    good = json.loads((ROOT / "scenarios" / "calibration" / "replies_beauty_zh.jsonl").read_text(encoding="utf-8")
                      .splitlines()[0])
    bad = dict(good, label={"accuracy": 2, "effectiveness": 1, "compliance": 1})
    path = tmp_path / "items.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in (good, bad)) + "\n", encoding="utf-8")
    r = _run("check", str(path))
    assert r.returncode == 1
    assert "line 2: ERROR" in r.stdout and "2 items, 1 errors" in r.stdout
    path.write_text(json.dumps(good, ensure_ascii=False) + "\n", encoding="utf-8")
    assert _run("check", str(path)).returncode == 0


def test_check_reads_a_comment_file_and_names_what_its_room_lacks(tmp_path: Path) -> None:
    """A comment item whose intent names a link its room does not have, an attribute that is no spec key of that
    link, or a style the README does not list is an error on its line; a well-formed file passes."""
    good = json.loads((ROOT / "scenarios" / "calibration" / "comments_en_US_r5.jsonl").read_text(encoding="utf-8")
                      .splitlines()[0])
    no_link = dict(good, intents=[{"kind": "price", "link": 99}])
    no_key = dict(good, intents=[{"kind": "spec", "link": good["intents"][0].get("link", 1), "attr": "no_such_key"}])
    odd_style = dict(good, style="haiku")
    path = tmp_path / "comments.jsonl"
    path.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in (good, no_link, no_key, odd_style)) + "\n",
                    encoding="utf-8")
    (tmp_path / "rooms").symlink_to(ROOT / "scenarios" / "calibration" / "rooms", target_is_directory=True)
    r = _run("check", str(path))
    assert r.returncode == 1
    out = r.stdout
    assert "line 2" in out and "link 99 is not a link of the room" in out
    assert "line 3" in out and "'no_such_key' is not a spec key" in out
    assert "line 4" in out and "style 'haiku'" in out
    assert "line 1 " not in out and "4 items, 3 errors" in out
    path.write_text(json.dumps(good, ensure_ascii=False) + "\n", encoding="utf-8")
    assert _run("check", str(path)).returncode == 0


def _room_of_its_own(tmp_path: Path) -> Path:
    """A calibration folder with a room of its own, ``rooms/own_room.yaml`` (a copy of beauty_zh), next to the
    set that names it by that relative path."""
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "own_room.yaml").write_text((ROOT / "scenarios" / "beauty_zh.yaml").read_text(encoding="utf-8"),
                                         encoding="utf-8")
    return tmp_path


def test_a_set_names_its_own_room_relative_to_its_file(tmp_path: Path, monkeypatch) -> None:
    from hat_env.scoring.calibrate import grade_items, load_items
    from hat_env.scoring.calibrate_comments import calibrate_comments

    folder = _room_of_its_own(tmp_path)
    original = json.loads((ROOT / "scenarios" / "calibration" / "replies_beauty_zh.jsonl")
                          .read_text(encoding="utf-8").splitlines()[0])
    item = {**original, "case": {**original["case"], "scenario": "rooms/own_room.yaml"}}
    (folder / "replies_own_room.jsonl").write_text(json.dumps(item, ensure_ascii=False) + "\n", encoding="utf-8")
    comment = {"id": "c-1", "split": "train", "scenario": "rooms/own_room.yaml", "seed": 1, "t": 0.0,
               "locale": "zh_CN", "text": "1号链接多少钱", "intents": [{"kind": "price", "link": 1}], "style": "plain"}
    (folder / "comments_zh_CN.jsonl").write_text(json.dumps(comment, ensure_ascii=False) + "\n", encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # the path is relative to the set's file, not to the working directory

    items = load_items("replies_*.jsonl", split="all", folder=folder)
    assert Path(items[0]["case"]["scenario"]) == folder / "rooms" / "own_room.yaml"
    graded = grade_items(items)
    assert "error" not in graded[0]
    assert graded[0]["pred"] == grade_items([original])[0]["pred"]  # the same room, read from the set's folder
    res = calibrate_comments("all", [folder / "comments_zh_CN.jsonl"])
    assert res["n"] == 1 and res["exact"] == 1.0
    r = _run("check", str(folder / "replies_own_room.jsonl"))
    assert r.returncode == 0 and "1 items, 0 errors" in r.stdout, r.stdout + r.stderr


def test_a_built_in_name_or_missing_file_is_left_as_written(tmp_path: Path) -> None:
    from hat_env.sim.scenario import relative_scenario_ref

    assert relative_scenario_ref("beauty_zh", tmp_path) == "beauty_zh"
    assert relative_scenario_ref("rooms/none.yaml", tmp_path) == "rooms/none.yaml"


def test_room_applies_the_timeline_events_due_by_that_moment(tmp_path: Path) -> None:
    """An annotator labels stock after a scripted stock-out from `facts.py room`: it must show the room as a case
    at that moment meets it (the events due by T applied), not the catalog as drawn."""
    import yaml

    from hat_env.sim.scenario import resolve_scenario_path

    data = yaml.safe_load(resolve_scenario_path("hogar_es").read_text(encoding="utf-8"))
    pid = data["catalog"]["products"][0]["product_id"]
    data.setdefault("timeline", {})["events"] = [{"at_s": 100, "type": "stock", "product": pid, "stock": 0}]
    room_file = tmp_path / "room.yaml"
    room_file.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")

    def stock(t: str) -> int:
        r = _run("room", str(room_file), "1", t)
        assert r.returncode == 0, r.stderr
        rows = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
        return next(row["stock_now"] for row in rows if row["product_id"] == pid)

    assert stock("60") > 0
    assert stock("150") == 0
