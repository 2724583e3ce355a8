"""Case files and case selection: ``bench --cases FILE.jsonl``, ``hat-env suites export``, ``--limit``, ``--sample``.

A case file holds one case a line in the suites' own format (see :mod:`hat_env.evaluation.suites`): ``id``,
``scenario`` (a built-in name or a scenario file), ``seed``, ``t`` and ``comments`` are required; ``suite``
(default: the file's name), ``category`` (default ``""``), ``locale`` (default: the scenario's), ``hsa``,
``faults``, ``patch``, ``history``, ``instructions`` and ``gold`` are optional, and other fields are kept. A
comment without ``intents`` gets those the comment parser reads in its text. ``hat-env suites export`` writes a
suite in this format, one canonical JSON line per case, so the file's SHA-256 is the suite's manifest hash.

``--sample N`` draws N cases of each suite, stratified by category (each category gets its share of N by the
largest-remainder rule) and seeded: the same seed draws the same cases, and the cases keep their suite order.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterable

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError, field_validator

from hat_env.jsonl import BadLine, object_lines
from hat_env.yamlio import FileError


class _Comment(BaseModel):
    model_config = ConfigDict(extra="allow")
    text: str
    viewer: str = "viewer"
    persona: str = "unknown"
    intents: list[dict[str, Any]] | None = None


class _History(BaseModel):
    model_config = ConfigDict(extra="allow")
    comments: list[_Comment] = Field(min_length=1)
    reply: str


class _Case(BaseModel):
    """What a case must hold; extra fields are kept as they are."""

    model_config = ConfigDict(extra="allow")
    id: str = Field(min_length=1)
    scenario: str = Field(min_length=1)
    seed: StrictInt
    t: float = Field(ge=0.0, strict=True)
    comments: list[_Comment] = Field(min_length=1)
    suite: str | None = None
    category: str | None = None
    locale: str | None = None
    hsa: dict[str, Any] | None = None
    faults: dict[str, float] | None = None
    patch: list[dict[str, Any]] | None = None
    history: list[_History] | None = None
    instructions: list[dict[str, Any]] | None = None
    gold: dict[str, Any] | None = None

    @field_validator("t")
    @classmethod
    def _finite(cls, v: float) -> float:
        if not math.isfinite(v):
            raise ValueError("must be a finite number of room seconds")
        return v


def canonical_line(case: dict[str, Any]) -> str:
    """A case as the one canonical JSON line the suites hash (sorted keys, UTF-8 kept)."""
    return json.dumps(case, ensure_ascii=False, sort_keys=True)


def cases_hash(cases: Iterable[dict[str, Any]]) -> str:
    """SHA-256 over the cases as canonical JSON lines: a suite's manifest hash, and a case file's."""
    h = hashlib.sha256()
    for c in cases:
        h.update(canonical_line(c).encode())
        h.update(b"\n")
    return h.hexdigest()


def write_cases(cases: Iterable[dict[str, Any]], path: str | Path) -> int:
    """Write ``cases`` to ``path`` as JSON Lines (canonical form); returns how many were written."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with p.open("w", encoding="utf-8") as fh:
        for c in cases:
            fh.write(canonical_line(c) + "\n")
            n += 1
    return n


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(x) for x in loc)


