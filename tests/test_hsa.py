"""Harness-State Augmentation: variants validate, keep the task, really change what they claim, map gold
actions both ways, use only their family's vocabulary; the memoriser fails on held-out variants while the
reference does not; environments, traces and the CLI carry HSA."""

from __future__ import annotations

import json
import random
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import gymnasium
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hat_env.agents.memorizer import MemorizerAgent
from hat_env.agents.reference import ReferenceAgent
from hat_env.envs.session import LiveSession
from hat_env.harness.core import Harness
from hat_env.harness.spec import SKILL_NAME_RE, TOOL_NAME_RE
from hat_env.hsa import DIMENSIONS, FAMILIES, augment, augment_from_options, parse_dims, vocabulary
from hat_env.hsa.transforms import MIN_REPLY_CHARS, MIN_TURN_LIMIT, parse_body
from hat_env.runner import run_session
from hat_env.sim.scenario import builtin_scenarios

SCENARIOS = builtin_scenarios()
DIM_CHOICES = ["all"] + [[d] for d in DIMENSIONS] + [["tool_schemas", "constraints"], ["skill_ids", "prompt"]]

#: Canonical arguments to translate for each operation.
CANON = {
    "product_by_link": [{"link": 3}],
    "product_by_id": [{"product_id": "P002"}],
    "list_products": [{}],
    "campaigns": [{}, {"product_id": "P001"}, {"product_id": "P001", "kind": "coupon"}, {"kind": "flash_sale"}],
    "stock": [{"product_id": "P003"}],
    "shipping_policy": [{"product_id": "P004"}],
    "after_sales_policy": [{"product_id": "P005"}],
    "order_status": [{"order_id": "A1001"}],
    "pin_product": [{"product_id": "P001"}],
    "send_coupon": [{"coupon_id": "CPN-STORE-1"}],
}


@pytest.fixture(scope="module")
def default() -> Harness:
    return Harness.load("default")


_DEFAULT = Harness.load("default")


def _variant(seed: int, dims: Any, strength: float, family: str) -> tuple[Harness, Any]:
    return augment(_DEFAULT, random.Random(seed), dims, strength, family, check=True)


# -- validity, determinism, replay, mapping ----------------------------------------------------------------


def _check_mapping_round_trip(h: Harness, v: Harness, m: Any) -> None:
    inv = m.inverse()
    for tool in h.spec.tools:
        if tool.op is None:
            continue
        for canon in CANON[tool.op]:
            args = h.encode_args(tool, canon)
            name, new_args = m.translate_call(tool.name, args)
            target = v.tools_by_name[name]
            assert target.op == tool.op
            assert v.decode_args(target, new_args) == canon  # the variant reads the same canonical call
            assert inv.translate_call(name, new_args) == (tool.name, args)  # exact round trip
        result = {"product_id": "P001", "title": "x", "final_price": 9.9, "link": 3, "campaigns": [], "ok": True}
        name, res2 = m.translate_result(tool.name, result)
        assert inv.translate_result(name, res2) == (tool.name, result)
        assert v.decode_result(v.tools_by_name[name], res2) == h.decode_result(tool, result)
    st_h = h.spec.skill_tool
    for skill in h.spec.skills:
        name, args = m.translate_call(st_h.name, {st_h.param: skill.name})
        assert name == v.spec.skill_tool.name and args[v.spec.skill_tool.param] in v.skills_by_name
        assert inv.translate_call(name, args) == (st_h.name, {st_h.param: skill.name})
    for intent, (old, new) in m.reply_skills.items():
        if old is None or new is None:
            continue
        assert m.translate_skill(old, intent) == new
        assert inv.translate_skill(new, intent) == old
        assert intent in v.reply_skills[new]


