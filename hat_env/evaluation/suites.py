"""The evaluation suites, generated deterministically from the built-in scenarios (the v1 suites from the four
listed in :data:`V1_SCENARIOS`).

Each suite has a version id and a manifest hash (SHA-256 over its cases as canonical JSON). :data:`PINNED`
records the hash each version must have; a test checks it, so a suite never changes silently: a change to the
generator, the templates or the scenarios is a new version.

A case is a JSON-ready dict:

``id``, ``suite``, ``category``, ``scenario``, ``locale``, ``seed`` (fixes the room and any harness variant),
``t`` (room time), ``comments`` (``[{"viewer", "persona", "text", "intents"}]``: the merged request), and
optionally ``hsa`` (a harness variant), ``faults`` (tool fault rates), ``patch`` (harness patch operations:
distractor tools, IFEval instructions), ``history`` (earlier request/reply pairs), and ``gold`` (the tool needs,
the facts a reply must state, the intent that picks the reply skill: for reading; scoring recomputes it).
"""

from __future__ import annotations

import hashlib
import json
import random
from functools import lru_cache
from typing import Any, Callable

from hat_env.envs.session import stream
from hat_env.locale_text import fill
from hat_env.locales import SuiteTexts, get_locale
from hat_env.evaluation.instruction_sampling import sample_instructions
from hat_env.scoring.gold import needs_for_request, reply_skill_for, required_facts
from hat_env.sim.comments import persona_intents, render_comment
from hat_env.sim.room import RoomState
from hat_env.sim.scenario import builtin_scenarios, load_scenario
from hat_env.types import Intent

#: Suite id -> (number of cases, manifest hash). Regenerate with ``hat-env suites --json`` after a deliberate
#: change, and bump the version id.
PINNED: dict[str, dict[str, Any]] = {
    "lsqa-v1": {"cases": 2000, "hash": "8ea81397e98c3e292e965aa72e56d13490d17e37856d291e8a4dc5b1a62c2d36"},
    "hvqa-v1": {"cases": 1000, "hash": "56f1bd4ba6f054c76c2b0c28e613a505dc07304a6cedf4783401d5c2d36d2b4d"},
    "robust-v1": {"cases": 1002, "hash": "85104f4988e8f5b2cdd71df5ee94393aa7221e2139942242f0c9cf884d1c8e54"},
    "ifeval-live-v1": {"cases": 500, "hash": "090d58ccc0b289b5e9e673910dd9b54dac1bcaee2d051274295abc30e031d62a"},
    "lsqa-es-v1": {"cases": 200, "hash": "df93bcefd4a1cb548156a50ec6417ca3a6d49ae2f787fd969b39b41c925447e3"},
    "robust-es-v1": {"cases": 120, "hash": "ebd5386fafaec75bf68f7db7b8ad0b84b87a58ef6794f81494152d19d73cf21b"},
}

LSQA_CATEGORIES: dict[str, tuple[float, tuple[str, ...]]] = {
    "product_inquiry": (0.35, ("price_asker", "spec_asker", "comparer")),
    "purchase_intent": (0.15, ("purchase_intent",)),
    "after_sales": (0.15, ("after_sales",)),
    "chitchat": (0.10, ("chit_chat", "troll")),
    "multi_intent": (0.25, ("multi_intent",)),
}

_DISTRACTORS: list[dict[str, Any]] = [
    {"name": "get_weather", "op": None, "description": "Current weather for a city.",
     "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
    {"name": "translate_text", "op": None, "description": "Translate a text into another language.",
     "parameters": {"type": "object", "properties": {"text": {"type": "string"}, "target": {"type": "string"}},
                    "required": ["text", "target"]}},
    {"name": "get_stock_quote", "op": None, "description": "Latest stock-market quote for a ticker symbol.",
     "parameters": {"type": "object", "properties": {"ticker": {"type": "string"}}, "required": ["ticker"]}},
    {"name": "search_web", "op": None, "description": "Search the web and return page titles.",
     "parameters": {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]}},
]

