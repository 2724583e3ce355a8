"""The spec of an HSA variant: validated by pydantic, the semantic checks skipped.

HSA derives variants from one checked harness, and every value a variant holds is either the parent's or drawn
from vocabularies whose values the tests check, so a variant passes the harness's semantic checks (JSON Schemas
valid, bindings complete, hooks known) by construction. :func:`trusted_spec` builds its
:class:`~hat_env.harness.spec.HarnessSpec` with ordinary ``model_validate`` (what ``Harness.from_dict`` does)
and only skips those checks (the slow part: JSON-Schema meta-validation); hooks the variant shares with its
parent stay the parent's validated models.

Anything read from a file, or given by a user, is checked in full; ``augment(..., check=True)`` checks its
variants too, and the tests check that both paths agree on every variant they draw.
"""

from __future__ import annotations

from typing import Any

from hat_env.harness.spec import HarnessSpec, HookSpec


def trusted_spec(d: dict[str, Any], hooks: dict[int, HookSpec] | None = None) -> HarnessSpec:
    """The validated spec of the harness dict ``d`` (the layout ``model_dump(by_alias=True)`` gives), for dicts
    that pass the semantic checks by construction (see the module docstring).

    Args:
        d: the harness dict (not changed; the spec shares its strings and nested schema values, as validation
            copies containers one level deep).
        hooks: validated hook models to use for hook dicts, by the dict's ``id()`` (the parent's, for hooks a
            variant shares with it): pydantic keeps a model instance as it is, so the variant shares them. The
            other hooks are validated.

    Returns:
        The :class:`~hat_env.harness.spec.HarnessSpec`.

    Raises:
        pydantic.ValidationError: ``d`` is not a valid harness (a bug in the transform that made it).
    """
    known = hooks or {}
    return HarnessSpec.model_validate({**d, "hooks": [known.get(id(hk), hk) for hk in d["hooks"]]})


__all__ = ["trusted_spec"]
