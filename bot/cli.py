"""`fonte bot` and `fonte worker`, registered through the `fonte.commands` entry point.

Every `fonte` command loads this module, so it imports nothing of Slack, arq or Redis until
one of its own commands runs (the engine works without the `slack` extra installed).

fonte bot      [--check]            the Slack app; embedded (no REDIS_URL) or enqueueing
fonte worker   [--burst] [--check]  arq workers (REDIS_URL); scale by running more
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import urllib.error
import urllib.request

from bot.config import configure_logging, load_settings
from engine import FonteError
from engine.cli import EXIT_FAILED, EXIT_OK, error_line, exit_code_for


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bot = commands.add_parser("bot", help="run the Slack bot (Socket Mode by default)")
    bot.add_argument("--check", action="store_true", help="health check of a running bot")
    bot.set_defaults(handler=bot_command)
    worker = commands.add_parser("worker", help="run the bot's arq workers (needs REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="exit once the queues are empty")
    worker.add_argument("--check", action="store_true", help="health check of this host's worker")
    worker.set_defaults(handler=worker_command)


def _fail(error: FonteError) -> int:
    """Bad configuration exits 2 with its line; every error of the family maps the same way."""
    print(error_line(error), file=sys.stderr)
    return exit_code_for(error)


def bot_command(args: argparse.Namespace) -> int:
    from bot.serve import serve_bot
    from bot.sources import library_problem

    try:
        settings = load_settings(role="bot")
        if args.check:
            # The bot runs without its library (it tells each request what to set); the
            # check says so, one line, and fails.
            problem = library_problem(settings)
            if problem is not None:
                print(f"error: {problem}", file=sys.stderr)
                return EXIT_FAILED
            port = settings.http_port if settings.slack_mode == "http" else settings.health_port
            return _http_ok(f"http://127.0.0.1:{port}/healthz")
        configure_logging()
        asyncio.run(serve_bot(settings))
    except FonteError as error:
        return _fail(error)
    return EXIT_OK


def worker_command(args: argparse.Namespace) -> int:
    from bot.jobs import open_runtime
    from bot.serve import serve_workers
    from bot.worker import workers_alive

    try:
        settings = load_settings(role="worker")
        if args.check:

            async def check() -> bool:
                rt = await open_runtime(settings)
                try:
                    return await workers_alive(rt)
                finally:
                    await rt.aclose()

            return EXIT_OK if asyncio.run(check()) else EXIT_FAILED
        configure_logging()
        asyncio.run(serve_workers(settings, burst=args.burst))
    except FonteError as error:
        return _fail(error)
    return EXIT_OK


def _http_ok(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return EXIT_OK if response.status == 200 else EXIT_FAILED
    except (urllib.error.URLError, OSError):
        return EXIT_FAILED