def _claims(h: Harness, v: Harness, m: Any, dims: tuple[str, ...], strength: float) -> None:
    """The variant differs in what each applied dimension claims to change."""
    hs, vs = h.spec, v.spec
    if "skill_ids" in dims:
        renamed = [s for s in m.skills if m.skills[s] != s]
        assert renamed
        if strength == 1.0:
            assert len(renamed) == len(hs.skills)
        for s in vs.skills:
            assert SKILL_NAME_RE.match(s.name) and len(s.name) <= 64
    if "skill_content" in dims:
        changed = False
        for s in hs.skills:
            t = v.skills_by_name[m.skills[s.name]]
            if "constraints" not in dims:
                assert t.metadata == s.metadata  # kind and intents stay
            changed |= (t.body != s.body) or (t.description != s.description)
            for _head, kind, content in parse_body(s.body)[1]:
                if kind == "binding":
                    assert content in t.body  # binding rules verbatim
        assert changed or m.added_skills  # (the edits may all have gone to a reply skill the constraints added)
    if "tool_schemas" in dims:
        def shape(t: Any) -> tuple:
            return (t.name, json.dumps(t.parameters), t.description, tuple(sorted(t.results.items())))  # order counts

        before = {shape(t) for t in hs.tools}
        after = {shape(t) for t in vs.tools}
        assert before != after or hs.skill_tool != vs.skill_tool or [t.name for t in hs.tools] != [t.name for t in vs.tools]
        if strength == 1.0:
            assert all(m.tools[t.name] != t.name for t in hs.tools)  # every tool renamed
        for t in vs.tools:
            assert TOOL_NAME_RE.match(t.name)
    if "prompt" in dims:
        sec = lambda p: [(s.id, s.title, s.text, s.source) for s in p.sections]  # noqa: E731
        assert (hs.prompt.markup != vs.prompt.markup or sec(hs.prompt) != sec(vs.prompt)
                or len(hs.tools) != len(vs.tools))
    if "constraints" in dims:
        c = vs.constraints
        assert m.constraints or m.added_skills
        assert c.turn_limit >= MIN_TURN_LIMIT
        assert c.max_reply_chars is None or c.max_reply_chars >= MIN_REPLY_CHARS
        # the reply budget beside the disclosure is kept
        budget = lambda c: c.max_reply_chars - (len(c.required_disclosure) + 1 if c.required_disclosure else 0)  # noqa: E731
        assert budget(c) == budget(hs.constraints)
        # every intent is still covered by a reply skill
        assert set().union(*h.reply_skills.values()) == set().union(*v.reply_skills.values())


@settings(max_examples=100, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dims=st.sampled_from(DIM_CHOICES), family=st.sampled_from(FAMILIES),
       strength=st.sampled_from([0.15, 0.5, 1.0]))
def test_variant_is_valid_deterministic_replayable_and_maps_both_ways(seed: int, dims: Any, family: str,
                                                                      strength: float) -> None:
    h = _DEFAULT
    v, m = _variant(seed, dims, strength, family)  # check=True: schemas, bindings, hooks, skills
    Harness(v.spec, check=True)
    assert v.hash != h.hash
    assert augment(h, random.Random(seed), dims, strength, family)[0].hash == v.hash  # same seed, same variant
    assert h.apply(m.ops).hash == v.hash  # the recorded patch rebuilds it
    assert h.hash == Harness.load("default").hash  # the original is untouched
    _check_mapping_round_trip(h, v, m)
    _claims(h, v, m, parse_dims(dims), strength)


#: Fingerprint of 200 seeded variants of the default harness (both families, several dims and strengths). The
#: suites store HSA options, not variants, so hvqa-v1 and every seeded HSA run change when this does.
PINNED_VARIANTS = "c9182191d77abc49"


def test_seeded_variants_are_pinned(default: Harness) -> None:
    """Speed work on the transforms must not change a single variant: a deliberate change re-pins this (and
    bumps the versions of the suites that run under HSA)."""
    import hashlib

    acc = hashlib.sha256()
    for fam in FAMILIES:
        for dims, s in (("all", 1.0), ("all", 0.3), ("tool_schemas", 1.0), ("skill_content,prompt", 0.6)):
            rng = random.Random(f"pin:{fam}:{dims}:{s}")
            for _ in range(25):
                v, m = augment(default, rng, dims, s, fam)
                acc.update(f"{v.hash}:{len(m.ops)};".encode())
    assert acc.hexdigest()[:16] == PINNED_VARIANTS


def test_strength_zero_is_the_identity(default: Harness) -> None:
    v, m = augment(default, random.Random(1), "all", 0.0, "heldout")
    assert v is default and v.hash == default.hash and m.ops == []
    assert m.translate_call("get_product_info_by_link_id", {"link_id": 2}) == ("get_product_info_by_link_id", {"link_id": 2})


