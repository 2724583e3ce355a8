"""``hat-env hsa show``: a readable diff of a harness and one of its HSA variants.

It prints a summary of the mapping (renamed tools and skills, the skill-loading tool, reply-skill moves,
constraint changes, added tools and skills, the patch size), then unified diffs of the rendered system prompt
(for a built-in scenario's room), of each tool as the model sees it (OpenAI JSON) and of each skill (SKILL.md),
tools and skills matched to their counterparts through the mapping; added tools and skills are shown whole.
"""

from __future__ import annotations

import difflib
import json
import random
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:
    from hat_env.harness.core import Harness


def _diff(a: str, b: str, name: str) -> str:
    lines = list(difflib.unified_diff(a.splitlines(), b.splitlines(), f"original/{name}", f"variant/{name}",
                                      lineterm="", n=2))
    return "\n".join(lines) if lines else f"(no change in {name})"


def _tool_json(tool: dict[str, Any]) -> str:
    return json.dumps(tool, ensure_ascii=False, indent=1)


def _tools_diff(h: "Harness", v: "Harness", m: Any) -> str:
    """Per tool (matched through the mapping) diffs, then the tools the variant adds, then the order."""
    a = {t["function"]["name"]: t for t in h.openai_tools}
    b = {t["function"]["name"]: t for t in v.openai_tools}
    pairs = dict(m.tools)
    pairs[h.spec.skill_tool.name] = v.spec.skill_tool.name
    out = []
    for old, tool in a.items():
        new = pairs.get(old)
        if new is None or new not in b:
            out.append(f"=== {old}: removed\n" + _tool_json(tool))
            continue
        d = _diff(_tool_json(tool), _tool_json(b[new]), f"{old} -> {new}")
        out.append(d if not d.startswith("(no change") else f"=== {old}: unchanged")
    mapped = set(pairs.values())
    for name, tool in b.items():
        if name not in mapped:
            kind = "distractor, must not be called" if v.tools_by_name.get(name) and v.tools_by_name[name].op is None \
                else "added"
            out.append(f"=== {name}: {kind}\n" + _tool_json(tool))
    out.append("tool order: " + ", ".join(b))
    return "\n".join(out)


def _skill_md(s: Any) -> str:
    from hat_env.harness.skills import render_skill_md

    return render_skill_md(s.model_dump(by_alias=True)).rstrip("\n")


def _skills_diff(h: "Harness", v: "Harness", m: Any) -> str:
    """Per skill (matched through the mapping) diffs of the SKILL.md, then the skills the variant adds."""
    out = []
    for s in h.spec.skills:
        new = m.skills.get(s.name)
        t = v.skills_by_name.get(new) if new else None
        if t is None:
            out.append(f"=== {s.name}: removed")
            continue
        d = _diff(_skill_md(s), _skill_md(t), f"{s.name}/SKILL.md -> {t.name}/SKILL.md")
        out.append(d if not d.startswith("(no change") else f"=== {s.name}: unchanged")
    for name in m.added_skills:
        out.append(f"=== {name}/SKILL.md: added\n" + _skill_md(v.skills_by_name[name]))
    return "\n".join(out)


def _summary(m: Any) -> str:
    s = m.summary()
    out = [f"HSA variant of {m.original.name}: family {s['family']}, strength {s['strength']}, dims {', '.join(s['dims'])}",
           f"hash {s['parent_hash']} -> {s['hash']} ({s['ops']} patch operations)"]
    if s["tools"]:
        out.append("tools renamed:")
        out += [f"  {k} -> {v}" for k, v in s["tools"].items()]
    if s["added_tools"]:
        out.append("tools added: " + ", ".join(s["added_tools"]))
    if s["removed_tools"]:
        out.append("tools removed: " + ", ".join(s["removed_tools"]))
    if s["skill_tool"]:
        (a, pa), (b, pb) = s["skill_tool"]["from"], s["skill_tool"]["to"]
        out.append(f"skill tool: {a}({pa}) -> {b}({pb})")
    if s["skills"]:
        out.append("skills renamed:")
        out += [f"  {k} -> {v}" for k, v in s["skills"].items()]
    if s["added_skills"]:
        out.append("skills added: " + ", ".join(s["added_skills"]))
    moved = {k: v for k, v in s["reply_skills"].items() if s["skills"].get(v[0], v[0]) != v[1]}
    if moved:
        out.append("reply skill per intent (beyond renames):")
        out += [f"  {k}: {a} -> {b}" for k, (a, b) in moved.items()]
    if s["constraints"]:
        out.append("constraints:")
        for k, (a, b) in s["constraints"].items():
            if k == "feedback":
                out.append(f"  feedback: {len(b)} templates reworded ({', '.join(sorted(b))})")
            else:
                out.append(f"  {k}: {json.dumps(a, ensure_ascii=False)} -> {json.dumps(b, ensure_ascii=False)}")
    return "\n".join(out)


def show_variant(harness_name: str = "default", seed: int = 0, dims: str | Iterable[str] = "all",
                 family: str = "train", strength: float = 1.0, scenario: str = "beauty_zh") -> str:
    """The readable diff of harness ``harness_name`` and its variant for ``seed``.

    Args:
        harness_name: a built-in pack name or a pack folder.
        seed: the variant seed (``random.Random(seed)`` is the augmentation's random source).
        dims: ``"all"`` or the dimensions to apply.
        family: ``train`` or ``heldout``.
        strength: 0-1.
        scenario: the built-in scenario whose room fills the system prompt.

    Returns:
        The summary and the unified diffs, as one text.
    """
    from hat_env.harness.core import Harness
    from hat_env.harness.render import render_system
    from hat_env.hsa import augment
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    h = Harness.load(harness_name)
    v, m = augment(h, random.Random(seed), dims, strength, family, check=True)
    sc = load_scenario(scenario)
    room = RoomState(sc, random.Random(f"{seed}:catalog"))
    parts = [
        _summary(m),
        "",
        f"--- system prompt (room of {sc.name}) ---",
        _diff(render_system(h, room, sc.room), render_system(v, room, sc.room), "system_prompt"),
        "",
        "--- tools (OpenAI function JSON, matched through the mapping) ---",
        _tools_diff(h, v, m),
        "",
        "--- skills (SKILL.md, matched through the mapping) ---",
        _skills_diff(h, v, m),
    ]
    return "\n".join(parts)


__all__ = ["show_variant"]
