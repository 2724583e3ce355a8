"""The bounded YAML loader (hat_env/yamlio.py): the line index every validation error relies on, and what it
refuses (aliases, foreign tags, duplicate keys, deep nesting, too many values, big files, other encodings)."""

from __future__ import annotations

from pathlib import Path

import pytest

from hat_env import yamlio
from hat_env.yamlio import FileError, load_yaml, read_text


def _problem(text: str) -> tuple[str, int | None, str]:
    with pytest.raises(FileError) as ei:
        load_yaml("f.yaml", text)
    assert len(ei.value.problems) >= 1
    return ei.value.problems[0]


def test_lines_index_keys_and_items() -> None:
    data, lines = load_yaml("f.yaml", "a: 1\nb:\n  - c: 2\n    d: 3\n  - 5\ne: {f: [x, y]}\n")
    assert data == {"a": 1, "b": [{"c": 2, "d": 3}, 5], "e": {"f": ["x", "y"]}}
    assert lines[("a",)] == 1 and lines[("b",)] == 2
    assert lines[("b", 0)] == 3 and lines[("b", 0, "d")] == 4 and lines[("b", 1)] == 5
    assert lines[("e", "f", 1)] == 6
    assert yamlio.line_of(lines, ("b", 0, "d", "deeper")) == 4


def test_duplicate_keys_name_both_lines_and_the_field() -> None:
    fld, line, reason = _problem("room:\n  host_name: a\n  shop_name: b\n  host_name: c\n")
    assert (fld, line) == ("room.host_name", 4)
    assert "duplicate key 'host_name' (first at line 2)" in reason


def test_keys_equal_after_yaml_typing_are_duplicates() -> None:
    assert "duplicate key" in _problem("{yes: 1, true: 2}")[2]
    assert load_yaml("f.yaml", "{1: a, '1': b}")[0] == {1: "a", "1": "b"}  # an int and a string differ


def test_merge_keys_override_without_being_duplicates() -> None:
    assert load_yaml("f.yaml", "<<: {a: 1, b: 2}\na: 3\n")[0] == {"a": 3, "b": 2}


def test_aliases_are_refused_at_their_line() -> None:
    fld, line, reason = _problem("a: &x [1, 2]\nb:\n  c: [0, *x]\n")
    assert (fld, line) == ("b.c.1", 3) and "aliases are not allowed (*x)" in reason


def test_billion_laughs_is_refused_without_expanding() -> None:
    rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, c in zip("abcdefgh", "bcdefghi"):
        rows.append(f"{c}: &{c} [" + ",".join([f"*{prev}"] * 9) + "]")
    assert "aliases are not allowed" in _problem("\n".join(rows))[2]


@pytest.mark.parametrize("tag", ["!!python/object/apply:os.system ['id']", "!!python/name:os.system ''", "!Custom x"])
def test_foreign_tags_are_refused(tag: str) -> None:
    fld, line, reason = _problem(f"a: 1\nb: {tag}\n")
    assert (fld, line) == ("b", 2) and "is not allowed" in reason


def test_standard_tags_still_load() -> None:
    data, _ = load_yaml("f.yaml", "a: !!str 12\nb: !!binary aGk=\nc: !!set {x}\n")
    assert data == {"a": "12", "b": b"hi", "c": {"x"}}


def test_nesting_is_bounded_below_the_recursion_limit() -> None:
    depth = 999  # just under libyaml's own limit: used to end in RecursionError
    fld, line, reason = _problem("a: " + "[" * depth + "]" * depth)
    assert line == 1 and f"nested deeper than {yamlio.MAX_DEPTH} levels" in reason
    ok = "a: " + "[" * (yamlio.MAX_DEPTH - 1) + "]" * (yamlio.MAX_DEPTH - 1)
    assert load_yaml("f.yaml", ok)[0] is not None


def test_value_count_is_bounded() -> None:
    n = yamlio.MAX_NODES + 10
    assert "more than" in _problem("[" + ",".join(["1"] * n) + "]")[2]


def test_long_integers_are_refused() -> None:
    assert "digits" in _problem("seed: " + "9" * 5000)[2]


def test_complex_keys_are_refused() -> None:
    assert "plain value" in _problem("? [a, b]\n: 1\n")[2]


def test_one_document_per_file() -> None:
    assert "another document" in _problem("a: 1\n---\nb: 2\n")[2]


def test_forbidden_characters_give_the_line() -> None:
    fld, line, reason = _problem("a: 1\nb: x\x07y\n")
    assert line == 2 and "character #x0007" in reason


def test_read_text_names_the_file_and_line_of_bad_bytes(tmp_path: Path) -> None:
    p = tmp_path / "latin.yaml"
    p.write_bytes("a: 1\nb: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(FileError) as ei:
        load_yaml(p)
    assert ei.value.path == str(p)
    assert ei.value.problems[0][1] == 2 and "not UTF-8 text: byte 0xe9" in ei.value.problems[0][2]


def test_boms(tmp_path: Path) -> None:
    p = tmp_path / "bom.yaml"
    p.write_bytes(b"\xef\xbb\xbfa: 1\n")
    assert read_text(p) == "a: 1\n" and load_yaml(p)[0] == {"a": 1}
    p.write_bytes("a: 1\n".encode("utf-16"))
    with pytest.raises(FileError, match="UTF-16"):
        load_yaml(p)


def test_size_is_bounded(tmp_path: Path) -> None:
    p = tmp_path / "big.yaml"
    p.write_text("a: " + "x" * 100 + "\n", encoding="utf-8")
    with pytest.raises(FileError, match="larger than 50 bytes"):
        read_text(p, limit=50)
    assert read_text(p, limit=200).startswith("a: x")


def test_only_regular_files_are_read(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(FileError, match="not a regular file"):
        read_text(fifo)
    with pytest.raises(FileError, match="cannot read file"):
        read_text(tmp_path / "missing.yaml")


def test_builtin_files_load_as_before() -> None:
    """The built-in scenarios, packs and configs load to the same data PyYAML's safe loader gives."""
    import yaml

    root = Path(__file__).resolve().parents[1]
    files = [*root.glob("scenarios/**/*.yaml"), *root.glob("train/configs/*.yaml")]
    assert files
    for f in files:
        assert load_yaml(f)[0] == yaml.safe_load(f.read_text(encoding="utf-8")), f
