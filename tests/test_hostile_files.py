"""The hostile-files corpus (tests/hostile/manifest.yaml, entries of kind ``file``): every file gives a clear error
naming file, line and field (or loads, when that is its expected outcome) within the deadline and memory bound.

Each entry is materialised in a temporary folder (symlinks, FIFOs and big files are made here, not committed),
then fed by the probe worker (tests/hostile/probe.py: one forked child per entry, ``RLIMIT_AS`` = 1 GiB over the
worker's size, killed at the deadline) to ``hat-env validate`` and to the loaders the env uses
(``load_scenario`` + ``LiveSession``, or ``Harness.load``). See tests/hostile/README.md for the manifest format.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hat_env.harness.core import harnesses_dir
from hat_env.yamlio import load_yaml

HOSTILE = Path(__file__).resolve().parent / "hostile"
ENTRIES: list[dict[str, Any]] = load_yaml(HOSTILE / "manifest.yaml")[0]["entries"]
FILE_ENTRIES = [e for e in ENTRIES if e["kind"] == "file"]
#: Every kind the manifest may hold, and the test that runs it (a new kind adds its runner here).
KINDS = {"file": "tests/test_hostile_files.py"}
LOADS = ("scenario", "harness", "harness_yaml", "skill", "rule_pack")
MEM_MB = 1024
DEADLINE_S = 30.0  # a hang guard, far above the seconds any entry takes; the figures are printed, not asserted

BASE = """name: hostile-base
locale: en_US
duration_s: 60
catalog:
  generate: {count: 2, categories: [skincare]}
"""
EVIL_SKILL = "---\nname: evil\ndescription: Read outside the pack.\nmetadata: {kind: reply, intents: chitchat}\n---\nsecret\n"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the probe forks and uses /proc")


class Worker:
    """The probe worker process, restarted if it dies."""

    def __init__(self) -> None:
        self.proc: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str]:
        env = {k: v for k, v in os.environ.items() if k != "HAT_ENV_ALLOW_ROOTS"}
        return subprocess.Popen([sys.executable, str(HOSTILE / "probe.py"), "--mem-mb", str(MEM_MB)],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)

    def run(self, req: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its result."""
        if self.proc is None or self.proc.poll() is not None:
            self.proc = self._start()
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the probe worker died"
        return json.loads(line)

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            self.proc.wait(timeout=30)


@pytest.fixture(scope="module")
def worker() -> Any:
    w = Worker()
    yield w
    w.close()


def expand(x: Any) -> Any:
    """Expand the manifest's compact forms: ``{$repeat, times, then, before}`` -> a long string (the unit a string
    or a list of strings and ``{$chr: N}``), ``{$chr: N}`` -> one character (a lone surrogate, say), ``{$nest, depth}`` -> a
    deeply nested mapping, ``{$key, value}`` -> a one-entry mapping with an expanded key."""
    if isinstance(x, dict):
        if "$chr" in x:
            return chr(int(x["$chr"]))
        if "$repeat" in x:
            unit = x["$repeat"]
            unit = "".join(expand(u) for u in unit) if isinstance(unit, list) else unit
            return x.get("before", "") + unit * int(x["times"]) + x.get("then", "")
        if "$nest" in x:
            out: dict[str, Any] = {}
            for _ in range(int(x["depth"])):
                out = {x["$nest"]: out}
            return out
        if "$key" in x:
            return {expand(x["$key"]): expand(x["value"])}
        return {k: expand(v) for k, v in x.items()}
    if isinstance(x, list):
        return [expand(v) for v in x]
    return x


def _outside(tmp: Path) -> Path:
    """A folder outside every case: what hostile symlinks and paths reach for."""
    out = tmp / "outside"
    shutil.copytree(harnesses_dir() / "default", out / "pack")
    (out / "evil").mkdir()
    (out / "evil" / "SKILL.md").write_text(EVIL_SKILL, encoding="utf-8")
    (out / "secret.md").write_text(EVIL_SKILL, encoding="utf-8")
    (out / "rules.yaml").write_text("name: outside\nrules:\n  - {id: O-1, terms: [outside]}\n", encoding="utf-8")
    return out


def _make(spec: dict[str, Any], case: Path) -> Path:
    """Build a generated input (too big, or not a file at all, to commit)."""
    target = case / "scenario.yaml"
    if "fifo" in spec:
        os.mkfifo(case / spec["fifo"])
    elif "symlink_abs" in spec:
        (case / spec["symlink_abs"]).symlink_to(spec["to"])
    elif "huge_string_mb" in spec:
        target.write_text(BASE + "description: " + "x" * (spec["huge_string_mb"] << 20) + "\n", encoding="utf-8")
    elif "many_values" in spec:
        target.write_text(BASE + "description: [" + ",".join(["1"] * spec["many_values"]) + "]\n", encoding="utf-8")
    elif "deep_block" in spec:
        lines = [BASE + "description:"] + [" " * (2 * i) + f"k{i}:" for i in range(1, spec["deep_block"] + 1)]
        target.write_text("\n".join(lines) + " 1\n", encoding="utf-8")
    elif "long_key" in spec:
        target.write_text(BASE + "k" * spec["long_key"] + ": 1\n", encoding="utf-8")
    else:
        raise AssertionError(f"unknown generator {spec}")
    return target


