"""The bot's memory of what it handed on: a report whose state and job Redis lost is told to
its requester once, in one line with a button that asks the same brief again; one still
queued, running, done or waiting on its user is not."""

from __future__ import annotations

from typing import Any

import pytest

from bot.bench.redis_restart import free_port
from bot.flows import handle_step
from bot.queue import ArqQueue
from bot.recovery.in_flight import RUN_AGAIN, InFlight, check_flights, run_again, tell_refused
from bot.redis.connection import client
from bot.redis.keys import Keys
from bot.redis.state import RedisStateStore
from bot.slack.app import Listeners
from bot.steps import Ask, Start
from tests.support.bot_env import LIMITS_QUESTION, block_actions
from tests.support.slack_stub import SlackStub


def ask(origin: str, thread: str) -> Ask:
    return Ask(origin=origin, channel="C1", thread_ts=thread, user="U1", text=LIMITS_QUESTION)


async def test_a_report_redis_forgot_is_told_once_with_a_button_to_run_it_again(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    assert rt.redis is not None
    ledger = InFlight()
    queued, forgotten = ask("o-queued", "1.1"), ask("o-forgotten", "2.1")
    await rt.queue.step(queued, queued.origin)  # no worker runs: its job stays queued
    ledger.handed_on(queued, rt.keys.step_job(queued.origin))
    ledger.handed_on(forgotten, rt.keys.step_job(forgotten.origin))  # Redis has nothing
    lost = await check_flights(rt, ledger)
    assert [flight.ask for flight in lost] == [forgotten]
    assert [flight.ask for flight in ledger.flights.values()] == [queued]
    told = slack.calls_to("chat.postMessage")
    assert len(told) == 1
    assert told[0].params["thread_ts"] == "2.1"
    assert RUN_AGAIN in told[0].text_of_blocks()
    assert await check_flights(rt, ledger) == []  # told once
    assert len(slack.calls_to("chat.postMessage")) == 1
    button = told[0].blocks()[0]["accessory"]
    body = block_actions("U2", "C1", RUN_AGAIN, button["value"])
    again = run_again(body)
    assert again is not None
    assert (again.text, again.user, again.channel) == (LIMITS_QUESTION, "U2", "C1")


async def test_a_report_whose_state_is_there_is_left_alone_until_it_ends(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings())
    asked = ask("o-planned", "3.1")
    await handle_step(rt, asked)
    report_id = await rt.states.by_thread("C1", "3.1")
    assert report_id is not None
    ledger = InFlight()
    ledger.handed_on(Start(report_id=report_id, user="U1"), "no-such-job")
    assert await check_flights(rt, ledger) == []  # planned, the user's turn: forgotten
    assert ledger.flights == {}
    assert report_id in ledger.known
    ledger.run_enqueued(report_id, "no-such-job")  # a run: it starts from what was seen
    assert rt.redis is not None
    await rt.redis.delete(rt.keys.state(report_id))  # Redis forgets it
    lost = await check_flights(rt, ledger)
    assert [flight.report_id for flight in lost] == [report_id]
    told = [c for c in slack.calls_to("chat.postMessage") if RUN_AGAIN in c.text_of_blocks()]
    assert len(told) == 1


async def test_a_request_redis_refuses_to_take_is_told_at_once_without_redis(
    rt: Any, slack: SlackStub
) -> None:
    """Before: a listener's enqueue during an outage raised into Bolt (a traceback in the
    log) and the requester heard nothing."""
    queue = ArqQueue(client(f"redis://127.0.0.1:{free_port()}/0", 0.2), Keys("refused"))
    ledger = queue.in_flight = InFlight()
    asked = ask("o-refused", "4.1")
    await queue.step(asked, asked.origin)  # nothing listens there: refused, not raised
    await tell_refused(rt, ledger)
    told = slack.calls_to("chat.postMessage")
    assert len(told) == 1
    assert told[0].params["thread_ts"] == "4.1"
    assert RUN_AGAIN in told[0].text_of_blocks()
    assert "meu armazenamento não está respondendo" in told[0].all_text()  # a pt question
    assert ledger.flights == {}
    await queue._redis.aclose(close_connection_pool=True)


def dm(text: str) -> dict[str, str]:
    return {"channel": "D7", "channel_type": "im", "user": "U1", "text": text, "ts": "6.1"}


async def test_a_message_read_while_redis_is_down_is_answered_in_one_line_with_a_button(
    rt: Any, slack: SlackStub, monkeypatch: Any
) -> None:
    """Before: Redis failing while the bot read a message (which report its thread is)
    raised into Bolt, a traceback in the log, and the sender heard nothing. Now whoever
    spoke to the bot is told, in their language, with a button to ask again; chatter in
    a channel is not answered."""
    dead = client(f"redis://127.0.0.1:{free_port()}/0", 0.2)
    monkeypatch.setattr(rt, "states", RedisStateStore(dead, Keys("down"), 60))
    listeners = Listeners(rt)
    await listeners._route(dm(LIMITS_QUESTION), "o-dm", False)
    chatter = {"channel": "C1", "user": "U2", "text": "almoço?", "ts": "6.2", "thread_ts": "6.0"}
    await listeners._route(chatter, "o-chatter", False)
    mention = {"channel": "C1", "user": "U3", "ts": "6.3", "thread_ts": "6.0"}
    mention["text"] = "<@B1> What caps solar power?"
    await listeners._route(mention, "o-mention", True)

    in_dm, in_channel = slack.calls_to("chat.postMessage")
    assert (in_dm.params["channel"], in_dm.params.get("thread_ts")) == ("D7", None)
    assert "meu armazenamento não está respondendo" in in_dm.all_text()
    assert RUN_AGAIN in in_dm.text_of_blocks()
    assert (in_channel.params["channel"], in_channel.params["thread_ts"]) == ("C1", "6.0")
    assert "my storage is not answering" in in_channel.all_text()
    button = in_dm.blocks()[0]["accessory"]
    again = run_again(block_actions("U1", "D7", RUN_AGAIN, button["value"]))
    assert again is not None
    assert again.text == LIMITS_QUESTION
    await dead.aclose(close_connection_pool=True)


async def test_a_message_that_fails_for_another_reason_than_redis_is_not_hidden(
    rt: Any, monkeypatch: Any
) -> None:
    async def broken(*_: object) -> None:
        raise ValueError("a bug, not an outage")

    monkeypatch.setattr(rt.states, "dm_open", broken)
    with pytest.raises(ValueError, match="a bug"):
        await Listeners(rt)._route(dm(LIMITS_QUESTION), "o-bug", False)
