"""Packs are confined (hat_env/confine.py): no symlink leaves a harness pack, and a scenario's harness and rule-pack
paths stay inside its folder, the built-ins, or roots the user names (roots=, --allow-root, HAT_ENV_ALLOW_ROOTS)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hat_env.cli import main
from hat_env.confine import ENV_VAR
from hat_env.envs.session import LiveSession
from hat_env.harness import Harness
from hat_env.harness.core import harnesses_dir
from hat_env.sim.compliance import RuleSet
from hat_env.sim.scenario import load_scenario, locate_harness
from hat_env.yamlio import FileError

BASE = "name: confine\nlocale: en_US\nduration_s: 60\ncatalog:\n  generate: {count: 2, categories: [skincare]}\n"
SKILL = "---\nname: evil\ndescription: Served from outside the pack.\nmetadata: {kind: reply, intents: chitchat}\n---\nSECRET\n"


@pytest.fixture()
def outside(tmp_path: Path) -> Path:
    out = tmp_path / "outside"
    shutil.copytree(harnesses_dir() / "default", out / "pack")
    (out / "evil").mkdir()
    (out / "evil" / "SKILL.md").write_text(SKILL, encoding="utf-8")
    (out / "rules.yaml").write_text("name: outside\nrules:\n  - {id: O-1, terms: [outside]}\n", encoding="utf-8")
    return out


def _scenario(tmp_path: Path, extra: str) -> Path:
    d = tmp_path / "scn"
    d.mkdir(parents=True, exist_ok=True)
    p = d / "s.yaml"
    p.write_text(BASE + extra, encoding="utf-8")
    return p


def test_symlinked_skill_folder_is_refused_and_never_served(tmp_path: Path, outside: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", pack)
    (pack / "skills" / "evil").symlink_to(outside / "evil")
    with pytest.raises(FileError, match="outside the pack folder") as ei:
        Harness.load(pack)
    assert ei.value.path.endswith("SKILL.md")
    # a scenario using the pack cannot start a session either, so load_skill never sees the outside body
    scn = _scenario(tmp_path, f"harness: {pack}\n")
    with pytest.raises(FileError):
        LiveSession(load_scenario(scn, roots=[tmp_path]), trace=None)


def test_skill_file_and_harness_yaml_links_are_refused(tmp_path: Path, outside: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", pack)
    (pack / "skills" / "evil").mkdir()
    (pack / "skills" / "evil" / "SKILL.md").symlink_to(outside / "evil" / "SKILL.md")
    with pytest.raises(FileError, match="outside the pack folder"):
        Harness.load(pack)
    pack2 = tmp_path / "pack2"
    pack2.mkdir()
    (pack2 / "harness.yaml").symlink_to(outside / "pack" / "harness.yaml")
    with pytest.raises(FileError, match="outside the pack folder"):
        Harness.load(pack2)


def test_links_inside_a_pack_are_fine(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", pack)
    shutil.move(pack / "skills" / "chitchat", pack / "chitchat-src")
    (pack / "skills" / "chitchat").symlink_to(pack / "chitchat-src")
    assert "chitchat" in Harness.load(pack).skills_by_name


@pytest.mark.parametrize("ref", ["../../../../../../etc", "/usr/share", "sub/../../outside/pack"])
def test_harness_paths_that_leave_the_scenario_folder_are_refused(tmp_path: Path, outside: Path, ref: str) -> None:
    scn = _scenario(tmp_path, f"harness: {ref}\n")
    sc = load_scenario(scn)
    with pytest.raises(FileError) as ei:
        locate_harness(sc)
    fld, line, reason = ei.value.problems[0]
    assert ei.value.path == str(scn.resolve()) and fld == "harness" and line == 6
    assert "outside the folders a scenario may use" in reason and "--allow-root" in reason
    assert main(["validate", str(scn)]) == 1


def test_rule_pack_paths_are_confined_with_their_field(tmp_path: Path, outside: Path) -> None:
    scn = _scenario(tmp_path, f"compliance: {{packs: [default, {outside / 'rules.yaml'}]}}\n")
    with pytest.raises(FileError) as ei:
        RuleSet.for_scenario(load_scenario(scn))
    fld, line, reason = ei.value.problems[0]
    assert fld == "compliance.packs.1" and line == 6 and "outside the folders" in reason
    rules = RuleSet.for_scenario(load_scenario(scn, roots=[outside]))
    assert "O-1" in rules.ids


def test_a_pack_next_to_the_scenario_and_the_builtins_need_no_root(tmp_path: Path) -> None:
    scn = _scenario(tmp_path, "harness: mypack\ncompliance: {packs: [default, rules/mine.yaml]}\n")
    shutil.copytree(harnesses_dir() / "default", scn.parent / "mypack")
    (scn.parent / "rules").mkdir()
    (scn.parent / "rules" / "mine.yaml").write_text("name: mine\nrules:\n  - {id: M-1, terms: [mine]}\n",
                                                    encoding="utf-8")
    sc = load_scenario(scn)
    assert locate_harness(sc) == scn.parent.resolve() / "mypack"
    assert "M-1" in RuleSet.for_scenario(sc).ids
    assert main(["validate", str(scn)]) == 0
    sc2 = load_scenario(_scenario(tmp_path / "b", "harness: default\n"))
    assert locate_harness(sc2) == harnesses_dir() / "default"


def test_a_bare_name_is_never_a_folder_of_the_working_directory(tmp_path: Path, monkeypatch) -> None:
    shutil.copytree(harnesses_dir() / "default", tmp_path / "cwdpack")
    monkeypatch.chdir(tmp_path)
    sc = load_scenario(_scenario(tmp_path / "elsewhere", "harness: cwdpack\n"))
    with pytest.raises(FileError, match="no harness pack 'cwdpack'"):
        locate_harness(sc)


def test_roots_from_the_api_the_cli_and_the_environment(tmp_path: Path, outside: Path, monkeypatch,
                                                        capsys) -> None:
    scn = _scenario(tmp_path, f"harness: {outside / 'pack'}\n")
    with pytest.raises(FileError):
        locate_harness(load_scenario(scn))
    assert locate_harness(load_scenario(scn, roots=[outside])) == outside / "pack"
    assert main(["validate", str(scn)]) == 1
    assert main(["validate", str(scn), "--allow-root", str(outside)]) == 0
    monkeypatch.setenv(ENV_VAR, f"/nonexistent:{outside}")
    assert locate_harness(load_scenario(scn)) == outside / "pack"
    assert main(["validate", str(scn)]) == 0
    capsys.readouterr()


def test_a_pack_the_caller_names_is_the_callers_choice(tmp_path: Path, outside: Path) -> None:
    """``--harness`` / ``harness=`` is the user's own path, not data: it is used as given."""
    sc = load_scenario(_scenario(tmp_path, ""))
    s = LiveSession(sc, harness=str(outside / "pack"), trace=None)
    assert s.harness.name == "default"


def test_a_cached_pack_whose_skill_becomes_a_link_is_checked_again(tmp_path: Path, outside: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(harnesses_dir() / "default", pack)
    (pack / "skills" / "evil").mkdir()
    (pack / "skills" / "evil" / "SKILL.md").write_text(SKILL, encoding="utf-8")
    assert "evil" in Harness.load(pack).skills_by_name  # loaded and cached
    shutil.rmtree(pack / "skills" / "evil")
    (pack / "skills" / "evil").symlink_to(outside / "evil")
    with pytest.raises(FileError, match="outside the pack folder"):
        Harness.load(pack)
