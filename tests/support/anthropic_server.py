"""A scripted server speaking the Anthropic Messages API on 127.0.0.1, for tests.

The real `anthropic` client talks to it over HTTP. A script is a list of replies (served in
order) or a function of the request body (to route parallel callers deterministically, e.g.
by system prompt). Every request is recorded, so tests can look at what was sent: cache
breakpoints, tools, document blocks, what the writer saw. Replies are shaped like the API's:
messages with content blocks (thinking with signatures, text split around citations, several
tool_use blocks), stop_reason (end_turn, tool_use, pause_turn, max_tokens, refusal) and
usage; errors as {"type": "error", "error": {...}, "request_id": ...} with their status and
`retry-after` where the API sends one.

Requests are checked against the documented rules in `anthropic_rules.py`; one that breaks
a rule gets the 400 the API would give and is kept in `violations`, which the tests' fixture
asserts empty. `usage_mode` "measured" replaces a reply's prompt usage with what the request
would cost (tokens from its size, cache reads and writes from a simulated prompt cache);
"top" bills every prompt token as a cache write and the whole `max_tokens` as output.
A reply that ran server-side searches is billed as the sampling passes of one turn
(`search_passes`).
"""

from __future__ import annotations

import base64
import json
import math
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

from tests.support.anthropic_cache import PromptCache
from tests.support.anthropic_fallback import FallbackCredits
from tests.support.anthropic_replies import (
    ApiError,
    Delayed,
    Reply,
    authentication_error,
    billing_error,
    char_citation,
    cited_split,
    json_message,
    message,
    next_id,
    overloaded,
    permission_error,
    rate_limited,
    redacted_thinking,
    server_search,
    spend_limited,
    text,
    thinking,
    tool_use,
    usage,
)
from tests.support.anthropic_rules import request_chars, violations
from tests.support.anthropic_stream import StreamStage

__all__ = [
    "ApiError",
    "Body",
    "Delayed",
    "RecordedRequest",
    "Reply",
    "ScriptedAnthropic",
    "authentication_error",
    "billing_error",
    "blocks",
    "char_citation",
    "cited_split",
    "first_user_text",
    "json_message",
    "message",
    "overloaded",
    "permission_error",
    "prompt_tokens",
    "rate_limited",
    "redacted_thinking",
    "server_search",
    "spend_limited",
    "system_text",
    "text",
    "thinking",
    "tool_result_images",
    "tool_results",
    "tool_use",
    "usage",
]

Body = dict[str, Any]

# The current tokenizer gives about 2.5 characters a token on this project's text (issue 11);
# the stand-in counts prompts with it.
CHARS_PER_TOKEN = 2.5
# https://platform.claude.com/docs/en/build-with-claude/prompt-caching: the API looks back at
# most 20 blocks from a breakpoint for a cached prefix, and does not cache a prefix under the
# model's minimum (512 tokens on the 5.5 models).
LOOKBACK_BLOCKS = 20
MINIMUM_CACHEABLE_TOKENS = 512


# https://platform.claude.com/docs/en/about-claude/model-deprecations: "requests to retired
# models will fail"; the API answers them 404 not_found_error naming the model (what clients
# saw the day after Sonnet 4 retired, e.g. zed-industries/zed#59424). Retired as of
# 2026-12-02: Sonnet 4 and Opus 4 (2026-06-15), Opus 4.1 (2026-08-05), Haiku 3.5
# (2026-02-19), Sonnet 4.5 (2026-11-30); by their dated ids and aliases.
RETIRED_MODELS = frozenset(
    {
        "claude-sonnet-4-20250514",
        "claude-sonnet-4-0",
        "claude-sonnet-4",
        "claude-opus-4-20250514",
        "claude-opus-4-0",
        "claude-opus-4",
        "claude-opus-4-1-20250805",
        "claude-opus-4-1",
        "claude-3-5-haiku-20241022",
        "claude-3-5-haiku-latest",
        "claude-3-5-haiku",
        "claude-sonnet-4-5-20250929",
        "claude-sonnet-4-5",
    }
)

Script = Sequence[Reply] | Callable[[Body], Reply]
UsageMode = Literal["scripted", "measured", "top"]


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


def tool_result_images(body: Body) -> list[bytes]:
    """The images of the last user turn's tool results, decoded (base64 sources only; the
    stand-in refuses a request whose image the API would refuse: `anthropic_rules`)."""
    return [
        base64.b64decode(inner["source"]["data"])
        for result in tool_results(body)
        for inner in result.get("content", [])
        if isinstance(inner, dict)
        and inner.get("type") == "image"
        and inner.get("source", {}).get("type") == "base64"
    ]


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
    """What the script answered: a message or an ApiError (the usage as billed)."""

    @property
    def system(self) -> str:
        return system_text(self.body)


def prompt_tokens(body: Body) -> int:
    return math.ceil(request_chars(body) / CHARS_PER_TOKEN)