def read_cases(path: str | Path) -> tuple[list[dict[str, Any]], str]:
    """Read and check a case file.

    Args:
        path: a JSON Lines file, one case object a line (blank lines skipped).

    Returns:
        ``(cases, hash)``: the cases with their defaults filled in (suite, category, locale, parsed intents),
        and the SHA-256 of the cases as written (:func:`cases_hash`).

    Raises:
        FileError: every problem found, each with its line, field and reason (bad JSON, a missing or wrong-typed
            field, an unknown scenario, a duplicate id), or a file that cannot be read.
    """
    from hat_env.sim.scenario import load_scenario

    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise FileError(p, [("", None, f"cannot read the case file: {exc}")]) from None
    problems: list[tuple[str, int | None, str]] = []
    raw: list[tuple[int, dict[str, Any]]] = []
    seen: dict[str, int] = {}
    for n, obj in object_lines(text):
        if isinstance(obj, BadLine):
            problems.append(("", n, obj.reason))
            continue
        try:
            _Case.model_validate(obj)
        except ValidationError as exc:
            for e in exc.errors():
                problems.append((_loc(e["loc"]), n, e["msg"]))
            continue
        if obj["id"] in seen:
            problems.append(("id", n, f"duplicate id {obj['id']!r} (first on line {seen[obj['id']]})"))
            continue
        seen[obj["id"]] = n
        raw.append((n, obj))
    if not raw and not problems:
        problems.append(("", None, "no cases in the file"))
    locales: dict[str, str] = {}
    for n, obj in raw:
        name = obj["scenario"]
        if name not in locales:
            try:
                locales[name] = load_scenario(name).locale
            except FileError as exc:
                reason = "; ".join(r for _f, _l, r in exc.problems) or str(exc)
                problems.append(("scenario", n, f"{name}: {reason}"))
                locales[name] = ""
    if problems:
        raise FileError(p, problems)
    digest = cases_hash(obj for _n, obj in raw)
    suite = p.stem
    out = []
    for _n, obj in raw:
        c = json.loads(json.dumps(obj))
        c.setdefault("suite", suite)
        c.setdefault("category", "")
        c.setdefault("locale", locales[c["scenario"]])
        for com in c["comments"]:
            if "intents" not in com:
                com["intents"] = _parse(com["text"], c["locale"])
        out.append(c)
    return out, digest


def _parse(text: str, locale: str) -> list[dict[str, Any]]:
    """The intents the comment parser reads in ``text``."""
    from hat_env.sim.parser import parse_comment

    return [i.to_dict() for i in parse_comment(text, locale)]


def stratified_sample(cases: list[dict[str, Any]], n: int, seed: int, key: str = "category") -> list[dict[str, Any]]:
    """``n`` of ``cases``, each stratum (value of ``key``) getting its share by the largest-remainder rule.

    Args:
        cases: the cases of one suite, in suite order.
        n: how many to draw (all when ``n`` is at least their number).
        seed: fixes the draw.
        key: the field that names a case's stratum.

    Returns:
        The drawn cases in their original order.
    """
    if n >= len(cases):
        return list(cases)
    if n <= 0:
        return []
    groups: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(cases):
        groups[str(c.get(key, ""))].append(i)
    names = sorted(groups)
    quota = {g: n * len(groups[g]) / len(cases) for g in names}
    take = {g: int(quota[g]) for g in names}
    left = n - sum(take.values())
    for g in sorted(names, key=lambda g: (-(quota[g] - take[g]), g))[:left]:
        take[g] += 1
    suite = str(cases[0].get("suite", ""))
    picked: list[int] = []
    for g in names:
        rng = random.Random(f"sample:{seed}:{suite}:{g}")
        picked += rng.sample(groups[g], take[g])
    return [cases[i] for i in sorted(picked)]


def select(cases: list[dict[str, Any]], limit: int | None = None, sample: int | None = None,
           sample_seed: int = 0) -> list[dict[str, Any]]:
    """The cases a run takes from each suite: the first ``limit`` of each, or a stratified ``sample`` of each.

    Args:
        cases: cases of one or more suites (grouped by their ``suite`` field, kept in order).
        limit: the first N cases of each suite, or ``None``.
        sample: N cases of each suite drawn by :func:`stratified_sample`, or ``None``.
        sample_seed: the seed of the draw.

    Raises:
        ValueError: both ``limit`` and ``sample`` given, or a negative one.
    """
    if limit is not None and sample is not None:
        raise ValueError("--limit and --sample: give one of them")
    for name, v in (("--limit", limit), ("--sample", sample)):
        if v is not None and v < 0:
            raise ValueError(f"{name}: must be at least 0, got {v}")
    if limit is None and sample is None:
        return list(cases)
    by_suite: dict[str, list[dict[str, Any]]] = {}
    for c in cases:
        by_suite.setdefault(str(c.get("suite", "")), []).append(c)
    out: list[dict[str, Any]] = []
    for group in by_suite.values():
        out += group[:limit] if limit is not None else stratified_sample(group, int(sample or 0), sample_seed)
    return out


__all__ = ["canonical_line", "cases_hash", "read_cases", "select", "stratified_sample", "write_cases"]