def test_strength_scales_how_much_changes(default: Harness) -> None:
    def ops(strength: float) -> float:
        return sum(len(augment(default, random.Random(s), "all", strength, "train")[1].ops) for s in range(20)) / 20

    assert ops(0.1) < ops(0.5) < ops(1.0)


def test_bad_options_raise_with_the_valid_values(default: Harness) -> None:
    with pytest.raises(ValueError, match="skill_ids"):
        augment(default, random.Random(0), ["tools"])
    with pytest.raises(ValueError, match="heldout"):
        augment(default, random.Random(0), "all", 1.0, "test")
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        augment(default, random.Random(0), "all", 1.5)
    with pytest.raises(ValueError, match="strength"):
        augment_from_options(default, {"dims": "all", "seed": 3}, random.Random(0))
    assert parse_dims("prompt, skill_ids") == ("skill_ids", "prompt")


def test_augment_from_options_info_rebuilds_the_variant(default: Harness) -> None:
    v, info = augment_from_options(default, {"dims": ["tool_schemas", "prompt"], "strength": 0.8, "family": "heldout"},
                                   random.Random(5))
    assert info["hash"] == v.hash and info["parent_hash"] == default.hash and info["ops"] == len(info["patch"])
    assert info["dims"] == ["tool_schemas", "prompt"] and info["family"] == "heldout" and info["strength"] == 0.8
    assert default.apply(json.loads(json.dumps(info["patch"]))).hash == v.hash


def test_gold_reply_is_rechecked_under_new_constraints(default: Harness) -> None:
    v, m = augment(default, random.Random(2), ["constraints"], 1.0, "train")
    c = v.spec.constraints
    reply = "3号防晒霜券后价89元。"
    new = m.translate_reply(reply)
    assert m.check_reply(new) == []
    if c.required_disclosure:
        assert c.required_disclosure in new and m.check_reply(reply)
    assert m.inverse().translate_reply(new) == reply
    assert m.check_reply("x" * (c.max_reply_chars + 1))


# -- vocabulary families -----------------------------------------------------------------------------------


def test_families_are_disjoint_and_names_valid() -> None:
    train, held = vocabulary("train"), vocabulary("heldout")
    assert FAMILIES == ("train", "heldout")
    for kind in set(train.kinds()) | set(held.kinds()):
        a, b = train.values.get(kind, frozenset()), held.values.get(kind, frozenset())
        assert not (a & b), (kind, sorted(a & b)[:5])
        assert not any(held.owns(kind, x) for x in a), kind
        assert not any(train.owns(kind, x) for x in b), kind
    for voc in (train, held):
        for name in voc.values["tool_name"] | voc.values["skill_tool_name"]:
            assert TOOL_NAME_RE.match(name) and "." not in name, name
        for name in voc.values["skill_name"]:
            assert SKILL_NAME_RE.match(name) and len(name) <= 64, name
        assert all(not re.search(r"\d", d) for d in voc.values["disclosure"])  # no number claims in a disclosure


@pytest.mark.parametrize("old, new, where, reason", [
    ("read_verbs: [get, fetch, lookup, query, find]", "read_verbs: get", ":8: read_verbs:", "valid list"),
    ("tool_casings: [snake, camel]", "tool_casings: [snake, Camel]", ":6: tool_casings.1:", "'screaming'"),
    ("skill_version_numbers: ['2',", "skill_version_numbers: [2,", ": skill_version_numbers.0:", "valid string"),
    ("  stock: [stock level, inventory count, units left]\n", "", ": tool_nouns.stock:", "missing nouns"),
    ("      announce: Announce it in one short sentence with the amount the tool returned.\n", "",
     ": skill_text.en.steps.announce:", "missing step lines ['announce']"),
    ("pattern: ^sk-[0-9a-f]{6}$", "pattern: ^sk-[0-9a-f{6}$", ": skill_code.pattern:", "regular expression"),
    ("markups: [markdown, xml]", "markups: [markdown, xml]\nmarkup: [yaml]", ": markup:", "unknown field"),
    ("wrappers: [params, query, request]", "wrappers: !!python/object/apply:os.system ['echo hi']", ":59: wrappers:",
     "is not allowed"),
])
def test_a_broken_vocabulary_file_names_file_key_and_reason(tmp_path: Path, old: str, new: str, where: str,
                                                            reason: str) -> None:
    """The vocabularies are data files: a broken one (wrong type, a missing entry the transforms need, a bad
    pattern, an unknown key, a Python tag) is refused with the file, the key path, the line and the reason."""
    from hat_env.hsa.vocab_file import FAMILY_DIR, load_family
    from hat_env.yamlio import FileError

    text = (FAMILY_DIR / "train.yaml").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "train.yaml").write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(FileError) as err:
        load_family("train", tmp_path)
    msg = str(err.value)
    assert msg.startswith(str(tmp_path / "train.yaml") + ":") and where in msg and reason in msg, msg


