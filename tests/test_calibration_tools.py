"""scenarios/calibration/facts.py: the room data an annotator labels from, and the form check of a reply file."""

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
