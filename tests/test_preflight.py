"""Validation at start (hat_env/envs/preflight.py, harness/fallback.py, harness/skills.py): a patch naming what the
harness lacks is an error with file and line before a session starts (scenario timelines, case patches, --harness
overrides), every error carries its file and line (rule packs, SKILL.md), skill metadata is checked, and fallback
replies keep the reply constraints."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from hat_env.cli import main
from hat_env.envs.live_qa import request_from_case
from hat_env.envs.preflight import CaseError, check_case, check_scenario
from hat_env.envs.session import LiveSession
from hat_env.evaluation.runner import build_session
from hat_env.evaluation.suites import load_suite
from hat_env.harness import Harness
from hat_env.harness.core import harnesses_dir
from hat_env.sim.scenario import load_scenario
from hat_env.yamlio import FileError, file_errors

APPAREL = load_scenario("apparel_flash_zh")  # its timeline at 300 s updates item-qa and renames a tool


def _pack(tmp_path: Path, name: str = "pack") -> Path:
    dst = tmp_path / name
    shutil.copytree(harnesses_dir() / "default", dst)
    return dst


def _rename_skill(pack: Path, old: str, new: str) -> None:
    (pack / "skills" / old).rename(pack / "skills" / new)
    md = pack / "skills" / new / "SKILL.md"
    md.write_text(md.read_text(encoding="utf-8").replace(f"name: {old}", f"name: {new}", 1), encoding="utf-8")


def _edit_yaml(path: Path, fn: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    fn(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")


def _scenario(tmp_path: Path, patch: list[dict[str, Any]], at_s: float = 300) -> Path:
    data = yaml.safe_load(Path(load_scenario("electronics_en").source).read_text(encoding="utf-8"))
    data["harness_timeline"] = [{"at_s": 10, "note": "fine", "patch": [{"op": "set", "path":
                                                                      "constraints.turn_limit", "value": 6}]},
                                {"at_s": at_s, "note": "breaks", "patch": patch}]
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return p


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if needle in ln)


def test_timeline_patch_naming_a_missing_skill_fails_at_start_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = _scenario(tmp_path, [{"op": "update_skill", "skill": "item-qa", "set": {"description": "x"}},
                             {"op": "update_skill", "skill": "no-such-qa", "set": {"description": "y"}}])
    line = _line_of(p, "no-such-qa")
    with pytest.raises(FileError) as ei:
        LiveSession(load_scenario(p))  # the session never starts, let alone runs to 300 s
    (fld, ln, why), = ei.value.problems
    assert (fld, ln) == ("harness_timeline.1.patch.1.skill", line)
    assert "no skill named 'no-such-qa'" in why and "item-qa" in why  # and what the harness has
    assert main(["validate", str(p)]) == 1
    assert f"{p.resolve()}:{line}: harness_timeline.1.patch.1.skill: at 300s" in capsys.readouterr().out
    trace = tmp_path / "t.jsonl"
    assert main(["run", "--scenario", str(p), "--trace", str(trace), "--quiet"]) == 2
    assert f":{line}: harness_timeline.1.patch.1.skill" in capsys.readouterr().out and not trace.exists()


def test_a_patch_that_leaves_the_harness_invalid_names_its_entry(tmp_path: Path) -> None:
    p = _scenario(tmp_path, [{"op": "set", "path": "constraints.max_reply_chars", "value": 5}])
    errs = check_scenario(load_scenario(p))
    (fld, ln, why), = errs[0].problems
    assert fld == "harness_timeline.1.patch" and ln == _line_of(p, "note: breaks") + 1  # its "patch:" line
    assert "constraints.max_reply_chars" in why and "greater than or equal to 10" in why
    bad_shape = _scenario(tmp_path, [{"op": "set", "path": 5, "value": 1}])
    (fld, _ln, why), = check_scenario(load_scenario(bad_shape))[0].problems
    assert fld == "harness_timeline.1.patch.0" and "invalid operation" in why


def test_harness_override_is_checked_against_the_timeline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = _pack(tmp_path)
    _rename_skill(pack, "item-qa", "product-qa")
    assert main(["validate", str(pack)]) == 0  # a fine pack in itself
    src = APPAREL.source
    assert main(["validate", src]) == 0
    assert main(["validate", src, "--harness", str(pack)]) == 1
    out = capsys.readouterr().out
    line = APPAREL.line("harness_timeline", 0, "patch", 1, "skill")
    assert f"{src}:{line}: harness_timeline.0.patch.1.skill: at 300s, on harness default: patch[1]: no skill named " \
           "'item-qa'" in out
    assert main(["run", "--scenario", src, "--harness", str(pack), "--trace", "none", "--quiet"]) == 2
    assert "no skill named 'item-qa'" in capsys.readouterr().out
    for viewers in (True, False):  # the envs and evaluation sessions too: the host follows the timeline
        with pytest.raises(FileError, match="harness_timeline.0.patch.1.skill"):
            LiveSession(APPAREL, harness=str(pack), viewers=viewers)
    assert main(["validate", src, "--harness", "default"]) == 0


def test_case_patches_are_checked_when_the_case_is_built(tmp_path: Path) -> None:
    case = dict(load_suite("robust-v1")[1])
    assert case["category"] == "distractor_tools" and case["patch"]
    assert check_case(case) == []
    bad = dict(case, patch=[{"op": "remove_tool", "tool": "get_weather_now"}])
    msgs = check_case(bad)
    assert msgs == [f"case {case['id']}: patch.0: on harness default: patch[0]: no tool named 'get_weather_now'; "
                    f"the harness has tools: " + ", ".join(t.name for t in Harness.load("default").spec.tools)]
    with pytest.raises(CaseError, match=r"patch\.0: .*no tool named 'get_weather_now'"):
        build_session(bad)
    pack = _pack(tmp_path)
    _rename_skill(pack, "item-qa", "product-qa")
    upd = dict(case, patch=[{"op": "update_skill", "skill": "item-qa", "set": {"description": "x"}}])
    assert check_case(upd) == [] and "no skill named 'item-qa'" in check_case(upd, str(pack))[0]


def test_skill_md_errors_point_at_the_skill_md_and_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = _pack(tmp_path)
    md = pack / "skills" / "item-qa" / "SKILL.md"
    text = md.read_text(encoding="utf-8")
    md.write_text(text.replace("  kind: reply", "  kind: replyy").replace("intents: price,spec,", "intents: price,specs,"),
                  encoding="utf-8")
    md2 = pack / "skills" / "chitchat" / "SKILL.md"
    md2.write_text(md2.read_text(encoding="utf-8").replace("description:", "description: ''\nx-description:", 1),
                   encoding="utf-8")
    _edit_yaml(pack / "harness.yaml", lambda d: d["constraints"].update(turn_limit=0))
    with pytest.raises(FileError) as ei:
        Harness.load(pack)
    # every file's problems at once, each at its own file and line
    by_file = {e.path: e.problems for e in file_errors(ei.value)}
    assert set(by_file) == {str(md), str(md2), str(pack / "harness.yaml")}
    assert ("x-description", _line_of(md2, "x-description"), "unknown field") in by_file[str(md2)]
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    assert f"{md}:{_line_of(md, 'kind:')}: metadata.kind: kind must be 'reply' or 'strategy', got 'replyy'" in out
    assert f"{md}:{_line_of(md, 'intents:')}: metadata.intents: unknown intent kinds ['specs']" in out
    assert f"{pack / 'harness.yaml'}:{_line_of(pack / 'harness.yaml', 'turn_limit')}: constraints.turn_limit:" in out


@pytest.mark.parametrize("front,field,reason,at", [
    ("name: item-qa\ndescription: ''\n", "description", "at least 1 character", "description:"),
    ("name: item-qa\ndescription: d\nmetadata:\n  kind: reply\n  intents: [price, stock]\n", "metadata.intents",
     "write intents as one comma-separated string", "intents:"),
    ("name: item-qa\ndescription: d\nmetadata:\n  kind: reply\n", "metadata.intents",
     "a reply skill must list the intent kinds", "metadata:"),
    ("name: item-qa\ndescription: d\nlicense: MIT\n", "license", "unknown field", "license:"),
    ("description: d\nname: other\n", "name", "must equal the folder name", "name:"),
])
def test_skill_md_field_errors(tmp_path: Path, front: str, field: str, reason: str, at: str) -> None:
    pack = _pack(tmp_path)
    md = pack / "skills" / "item-qa" / "SKILL.md"
    md.write_text(f"---\n{front}---\n\nbody\n", encoding="utf-8")
    with pytest.raises(FileError) as ei:
        Harness.load(pack)
    assert ei.value.path == str(md)
    (fld, line, why), = ei.value.problems
    assert fld == field and reason in why and line == _line_of(md, at)


def test_fallback_must_keep_the_reply_constraints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pack = _pack(tmp_path)
    y = pack / "harness.yaml"
    _edit_yaml(y, lambda d: d["constraints"].update(required_disclosure="[AI host]"))
    # the pack has no fallback texts of its own (the locale files give them), so the one a room without a text
    # gets lacks the disclosure: an error at the fallback_reply line (a fallback skips the hooks)
    assert main(["validate", str(pack)]) == 1
    out = capsys.readouterr().out
    assert f"{y}:{_line_of(y, 'fallback_reply:')}: constraints.fallback_reply: the fallback reply lacks" in out  # '...'
    _edit_yaml(y, lambda d: d["constraints"].update(max_reply_chars=40, fallback_reply={
        "default": "One moment please. [AI host]", "en_US": "Give me a moment, I'll check that for you. [AI host]"}))
    with pytest.raises(FileError, match=r"fallback_reply\.en_US: the fallback reply has 52 characters; replies may "
                                        r"have at most 40"):
        Harness.load(pack)
    _edit_yaml(y, lambda d: d["constraints"].update(max_reply_chars=150, forbidden_words=["moment"]))
    with pytest.raises(FileError, match=r"fallback_reply\.default: the fallback reply contains forbidden words "
                                        r"\['moment'\]"):
        Harness.load(pack)
    _edit_yaml(y, lambda d: d["constraints"].update(forbidden_words=[]))
    h = Harness.load(pack)
    # the fallback a session sends is the text as written, which now keeps every constraint
    s = LiveSession("electronics_en", harness=h, viewers=False)
    s.open_request(request_from_case({"t": 1.0, "comments": [{"text": "how much is link 1?",
                                                              "intents": [{"kind": "price", "link": 1}]}]}))
    scores = None
    for _ in range(20):
        scores = s.feed("not a real reply " * 10)  # too long: blocked until the retry budget is spent
        if scores is not None:
            break
    out_ = s.outcomes[-1][0]
    assert out_.fallback and out_.reply == "Give me a moment, I'll check that for you. [AI host]"
    assert scores is not None and scores["components"]["constraints"] == 1.0


def test_a_patch_that_breaks_the_fallback_is_an_error_at_the_patch(tmp_path: Path) -> None:
    p = _scenario(tmp_path, [{"op": "set", "path": "constraints.required_disclosure", "value": "[AI]"}])
    (e,) = check_scenario(load_scenario(p))
    (fld, ln, why), = e.problems
    assert fld == "harness_timeline.1.patch" and "lacks the required disclosure '[AI]'" in why
    ok = _scenario(tmp_path, [{"op": "set", "path": "constraints.required_disclosure", "value": "[AI]"},
                              {"op": "set", "path": "constraints.fallback_reply",
                               "value": {"default": "One moment [AI]"}}])
    assert check_scenario(load_scenario(ok)) == []


def test_fallback_breaking_a_room_compliance_rule_is_reported_at_the_harness(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    _edit_yaml(pack / "harness.yaml", lambda d: d["constraints"]["fallback_reply"].update(
        en_US="One moment, this is the best deal ever!"))
    sc = load_scenario("electronics_en")  # EN-ABS is on: no "the best"
    errs = check_scenario(sc, str(pack))
    (e,) = errs
    (fld, line, why), = e.problems
    assert e.path == str(pack / "harness.yaml") and fld == "constraints.fallback_reply.en_US"
    assert line == _line_of(pack / "harness.yaml", "en_US:") and "EN-ABS" in why
    assert check_scenario(load_scenario("beauty_zh"), str(pack)) == []  # its zh_CN text is fine


def test_rule_pack_errors_carry_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = yaml.safe_load(Path(load_scenario("electronics_en").source).read_text(encoding="utf-8"))
    data["compliance"]["enabled"] = ["EN-ABS", "NOPE"]
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert main(["validate", str(p)]) == 1
    assert f"{p.resolve()}:{_line_of(p, '- NOPE')}: compliance.enabled.1: unknown rule id 'NOPE'" in capsys.readouterr().out
    data["compliance"]["enabled"] = None
    data["compliance"]["extra_rules"] = [{"id": "X1", "kind": "bogus", "terms": ["a"]}]
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    assert main(["validate", str(p)]) == 1
    assert f"{p.resolve()}:{_line_of(p, 'kind: bogus')}: compliance.extra_rules.0.kind:" in capsys.readouterr().out


def test_builtin_scenarios_and_suites_pass_the_preflight() -> None:
    from hat_env.sim.scenario import builtin_scenarios

    for name in builtin_scenarios():
        assert check_scenario(load_scenario(name)) == [], name
    for case in load_suite("ifeval-live-v1")[:20] + load_suite("robust-v1")[:12]:
        assert check_case(case) == [], json.dumps(case)[:200]