def _leaf_names(schema: dict[str, Any]) -> set[str]:
    out = set()
    for k, sub in (schema.get("properties") or {}).items():
        out.add(k)
        if isinstance(sub, dict):
            out |= _leaf_names(sub)
    return out


def _assert_family_only(h: Harness, v: Harness, m: Any, family: str) -> None:
    """Everything the variant introduced comes from ``family`` and nothing from the other one."""
    own = vocabulary(family)
    other = vocabulary([f for f in FAMILIES if f != family][0])

    def check(kind: str, value: str) -> None:
        assert own.owns(kind, value), (family, kind, value)
        assert not other.owns(kind, value), (family, kind, value)

    hs, vs = h.spec, v.spec
    back = {new: old for old, new in {**m.tools, **m.skills}.items() if new != old}
    if vs.skill_tool.name != hs.skill_tool.name:
        back[vs.skill_tool.name] = hs.skill_tool.name

    def unrename(text: str) -> str:  # renames rewrite whole-word references in texts (patch semantics)
        if not back:
            return text
        pat = re.compile(r"(?<![A-Za-z0-9_\-])(" + "|".join(map(re.escape, back)) + r")(?![A-Za-z0-9_\-])")
        return pat.sub(lambda x: back[x.group(0)], text)

    h_tools = {t.name for t in hs.tools}
    h_params = set().union(*(_leaf_names(t.parameters) for t in hs.tools))
    h_tdescs = [t.description for t in hs.tools]
    notes = {n.format(prefix=b.codec.prefix) for t in vs.tools for b in t.args.values()
             for n in vocabulary(family).notes.values()}
    for t in vs.tools:
        if t.name not in h_tools:
            check("tool_name", t.name)
        if t.description not in h_tdescs:
            base = t.description
            for n in notes:
                base = base.replace(" " + n, "")
            assert base in h_tdescs or own.owns("tool_description", base), (family, t.description)
            assert not other.owns("tool_description", base), (family, t.description)
        for p in _leaf_names(t.parameters) - h_params:
            assert own.owns("param_name", p) or own.owns("wrapper", p), (family, p)
            assert not (other.owns("param_name", p) or other.owns("wrapper", p)), (family, p)
        for b in t.args.values():
            if b.codec.type == "prefix":
                check("prefix", b.codec.prefix)
            if b.codec.type == "enum":
                for val in b.codec.map:
                    if val not in b.codec.map.values():
                        check("enum_value", val)
        for new in t.results.values():
            check("result_field", new)
    if vs.skill_tool.name != hs.skill_tool.name:
        check("skill_tool_name", vs.skill_tool.name)
    if vs.skill_tool.param != hs.skill_tool.param:
        check("skill_tool_param", vs.skill_tool.param)
    h_skills = {s.name for s in hs.skills}
    h_descs = {s.description for s in hs.skills}
    h_heads = {head for s in hs.skills for head, _k, _c in parse_body(s.body)[1]}
    for s in vs.skills:
        if s.name not in h_skills:
            check("skill_name", s.name)
        if s.description not in h_descs and unrename(s.description) not in h_descs:
            check("skill_description", s.description)
        for head, _k, _c in parse_body(s.body)[1]:
            if head not in h_heads:
                check("skill_heading", head)
    if vs.prompt.markup != hs.prompt.markup:
        check("markup", vs.prompt.markup)
    h_secs = {(s.id, s.title, s.text) for s in hs.prompt.sections}
    h_ids = {s.id for s in hs.prompt.sections}
    h_titles = {s.title for s in hs.prompt.sections}
    h_texts = {s.text for s in hs.prompt.sections}
    for s in vs.prompt.sections:
        if (s.id, s.title, s.text) in h_secs:
            continue
        if s.id not in h_ids:
            check("section_id", s.id)
        if s.title not in h_titles:
            check("section_title", s.title)
        if s.text not in h_texts and unrename(s.text) not in h_texts:
            check("section_text", s.text)
    c0, c1 = hs.constraints, vs.constraints
    if c1.required_disclosure != c0.required_disclosure:
        check("disclosure", c1.required_disclosure)
    for w in set(c1.forbidden_words) - set(c0.forbidden_words):
        check("forbidden_word", w)
    for k, text in c1.feedback.items():
        if c0.feedback.get(k) != text:
            check("feedback", text)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), family=st.sampled_from(FAMILIES), strength=st.sampled_from([0.5, 1.0]))
