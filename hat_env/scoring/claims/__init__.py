"""The claims engine: what a reply asserts, about which product, and whether the room data says so.

:func:`read_claims` returns a :class:`Report` (every :class:`Claim` with its verdict ``true``, ``false``,
``unsupported`` or ``not_a_claim`` and a reason, plus what the reply does socially); :func:`answered_intents`
says which of the viewers' intents a reply answers with true claims. Modules, one concern each: ``vocab``
(locale word lists as data), ``numbers`` (quantities and units), ``mentions`` (product references), ``facts``
(the room data at the request's moment), ``read`` (clauses, attribution, polarity), ``check_numbers`` (with ``check_money`` and ``check_measures``),
``check_facts`` and ``answers``.
"""

from hat_env.scoring.claims.answers import answered_intents
from hat_env.scoring.claims.facts import RoomFacts
from hat_env.scoring.claims.model import VERDICTS, Claim, Clause, Report
from hat_env.scoring.claims.read import read_claims
from hat_env.scoring.claims.vocab import Vocab, available_locales, load_vocab

__all__ = ["VERDICTS", "Claim", "Clause", "Report", "RoomFacts", "Vocab", "answered_intents", "available_locales",
           "load_vocab", "read_claims"]
