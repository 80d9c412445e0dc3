"""Routines through the Slack stand-in, on the embedded bot over HTTP: made from a delivered
report's Watch button and by `/research watch`, listed by `/research routines`, changed only
by their requester or an admin, run by the schedule on a moved clock (a changed source posts
one message with the changes and the updated files, an unchanged one posts nothing), paused
after three failures and stopped by the channel's monthly cap, each told once, and removed
with the channel's data."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Awaitable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.routines import run as run_module
from bot.routines.run import tick
from bot.runtime import Runtime
from bot.slack.blockkit import value
from bot.slack.blocks import ROUTINE, WATCH
from tests.support.bot_env import SignedSlack
from tests.support.clock import FakeClock
from tests.support.slack_runs import CHANNEL, QUESTION, USER, finished_report, settle
from tests.support.slack_stub import Call, SlackStub

THREAD = "500.1"


class Moved:
    """The runtime's clock, moved by the test."""

    def __init__(self) -> None:
        self.at = datetime(2026, 12, 10, 12, 0, tzinfo=UTC)  # a Thursday, mid-month

    def __call__(self) -> datetime:
        return self.at

    def days(self, days: float) -> datetime:
        self.at += timedelta(days=days)
        return self.at


@pytest.fixture
def clock(rt: Runtime) -> Moved:
    moved = Moved()
    rt.now = moved
    return moved


async def answered(rt: Runtime, slack: SlackStub, sent: Awaitable[object]) -> None:
    """A request sent to the Bolt app, acknowledged (its listener hands its step on after
    the acknowledgement), run, and answered in Slack."""

    def said() -> int:  # Bolt's own auth.test is not an answer
        return len([call for call in slack.calls if call.method != "auth.test"])

    before = said()
    await sent
    await slack.wait_for(lambda: said() > before, what="the bot's answer")
    await settle(rt)


def whispers(slack: SlackStub, user: str = USER) -> list[Call]:
    return [c for c in slack.calls_to("chat.postEphemeral") if c.params["user"] == user]


def run_messages(slack: SlackStub) -> list[Call]:
    """The messages routine runs posted (their metadata says so)."""
    found = []
    for call in slack.calls_to("chat.postMessage"):
        metadata = call.params.get("metadata")
        if isinstance(metadata, str):
            metadata = json.loads(metadata)
        if isinstance(metadata, dict) and metadata.get("event_type") == run_module.ROUTINE_EVENT:
            found.append(call)
    return found


def buttons(call: Call) -> dict[str, str]:
    """Each button of a message: its text → its value."""
    return {
        element["text"]["text"]: element["value"]
        for block in call.blocks()
        if block["type"] == "actions"
        for element in block["elements"]
        if element["type"] == "button"
    }


async def watched(rt: Runtime, http: SignedSlack, slack: SlackStub, frequency: str) -> str:
    """A delivered report, watched by its requester with its Watch button: the routine id."""
    state = await finished_report(rt, THREAD)
    await answered(rt, slack, http.action(USER, CHANNEL, WATCH, value(r=state.report_id)))
    asked = whispers(slack)[-1]
    label = {"daily": "diária", "weekly": "semanal", "monthly": "mensal"}[frequency]
    await answered(rt, slack, http.action(USER, CHANNEL, WATCH, buttons(asked)[label]))
    return state.report_id