def test_variants_use_only_their_family_vocabulary(seed: int, family: str, strength: float) -> None:
    v, m = augment(_DEFAULT, random.Random(seed), "all", strength, family)
    _assert_family_only(_DEFAULT, v, m, family)


# -- task preservation -------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _score(scenario: str, seed: int, hsa: str | None, agent: str = "reference", duration: float = 120.0) -> float:
    opts = json.loads(hsa) if hsa else None
    a = ReferenceAgent() if agent == "reference" else MemorizerAgent()
    return run_session(LiveSession(scenario, seed=seed, duration_s=duration, hsa=opts), a)["score"]


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(scenario=st.sampled_from(SCENARIOS), seed=st.integers(0, 10_000), dims=st.sampled_from(DIM_CHOICES),
       family=st.sampled_from(FAMILIES), strength=st.sampled_from([0.3, 0.7, 1.0]))
def test_reference_scores_the_same_under_any_variant(scenario: str, seed: int, dims: Any, family: str,
                                                     strength: float) -> None:
    hsa = json.dumps({"dims": dims, "strength": strength, "family": family})
    assert _score(scenario, seed, hsa) == _score(scenario, seed, None)


def test_task_preserved_across_a_mid_stream_harness_patch() -> None:
    """apparel_flash_zh patches its harness at 300 s; the session re-augments the patched harness."""
    hsa = json.dumps({"dims": "all", "strength": 1.0, "family": "heldout"})
    for seed in (0, 1):
        assert _score("apparel_flash_zh", seed, hsa, duration=420.0) == _score("apparel_flash_zh", seed, None,
                                                                               duration=420.0)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_memoriser_fails_on_heldout_variants_while_reference_does_not(scenario: str) -> None:
    held = json.dumps({"dims": "all", "strength": 1.0, "family": "heldout"})
    for seed in (0, 1):
        ref0, mem0 = _score(scenario, seed, None), _score(scenario, seed, None, "memorizer")
        ref1, mem1 = _score(scenario, seed, held), _score(scenario, seed, held, "memorizer")
        assert ref0 >= 95 and mem0 >= 95, (ref0, mem0)
        assert ref1 >= 95, ref1
        assert mem1 < 50, mem1


# -- environments, traces, CLI -----------------------------------------------------------------------------


