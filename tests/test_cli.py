"""The hat-env command line: run, scenarios, validate (errors name file, field and line)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hat_env.cli import main
from hat_env.sim.scenario import scenarios_dir


def test_run_prints_transcript_and_writes_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summ = tmp_path / "s.json"
    trace = tmp_path / "t.jsonl"
    rc = main(["run", "--scenario", "beauty_zh", "--seed", "4", "--duration", "90", "--trace", str(trace),
               "--summary-json", str(summ)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "host:" in out and "composite" in out and "get_product_info_by_link_id" in out
    data = json.loads(summ.read_text())
    assert data["score"] >= 95 and data["requests"] > 0 and set(data["components"]) >= {
        "accuracy", "effectiveness", "tool_rationality", "skill_selection", "compliance", "constraints", "latency"}
    assert trace.read_text().count('"type":"request"') == data["requests"]


def test_console_script_help_explains_flags() -> None:
    out = subprocess.run([sys.executable, "-m", "hat_env.cli", "run", "--help"], capture_output=True, text=True, check=True)
    for flag in ("--scenario", "--agent", "--seed", "--duration", "--trace", "--summary-json", "--hsa"):
        assert flag in out.stdout


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env import __version__

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out == f"hat-env {__version__}\n"


def test_scenarios_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scenarios", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) >= 4 and all({"name", "locale", "description"} <= set(r) for r in rows)


def test_run_unknown_scenario_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--scenario", "no_such_room"]) == 2
    assert "unknown scenario" in capsys.readouterr().out


def test_validate_builtin_ok(capsys: pytest.CaptureFixture[str]) -> None:
    for p in sorted(scenarios_dir().glob("*.yaml")):
        assert main(["validate", str(p)]) == 0, p
    assert main(["validate", str(scenarios_dir() / "harnesses" / "default")]) == 0


def _broken(tmp_path: Path, old: str, new: str) -> Path:
    src = (scenarios_dir() / "beauty_zh.yaml").read_text(encoding="utf-8")
    assert old in src, old
    dst = tmp_path / "broken.yaml"
    dst.write_text(src.replace(old, new, 1), encoding="utf-8")
    return dst


@pytest.mark.parametrize(
    "old,new,expect",
    [
        ("locale: zh_CN", "locale: [zh_CN", "invalid YAML"),
        ("duration_s: 900", "duration_s: soon", "duration_s"),
        ("duration_s: 900", "duration_s: 900\ncolour: red", "colour: unknown field"),
        ("harness: default", "harness: no_such_pack", "no harness pack"),
    ],
)
def test_validate_reports_file_field_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str,
                                              expect: str) -> None:
    bad = _broken(tmp_path, old, new)
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "broken.yaml" in out or "no_such_pack" in out
    assert expect in out
    if expect != "no harness pack":
        assert f"{bad}:" in out and any(ch.isdigit() for ch in out.split(str(bad) + ":", 1)[1][:6])


def test_validate_bad_tool_schema_in_pack(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(scenarios_dir() / "harnesses" / "default", pack)
    y = pack / "harness.yaml"
    y.write_text(y.read_text().replace("order_id: {type: string, description", "order_id: {type: strng, description"))
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    assert "harness.yaml:" in out and "parameters" in out and "JSON Schema" in out
