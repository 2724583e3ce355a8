"""Model cards of the training stages: the ``README.md`` TRL writes at every checkpoint, and the one in
``OUTPUT_DIR/final``, naming the base model.

TRL's card names the base model only when the model was loaded from a hub id; from a local folder (every model
here) it says "fine-tuned version of [None]". Here the base is ``model.base_model`` from the config, else the
``base_model`` of a hat-env card in the model's folder (what the previous stage wrote: the SFT, distillation and
RL cards all name the original checkpoint), else the folder. The card also names the folder the stage started
from and the stage. ``huggingface_hub`` (a dependency of transformers) reads and writes the card's metadata.
"""

from __future__ import annotations

import re
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hat_env.train.config import ModelOptions

#: Card metadata key of a base model that is a local folder, not a hub id (``base_model`` must be a hub id).
LOCAL_KEY = "hat_env_base_model"

#: Tag every hat-env card carries (how :func:`base_model_of` knows a card was written by a previous stage).
TAG = "hat-env"

_HUB_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def base_model_of(opts: "ModelOptions") -> str:
    """What a card of a model trained from ``opts`` names as its base (see the module docstring)."""
    if opts.base_model:
        return opts.base_model
    readme = Path(opts.path) / "README.md"
    if readme.is_file():
        from huggingface_hub import ModelCard

        try:
            card = ModelCard.load(str(readme))
        except Exception:  # an unreadable card names nothing
            card = None
        data = card.data.to_dict() if card is not None else {}
        base = data.get("base_model") or data.get(LOCAL_KEY)
        if TAG in (data.get("tags") or []) and isinstance(base, str) and base:
            return base
    return opts.path


def _versions() -> str:
    out = []
    for pkg in ("hat-env", "trl", "transformers", "torch"):
        try:
            out.append(f"- {pkg}: {version(pkg)}")
        except PackageNotFoundError:
            continue
    return "\n".join(out)


def card_text(name: str, base: str, start: str, stage: str, trainer: str, dataset: str | None = None) -> str:
    """The card (YAML metadata and markdown).

    Args:
        name: the model's name (its output folder's name).
        base: the base model (:func:`base_model_of`).
        start: the folder the stage started from (``model.path``).
        stage: ``sft``, ``distill`` or ``rl``.
        trainer: the TRL trainer class name.
        dataset: what the stage trained on, when it is a named dataset or a path.
    """
    from huggingface_hub import ModelCard, ModelCardData

    hub = bool(_HUB_ID.match(base)) and not Path(base).exists()
    # a local base is not a hub id, so it cannot be ``base_model``; it goes in ``hat_env_base_model``, which
    # :func:`base_model_of` reads when the next stage starts from this folder
    extra = {} if hub else {LOCAL_KEY: base}
    data = ModelCardData(base_model=base if hub else None, library_name="transformers", model_name=name,
                         tags=[TAG, "trl", stage, "harness-aware-training"], **extra)
    shown = f"[{base}](https://huggingface.co/{base})" if hub else f"`{base}` (a local checkpoint)"
    lines = [
        "---", data.to_yaml(), "---", "", f"# {name}", "",
        f"This model is a fine-tuned version of {shown}, trained with hat-env's Harness-Aware Training, "
        f"stage `{stage}` (TRL `{trainer}`).",
    ]
    if start != base:
        lines += ["", f"This stage started from `{start}`."]
    if dataset:
        lines += ["", f"Training data: `{dataset}`."]
    if not hub:
        lines += ["", f"The metadata names no hub base model: `{base}` is not a hub id. Set `model.base_model` in "
                  "the stage config to name one."]
    lines += ["", "## Framework versions", "", _versions(), ""]
    return ModelCard("\n".join(lines)).content


class ModelCardMixin:
    """Mixed into a TRL trainer class (:func:`with_model_card`): its checkpoint cards and the final card name the
    base model. Set :attr:`hat_card` (the :func:`card_text` arguments but ``name``) before training."""

    hat_card: dict[str, Any] = {}

    def create_model_card(self, model_name: str | None = None, dataset_name: str | None = None,
                          tags: Any = None) -> None:
        """Write the card to ``args.output_dir/README.md`` (what TRL does at each checkpoint)."""
        if not self.is_world_process_zero():  # type: ignore[attr-defined]
            return
        out = Path(self.args.output_dir)  # type: ignore[attr-defined]
        self.write_model_card(out, model_name or out.name)

    def write_model_card(self, folder: str | Path, name: str | None = None) -> Path:
        """Write the card to ``folder/README.md``; returns the path."""
        p = Path(folder)
        p.mkdir(parents=True, exist_ok=True)
        card = card_text(name or Path(self.args.output_dir).name, **self.hat_card)  # type: ignore[attr-defined]
        (p / "README.md").write_text(card, encoding="utf-8")
        return p / "README.md"


_CLASSES: dict[type, type] = {}


def with_model_card(cls: type) -> type:
    """``cls`` (a TRL trainer class) with :class:`ModelCardMixin` mixed in (one subclass per class, cached)."""
    if cls not in _CLASSES:
        _CLASSES[cls] = type(cls.__name__, (ModelCardMixin, cls), {"__module__": __name__,
                                                                   "__doc__": cls.__doc__})
    return _CLASSES[cls]
