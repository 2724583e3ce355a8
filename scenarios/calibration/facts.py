"""Look up room facts while writing calibration items BY HAND. It shows facts; it never shows scores.

A calibration label comes from the room data at the case's moment, never from the grader (see README.md here).
This script prints that data:

    python scenarios/calibration/facts.py room SCENARIO SEED T   # every product's facts at room time T (timeline events
                                                                 # due by T applied; price, the
                                                                 # effective price now, campaigns active and not,
                                                                 # stock, shipping, returns, specs, FAQ) and orders
    python scenarios/calibration/facts.py case SUITE INDEX       # a suite case: comments, intents, the facts of the
                                                                 # products involved, the reference agent's turns
                                                                 # and tool results
    python scenarios/calibration/facts.py custom CASE_JSON       # the same for a case you wrote (JSON or @file)
    python scenarios/calibration/facts.py check ITEMS.jsonl      # a reply file: each item loads, every turn but the
                                                                 # last is fed, tool calls that failed are listed; a
                                                                 # comment file: each item's fields, room and intents
                                                                 # (a link, attribute or order its room lacks)
                                                                 # (exit 1 on errors)
"""

from __future__ import annotations

import argparse
import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from hat_env.evaluation.runner import build_session
from hat_env.evaluation.suites import load_suite
from hat_env.envs.room import Room
from hat_env.envs.session import stream
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import load_scenario, relative_scenario_ref
from hat_env.types import INTENT_KINDS

#: The comment styles of the README.
STYLES = frozenset({"plain", "slang", "typo", "no_punct", "emoji", "mixed", "traditional", "pinyin", "name_ref",
                    "implicit", "multi", "spanish", "other_language", "injection", "social"})
#: Intent kinds a label may use: the parser's kinds and the grader's own.
KINDS = frozenset(INTENT_KINDS) | {"identity", "efficacy", "other_language"}
#: The fields an intent dict may have.
INTENT_KEYS = frozenset({"kind", "link", "link2", "attr", "order_id", "payload", "lang"})
#: The fields of a labelled comment item (``why`` and ``t`` are optional).
COMMENT_FIELDS = frozenset({"id", "split", "scenario", "seed", "t", "locale", "text", "intents", "style", "why"})
#: The fields a labelled comment item must have.
COMMENT_REQUIRED = COMMENT_FIELDS - {"why", "t"}


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


def room_at(scenario: str, seed: int, t: float) -> RoomState:
    """The room of ``scenario`` (a built-in name or a file) with its catalog drawn at ``seed``, at room time ``t``,
    with the scenario's timeline events due by ``t`` applied (stock-outs, price and campaign edits), as a case at
    that moment meets it."""
    r = Room(load_scenario(scenario), seed, viewers=False)
    r.state.t = float(t)
    r.apply_events(float(t))
    return r.state


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


@lru_cache(maxsize=None)
def room_keys(scenario: str, seed: int) -> tuple[dict[int, frozenset[str]], frozenset[str]]:
    """The spec keys by link and the order ids of a room, built as ``facts.py room`` builds it.

    scenario: a built-in name or a scenario file path (resolved already); seed: the catalog draw (seeded catalogs
    add products). Returns ``(spec keys by link, order ids)``.
    """
    room = RoomState(load_scenario(scenario), stream(int(seed), "catalog"))
    return {p.link: frozenset(p.specs) for p in room.products}, frozenset(room.orders)


