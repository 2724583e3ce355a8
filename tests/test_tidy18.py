"""The split of ``understanding/assemble.py`` and ``scoring/claims/check_product.py`` (tidy18): every name the old
modules defined is still importable from them and is the very object of its new home, the new public names exist,
and no module of the split is past the size limit."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: old module -> {name it defined: new home module}
MOVED = {
    "hat_env.understanding.assemble": {
        "deal_prices": "hat_env.understanding.deals", "_CLOSING": "hat_env.understanding.deals",
        "_price_right_after": "hat_env.understanding.deals", "focus_deals": "hat_env.understanding.deals",
        "next_token": "hat_env.understanding.deals", "spread": "hat_env.understanding.spread",
    },
    "hat_env.scoring.claims.check_product": {
        "_features": "hat_env.scoring.claims.check_features", "_NAMED_BY": "hat_env.scoring.claims.check_features",
        "_title_word": "hat_env.scoring.claims.check_features",
        "_audience_framed": "hat_env.scoring.claims.check_features",
        "_covered_by_all": "hat_env.scoring.claims.check_features",
        "_cautioned": "hat_env.scoring.claims.check_features",
        "_spec_values": "hat_env.scoring.claims.check_spec_values", "_TOKEN": "hat_env.scoring.claims.check_spec_values",
        "_tokens": "hat_env.scoring.claims.check_spec_values",
        "_quantity_word": "hat_env.scoring.claims.check_spec_values",
        "_denied": "hat_env.scoring.claims.check_spec_values", "_purity_value": "hat_env.scoring.claims.check_spec_values",
        "_purity_claims": "hat_env.scoring.claims.check_spec_values",
        "_title_text": "hat_env.scoring.claims.check_spec_values",
        "_viewer_condition": "hat_env.scoring.claims.check_spec_values",
        "_faq_value": "hat_env.scoring.claims.check_spec_values", "_variants": "hat_env.scoring.claims.check_spec_values",
        "_bool_specs": "hat_env.scoring.claims.check_bools", "_bool_answer_after": "hat_env.scoring.claims.check_bools",
        "_bool_after_rx": "hat_env.scoring.claims.check_bools",
        "_free_of_substance": "hat_env.scoring.claims.check_bools",
        "hedged": "hat_env.scoring.claims.commitment", "_named": "hat_env.scoring.claims.commitment",
    },
}
#: an old private name -> its public name in the new home
PUBLIC = {"_features": "features", "_spec_values": "spec_values", "_bool_specs": "bool_specs", "_named": "named_subject"}


@pytest.mark.parametrize("old,name,home", [(o, n, h) for o, names in MOVED.items() for n, h in names.items()])
def test_an_old_name_is_its_new_homes_object(old: str, name: str, home: str) -> None:
    got = getattr(importlib.import_module(old), name)
    assert got is getattr(importlib.import_module(home), PUBLIC.get(name, name))


def test_detect_runs_the_public_product_checkers() -> None:
    """detect.py's imports of the old private names reach the public functions."""
    from hat_env.scoring.claims import check_product, detect

    assert detect._features is check_product.features
    assert detect._spec_values is check_product.spec_values
    assert detect._bool_specs is check_product.bool_specs


@pytest.mark.parametrize("path", [
    "hat_env/understanding/assemble.py", "hat_env/understanding/deals.py", "hat_env/understanding/spread.py",
    "hat_env/scoring/claims/check_product.py", "hat_env/scoring/claims/check_features.py",
    "hat_env/scoring/claims/check_spec_values.py", "hat_env/scoring/claims/check_bools.py",
    "hat_env/scoring/claims/commitment.py",
])
def test_a_split_module_is_under_the_size_limit(path: str) -> None:
    assert len((ROOT / path).read_text(encoding="utf-8").splitlines()) <= 400


def test_a_quantity_word_at_the_end_of_its_part_has_no_next_token() -> None:
    """``next_token`` (now in .deals) reads the word after "how much", and nothing past a clause joint."""
    from hat_env.understanding.assemble import next_token

    f = "how much for the kettle, and the lamp"
    assert next_token(f, len("how much"), [f.index(",")]) == "for"
    assert next_token("kettle how much?", len("kettle how much"), []) is None
