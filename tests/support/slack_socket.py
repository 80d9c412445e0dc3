"""The Socket Mode side of the Slack stand-in: the WebSocket that apps.connections.open
hands out (https://docs.slack.dev/apis/events-api/using-socket-mode). It greets with
`hello`, carries envelopes, and waits for the app to acknowledge each by its envelope_id."""

from __future__ import annotations

import asyncio
import json
import uuid
from dataclasses import dataclass
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = "A1"


@dataclass
class Envelope:
    """One Socket Mode delivery and the acknowledgement the app sent back for it."""

    envelope_id: str
    acked: asyncio.Future[dict[str, Any]]


class SocketModeSide:
    """Mixed into SlackStub, which records calls (`_record`) and routes GET /link/ here."""

    def __init__(self) -> None:
        self._sockets: list[web.WebSocketResponse] = []
        self._envelopes: dict[str, Envelope] = {}
        self.socket_connected = asyncio.Event()

    def _note(self, method: str, params: dict[str, Any]) -> None:
        """Record a socket event as a call (SlackStub records it with the Web API calls)."""
        raise NotImplementedError

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        """The URL apps.connections.open handed out: a WebSocket that greets with `hello`,
        then carries envelopes the app must acknowledge with their envelope_id."""
        if "ticket" not in request.query:
            raise web.HTTPUnauthorized()
        socket = web.WebSocketResponse(autoping=True)  # Slack answers pings with pongs
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_json(
            {
                "type": "hello",
                "num_connections": len(self._sockets),
                "debug_info": {"host": "stub", "approximate_connection_time": 18060},
                "connection_info": {"app_id": APP_ID},
            }
        )
        self._note("socket.hello", {})
        self.socket_connected.set()
        try:
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                ack = json.loads(message.data)
                envelope = self._envelopes.get(str(ack.get("envelope_id")))
                self._note("socket.ack", ack)
                if envelope is not None and not envelope.acked.done():
                    envelope.acked.set_result(ack)
        finally:
            self._sockets.remove(socket)
            if not self._sockets:
                self.socket_connected.clear()
        return socket

    async def drop_sockets(self) -> None:
        """Slack closes the connection (a refresh, a deploy on its side)."""
        for socket in list(self._sockets):
            await socket.close()

    async def envelope(
        self, kind: str, payload: dict[str, Any], within: float = 10.0
    ) -> dict[str, Any]:
        """Send one envelope to the connected app and return its acknowledgement. Slack
        expects the ack within 3 seconds, else it retries the delivery; `within` is
        longer, so a slow machine does not fail a test that only checks the ack came."""
        if not self._sockets:
            raise AssertionError("no Socket Mode connection is open")
        envelope_id = str(uuid.uuid4())
        envelope = Envelope(envelope_id, asyncio.get_running_loop().create_future())
        self._envelopes[envelope_id] = envelope
        frame = {
            "envelope_id": envelope_id,
            "type": kind,
            "payload": payload,
            "accepts_response_payload": kind != "events_api",
        }
        if kind == "events_api":
            frame.update({"retry_attempt": 0, "retry_reason": ""})
        await self._sockets[-1].send_json(frame)
        return await asyncio.wait_for(envelope.acked, within)
