"""A real HTTP/1.1 server on 127.0.0.2, scripted per path, and a fetcher allowed to reach it.

Only 127.0.0.2/32 is allowlisted, so a redirect to 127.0.0.1 (or `localhost`) is refused
although the test server itself is reachable. The server counts requests and how many run at
the same time, so politeness is measured where it matters: on the server side.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from http import HTTPStatus

import pytest

from engine.sources.web.address_policy import Allowlist
from engine.sources.web.config import FetchConfig
from engine.sources.web.fetcher import WebFetcher

HOST = "127.0.0.2"


@dataclass(frozen=True)
class Request:
    path: str
    headers: dict[str, str]
    at: float


Handler = Callable[[Request, asyncio.StreamWriter], Awaitable[None]]


async def respond(
    writer: asyncio.StreamWriter,
    body: bytes = b"",
    *,
    status: int = 200,
    content_type: str | None = "text/html; charset=utf-8",
    headers: dict[str, str] | None = None,
) -> None:
    lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}"]
    if content_type is not None:
        lines.append(f"Content-Type: {content_type}")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    lines += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
    writer.write("\r\n".join(lines).encode("latin-1") + body)
    await writer.drain()


def page(
    body: bytes | str,
    content_type: str | None = "text/html; charset=utf-8",
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Handler:
    data = body.encode("utf-8") if isinstance(body, str) else body

    async def handler(request: Request, writer: asyncio.StreamWriter) -> None:
        await respond(writer, data, status=status, content_type=content_type, headers=headers)

    return handler


def redirect(location: str, status: int = 302) -> Handler:
    return page(b"", None, status=status, headers={"Location": location})


def streamed(chunks: Iterable[bytes], content_type: str = "text/plain") -> Handler:
    """A body without Content-Length, written chunk by chunk while the client reads."""

    async def handler(request: Request, writer: asyncio.StreamWriter) -> None:
        head = f"HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nConnection: close\r\n\r\n"
        writer.write(head.encode("latin-1"))
        for chunk in chunks:
            writer.write(chunk)
            await writer.drain()

    return handler


def slow(handler: Handler, seconds: float) -> Handler:
    async def delayed(request: Request, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(seconds)
        await handler(request, writer)

    return delayed


class PageServer:
    def __init__(self) -> None:
        self.clock: Callable[[], float] = time.monotonic
        """Stamps each request's `at`: a test's fake clock when the fetcher runs on one."""
        self.routes: dict[str, Handler] = {}
        self.requests: list[Request] = []
        self.active = 0
        self.max_active = 0
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    def url(self, path: str, host: str = HOST) -> str:
        return f"http://{host}:{self.port}{path}"

    def paths(self) -> list[str]:
        return [r.path for r in self.requests]

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, HOST, 0)

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            request_line, *header_lines = head.decode("latin-1").split("\r\n")
            headers = {}
            for line in header_lines:
                name, _, value = line.partition(":")
                if name:
                    headers[name.strip().lower()] = value.strip()
            path = request_line.split(" ")[1]
            request = Request(path, headers, self.clock())
            self.requests.append(request)
            await self.routes.get(path.split("?")[0], page(b"not found", status=404))(
                request, writer
            )
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.active -= 1
            self._tasks.discard(task)
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()


def web_config(**overrides: object) -> FetchConfig:
    """Limits small enough for tests; only the test server's address is allowlisted."""
    settings: dict[str, object] = {
        "allowlist": Allowlist.parse(f"{HOST}/32"),
        "timeout": 5.0,
        "connect_timeout": 1.0,
        "read_timeout": 2.0,
        "delay": 0.0,
    }
    settings.update(overrides)
    return FetchConfig(**settings)  # type: ignore[arg-type]


@pytest.fixture
async def page_server() -> AsyncIterator[PageServer]:
    server = PageServer()
    await server.start()
    yield server
    await server.stop()


@pytest.fixture
async def web_fetcher() -> AsyncIterator[WebFetcher]:
    async with WebFetcher(web_config()) as fetcher:
        yield fetcher
