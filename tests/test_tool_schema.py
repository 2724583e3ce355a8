"""Tool-argument schemas (hat_env/harness/schema.py): checked at validation with file, field and line; ``pattern``
and ``patternProperties`` matched by RE2 at run time; no reference is ever fetched."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from hat_env.harness import Harness
from hat_env.harness.core import ArgError, harnesses_dir
from hat_env.harness.schema import make_validator, problems
from hat_env.yamlio import FileError

PROBE = """  - name: lookup_code
    op: null
    parameters:
{schema}"""


def _pack(tmp_path: Path, schema: str) -> Path:
    dst = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", dst)
    yml = dst / "harness.yaml"
    text = yml.read_text(encoding="utf-8")
    at = text.index("\ntools:\n") + len("\ntools:\n")
    yml.write_text(text[:at] + PROBE.format(schema=schema) + text[at:], encoding="utf-8")
    return dst


def _first_problem(tmp_path: Path, schema: str) -> tuple[str, int | None, str]:
    with pytest.raises(FileError) as ei:
        Harness.load(_pack(tmp_path, schema))
    return ei.value.problems[0]


def _line_of(pack_text: str, needle: str) -> int:
    return pack_text[: pack_text.index(needle)].count("\n") + 1


def test_unresolvable_ref_is_a_validation_error_with_its_line(tmp_path: Path) -> None:
    schema = "      type: object\n      properties:\n        code: {$ref: '#/$defs/missing'}\n"
    fld, line, reason = _first_problem(tmp_path, schema)
    text = (tmp_path / "pack" / "harness.yaml").read_text(encoding="utf-8")
    assert fld == "tools.0.parameters.properties.code.$ref" and "does not resolve" in reason
    assert line == _line_of(text, "code: {$ref")


@pytest.mark.parametrize("ref", ["https://evil.example/s.json", "file:///etc/passwd", "other.json#/a"])
def test_only_references_inside_the_schema(tmp_path: Path, ref: str) -> None:
    schema = f"      type: object\n      properties:\n        code: {{$ref: '{ref}'}}\n"
    assert "remote and file references are not allowed" in _first_problem(tmp_path, schema)[2]


def test_refused_patterns_name_the_keyword(tmp_path: Path) -> None:
    fld, _, reason = _first_problem(tmp_path, "      type: object\n      properties:\n"
                                              "        code: {type: string, pattern: '(?<=x)y'}\n")
    assert fld == "tools.0.parameters.properties.code.pattern" and "lookaround" in reason
    fld, _, reason = _first_problem(tmp_path / "b", "      type: object\n      patternProperties:\n"
                                                    "        '(a)\\1': {}\n")
    assert fld == "tools.0.parameters.patternProperties.(a)\\1" and "backreferences" in reason


def test_reference_cycles_and_ids_are_refused() -> None:
    cyc = {"type": "object", "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},
           "properties": {"x": {"$ref": "#/$defs/a"}}}
    assert any("$ref cycle" in why for _, why in problems(cyc))
    assert any("cycle" in why for _, why in problems({"type": "object", "allOf": [{"$ref": "#"}]}))
    assert any("$id" in why for _, why in problems({"type": "object", "$id": "https://x/", "properties": {}}))
    tree = {"type": "object", "$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}},
            "properties": {"t": {"$ref": "#/$defs/n"}}}
    assert problems(tree) == []  # recursion that descends into the value is fine


def test_unevaluated_properties_with_pattern_properties_is_refused() -> None:
    s = {"type": "object", "patternProperties": {"^x": {}}, "unevaluatedProperties": False}
    assert any("unevaluatedProperties" in why for _, why in problems(s))


def _errors(schema: dict[str, Any], instance: Any) -> list[str]:
    return [e.message for e in make_validator(schema).iter_errors(instance)]


def test_pattern_runs_on_re2() -> None:
    """RE2 syntax Python's re does not know (\\pL) works, and a catastrophic pattern answers on a long value."""
    s = {"type": "object", "properties": {"w": {"type": "string", "pattern": "^\\pL+$"}}}
    assert _errors(s, {"w": "直播"}) == [] and _errors(s, {"w": "a1"}) == ["'a1' does not match '^\\\\pL+$'"]
    slow = {"type": "object", "properties": {"c": {"type": "string", "pattern": "^(a+)+$"}}}
    assert len(_errors(slow, {"c": "a" * 100_000 + "b"})) == 1
    assert _errors(slow, {"c": "\ud800"}) == ["'\\ud800' does not match '^(a+)+$'"]  # a lone surrogate


def test_pattern_properties_and_additional_properties_run_on_re2() -> None:
    s = {"type": "object", "patternProperties": {"^(a|aa)+$": {"type": "integer"}}, "additionalProperties": False}
    assert _errors(s, {"aaaa": 1}) == []
    assert _errors(s, {"aaaa": "x"}) == ["'x' is not of type 'integer'"]
    assert _errors(s, {"a" * 50_000 + "b": 1}) == [f"'{'a' * 50_000}b' does not match any of the regexes: '^(a|aa)+$'"]
    plain = {"type": "object", "properties": {"a": {}}, "additionalProperties": False}
    assert _errors(plain, {"a": 1, "b": 2}) == ["Additional properties are not allowed ('b' was unexpected)"]


def test_an_unchecked_harness_never_fetches_a_reference() -> None:
    """A harness built without checks (as HSA variants are) still resolves references only inside the schema:
    the call is an argument error, and nothing is retrieved."""
    h = Harness.load("default")
    d = h.to_dict()
    d["tools"][0]["parameters"]["properties"]["link_id"] = {"$ref": "https://example.invalid/x.json"}
    unchecked = Harness.from_dict(d, check=False)
    with pytest.raises(ArgError, match="does not resolve"):
        unchecked.decode_args(unchecked.spec.tools[0], {"link_id": 3})


def test_deeply_nested_arguments_are_an_argument_error() -> None:
    h = Harness.from_dict({
        "name": "deep", "prompt": {"sections": [{"id": "a", "title": "A"}]},
        "constraints": {"require_reply_skill": False},
        "tools": [{"name": "t", "op": None, "parameters": {
            "type": "object", "$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}}},
            "properties": {"t": {"$ref": "#/$defs/n"}}}}],
    })
    deep: dict[str, Any] = {}
    for _ in range(5000):
        deep = {"c": deep}
    with pytest.raises(ArgError, match="nested too deeply"):
        h.decode_args(h.spec.tools[0], {"t": deep})
