"""Harness-Aware Training (hat_env.train): data, HSA-SFT, distillation and HSA-RL through the real TRL trainers,
on the CPU with the tiny offline model. Each trainer runs a few steps only."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hat_env.agents.reference import ReferenceAgent
from hat_env.train.config import DataConfig, DistillConfig, RLConfig, SFTConfig, load_config
from hat_env.types import AgentResponse
from hat_env.yamlio import FileError

CONFIGS = Path(__file__).resolve().parents[1] / "train" / "configs"


# -- fixtures ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> str:
    from hat_env.agents.tiny_model import build_tiny_model

    import torch

    torch.set_num_threads(2)
    return str(build_tiny_model(tmp_path_factory.mktemp("tiny") / "model"))


def _data_cfg(out: Path, **kw: Any) -> DataConfig:
    base: dict[str, Any] = {
        "output_dir": str(out),
        "sources": [{"kind": "qa", "scenario": "beauty_zh", "episodes": 8},
                    {"kind": "qa", "scenario": "electronics_en", "episodes": 6}],
        "hsa": {"share": 0.5},
    }
    base.update(kw)
    return DataConfig.model_validate(base)


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hat_env.train.data import run_data

    out = tmp_path_factory.mktemp("data")
    run_data(_data_cfg(out), quiet=True)
    return out


def _training(out: Path, **kw: Any) -> dict[str, Any]:
    return {"output_dir": str(out), "use_cpu": True, "logging_steps": 1, "learning_rate": 1e-3,
            "per_device_train_batch_size": 2, "save_steps": 100, **kw}


@pytest.fixture(scope="module")
def sft_run(tiny: str, data_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """An SFT run stopped after 2 of 4 steps, then resumed from its checkpoint to the end."""
    from transformers import TrainerCallback

    from hat_env.train.sft import run_sft

    class StopAt(TrainerCallback):
        def on_step_end(self, args: Any, state: Any, control: Any, **kw: Any) -> None:
            if state.global_step >= 2:
                control.should_training_stop = True

    out = tmp_path_factory.mktemp("sft")
    cfg = SFTConfig.model_validate({"model": {"path": tiny}, "dataset": str(data_dir),
                                    "training": _training(out, max_steps=4, save_steps=2)})
    first = run_sft(cfg, callbacks=[StopAt()])
    second = run_sft(cfg)
    # train on: the same config with max_steps raised resumes from checkpoint-4
    longer = run_sft(cfg.model_copy(update={"training": cfg.training.model_copy(update={"max_steps": 6})}))
    return {"cfg": cfg, "first": first, "second": second, "longer": longer, "out": out}


# -- configs -----------------------------------------------------------------------------------------------


def test_shipped_configs_validate() -> None:
    for path in sorted(CONFIGS.glob("*.yaml")):
        cfg = load_config(path)
        assert cfg.stage in path.name or path.name == "data.yaml"


def test_config_errors_name_file_field_and_line(tmp_path: Path) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text("stage: sft\nmodel: {path: m}\ndataset: d\ntraining:\n  output_dir: o\n  learnin_rate: 0.1\n"
                 "  max_steps: many\n", encoding="utf-8")
    with pytest.raises(FileError) as ei:
        load_config(p)
    msg = str(ei.value)
    assert f"{p}:6: training.learnin_rate: unknown field" in msg
    assert f"{p}:7: training.max_steps:" in msg
    with pytest.raises(FileError, match="configures 'sft', not 'rl'"):
        load_config(p, stage="rl")
    good = tmp_path / "good.yaml"
    good.write_text("model: {path: m}\ndataset: d\ntraining: {output_dir: o}\n", encoding="utf-8")
    cfg = load_config(good, ["training.max_steps=7", "lora.r=4"], stage="sft")
    assert cfg.training.max_steps == 7 and cfg.lora is not None and cfg.lora.r == 4
    with pytest.raises(FileError, match=r"hsa.share: \(override\)"):
        load_config(CONFIGS / "rl-smoke.yaml", ["hsa.share=1.5"])


def test_train_package_import_is_light() -> None:
    code = ("import sys, hat_env.train, hat_env.train.config, hat_env.train.cli, hat_env.train.data, "
            "hat_env.train.rl, hat_env.train.sft, hat_env.train.distill, hat_env.train.credit, hat_env.train.cards, "
            "hat_env.train.catalog, hat_env.train.common\n"
            "heavy = [m for m in ('torch', 'transformers', 'trl', 'datasets', 'peft') if m in sys.modules]\n"
            "print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- data --------------------------------------------------------------------------------------------------


def test_data_mixes_harnesses_filters_and_exports(data_dir: Path) -> None:
    from hat_env.train.data import load_sft_dataset, read_jsonl

    stats = json.loads((data_dir / "stats.json").read_text())
    rows = read_jsonl(data_dir / "train.jsonl")
    assert stats["generated"] == 14 and stats["kept"] == len(rows) > 0
    aug = [r for r in rows if r["meta"]["augmented"]]
    orig = [r for r in rows if not r["meta"]["augmented"]]
    assert aug and orig and stats["augmented_kept"] == len(aug)
    assert len({r["meta"]["harness"]["hash"] for r in aug}) == len(aug)  # a fresh variant per episode
    for r in rows:
        sc = r["meta"]["scores"]
        assert sc["composite"] >= 80 and sc["components"]["accuracy"] == 1.0
        assert sc["components"]["effectiveness"] >= 0.5
        roles = [m["role"] for m in r["messages"]]
        assert roles[0] == "system" and roles[1] == "user" and roles[-1] == "assistant"
        for m in r["messages"]:
            for tc in m.get("tool_calls") or []:
                assert isinstance(tc["function"]["arguments"], dict)  # chat-template form
    ds = load_sft_dataset(data_dir)
    assert ds.column_names == ["messages", "tools"] and len(ds) == len(rows)
    for i, r in enumerate(rows):  # Json features round-trip each row's own schema exactly
        assert ds[i]["tools"] == r["tools"] and ds[i]["messages"] == r["messages"]


def test_augmented_rows_render_their_own_tool_names(tiny: str, data_dir: Path) -> None:
    import datasets
    from transformers import AutoTokenizer

    from hat_env.train.data import load_sft_dataset, read_jsonl

    tok = AutoTokenizer.from_pretrained(tiny)
    rows = read_jsonl(data_dir / "train.jsonl")
    ds = load_sft_dataset(data_dir)
    all_names = {t["function"]["name"] for r in rows for t in r["tools"]}
    all_params = {p for r in rows for t in r["tools"] for p in (t["function"]["parameters"].get("properties") or {})}
    for r, d in zip(rows, ds):
        text = tok.apply_chat_template(d["messages"], tools=d["tools"], tokenize=False)
        own = {t["function"]["name"] for t in r["tools"]}
        own_params = {p for t in r["tools"] for p in (t["function"]["parameters"].get("properties") or {})}
        for n in own:
            assert f'"name": "{n}"' in text
        for n in all_names - own:
            assert f'"name": "{n}"' not in text, f"{n} leaked into a row of another harness"
        for p in all_params - own_params:
            assert f'"{p}": null' not in text
        assert ": null" not in text.split("</tools>")[0].replace('"coupon": null', "")
    # the trap this guards against: plain Arrow inference merges the schemas and fills the gaps with nulls
    naive = datasets.Dataset.from_list([{"tools": r["tools"]} for r in rows])
    merged = {p for t in naive[0]["tools"] for p in (t["function"]["parameters"].get("properties") or {})}
    assert merged != {p for t in rows[0]["tools"] for p in (t["function"]["parameters"].get("properties") or {})}


class _Clumsy:
    """The reference agent with two mistakes per request: an unknown tool first, and an over-long first reply."""

    name = "clumsy"

    def __init__(self) -> None:
        self.ref = ReferenceAgent()

    def act(self, req: Any) -> AgentResponse:
        if req.turn == 0:
            return AgentResponse(text='<tool_call>{"name": "no_such_tool", "arguments": {}}</tool_call>')
        r = self.ref.act(req)
        fed_back = any(m["role"] == "user" and str(m["content"]).startswith("[harness]") for m in req.messages)
        if "<tool_call>" not in r.text and not fed_back:
            return AgentResponse(text=r.text + " " + "x" * 400)
        return r


def test_hook_retries_collapse_to_final_behaviour(tmp_path: Path) -> None:
    from hat_env.train.data import build_examples

    srcs = [{"kind": "qa", "scenario": "beauty_zh", "episodes": 4, "personas": ["price_asker"]}]
    collapsed, st = build_examples(_data_cfg(tmp_path, sources=srcs, hsa={"share": 0.0},
                                             retries={"keep_whole_share": 0.0}), _Clumsy())
    whole, st2 = build_examples(_data_cfg(tmp_path, sources=srcs, hsa={"share": 0.0},
                                          retries={"keep_whole_share": 1.0}), _Clumsy())
    clean, _ = build_examples(_data_cfg(tmp_path, sources=srcs, hsa={"share": 0.0}), ReferenceAgent())
    assert st["retry_traces"] == st["collapsed"] == len(collapsed) == 4 and st2["kept_whole"] == 4
    for c, w, ref in zip(collapsed, whole, clean):
        text_c = json.dumps(c.messages, ensure_ascii=False)
        text_w = json.dumps(w.messages, ensure_ascii=False)
        assert "no_such_tool" not in text_c and "[harness]" not in text_c and "xxxxxxxx" not in text_c
        assert "no_such_tool" in text_w and "[harness]" in text_w and "xxxxxxxx" in text_w
        assert [m["role"] for m in c.messages] == [m["role"] for m in ref.messages]
        for i, m in enumerate(c.messages):  # every kept call still has its tool message
            if m.get("tool_calls"):
                tail = c.messages[i + 1: i + 1 + len(m["tool_calls"])]
                assert [t["role"] for t in tail] == ["tool"] * len(m["tool_calls"])


def test_filter_drops_trajectories_that_fail_the_rubric(tmp_path: Path) -> None:
    from hat_env.train.data import build_examples

    class Liar:
        name = "liar"

        def act(self, req: Any) -> AgentResponse:
            return AgentResponse(text="The price is 1 yuan, the lowest ever! 价格1元")

    cfg = _data_cfg(tmp_path, sources=[{"kind": "qa", "scenario": "beauty_zh", "episodes": 6,
                                        "personas": ["price_asker"]}])
    kept, st = build_examples(cfg, Liar())
    assert kept == [] and st["generated"] == 6 and sum(st["dropped"].values()) == 6


# -- SFT ---------------------------------------------------------------------------------------------------


def test_sft_loss_is_finite_and_moves(sft_run: dict[str, Any]) -> None:
    hist = sft_run["second"]["log_history"]
    losses = [h["loss"] for h in hist if "loss" in h]
    assert len(losses) == 4 and all(math.isfinite(x) for x in losses)
    assert losses[-1] < losses[0]
    assert (Path(sft_run["second"]["final_model"]) / "model.safetensors").exists()
    metrics = [json.loads(x) for x in (sft_run["out"] / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics if "loss" in m] == [1, 2, 3, 4, 5, 6]  # the three runs, appended


def test_stopped_sft_run_resumes_from_its_checkpoint(sft_run: dict[str, Any]) -> None:
    first, second = sft_run["first"], sft_run["second"]
    assert first["global_step"] == 2 and first["resumed_from"] is None
    assert second["resumed_from"] is not None and Path(second["resumed_from"]).name == "checkpoint-2"
    assert second["global_step"] == 4
    steps = [h["step"] for h in second["log_history"] if "loss" in h]
    assert steps == [1, 2, 3, 4]  # 1-2 restored from the checkpoint's state, 3-4 trained after resuming


def test_resumed_runs_continue_the_learning_rate_schedule(sft_run: dict[str, Any]) -> None:
    """The logged learning rate of every step is the linear schedule's value for the run's own max_steps, also
    for the first steps after resuming (after an interruption, and after max_steps was raised)."""
    base = sft_run["cfg"].training.learning_rate

    def logged(summary: dict[str, Any]) -> dict[int, float]:
        return {h["step"]: h["learning_rate"] for h in summary["log_history"] if "loss" in h}

    second, longer = logged(sft_run["second"]), logged(sft_run["longer"])
    assert sft_run["longer"]["resumed_from"].endswith("checkpoint-4") and sorted(longer) == [1, 2, 3, 4, 5, 6]
    for step in (3, 4):  # resumed at step 3 of 4
        assert second[step] == pytest.approx(base * (4 - (step - 1)) / 4)
    for step in (5, 6):  # resumed at step 5 of 6: not the 0 the 4-step schedule ended on
        assert longer[step] == pytest.approx(base * (6 - (step - 1)) / 6)


def test_model_cards_name_the_base_model(sft_run: dict[str, Any], tiny: str) -> None:
    for card in (sft_run["out"] / "README.md", Path(sft_run["second"]["final_model"]) / "README.md"):
        text = card.read_text()
        assert "[None]" not in text and f"`{tiny}` (a local checkpoint)" in text and "stage `sft`" in text


def test_assistant_only_mask_covers_exactly_the_assistant_turns(tiny: str, data_dir: Path, tmp_path: Path) -> None:
    from hat_env.train.data import load_sft_dataset
    from hat_env.train.sft import build_trainer

    cfg = SFTConfig.model_validate({"model": {"path": tiny}, "dataset": str(data_dir),
                                    "training": _training(tmp_path, max_steps=1)})
    trainer = build_trainer(cfg)
    tok = trainer.processing_class
    src = load_sft_dataset(data_dir)
    checked = 0
    for i in range(len(trainer.train_dataset)):
        row = trainer.train_dataset[i]
        ids, labels = row["input_ids"], row["labels"]
        text = tok.decode(ids, skip_special_tokens=False)
        # spans of trained tokens, decoded
        spans: list[list[int]] = []
        prev = False
        for t, lab in zip(ids, labels):
            on = lab != -100
            if on and not prev:
                spans.append([])
            if on:
                spans[-1].append(t)
            prev = on
        got = [tok.decode(s, skip_special_tokens=False) for s in spans]
        # what each assistant turn is in the rendered text: from after "<|im_start|>assistant" to the next turn
        want = [p[len("assistant"):] for p in text.split("<|im_start|>") if p.startswith("assistant")]
        n_assistant = sum(1 for m in src[i]["messages"] if m["role"] == "assistant")
        assert len(want) == n_assistant == len(got)
        assert got == want
        untrained = tok.decode([t for t, lab in zip(ids, labels) if lab == -100], skip_special_tokens=False)
        for m in src[i]["messages"]:
            if m["role"] in ("system", "user", "tool"):
                assert m["content"][:40] in untrained
        checked += 1
    assert checked == len(src)


# -- distillation ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("trainer", ["distillation", "gkd"])
def test_distillation_from_the_pre_sft_base(trainer: str, tiny: str, sft_run: dict[str, Any], tmp_path: Path) -> None:
    import torch
    from safetensors.torch import load_file

    from hat_env.train.distill import run_distill

    student = sft_run["second"]["final_model"]
    cfg = DistillConfig.model_validate({
        "model": {"path": student}, "teacher": {"path": tiny}, "dataset": "builtin", "trainer": trainer,
        "lmbda": 0.5, "max_completion_length": 8, "max_prompts": 8,
        "training": _training(tmp_path, max_steps=2, learning_rate=1e-3)})
    summ = run_distill(cfg)
    losses = [h["loss"] for h in summ["log_history"] if "loss" in h]
    assert len(losses) == 2 and all(math.isfinite(x) for x in losses) and max(losses) > 0
    before = load_file(str(Path(student) / "model.safetensors"))
    after = load_file(str(Path(summ["final_model"]) / "model.safetensors"))
    assert any(not torch.equal(before[k], after[k]) for k in before)
    card = (Path(summ["final_model"]) / "README.md").read_text()  # names the original base, through the SFT card
    assert f"`{tiny}` (a local checkpoint)" in card and f"started from `{student}`" in card and "[None]" not in card


def test_distill_reads_local_general_sets(tmp_path: Path) -> None:
    from hat_env.train.distill import load_general_rows

    p = tmp_path / "g.jsonl"
    p.write_text('{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}\n'
                 '{"prompt": "2+2?", "completion": "4"}\n', encoding="utf-8")
    rows = load_general_rows(str(p))
    assert rows == [{"prompt": [{"role": "user", "content": "hi"}], "completion": "hello"},
                    {"prompt": [{"role": "user", "content": "2+2?"}], "completion": "4"}]
    assert len(load_general_rows("builtin")) >= 30


# -- RL ----------------------------------------------------------------------------------------------------


def _rl_cfg(model: str, out: Path, **kw: Any) -> RLConfig:
    base = {"model": {"path": model}, "tasks": {"scenarios": ["beauty_zh"], "episodes": 6, "seed": 3},
            "hsa": {"share": 0.5, "variants": 2}, "num_generations": 2, "max_completion_length": 24,
            "max_tool_calling_iterations": 2, "length_penalty": {"free_tokens": 8, "max_tokens": 24},
            "training": _training(out, max_steps=1, learning_rate=1e-5)}
    base.update(kw)
    return RLConfig.model_validate(base)


def _rollout(env: Any) -> list[dict[str, Any]]:
    """Drive an environment the way TRL does (one method call per tool call), the reference agent choosing."""
    agent = ReferenceAgent()
    completion: list[dict[str, Any]] = []
    while True:
        loop = env.env.session.loop
        resp = agent.act(loop.agent_request())
        parsed = loop.harness.parse(resp.text)
        if not parsed.tool_calls:
            completion.append({"role": "assistant", "content": parsed.reply})
            return completion
        completion.append({"role": "assistant", "content": "", "tool_calls": [
            {"type": "function", "function": {"name": c.name, "arguments": c.arguments}} for c in parsed.tool_calls]})
        for c in parsed.tool_calls:
            result = getattr(env, c.name)(**c.arguments)
            completion.append({"role": "tool", "name": c.name, "content": result})


def test_rl_rewards_are_the_simulators_rubric(tmp_path: Path) -> None:
    from hat_env.envs.live_qa import LiveQAEnv
    from hat_env.train.rl import REWARD_COMPONENTS, build_tasks, reward_functions

    cfg = _rl_cfg("unused", tmp_path)
    tasks = build_tasks(cfg)
    assert tasks.summary["tasks"] == 6 and 0 < tasks.summary["augmented"] < 6
    funcs, weights = reward_functions(cfg, lambda text, **kw: {"input_ids": list(text)})
    names = [f.__name__ for f in funcs]
    assert names == [*REWARD_COMPONENTS, "length_penalty", "composite"] and weights == [1.0, 1.0, 0.5, 0.5, 0.2, 0.0]
    for row in tasks.rows:
        cls = tasks.classes[row["environment"]]
        tool_names = [t["function"]["name"] for t in cls.harness.openai_tools]
        assert all(callable(getattr(cls, n)) for n in tool_names)  # the variant's own tools are the methods
        good, bad = cls(), cls()
        good.reset(**row)
        bad.reset(**row)
        completions = [_rollout(good), [{"role": "assistant", "content": "不知道哦"}]]
        rewards = {f.__name__: f(prompts=[row["prompt"]] * 2, completions=completions, environments=[good, bad])
                   for f in funcs}
        # the same request scored natively by the simulator (whole turns, the reference agent)
        native = LiveQAEnv(cls.scenario, harness=cls.harness)
        task = json.loads(row["task"])
        native.reset(seed=task["seed"], options={"case": task["case"]})
        done, info = False, {}
        while not done:
            _o, _r, done, _t, info = native.step(ReferenceAgent().act(native.agent_request()).text)
        def gated(comps: dict[str, float], name: str) -> float:
            # the default accuracy_gate: the accuracy reward counts only as far as the reply answers
            return comps[name] * comps["effectiveness"] if name == "accuracy" else comps[name]

        for name in REWARD_COMPONENTS:
            assert info["scores"]["components"][name] == good.scores["components"][name]
            assert rewards[name][0] == gated(good.scores["components"], name)
        assert rewards["composite"][0] == good.scores["composite"] / 100 > 0.9
        # the bad reply: scored by the rubric as the same reply sent in a fresh episode
        fresh = LiveQAEnv(cls.scenario, harness=cls.harness)
        fresh.reset(seed=task["seed"], options={"case": task["case"]})
        _o, _r, _d, _t, finfo = fresh.step("不知道哦")
        want = finfo["scores"] if "scores" in finfo else bad.scores
        for name in REWARD_COMPONENTS:
            assert rewards[name][1] == gated(want["components"], name)
        assert rewards["effectiveness"][1] < 1.0 and rewards["accuracy"][1] < rewards["accuracy"][0]
        assert rewards["length_penalty"][1] <= 0.0


def test_grpo_trains_against_the_simulator(tiny: str, tmp_path: Path) -> None:
    from hat_env.train.rl import build_trainer

    cfg = _rl_cfg(tiny, tmp_path)
    trainer, tasks = build_trainer(cfg)
    tok = trainer.processing_class
    for row in tasks.rows:  # TRL renders each prompt with the harness variant's own schemas (nesting included)
        schemas = trainer._env_tools[row["environment"]]
        own = tasks.classes[row["environment"]].harness.openai_tools
        assert sorted((dict(t) for t in schemas), key=lambda t: t["function"]["name"]) == \
            sorted(own, key=lambda t: t["function"]["name"])
        text = tok.apply_chat_template(row["prompt"], tools=schemas, tokenize=False, add_generation_prompt=True)
        for t in schemas:
            assert f'"name": "{t["function"]["name"]}"' in text
    trainer.train()
    logs = [h for h in trainer.state.log_history if "loss" in h]
    assert len(logs) == 1 and math.isfinite(logs[0]["loss"])
    for name in ("accuracy", "effectiveness", "tool_rationality", "skill_selection", "length_penalty", "composite"):
        assert f"rewards/{name}/mean" in logs[0]
    envs = trainer.environments  # the last batch's rollouts: the logged reward is their rubric score
    assert envs and all(e.scores is not None for e in envs)
    comps = [e.scores["components"] for e in envs]  # accuracy gated by effectiveness (the default accuracy_gate)
    mean_acc = sum(c["accuracy"] * c["effectiveness"] for c in comps) / len(envs)
    assert logs[0]["rewards/accuracy/mean"] == pytest.approx(mean_acc)


# -- command line ------------------------------------------------------------------------------------------


def test_cli_train_data_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env.cli import main

    out = tmp_path / "d"
    rc = main(["train", "data", "--config", str(CONFIGS / "data-smoke.yaml"), f"output_dir={out}",
               "sources=[{kind: qa, scenario: beauty_zh, episodes: 3}]", "--quiet"])
    assert rc == 0 and (out / "train.jsonl").exists() and (out / "hf").is_dir()
    assert "3 of 3 requests kept" in capsys.readouterr().out
    assert main(["train", "rl", "--config", str(CONFIGS / "rl-smoke.yaml"), "--check"]) == 0
    assert json.loads(capsys.readouterr().out)["importance_sampling_level"] == "sequence"
    assert main(["train", "sft", "--config", str(CONFIGS / "rl-smoke.yaml")]) == 2
    assert "configures 'rl', not 'sft'" in capsys.readouterr().err
