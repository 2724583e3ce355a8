"""Issue 15's file items, before and after: each hostile input run through two hat-env installs, side by side.

For every measured item (1 alias bombs in each loader, 2 catastrophic regexes, 4 unresolvable $ref, 8 duplicate
keys, 9 non-UTF-8, 10 nesting at depth 999, 11 packs not confined) the same command runs under the ``--before``
install and the ``--after`` one, each in a child with ``RLIMIT_AS`` = ``--mem-gb`` and a wall-clock limit; the
script prints exit status, what the command said, wall time and peak memory, and saves them.

    python benchmarks/hostile_before_after.py --before /work/main/.venv/bin --after .venv/bin

Inputs come from the hostile corpus (tests/hostile/files); folders, symlinks and scenarios that name them are
laid out in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "hostile" / "files"
PACK = ROOT / "scenarios" / "harnesses" / "default"
BASE = "name: hostile-base\nlocale: en_US\nduration_s: 60\ncatalog:\n  generate: {count: 3, categories: [skincare]}\n"

SCHEMA_SNIPPET = """
import time, shutil, sys
from hat_env.harness import Harness
h = Harness.from_dict({"name": "p", "prompt": {"sections": [{"id": "a", "title": "A"}]},
    "constraints": {"require_reply_skill": False},
    "tools": [{"name": "t", "op": None, "parameters": {"type": "object",
               "properties": {"c": {"type": "string", "pattern": "^(a+)+$"}}}}]})
for n in (20, 22, 24, 25, 26, 27, 10000):
    t = time.perf_counter()
    try:
        h.decode_args(h.spec.tools[0], {"c": "a" * n + "b"})
    except Exception:
        pass
    dt = time.perf_counter() - t
    print(f"{n} chars: {dt:.4f} s", flush=True)
    if dt > 3:
        break
"""
EU_PRICE_SNIPPET = """
import time
from hat_env.sim.compliance import RuleSet
t = time.perf_counter()
hits = RuleSet.default().check("list price" + " " * 3000, "en_US")
print(f"default pack, 'list price' + 3000 spaces: {time.perf_counter() - t:.3f} s, hits {[h.rule_id for h in hits]}")
"""


def _layout(tmp: Path) -> dict[str, Path]:
    """The inputs, laid out under ``tmp``."""
    def pack(name: str) -> Path:
        d = tmp / name
        shutil.copytree(PACK, d)
        return d

    def scenario(name: str, extra: str, folder: Path | None = None) -> Path:
        d = folder or tmp / name
        d.mkdir(parents=True, exist_ok=True)
        p = d / f"{name}.yaml"
        p.write_text(BASE + extra, encoding="utf-8")
        return p

    out: dict[str, Path] = {}
    out["bomb_scenario"] = CORPUS / "yaml" / "billion_laughs.yaml"
    hb = pack("bomb_harness")
    shutil.copyfile(CORPUS / "harness" / "bomb.yaml", hb / "harness.yaml")
    out["bomb_harness"] = hb
    sb = pack("bomb_skill")
    (sb / "skills" / "hostile").mkdir()
    shutil.copyfile(CORPUS / "skills" / "bomb.md", sb / "skills" / "hostile" / "SKILL.md")
    out["bomb_skill"] = sb
    rb = scenario("bomb_rules", "compliance: {packs: [rules.yaml]}\n")
    shutil.copyfile(CORPUS / "yaml" / "billion_laughs.yaml", rb.parent / "rules.yaml")
    out["bomb_rules"] = rb
    out["regex_rules"] = scenario("regex_rules", "compliance:\n  extra_rules:\n"
                                                 "    - {id: X-BAD, kind: term, patterns: ['^(.+)+Z']}\n")
    rm = scenario("regex_matcher", "harness: pack\n")
    mp = pack("regex_matcher/pack")
    text = (mp / "harness.yaml").read_text(encoding="utf-8")
    hook = "  - {event: before_tool, check: no_duplicate_call}\n"
    (mp / "harness.yaml").write_text(text.replace(hook, hook.replace("}", ", matcher: '^([a-z_]+)+X$'}"), 1),
                                     encoding="utf-8")
    out["regex_matcher"] = rm
    rf = scenario("bad_ref", "harness: pack\n")
    bp = pack("bad_ref/pack")
    t = (bp / "harness.yaml").read_text(encoding="utf-8")
    (bp / "harness.yaml").write_text(t.replace("link_id: {type: integer, minimum: 1,", "link_id: {$ref: '#/$defs/missing',", 1),
                                     encoding="utf-8")
    out["bad_ref"] = rf
    out["dup_key"] = CORPUS / "yaml" / "dup_key_top.yaml"
    out["latin1"] = CORPUS / "encoding" / "latin1.yaml"
    out["deep_999"] = CORPUS / "yaml" / "deep_flow_999.yaml"
    outside = tmp / "outside"
    shutil.copytree(PACK, outside / "pack")
    (outside / "evil").mkdir()
    (outside / "evil" / "SKILL.md").write_text("---\nname: evil\ndescription: outside\nmetadata: {kind: reply, intents: "
                                              "chit_chat}\n---\nSECRET FROM OUTSIDE THE PACK\n", encoding="utf-8")
    (outside / "rules.yaml").write_text("name: outside\nrules:\n  - {id: O-1, terms: [outside]}\n", encoding="utf-8")
    sl = pack("skill_link")
    (sl / "skills" / "evil").symlink_to(outside / "evil")
    out["skill_link"] = sl
    out["harness_escape"] = scenario("harness_escape", "harness: ../outside/pack\n")
    out["rules_absolute"] = scenario("rules_absolute", f"compliance: {{packs: [default, '{outside / 'rules.yaml'}']}}\n")
    return out


def _items(paths: dict[str, Path]) -> list[tuple[str, str, list[str], float]]:
    """(issue item, what, command after the bin folder, time limit)."""
    v = lambda k: ["hat-env", "validate", str(paths[k])]  # noqa: E731
    run = lambda k: ["hat-env", "run", "--scenario", str(paths[k]), "--duration", "30", "--quiet", "--trace", "none"]  # noqa: E731
    return [
        ("1", "billion laughs (342 B) in a scenario", v("bomb_scenario"), 30),
        ("1", "billion laughs in harness.yaml", v("bomb_harness"), 30),
        ("1", "billion laughs in SKILL.md front matter", v("bomb_skill"), 30),
        ("1", "billion laughs as a rule pack", v("bomb_rules"), 30),
        ("2", "extra_rules pattern ^(.+)+Z: validate", v("regex_rules"), 30),
        ("2", "extra_rules pattern ^(.+)+Z: 30 s run", run("regex_rules"), 60),
        ("2", "hook matcher ^([a-z_]+)+X$: validate", v("regex_matcher"), 30),
        ("2", "hook matcher ^([a-z_]+)+X$: 30 s run", run("regex_matcher"), 60),
        ("2", "tool schema pattern ^(a+)+$ on model-written 'aaa...b'", ["python", "-c", SCHEMA_SNIPPET], 60),
        ("2", "shipped EU-PRICE pattern on a 3,010-char reply", ["python", "-c", EU_PRICE_SNIPPET], 60),
        ("4", "unresolvable $ref: validate", v("bad_ref"), 30),
        ("4", "unresolvable $ref: 30 s run", run("bad_ref"), 60),
        ("8", "duplicate key", v("dup_key"), 30),
        ("9", "Latin-1 file: validate", v("latin1"), 30),
        ("9", "Latin-1 file: run", run("latin1"), 30),
        ("10", "nesting at depth 999", v("deep_999"), 30),
        ("11", "skill folder symlinked outside the pack", v("skill_link"), 30),
        ("11", "harness: ../outside/pack", v("harness_escape"), 30),
        ("11", "rule pack by absolute path", v("rules_absolute"), 30),
    ]


def _tree_rss_kb(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants (kB), from /proc; 0 once they are gone."""
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            total += next((int(ln.split()[1]) for ln in status.splitlines() if ln.startswith("VmRSS:")), 0)
            todo.extend(int(c) for c in Path(f"/proc/{p}/task/{p}/children").read_text().split())
        except (OSError, ValueError):
            continue
    return total


