"""Calibration of the grader (and of an LLM judge) against hand labels: ``hat-env calibrate``.

The shipped sets live in ``scenarios/calibration/`` (format: the calibration README, CALIBRATION rules):
``replies_<scenario>.jsonl`` (case, turns, label ``{accuracy, effectiveness, compliance}``, ``category``,
``split``) and ``comments_<locale>.jsonl`` (comment text -> intents). Every reply item is graded through the
same :func:`hat_env.scoring.offline.grade` a user calls, and compared with its label:

- agreement on accuracy, effectiveness (``>= 0.5``, and exact), compliance and pass (``accuracy == 1 and
  effectiveness >= 0.5 and compliance == 1``), overall, per locale and per category;
- false passes (a wrong reply, label pass 0, that the grader passes) and false fails (a correct one, label pass
  1, that it fails), for the composite and per component.

Sets are registered by name (:func:`register_set`): ``replies`` is built in; ``comments`` is added by the
comment parser's side with the same command.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any, Callable, Iterable

from hat_env.jsonl import read_objects
from hat_env.scoring.offline import GradeError, grade_session
from hat_env.sim.scenario import relative_scenario_ref

#: The folder of the shipped calibration sets.
CALIBRATION_DIR = Path(__file__).resolve().parent.parent.parent / "scenarios" / "calibration"
SPLITS = ("train", "test", "all")


def calibration_dir() -> Path:
    """Where the shipped sets are: ``scenarios/calibration`` of the installed package (or the source tree)."""
    try:
        import hat_env.scenarios as sc

        d = Path(sc.__file__).resolve().parent / "calibration"
        if d.is_dir():
            return d
    except ImportError:  # pragma: no cover - the scenarios package ships with hat_env
        pass
    return CALIBRATION_DIR


def load_items(pattern: str, split: str = "train", folder: Path | None = None) -> list[dict[str, Any]]:
    """Items of the files matching ``pattern`` (``replies_*.jsonl``) whose ``split`` is ``split`` (``all``:
    every item), in file order.

    Raises:
        ValueError: a line is not a JSON object (the message names the file and line), or ``split`` is unknown.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {', '.join(SPLITS)}, got {split!r}")
    folder = folder or calibration_dir()
    out = []
    for path in sorted(folder.glob(pattern)):
        for _, item in read_objects(path):
            if split == "all" or item.get("split") == split:
                item.setdefault("_file", path.name)
                case = item.get("case")
                if isinstance(case, dict) and "scenario" in case:
                    item["case"] = {**case, "scenario": relative_scenario_ref(case["scenario"], path.parent)}
                out.append(item)
    return out


def _given_intents(case: dict[str, Any]) -> dict[str, Any]:
    """The case with each comment's ``expect_intents`` used as its intents (measures the grader apart from the
    comment parser)."""
    comments = []
    for c in case["comments"]:
        if "intents" not in c and "expect_intents" in c:
            c = {**c, "intents": c["expect_intents"]}
        comments.append(c)
    return {**case, "comments": comments}


def _labels(d: dict[str, Any]) -> dict[str, float]:
    """Labels (or predictions) as ``{accuracy, effectiveness, compliance, pass}``."""
    acc = 1 if float(d.get("accuracy", 0)) >= 1 else 0
    eff = float(d.get("effectiveness", 0))
    comp = 1 if float(d.get("compliance", 1)) >= 1 else 0
    return {"accuracy": acc, "effectiveness": eff, "compliance": comp,
            "pass": 1 if acc == 1 and eff >= 0.5 and comp == 1 else 0}


def grade_items(items: list[dict[str, Any]], given_intents: bool = False,
                progress: Callable[[int, int], None] | None = None) -> list[dict[str, Any]]:
    """Grade each reply item; returns ``{"id", "locale", "category", "label", "pred", "notes", "facts",
    "reply", "comments"}`` per item (``error`` instead of ``pred`` when it could not be graded)."""
    from hat_env.evaluation.judge import facts_of

    out = []
    for k, it in enumerate(items):
        rec: dict[str, Any] = {"id": it.get("id"), "locale": it.get("locale") or it.get("case", {}).get("locale"),
                               "category": it.get("category", "?"), "label": _labels(it.get("label") or {})}
        case = it.get("case") or {}
        if given_intents:
            case = _given_intents(case)
        try:
            res, s = grade_session(case, it.get("turns") or [])
        except (GradeError, ValueError, KeyError, TypeError) as exc:
            rec["error"] = str(exc)
            out.append(rec)
            continue
        c = res["components"]
        rec["pred"] = _labels({"accuracy": c.get("accuracy", 0), "effectiveness": c.get("effectiveness", 0),
                               "compliance": c.get("compliance", 1)})
        rec["composite"] = res["composite"]
        rec["notes"] = res["notes"]
        out_ = s.outcomes[-1][0]
        rec["facts"] = facts_of({"calls": out_.calls})
        rec["reply"] = out_.reply
        rec["comments"] = case.get("comments", [])
        out.append(rec)
        if progress:
            progress(k + 1, len(items))
    return out


def _share(num: int, den: int) -> float | None:
    """A rounded share, ``None`` for an empty group."""
    return round(num / den, 4) if den else None