def test_gym_env_records_the_variant_and_its_hash(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    hsa = {"dims": ["tool_schemas", "prompt", "constraints"], "strength": 1.0, "family": "heldout"}
    env = gymnasium.make("hat_env/LiveRoom-v0", scenario="beauty_zh", hsa=hsa, trace=str(trace), duration_s=60)
    obs, info = env.reset(seed=3)
    agent = ReferenceAgent()
    base = Harness.load("default")
    assert info["harness_hash"] != base.hash
    done = False
    steps = 0
    while not done and steps < 200:
        req = env.unwrapped.agent_request()
        obs, reward, done, _trunc, info = env.step(agent.act(req).text)
        steps += 1
    env.close()
    recs = [json.loads(x) for x in trace.read_text(encoding="utf-8").splitlines()]
    start = recs[0]
    assert start["type"] == "session_start"
    h = start["hsa"]
    assert h["family"] == "heldout" and h["dims"] == hsa["dims"] and h["parent_hash"] == base.hash
    assert start["harness"]["hash"] == h["hash"]
    assert base.apply(h["patch"]).hash == h["hash"]  # the trace holds the variant itself
    reqs = [r for r in recs if r["type"] == "request"]
    assert reqs and all(r["harness"]["hash"] == h["hash"] for r in reqs)
    assert recs[-1]["type"] == "session_end" and recs[-1]["score"] >= 95


def test_cli_hsa_show_prints_a_readable_diff(capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env.cli import main

    assert main(["hsa", "show", "--harness", "default", "--seed", "3", "--dims", "all"]) == 0
    out = capsys.readouterr().out
    assert "tools renamed:" in out and "skills renamed:" in out and "constraints:" in out
    assert "--- original/system_prompt" in out and "+++ variant/get_product_info_by_link_id -> " in out
    assert "+++ variant/item-qa/SKILL.md -> " in out and "tool order: " in out
    assert main(["hsa", "show", "--seed", "3", "--dims", "prompt", "--family", "heldout", "--strength", "0.5"]) == 0
    assert "family heldout" in capsys.readouterr().out


def test_renames_follow_hook_matchers_and_params_without_touching_the_parent(default: Harness) -> None:
    """A hook's matcher (a regex over tool names) and a string parameter naming a skill follow the renames; the
    variant's hooks are copies (variants share untouched hook dicts with the cached parent)."""
    d = default.to_dict()
    d["hooks"].append({"event": "before_tool", "check": "no_duplicate_call",
                       "matcher": "^(get_product_info_by_link_id|check_stock)$", "params": {}})
    d["hooks"].append({"event": "before_reply", "check": "forbidden_words", "matcher": None,
                       "params": {"words": ["cheapest"], "note": "item-qa"}})
    parent = Harness.from_dict(d)
    before = parent.to_dict()
    for seed in range(20):
        v, m = augment(parent, random.Random(seed), ["skill_ids", "tool_schemas"], 1.0, "heldout", check=True)
        hooks = v.to_dict()["hooks"]
        matcher = hooks[-2]["matcher"]
        for old in ("get_product_info_by_link_id", "check_stock"):
            assert m.tools[old] in matcher and (old in matcher) == (m.tools[old] == old)
        assert hooks[-1]["params"]["note"] == m.skills["item-qa"]
        assert hooks[-1]["params"]["words"] == ["cheapest"]
        assert [hk for hk in hooks[:-2]] == before["hooks"][:-2]
    from hat_env.hsa import _parent_dict

    assert _parent_dict(parent)["hooks"] == before["hooks"]  # the cached parent the variants start from
    assert parent.spec.model_dump(mode="json", by_alias=True)["hooks"] == before["hooks"]
    fresh = augment(parent, random.Random(0), "constraints", 1.0, "heldout")[0]  # untouched hooks stay shared
    assert fresh.spec.hooks[0] is parent.spec.hooks[0]


@settings(max_examples=80, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), dims=st.sampled_from(DIM_CHOICES), family=st.sampled_from(FAMILIES),
       strength=st.sampled_from([0.15, 0.5, 1.0]), chained=st.booleans())
def test_built_variants_equal_validated_ones(seed: int, dims: Any, family: str, strength: float,
                                             chained: bool) -> None:
    """By default a variant's models are built without validation (it is valid by construction): they must hold
    exactly what pydantic validation makes of the same data, for variants of the default harness and of a
    variant, and hash as the validated variant does."""
    from hat_env.harness.spec import HarnessSpec

    parent = augment(_DEFAULT, random.Random(seed ^ 1), "all", 1.0, family)[0] if chained else _DEFAULT
    v, _m = augment(parent, random.Random(seed), dims, strength, family)
    validated = HarnessSpec.model_validate(v.spec.model_dump(mode="python", by_alias=True))
    assert v.spec == validated
    assert v.spec.model_dump(mode="json") == validated.model_dump(mode="json")
    assert json.loads(v.canonical_json) == validated.model_dump(mode="json", by_alias=True)  # hashed from the dict
    assert v.hash == augment(parent, random.Random(seed), dims, strength, family, check=True)[0].hash
