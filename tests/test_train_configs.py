"""Training configs a TRL user expects: configs found by name and listed, accelerate configs, the vLLM server
recipe's required fields, TRL fields passed through (``training.extra``), model cards naming the base model.
No training runs here (see tests/test_train.py and tests/test_train_rl.py)."""

from __future__ import annotations

import configparser
import fnmatch
from pathlib import Path

import pytest

from hat_env.train.config import DistillConfig, RLConfig, SFTConfig, load_config
from hat_env.yamlio import FileError

ROOT = Path(__file__).resolve().parents[1]
CONFIGS = ROOT / "train" / "configs"


def _rl(**kw: object) -> dict[str, object]:
    return {"model": {"path": "m"}, "training": {"output_dir": "o"}, **kw}


# -- finding and listing configs ---------------------------------------------------------------------------


def test_configs_are_found_by_name_from_any_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env.cli import main
    from hat_env.train.catalog import find_config

    monkeypatch.chdir(tmp_path)  # no train/configs here: the name resolves to the package's file
    assert find_config("sft-smoke") == CONFIGS / "sft-smoke.yaml"
    assert find_config("rl-smoke.yaml") == CONFIGS / "rl-smoke.yaml"
    assert main(["train", "sft", "--config", "sft-smoke", "training.max_steps=3", "--check"]) == 0
    cap = capsys.readouterr()
    assert '"max_steps": 3' in cap.out and str(CONFIGS / "sft-smoke.yaml") in cap.err
    (tmp_path / "sft-smoke").write_text("stage: sft\nmodel: {path: mine}\ndataset: d\ntraining: {output_dir: o}\n")
    assert find_config("sft-smoke") == Path("sft-smoke")  # a file of that name wins over the shipped one
    assert main(["train", "sft", "--config", "no-such-config"]) == 2
    err = capsys.readouterr().err
    assert "no-such-config" in err and "sft-smoke" in err and "--list-configs" in err


def test_list_configs_names_every_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    from hat_env.cli import main

    assert main(["train", "--list-configs"]) == 0
    out = capsys.readouterr().out
    for p in CONFIGS.glob("*.yaml"):
        line = next(x for x in out.splitlines() if x.split()[:1] == [p.stem])
        assert load_config(p).stage in line.split()
    for p in (CONFIGS / "accelerate").glob("*.yaml"):
        assert str(p) in out
    assert str(CONFIGS / "harnesses" / "compact") in out
    assert main(["train"]) == 2  # neither a stage nor --list-configs


def test_package_data_ships_every_config_file() -> None:
    """What `pip install hat-env` copies: setup.cfg's package_data must cover each file under train/configs."""
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    patterns = [p.strip() for p in cfg["options.package_data"]["hat_env.train"].split(",")]
    files = [p.relative_to(ROOT / "train").as_posix() for p in CONFIGS.rglob("*") if p.is_file()]
    assert files
    for f in files:
        assert any(fnmatch.fnmatch(f, pat) and f.count("/") == pat.count("/") for pat in patterns), f


def test_accelerate_configs_load_with_accelerate() -> None:
    from accelerate.commands.config.config_args import load_config_from_file

    kinds = {}
    for p in sorted((CONFIGS / "accelerate").glob("*.yaml")):
        c = load_config_from_file(str(p))
        kinds[p.stem] = str(c.distributed_type).split(".")[-1]
        assert c.num_processes == 8 and str(c.mixed_precision).endswith("bf16")
    assert kinds == {"ddp": "MULTI_GPU", "fsdp": "FSDP", "zero3": "DEEPSPEED"}
    assert load_config_from_file(str(CONFIGS / "accelerate" / "zero3.yaml")).deepspeed_config["zero_stage"] == 3


# -- vLLM --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("cls", [RLConfig, DistillConfig])
def test_vllm_server_mode_requires_host_and_port(cls: type, tmp_path: Path) -> None:
    extra = {"teacher": {"path": "t"}} if cls is DistillConfig else {}
    with pytest.raises(ValueError, match="vllm_server_host and vllm_server_port.*trl vllm-serve"):
        cls.model_validate(_rl(use_vllm=True, vllm_mode="server", **extra))
    with pytest.raises(ValueError, match="needs vllm_server_port"):
        cls.model_validate(_rl(use_vllm=True, vllm_mode="server", vllm_server_host="10.0.0.2", **extra))
    ok = cls.model_validate(_rl(use_vllm=True, vllm_mode="server", vllm_server_host="10.0.0.2",
                                vllm_server_port=8001, **extra))
    assert ok.vllm_kwargs() == {"use_vllm": True, "vllm_mode": "server", "vllm_gpu_memory_utilization": 0.3,
                                "vllm_tensor_parallel_size": 1, "vllm_server_timeout": 240.0,
                                "vllm_server_host": "10.0.0.2", "vllm_server_port": 8001}
    url = cls.model_validate(_rl(use_vllm=True, vllm_mode="server", vllm_server_base_url="http://h:9", **extra))
    assert url.vllm_kwargs()["vllm_server_base_url"] == "http://h:9"
    assert "vllm_server_host" not in cls.model_validate(_rl(**extra)).vllm_kwargs()  # colocate needs no address
    # the file error names the file and the reason
    p = tmp_path / "rl.yaml"
    p.write_text("stage: rl\nmodel: {path: m}\nuse_vllm: true\nvllm_mode: server\ntraining: {output_dir: o}\n")
    if cls is RLConfig:
        with pytest.raises(FileError, match=f"{p}.*vllm_mode: server needs"):
            load_config(p)


