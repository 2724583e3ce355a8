"""Linear-time regexes for data (hat_env/saferegex.py): what RE2 refuses and why, Python's Unicode classes, lone
surrogates, and the one-pass pattern set."""

from __future__ import annotations

import re
import unicodedata

import pytest

from hat_env import saferegex
from hat_env.saferegex import PatternSet, RegexError


@pytest.mark.parametrize(
    "pattern, reason",
    [
        ("(?<=was )\\d+", "lookaround is not supported"),
        ("best(?! wishes)", "lookaround is not supported"),
        ("(?=a)a", "lookaround is not supported"),
        ("(\\w+) \\1", "backreferences are not supported"),
        ("([a-", "not a valid RE2 regular expression"),
        ("a{1001}", "invalid repetition size"),
        ("x" * (saferegex.MAX_PATTERN_CHARS + 1), "the limit is"),
    ],
)
def test_refused_patterns_say_why(pattern: str, reason: str) -> None:
    assert reason in (saferegex.problem(pattern) or "")
    with pytest.raises(RegexError, match=re.escape(reason)):
        saferegex.compile(pattern)


def test_non_string_pattern_is_refused() -> None:
    assert "must be a string" in (saferegex.problem(12) or "")  # type: ignore[arg-type]


def test_catastrophic_patterns_are_accepted_and_answer() -> None:
    """Patterns that make Python's re backtrack exponentially are fine for RE2 (linear in the text)."""
    for p in ("^(a+)+$", "^(.+)+Z", "(a|aa)+$", "^([a-z_]+)+X$"):
        assert saferegex.search(p, "a" * 5000 + "!") is None


def test_python_classes_match_python_re_on_every_assigned_code_point() -> None:
    """``\\d``, ``\\s``, ``\\w`` and their negations, rewritten for RE2, match exactly what Python's re matches on
    every code point Python's Unicode database assigns (RE2's newer tables also know some Python leaves
    unassigned)."""
    every = "".join(chr(cp) for cp in range(0x110000) if not 0xD800 <= cp <= 0xDFFF)
    for cls in ("\\d", "\\s", "\\w", "\\D", "\\S", "\\W", "[\\d,]", "[^\\s]", "[-\\s.]"):
        runs = f"(?:{cls})+"  # runs, not single characters: far fewer match objects
        py = {i for m in re.finditer(runs, every) for i in range(*m.span())}
        r2 = {i for m in saferegex.compile(saferegex.python_classes(runs)).finditer(every) for i in range(*m.span())}
        differ = sorted(py ^ r2)
        assert all(unicodedata.category(every[i]) == "Cn" for i in differ), (cls, [hex(ord(every[i])) for i in differ[:5]])
        assert py and r2


def test_python_classes_leave_escapes_and_quoted_text_alone() -> None:
    assert saferegex.python_classes(r"\Q\d\E\p{Han}\x{41}\.") == r"\Q\d\E\p{Han}\x{41}\."
    assert saferegex.python_classes(r"[]\d]") == r"[]\p{Nd}]"
    with pytest.raises(RegexError, match="inside"):
        saferegex.python_classes(r"[\S]")


def test_clean_replaces_lone_surrogates_one_for_one() -> None:
    text = "ab\ud800c\udfff"
    out = saferegex.clean(text)
    assert out == "ab\ufffdc\ufffd" and len(out) == len(text)
    assert saferegex.search("c", text).span() == (3, 4)  # offsets are the original text's
    assert saferegex.clean("plain") == "plain"


def test_pattern_set_finds_every_matching_pattern() -> None:
    ps = PatternSet(["best", r"only \d+ left", "never"], ignorecase=True)
    assert ps.matching("The BEST deal, only 3 left") == {0, 1}
    assert ps.matching("nothing here") == set()
    assert ps.matching("") == set()


def test_pattern_set_says_unknown_when_the_matcher_gives_up() -> None:
    """RE2's set matcher reports no match at all when its DFA runs out of memory; the sentinel pattern turns that
    into "unknown". (The failure itself cannot be provoked on demand, so RE2's answer is stood in for: a stub
    returning the empty list RE2 returns then.)"""
    ps = PatternSet(["best"])

    class GaveUp:
        def Match(self, data: bytes) -> list[int]:
            return []

    ps._set = GaveUp()  # type: ignore[assignment]
    assert ps.matching("best") is None


def test_per_catalog_name_patterns_stay_out_of_the_shared_cache() -> None:
    """A room's product-name regex changes with every seed's generated products; it is compiled outside
    saferegex.compile's shared cache, so a long run over many catalogs leaves that cache (and RE2's native memory)
    to the fixed rule and vocabulary patterns."""
    from hat_env.constraints import scope
    from hat_env.envs.session import stream
    from hat_env.sim.room import RoomState
    from hat_env.sim.scenario import load_scenario

    sc = load_scenario("beauty_zh")
    rooms = [RoomState(sc, stream(seed, "catalog")) for seed in range(40)]
    assert len({tuple(p.title for p in r.products) for r in rooms}) > 1  # the seeds do change the catalog
    scope._BY_CATALOG.clear()
    before = saferegex.compile.cache_info().currsize
    names = [scope._names(r) for r in rooms]
    assert saferegex.compile.cache_info().currsize == before
    first = rooms[0].products[0].title
    assert names[0].regex.search(first)  # and the names are still found
    assert saferegex.compile_uncached("a+", True).search("xAAy").group(0) == "AA"
