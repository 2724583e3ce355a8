"""One self-contained HTML page from the page data: the template (inline CSS and JS, package data) with the data
embedded as JSON in a ``<script type="application/json">`` element.

Viewer comments, replies and tool results are untrusted text. Two things keep them inert:

- :func:`embed_json` writes ``<``, ``>``, ``&`` and the JavaScript line separators as ``\\uXXXX`` escapes, so no
  string in the data can close the element (``</script>``) or open a comment; ``JSON.parse`` reads them back
  exactly. The page's script puts every value into the DOM as text, never as markup.
- The page's Content-Security-Policy allows only its own script and style (by SHA-256), no network at all
  (``default-src 'none'``), so even markup that got in could neither run nor fetch anything.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from importlib import resources
from typing import Any

_MARK = re.compile(r"__(CSP|TITLE|DATA)__")
_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_UNSAFE = re.compile("[<>&\u2028\u2029]")


def embed_json(data: Any) -> str:
    """``data`` as JSON text that is safe inside a ``<script type="application/json">`` element.

    Args:
        data: anything ``json.dumps`` takes.

    Returns:
        Compact JSON (non-ASCII text kept as is) with ``< > &`` and U+2028/U+2029 written as ``\\uXXXX``.
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _UNSAFE.sub(lambda m: _ESCAPES[m.group(0)], text)


def template() -> str:
    """The page template shipped with the package."""
    return resources.files("hat_env.view").joinpath("template.html").read_text(encoding="utf-8")


def _element_text(page: str, tag: str) -> str:
    """The text of the template's only inline ``<tag>`` without attributes."""
    found = re.findall(rf"<{tag}>(.*?)</{tag}>", page, flags=re.S)
    if len(found) != 1:
        raise RuntimeError(f"the view template must hold exactly one plain <{tag}> element, found {len(found)}")
    return found[0]


def _sha256(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def content_security_policy(page: str) -> str:
    """The policy for a template: nothing from anywhere, except its own script and style (by hash) and
    ``data:`` images."""
    return (f"default-src 'none'; script-src {_sha256(_element_text(page, 'script'))}; "
            f"style-src {_sha256(_element_text(page, 'style'))}; img-src data:; base-uri 'none'; form-action 'none'")


def render(data: dict[str, Any], title: str) -> str:
    """The whole page.

    Args:
        data: the page data (:func:`hat_env.view.session.session_data` or :func:`hat_env.view.bench.bench_data`).
        title: the document title (escaped here).

    Returns:
        The HTML text.
    """
    page = template()
    values = {"CSP": content_security_policy(page), "TITLE": html.escape(title), "DATA": embed_json(data)}
    return _MARK.sub(lambda m: values[m.group(1)], page)  # one pass: inserted text is never scanned again
