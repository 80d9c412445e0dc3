"""A scripted HTTP API on loopback: answers queued replies and records what it was asked.

Providers are tested against it the way they talk to the real APIs: real httpx, real sockets.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest

HOLD_SECONDS = 5.0


@dataclass(frozen=True)
class Reply:
    status: int = 200
    payload: object = None  # JSON-encoded unless `raw` is given
    raw: bytes | None = None
    content_type: str = "application/json"
    hold: bool = False  # answer only when the test ends: a server that never answers in time

    def body(self) -> bytes:
        return self.raw if self.raw is not None else json.dumps(self.payload).encode()


@dataclass(frozen=True)
class Received:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


@dataclass
class ScriptedApi:
    base_url: str = ""
    replies: list[Reply] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)
    release: threading.Event = field(default_factory=threading.Event)

    def reply(self, reply: Reply) -> None:
        self.replies.append(reply)

    def next_reply(self) -> Reply:
        return self.replies.pop(0) if self.replies else Reply(404, {"error": "nothing scripted"})


class _Handler(BaseHTTPRequestHandler):
    api: ScriptedApi

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        parts = urlsplit(self.path)
        self.api.received.append(
            Received(
                self.command,
                parts.path,
                parse_qs(parts.query),
                {k.lower(): v for k, v in self.headers.items()},
                self.rfile.read(length),
            )
        )
        reply = self.api.next_reply()
        if reply.hold:
            self.api.release.wait(HOLD_SECONDS)
        body = reply.body()
        try:
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:  # the client gave up waiting (the timeout tests)
            pass

    do_GET = do_POST = _answer

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def api() -> Iterator[ScriptedApi]:
    scripted = ScriptedApi()
    handler = type("Handler", (_Handler,), {"api": scripted})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    scripted.base_url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield scripted
    finally:
        scripted.release.set()
        server.shutdown()
        thread.join()
        server.server_close()