async def test_the_watch_button_of_a_delivered_report_makes_a_routine_listed_with_its_next_run(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved
) -> None:
    rt, http = embedded_http
    state = await finished_report(rt, THREAD)
    [report_message] = [
        c for c in slack.calls_to("chat.postMessage") if WATCH in json.dumps(c.blocks())
    ]
    assert json.loads(buttons(report_message)["👁 Acompanhar"]) == {"r": state.report_id}

    await answered(rt, slack, http.action(USER, CHANNEL, WATCH, value(r=state.report_id)))
    asked = whispers(slack)[-1]
    assert set(buttons(asked)) == {"diária", "semanal", "mensal"}
    assert await rt.routines.get(state.report_id) is None  # nothing until a frequency

    await answered(rt, slack, http.action(USER, CHANNEL, WATCH, buttons(asked)["semanal"]))
    routine = await rt.routines.get(state.report_id)
    assert routine is not None
    assert (routine.frequency, routine.requester, routine.thread_ts) == ("weekly", USER, THREAD)
    assert routine.last is not None
    assert routine.last.result == "first"
    assert "semanal" in whispers(slack)[-1].params["text"]
    # Its first run, kept with it: the report's own retention (30 days) is shorter.
    baseline = await rt.routines.baseline(state.report_id)
    assert baseline == await rt.states.load_report(state.report_id, 1)

    await answered(
        rt, slack, http.action(USER, CHANNEL, WATCH, value(r=state.report_id, f="daily"))
    )
    assert "Já acompanho" in whispers(slack)[-1].params["text"]  # one routine per report

    await answered(rt, slack, http.command(USER, CHANNEL, "rotinas"))
    listing = whispers(slack)[-1]
    text = listing.text_of_blocks()
    assert QUESTION in text
    assert "semanal" in text
    assert f"próxima: {routine.next_run:%Y-%m-%d}" in text
    assert "o relatório de origem" in text
    assert {"Pausar", "diária", "mensal", "Apagar"} <= set(buttons(listing))


async def test_research_watch_makes_a_routine_of_the_report_it_starts(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved
) -> None:
    rt, http = embedded_http
    await answered(rt, slack, http.command(USER, CHANNEL, f"watch daily {QUESTION}"))

    [routine] = await rt.routines.of_channel(CHANNEL)
    asked = slack.calls_to("chat.postMessage")[0]  # the thread the command opens
    assert QUESTION in asked.params["text"]
    assert "thread_ts" not in asked.params
    assert (routine.frequency, routine.question, routine.requester) == ("daily", QUESTION, USER)
    in_thread = {c.params.get("thread_ts") for c in slack.calls_to("chat.postMessage")[1:]}
    assert in_thread == {routine.thread_ts}  # the report's plan, then its runs, post there
    state = await rt.states.get(routine.report_id)
    assert state is not None
    assert state.thread_ts == routine.thread_ts

    refused = await http.command(USER, CHANNEL, "acompanhar horária limites")
    assert "acompanhar diária|semanal|mensal PERGUNTA" in refused.json()["text"]
    assert len(await rt.routines.of_channel(CHANNEL)) == 1


@pytest.mark.parametrize("action", ["pause", "delete", "monthly"])
async def test_someone_else_cannot_change_a_routine_but_an_admin_can(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved, action: str
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "weekly")
    before = await rt.routines.get(routine_id)
    slack.users.add("U2")
    slack.users.add("U3", admin=True)

    await answered(rt, slack, http.action("U2", CHANNEL, ROUTINE, value(i=routine_id, a=action)))
    assert await rt.routines.get(routine_id) == before
    assert "Só quem criou esta rotina" in whispers(slack, "U2")[-1].params["text"]

    await answered(rt, slack, http.action("U3", CHANNEL, ROUTINE, value(i=routine_id, a=action)))
    after = await rt.routines.get(routine_id)
    if action == "delete":
        assert after is None
    else:
        assert after is not None
        assert after.paused if action == "pause" else after.frequency == "monthly"
    assert "<@U3>" in whispers(slack, "U3")[-1].params["text"]


async def test_the_requester_pauses_resumes_and_deletes(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "daily")
    await answered(rt, slack, http.action(USER, CHANNEL, ROUTINE, value(i=routine_id, a="pause")))
    assert await tick(rt, clock.days(3)) == []  # a paused routine does not run
    await answered(rt, slack, http.action(USER, CHANNEL, ROUTINE, value(i=routine_id, a="resume")))
    assert [r for r, _ in await tick(rt, clock.days(1))] == [routine_id]
    await settle(rt)
    await answered(rt, slack, http.action(USER, CHANNEL, ROUTINE, value(i=routine_id, a="delete")))
    assert await rt.routines.get(routine_id) is None
    assert await rt.routines.history(routine_id) == []


