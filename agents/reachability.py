"""Whether an endpoint is down: the one question behind a failed call's message.

A server that died can surface in a client as a refused connection, a reset one, a connection cut before an
answer, or a timeout (the request was sent before it died), depending on when it died and how loaded the machine
is. The openai adapter asks these two functions so that every one of those reads as the same clear message,
``cannot connect to URL: connection refused`` (or ``reset``), whichever way the failure surfaced.
"""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit


def dead_endpoint_reason(exc: BaseException) -> str | None:
    """``"connection refused"`` or ``"connection reset"`` when the chain of ``exc`` (its causes and contexts)
    holds that OS error, else ``None``.

    Args:
        exc: what the client raised.
    """
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, ConnectionRefusedError) or "refused" in str(e).lower():
            return "connection refused"
        if isinstance(e, ConnectionResetError) or "connection reset" in str(e).lower():
            return "connection reset"
        if "ConnectError" in type(e).__name__:  # httpx's connect failure ("All connection attempts failed")
            return "connection refused"
        e = e.__cause__ or e.__context__
    return None


async def refuses_connections(url: str, timeout_s: float = 2.0) -> bool:
    """Whether the host and port of ``url`` refuse a TCP connection now (the server is down), by one connect.

    Args:
        url: the endpoint's base URL (``http://host:port/...``; the port defaults to 80, or 443 for https).
        timeout_s: how long the connect may take; a connect that times out or fails otherwise is not a refusal.

    Returns:
        ``True`` only for a refused connection.
    """
    parts = urlsplit(url)
    if not parts.hostname:
        return False
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        _, writer = await asyncio.wait_for(asyncio.open_connection(parts.hostname, port), timeout_s)
    except ConnectionRefusedError:
        return True
    except (OSError, ValueError, asyncio.TimeoutError):
        return False
    writer.close()
    try:
        await writer.wait_closed()
    except OSError:
        pass
    return False
