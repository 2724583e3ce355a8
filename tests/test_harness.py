"""The Harness runtime: loading, validation errors, parsing model output, codecs, patches, hooks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hat_env.harness import ArgError, Harness, PatchError
from hat_env.harness.parse import parse_output
from hat_env.yamlio import FileError


@pytest.fixture(scope="module")
def default() -> Harness:
    return Harness.load("default")


def test_default_pack_has_tools_skills_and_stable_hash(default: Harness) -> None:
    assert len(default.spec.tools) >= 8 and len(default.spec.skills) >= 4
    assert default.hash == Harness.load("default").hash
    names = [t["function"]["name"] for t in default.openai_tools]
    assert names[-1] == "load_skill" and "get_product_info_by_link_id" in names
    assert set(default.reply_skills) >= {"item-qa", "after-sales", "purchase-guide", "chitchat"}


def test_parse_hermes_structured_bare_json_and_reply() -> None:
    out = parse_output('<think>hmm</think><tool_call>{"name": "a", "arguments": {"x": 1}}</tool_call>')
    assert [(c.name, c.arguments) for c in out.tool_calls] == [("a", {"x": 1})] and "hmm" in out.reasoning
    out = parse_output("", [{"id": "c1", "type": "function", "function": {"name": "b", "arguments": '{"y": "z"}'}}])
    assert out.tool_calls[0].arguments == {"y": "z"} and out.tool_calls[0].call_id == "c1"
    out = parse_output('{"name": "c", "arguments": {}}')
    assert out.tool_calls[0].name == "c"
    assert parse_output("  3号链接券后价89元  ").reply == "3号链接券后价89元"


@pytest.mark.parametrize(
    "raw", ["<tool_call>{not json</tool_call>", '<tool_call>{"arguments": {}}</tool_call>', "", "   ",
            '<tool_call>{"name": "x", "arguments": "[1"}</tool_call>'],
)
def test_garbage_output_is_an_error_not_an_exception(raw: str) -> None:
    out = parse_output(raw)
    assert out.error and not out.tool_calls and out.reply is None


def test_decode_args_validates_schema_and_codecs(default: Harness) -> None:
    tool = default.tools_by_name["get_product_info_by_link_id"]
    assert default.decode_args(tool, {"link_id": 3}) == {"link": 3}
    with pytest.raises(ArgError, match="link_id"):
        default.decode_args(tool, {"link_id": "three"})
    with pytest.raises(ArgError):
        default.decode_args(tool, {})
    h = default.apply([
        {"op": "update_tool", "tool": "get_product_info_by_link_id", "set": {
            "parameters": {"type": "object", "properties": {"q": {"type": "object", "properties": {"no": {"type": "string"}},
                                                                     "required": ["no"]}}, "required": ["q"]},
            "args": {"link": {"path": "q.no", "codec": {"type": "int_as_str"}}}}},
    ])
    t2 = h.tools_by_name["get_product_info_by_link_id"]
    assert h.encode_args(t2, {"link": 4}) == {"q": {"no": "4"}}
    assert h.decode_args(t2, {"q": {"no": "4"}}) == {"link": 4}


def test_patch_renames_follow_every_reference(default: Harness) -> None:
    h = default.apply([
        {"op": "rename_tool", "tool": "get_product_info_by_link_id", "to": "lookup_link"},
        {"op": "rename_skill", "skill": "item-qa", "to": "product-answers"},
        {"op": "rename_param", "tool": "lookup_link", "param": "link_id", "to": "linkNo"},
        {"op": "set", "path": "constraints.max_reply_chars", "value": 80},
    ])
    assert "lookup_link" in h.tools_by_name and "get_product_info_by_link_id" not in h.tools_by_name
    assert "product-answers" in h.reply_skills and "item-qa" not in h.skills_by_name
    assert h.decode_args(h.tools_by_name["lookup_link"], {"linkNo": 2}) == {"link": 2}
    assert h.spec.constraints.max_reply_chars == 80 and h.hash != default.hash
    assert "item-qa" not in h.canonical_json.replace('"item-qa"', "")  # no dangling reference in text
    with pytest.raises(PatchError, match="no tool"):
        default.apply([{"op": "rename_tool", "tool": "nope", "to": "x"}])
    with pytest.raises(PatchError, match="unknown operation"):
        default.apply([{"op": "explode"}])


def _pack(tmp_path: Path, mutate) -> Path:
    import shutil

    from hat_env.harness.core import harnesses_dir

    dst = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", dst)
    yml = dst / "harness.yaml"
    yml.write_text(mutate(yml.read_text(encoding="utf-8")), encoding="utf-8")
    return dst


def test_invalid_json_schema_names_file_field_and_line(tmp_path: Path) -> None:
    pack = _pack(tmp_path, lambda s: s.replace("link_id: {type: integer, minimum: 1,", "link_id: {type: 12, minimum: 1,"))
    with pytest.raises(FileError) as ei:
        Harness.load(pack)
    msg = str(ei.value)
    assert "harness.yaml" in msg and "tools.0.parameters" in msg and "JSON Schema" in msg
    assert ei.value.problems[0][1] is not None  # a line number


def test_unknown_field_and_unknown_hook_and_bad_skill(tmp_path: Path) -> None:
    pack = _pack(tmp_path, lambda s: s.replace("turn_limit: 8", "turn_limit: 8\n  colour: red"))
    with pytest.raises(FileError, match="constraints.colour: unknown field"):
        Harness.load(pack)
    pack2 = _pack(tmp_path / "b", lambda s: s.replace("check: max_length", "check: run_python"))
    with pytest.raises(FileError, match="unknown check 'run_python'"):
        Harness.load(pack2)
    skill = pack2 / "skills" / "chitchat" / "SKILL.md"
    skill.write_text(skill.read_text().replace("name: chitchat", "name: Chit_Chat"))
    with pytest.raises(FileError, match="folder name"):
        Harness.load(pack2)


def test_yaml_tags_cannot_build_objects(tmp_path: Path) -> None:
    pack = _pack(tmp_path, lambda s: s.replace('version: "1.0.0"', "version: !!python/object/apply:os.system ['echo hi']"))
    with pytest.raises(FileError, match="invalid YAML"):
        Harness.load(pack)


def test_openai_tools_are_json_serialisable(default: Harness) -> None:
    json.dumps(default.openai_tools)


@pytest.mark.parametrize("markup", ["markdown", "xml", "json", "plain"])
def test_system_prompt_follows_campaign_changes_in_every_markup(default: Harness, markup: str) -> None:
    """The prompt is rendered from fixed text cached per harness and room plus live campaign lines: after a
    campaign starts or ends the prompt shows exactly the campaigns running then, in every markup (JSON stays a
    valid document whose section contents equal the Markdown rendering's)."""
    import random

    from hat_env.harness.render import render_system
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    sc = load_scenario("apparel_flash_zh")
    room = RoomState(sc, random.Random("0:catalog"))
    d = default.to_dict()
    d["prompt"]["markup"] = markup
    h = Harness.from_dict(d)
    md = default
    seen = set()
    for t in [0.0, 60.0, 200.0, 400.0, 900.0, 1700.0, 3000.0, 60.0]:
        room.t = t
        active = room.active_campaigns()
        lines = "\n".join(f"- {c.title} ({c.type})" for c in active) or "- none right now"
        seen.add(lines)
        text = render_system(h, room, sc.room)
        plain_md = render_system(md, room, sc.room)
        assert lines in plain_md
        if markup == "json":
            doc = json.loads(text)
            contents = [s["content"] for s in doc["sections"]]
            md_contents = [part.split("\n", 1)[1] if "\n" in part else "" for part in plain_md.split("\n\n## ")]
            assert any(lines in c for c in contents)
            assert len(contents) == len(md_contents)
            assert [c.strip() for c in contents[1:]] == [c.strip() for c in md_contents[1:]]
        else:
            assert lines in text
        room.prompt_cache.clear()  # a fresh render (fixed parts still cached) equals the cached prompt
        assert render_system(h, room, sc.room) == text
    assert len(seen) >= 2, "the scenario's campaigns should change over the times tried"
