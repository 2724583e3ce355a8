"""Harness-State Augmentation speed: its share of an environment reset, variants per second, and what a variant
costs to render.

0. What HSA adds to a reset: ``hat_env/LiveRoom-v0`` (the scenario of ``--scenario``) reset with and without
   ``hsa=`` (all dimensions, full strength, each family), taking turns block by block, in CPU time. This is the
   figure that matters: HSA runs once per reset (and per harness patch).

1. Variants per second at full strength (all five dimensions, strength 1.0) for the default harness, per
   vocabulary family, on one core: ``augment`` end to end (transforms, patch record, the variant as a
   :class:`Harness` with its pydantic models, built without re-validation as ``augment`` does by default, the
   mapping), in CPU time of this one-threaded process. Also shown: the transforms alone, what building the
   harness and mapping adds, and the rate when the variant's content hash is computed too. ``hsa_versus.py``
   compares this working tree with another revision side by side.
2. Rendering a variant's system prompt against rendering the original's, for a built-in scenario's room: the
   mean over many variants, per family and per markup, for a re-render after a campaign change (the room's
   prompt cache cleared before every render; the harness's fixed text stays worked out) and for the first
   render of a harness in a room (everything worked out again). Target: within 5%.

    python benchmarks/hsa.py [--n 5000] [--variants 200] [--resets 30] [--scenario beauty_zh]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.harness.core import Harness  # noqa: E402
from hat_env.harness.render import render_system  # noqa: E402
from hat_env.hsa import _parent_dict, augment  # noqa: E402
from hat_env.hsa.transforms import APPLY_ORDER, TRANSFORMS, Record, working_copy  # noqa: E402
from hat_env.hsa.vocab import FAMILIES, vocabulary  # noqa: E402
from hat_env.sim.room import RoomState  # noqa: E402
from hat_env.sim.scenario import load_scenario  # noqa: E402


#: The clock: this process's CPU time (one core, one thread), so other load on the machine does not count.
_clock = time.process_time


def _best_rates(fns: dict[str, Any], n: int, rounds: int = 5) -> dict[str, float]:
    """Calls per CPU second of each function, the best of ``rounds`` blocks of ``n`` calls, the functions taking
    turns block by block (so a slow spell of the shared machine hits them alike)."""
    best = {k: float("inf") for k in fns}
    for _ in range(rounds):
        for k, fn in fns.items():
            t = _clock()
            for _ in range(n):
                fn()
            best[k] = min(best[k], _clock() - t)
    return {k: n / v for k, v in best.items()}


def reset_share(scenario: str, resets: int) -> dict[str, Any]:
    """Milliseconds (CPU) per ``LiveRoom-v0`` reset without HSA and with it (all dimensions, strength 1.0), per
    family: the best of 5 blocks of ``resets`` resets (seeds 1..resets), the three settings taking turns."""
    import gymnasium as gym

    settings: dict[str, dict[str, Any]] = {"no_hsa": {}}
    for family in FAMILIES:
        settings[family] = {"hsa": {"dims": "all", "strength": 1.0, "family": family}}
    envs = {k: gym.make("hat_env/LiveRoom-v0", scenario=scenario, duration_s=240, **kw) for k, kw in settings.items()}
    for env in envs.values():
        env.reset(seed=0)  # load the scenario, the harness and the vocabularies
    best = {k: float("inf") for k in envs}
    for _ in range(5):
        for k, env in envs.items():
            t = _clock()
            for seed in range(1, resets + 1):
                env.reset(seed=seed)
            best[k] = min(best[k], (_clock() - t) / resets * 1e3)
    for env in envs.values():
        env.close()
    base = best["no_hsa"]
    return {"scenario": scenario, "reset_ms": round(base, 3),
            **{f: {"reset_ms": round(best[f], 3), "hsa_ms": round(best[f] - base, 3),
                   "share": round((best[f] - base) / best[f], 4)} for f in FAMILIES}}


def variants_per_second(h: Harness, family: str, n: int, seed: int) -> dict[str, float]:
    """End-to-end and transforms-only rates at full strength, all dimensions."""
    rng = random.Random(seed)
    for _ in range(300):  # warm the per-parent and per-vocabulary caches
        augment(h, rng, "all", 1.0, family)
    parent = _parent_dict(h)
    memo = h.__dict__.setdefault("_hsa_memo", {})
    vocab = vocabulary(family)

    def transforms_only() -> None:
        d = working_copy(parent)
        rec = Record(d, memo)
        for dim in APPLY_ORDER:
            TRANSFORMS[dim](d, rng, 1.0, vocab, rec)

    r = _best_rates({
        "full": lambda: augment(h, rng, "all", 1.0, family),
        "transforms": transforms_only,
        "with_hash": lambda: augment(h, rng, "all", 1.0, family)[0].hash,
    }, max(1, n // 5))
    full, tonly = r["full"], r["transforms"]
    return {
        "variants_per_s": round(full, 1),
        "us_per_variant": round(1e6 / full, 1),
        "transforms_only_per_s": round(tonly, 1),
        "harness_build_us": round(1e6 / full - 1e6 / tonly, 1),
        "variants_per_s_with_hash": round(r["with_hash"], 1),
    }


def _render_us(h: Harness, room: RoomState, spec, reps: int, cold: bool) -> float:
    """Microseconds (CPU) per render of ``h``'s system prompt, every render a miss of the room's prompt cache
    (what a campaign change costs); ``cold``: the harness's fixed prompt text is worked out again too (what the
    first request under a new variant costs)."""
    h.hash  # noqa: B018 - computed once per harness, outside the timing (render caches by it)
    t = _clock()
    for _ in range(reps):
        room.prompt_cache.clear()
        if cold:
            room.prompt_parts.clear()
        render_system(h, room, spec)
    return (_clock() - t) / reps * 1e6


def render_cost(h: Harness, scenario: str, variants: int, reps: int, seed: int, cold: bool) -> dict[str, object]:
    """Render time of variants' system prompts over the original's, per family and per markup: each variant is
    timed next to the original (taking turns, best of 3 each) and the ratios averaged."""
    sc = load_scenario(scenario)
    room = RoomState(sc, random.Random(f"{seed}:catalog"))
    _render_us(h, room, sc.room, reps, cold)  # warm up

    def pair(v: Harness) -> tuple[float, float]:
        a = b = float("inf")
        for _ in range(3):
            a = min(a, _render_us(h, room, sc.room, reps, cold))
            b = min(b, _render_us(v, room, sc.room, reps, cold))
        return a, b

    out: dict[str, object] = {}
    originals = []
    for family in FAMILIES:
        rng = random.Random(seed)
        per_markup: dict[str, list[float]] = {}
        ratios, times = [], []
        for _ in range(variants):
            v, _m = augment(h, rng, "all", 1.0, family)
            base, us = pair(v)
            originals.append(base)
            times.append(us)
            ratios.append(us / base)
            per_markup.setdefault(v.spec.prompt.markup, []).append(us / base)
        out[family] = {
            "variant_mean_us": round(statistics.fmean(times), 2),
            "ratio": round(statistics.fmean(ratios), 3),
            "by_markup": {m: {"n": len(x), "ratio": round(statistics.fmean(x), 3)}
                          for m, x in sorted(per_markup.items())},
        }
    out["original_us"] = round(statistics.median(originals), 2)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=5000,
                    help="variants per measurement, in 5 blocks taking turns with the others (default 5000)")
    ap.add_argument("--variants", type=int, default=200, help="variants whose rendering is timed (default 200)")
    ap.add_argument("--reps", type=int, default=200, help="renders per harness (default 200)")
    ap.add_argument("--resets", type=int, default=30, help="resets per timing block (default 30)")
    ap.add_argument("--scenario", default="beauty_zh",
                    help="scenario reset, and whose room fills the prompt (default beauty_zh)")
    ap.add_argument("--seed", type=int, default=0, help="seed")
    args = ap.parse_args()
    h = Harness.load("default")
    figures: dict[str, object] = {"harness": h.name, "harness_hash": h.hash, "dims": "all", "strength": 1.0}
    rs = reset_share(args.scenario, args.resets)
    figures["reset"] = rs
    print(f"reset of {args.scenario}: {rs['reset_ms']:.2f} ms without HSA; "
          + "; ".join(f"{f} {rs[f]['reset_ms']:.2f} ms (HSA {rs[f]['hsa_ms']:.2f} ms, {rs[f]['share']:.1%})"
                      for f in FAMILIES))
    print(f"{'family':10} {'variants/s':>11} {'us/variant':>11} {'transforms/s':>13} {'build us':>9} "
          f"{'with hash/s':>12}")
    speed = {}
    for family in FAMILIES:
        f = variants_per_second(h, family, args.n, args.seed)
        speed[family] = f
        print(f"{family:10} {f['variants_per_s']:11.0f} {f['us_per_variant']:11.1f} {f['transforms_only_per_s']:13.0f} "
              f"{f['harness_build_us']:9.1f} {f['variants_per_s_with_hash']:12.0f}")
    figures["speed"] = speed
    figures["render"] = {"scenario": args.scenario}
    for mode in ("campaign_change", "first_render"):
        rc = render_cost(h, args.scenario, args.variants, args.reps, args.seed, cold=mode == "first_render")
        figures["render"][mode] = rc
        print(f"render ({mode}), {args.scenario}: original {rc['original_us']:.1f} us")
        for family in FAMILIES:
            r = rc[family]
            marks = ", ".join(f"{m} {x['ratio']:.2f}x (n={x['n']})" for m, x in r["by_markup"].items())
            print(f"  {family:8} variants {r['variant_mean_us']:.1f} us = {r['ratio']:.3f}x  [{marks}]")
    print(f"saved {save('hsa', figures)}")


if __name__ == "__main__":
    main()
