"""Viewer-language speed of this working tree against another git revision, side by side on one machine.

Measures, in fresh interpreters taking turns (``--rounds`` times, each version's best round kept): the import of
the comment generator, parser and reply composer; their first use (for locale files: reading and validating them,
and building the parser's keyword table, which the old code built on import); and microseconds per ``render_comment``, ``parse_comment`` and ``compose_reply`` call. It also times reading and
validating each locale file of the working tree on its own. It prints the figures and the ratios (this tree over
``--rev``) and saves them under benchmarks/results/. Every figure is CPU time (``time.process_time``) of the
probing process: on a shared machine wall time mostly measures the neighbours.

    python benchmarks/language_versus.py --rev main [--rounds 5] [--n 3000]
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

#: Run in a fresh interpreter with the code under test mapped as the installed project maps it (``hat_env``,
#: ``hat_env.agents`` = agents/, ``hat_env.scenarios`` = scenarios/): milliseconds and microseconds per call.
_PROBE = TREE_PRELUDE + r"""
import importlib.util, json, random, sys, time
root = sys.argv[1]
n = int(sys.argv[2])
t_base = time.process_time()
try:
    from hat_env.sim.comments import persona_intents, render_comment
    from hat_env.sim.parser import parse_comment
    from hat_env.agents.reply import ReplyPart, compose_reply
except ImportError:  # a revision from before the language split (its one module)
    from hat_env.sim.language import ReplyPart, compose_reply, parse_comment, persona_intents, render_comment
t_import = time.process_time()
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario
from hat_env.types import Intent
rooms = {loc: RoomState(load_scenario(sc), random.Random(0)) for loc, sc in (("zh_CN", "beauty_zh"),
                                                                            ("en_US", "electronics_en"))}
first = 0.0
for loc, room in rooms.items():
    t = time.process_time()
    text = render_comment((Intent("price", link=1),), loc, random.Random(0), room)
    parse_comment(text, loc)
    compose_reply([ReplyPart(Intent("stock", link=1), {"stock": 3})], loc, 120)
    first += time.process_time() - t
personas = ("price_asker", "spec_asker", "comparer", "after_sales", "purchase_intent", "chit_chat",
            "multi_intent", "troll", "prompt_injector")
out = {"import_ms": (t_import - t_base) * 1e3, "first_use_ms": first * 1e3,
       "import_and_first_use_ms": (t_import - t_base + first) * 1e3}
for loc, room in rooms.items():
    rng = random.Random(1)
    its = [persona_intents(personas[i % len(personas)], rng, room) for i in range(n)]
    t = time.process_time()
    texts = [render_comment(i, loc, rng, room) for i in its]
    out[f"render_us_{loc}"] = (time.process_time() - t) / n * 1e6
    t = time.process_time()
    for x in texts:
        parse_comment(x, loc)
    out[f"parse_us_{loc}"] = (time.process_time() - t) / n * 1e6
    parts = [[ReplyPart(Intent("price", link=3), {"final_price": 89.0, "coupon_amount": 10, "title": "T"}),
              ReplyPart(Intent("stock", link=3), {"stock": 5})],
             [ReplyPart(Intent("chitchat"))], [ReplyPart(Intent("injection", payload="x"))]]
    t = time.process_time()
    for i in range(n):
        compose_reply(parts[i % 3], loc, 60 + i % 60)
    out[f"compose_us_{loc}"] = (time.process_time() - t) / n * 1e6
print(json.dumps(out))
"""

#: Reading and validating each locale file of the working tree, uncached: milliseconds per file.
_LOAD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
from hat_env.locales import builtin_locales, load_locale_file, locales_dir
out = {}
for loc in builtin_locales():
    best = float("inf")
    for _ in range(20):
        t = time.process_time()
        load_locale_file(locales_dir() / f"{loc}.yaml")
        best = min(best, time.process_time() - t)
    out[f"load_ms_{loc}"] = best * 1e3
print(json.dumps(out))
"""


def _probe(root: Path, n: int) -> dict[str, float]:
    r = subprocess.run([sys.executable, "-c", _PROBE, str(root), str(n)], capture_output=True, text=True,
                       check=True, cwd=root)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    """Run both versions ``--rounds`` times, print the best figures and the ratios, save them."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rev", default="HEAD", help="the git revision to compare with (default: HEAD)")
    ap.add_argument("--rounds", type=int, default=5, help="rounds per version (best kept)")
    ap.add_argument("--n", type=int, default=3000, help="calls per timed loop")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = export_tree(args.rev, Path(tmp))
        best: dict[str, dict[str, float]] = {"this": {}, "rev": {}}
        for _ in range(args.rounds):
            for key, root in (("rev", other), ("this", ROOT)):
                for k, v in _probe(root, args.n).items():
                    best[key][k] = min(v, best[key].get(k, float("inf")))
    load = json.loads(subprocess.run([sys.executable, "-c", _LOAD, str(ROOT)], capture_output=True, text=True,
                                     check=True).stdout)
    ratios = {k: round(best["this"][k] / best["rev"][k], 3) for k in best["this"] if best["rev"].get(k)}
    print(f"{'figure':<20} {args.rev:>12} {'this tree':>12} {'ratio':>7}")
    for k in sorted(best["this"]):
        print(f"{k:<20} {best['rev'][k]:>12.2f} {best['this'][k]:>12.2f} {ratios[k]:>7.2f}")
    for k, v in load.items():
        print(f"{k:<20} {'':>12} {v:>12.2f}")
    path = save("language_versus", {"rev": args.rev, "rounds": args.rounds, "n": args.n, "rev_figures": best["rev"],
                                    "this_figures": best["this"], "ratio_this_over_rev": ratios,
                                    "locale_file_load_ms": load})
    print(f"saved {path}")


if __name__ == "__main__":
    main()
