"""The scripted Anthropic server's streams: a reply sent as server-sent events, for tests.

A request with `"stream": true` is answered with the events the streaming page lists
(https://platform.claude.com/docs/en/build-with-claude/streaming, "event types"):
`message_start` (the message with empty `content`), then per content block a
`content_block_start`, its `content_block_delta`s (`text_delta`, `citations_delta`,
`thinking_delta` then `signature_delta`, `input_json_delta` for tool and server-tool input)
and a `content_block_stop`, then `message_delta` (stop reason; its `usage` counts are
cumulative) and `message_stop`; `ping` events may come at any point, and an `error` event
(e.g. `overloaded_error`, what a 529 is outside a stream) may end a stream that began with
200. Blocks that have no delta type (`redacted_thinking`, `web_search_tool_result`) come
whole in their `content_block_start`, as the web search page's streaming example shows
(https://platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool).

A `StreamShape` says how one stream goes wrong or how fast it runs: a pace in output tokens
a second on a `SimulatedClock` the server advances before it writes each event (so a test
reads simulated time through the clock, never waits for it), a connection cut mid-body, a
body that ends without `message_stop`, a stall (nothing more is sent, the connection stays
open), or an `error` event. Streams are chunked, as the API's are.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

Body = dict[str, Any]

__all__ = [
    "SimulatedClock",
    "StreamRecord",
    "StreamShape",
    "StreamStage",
    "stream_events",
]

STALL_HOLD_SECONDS = 10.0
"""How long a stalled stream holds its connection open (the client cuts it long before)."""


class SimulatedClock:
    """Seconds the stand-in's streams have taken, advanced by the server; a client under
    test reads it as its clock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._now = 0.0

    def now(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


@dataclass(frozen=True)
class StreamShape:
    tokens_per_second: float | None = None
    """Pace of the output on the simulated clock; None: no simulated time passes."""
    first_event_seconds: float = 0.4
    """Simulated time before `message_start` (with a pace)."""
    chunk_chars: int = 400
    """Characters of text, thinking or tool input per delta."""
    pings: int = 0
    """`ping` events before each content block."""
    cut_after: int | None = None
    """Close the connection after this many events, mid-body (a dropped connection)."""
    end_after: int | None = None
    """End the body cleanly after this many events, without `message_stop`."""
    stall_after: int | None = None
    """Send nothing after this many events; the connection stays open."""
    error_after: int | None = None
    """After this many events, an `error` event (`overloaded_error`) ends the stream."""


@dataclass
class StreamRecord:
    """What the server did with one streamed request."""

    shape: StreamShape
    events_sent: int = 0
    finished: bool = False
    """Every event up to `message_stop` was written."""
    simulated_seconds: float = 0.0


def _delta_events(index: int, block: Body, chunk: int) -> Iterator[tuple[Body, int]]:
    """The deltas of one block, each with how many characters of output it carries."""

    def pieces(value: str) -> Iterator[str]:
        for start in range(0, len(value), chunk):
            yield value[start : start + chunk]

    def delta(payload: Body) -> Body:
        return {"type": "content_block_delta", "index": index, "delta": payload}

    kind = block["type"]
    if kind == "text":
        # https://platform.claude.com/docs/en/build-with-claude/citations ("streaming
        # support"): a citations_delta adds one citation to the current text block.
        for citation in block.get("citations") or []:
            yield delta({"type": "citations_delta", "citation": citation}), 0
        for piece in pieces(block["text"]):
            yield delta({"type": "text_delta", "text": piece}), len(piece)
    elif kind == "thinking":
        for piece in pieces(block["thinking"]):
            yield delta({"type": "thinking_delta", "thinking": piece}), len(piece)
        # The signature comes in a signature_delta just before the block stops.
        yield delta({"type": "signature_delta", "signature": block["signature"]}), 1
    elif kind in ("tool_use", "server_tool_use"):
        arguments = json.dumps(block.get("input", {}), ensure_ascii=False)
        for piece in pieces(arguments):
            yield delta({"type": "input_json_delta", "partial_json": piece}), len(piece)


def _block_start(block: Body) -> Body:
    kind = block["type"]
    if kind == "text":
        return {"type": "text", "text": ""}
    if kind == "thinking":
        return {"type": "thinking", "thinking": "", "signature": ""}
    if kind in ("tool_use", "server_tool_use"):
        return {**block, "input": {}}
    return block  # no delta type: the whole block starts (and is) the block


def stream_events(reply: Body, shape: StreamShape = StreamShape()) -> list[tuple[str, Body, float]]:
    """The events of `reply` (a complete message as the server bills it), each with the
    simulated seconds it takes: the reply's output tokens spread over its deltas."""
    usage: Body = dict(reply.get("usage") or {})
    output_tokens = int(usage.get("output_tokens", 0))
    start_usage = {**usage, "output_tokens": min(1, output_tokens)}
    events: list[tuple[str, Body, int]] = [
        (
            "message_start",
            {
                "type": "message_start",
                "message": {
                    **reply,
                    "content": [],
                    "stop_reason": None,
                    "stop_sequence": None,
                    "usage": start_usage,
                },
            },
            0,
        )
    ]
    for index, block in enumerate(reply.get("content", [])):
        for _ in range(shape.pings):
            events.append(("ping", {"type": "ping"}, 0))
        events.append(
            (
                "content_block_start",
                {
                    "type": "content_block_start",
                    "index": index,
                    "content_block": _block_start(block),
                },
                0,
            )
        )
        for data, weight in _delta_events(index, block, shape.chunk_chars):
            events.append(("content_block_delta", data, weight))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": index}, 0))
    delta: Body = {"stop_reason": reply.get("stop_reason"), "stop_sequence": None}
    if reply.get("stop_details") is not None:
        delta["stop_details"] = reply["stop_details"]
    events.append(("message_delta", {"type": "message_delta", "delta": delta, "usage": usage}, 0))
    events.append(("message_stop", {"type": "message_stop"}, 0))
    weights = sum(weight for *_, weight in events)
    timed: list[tuple[str, Body, float]] = []
    for position, (name, data, weight) in enumerate(events):
        seconds = 0.0
        if shape.tokens_per_second:
            tokens = output_tokens * weight / weights if weights else 0.0
            seconds = tokens / shape.tokens_per_second
            if position == 0:
                seconds += shape.first_event_seconds
        timed.append((name, data, seconds))
    return timed


@dataclass
class StreamStage:
    """The streams of one server: the shapes the next streamed requests take (in order; a
    plain stream after them), the simulated clock, and what was served."""

    clock: SimulatedClock = field(default_factory=SimulatedClock)
    records: list[StreamRecord] = field(default_factory=list)
    _shapes: list[StreamShape] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def shape(self, *shapes: StreamShape) -> None:
        with self._lock:
            self._shapes = list(shapes)

    def send(self, handler: BaseHTTPRequestHandler, reply: Body, request_id: str) -> None:
        with self._lock:
            shape = self._shapes.pop(0) if self._shapes else StreamShape()
            record = StreamRecord(shape)
            self.records.append(record)
        handler.send_response(200)
        handler.send_header("content-type", "text/event-stream")
        handler.send_header("cache-control", "no-cache")
        handler.send_header("transfer-encoding", "chunked")
        handler.send_header("request-id", request_id)
        # This stand-in closes the connection after every stream, so it says so (RFC 9112,
        # 9.6): a client must not send its retry down a socket the server is closing.
        handler.send_header("connection", "close")
        handler.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client cut it
            self._write(handler, reply, shape, record)
        handler.close_connection = True

    def _write(
        self, handler: BaseHTTPRequestHandler, reply: Body, shape: StreamShape, record: StreamRecord
    ) -> None:
        for sent, (name, data, seconds) in enumerate(stream_events(reply, shape)):
            if sent == shape.cut_after:
                return  # no last chunk: the client sees the body cut
            if sent == shape.end_after:
                break
            if sent == shape.stall_after:
                threading.Event().wait(STALL_HOLD_SECONDS)
                return
            if sent == shape.error_after:
                name, data = (
                    "error",
                    {
                        "type": "error",
                        "error": {"type": "overloaded_error", "message": "Overloaded"},
                    },
                )
            self.clock.advance(seconds)
            record.simulated_seconds += seconds
            _chunk(handler, f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
            record.events_sent += 1
            if name == "error":
                break
            if name == "message_stop":
                record.finished = True
        _chunk(handler, b"")


def _chunk(handler: BaseHTTPRequestHandler, data: bytes) -> None:
    handler.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
    handler.wfile.flush()
