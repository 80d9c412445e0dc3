"""What the bot's benchmarks share: a Slack Web API stand-in on loopback, `fonte worker`
processes started with the benchmark's environment, waiting until what they do shows, and a
clean-up of the benchmark's keys. Traffic goes to 127.0.0.1 only."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import web

from bot.config import Settings
from bot.diagnostics import HEADING
from bot.redis.connection import connect
from engine import Limits
from engine.planning import LimitOverrides

DEFAULT_LIBRARY = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "br-laws" / "docs"
WORKER_COMMAND = "import sys; from engine.cli import main; sys.exit(main(['worker']))"


@dataclass
class SlackCalls:
    """What the stand-in was asked: (method, form or JSON fields) in order."""

    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def of(self, method: str) -> list[dict[str, Any]]:
        return [fields for name, fields in self.calls if name == method]


@contextlib.asynccontextmanager
async def slack_stand_in(
    calls: SlackCalls | None = None,
) -> AsyncIterator[str]:
    """Answers every Web API method with ok (and a fresh ts); uploads are accepted. Records
    each call in `calls` when given. conversations.replies lists what the app posted in the
    thread, with each message's metadata when include_all_metadata is set (as Slack does:
    docs.slack.dev/reference/methods/conversations.replies), so a delivery run again after a
    crash can find the page it posted."""
    numbers = itertools.count(1)
    base = ""
    threads: dict[tuple[str, str], list[dict[str, Any]]] = {}

    async def api(request: web.Request) -> web.Response:
        # slack_sdk sends some methods' arguments in the query string, others in the body.
        fields: dict[str, Any] = dict(request.query)
        if request.content_type == "application/json":
            fields.update(await request.json())
        else:
            fields.update(await request.post())
        n = next(numbers)
        method = request.match_info["method"]
        if calls is not None:
            calls.calls.append((method, fields))
        body: dict[str, object] = {"ok": True, "ts": f"{1_700_000_000 + n}.0001", "user_id": "UB"}
        if method == "files.getUploadURLExternal":
            body.update(upload_url=f"{base}/upload/F{n}", file_id=f"F{n}")
        if method == "files.completeUploadExternal":
            body["files"] = [{"id": f"F{n}"}]
        where = (str(fields.get("channel")), str(fields.get("thread_ts") or fields.get("ts")))
        if method == "chat.postMessage" and fields.get("thread_ts"):
            metadata = fields.get("metadata")
            if isinstance(metadata, str):
                metadata = json.loads(metadata)
            threads.setdefault(where, []).append({"ts": body["ts"], "metadata": metadata})
        if method == "conversations.replies":
            with_metadata = str(fields.get("include_all_metadata")).lower() in ("true", "1")
            body["messages"] = [{"ts": where[1]}] + [
                {"ts": m["ts"], **({"metadata": m["metadata"]} if with_metadata else {})}
                for m in threads.get(where, [])
            ]
        return web.json_response(body)

    async def upload(request: web.Request) -> web.Response:
        await request.read()
        return web.Response(text="OK")

    app = web.Application()
    app.router.add_post("/api/{method}", api)
    app.router.add_post("/upload/{file}", upload)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = f"http://127.0.0.1:{port}"
    try:
        yield f"{base}/api/"
    finally:
        await runner.cleanup()


def worker_environment(
    api_url: str, redis_url: str, prefix: str, library: Path, **extra: str
) -> dict[str, str]:
    return {
        **os.environ,
        "SLACK_BOT_TOKEN": "xoxb-bench",
        "SLACK_API_URL": api_url,
        "REDIS_URL": redis_url,
        "FONTE_REDIS_PREFIX": prefix,
        "FONTE_LIBRARY": str(library),
        "FONTE_POLL_SECONDS": "0.05",
        "FONTE_PROGRESS_SECONDS": "3",
        "FONTE_REPORTS_PER_WORKER": "32",
        "FONTE_TASKS_PER_WORKER": "64",
        **extra,
    }


def bench_settings(
    api_url: str, redis_url: str, prefix: str, library: Path, limits: Limits
) -> Settings:
    """The embedded bot's settings for the same stand-in, Redis keys and library as the
    workers of `worker_environment`."""
    return Settings(
        slack_bot_token="xoxb-bench",
        slack_api_url=api_url,
        redis_url=redis_url,
        redis_prefix=prefix,
        library=library,
        overrides=LimitOverrides(steps=limits.steps, seconds=limits.seconds, usd=limits.usd),
        poll_interval=0.05,
    )


def start_worker(env: dict[str, str], log: Path | None = None) -> subprocess.Popen[bytes]:
    """One `fonte worker` process; its log goes to `log` (appended) when given."""
    output = open(log, "ab") if log is not None else None  # noqa: SIM115 - the child owns it
    try:
        return subprocess.Popen([sys.executable, "-c", WORKER_COMMAND], env=env, stderr=output)
    finally:
        if output is not None:
            output.close()


def start_workers(env: dict[str, str], count: int) -> list[subprocess.Popen[bytes]]:
    return [start_worker(env) for _ in range(count)]


def stop_workers(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        if process.poll() is None:
            process.terminate()  # SIGTERM: a worker stops its jobs and closes its connections
    for process in processes:
        process.wait(timeout=30)


async def tasks_of(processes: list[subprocess.Popen[bytes]], logs: list[Path]) -> str:
    """What each live worker is waiting on: its tasks dumped on SIGUSR2
    (`bot.diagnostics`), read back from the end of its log once there (10 s at most); for a
    failure's message."""
    before = [_log_text(log).count(HEADING) for log in logs]
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGUSR2)

    async def written() -> bool:
        return all(_log_text(log).count(HEADING) > n for log, n in zip(logs, before, strict=True))

    with contextlib.suppress(AssertionError):  # a worker that wrote none: say so below
        await until(written, 10.0, "every worker's task dump")
    dumps = []
    for log in logs:
        text = _log_text(log)
        at = text.rfind(HEADING)
        dumps.append(f"{log.name}: " + (text[at:] if at >= 0 else "no task dump"))
    return "\n".join(dumps)


def _log_text(log: Path) -> str:
    return log.read_text(errors="replace") if log.exists() else ""


def _never(error: Exception) -> bool:
    return False


async def until(
    check: Callable[[], Awaitable[bool]],
    within: float,
    what: str,
    *,
    not_yet: Callable[[Exception], bool] = _never,
) -> None:
    """Until `check` holds, asked every 0.1 s; AssertionError naming `what` past `within`
    seconds. An error `not_yet` accepts (Redis down, in the restart bench) counts as "not
    yet"; any other is raised."""
    deadline = time.monotonic() + within
    while True:
        try:
            if await check():
                return
        except Exception as error:
            if not not_yet(error):
                raise
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened within {within} s: {what}")
        await asyncio.sleep(0.1)


async def clean(redis_url: str, prefix: str) -> None:
    """Delete every key of the benchmark's prefix, arq's job keys included."""
    client = await connect(redis_url)
    try:
        for pattern in (f"{prefix}*", f"arq:*{prefix}*"):
            keys = [key async for key in client.scan_iter(match=pattern, count=1000)]
            if keys:
                await client.delete(*keys)
    finally:
        await client.aclose(close_connection_pool=True)
