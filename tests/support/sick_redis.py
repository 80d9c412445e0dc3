"""A Redis that fails, on loopback: a TCP proxy in front of a real redis-server that can stop
forwarding without closing anything (its traffic black-holed), a fake server that answers
every command with one error reply (`-LOADING …`, `-READONLY …`, as real Redis does:
redis.io/docs/latest/develop/reference/protocol-spec/#simple-errors) or never answers at
all, and a clock the tests move by hand."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from bot.worker import FonteWorker, run_workers

LOADING = "LOADING Redis is loading the dataset in memory"
READONLY = "READONLY You can't write against a read only replica."


@contextlib.asynccontextmanager
async def running(worker: FonteWorker) -> AsyncIterator[FonteWorker]:
    """`worker` run as a task of this loop, cancelled at the end."""
    task = asyncio.create_task(run_workers([worker]))
    try:
        yield worker
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


@dataclass
class LoopbackServer:
    """A TCP server of the test's own on 127.0.0.1, on a port the system picks."""

    port: int = 0
    _server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    async def listen(self) -> None:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        raise NotImplementedError

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._server.wait_closed(), 2)


@dataclass
class HandClock:
    """A monotonic clock that moves only when the test says so."""

    now: float = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class BlackHole(LoopbackServer):
    """A TCP proxy on 127.0.0.1 to `upstream`. While `held`, bytes either way are read and
    dropped, and nothing is closed: to both ends the other just went silent, as when a
    network drops a link's packets. New connections are accepted all the same."""

    upstream: int = 0
    held: bool = False
    _writers: list[asyncio.StreamWriter] = field(default_factory=list)

    async def start(self) -> BlackHole:
        await self.listen()
        return self

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
        except OSError:
            writer.close()
            return
        self._writers += [writer, up_writer]
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while chunk := await reader.read(65536):
                if not self.held:
                    writer.write(chunk)
                    await writer.drain()
        finally:
            writer.close()

    async def stop(self) -> None:
        for writer in self._writers:
            writer.close()
        await self.close()


@dataclass
class FakeRedis(LoopbackServer):
    """Speaks just enough RESP to read each command and answer it with `-{error}`; with
    `error=None` it accepts connections and reads commands but never answers."""

    error: str | None = None
    commands: int = 0

    async def start(self) -> FakeRedis:
        await self.listen()
        return self

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(OSError, asyncio.IncompleteReadError, ValueError):
            while True:
                header = await reader.readuntil(b"\r\n")
                if not header.startswith(b"*"):
                    continue  # an inline command: no reply owed in this stand-in
                for _ in range(int(header[1:-2])):
                    size = int((await reader.readuntil(b"\r\n"))[1:-2])
                    await reader.readexactly(size + 2)
                self.commands += 1
                if self.error is not None:
                    writer.write(f"-{self.error}\r\n".encode())
                    await writer.drain()
        writer.close()

    async def stop(self) -> None:
        await self.close()
