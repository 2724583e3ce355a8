"""The Harness runtime: Skills, Hooks, the system-prompt pipeline, Tools and interaction constraints."""

from hat_env.harness.core import ArgError, Harness
from hat_env.harness.patch import PatchError
from hat_env.harness.spec import HarnessSpec

__all__ = ["ArgError", "Harness", "HarnessSpec", "PatchError"]