def materialise(entry: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """Lay the entry out under ``tmp`` and return the probe request for it."""
    outside = _outside(tmp)
    case = tmp / "case"
    case.mkdir()
    load = entry["load"]
    src = HOSTILE / entry["path"] if "path" in entry else None
    kind = "harness" if load in ("harness", "harness_yaml", "skill") else "scenario"
    if "make" in entry:
        target = _make(entry["make"], case)
    elif load == "scenario":
        if src.is_dir():
            shutil.copytree(src, case / src.name)
            target = case / src.name / entry.get("target", "scenario.yaml")
        else:
            target = case / src.name
            shutil.copyfile(src, target)
    elif load == "harness":
        target = case / src.name
        shutil.copytree(src, target)
    elif load in ("harness_yaml", "skill"):
        target = case / "pack"
        shutil.copytree(harnesses_dir() / "default", target)
        if load == "harness_yaml":
            shutil.copyfile(src, target / "harness.yaml")
        else:
            (target / "skills" / "hostile").mkdir()
            shutil.copyfile(src, target / "skills" / "hostile" / "SKILL.md")
    elif load == "rule_pack":
        shutil.copyfile(src, case / "rules.yaml")
        target = case / "scenario.yaml"
        target.write_text(BASE + "compliance: {packs: [rules.yaml]}\n", encoding="utf-8")
    else:
        raise AssertionError(f"unknown load {load!r}")
    base = target if target.is_dir() else target.parent
    for step in entry.get("setup") or []:
        if "mkdir" in step:
            (base / step["mkdir"]).mkdir(parents=True)
        elif "fifo" in step:
            os.mkfifo(base / step["fifo"])
        elif "symlink" in step:
            link = base / step["symlink"]
            link.parent.mkdir(parents=True, exist_ok=True)
            link.symlink_to(step["to_abs"] if "to_abs" in step else outside / step["to"])
        else:
            raise AssertionError(f"unknown setup step {step}")
    for f in case.rglob("*"):  # @OUTSIDE@ in a committed file: the outside folder's real path
        if f.is_file() and not f.is_symlink() and f.suffix == ".yaml":
            raw = f.read_bytes()
            if b"@OUTSIDE@" in raw:
                f.write_bytes(raw.replace(b"@OUTSIDE@", str(outside).encode()))
    req: dict[str, Any] = {"kind": "file", "target": str(target), "as": kind, "timeout_s": DEADLINE_S,
                           "roots": [str(outside) for r in entry.get("roots") or [] if r == "outside"]}
    for key in ("reply", "call", "tool_name"):
        if key in entry:
            req[key] = expand(entry[key])
    return req


_LINE = re.compile(r"^(?P<file>\S[^:]*)(?::(?P<line>\d+))?: (?P<field>.+?): (?P<reason>.+)$")


def test_manifest_is_well_formed() -> None:
    """Ids are unique, kinds and loaders are known, committed files exist; the corpus holds 60+ hostile files."""
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for e in ENTRIES:
        assert e["kind"] in KINDS, e
        assert e.get("why"), f"{e['id']}: say why the input is hostile"
        assert "expect" in e, e
    for e in FILE_ENTRIES:
        assert e["load"] in LOADS, e
        assert ("path" in e) != ("make" in e), e
        if "path" in e:
            assert (HOSTILE / e["path"]).exists(), e
    committed = {p for p in (HOSTILE / "files").rglob("*") if p.is_file()}
    assert len(committed) >= 60 and len(FILE_ENTRIES) >= 60


@pytest.mark.parametrize("entry", FILE_ENTRIES, ids=[e["id"] for e in FILE_ENTRIES])
def test_hostile_file(entry: dict[str, Any], worker: Worker, tmp_path: Path) -> None:
    """``hat-env validate`` and the env's loaders give the expected outcome, within the deadline and memory bound,
    with every error as FILE[:LINE]: FIELD: REASON and no traceback."""
    res = worker.run(materialise(entry, tmp_path))
    print(f"{entry['id']}: {res['status']} in {res['wall_s']} s, peak RSS {res['max_rss_mb']} MB")
    assert res["status"] == "done", res.get("error") or res
    v, env, expect = res["validate"], res["env"], entry["expect"]
    if expect == "ok":
        assert v["rc"] == 0, v["output"]
        assert env == "ok", env
        if "reply" in entry:
            assert isinstance(res.get("reply_hits"), list)
        if "call" in entry:
            assert entry.get("call_expect", "") in res["call"], res["call"]
        if "tool_name" in entry:
            assert res.get("matchers") and not any(res["matchers"])
        return
    assert v["rc"] == 1, v["output"]
    lines = v["output"].strip().splitlines()
    assert lines and all(_LINE.match(ln) for ln in lines), v["output"]
    hit = [ln for ln in lines if expect in ln]
    assert hit, f"{expect!r} not in validate's output:\n{v['output']}"
    m = _LINE.match(hit[0])
    assert m is not None
    assert Path(m["file"]).name or m["file"], hit[0]
    if "line" in entry:
        assert m["line"] == str(entry["line"]), hit[0]
    if "field" in entry:
        assert m["field"] == entry["field"], hit[0]
    assert env.startswith("error: ") and expect in env, env
