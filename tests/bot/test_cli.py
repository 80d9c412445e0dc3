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
from tests.support.slack_stub import SlackStub

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
    env.setenv("FONTE_REDIS_TIMEOUT", "0.3")  # refused is asked again until then
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
    from tests.support.bot_env import running_workers

    rt = await runtimes(make_settings())
    assert not await workers_alive(rt, host="checked-host")
    async with running_workers(rt, host="checked-host"):
        deadline = time.monotonic() + 30  # generous: the workers will start, however slowly
        while time.monotonic() < deadline:
            if await workers_alive(rt, host="checked-host"):
                break
            await asyncio.sleep(0.02)
        assert await workers_alive(rt, host="checked-host")


@pytest.mark.parametrize("where", ["missing", "empty"])
def test_the_check_reports_a_missing_or_empty_library(
    where: str, env: Any, tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "library"
    if where == "empty":
        folder.mkdir()
        (folder / "notes.csv").write_text("not a document")
    env.setenv("FONTE_LIBRARY", str(folder))
    env.setenv("FONTE_HEALTH_PORT", "1")
    assert run_cli(["bot", "--check"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: FONTE_LIBRARY={folder}: ")
    assert "\n" not in err


async def test_the_bot_starts_with_an_empty_library_and_says_what_to_set(
    make_settings: Any, tmp_path: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    from bot.slack.texts import EN, PT

    empty = tmp_path / "empty-library"
    empty.mkdir()
    rt = await runtimes(make_settings(redis=False, library=empty))
    await rt.sources()  # as `fonte bot` does at start: it no longer refuses to start
    assert rt.source_problem is not None
    assert "no readable document" in rt.source_problem
    sender = await bolt_http(rt)
    for ts, question in (("3.1", "Qual é o limite da microgeração?"), ("3.2", "What is the cap?")):
        event = {"type": "app_mention", "channel": "C7", "user": "U1", "ts": ts}
        await sender.event({**event, "text": f"<@UBOT> {question}"})
    said = await slack.wait_for(
        lambda: len(slack.calls_to("chat.postMessage")) >= 2 and slack.calls_to("chat.postMessage"),
        what="the line that says what to set",
    )
    # Each mention is its own job: the two lines may come in either order.
    assert sorted((c.params["thread_ts"], c.params["text"]) for c in said) == [
        ("3.1", PT.no_library),
        ("3.2", EN.no_library),
    ]
    assert "FONTE_LIBRARY" in PT.no_library
    assert "FONTE_LIBRARY" in EN.no_library
    assert not rt.states._threads  # no research started
    response = await sender.command("U1", "C7", "mercado energia solar")
    assert response.status_code == 200


async def test_workers_start_with_a_missing_library_and_the_bot_refuses_requests(
    make_settings: Any, tmp_path: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    from bot.slack.texts import PT

    settings = make_settings(library=tmp_path / "absent")
    worker = await runtimes(settings)
    sources = await worker.sources()  # `fonte worker` opens its source at start
    assert sources.labels == ()
    assert worker.source_problem is not None
    bot = await runtimes(settings)
    sender = await bolt_http(bot)
    event = {"type": "app_mention", "channel": "C7", "user": "U1", "ts": "4.1"}
    await sender.event({**event, "text": "<@UBOT> Qual é o limite da microgeração?"})
    said = await slack.wait_for(lambda: slack.calls_to("chat.postMessage"), what="reply")
    assert said[0].params["text"] == PT.no_library
