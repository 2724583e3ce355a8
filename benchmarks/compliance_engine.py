"""Compliance checking per reply: the old engine (Python ``re``, from a git revision) and the new one (RE2 with a
one-pass pattern set), side by side in one process, on the same replies.

Replies: every reply the reference agent sends in a session of each built-in scenario, and each of them again
with a violation appended (so the hit paths are timed too). Rule sets: the built-in pack alone, and the built-in
pack plus a user pack of 20 patterns (what a scenario's ``extra_rules`` or own pack adds). Both engines must give
the same hits on every reply; the script says how many differ (0 expected) and the time per reply, interleaving
the two engines round by round and taking the median round.

    python benchmarks/compliance_engine.py [--rev main] [--duration 600] [--rounds 7]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import save  # noqa: E402

from hat_env.agents.reference import ReferenceAgent  # noqa: E402
from hat_env.envs.session import LiveSession  # noqa: E402
from hat_env.sim import compliance as new  # noqa: E402
from hat_env.sim.scenario import builtin_scenarios  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
VIOLATIONS = {"zh_CN": ["这是全网最低价", "原价399元", "只剩3件了", "能治失眠", "我是真人主播"],
              "en_US": ["This is the best deal.", "It was $399 before.", "Only 3 left!", "I use this every day.",
                        "Prices go up tomorrow."]}
USER_PATTERNS = [r"\bfree\s+gift\b", r"限时\s*\d+\s*折", r"\b\d+%\s+off\b", r"秒杀价\s*\d+", r"\bbuy\s+\d+\s+get\s+\d+\b",
                 r"包邮", r"\bclearance\b", r"最后\s*\d+\s*小时", r"\bdoorbuster\b", r"前\s*\d+\s*名",
                 r"\bcode\s+[A-Z0-9]{4,}\b", r"满\d+减\d+", r"\bvip\s+price\b", r"直降\s*\d+", r"\bwhile\s+supplies\s+last\b",
                 r"跳楼价", r"\bno\s+questions\s+asked\b", r"厂家直销", r"\bfactory\s+direct\b", r"\bsecret\s+deal\b"]


def _old_module(rev: str) -> Any:
    """hat_env/sim/compliance.py as of ``rev``, imported under another name."""
    src = subprocess.check_output(["git", "-C", str(ROOT), "show", f"{rev}:hat_env/sim/compliance.py"])
    spec = importlib.util.spec_from_loader("compliance_old", loader=None)
    assert spec is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compliance_old"] = mod
    exec(compile(src, f"{rev}:compliance.py", "exec"), mod.__dict__)  # noqa: S102 - the project's own history
    return mod


def _rule_sets(mod: Any, pack_path: Path, user: bool) -> Any:
    """A RuleSet of ``mod`` from the pack file (plus the user pattern rule when ``user``)."""
    rules = list(mod._load_pack_cached(str(pack_path), 0.0)[1])
    if user:
        rules.append(mod.Rule.from_spec({"id": "U-PROMO", "kind": "term", "patterns": USER_PATTERNS}))
    return mod.RuleSet(rules)


def _replies(duration: float) -> list[tuple[str, str, set[str], Any, list[Any]]]:
    """(reply, locale, categories, room, products) for every reply of a reference session per scenario, and each
    again with a violation appended."""
    out = []
    for name in builtin_scenarios():
        s = LiveSession(name, seed=0, duration_s=duration, trace=None)
        agent = ReferenceAgent()
        while s.next_request():
            done = None
            while done is None:
                r = agent.act(s.loop.agent_request())
                done = s.feed(r.text, None, r.timings.total_s)
        loc = s.scenario.locale
        cats = {p.category for p in s.room.products}
        for i, (o, _, _) in enumerate(s.outcomes):
            out.append((o.reply, loc, cats, s.room, s.room.products))
            out.append((o.reply + VIOLATIONS[loc][i % len(VIOLATIONS[loc])], loc, cats, s.room, s.room.products))
    return out


def _time(rs: Any, replies: list[Any]) -> float:
    t = time.perf_counter()
    for text, loc, cats, room, prods in replies:
        rs.check(text, loc, cats, room=room, products=prods)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rev", default="main", help="git revision of the old engine (default main)")
    ap.add_argument("--duration", type=float, default=600.0, help="session length per scenario, seconds")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds (median taken)")
    args = ap.parse_args()
    old = _old_module(args.rev)
    with tempfile.TemporaryDirectory() as d:
        old_pack = Path(d) / "default.yaml"
        old_pack.write_bytes(subprocess.check_output(["git", "-C", str(ROOT), "show",
                                                      f"{args.rev}:scenarios/rules/default.yaml"]))
        new_pack = new.rules_dir() / "default.yaml"
        replies = _replies(args.duration)
        figures: dict[str, Any] = {"rev": args.rev, "replies": len(replies)}
        print(f"{len(replies)} replies; old engine = {args.rev}:hat_env/sim/compliance.py")
        print(f"{'rule set':26} {'old us/reply':>12} {'new us/reply':>12} {'new/old':>8} {'hits differ':>11}")
        for label, user in (("built-in pack", False), ("built-in + 20 user patterns", True)):
            o, n = _rule_sets(old, old_pack, user), _rule_sets(new, new_pack, user)
            differ = sum(
                [(h.rule_id, h.matched, h.reason) for h in o.check(t, lc, c, room=r, products=p)]
                != [(h.rule_id, h.matched, h.reason) for h in n.check(t, lc, c, room=r, products=p)]
                for t, lc, c, r, p in replies
            )
            _time(o, replies), _time(n, replies)  # warm caches and the pattern set
            to, tn = [], []
            for _ in range(args.rounds):
                to.append(_time(o, replies))
                tn.append(_time(n, replies))
            mo, mn = statistics.median(to) / len(replies) * 1e6, statistics.median(tn) / len(replies) * 1e6
            figures[label] = {"old_us_per_reply": round(mo, 2), "new_us_per_reply": round(mn, 2),
                              "new_over_old": round(mn / mo, 3), "hits_differ": differ}
            print(f"{label:26} {mo:12.2f} {mn:12.2f} {mn / mo:8.3f} {differ:11d}")
    print(f"saved {save('compliance_engine', figures)}")


if __name__ == "__main__":
    main()