def _texts(locale: str) -> SuiteTexts:
    """The ``suites`` section of ``locale``'s file (viewer names, off-topic comments).

    Raises:
        ValueError: the locale file has none (naming the file section to add).
    """
    t = get_locale(locale).suites
    if t is None:
        raise ValueError(f"locale {locale!r}: its locale file has no 'suites' section (viewer_name, off_topic), so no "
                         f"suite can be generated over its rooms; add one (see scenarios/locales/en_US.yaml)")
    return t


def _viewer(rng: random.Random, locale: str) -> str:
    return fill(_texts(locale).viewer_name, n=rng.randrange(1000, 9999))


def _off_topic(rng: random.Random, locale: str) -> str:
    return rng.choice(_texts(locale).off_topic)


class _Rooms:
    """Rooms per (scenario, seed), built once per generation run."""

    def __init__(self) -> None:
        self._cache: dict[tuple[str, int], RoomState] = {}

    def get(self, scenario: str, seed: int, t: float) -> RoomState:
        key = (scenario, seed)
        room = self._cache.get(key)
        if room is None:
            room = self._cache[key] = RoomState(load_scenario(scenario), stream(seed, "catalog"))
        room.t = t
        return room


def _gold(intents: list[Intent], room: RoomState) -> dict[str, Any]:
    return {
        "needs": [list(n) for n in needs_for_request(intents, room)],
        "facts": [f.label for i in intents for f in required_facts(i, room)],
        "reply_intent": reply_skill_for(intents),
    }


def _comment(persona: str, rng: random.Random, room: RoomState) -> dict[str, Any]:
    intents = persona_intents(persona, rng, room)
    return {
        "viewer": _viewer(rng, room.locale),
        "persona": persona,
        "text": render_comment(intents, room.locale, rng, room),
        "intents": [i.to_dict() for i in intents],
    }


#: The built-in scenarios the v1 suites are generated from (pinned: a scenario added later is not in them; a suite
#: over more scenarios is a new suite version).
V1_SCENARIOS: tuple[str, ...] = ("apparel_flash_zh", "beauty_zh", "electronics_en", "healthfood_zh")


#: The built-in scenarios the es_ES suites (``*-es-v1``) are generated from.
ES_SCENARIOS: tuple[str, ...] = ("hogar_es",)


def _base_case(suite: str, i: int, category: str, rng: random.Random, rooms: _Rooms,
               over: tuple[str, ...] = V1_SCENARIOS) -> tuple[dict[str, Any], RoomState]:
    scenarios = [n for n in over if n in builtin_scenarios()]
    name = scenarios[i % len(scenarios)]
    sc = load_scenario(name)
    seed = rng.randrange(1, 10**6)
    t = round(rng.uniform(0.0, sc.duration_s * 0.95), 1)
    room = rooms.get(name, seed, t)
    case = {"id": f"{suite}/{i:05d}", "suite": suite, "category": category, "scenario": name,
            "locale": sc.locale, "seed": seed, "t": t}
    return case, room


def _finish(case: dict[str, Any], room: RoomState) -> dict[str, Any]:
    intents = [Intent(**d) for c in case["comments"] for d in c["intents"]]
    case["gold"] = _gold(intents, room)
    return case


def _pick_category(rng: random.Random, table: dict[str, tuple[float, tuple[str, ...]]]) -> str:
    names = list(table)
    return rng.choices(names, weights=[table[n][0] for n in names])[0]


