"""The caches that make evaluation fast give what the slow path gives: suites from the disk cache, tool-schema
checks, scenarios loaded without a deep copy."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.evaluation import suite_cache
from hat_env.evaluation.suites import generate_lines, manifest_hash


def test_a_cached_suite_is_the_generated_suite(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAT_ENV_CACHE", str(tmp_path))
    made = generate_lines("ifeval-live-v1")
    calls: list[int] = []

    def gen() -> tuple[str, ...]:
        calls.append(1)
        return made

    first = suite_cache.cached_lines("ifeval-live-v1", gen)
    again = suite_cache.cached_lines("ifeval-live-v1", gen)
    assert first == again == made and len(calls) == 1  # generated once, then read back
    stored = tmp_path / "suites" / f"{manifest_hash('ifeval-live-v1')}.jsonl"
    assert stored.read_text(encoding="utf-8") == "".join(line + "\n" for line in made)  # content-addressed
    stored.write_text(stored.read_text(encoding="utf-8").replace("link", "lnk", 1), encoding="utf-8")
    assert suite_cache.cached_lines("ifeval-live-v1", gen) == made and len(calls) == 2  # a damaged file: regenerated


def test_the_cache_key_covers_the_code_and_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another digest of hat-env's files is another cache entry (an edited generator never reads old cases)."""
    monkeypatch.setenv("HAT_ENV_CACHE", str(tmp_path))
    suite_cache.cached_lines("ifeval-live-v1", lambda: ("a",))
    monkeypatch.setattr(suite_cache, "inputs_digest", lambda: "0" * 64)
    assert suite_cache.cached_lines("ifeval-live-v1", lambda: ("b",)) == ("b",)
    index = json.loads((tmp_path / "suites" / f"ifeval-live-v1.{'0' * 64}.json").read_text())
    assert index["suite"] == "ifeval-live-v1" and index["inputs"] == "0" * 64


def test_the_cache_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAT_ENV_CACHE", "off")
    assert suite_cache.cache_dir() is None
    assert suite_cache.cached_lines("x", lambda: ("fresh",)) == ("fresh",)


def test_schema_checks_answer_the_same_from_the_cache() -> None:
    from hat_env.harness import schema

    good = {"type": "object", "properties": {"q": {"type": "string", "pattern": "^[a-z]+$"}}}
    bad = {"type": "object", "properties": {"q": {"type": 5}}}
    for s in (good, bad):
        first = schema.problems(s)
        assert schema.problems(json.loads(json.dumps(s))) == first == schema._problems(s)
    assert schema.problems(good) == [] and schema.problems(bad)
    # keys that JSON would turn into strings never share an answer with the string keys
    odd = {"type": "object", "properties": {1: {"type": "string"}}}
    assert schema._cache_key(odd) is None
    assert schema.problems(odd) == schema._problems(odd)


def test_a_loaded_scenario_is_a_copy_at_its_top_level() -> None:
    from hat_env.sim.scenario import load_scenario

    a = load_scenario("beauty_zh")
    a.duration_s = 1.0
    b = load_scenario("beauty_zh")
    assert b.duration_s != 1.0 and a is not b
    c = b.model_copy(update={"viewers": b.viewers.model_copy(update={"initial": 0})})
    assert load_scenario("beauty_zh").viewers.initial == b.viewers.initial != c.viewers.initial


def test_old_code_versions_leave_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HAT_ENV_CACHE", str(tmp_path))
    for v in range(suite_cache.KEEP + 2):
        monkeypatch.setattr(suite_cache, "inputs_digest", lambda v=v: f"{v:064d}")
        suite_cache.cached_lines("s", lambda v=v: (f"case {v}",))
    folder = tmp_path / "suites"
    assert len(list(folder.glob("s.*.json"))) == suite_cache.KEEP
    assert len(list(folder.glob("*.jsonl"))) == suite_cache.KEEP
