"""A scripted search-provider API (loopback) and its replies, for the web search tests."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, urlsplit

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