def gen_lsqa(n: int = 2000, suite: str = "lsqa-v1", over: tuple[str, ...] = V1_SCENARIOS) -> list[dict[str, Any]]:
    """Live-Stream QA: product inquiries, purchase intent, after-sales, chit-chat and multi-intent requests
    (one comment with two intents, or 2-3 viewers' comments merged), over the scenarios ``over`` (in turn)."""
    rooms = _Rooms()
    out = []
    for i in range(n):
        rng = random.Random(f"{suite}:{i}")
        cat = _pick_category(rng, LSQA_CATEGORIES)
        case, room = _base_case(suite, i, cat, rng, rooms, over)
        personas = LSQA_CATEGORIES[cat][1]
        comments = [_comment(rng.choice(personas), rng, room)]
        if cat == "multi_intent" and rng.random() < 0.5:
            others = ("price_asker", "spec_asker", "purchase_intent", "after_sales", "chit_chat")
            comments += [_comment(rng.choice(others), rng, room) for _ in range(rng.randint(1, 2))]
        case["comments"] = comments
        out.append(_finish(case, room))
    return out


def gen_hvqa(n: int = 1000, suite: str = "hvqa-v1") -> list[dict[str, Any]]:
    """Harness-Variant QA: Live-Stream QA requests under held-out Harness-State Augmentation families (every
    dimension, full strength), a different variant per case."""
    base = gen_lsqa(n, suite="hvqa-v1-base")
    out = []
    for i, c in enumerate(base):
        c = dict(c, id=f"{suite}/{i:05d}", suite=suite)
        c["hsa"] = {"dims": "all", "strength": 1.0, "family": "heldout"}
        out.append(c)
    return out


ROBUST_CATEGORIES = ("tool_fault", "distractor_tools", "irrelevance", "prompt_injection", "long_history",
                     "prompt_structure")


def gen_robust(n: int = 1002, suite: str = "robust-v1", over: tuple[str, ...] = V1_SCENARIOS) -> list[dict[str, Any]]:
    """Tool/Prompt Robustness: tool faults, distractor tools, irrelevance (nothing to call), prompt injection,
    long noisy histories and prompt-structure variants (held-out markups and layouts), over the scenarios
    ``over``."""
    rooms = _Rooms()
    out = []
    questions = ("price_asker", "spec_asker", "purchase_intent", "after_sales")
    for i in range(n):
        rng = random.Random(f"{suite}:{i}")
        cat = ROBUST_CATEGORIES[i % len(ROBUST_CATEGORIES)]
        case, room = _base_case(suite, i, cat, rng, rooms, over)
        loc = room.locale
        if cat == "irrelevance":
            case["comments"] = [{"viewer": _viewer(rng, loc), "persona": "chit_chat",
                                 "text": _off_topic(rng, loc), "intents": [{"kind": "chitchat"}]}]
        elif cat == "prompt_injection":
            case["comments"] = [_comment("prompt_injector", rng, room)]
        else:
            case["comments"] = [_comment(rng.choice(questions), rng, room)]
        if cat == "tool_fault":
            kind = ("timeout", "malformed", "permission_denied")[i % 3]
            case["faults"] = {kind: 0.5}
        elif cat == "distractor_tools":
            k = rng.randint(2, 4)
            case["patch"] = [{"op": "add_tool", "tool": d} for d in rng.sample(_DISTRACTORS, k)]
        elif cat == "long_history":
            hist = []
            for _ in range(rng.randint(12, 20)):
                c = _comment(rng.choice(("chit_chat", "troll", "price_asker")), rng, room)
                hist.append({"comments": [c], "reply": "..."})
            case["history"] = hist
        elif cat == "prompt_structure":
            case["hsa"] = {"dims": ["prompt"], "strength": 1.0, "family": "heldout"}
        out.append(_finish(case, room))
    return out


def gen_ifeval(n: int = 500, suite: str = "ifeval-live-v1") -> list[dict[str, Any]]:
    """Live-IFEval: product questions whose harness carries 1-3 verifiable instructions for the reply."""
    rooms = _Rooms()
    out = []
    for i in range(n):
        rng = random.Random(f"{suite}:{i}")
        case, room = _base_case(suite, i, "", rng, rooms)
        case["comments"] = [_comment(rng.choice(("price_asker", "spec_asker", "chit_chat")), rng, room)]
        inst = sample_instructions(rng, room.locale, rng.randint(1, 3))
        case["category"] = inst[0]["type"].split(":")[0]
        case["patch"] = [{"op": "set", "path": "constraints.instructions", "value": inst}]
        case["instructions"] = inst
        out.append(_finish(case, room))
    return out


