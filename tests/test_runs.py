"""Bench runs that know where they came from: run.json and run ids, resume checks, a last record without its
newline, compare warnings, case files and `suites export`, stratified `--sample`, `show`, the worst-case report."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from hat_env.agents import make_agent
from hat_env.cli import main
from hat_env.evaluation.cases import read_cases, select, stratified_sample
from hat_env.evaluation.provenance import provenance_mismatches, read_run
from hat_env.evaluation.runner import details_path, read_results, run_cases
from hat_env.evaluation.suites import load_suite, manifest_hash


def _bench(out: Path, *extra: str) -> int:
    return main(["bench", "--out", str(out), "--quiet", *extra])


def test_run_json_records_the_configuration_and_every_row_its_run_id(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _bench(out, "--suite", "lsqa-v1,robust-v1", "--sample", "6", "--sample-seed", "3", "--agent", "random",
                  "--seed", "7", "--temperature", "0.5", "--agent-arg", "p_tool=0.3") == 0
    run = read_run(out)
    assert run is not None
    cfg = run["config"]
    assert cfg["agent"] == "random" and cfg["seed"] == 7 and cfg["trials"] == 1
    assert cfg["adapter_args"] == {"p_tool": 0.3, "temperature": 0.5}
    assert cfg["selection"] == {"limit": None, "sample": 6, "sample_seed": 3}
    assert [(s["suite"], s["hash"], s["selected"]) for s in cfg["sources"]] == [
        ("lsqa-v1", manifest_hash("lsqa-v1"), 6), ("robust-v1", manifest_hash("robust-v1"), 6)]
    assert run["agent_name"] == "random" and run["hat_env"]["version"]
    assert {"node", "cpu", "cores", "python"} <= set(run["machine"]) and run["date"].startswith("20")
    rows = read_results(out / "results.jsonl")
    assert len(rows) == 12 and {r["run_id"] for r in rows} == {run["run_id"]}
    assert json.loads((out / "summary.json").read_text())["run_id"] == run["run_id"]
    details = read_results(details_path(out / "results.jsonl"))
    assert {(d["case_id"], d["trial"]) for d in details} == {(r["case_id"], r["trial"]) for r in rows}


def test_resume_refuses_another_configuration_unless_forced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    base = ["--suite", "robust-v1", "--limit", "4"]
    assert _bench(out, *base, "--agent", "reference") == 0
    first = read_run(out)
    capsys.readouterr()
    for other, says in ((["--agent", "random"], "agent: 'reference' -> 'random'"),
                        (["--agent", "reference", "--agent-arg", "turn_s=0.7"], "adapter argument turn_s"),
                        (["--agent", "reference", "--model", "m"], "model: None -> 'm'")):
        assert _bench(out, *base, *other, "--resume") == 2
        assert says in capsys.readouterr().err
    assert _bench(out, "--suite", "lsqa-v1", "--limit", "4", "--resume") == 2
    assert "suites: robust-v1 -> lsqa-v1" in capsys.readouterr().err
    assert _bench(out, *base, "--resume") == 0  # the same configuration resumes
    assert read_run(out)["run_id"] == first["run_id"]
    # --force: the old rows stay, new ones carry the new run id, run.json keeps the earlier configuration
    assert _bench(out, "--suite", "robust-v1", "--limit", "6", "--agent", "reference", "--resume", "--force") == 0
    run = read_run(out)
    assert run["previous"][0]["run_id"] == first["run_id"] != run["run_id"]
    assert Counter(r["run_id"] for r in read_results(out / "results.jsonl")) == {first["run_id"]: 4, run["run_id"]: 2}


def test_resume_refuses_a_folder_without_run_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "old"
    run_cases(load_suite("robust-v1")[:3], make_agent("random"), out / "results.jsonl")
    capsys.readouterr()
    assert _bench(out, "--suite", "robust-v1", "--limit", "3", "--resume") == 2
    assert "no run.json" in capsys.readouterr().err
    assert _bench(out, "--suite", "robust-v1", "--limit", "3", "--resume", "--force") == 0


def test_a_complete_last_record_without_its_newline_is_kept(tmp_path: Path) -> None:
    cases = load_suite("robust-v1")[:20]
    agent = make_agent("reference")
    path = tmp_path / "r.jsonl"
    run_cases(cases, agent, path)
    before = path.read_bytes()
    path.write_bytes(before.rstrip(b"\n"))  # the crash came after the record, before its newline
    seen: list[int] = []
    recs = run_cases(cases, agent, path, resume=True, progress=lambda done, total: seen.append(done))
    assert len(recs) == 20 and seen == []  # all 20 kept, none rerun
    assert path.read_bytes() == before
    # a record cut in the middle is dropped and its case rerun, once
    lines = before.splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:19]) + lines[19][:50])
    recs = run_cases(cases, agent, path, resume=True)
    assert len(recs) == 20 and len({r["case_id"] for r in recs}) == 20


def test_compare_warns_when_runs_do_not_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    assert _bench(a, "--suite", "lsqa-v1", "--limit", "8") == 0
    assert _bench(b, "--suite", "lsqa-v1", "--limit", "3", "--agent", "random") == 0
    assert _bench(c, "--suite", "lsqa-v1", "--limit", "8") == 0
    capsys.readouterr()
    assert main(["compare", str(a), str(b), "--resamples", "50"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "warning: a (reference) vs b (random): agent: 'reference' vs 'random'" in out
    assert "vs b (random): case selection limit: 8 vs 3" in out and "lsqa-v1: 8 cases vs 3" in out
    assert provenance_mismatches(read_run(a), read_run(c)) == []
    assert "the second run has no run.json" in provenance_mismatches(read_run(a), None)[0]


def test_sample_is_stratified_by_category_and_seeded() -> None:
    cases = load_suite("lsqa-v1")
    full = Counter(c["category"] for c in cases)
    got = stratified_sample(cases, 100, seed=1)
    counts = Counter(c["category"] for c in got)
    assert len(got) == 100 and set(counts) == set(full)
    for cat, n in full.items():  # each category its share, within one case
        assert abs(counts[cat] - 100 * n / len(cases)) < 1, (cat, counts[cat], n)
    assert [c["id"] for c in got] == sorted(c["id"] for c in got)  # suite order kept
    assert stratified_sample(cases, 100, seed=1) == got
    assert stratified_sample(cases, 100, seed=2) != got
    mixed = select(load_suite("lsqa-v1") + load_suite("robust-v1"), sample=12, sample_seed=0)
    assert Counter(c["suite"] for c in mixed) == {"lsqa-v1": 12, "robust-v1": 12}
    with pytest.raises(ValueError, match="--limit and --sample"):
        select(cases, limit=3, sample=3)


def test_a_case_file_runs_as_its_suite_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`suites export` writes the suite's cases (the file's SHA-256 is the manifest hash); `bench --cases` on an
    exported sample gives the records of `--suite` with the same sample."""
    full = tmp_path / "ifeval.jsonl"
    assert main(["suites", "export", "ifeval-live-v1", "--out", str(full)]) == 0
    assert hashlib.sha256(full.read_bytes()).hexdigest() == manifest_hash("ifeval-live-v1")
    part = tmp_path / "part.jsonl"
    assert main(["suites", "export", "robust-v1", "--sample", "12", "--out", str(part)]) == 0
    assert _bench(tmp_path / "file", "--cases", str(part)) == 0
    assert _bench(tmp_path / "suite", "--suite", "robust-v1", "--sample", "12") == 0

    def rows(d: Path) -> dict[str, dict[str, object]]:
        return {r["case_id"]: {k: v for k, v in r.items() if k not in ("wall_s", "run_id")}
                for r in read_results(d / "results.jsonl")}

    assert rows(tmp_path / "file") == rows(tmp_path / "suite") and len(rows(tmp_path / "file")) == 12
    src = read_run(tmp_path / "file")["config"]["sources"][0]
    assert src["file"] == "part.jsonl" and src["hash"] == hashlib.sha256(part.read_bytes()).hexdigest()


