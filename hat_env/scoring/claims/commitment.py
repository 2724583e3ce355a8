"""How firmly a clause of a reply claims something about a product: whether its subject is certain (named in
the clause, or the one product asked about) and whether it only advises under a condition on the viewer ("敏感的话建议先
小面积试"), which claims nothing. Used by the product checkers (:mod:`.check_features`, :mod:`.check_spec_values`,
:mod:`.check_bools`) and by :mod:`.check_unlisted` and :mod:`.check_denied` (through :mod:`.check_product`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hat_env.scoring.claims.read import Reading


def named_subject(r: "Reading", how: str) -> bool:
    """Whether a claim's subject is certain: named in its clause, or the one product the viewers asked about
    (``how`` from :meth:`Reading.subject`)."""
    return how == "clause" or (how == "asked" and len(r.scope) == 1)


def hedged(r: "Reading", i: int) -> bool:
    """Whether clause ``i`` puts a condition on the viewer and its sentence advises ("敏感的话建议先小面积试",
    "if your cat is still a kitten, ask your vet first"): the locale's ``conditional`` words in the clause and an
    ``advice`` word in the sentence. Such a clause claims nothing about the product ("如果是敏感肌也能放心用", with no
    advice, still claims)."""
    return r.cfind("conditional", i) is not None and r.vocab.find("advice", r.stext(i)) is not None


__all__ = ["hedged", "named_subject"]
