"""Compliance agreement with the hand labels of the calibration sets, TRAIN SPLIT ONLY (a dev script, not the
package's grader: ``hat_env.scoring.grade`` comes from branch ``claims``).

For each train item of ``scenarios/calibration/replies_*.jsonl`` it builds the case's session
(:func:`hat_env.evaluation.runner.build_session`), feeds the tool-call turns, and checks the last turn (the
reply, as written) with the ``compliance`` component (the room, rules and harness of the session) and with the
``compliance`` hook on the same request; it prints agreement per locale and per category, and the items where the
verdict and the label differ (``--show``). Items whose ``split`` is not ``train`` are dropped as the file is read,
before anything of them is looked at.

    .venv/bin/python benchmarks/compliance_calibration.py [--show] [--save] [--versus /work/main]

``--versus DIR`` runs this same script with the checkout DIR's interpreter (``DIR/.venv/bin/python``, so DIR's
``hat_env``) on the same items, and prints both side by side: agreement per locale and category, hook/scorer
disagreements, and the CPU time of one compliance verdict (hook, then scorer on the same reply) as median and p95
with the ratio new/old.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
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


def verdicts(item: dict[str, Any]) -> tuple[int, int, list[str], float, float]:
    """``(scorer, hook, notes, hook_s, scorer_s)``: the compliance component's and the compliance hook's verdicts
    (1 compliant, 0 not) on the item's last turn, the scorer's notes, and the CPU seconds of each check."""
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
    t0 = time.process_time()
    hook = CHECKS["compliance"].fn(ctx, {})
    t1 = time.process_time()
    out = loop.close(reply)
    sctx = s.scoring_context(out, loop.harness)
    t2 = time.process_time()
    v = compliance(sctx)
    t3 = time.process_time()
    return int(v >= 1.0), int(hook.decision == "allow"), sctx.notes.get("compliance", []), t1 - t0, t3 - t2


def measure(show: bool = False) -> dict[str, Any]:
    """Agreement per locale and category, hook/scorer disagreements and check times over the train items."""
    per_loc: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    per_cat: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    false_pass: dict[str, int] = defaultdict(int)
    false_fail: dict[str, int] = defaultdict(int)
    disagree: list[str] = []
    hook_t: list[float] = []
    score_t: list[float] = []
    for item in train_items():
        want = int(item["label"]["compliance"])
        got, hook, notes, th, ts = verdicts(item)
        hook_t.append(th)
        score_t.append(ts)
        if hook != got:
            disagree.append(item["id"])
        ok = int(got == want)
        for key, table in ((item["locale"], per_loc), (f"{item['locale']}/{item['category']}", per_cat)):
            table[key][0] += ok
            table[key][1] += 1
        if not ok:
            (false_pass if got else false_fail)[item["locale"]] += 1
            if show:
                print(f"- {item['id']} [{item['category']}] label {want} got {got}: {item['turns'][-1]!r}")
                for n in notes:
                    print(f"    {n}")

    def us(xs: list[float], q: float) -> float:
        return round(1e6 * statistics.quantiles(xs, n=100)[int(q) - 1], 1) if q < 100 else 0.0

    return {
        "locales": {loc: {"agree": a, "n": n, "pct": round(100 * a / n, 1), "false_pass": false_pass[loc],
                          "false_fail": false_fail[loc]} for loc, (a, n) in sorted(per_loc.items())},
        "categories": {k: {"agree": a, "n": n} for k, (a, n) in sorted(per_cat.items())},
        "hook_scorer_disagreements": len(disagree),
        "hook_us": {"median": round(1e6 * statistics.median(hook_t), 1), "p95": us(hook_t, 95)},
        "scorer_us": {"median": round(1e6 * statistics.median(score_t), 1), "p95": us(score_t, 95)},
    }


def _print(fig: dict[str, Any], old: dict[str, Any] | None) -> None:
    def cell(d: dict[str, Any] | None, *keys: str) -> str:
        for k in keys:
            d = None if d is None else d.get(k)
        return "-" if d is None else str(d)

    print(f"{'':28} {'this branch':>14} {'versus':>14}")
    for loc, v in fig["locales"].items():
        o = (old or {}).get("locales", {}).get(loc)
        ov = f"{o['agree']}/{o['n']} {o['pct']}%" if o else "-"
        print(f"{loc:28} {v['agree']}/{v['n']} {v['pct']:>5}% {ov:>14}   false pass {v['false_pass']} "
              f"(was {cell(o, 'false_pass')}), false fail {v['false_fail']} (was {cell(o, 'false_fail')})")
    for cat, v in fig["categories"].items():
        o = (old or {}).get("categories", {}).get(cat)
        if v["agree"] < v["n"] or (o and o["agree"] < o["n"]):
            print(f"  {cat:26} {v['agree']:>3}/{v['n']:<3} {(str(o['agree']) + '/' + str(o['n'])) if o else '-':>14}")
    print(f"{'hook/scorer disagreements':28} {fig['hook_scorer_disagreements']:>14} "
          f"{cell(old, 'hook_scorer_disagreements'):>14}")
    for k in ("hook_us", "scorer_us"):
        for q in ("median", "p95"):
            new, was = fig[k][q], (old or {}).get(k, {}).get(q)
            ratio = f"  x{new / was:.2f}" if was else ""
            print(f"{k + ' ' + q:28} {new:>14} {was if was is not None else '-':>14}{ratio}")


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--show", action="store_true", help="print the items where the verdict and the label differ")
    ap.add_argument("--save", action="store_true", help="save the figures under benchmarks/results/")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON only")
    ap.add_argument("--versus", metavar="DIR", help="also run this script in the checkout DIR and compare")
    args = ap.parse_args()
    fig = measure(args.show)
    if args.json:
        print(json.dumps(fig))
        return
    old = None
    if args.versus:
        py = Path(args.versus) / ".venv" / "bin" / "python"
        res = subprocess.run([str(py), str(Path(__file__).resolve()), "--json"], cwd=args.versus, capture_output=True,
                             text=True, check=True)
        old = json.loads(res.stdout.strip().splitlines()[-1])
    _print(fig, old)
    if args.save:
        print("saved", save("compliance_calibration", {"this_branch": fig, "versus": old, "versus_dir": args.versus}))


if __name__ == "__main__":
    main()
