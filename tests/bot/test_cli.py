"""`fonte bot` / `fonte worker`: registered through the entry point; configuration problems
are one line on stderr and exit code 2, before anything starts."""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from bot.cli import register
from engine.cli import main

ENV = {
    "SLACK_BOT_TOKEN": "xoxb-test",
    "SLACK_APP_TOKEN": "xapp-test",
    "FONTE_LIBRARY": "/tmp",
}


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    for name in ("REDIS_URL", "FONTE_SLACK_MODE", "SLACK_SIGNING_SECRET", "FONTE_SOURCE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    return monkeypatch


def run_cli(args: list[str]) -> int:
    """engine.cli.main runs asyncio.run: keep it off the test's own event loop."""
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(main(args)))
    thread.start()
    thread.join(30)
    assert result, "the command did not finish"
    return result[0]


def test_the_commands_register_on_the_fonte_parser() -> None:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["worker", "--burst"])
    assert args.burst
    assert callable(args.handler)
    assert parser.parse_args(["bot", "--check"]).check


def test_a_missing_token_is_one_clear_line(env: Any, capsys: pytest.CaptureFixture[str]) -> None:
    env.delenv("SLACK_BOT_TOKEN")
    assert run_cli(["bot"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: SLACK_BOT_TOKEN is not set")
    assert "\n" not in err


def test_redis_unavailable_at_start_is_one_clear_line(
    env: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert run_cli(["worker"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: cannot reach Redis at redis://127.0.0.1:1/0 (REDIS_URL)")
    assert "\n" not in err
    assert run_cli(["bot"]) == 2
    assert "cannot reach Redis" in capsys.readouterr().err


def test_health_checks_fail_when_nothing_runs(env: Any) -> None:
    env.setenv("FONTE_HEALTH_PORT", "1")
    assert run_cli(["bot", "--check"]) == 1


async def test_worker_check_sees_a_running_worker(make_settings: Any, runtimes: Any) -> None:
    from bot.worker import workers_alive
    from tests.bot.conftest import running_workers

    rt = await runtimes(make_settings())
    assert not await workers_alive(rt, host="checked-host")
    async with running_workers(rt, host="checked-host"):
        deadline = time.monotonic() + 30  # generous: the workers will start, however slowly
        while time.monotonic() < deadline:
            if await workers_alive(rt, host="checked-host"):
                break
            await asyncio.sleep(0.02)
        assert await workers_alive(rt, host="checked-host")
