"""The comment parser, where the simulator's callers import it: ``parse_comment(text, locale, catalog=None)``.

It lives in :mod:`hat_env.understanding` (vocabulary in the locale files' ``parser`` sections); this module
keeps the import path the viewer simulator, the reference agent and older code use.
"""

from __future__ import annotations

from hat_env.understanding.parser import CommentParser, parse_comment

__all__ = ["CommentParser", "parse_comment"]
