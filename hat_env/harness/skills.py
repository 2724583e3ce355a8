"""Agent Skills: ``skill-name/SKILL.md`` files with YAML front matter (``name``, ``description``, optional
``metadata`` and ``allowed-tools``) and a Markdown body disclosed when the skill is loaded."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hat_env.yamlio import FileError, load_yaml, read_text


def parse_skill_md(path: Path, text: str | None = None) -> dict[str, Any]:
    """Read one SKILL.md into a skill dict (``name``, ``description``, ``metadata``, ``body``).

    Args:
        path: the ``SKILL.md`` file (its folder name is the skill's name).
        text: the file's text, if already read; otherwise it is read with the bounded reader
            (:func:`hat_env.yamlio.read_text`: UTF-8, size-limited).

    Raises:
        FileError: unreadable, too large or not UTF-8, no front matter, bad YAML, or a ``name`` that differs from
            the folder name.
    """
    if text is None:
        text = read_text(path)
    if not text.startswith("---"):
        raise FileError(path, [("", 1, "SKILL.md must start with YAML front matter between '---' lines")])
    end = text.find("\n---", 3)
    if end < 0:
        raise FileError(path, [("", 1, "front matter is not closed by a '---' line")])
    front, _ = load_yaml(path, text[3:end])
    if not isinstance(front, dict):
        raise FileError(path, [("", 1, "front matter must be a YAML mapping")])
    body = text[end + 4 :].lstrip("\n")
    folder = path.parent.name
    if front.get("name") != folder:
        raise FileError(path, [("name", 2, f"name {front.get('name')!r} must equal the folder name {folder!r}")])
    meta = front.get("metadata") or {}
    if not isinstance(meta, dict):
        raise FileError(path, [("metadata", None, "metadata must be a mapping of strings")])
    out = {k: v for k, v in front.items() if k != "metadata"}
    out["metadata"] = {str(k): str(v) for k, v in meta.items()}
    out["body"] = body
    return out


def load_skills_dir(folder: Path) -> list[dict[str, Any]]:
    """Every ``*/SKILL.md`` under ``folder``, sorted by folder name."""
    return [parse_skill_md(p) for p in sorted(folder.glob("*/SKILL.md"))]


def render_skill_md(skill: dict[str, Any]) -> str:
    """Write a skill dict back to SKILL.md text (used when exporting augmented harness packs)."""
    import yaml

    front = {"name": skill["name"], "description": skill["description"]}
    if skill.get("metadata"):
        front["metadata"] = skill["metadata"]
    return "---\n" + yaml.safe_dump(front, allow_unicode=True, sort_keys=False) + "---\n\n" + skill.get("body", "")