def test_shipped_server_config_gives_an_address() -> None:
    cfg = load_config(CONFIGS / "rl-gpu-server.yaml")
    assert isinstance(cfg, RLConfig) and cfg.use_vllm and cfg.vllm_mode == "server"
    assert cfg.vllm_server_host and cfg.vllm_server_port


def test_vllm_extra_is_pinned_to_the_range_trl_supports() -> None:
    from importlib.metadata import requires

    from packaging.requirements import Requirement

    trl_vllm = next(Requirement(r.split(";")[0]) for r in requires("trl") or []
                    if r.startswith("vllm") and 'extra == "vllm"' in r)
    cfg = configparser.ConfigParser()
    cfg.read(ROOT / "setup.cfg")
    ours = Requirement(next(x.strip() for x in cfg["options.extras_require"]["vllm"].splitlines() if x.strip()))
    assert ours.name == "vllm" and str(ours.specifier) and ours.specifier == trl_vllm.specifier


# -- TRL fields passed through -----------------------------------------------------------------------------


def test_training_extra_reaches_the_trl_config_and_bad_names_are_refused() -> None:
    from trl import GRPOConfig, SFTConfig as TRLSFTConfig

    from hat_env.train.common import trl_args

    cfg = SFTConfig.model_validate({"model": {"path": "m"}, "dataset": "d", "training": {
        "output_dir": "o", "use_cpu": True, "learning_rate": 1e-4,
        "extra": {"optim": "adafactor", "lr_scheduler_kwargs": {"min_lr_rate": 0.1}, "learning_rate": 3e-4}}})
    args = trl_args(TRLSFTConfig, cfg.training, {"max_length": 64})
    assert args.optim == "adafactor" and args.lr_scheduler_kwargs == {"min_lr_rate": 0.1}
    assert args.learning_rate == 3e-4 and args.max_length == 64  # extra wins over the training fields
    bad = cfg.training.model_copy(update={"extra": {"num_generatoins": 4}})
    with pytest.raises(ValueError, match=r"training.extra.num_generatoins: trl.GRPOConfig has no field"):
        trl_args(GRPOConfig, bad, {})
    clash = cfg.training.model_copy(update={"extra": {"num_generations": 4}})
    with pytest.raises(ValueError, match="training.extra.num_generations: this stage sets"):
        trl_args(GRPOConfig, clash, {"num_generations": 8})


# -- segment credit config ---------------------------------------------------------------------------------


def test_segment_credit_must_cover_every_weighted_reward() -> None:
    RLConfig.model_validate(_rl(credit={"mode": "segment"}))
    with pytest.raises(ValueError, match=r"reward\(s\) \['skill_selection'\] have a weight"):
        RLConfig.model_validate(_rl(credit={"mode": "segment", "tool": ["tool_rationality"]}))
    RLConfig.model_validate(_rl(credit={"mode": "segment", "tool": ["tool_rationality"]},
                                rewards={"skill_selection": 0}))
    with pytest.raises(ValueError, match="unknown reward"):
        RLConfig.model_validate(_rl(credit={"tool": ["speed"]}))


# -- model cards -------------------------------------------------------------------------------------------


def test_model_cards_name_the_base_model_through_a_chain_of_stages(tmp_path: Path) -> None:
    from hat_env.train.cards import base_model_of, card_text
    from hat_env.train.config import ModelOptions

    sft = tmp_path / "sft"
    sft.mkdir()
    text = card_text("sft", "Qwen/Qwen2.5-1.5B-Instruct", "models/qwen", "sft", "SFTTrainer", "runs/data")
    (sft / "README.md").write_text(text)
    assert "base_model: Qwen/Qwen2.5-1.5B-Instruct" in text and "[None]" not in text
    assert "fine-tuned version of [Qwen/Qwen2.5-1.5B-Instruct](https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct)" \
        in text
    # the next stage starts from the SFT folder: its card still names the original base
    assert base_model_of(ModelOptions(path=str(sft))) == "Qwen/Qwen2.5-1.5B-Instruct"
    assert base_model_of(ModelOptions(path=str(sft), base_model="org/other")) == "org/other"
    # a card not written by hat-env (a hub download's own README) is not read as the base
    hub = tmp_path / "download"
    hub.mkdir()
    (hub / "README.md").write_text("---\nbase_model: Qwen/Qwen2.5-1.5B\n---\n# Qwen2.5-1.5B-Instruct\n")
    assert base_model_of(ModelOptions(path=str(hub))) == str(hub)
    local = card_text("rl", str(hub), str(hub), "rl", "GRPOTrainer")
    meta = local.split("---")[1]
    assert f"`{hub}` (a local checkpoint)" in local and "\nbase_model:" not in meta
    # a local base is kept in hat-env's own metadata key, so the stage after names it too
    rl = tmp_path / "rl"
    rl.mkdir()
    (rl / "README.md").write_text(local)
    assert base_model_of(ModelOptions(path=str(rl))) == str(hub)
