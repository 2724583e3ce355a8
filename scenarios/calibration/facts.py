"""Look up room facts while writing calibration items BY HAND. It shows facts; it never shows scores.

A calibration label comes from the room data at the case's moment, never from the grader (see README.md here).
This script prints that data:

    python scenarios/calibration/facts.py room SCENARIO SEED T   # every product's facts at room time T (price, the
                                                                 # effective price now, campaigns active and not,
                                                                 # stock, shipping, returns, specs, FAQ) and orders
    python scenarios/calibration/facts.py case SUITE INDEX       # a suite case: comments, intents, the facts of the
                                                                 # products involved, the reference agent's turns
                                                                 # and tool results
    python scenarios/calibration/facts.py custom CASE_JSON       # the same for a case you wrote (JSON or @file)
    python scenarios/calibration/facts.py check ITEMS.jsonl      # each item loads, every turn but the last is fed,
                                                                 # tool calls that failed are listed (exit 1 on errors)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from hat_env.evaluation.runner import build_session
from hat_env.evaluation.suites import load_suite
from hat_env.envs.session import stream
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario, relative_scenario_ref


def product_facts(room: RoomState, product: Any) -> dict[str, Any]:
    """The facts of one product at the room's current time, as a JSON-ready dict.

    Args:
        room: the room (its ``t`` is the moment that counts).
        product: one of ``room.products``.

    Returns:
        Link, ids, title, prices (list, effective now, lowest of 7 and 30 days), stock now, specs, shipping,
        returns, FAQ, and the campaigns active now and not active now.
    """
    pid = product.product_id
    active = [{k: v for k, v in c.model_dump().items() if v not in (None, [], "")} for c in room.active_campaigns(pid)]
    inactive = [c.model_dump(exclude_none=True) for c in room.campaigns if c.applies_to(pid) and not c.active(room.t)]
    return {
        "link": product.link, "product_id": pid, "title": product.title, "brand": product.brand,
        "category": product.category, "price": product.price, "list_price": product.list_price,
        "effective_price_now": room.effective_price(product), "lowest_7d": product.lowest_price_in(7),
        "lowest_30d": product.lowest_price_in(30), "stock_now": room.stock.get(pid, product.stock),
        "specs": product.specs, "shipping": product.shipping.model_dump(), "returns": product.returns.model_dump(),
        "faq": [f.model_dump() for f in product.faq], "special_use_registered": product.special_use_registered,
        "active_campaigns_now": active, "campaigns_not_active_now": inactive,
    }


def show_room(room: RoomState, only: set[str] | None = None) -> None:
    """Print the facts of every product (or those whose ids are in ``only``) and, for the whole room, its orders."""
    print(f"room t={room.t}s locale={room.locale}")
    for p in room.products:
        if only is None or p.product_id in only:
            print(json.dumps(product_facts(room, p), ensure_ascii=False))
    if only is None:
        for order in room.orders.values():
            print("order", json.dumps(order.model_dump(), ensure_ascii=False))


def show_case(case: dict[str, Any]) -> None:
    """Print a case, the facts of the products its intents name, and the reference agent's turns with every tool
    result (copy the tool-call turns into an item's ``turns``; write the last one yourself)."""
    from hat_env.agents import make_agent

    session = build_session(case)
    room = session.room
    pids: set[str] = set()
    print("CASE", json.dumps({k: v for k, v in case.items() if k != "gold"}, ensure_ascii=False))
    for comment in case["comments"]:
        for intent in comment.get("intents") or []:
            for link in (intent.get("link"), intent.get("link2")):
                if link is not None and int(link) in room.by_link:
                    pids.add(room.by_link[int(link)].product_id)
            if intent.get("order_id") in room.orders:
                order = room.orders[intent["order_id"]]
                print("order", json.dumps(order.model_dump(), ensure_ascii=False))
                pids.add(order.product_id)
    print("--- facts of the products named (all products: the `room` command)")
    show_room(room, pids or None)
    agent, loop, turns = make_agent("reference"), session.loop, []
    print("--- reference agent turns")
    while True:
        resp = agent.act(loop.agent_request())
        turns.append(resp.text)
        before = len(loop.messages)
        done = session.feed(resp.text, resp.tool_calls or None, resp.timings.total_s, resp.trace_timings())
        for message in loop.messages[before:]:
            if message["role"] == "tool":
                print("  tool result:", message["content"][:600])
        if done is not None:
            break
    print("TURNS", json.dumps(turns, ensure_ascii=False))
    print("(the last turn is the reference's own reply; write yours instead)")


def check(path: str) -> int:
    """Check a calibration reply file's form: each case loads, every turn but the last is fed, the label has the
    right form; tool calls that were invalid or failed are listed. Returns the number of items with an error."""
    n = bad = 0
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            n += 1
            try:
                item = json.loads(line)
                case = {**item["case"], "scenario": relative_scenario_ref(item["case"]["scenario"], Path(path).parent)}
                session = build_session(case)
                for turn in item["turns"][:-1]:
                    text = turn if isinstance(turn, str) else (turn.get("content") or "")
                    calls = None if isinstance(turn, str) else turn.get("tool_calls")
                    session.feed(text, calls, None, None)
                problems = [f"{c.name}: {c.error or c.fault}" for c in session.loop.calls
                            if not c.valid or (not c.ok and c.op != "load_skill")]
                last = item["turns"][-1]
                if not (isinstance(last, str) or "content" in last):
                    raise ValueError("the last turn is neither a string nor a message with content")
                label = item["label"]
                if not (label["accuracy"] in (0, 1) and label["effectiveness"] in (0, 0.5, 1)
                        and label["compliance"] in (0, 1)):
                    raise ValueError(f"label {label}: accuracy and compliance are 0/1, effectiveness 0/0.5/1")
                if item["split"] not in ("train", "test") or not item.get("category") or not item.get("id"):
                    raise ValueError("split must be train/test; category and id are required")
                if problems:
                    print(f"line {number} {item['id']}: tool calls not ok: {problems}")
            except Exception as exc:  # noqa: BLE001 - report the line and go on
                bad += 1
                print(f"line {number}: ERROR {type(exc).__name__}: {exc}")
    print(f"{n} items, {bad} errors")
    return bad


def main(argv: list[str] | None = None) -> int:
    """The command line (see the module docstring); returns the exit status."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("room", help="every product's facts at room time T, and the orders")
    p.add_argument("scenario", help="a built-in scenario name or a scenario file")
    p.add_argument("seed", type=int, help="the case's seed (the catalog draw)")
    p.add_argument("t", type=float, help="room time in seconds (campaigns and stock change over time)")
    p = sub.add_parser("case", help="a suite case with its facts and the reference agent's turns")
    p.add_argument("suite", help="suite name (lsqa-v1, hvqa-v1, robust-v1, ...)")
    p.add_argument("index", type=int, help="the case's index in the suite")
    p = sub.add_parser("custom", help="like `case`, for a case you wrote")
    p.add_argument("case", help="the case as a JSON object, or @FILE")
    p = sub.add_parser("check", help="check a calibration reply file's form (no scores)")
    p.add_argument("path", help="a replies_*.jsonl file")
    args = ap.parse_args(argv)
    if args.cmd == "room":
        room = RoomState(load_scenario(args.scenario), stream(args.seed, "catalog"))
        room.t = args.t
        show_room(room)
    elif args.cmd == "case":
        show_case(load_suite(args.suite)[args.index])
    elif args.cmd == "custom":
        text = open(args.case[1:], encoding="utf-8").read() if args.case.startswith("@") else args.case
        show_case(json.loads(text))
    else:
        return 1 if check(args.path) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
