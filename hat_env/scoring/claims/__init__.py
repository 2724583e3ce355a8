"""The claims engine: what a reply asserts, about which product, and whether the room data says so.

:func:`read_claims` returns a :class:`Report` (every :class:`Claim` with its verdict ``true``, ``false``,
``unsupported`` or ``not_a_claim`` and a reason, plus what the reply does socially); :func:`answered_intents`
says which of the viewers' intents a reply answers with true claims.

Modules, one concern each:

- reading: ``vocab`` (locale word lists as data), ``numbers`` (quantities and units), ``mentions`` (product
  references), ``facts`` (the room data at the request's moment), ``read`` (clauses, attribution, polarity),
  ``detect`` (runs every non-number detector), ``answers`` (which intents true claims answer);
- numbers: ``check_numbers`` with ``check_money``, ``check_measures``, ``check_sizes``, ``check_codes``;
- detectors: ``check_common`` (polarity, subject and the generic yes/no and exists checks they share),
  ``check_facts`` (availability, shipping, campaigns), ``check_returns`` (returns, exchange, warranty),
  ``check_gifts``, ``check_warranty``,
  ``check_product`` (features, spec values, yes/no attributes), ``check_labelled`` (a room's own value words),
  ``check_lists`` (restatements, enumerations, invented list items), ``check_unlisted`` (attributes the data may
  not have: suitability, features, "free of"), ``check_denied`` (what the data denies), ``check_unsupported``
  (guarantees, certifications, rankings, reviews, effects, health), ``check_orders``, ``check_exclusive``,
  ``check_answers``.
"""

from hat_env.scoring.claims.answers import answered_intents
from hat_env.scoring.claims.facts import RoomFacts
from hat_env.scoring.claims.model import VERDICTS, Claim, Clause, Report
from hat_env.scoring.claims.read import read_claims
from hat_env.scoring.claims.vocab import Vocab, available_locales, load_vocab

__all__ = ["VERDICTS", "Claim", "Clause", "Report", "RoomFacts", "Vocab", "answered_intents", "available_locales",
           "load_vocab", "read_claims"]
