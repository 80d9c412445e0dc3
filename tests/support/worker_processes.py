"""Real `fonte worker` processes for a test: their environment on the Slack stand-in and the
tests' Redis, and their end (killed, waited for) whatever the test did."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

from tests.support.bot_env import BOT_TOKEN, REDIS_URL

ROOT = Path(__file__).resolve().parents[2]


def worker_env(
    api_url: str, redis_prefix: str, library: Path, cache: Path, **extra: str
) -> dict[str, str]:
    """The environment of a worker on the stand-in at `api_url`, researching `library`
    offline, its caches in `cache` (shared with the test's runtime), `extra` added."""
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "SLACK_BOT_TOKEN": BOT_TOKEN,
        "SLACK_API_URL": api_url,
        "REDIS_URL": REDIS_URL,
        "FONTE_REDIS_PREFIX": redis_prefix,
        "FONTE_LIBRARY": str(library),
        "FONTE_CACHE_DIR": str(cache),
        "FONTE_MODEL": "offline",
        "FONTE_POLL_SECONDS": "0.05",
        "FONTE_PROGRESS_SECONDS": "0.5",
        **extra,
    }


@contextlib.contextmanager
def killed_at_the_end() -> Iterator[list[subprocess.Popen[bytes]]]:
    """A list the test adds its processes to; each is killed and waited for at the end."""
    processes: list[subprocess.Popen[bytes]] = []
    try:
        yield processes
    finally:
        for alive in [process for process in processes if process.poll() is None]:
            alive.kill()
        for process in processes:
            process.wait(timeout=30)