def intent_problems(it: dict[str, Any], scenario: str, seed: int) -> list[str]:
    """What is wrong with one labelled intent against its room, as messages (empty when it is well formed): an
    unknown kind or field, a link or order the room lacks, a compare without ``link2``, an ``attr`` that is not a
    spec key of its link (``unknown`` when the room has no such key; without a link, of any product), on a kind
    other than ``spec``, or missing on a ``spec`` intent. (A campaign question about a code or a bundle has no
    ``attr``: labels give an attribute to spec questions alone.)

    Args:
        it: an intent ``{kind, link?, link2?, attr?, order_id?, payload?, lang?}``.
        scenario: its room (a built-in name or a resolved scenario path); seed: the catalog draw.
    """
    specs, orders = room_keys(scenario, int(seed))
    bad = []
    if it.get("kind") not in KINDS:
        bad.append(f"unknown kind {it.get('kind')!r}")
    if set(it) - INTENT_KEYS:
        bad.append(f"unknown fields {sorted(set(it) - INTENT_KEYS)}")
    for key in ("link", "link2"):
        if key in it and it[key] not in specs:
            bad.append(f"{key} {it[key]} is not a link of the room")
    if it.get("kind") == "compare" and "link2" not in it:
        bad.append("compare without link2")
    if "attr" in it and it.get("kind") != "spec":
        bad.append("attr on a non-spec intent")
    if it.get("kind") == "spec" and "attr" not in it:
        bad.append("spec without attr")
    if "attr" in it and it["attr"] != "unknown":
        if it["attr"] not in specs.get(it.get("link"), frozenset().union(*specs.values())):
            bad.append(f"attr {it['attr']!r} is not a spec key of link {it.get('link')} (use 'unknown')")
    if "order_id" in it and it["order_id"] not in orders:
        bad.append(f"order {it['order_id']} is not in the room")
    return bad


def comment_problems(item: dict[str, Any], base: Path) -> list[str]:
    """What is wrong with the form of one labelled comment item (empty when none): missing or unknown fields, a
    split other than train/test, a style the README does not list, a room that does not load, intents that do not
    fit the room (:func:`intent_problems`).

    Args:
        item: the item as read from its file; base: the file's folder (a relative room path resolves against it).
    """
    bad = [f"missing field {k!r}" for k in sorted(COMMENT_REQUIRED - set(item))]
    bad += [f"unknown field {k!r}" for k in sorted(set(item) - COMMENT_FIELDS)]
    if bad:
        return bad
    if item["split"] not in ("train", "test"):
        bad.append(f"split {item['split']!r} is neither train nor test")
    if item["style"] not in STYLES:
        bad.append(f"style {item['style']!r} is not one of {sorted(STYLES)}")
    if not isinstance(item["text"], str) or not item["text"].strip():
        bad.append("text is empty")
    if not isinstance(item["intents"], list) or not item["intents"]:
        return bad + ["intents must be a non-empty list"]
    scenario = relative_scenario_ref(item["scenario"], base)
    try:
        room_keys(scenario, int(item["seed"]))
    except Exception as exc:  # noqa: BLE001 - a room that does not load is this item's problem
        return bad + [f"room {item['scenario']!r} does not load: {type(exc).__name__}: {exc}"]
    for k, it in enumerate(item["intents"]):
        bad += [f"intents[{k}]: {m}" for m in intent_problems(it, scenario, int(item["seed"]))]
    return bad


def check(path: str) -> int:
    """Check a calibration file's form. A reply item: its case loads, every turn but the last is fed, the label has
    the right form; tool calls that were invalid or failed are listed. A comment item (``text`` and ``intents``, no
    ``turns``): :func:`comment_problems`. Returns the number of items with an error."""
    n = bad = 0
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            if not line.strip():
                continue
            n += 1
            try:
                item = json.loads(line)
                if "text" in item and "turns" not in item:  # a labelled comment
                    problems = comment_problems(item, Path(path).parent)
                    if problems:
                        bad += 1
                        print(f"line {number} {item.get('id')}: ERROR {'; '.join(problems)}")
                    continue
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
    p = sub.add_parser("check", help="check a calibration file's form: replies or comments (no scores)")
    p.add_argument("path", help="a replies_*.jsonl or comments_*.jsonl file")
    args = ap.parse_args(argv)
    if args.cmd == "room":
        show_room(room_at(args.scenario, args.seed, args.t))
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