async def test_an_unchanged_run_posts_nothing_and_a_changed_source_posts_one_message(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved, library: Path
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "weekly")
    posted = len(slack.calls_to("chat.postMessage"))

    await tick(rt, clock.days(7))
    await settle(rt)
    assert len(slack.calls_to("chat.postMessage")) == posted  # no change: nothing posted
    [unchanged, first] = await rt.routines.history(routine_id)
    assert (unchanged.result, first.result) == ("no_change", "first")

    law = library / "lei-14300.md"
    law.write_text(law.read_text().replace("75 kW", "100 kW"), encoding="utf-8")
    await tick(rt, clock.days(7))
    await settle(rt)
    await tick(rt, clock.days(1))  # the same week again: nothing more
    await settle(rt)

    [message] = run_messages(slack)
    assert message.params["thread_ts"] == THREAD
    text = message.text_of_blocks()
    assert "O que mudou desde" in text
    assert "100 kW" in text
    assert "75 kW" in text
    assert "[1] lei-14300.md" in text  # cited by the file's name, not its path here
    assert "/tmp" not in text
    assert str(library) not in text
    [changed, *_] = await rt.routines.history(routine_id)
    assert changed.result == "changed"
    assert changed.changes >= 2
    [*_, files] = slack.calls_to("files.completeUploadExternal")
    assert files.params["thread_ts"] == THREAD
    assert "Arquivos atualizados" in str(files.params.get("initial_comment"))
    assert len(await rt.routines.history(routine_id)) == 3


async def test_three_failed_runs_in_a_row_pause_the_routine_and_tell_its_requester_once(
    embedded_http: tuple[Runtime, SignedSlack],
    slack: SlackStub,
    clock: Moved,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "daily")

    async def broken(*args: Any) -> Any:
        raise RuntimeError("the library went away")

    monkeypatch.setattr(run_module, "_research", broken)
    for _ in range(4):
        await tick(rt, clock.days(1))
        await settle(rt)

    routine = await rt.routines.get(routine_id)
    assert routine is not None
    assert routine.paused
    assert routine.failures == 3
    results = [run.result for run in await rt.routines.history(routine_id)]
    assert results == ["failed", "failed", "failed", "first"]  # the fourth day did not run
    told = [
        c for c in slack.calls_to("chat.postMessage") if "falhou três vezes" in c.params["text"]
    ]
    assert len(told) == 1
    assert told[0].params["thread_ts"] == THREAD


async def test_the_channels_monthly_cap_stops_a_run_and_is_told_once_a_month(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, routine_monthly_usd=0.5))  # a run: US$ 1
    clock = Moved()
    rt.now = clock
    http = await bolt_http(rt)
    routine_id = await watched(rt, http, slack, "daily")
    searched = len(slack.calls)

    for _ in range(2):
        await tick(rt, clock.days(1))
        await settle(rt)

    results = [run.result for run in await rt.routines.history(routine_id)]
    assert results[:2] == ["over_cap", "over_cap"]
    told = [c for c in slack.calls_to("chat.postMessage") if "limite do mês" in c.params["text"]]
    assert len(told) == 1
    assert len(slack.calls) - searched == len(told)  # nothing else reached Slack


async def test_a_deleted_channel_takes_its_routines_with_it(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "weekly")
    await http.event({"type": "channel_deleted", "channel": CHANNEL})
    for _ in range(200):
        if await rt.routines.get(routine_id) is None:
            break
        await asyncio.sleep(0.05)
    assert await rt.routines.get(routine_id) is None
    assert await rt.routines.of_channel(CHANNEL) == []