def search_passes(reply: Body, prompt: int, output: int) -> int:
    """The input tokens of a reply's passes after its first, when it ran server-side
    searches: the API runs each search and samples again with the prompt, the results so
    far and the output so far, and every pass bills that as input
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool, usage
    and pricing: results are input tokens in every search iteration of the turn). `output`
    is what the reply wrote before its searches: the whole of it, at the top."""
    extra, results = 0, 0
    for block in reply.get("content", []):
        if block.get("type") != "web_search_tool_result":
            continue
        content = block.get("content")
        found = content if isinstance(content, list) else []
        chars = sum(len(r.get("encrypted_content", "")) for r in found)
        results += math.ceil(chars / CHARS_PER_TOKEN)
        extra += prompt + results + output
    return extra


class ScriptedAnthropic:
    def __init__(self, script: Script = (), usage_mode: UsageMode = "scripted") -> None:
        self.requests: list[RecordedRequest] = []
        self.violations: list[str] = []
        """Documented rules requests broke; the tests' fixture asserts there are none."""
        self.usage_mode: UsageMode = usage_mode
        self._signatures: dict[str, str] = {}
        self._cache = PromptCache(CHARS_PER_TOKEN, LOOKBACK_BLOCKS, MINIMUM_CACHEABLE_TOKENS)
        self.credits = FallbackCredits()
        """Fallback credit tokens minted on refusals and redeemed on retries."""
        self.streams = StreamStage()
        """Requests with "stream": true are answered as events (anthropic_stream.py)."""
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

    def take_violations(self) -> list[str]:
        """The violations so far, cleared: for tests that break a rule on purpose."""
        with self._lock:
            found, self.violations = self.violations, []
        return found

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
            if body.get("model") in RETIRED_MODELS:
                recorded.reply = ApiError(404, "not_found_error", f"model: {body['model']}")
                return recorded.reply
            broken = violations(body, self._signatures)
            if broken:
                self.violations.extend(broken)
                recorded.reply = ApiError(400, "invalid_request_error", "; ".join(broken))
                return recorded.reply
            redemption = self.credits.redeem(body, headers)
            if redemption is not None and redemption.error is not None:
                recorded.reply = redemption.error
                return recorded.reply
            script = self._script
            if not callable(script):
                if self._served < len(script):
                    reply = script[self._served]
                    self._served += 1
                else:
                    reply = ApiError(
                        400, "invalid_request_error", "the test script has no more replies"
                    )
        if callable(script):
            try:
                reply = script(body)
            except Exception as failure:  # a broken script should fail the test, not hang it
                reply = ApiError(400, "invalid_request_error", f"script failed: {failure!r}")
        delay = 0.0
        if isinstance(reply, Delayed):
            delay, reply = reply.seconds, reply.reply
        if not isinstance(reply, ApiError):
            reply = self._billed(body, self.credits.on_refusal(body, headers, reply))
            if redemption is not None and redemption.status is not None:
                billed = {**reply["usage"], "fallback_credit": {"status": redemption.status}}
                reply = {**reply, "usage": billed}
        recorded.reply = reply
        if delay:
            time.sleep(delay)
        return reply

    def _billed(self, body: Body, reply: Body) -> Body:
        """The reply with its model filled in, its thinking signatures remembered (so a
        modified block is caught later) and its usage as `usage_mode` says."""
        reply = {**reply, "model": reply.get("model") or body.get("model", "")}
        with self._lock:
            for block in reply.get("content", []):
                if block.get("type") == "thinking":
                    self._signatures[block["signature"]] = block["thinking"]
                elif block.get("type") == "redacted_thinking":
                    self._signatures["redacted:" + block["data"]] = block["data"]
        if self.usage_mode == "scripted":
            return reply
        tokens = prompt_tokens(body)
        billed = dict(reply.get("usage") or usage())
        if self.usage_mode == "top":
            billed.update(
                input_tokens=0,
                cache_creation_input_tokens=tokens
                + search_passes(reply, tokens, body["max_tokens"]),
                cache_read_input_tokens=0,
                output_tokens=body["max_tokens"],
            )
        else:
            measured = self._cache.measure(body, tokens)
            output = min(billed["output_tokens"], body["max_tokens"])
            billed.update(
                input_tokens=measured.input + search_passes(reply, tokens, output),
                cache_creation_input_tokens=measured.cache_write,
                cache_read_input_tokens=measured.cache_read,
                output_tokens=min(billed["output_tokens"], body["max_tokens"]),
            )
        searches = sum(
            1
            for block in reply.get("content", [])
            if block.get("type") == "server_tool_use" and block.get("name") == "web_search"
        )
        if searches:  # usage.server_tool_use counts the searches run (web-search-tool page)
            billed["server_tool_use"] = {"web_search_requests": searches, "web_fetch_requests": 0}
        return {**reply, "usage": billed}

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
                assert not isinstance(reply, Delayed)
                if body.get("stream"):
                    server.streams.send(self, reply, f"req_{next_id():06d}")
                    return
                self._send(200, reply)

            def _send(
                self, status: int, payload: Body, headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("request-id", f"req_{next_id():06d}")
                for name, value in (headers or {}).items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

        return Handler