def test_a_case_file_of_ones_own_is_checked_and_completed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "mine.jsonl"
    good = {"id": "q1", "scenario": "electronics_en", "seed": 3, "t": 10.0,
            "comments": [{"text": "how much is link 2?"}]}
    f.write_text(json.dumps(good) + "\n")
    cases, _ = read_cases(f)
    c = cases[0]
    assert c["suite"] == "mine" and c["locale"] == "en_US" and c["category"] == ""
    assert c["comments"][0]["intents"] and c["comments"][0]["intents"][0]["kind"] == "price"  # parsed from the text
    assert _bench(tmp_path / "out", "--cases", str(f)) == 0
    row = read_results(tmp_path / "out" / "results.jsonl")[0]
    assert row["case_id"] == "q1" and row["composite"] > 90
    bad = [good, {**good, "id": "q2", "seed": "x"}, {**good, "id": "q1"}, {**good, "id": "q3", "scenario": "nope"},
           {**good, "id": "q4", "comments": []}]
    f.write_text("\n".join(json.dumps(b) for b in bad) + "\n{not json\n")
    capsys.readouterr()
    assert _bench(tmp_path / "bad", "--cases", str(f)) == 2
    err = capsys.readouterr().err
    for where in (f"{f}:2: seed:", f"{f}:3: id: duplicate id 'q1'", f"{f}:4: scenario: nope", f"{f}:5: comments:",
                  f"{f}:6: <root>: not valid JSON"):
        assert where in err, (where, err)