async def test_the_embedded_bot_ticks_on_its_own_clock_and_survives_a_failed_tick(
    embedded_http: tuple[Runtime, SignedSlack],
    slack: SlackStub,
    clock: Moved,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "daily")
    waits = FakeClock()
    calls = 0
    real_tick = run_module.tick

    async def flaky(rt: Runtime, now: datetime) -> list[tuple[str, str]]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise RuntimeError("Redis blinked")
        return await real_tick(rt, now)

    monkeypatch.setattr(run_module, "tick", flaky)
    schedule = asyncio.create_task(run_module.ticking(rt, every=60, sleep=waits.sleep))
    try:
        await waits.until_sleeping(1)  # the first tick failed, and it waits for the next
        clock.days(1)
        waits.advance(60)
        await waits.until_sleeping(1)
        await settle(rt)
    finally:
        schedule.cancel()
        await asyncio.gather(schedule, return_exceptions=True)
    assert waits.sleeps == [60, 60]
    [run, _] = await rt.routines.history(routine_id)
    assert run.period == f"{clock.at:%Y-%m-%d}"


async def test_a_run_that_broke_after_posting_is_finished_without_posting_again(
    embedded_http: tuple[Runtime, SignedSlack],
    slack: SlackStub,
    clock: Moved,
    library: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The message reached the thread, then the run died before recording it (its task
    cancelled, as a worker's jobs are when it stops): the next tick runs the period again,
    which finds its message in the thread by its metadata."""
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "daily")
    law = library / "lei-14300.md"
    law.write_text(law.read_text().replace("75 kW", "100 kW"), encoding="utf-8")
    real_mark = run_module._mark
    broke = False

    async def dies_once_posted(rt: Runtime, routine: Any, **fields: object) -> None:
        nonlocal broke
        if "posted" in fields and not broke:
            broke = True
            raise asyncio.CancelledError  # the worker died here (its task cancelled)
        await real_mark(rt, routine, **fields)

    monkeypatch.setattr(run_module, "_mark", dies_once_posted)
    day = clock.days(1)
    await tick(rt, day)
    with contextlib.suppress(asyncio.CancelledError):  # the embedded queue sees it die
        await settle(rt)
    routine = await rt.routines.get(routine_id)
    assert routine is not None
    assert routine.posting == routine.period != routine.done  # posted, not recorded
    assert len(run_messages(slack)) == 1

    await tick(rt, day + timedelta(hours=1))
    await settle(rt)
    assert len(run_messages(slack)) == 1  # found in the thread, not posted again
    routine = await rt.routines.get(routine_id)
    assert routine is not None
    assert routine.done == routine.period == routine.posted
    assert [r.result for r in await rt.routines.history(routine_id)] == ["changed", "first"]


async def test_the_listing_speaks_the_language_of_the_command(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub, clock: Moved
) -> None:
    rt, http = embedded_http
    await answered(rt, slack, http.command(USER, CHANNEL, "routines"))
    assert "No routines in this channel" in whispers(slack)[-1].params["text"]
    routine_id = await watched(rt, http, slack, "monthly")
    await answered(rt, slack, http.command(USER, CHANNEL, "routines"))
    listing = whispers(slack)[-1].text_of_blocks()
    assert "Routines in this channel" in listing
    assert "monthly" in listing
    assert "the report it was made from" in listing
    assert "2027-01-01" in listing  # next run: the first of next month
    assert routine_id in listing  # in its buttons' values


async def test_a_run_whose_comparison_breaks_is_one_failed_run(
    embedded_http: tuple[Runtime, SignedSlack],
    slack: SlackStub,
    clock: Moved,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rt, http = embedded_http
    routine_id = await watched(rt, http, slack, "daily")

    async def broken(report: Any, fetcher: Any) -> Any:
        raise ValueError("a source that cannot be read back")

    monkeypatch.setattr(run_module, "explain_gone", broken)
    await tick(rt, clock.days(1))
    await settle(rt)
    routine = await rt.routines.get(routine_id)
    assert routine is not None
    assert routine.done == routine.period  # ended, not left for the next tick
    assert routine.failures == 1
    assert [r.result for r in await rt.routines.history(routine_id)] == ["failed", "first"]
