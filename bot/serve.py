"""Long-running processes: the bot (Socket Mode or HTTP) and the workers, until a signal."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import AsyncIterator, Awaitable

from aiohttp import web
from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

from bot.config import Settings
from bot.diagnostics import dump_tasks_on_signal
from bot.jobs import open_runtime
from bot.recovery.in_flight import watch_in_flight
from bot.routines.run import ticking
from bot.slack.app import build_app
from bot.slack.http import http_app, socket_health_app
from bot.worker import build_workers, run_workers
from engine.documents import stop_children

log = logging.getLogger(__name__)


@contextlib.asynccontextmanager
async def _site(application: web.Application, host: str, port: int) -> AsyncIterator[None]:
    runner = web.AppRunner(application)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
        yield
    finally:
        await runner.cleanup()


def _stop_on_signals(stop: asyncio.Event) -> None:
    """SIGINT and SIGTERM set `stop`, and kill at once what reading documents started
    (Tesseract, LibreOffice, the index's parsers), which no cancel reaches in their threads."""
    loop = asyncio.get_running_loop()

    def stopped() -> None:
        stop.set()
        stop_children()

    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stopped)


async def serve_bot(settings: Settings, stop: asyncio.Event | None = None) -> None:
    stop = stop or asyncio.Event()
    _stop_on_signals(stop)
    dump_tasks_on_signal("fonte bot")
    rt = await open_runtime(settings)
    watcher = asyncio.create_task(watch_in_flight(rt))  # reports Redis may lose
    # Routines: workers tick on arq's cron; the embedded bot, which has none, here.
    schedule = asyncio.create_task(ticking(rt)) if settings.embedded else None
    try:
        assert rt.web_client is not None
        if settings.embedded:
            await rt.sources()  # research runs here: open (and index) the source now
        if settings.slack_mode == "http":
            app = build_app(rt, rt.web_client, signing_secret=settings.slack_signing_secret)
            async with _site(http_app(app), settings.http_host, settings.http_port):
                log.info("bot: HTTP on %s:%d", settings.http_host, settings.http_port)
                await stop.wait()
            return
        app = build_app(rt, rt.web_client)
        handler = AsyncSocketModeHandler(app, settings.slack_app_token, web_client=rt.web_client)
        health = socket_health_app(handler)
        try:
            async with _site(health, "0.0.0.0", settings.health_port):
                await handler.connect_async()  # type: ignore[no-untyped-call]
                log.info("bot: connected in Socket Mode")
                await stop.wait()
        finally:
            await handler.close_async()  # type: ignore[no-untyped-call]
    finally:
        for task in (watcher, schedule):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t for t in (watcher, schedule) if t), return_exceptions=True)
        await rt.aclose()


async def serve_workers(settings: Settings, *, burst: bool = False) -> None:
    stop = asyncio.Event()
    _stop_on_signals(stop)  # from the start: opening the source may OCR for minutes
    dump_tasks_on_signal("fonte worker")
    rt = await open_runtime(settings)
    try:
        # Open (and index) the source now, not in the first job; a signal stops that too.
        if await _until_stopped(rt.sources(), stop):
            workers = build_workers(rt, burst=burst)
            await _until_stopped(run_workers(workers, on_stuck=_exit_now), stop)
    finally:
        await rt.aclose()


def _exit_now() -> None:
    """End the worker process at once, its logs flushed: its stuck jobs are left to their
    leases (`bot.worker.STOP_GRACE_SECONDS`), and no cleanup may wait on them."""
    logging.shutdown()
    os._exit(0)


async def _until_stopped(work: Awaitable[object], stop: asyncio.Event) -> bool:
    """Run `work` until it ends (True) or `stop` is set (False: `work` is cancelled)."""
    main = asyncio.ensure_future(work)
    stopping = asyncio.ensure_future(stop.wait())
    await asyncio.wait({main, stopping}, return_when=asyncio.FIRST_COMPLETED)
    stopping.cancel()
    if not main.done():
        main.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await main
    return not stop.is_set()
