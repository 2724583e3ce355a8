"""Claims about a product's content, by part: features ("waterproof", "孕妇能用") checked against the product's own
specs, FAQ answers, title and note are :mod:`.check_features`; spec values (each value word with its denial,
purity, the viewer's own condition, FAQ values) :mod:`.check_spec_values`; yes/no attributes :mod:`.check_bools`;
how firmly a clause claims (its subject certain, advice under a condition) :mod:`.commitment`. Every name this
module defined before the split is re-exported here (``_features``, ``_spec_values``, ``_bool_specs`` are the old
names of :func:`features`, :func:`spec_values`, :func:`bool_specs`).
The room's attributes and values as its vocabulary declares them are :mod:`.room_vocab`.
Frames for attributes the data lacks are in :mod:`.check_unlisted`, invented list items in :mod:`.check_lists`,
claims no data supports in :mod:`.check_unsupported`, order status in :mod:`.check_orders`.
"""

from __future__ import annotations

from hat_env.scoring.claims.check_bools import bool_specs
from hat_env.scoring.claims.check_features import features
from hat_env.scoring.claims.check_spec_values import spec_values
from hat_env.scoring.claims.commitment import hedged, named_subject

# the private helpers, defined here before the split
from hat_env.scoring.claims.check_bools import (  # noqa: F401
    _bool_after_rx, _bool_answer_after, _free_of_substance,
)
from hat_env.scoring.claims.check_features import (  # noqa: F401
    _NAMED_BY, _audience_framed, _cautioned, _covered_by_all, _title_word,
)
from hat_env.scoring.claims.check_spec_values import (  # noqa: F401
    _TOKEN, _denied, _faq_value, _purity_claims, _purity_value, _quantity_word, _title_text, _tokens, _variants,
    _viewer_condition,
)

__all__ = ["bool_specs", "features", "hedged", "named_subject", "spec_values"]

# the old private names (detect.py imports the first three)
_bool_specs = bool_specs
_features = features
_spec_values = spec_values
_named = named_subject