def _run(cmd: list[str], limit_s: float, mem_gb: float, cwd: Path) -> dict[str, Any]:
    """Run ``cmd`` (under GNU time, for its peak memory) with an address-space bound and a deadline, in ``cwd``
    (outside any checkout, so each install's python imports its own hat_env)."""
    def bound() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (int(mem_gb * (1 << 30)), resource.RLIM_INFINITY))

    t = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "__PEAK_RSS_KB=%M", *cmd], stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, preexec_fn=bound, cwd=cwd, start_new_session=True)
    sampled = [0]
    stop = threading.Event()

    def sample() -> None:  # GNU time reports nothing for a command killed at the deadline: sample as it runs
        while not stop.wait(0.2):
            sampled[0] = max(sampled[0], _tree_rss_kb(p.pid))

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    try:
        out, _ = p.communicate(timeout=limit_s)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        timed_out = True
    stop.set()
    th.join()
    wall = time.perf_counter() - t
    lines = [ln for ln in out.decode("utf-8", "replace").splitlines() if ln.strip()]
    peak = [ln for ln in lines if ln.startswith("__PEAK_RSS_KB=")]
    said = [ln for ln in lines if not ln.startswith("__PEAK_RSS_KB=") and not ln.startswith("Command exited")]
    return {"rc": None if timed_out else p.returncode, "timed_out": timed_out, "wall_s": round(wall, 2),
            "peak_rss_mb": round(max(int(peak[-1].split("=")[1]) if peak else 0, sampled[0]) / 1024, 1),
            "said": f"killed at the {limit_s:.0f} s limit" if timed_out else (said[-1] if said else "")[:240],
            "output_tail": [ln[:240] for ln in said[-8:]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="bin folder of the install before the change (hat-env, python)")
    ap.add_argument("--after", required=True, help="bin folder of the install after the change")
    ap.add_argument("--mem-gb", type=float, default=2.0, help="address-space bound per command (default 2 GiB)")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        paths = _layout(Path(d))
        for item, what, cmd, limit in _items(paths):
            row: dict[str, Any] = {"item": item, "input": what, "command": " ".join(cmd[:2] + [Path(c).name for c in cmd[2:3]])}
            for side in ("before", "after"):
                binp = Path(getattr(args, side)).resolve()
                row[side] = _run([str(binp / cmd[0]), *cmd[1:]], limit, args.mem_gb, Path(d))
                r = row[side]
                mem = f"{r['peak_rss_mb']:.0f} MB"
                print(f"[{item:>2}] {what[:48]:48} {side:6} rc={r['rc']!s:4} {r['wall_s']:6.2f} s {mem:>8}  "
                      f"{r['said'][:110]}", flush=True)
            rows.append(row)
    print(f"saved {save('hostile_before_after', {'before': args.before, 'after': args.after, 'mem_gb': args.mem_gb, 'rows': rows})}")


if __name__ == "__main__":
    main()
