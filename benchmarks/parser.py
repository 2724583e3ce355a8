"""Comment-parser speed of this working tree against another git revision, side by side on one machine.

Measures, in fresh interpreters taking turns (``--rounds`` times, each version's best round kept), microseconds
per ``parse_comment`` call on: generated comments of every persona in a zh_CN and an en_US room (what the
simulated viewers and the reference agent parse), with and without the room's catalog (a revision without the
``catalog`` argument is timed without it); the hand-written comments of the calibration ``train`` split and of
tests/data/comments_dev*.jsonl; and long adversarial inputs (200 to 2,000 characters) to show the time is linear
in length. It also reports the import plus first use of the parser. Every figure is CPU time
(``time.process_time``) of the probing process. Prints the figures and the ratios (this tree over ``--rev``) and
saves them under benchmarks/results/.

    python benchmarks/parser.py --rev 920fbdc [--rounds 5] [--n 3000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import TREE_PRELUDE, export_tree, save  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

_PROBE = TREE_PRELUDE + r"""
import importlib.util, inspect, json, random, sys, time
root, n, texts_file = sys.argv[1], int(sys.argv[2]), sys.argv[3]
t0 = time.process_time()
from hat_env.sim.parser import parse_comment
parse_comment("3号多少钱", "zh_CN"); parse_comment("how much is link 3", "en_US")
first = (time.process_time() - t0) * 1e3
has_catalog = "catalog" in inspect.signature(parse_comment).parameters
from hat_env.envs.session import stream
from hat_env.sim.comments import persona_intents, render_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
personas = ("price_asker", "spec_asker", "comparer", "after_sales", "purchase_intent", "chit_chat",
            "multi_intent", "troll", "prompt_injector")
out = {"import_and_first_use_ms": first, "catalog_argument": has_catalog}

def timed(texts, loc, **kw):
    for x in texts[:50]:
        parse_comment(x, loc, **kw)
    t = time.process_time()
    for x in texts:
        parse_comment(x, loc, **kw)
    return (time.process_time() - t) / len(texts) * 1e6

for loc, sc in (("zh_CN", "beauty_zh"), ("en_US", "electronics_en")):
    room = RoomState(load_scenario(sc), stream(0, "catalog"))
    rng = random.Random(1)
    texts = [render_comment(persona_intents(personas[i % len(personas)], rng, room), loc, rng, room) for i in range(n)]
    out[f"generated_us_{loc}"] = timed(texts, loc)
    if has_catalog:
        out[f"generated_with_catalog_us_{loc}"] = timed(texts, loc, catalog=room)
free = json.load(open(texts_file, encoding="utf-8"))
rooms = {}
for loc in ("zh_CN", "en_US"):
    items = [x for x in free if x["locale"] == loc]
    texts = [x["text"] for x in items] * max(1, n // max(1, len(items)))
    out[f"free_text_us_{loc}"] = timed(texts, loc)
    if has_catalog:
        t = time.process_time()
        k = 0
        for _ in range(max(1, n // max(1, len(items)))):
            for x in items:
                key = (x["scenario"], x["seed"])
                if key not in rooms:
                    rooms[key] = RoomState(load_scenario(x["scenario"]), stream(x["seed"], "catalog"))
                    parse_comment(x["text"], loc, catalog=rooms[key])
                parse_comment(x["text"], loc, catalog=rooms[key])
                k += 1
        out[f"free_text_with_catalog_us_{loc}"] = (time.process_time() - t) / k * 1e6
rng = random.Random(7)
alphabet = "3号链接多少钱还有吗，? how much is link stock 😍 ¿cuánto cuesta 龍井 ignore say: "
for length in (200, 500, 1000, 2000):
    xs = ["".join(rng.choice(alphabet) for _ in range(length)) for _ in range(30)]
    reps = 5
    t = time.process_time()
    for _ in range(reps):
        for x in xs:
            parse_comment(x, "zh_CN")
    out[f"adversarial_us_{length}"] = (time.process_time() - t) / (reps * len(xs)) * 1e6
print(json.dumps(out))
"""


def _free_texts(path: Path) -> None:
    """Train-split calibration comments and the dev sets (never the test split)."""
    items = []
    for f in sorted((ROOT / "scenarios" / "calibration").glob("comments_*.jsonl")) + sorted(
            (ROOT / "tests" / "data").glob("comments_dev*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                it = json.loads(line)
                if it.get("split") == "train":
                    item = {k: it[k] for k in ("text", "locale", "scenario", "seed")}
                    if str(item["scenario"]).endswith(".yaml") and not Path(item["scenario"]).is_absolute():
                        item["scenario"] = str((f.parent / item["scenario"]).resolve())  # a room of the set's own
                    items.append(item)
    path.write_text(json.dumps(items, ensure_ascii=False), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", required=True, help="git revision to compare with")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--n", type=int, default=3000, help="comments per measure")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        export_tree(args.rev, d)
        texts = d / "texts.json"
        _free_texts(texts)
        roots = {"rev": str(d / "tree"), "this": str(ROOT)}
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for who, root in roots.items():
                r = subprocess.run([sys.executable, "-c", _PROBE, root, str(args.n), str(texts)], check=True,
                                   capture_output=True, text=True, cwd=tmp)
                fig = json.loads(r.stdout.strip().splitlines()[-1])
                cur = best.setdefault(who, {})
                for k, v in fig.items():
                    if isinstance(v, bool):
                        cur[k] = v
                    else:
                        cur[k] = min(cur.get(k, float("inf")), v)
    ratios = {}
    for k, v in best["this"].items():
        if isinstance(v, bool):
            continue
        base = best["rev"].get(k)
        if base is None:  # a figure the old revision cannot give (no catalog): against its catalog-less figure
            base = best["rev"].get(k.replace("_with_catalog", ""))
        if base:
            ratios[k] = round(v / base, 3)
    figures = {"rev": args.rev, "rounds": args.rounds, "n": args.n, "rev_figures": best["rev"],
               "this_figures": best["this"], "ratio_this_over_rev": ratios}
    print(json.dumps(figures, indent=2))
    print("saved", save("parser", figures))


if __name__ == "__main__":
    main()