def agreement(records: Iterable[dict[str, Any]], key: str = "pred") -> dict[str, Any]:
    """Agreement of ``record[key]`` with ``record["label"]`` over graded records.

    Returns:
        ``n``; ``accuracy``, ``effectiveness_ge_half``, ``effectiveness_exact``, ``compliance``, ``pass``
        (shares agreeing); ``false_pass`` (share of label-fail items predicted pass) with ``n_wrong``;
        ``false_fail`` (share of label-pass items predicted fail) with ``n_correct``; and per component
        ``false_pass_<c>`` / ``false_fail_<c>`` (label 0 predicted 1 / label 1 predicted 0).
    """
    rs = [r for r in records if key in r and r[key] is not None]
    n = len(rs)
    out: dict[str, Any] = {"n": n}

    def agree(f: Callable[[dict, dict], bool]) -> float | None:
        """Share of records where ``f(label, prediction)`` holds."""
        return _share(sum(1 for r in rs if f(r["label"], r[key])), n)

    out["accuracy"] = agree(lambda a, b: a["accuracy"] == b["accuracy"])
    out["effectiveness_ge_half"] = agree(lambda a, b: (a["effectiveness"] >= 0.5) == (b["effectiveness"] >= 0.5))
    out["effectiveness_exact"] = agree(lambda a, b: abs(a["effectiveness"] - b["effectiveness"]) < 1e-9)
    if all("compliance" in r[key] for r in rs):
        out["compliance"] = agree(lambda a, b: a["compliance"] == b["compliance"])
        out["pass"] = agree(lambda a, b: a["pass"] == b["pass"])
        wrong = [r for r in rs if r["label"]["pass"] == 0]
        right = [r for r in rs if r["label"]["pass"] == 1]
        out["n_wrong"], out["n_correct"] = len(wrong), len(right)
        out["false_pass"] = _share(sum(1 for r in wrong if r[key]["pass"] == 1), len(wrong))
        out["false_fail"] = _share(sum(1 for r in right if r[key]["pass"] == 0), len(right))
    for comp in ("accuracy", "effectiveness", "compliance"):
        if not all(comp in r[key] for r in rs):
            continue
        lab = (lambda d, c=comp: d[c] >= 0.5) if comp == "effectiveness" else (lambda d, c=comp: d[c] >= 1)
        neg = [r for r in rs if not lab(r["label"])]
        pos = [r for r in rs if lab(r["label"])]
        out[f"false_pass_{comp}"] = _share(sum(1 for r in neg if lab(r[key])), len(neg))
        out[f"false_fail_{comp}"] = _share(sum(1 for r in pos if not lab(r[key])), len(pos))
    return out


def summarize(records: list[dict[str, Any]], key: str = "pred") -> dict[str, Any]:
    """Agreement overall, per locale and per category (see :func:`agreement`), plus the graded count and the
    items that could not be graded."""
    by_loc: dict[str, list] = defaultdict(list)
    by_cat: dict[str, list] = defaultdict(list)
    for r in records:
        by_loc[str(r.get("locale"))].append(r)
        by_cat[str(r.get("category"))].append(r)
    return {
        "all": agreement(records, key),
        "locales": {k: agreement(v, key) for k, v in sorted(by_loc.items())},
        "categories": {k: agreement(v, key) for k, v in sorted(by_cat.items())},
        "errors": [{"id": r.get("id"), "error": r["error"]} for r in records if "error" in r],
    }


def run_judge(records: list[dict[str, Any]], judges: Any) -> None:
    """Add each record's LLM-judge verdict under ``judge`` (``{accuracy, effectiveness}``; ``None`` when every
    judge abstained), using :func:`hat_env.evaluation.judge.judge_results` on the same comments, tool results
    and reply the grader saw."""
    from hat_env.evaluation.judge import judge_results

    items = [r for r in records if "error" not in r]
    verdicts = judge_results([{"comments": r["comments"], "facts": r["facts"], "reply": r["reply"],
                               "locale": r.get("locale") or "zh_CN"} for r in items], judges)
    for r, v in zip(items, verdicts):
        r["judge"] = None if v.abstained else {"accuracy": v.accuracy, "effectiveness": v.effectiveness}


def mistakes(records: list[dict[str, Any]], key: str = "pred") -> list[dict[str, Any]]:
    """The records where ``key`` disagrees with the label on accuracy, effectiveness (>= 0.5) or compliance."""
    out = []
    for r in records:
        p = r.get(key)
        if not p:
            continue
        lab = r["label"]
        diff = [c for c in ("accuracy", "compliance") if c in p and p[c] != lab[c]]
        if (p["effectiveness"] >= 0.5) != (lab["effectiveness"] >= 0.5):
            diff.append("effectiveness")
        if diff:
            out.append({"id": r["id"], "category": r["category"], "differs": diff, "label": lab, "pred": p,
                        "notes": r.get("notes", {})})
    return out


def _replies(split: str, given_intents: bool, progress: Callable[[int, int], None] | None,
             folder: Path | None = None) -> list[dict[str, Any]]:
    """The ``replies`` set: graded reply items of ``split``."""
    return grade_items(load_items("replies_*.jsonl", split, folder), given_intents, progress)


#: Calibration sets by name: ``fn(split, given_intents, progress, folder) -> graded records`` (``folder``:
#: where the set's files are, ``None`` for the shipped ones).
SETS: dict[str, Callable[..., list[dict[str, Any]]]] = {"replies": _replies}


def register_set(name: str, fn: Callable[..., list[dict[str, Any]]]) -> None:
    """Register a calibration set (``comments`` for the comment parser): ``fn(split, given_intents, progress,
    folder)`` returns graded records with ``label`` and ``pred`` dicts (and ``locale``, ``category``)."""
    SETS[name] = fn


__all__ = ["CALIBRATION_DIR", "SETS", "SPLITS", "agreement", "calibration_dir", "grade_items", "load_items",
           "mistakes", "register_set", "run_judge", "summarize"]
