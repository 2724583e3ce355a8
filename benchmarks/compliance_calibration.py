"""Compliance agreement with the hand labels of the calibration sets, TRAIN SPLIT ONLY (a dev script, not the
package's grader: ``hat_env.scoring.grade`` comes from branch ``claims``).

For each train item of ``scenarios/calibration/replies_*.jsonl`` it builds the case's session
(:func:`hat_env.evaluation.runner.build_session`), feeds the tool-call turns, and checks the last turn (the
reply, as written) with the ``compliance`` component (the room, rules and harness of the session) and with the
``compliance`` hook on the same request; it prints agreement per locale and per category, and the items where the
verdict and the label differ (``--show``). Items whose ``split`` is not ``train`` are dropped as the file is read,
before anything of them is looked at.

    .venv/bin/python benchmarks/compliance_calibration.py [--show] [--save]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.evaluation.runner import build_session  # noqa: E402
from hat_env.harness.hooks import CHECKS  # noqa: E402
from hat_env.scoring.components import compliance  # noqa: E402
from hat_env.sim.parser import parse_comment  # noqa: E402

CAL = Path(__file__).resolve().parents[1] / "scenarios" / "calibration"


def train_items() -> list[dict[str, Any]]:
    """The train-split reply items of every shipped calibration file (test items are never kept)."""
    out = []
    for path in sorted(CAL.glob("replies_*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            if item.get("split") == "train":
                out.append(item)
    return out


def verdicts(item: dict[str, Any]) -> tuple[int, int, list[str]]:
    """``(scorer, hook, notes)``: the compliance component's and the compliance hook's verdicts (1 compliant, 0
    not) on the item's last turn, and the scorer's notes."""
    case = json.loads(json.dumps(item["case"]))
    for c in case["comments"]:
        if "intents" not in c:
            c["intents"] = [i.to_dict() for i in parse_comment(c["text"], case.get("locale", "zh_CN"))]
    s = build_session(case)
    for turn in item["turns"][:-1]:
        if s.loop is None or s.loop.done:
            break
        s.feed(turn)
    loop = s.loop
    reply = item["turns"][-1]
    if not isinstance(reply, str):
        reply = reply.get("content") or ""
    ctx = loop._ctx  # the hook context of this request (the dev script reads it as the hooks do)
    ctx.reply = reply
    hook = CHECKS["compliance"].fn(ctx, {})
    out = loop.close(reply)
    sctx = s.scoring_context(out, loop.harness)
    v = compliance(sctx)
    return int(v >= 1.0), int(hook.decision == "allow"), sctx.notes.get("compliance", [])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print the items where the verdict and the label differ")
    ap.add_argument("--save", action="store_true", help="save the figures under benchmarks/results/")
    args = ap.parse_args()
    per_loc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_cat: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    hook_disagree = 0
    false_pass = defaultdict(int)
    false_fail = defaultdict(int)
    for item in train_items():
        want = int(item["label"]["compliance"])
        got, hook, notes = verdicts(item)
        if hook != got:
            hook_disagree += 1
            print(f"HOOK/SCORER DISAGREE {item['id']}: scorer {got} hook {hook}")
        ok = int(got == want)
        for key, table in ((item["locale"], per_loc), ((item["locale"], item["category"]), per_cat)):
            table[key][0] += ok
            table[key][1] += 1
        if not ok:
            (false_pass if got else false_fail)[item["locale"]] += 1
            if args.show:
                print(f"- {item['id']} [{item['category']}] label {want} got {got}: {item['turns'][-1]!r}")
                for n in notes:
                    print(f"    {n}")
    figures: dict[str, Any] = {"hook_scorer_disagreements": hook_disagree, "locales": {}, "categories": {}}
    for loc, (a, n) in sorted(per_loc.items()):
        figures["locales"][loc] = {"agree": a, "n": n, "pct": round(100 * a / n, 1), "false_pass": false_pass[loc],
                                   "false_fail": false_fail[loc]}
        print(f"{loc}: {a}/{n} = {100 * a / n:.1f}%  (false passes {false_pass[loc]}, false fails {false_fail[loc]})")
    for (loc, cat), (a, n) in sorted(per_cat.items()):
        figures["categories"][f"{loc}/{cat}"] = {"agree": a, "n": n}
        if a < n or args.show:
            print(f"  {loc} {cat}: {a}/{n}")
    print(f"hook/scorer disagreements: {hook_disagree}")
    if args.save:
        print("saved", save("compliance_calibration", figures))


if __name__ == "__main__":
    main()
