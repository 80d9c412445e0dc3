"""The bot's HTTP surfaces: Bolt's aiohttp application for HTTP mode (signature checked on
every request) and /healthz, which in Socket Mode follows the live WebSocket to Slack."""

from __future__ import annotations

from typing import Any, Protocol

from aiohttp import web
from slack_bolt.async_app import AsyncApp


def http_app(app: AsyncApp, path: str = "/slack/events") -> web.Application:
    """Bolt's aiohttp application (signature checked on every request), plus /healthz."""
    application = app.web_app(path=path)
    application.router.add_get("/healthz", healthz)
    return application


async def healthz(request: web.Request) -> web.Response:
    return web.Response(text="ok")


class _Connection(Protocol):
    async def is_connected(self) -> bool: ...


class _SocketHandler(Protocol):
    @property
    def client(self) -> Any: ...


def socket_health_app(handler: _SocketHandler) -> web.Application:
    """/healthz of a Socket Mode bot: 200 while its WebSocket to Slack is up (slack_sdk's own
    test: open, not stale, ping-pong answered), 503 otherwise, so an orchestrator restarts
    a bot that lost Slack instead of trusting a process that is merely alive."""

    async def live(request: web.Request) -> web.Response:
        connection: _Connection = handler.client
        if await connection.is_connected():
            return web.Response(text="ok")
        return web.Response(status=503, text="not connected to Slack")

    application = web.Application()
    application.router.add_get("/healthz", live)
    return application