def test_show_prints_prompt_turns_reply_scores_and_notes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    assert _bench(out, "--suite", "robust-v1", "--limit", "6", "--agent", "random") == 0
    row = min(read_results(out / "results.jsonl"), key=lambda r: (r["composite"], r["case_id"]))
    assert row["notes"]  # the row keeps the grader's notes
    case = next(c for c in load_suite("robust-v1") if c["id"] == row["case_id"])
    capsys.readouterr()
    assert main(["show", str(out), row["case_id"]]) == 0
    text = capsys.readouterr().out
    assert "== prompt" in text and "--- system" in text and "## Rules" in text
    assert case["comments"][0]["text"] in text
    assert "== turns" in text and "--- assistant" in text
    assert f"== reply" in text and row["reply"] in text
    assert f"composite {row['composite']}" in text
    comp, notes = sorted(row["notes"].items())[0]
    assert f"- {comp}: {notes[0]}" in text
    assert main(["show", str(out), "robust-v1/99999"]) == 2
    assert "no row for case" in capsys.readouterr().err


def test_report_lists_the_worst_cases_of_each_category_with_notes(tmp_path: Path) -> None:
    out = tmp_path / "r"
    assert _bench(out, "--suite", "robust-v1", "--sample", "18", "--agent", "random") == 0
    rows = read_results(out / "results.jsonl")
    report = (out / "report.md").read_text()
    assert "## Worst cases" in report
    for cat in {r["category"] for r in rows}:
        worst = sorted((r for r in rows if r["category"] == cat and r["composite"] < 100),
                       key=lambda r: (r["composite"], r["case_id"]))[:3]
        for r in worst:
            line = next(x for x in report.splitlines() if f"| {r['case_id']} |" in x)
            assert line.startswith(f"| {cat} |")
            comp, notes = sorted(r["notes"].items())[0]
            assert f"{comp}: {notes[0][:40]}" in line


def test_hat_env_and_the_bench_command_never_import_ray() -> None:
    """`import hat_env`, the command line and a local bench stay light: Ray is imported by a Ray run only."""
    import subprocess
    import sys

    code = ("import sys, tempfile; import hat_env; from hat_env.cli import main; "
            "import hat_env.evaluation.ray_backend, hat_env.train.candidates; "
            "rc = main(['bench', '--suite', 'robust-v1', '--limit', '2', '--quiet', '--out', tempfile.mkdtemp()]); "
            "bad = [m for m in ('ray', 'torch', 'transformers', 'trl', 'vllm') if m in sys.modules]; "
            "print(rc, bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "0 []", out
