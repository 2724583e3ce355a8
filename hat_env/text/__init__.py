"""Shared text understanding: normalisation with offset maps (NFKC, traditional -> simplified, Chinese numerals,
English/Spanish number words, spelled-out letters) and lazily imported segmentation (jieba) and fuzzy matching
(rapidfuzz). Used by the claims engine (:mod:`hat_env.scoring.claims`) and the comment parser."""

from hat_env.text.lazy import fuzz, segment
from hat_env.text.normalize import collapse_spaced, has_han, nfkc, normalize, to_simplified
from hat_env.text.offsets import Mapped

__all__ = ["Mapped", "collapse_spaced", "fuzz", "has_han", "nfkc", "normalize", "segment", "to_simplified"]
