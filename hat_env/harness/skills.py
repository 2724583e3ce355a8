"""Agent Skills: ``skill-name/SKILL.md`` files with YAML front matter (``name``, ``description``, optional
``metadata`` and ``allowed-tools``) and a Markdown body disclosed when the skill is loaded.

A body line may start with a locale tag, ``[zh_CN] Viewer: "3号链接多少钱？" -> ...``: it is shown only in rooms of
that locale, without the tag (:func:`skill_text`), so one skill carries an example per language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_env.yamlio import FileError, line_of, load_yaml, read_text, validate

if TYPE_CHECKING:
    from hat_env.harness.spec import SkillSpec


def read_skill_md(path: Path, text: str | None = None) -> tuple[dict[str, Any], dict[tuple, int]]:
    """Read and validate one SKILL.md: the skill dict (``name``, ``description``, ``metadata``, ``body``) and the
    line of each front-matter field (``("metadata", "kind")`` -> 5), for errors found later that concern it.

    Args:
        path: the ``SKILL.md`` file (its folder name is the skill's name).
        text: the file's text, if already read; otherwise it is read with the bounded reader
            (:func:`hat_env.yamlio.read_text`: UTF-8, size-limited).

    Raises:
        FileError: naming this SKILL.md, the field and its line: unreadable, too large or not UTF-8, no front
            matter, bad YAML, a ``name`` that differs from the folder name, a metadata value that is not a plain
            value, or a field the skill format refuses (:class:`~hat_env.harness.spec.SkillSpec`).
    """
    from hat_env.harness.spec import SkillSpec

    if text is None:
        text = read_text(path)
    if not text.startswith("---"):
        raise FileError(path, [("", 1, "SKILL.md must start with YAML front matter between '---' lines")])
    end = text.find("\n---", 3)
    if end < 0:
        raise FileError(path, [("", 1, "front matter is not closed by a '---' line")])
    # the front matter starts on line 1 (after the opening '---'), so its line numbers are the file's
    front, lines = load_yaml(path, text[3:end])
    if not isinstance(front, dict):
        raise FileError(path, [("", 1, "front matter must be a YAML mapping")])
    body = text[end + 4 :].lstrip("\n")
    lines = dict(lines)
    lines[("body",)] = text.count("\n", 0, end) + 3
    folder = path.parent.name
    if front.get("name") != folder:
        raise FileError(path, [("name", lines.get(("name",), 1),
                                f"name {front.get('name')!r} must equal the folder name {folder!r}")])
    meta = front.get("metadata") or {}
    if not isinstance(meta, dict):
        raise FileError(path, [("metadata", lines.get(("metadata",)), "metadata must be a mapping of strings")])
    bad = [(f"metadata.{k}", lines.get(("metadata", k)), f"must be a plain value (a string), got a "
            f"{'list' if isinstance(v, list) else 'mapping'}" + ("; write intents as one comma-separated string, "
                                                                  "e.g. intents: price,stock" if k == "intents" else ""))
           for k, v in meta.items() if isinstance(v, (list, dict))]
    if bad:
        raise FileError(path, bad)
    out = {k: v for k, v in front.items() if k != "metadata"}
    out["metadata"] = {str(k): str(v) for k, v in meta.items()}
    out["body"] = body
    skill = validate(SkillSpec, out, path, lines)
    bad2 = [(".".join(loc), line_of(lines, loc), why) for loc, why in skill_metadata_problems(skill)]
    if bad2:
        raise FileError(path, bad2)
    return out, lines


def parse_skill_md(path: Path, text: str | None = None) -> dict[str, Any]:
    """Read one SKILL.md into a skill dict (``name``, ``description``, ``metadata``, ``body``); see
    :func:`read_skill_md` (which also gives the lines).

    Raises:
        FileError: naming this SKILL.md, the field and its line.
    """
    return read_skill_md(path, text)[0]


def skill_metadata_problems(skill: "SkillSpec") -> list[tuple[tuple, str]]:
    """What is wrong with a skill's ``metadata`` (as ``(field path below the skill, reason)``): ``kind`` must be
    ``reply`` or ``strategy``; ``intents`` must name known intent kinds (:data:`hat_env.types.INTENT_KINDS`), and a
    reply skill must name at least one (no request would ever pick it otherwise)."""
    from hat_env.types import INTENT_KINDS

    out: list[tuple[tuple, str]] = []
    md = skill.metadata
    if skill.kind not in ("reply", "strategy"):
        out.append((("metadata", "kind"), f"kind must be 'reply' or 'strategy', got {md.get('kind')!r}"))
    unknown = sorted(skill.intents - set(INTENT_KINDS))
    if unknown:
        out.append((("metadata", "intents"), f"unknown intent kinds {unknown}; known: {', '.join(INTENT_KINDS)}"))
    elif skill.kind == "reply" and not skill.intents:
        out.append((("metadata", "intents"), "a reply skill must list the intent kinds it answers, comma-separated "
                                             f"(e.g. intents: price,stock); known: {', '.join(INTENT_KINDS)}"))
    return out


_TAG = re.compile(r"^\[([a-z]{2,3}_[A-Z]{2})\] ?")


def skill_text(body: str, locale: str) -> str:
    """What a model in a ``locale`` room reads of a skill ``body``: untagged lines as written, lines tagged with
    ``[locale]`` without the tag, lines tagged with another locale dropped; a ``#`` heading whose section is left
    with no line is dropped too.

    Args:
        body: the SKILL.md body.
        locale: the room's locale id.
    """
    if "[" not in body:
        return body
    lines = body.split("\n")
    out: list[str] = []
    dropped = False
    for line in lines:
        m = _TAG.match(line)
        if m is None:
            out.append(line)
        elif m.group(1) == locale:
            out.append(line[m.end():])
        else:
            dropped = True
    if not dropped:
        return "\n".join(out)
    kept: list[str] = []  # drop headings left without content (up to the next heading)
    for i, line in enumerate(out):
        if line.startswith("#"):
            nxt = next((x for x in out[i + 1:] if x.strip()), None)
            if nxt is None or nxt.startswith("#"):
                continue
        kept.append(line)
    text = "\n".join(kept)
    while "\n\n\n" in text:
        text = text.replace("\n\n\n", "\n\n")
    return text


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
