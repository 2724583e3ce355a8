"""Dimension 5: interaction constraints (disclosure and reply limit, forbidden words, turn limit, feedback
wording, which reply skill covers which intents)."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from hat_env.harness.hooks import DEFAULT_FEEDBACK
from hat_env.hsa.transforms._common import (_BANK, MAX_TURN_LIMIT, MIN_REPLY_CHARS, MIN_TURN_LIMIT, Record, _choose,
                                            _pick, _sample)
from hat_env.hsa.transforms.skills import (_description, _facts, _guidance, _skill_facts, join_body, parse_body,
                                           skill_name)
from hat_env.hsa.vocab import LANGS, Vocab, vocabulary



@lru_cache(maxsize=256)
def _feedback_bank(family: str) -> tuple[tuple[tuple[str, str], ...], ...]:
    """:data:`_BANK` full sets of reworded feedback templates (one wording per key), fixed per family."""
    fb = vocabulary(family).feedback
    r = random.Random(f"feedback:{family}")
    return tuple(tuple((k, fb[k][int(r.random() * len(fb[k]))]) for k in DEFAULT_FEEDBACK if k in fb)
                 for _ in range(_BANK))


def constraints(h: dict[str, Any], rng: random.Random, strength: float, vocab: Vocab, record: Record) -> None:
    """Change what the hooks enforce, keeping the gold behaviour valid: the required disclosure text (the reply
    length limit moves with it, so the reply budget beside the disclosure stays the same: a tighter budget
    would change what a gold reply can say), forbidden words (words a gold reply never uses), the turn limit
    (6 to 12), the retry feedback wording, and which reply skill is required for which intents (some intents
    move to a new reply skill)."""
    p = strength
    rnd = rng.random
    c = h["constraints"]
    cands: list[tuple[str, float]] = []
    limit = c.get("max_reply_chars")
    if limit is not None:
        cands.append(("disclosure", p))
    cands.append(("forbidden", p))
    cands.append(("turn_limit", p))
    cands.append(("feedback", p))
    split = []
    for s in h["skills"]:
        facts = _facts(s)
        if facts[2] and len(facts[1]) >= 2:
            split.append(s)
    if split and c.get("require_reply_skill", True):
        cands.append(("reply_skill", p))
    flags = _choose(rng, [w for _e, w in cands])
    chosen = {e for (e, _w), f in zip(cands, flags) if f}
    if "disclosure" in chosen:
        old = c.get("required_disclosure")
        if not isinstance(old, str):  # a table by locale (or true): the longest text it may stand for
            texts = list(old.values()) if isinstance(old, dict) else []
            old = max(texts, key=len) if texts else None
        pool = [d for d in vocab.disclosures if d != old]
        start = int(rnd() * len(pool)) if pool else 0
        for j in range(len(pool)):
            new = pool[(start + j) % len(pool)]
            new_limit = limit + len(new) + 1 - ((len(old) + 1) if old else 0)
            if new_limit >= MIN_REPLY_CHARS:
                record.set(c, "required_disclosure", "constraints.required_disclosure", new)
                record.set(c, "max_reply_chars", "constraints.max_reply_chars", new_limit)
                break
    if "forbidden" in chosen:
        cur = list(c.get("forbidden_words") or [])
        pool = [w for w in vocab.forbidden_words if w not in cur]
        if pool:
            k = min(len(pool), 1 + int(2 * p * rnd() + 0.5))
            record.set(c, "forbidden_words", "constraints.forbidden_words", cur + _sample(rng, pool, k))
    if "turn_limit" in chosen:
        cur_t = int(c.get("turn_limit", 8))
        vals = [v for v in range(MIN_TURN_LIMIT, MAX_TURN_LIMIT + 1) if v != cur_t]
        record.set(c, "turn_limit", "constraints.turn_limit", _pick(rng, vals))
    if "feedback" in chosen:
        old_fb = c.get("feedback") or {}
        fb = dict(old_fb)
        bank = _feedback_bank(vocab.family)
        wording = bank[int(rnd() * len(bank))]
        if p >= 1.0:
            fb.update(wording)
        else:
            keys = _choose(rng, [max(p, 0.2)] * len(wording))
            fb.update(kv for kv, f in zip(wording, keys) if f)
        if fb != old_fb:
            record.set(c, "feedback", "constraints.feedback", fb)
    if "reply_skill" in chosen:
        src = _pick(rng, split)
        intents = list(_facts(src)[1])
        k = 1 + int(rnd() * (len(intents) - 1))
        pick = _sample(rng, intents, k)
        moved = [i for i in intents if i in pick]
        keep = [i for i in intents if i not in pick]
        lang = _pick(rng, LANGS)
        used = {s["name"] for s in h["skills"]}
        md_new = {"kind": "reply", "intents": ",".join(moved)}
        role = _skill_facts("reply", md_new["intents"], "")[0]
        new = {"name": skill_name(rng, vocab, role, used),
               "description": _description(vocab.family, lang, "reply", md_new["intents"], ""),
               "metadata": md_new, "allowed-tools": src.get("allowed-tools")}
        when, steps = _guidance(vocab.family, lang, tuple(moved))
        heads = vocab.skill_text[lang]["headings"]
        _pre, src_secs = parse_body(src.get("body", ""))
        secs = [(heads["when"], "when", when), (heads["steps"], "steps", steps)]
        secs += [sec for sec in src_secs if sec[1] == "binding"]
        new["body"] = join_body("", secs)
        md = dict(src.get("metadata") or {})
        md["intents"] = ",".join(keep)
        # the description says what is left: it is what a model reads (the metadata is what the scorer reads)
        narrowed = _description(vocab.family, lang, "reply", md["intents"], "")
        record.update(src, {"op": "update_skill", "skill": src["name"], "set": {"metadata": md,
                                                                              "description": narrowed}})
        record.apply(h, {"op": "add_skill", "skill": new})