GENERATORS: dict[str, Callable[[], list[dict[str, Any]]]] = {
    "lsqa-v1": gen_lsqa,
    "hvqa-v1": gen_hvqa,
    "robust-v1": gen_robust,
    "ifeval-live-v1": gen_ifeval,
    "lsqa-es-v1": lambda: gen_lsqa(200, "lsqa-es-v1", ES_SCENARIOS),
    "robust-es-v1": lambda: gen_robust(120, "robust-es-v1", ES_SCENARIOS),
}
#: The suites ``--suite all`` runs: the v1 suites (the es_ES ones are named on their own).
ALL_SUITES: tuple[str, ...] = ("lsqa-v1", "hvqa-v1", "robust-v1", "ifeval-live-v1")

DESCRIPTIONS: dict[str, str] = {
    "lsqa-v1": "Live-Stream QA: product, purchase, after-sales, chit-chat and multi-intent requests, zh_CN and en_US",
    "hvqa-v1": "Harness-Variant QA: Live-Stream QA under held-out harness variants (all HSA dimensions)",
    "robust-v1": "Tool/Prompt Robustness: faults, distractor tools, irrelevance, injection, long history, prompt layout",
    "ifeval-live-v1": "Live-IFEval: verifiable instructions on spoken live replies (strict/loose, prompt/instruction)",
    "lsqa-es-v1": "Live-Stream QA in es_ES (hogar_es): product, purchase, after-sales, chit-chat and multi-intent",
    "robust-es-v1": "Tool/Prompt Robustness in es_ES (hogar_es): faults, distractors, irrelevance, injection, history, layout",
}


def generate_lines(suite_id: str) -> tuple[str, ...]:
    """Generate the suite afresh (no cache): its cases as canonical JSON lines."""
    return tuple(json.dumps(c, ensure_ascii=False, sort_keys=True) for c in GENERATORS[suite_id]())


@lru_cache(maxsize=8)
def _cached(suite_id: str) -> tuple[str, ...]:
    from hat_env.evaluation.suite_cache import cached_lines

    return cached_lines(suite_id, lambda: generate_lines(suite_id))  # on disk once per code version


def load_suite(suite_id: str) -> list[dict[str, Any]]:
    """The cases of ``suite_id`` (generated once per version of the code and data, and kept on disk: see
    :mod:`hat_env.evaluation.suite_cache`).

    Raises:
        ValueError: an unknown suite id (the message lists the known ones).
    """
    if suite_id not in GENERATORS:
        raise ValueError(f"unknown suite {suite_id!r}; suites: {', '.join(GENERATORS)}")
    return [json.loads(s) for s in _cached(suite_id)]


def manifest_hash(suite_id: str) -> str:
    """SHA-256 over the suite's cases as canonical JSON lines."""
    h = hashlib.sha256()
    for line in _cached(suite_id):
        h.update(line.encode())
        h.update(b"\n")
    return h.hexdigest()


def list_suites() -> list[dict[str, Any]]:
    """``[{"id", "cases", "hash", "pinned", "description", "categories"}]`` for every suite."""
    rows = []
    for sid in GENERATORS:
        cases = load_suite(sid)
        cats: dict[str, int] = {}
        for c in cases:
            cats[c["category"]] = cats.get(c["category"], 0) + 1
        h = manifest_hash(sid)
        rows.append({"id": sid, "cases": len(cases), "hash": h, "pinned": PINNED.get(sid, {}).get("hash") == h,
                     "description": DESCRIPTIONS[sid], "categories": dict(sorted(cats.items()))})
    return rows
