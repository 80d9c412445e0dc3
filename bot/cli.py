"""`fonte bot` and `fonte worker`, registered through the `fonte.commands` entry point.

Every `fonte` command loads this module, so it imports nothing of Slack, arq or Redis, nor
the settings (built on the engine's models), until one of its own commands runs (the engine
works without the `slack` extra installed, and `fonte --help` builds no model).

fonte bot      [--check]            the Slack app; embedded (no REDIS_URL) or enqueueing
fonte worker   [--burst] [--check]  arq workers (REDIS_URL); scale by running more
fonte bot ratings [--since DAYS]    the kept ratings as JSON lines (REDIS_URL)
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
import urllib.error
import urllib.request

from engine import FonteError
from engine.cli import EXIT_FAILED, EXIT_OK, error_line, exit_code_for


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    bot = commands.add_parser("bot", help="run the Slack bot (Socket Mode by default)")
    bot.add_argument("--check", action="store_true", help="health check of a running bot")
    bot.set_defaults(handler=bot_command)
    under_bot = bot.add_subparsers(dest="bot_command", metavar="{ratings}")
    ratings = under_bot.add_parser("ratings", help="print the kept ratings as JSON lines")
    ratings.add_argument(
        "--since", type=float, default=30.0, metavar="DAYS", help="the last DAYS days (30)"
    )
    ratings.set_defaults(handler=ratings_command)
    worker = commands.add_parser("worker", help="run the bot's arq workers (needs REDIS_URL)")
    worker.add_argument("--burst", action="store_true", help="exit once the queues are empty")
    worker.add_argument("--check", action="store_true", help="health check of this host's worker")
    worker.set_defaults(handler=worker_command)


def _fail(error: FonteError) -> int:
    """Bad configuration exits 2 with its line; every error of the family maps the same way."""
    print(error_line(error), file=sys.stderr)
    return exit_code_for(error)


def bot_command(args: argparse.Namespace) -> int:
    from bot.config import configure_logging, load_settings
    from bot.serve import serve_bot
    from bot.sources import configured_library_problem

    try:
        settings = load_settings(role="bot")
        if args.check:
            # The bot runs without its library (it tells each request what to set); the
            # check says so, one line, and fails.
            problem = configured_library_problem(settings)
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


def ratings_command(args: argparse.Namespace) -> int:
    """The ratings kept in Redis (FONTE_RATINGS_DAYS), oldest first, one JSON object a
    line: what the team reads the bot's reception from."""
    import os
    from datetime import timedelta

    from bot.config import days_setting
    from bot.redis.connection import connect
    from bot.redis.keys import DEFAULT_PREFIX, Keys
    from bot.redis.ratings import RedisRatings
    from engine import BadInput, env_text, utc_now

    async def listed(url: str, prefix: str, ttl: int) -> list[str]:
        redis = await connect(url)
        try:
            since = utc_now() - timedelta(days=args.since)
            ratings = await RedisRatings(redis, Keys(prefix), ttl).since(since)
            return [rating.model_dump_json() for rating in ratings]
        finally:
            await redis.aclose(close_connection_pool=True)

    try:
        url = env_text(os.environ, "REDIS_URL")
        if url is None:
            raise BadInput(
                "REDIS_URL is not set: ratings are kept in Redis (the embedded bot keeps "
                "them in its memory only)"
            )
        prefix = env_text(os.environ, "FONTE_REDIS_PREFIX") or DEFAULT_PREFIX
        ttl = days_setting(os.environ, "FONTE_RATINGS_DAYS", 365)
        for line in asyncio.run(listed(url, prefix, ttl)):
            print(line)
    except FonteError as error:
        return _fail(error)
    return EXIT_OK


def worker_command(args: argparse.Namespace) -> int:
    from bot.config import configure_logging, load_settings
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
        # Ending now: the full collection of a worker's heap at exit took 7 s after SIGTERM.
        gc.freeze()
    except FonteError as error:
        return _fail(error)
    return EXIT_OK


def _http_ok(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return EXIT_OK if response.status == 200 else EXIT_FAILED
    except (urllib.error.URLError, OSError):
        return EXIT_FAILED
