"""The reference and random agents' session scores per built-in scenario and condition: the default harness, the
held-out HSA variants (``--hsa all --hsa-family heldout``) and a 40-character reply limit (a harness patch).

Usage: python benchmarks/reference_matrix.py [--seeds 0,1,2] [--scenarios a,b] [--conditions default,heldout,limit40]
       [--agents reference,random] [--no-save]

Prints one row per scenario and condition (the mean and the lowest seed of each agent) and saves the figures under
benchmarks/results/reference_matrix-DATE.json. Scores are deterministic per seed, so the figures are exact.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.agents import make_agent  # noqa: E402
from hat_env.envs.session import LiveSession  # noqa: E402
from hat_env.harness.core import Harness  # noqa: E402
from hat_env.runner import run_session  # noqa: E402
from hat_env.sim.scenario import builtin_scenarios, load_scenario  # noqa: E402
from hat_env.yamlio import FileError  # noqa: E402

CONDITIONS = ("default", "heldout", "limit40")


def limited(scenario: str, limit: int) -> Harness:
    """The scenario's own harness with ``constraints.max_reply_chars`` set to ``limit`` (a harness patch)."""
    from hat_env.envs.room import load_harness

    base = load_harness(None, load_scenario(scenario))
    return base.apply([{"op": "set", "path": "constraints.max_reply_chars", "value": limit}])


def one(scenario: str, seed: int, condition: str, agent: str) -> dict[str, Any]:
    """The summary of one session (``agent`` ``random`` is seeded with 1, as the tests do)."""
    kw: dict[str, Any] = {"seed": seed}
    if condition == "heldout":
        kw["hsa"] = {"dims": "all", "family": "heldout"}
    elif condition == "limit40":
        kw["harness"] = limited(scenario, 40)
    ag = make_agent(agent, seed=1) if agent == "random" else make_agent(agent)
    return run_session(LiveSession(scenario, **kw), ag)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--scenarios", default="")
    ap.add_argument("--conditions", default=",".join(CONDITIONS))
    ap.add_argument("--agents", default="reference,random")
    ap.add_argument("--no-save", action="store_true")
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    scenarios = a.scenarios.split(",") if a.scenarios else list(builtin_scenarios())
    conditions = a.conditions.split(",")
    agents = a.agents.split(",")
    figures: dict[str, Any] = {}
    print(f"{'scenario':18} {'condition':9} " + " ".join(f"{ag + ' mean/min':>22}" for ag in agents))
    for sc in scenarios:
        for cond in conditions:
            row = []
            for ag in agents:
                try:
                    scores = [one(sc, s, cond, ag)["score"] for s in seeds]
                except FileError as err:  # the condition's harness is refused at start (pre-flight)
                    figures[f"{sc}/{cond}/{ag}"] = {"seeds": seeds, "refused": str(err).splitlines()[0]}
                    row.append("refused at start")
                    continue
                figures[f"{sc}/{cond}/{ag}"] = {"seeds": seeds, "scores": scores}
                row.append(f"{sum(scores) / len(scores):>13.2f} / {min(scores):6.2f}")
            print(f"{sc:18} {cond:9} " + " ".join(f"{r:>22}" for r in row), flush=True)
    if not a.no_save:
        print("saved", save("reference_matrix", figures))


if __name__ == "__main__":
    main()
