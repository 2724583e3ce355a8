"""A scripted OpenAI-style endpoint on 127.0.0.1 for fault tests: what a real local server does not do (429s,
hangs, garbage, cut streams, slow drips, floods).

Only loopback: the server binds 127.0.0.1 and every behaviour is bounded (a hang waits at most its seconds or
until the server shuts down; a drip or a flood stops after its bound or when the client hangs up).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    """One ``chat.completion.chunk`` with one choice (``delta``, ``finish_reason``), plus ``extra`` fields."""
    return {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "fake-model",
            "choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}], **extra}


def sse(events: list[Any], done: bool = True) -> bytes:
    """An SSE body: each event a JSON value (``data: <json>``) or a ``bytes`` line sent as it is."""
    out = b"".join(e if isinstance(e, bytes) else b"data: " + json.dumps(e).encode() + b"\n\n" for e in events)
    return out + (b"data: [DONE]\n\n" if done else b"")


def answer_chunks(text: str) -> list[dict[str, Any]]:
    """The chunks of a valid streamed answer ``text`` (role, content, stop, usage)."""
    return [chunk({"role": "assistant", "content": ""}), chunk({"content": text}), chunk({}, "stop"),
            {"id": "x", "object": "chat.completion.chunk", "created": 0, "model": "fake-model", "choices": [],
             "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}]


class FakeEndpoint:
    """A tiny HTTP server on 127.0.0.1 that answers ``/v1/chat/completions`` from a script.

    Script items (one per request, in order; when the script runs out, ``("ok", "fine")``):

    - ``("ok", text)``: a valid answer, streamed when the request asks for a stream;
    - ``("status", code, message, headers)``: an error status with an OpenAI-style error body;
    - ``("sleep", seconds)``: answer nothing for ``seconds`` (or until the server shuts down), then ``"late"``;
    - ``("cut", text)``: one chunk of a chunked stream, then the connection drops mid-body;
    - ``("raw", code, content_type, body)``: exactly this status, content type and body (``bytes``);
    - ``("close",)``: close the connection without answering;
    - ``("drip", text, interval_s, max_s)``: a valid stream sending one character of ``text`` (cycled) every
      ``interval_s`` seconds, for at most ``max_s`` seconds or until the client hangs up;
    - ``("flood", piece, max_mb)``: content chunks of ``piece`` as fast as the client reads, up to ``max_mb`` MB.

    ``GET /v1/models`` answers ``models`` (default: one model, ``fake-model``), or ``models_raw`` bytes when set.
    It counts requests and the most in flight at once.
    """

    def __init__(self, script: list[tuple[Any, ...]] | None = None, delay: float = 0.0,
                 models: list[str] | None = None, models_raw: bytes | None = None):
        self.script = list(script or [])
        self.delay = delay
        self.models = ["fake-model"] if models is None else models
        self.models_raw = models_raw
        self.requests = 0
        self.in_flight = 0
        self.max_in_flight = 0
        self.release = threading.Event()
        self.lock = threading.Lock()
        ep = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def log_message(self, *a: Any) -> None:
                pass

            def _send(self, code: int, body: bytes, ctype: str = "application/json",
                      headers: dict[str, str] | None = None) -> None:
                self.send_response(code)
                self.send_header("Content-Type", ctype)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self) -> None:
                if ep.models_raw is not None:
                    self._send(200, ep.models_raw)
                    return
                data = [{"id": m, "object": "model"} for m in ep.models]
                self._send(200, json.dumps({"object": "list", "data": data}).encode())

            def _stream_head(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.end_headers()

            def do_POST(self) -> None:
                n = int(self.headers.get("Content-Length") or 0)
                req = json.loads(self.rfile.read(n) or b"{}")
                with ep.lock:
                    ep.requests += 1
                    ep.in_flight += 1
                    ep.max_in_flight = max(ep.max_in_flight, ep.in_flight)
                    item = ep.script.pop(0) if ep.script else ("ok", "fine")
                try:
                    self._answer(item, req)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client hung up (a timeout, or it stopped reading a flood)
                finally:
                    with ep.lock:
                        ep.in_flight -= 1

            def _answer(self, item: tuple[Any, ...], req: dict[str, Any]) -> None:
                if ep.delay:
                    time.sleep(ep.delay)
                kind = item[0]
                if kind == "sleep":
                    ep.release.wait(item[1])
                    item, kind = ("ok", "late"), "ok"
                if kind == "close":
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                if kind == "raw":
                    _, code, ctype, body = item
                    self._send(code, body, ctype=ctype)
                    return
                if kind == "cut":  # a chunked stream that stops mid-body: the server died mid-answer
                    data = sse([chunk({"role": "assistant", "content": item[1]})], done=False)
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                     b"Transfer-Encoding: chunked\r\n\r\n" + f"{len(data):x}\r\n".encode() + data + b"\r\n")
                    self.wfile.flush()
                    self.connection.shutdown(socket.SHUT_RDWR)
                    self.close_connection = True
                    return
                if kind == "status":
                    _, code, msg, headers = item
                    self._send(code, json.dumps({"error": {"message": msg, "code": code}}).encode(), headers=headers)
                    return
                if kind == "drip":
                    _, text, interval, max_s = item
                    self._stream_head()
                    self.wfile.write(sse([chunk({"role": "assistant", "content": ""})], done=False))
                    end = time.monotonic() + max_s
                    i = 0
                    while time.monotonic() < end and not ep.release.is_set():
                        self.wfile.write(sse([chunk({"content": text[i % len(text)]})], done=False))
                        self.wfile.flush()
                        i += 1
                        ep.release.wait(interval)
                    return
                if kind == "flood":
                    _, piece, max_mb = item
                    self._stream_head()
                    one = sse([chunk({"content": piece})], done=False)
                    for _ in range(int(max_mb * 2**20 / len(one)) + 1):
                        if ep.release.is_set():
                            return
                        self.wfile.write(one)
                    return
                text = item[1]
                if not req.get("stream"):
                    body = {"id": "x", "object": "chat.completion", "created": 0, "model": req.get("model"),
                            "choices": [{"index": 0, "finish_reason": "stop",
                                         "message": {"role": "assistant", "content": text}}],
                            "usage": {"prompt_tokens": 3, "completion_tokens": 1, "total_tokens": 4}}
                    self._send(200, json.dumps(body).encode())
                    return
                self._send(200, sse(answer_chunks(text)), ctype="text/event-stream")

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass  # a client that timed out and hung up is expected here

        self.server = Server(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeEndpoint":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
