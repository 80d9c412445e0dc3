"""A scripted server speaking the Anthropic Messages API on 127.0.0.1, for tests.

The real `anthropic` client talks to it over HTTP. A script is a list of replies (served in
order) or a function of the request body (to route parallel callers deterministically, e.g.
by system prompt). Every request is recorded, so tests can look at what was sent: cache
breakpoints, tools, document blocks, what the writer saw. Replies are shaped like the API's:
messages with content blocks, stop_reason and usage; errors as {"type": "error", ...} with
their status and `retry-after`.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Body = dict[str, Any]


@dataclass(frozen=True)
class ApiError:
    status: int
    type: str
    message: str = ""
    retry_after: str | None = None

    def body(self) -> Body:
        return {"type": "error", "error": {"type": self.type, "message": self.message}}


Reply = Body | ApiError
Script = Sequence[Reply] | Callable[[Body], Reply]

_ids = itertools.count(1)


# -- replies ------------------------------------------------------------------------------


def usage(
    input_tokens: int = 100,
    output_tokens: int = 50,
    *,
    cache_write: int = 0,
    cache_read: int = 0,
    web_searches: int = 0,
) -> Body:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cache_creation_input_tokens": cache_write,
        "cache_read_input_tokens": cache_read,
        "server_tool_use": {"web_search_requests": web_searches, "web_fetch_requests": 0},
        "service_tier": "standard",
    }


def message(*content: Body, stop_reason: str = "end_turn", tokens: Body | None = None) -> Body:
    """A complete message; `model` is filled in with the model the request named."""
    return {
        "id": f"msg_{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": "",
        "content": list(content),
        "stop_reason": stop_reason,
        "stop_sequence": None,
        "usage": tokens or usage(),
    }


def text(value: str, citations: Sequence[Body] = ()) -> Body:
    block: Body = {"type": "text", "text": value}
    if citations:
        block["citations"] = list(citations)
    return block


def tool_use(name: str, arguments: Body, block_id: str | None = None) -> Body:
    return {
        "type": "tool_use",
        "id": block_id or f"toolu_{next(_ids):06d}",
        "name": name,
        "input": arguments,
    }


def char_citation(cited_text: str, document_index: int, start: int = 0) -> Body:
    return {
        "type": "char_location",
        "cited_text": cited_text,
        "document_index": document_index,
        "document_title": None,
        "start_char_index": start,
        "end_char_index": start + len(cited_text),
    }


def server_search(query: str, urls: Sequence[str]) -> list[Body]:
    """The two blocks of one server-side web search: the call and its results."""
    block_id = f"srvtoolu_{next(_ids):06d}"
    results = [
        {
            "type": "web_search_result",
            "url": url,
            "title": url,
            "encrypted_content": "ZW5jcnlwdGVk",
            "page_age": None,
        }
        for url in urls
    ]
    return [
        {
            "type": "server_tool_use",
            "id": block_id,
            "name": "web_search",
            "input": {"query": query},
        },
        {"type": "web_search_tool_result", "tool_use_id": block_id, "content": results},
    ]


def json_message(value: object, tokens: Body | None = None) -> Body:
    return message(text(json.dumps(value, ensure_ascii=False)), tokens=tokens)


def rate_limited(retry_after: str | None = "1") -> ApiError:
    return ApiError(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your rate limit",
        retry_after,
    )


def overloaded(retry_after: str | None = None) -> ApiError:
    return ApiError(529, "overloaded_error", "Overloaded", retry_after)


# -- reading requests ---------------------------------------------------------------------


def system_text(body: Body) -> str:
    system = body.get("system", "")
    if isinstance(system, str):
        return system
    return "".join(block.get("text", "") for block in system)


def blocks(body: Body, role: str | None = None) -> Iterator[Body]:
    """Every content block of every message (of `role`), tool result contents included."""
    for turn in body.get("messages", []):
        if role is not None and turn["role"] != role:
            continue
        content = turn["content"]
        if isinstance(content, str):
            yield {"type": "text", "text": content}
            continue
        for block in content:
            yield block
            inner = block.get("content") if block.get("type") == "tool_result" else None
            if isinstance(inner, list):
                yield from inner


def first_user_text(body: Body) -> str:
    content = body["messages"][0]["content"]
    if isinstance(content, str):
        return content
    return "".join(block.get("text", "") for block in content if block.get("type") == "text")


def tool_results(body: Body) -> list[Body]:
    """The tool results of the last user turn."""
    last = body["messages"][-1]
    if last["role"] != "user" or isinstance(last["content"], str):
        return []
    return [b for b in last["content"] if b.get("type") == "tool_result"]


# -- the server ---------------------------------------------------------------------------


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    body: Body
    received_at: float = field(default_factory=time.monotonic)
    reply: Reply | None = None
    """What the script answered: a message or an ApiError."""

    @property
    def system(self) -> str:
        return system_text(self.body)


class ScriptedAnthropic:
    def __init__(self, script: Script = ()) -> None:
        self.requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._script: Script = script
        self._served = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}"

    def script(self, script: Script) -> None:
        with self._lock:
            self._script, self._served = script, 0

    def start(self) -> ScriptedAnthropic:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _next_reply(self, body: Body, headers: dict[str, str]) -> Reply:
        recorded = RecordedRequest("/v1/messages", headers, body)
        with self._lock:
            self.requests.append(recorded)
            script = self._script
            if not callable(script):
                if self._served < len(script):
                    recorded.reply = script[self._served]
                    self._served += 1
                else:
                    recorded.reply = ApiError(
                        400, "invalid_request_error", "the test script has no more replies"
                    )
                return recorded.reply
        try:
            recorded.reply = script(body)
        except Exception as failure:  # a broken script should fail the test, not hang it
            recorded.reply = ApiError(400, "invalid_request_error", f"script failed: {failure!r}")
        return recorded.reply

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                if self.path.split("?")[0] != "/v1/messages":
                    self._send(404, ApiError(404, "not_found_error", self.path).body())
                    return
                body = json.loads(raw)
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = server._next_reply(body, headers)
                if isinstance(reply, ApiError):
                    extra = {"retry-after": reply.retry_after} if reply.retry_after else {}
                    self._send(reply.status, reply.body(), extra)
                    return
                self._send(200, {**reply, "model": reply.get("model") or body.get("model", "")})

            def _send(
                self, status: int, payload: Body, headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", f"req_{next(_ids):06d}")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler
