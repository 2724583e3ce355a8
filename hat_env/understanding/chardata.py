"""Per-character tables for Chinese text, derived from two well-kept libraries and shipped as data.

- traditional -> simplified, one character for one character: zhconv's ``zh-cn`` table (its single-character
  entries);
- the sound of a character: pypinyin's first (most common) reading, without tone.

Both libraries take about half a second each to import, and the parser runs on every comment, so the tables are
built once from them (:func:`build`, run ``python -m hat_env.understanding.chardata``) and shipped as
``data/zh_chars.json``; ``tests/test_understanding.py`` checks the shipped file against the libraries. At run
time only the small JSON file is read, on first use.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("data") / "zh_chars.json"
#: The Unicode blocks the tables cover: CJK Unified Ideographs and Extension A.
HAN_RANGES: tuple[tuple[int, int], ...] = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF))


def _is_han(ch: str) -> bool:
    o = ord(ch)
    return any(a <= o <= b for a, b in HAN_RANGES)


def build() -> dict[str, Any]:
    """The tables from the libraries (zhconv, pypinyin must be installed: the ``test`` extra).

    Returns:
        ``{"t2s": [traditional, simplified]}`` (two strings of equal length, character i of the first becomes
        character i of the second) and ``{"sound": {syllable: characters}}``.
    """
    import zhconv.zhconv as zc
    from pypinyin import Style, pinyin

    table = zc.getdict("zh-cn")
    trad, simp = [], []
    for k in sorted(table):
        v = table[k]
        if len(k) == 1 and len(v) == 1 and k != v and _is_han(k) and _is_han(v):
            trad.append(k)
            simp.append(v)
    sound: dict[str, list[str]] = {}
    for a, b in HAN_RANGES:
        for o in range(a, b + 1):
            ch = chr(o)
            r = pinyin(ch, style=Style.NORMAL, heteronym=False, errors="ignore")
            if not r or not r[0] or not r[0][0].isascii() or not r[0][0].isalpha():
                continue
            sound.setdefault(r[0][0].lower(), []).append(ch)
    return {"t2s": ["".join(trad), "".join(simp)], "sound": {k: "".join(v) for k, v in sorted(sound.items())}}


@lru_cache(maxsize=1)
def tables() -> dict[str, Any]:
    """The shipped tables (read once).

    Raises:
        ValueError: the file is not the expected shape (names the file).
    """
    data = json.loads(DATA.read_text(encoding="utf-8"))
    ok = (isinstance(data, dict) and isinstance(data.get("t2s"), list) and len(data["t2s"]) == 2
          and len(data["t2s"][0]) == len(data["t2s"][1]) and isinstance(data.get("sound"), dict))
    if not ok:
        raise ValueError(f"{DATA}: expected t2s (two strings of equal length) and sound (syllable -> characters)")
    return data


def main() -> None:
    """Rebuild ``data/zh_chars.json`` from the libraries."""
    DATA.write_text(json.dumps(build(), ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
