"""The agent messaging experience the manifest declares (`agent_view`), through a real
Socket Mode WebSocket and the stand-in in its agent_view mode: opening the DM
(`app_home_opened`, tab "messages") greets once and pins the suggested prompts without a
thread_ts; a DM message, with no assistant thread under it, is a brief of the agent
experience whose agent session is processing while Fonte works, suspended while the plan
waits for Start, and active or closed at the end; the session's stop button cancels the
research as the plan's Cancel does. The scenarios of a brief run in every set-up (HTTP and
Socket Mode, embedded and with Redis and a worker). The older experience (`assistant_view`) is in
test_assistant.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.agent_session import ProcessingSession, ended_status
from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.assistant import suggested_prompts
from bot.slack.blocks import ANSWER, START
from bot.slack.texts import PT
from bot.sources import open_library_sources
from engine import Brief, Meter, Plan
from engine.models.extractive import ExtractiveModel
from tests.support.bot_env import AskingModel, SlowSources, wait_state
from tests.support.slack_runs import settle
from tests.support.slack_stub import SlackStub
from tests.support.slack_surface import Surface

DM, USER, THREAD, ASKED = "D7", "U1", "1729999327.187299", "1729999400.000100"


def dm_message(text: str, ts: str = ASKED) -> dict[str, Any]:
    """A user's top-level message in the agent DM: the root of its own thread."""
    return {
        "type": "message",
        "channel": DM,
        "channel_type": "im",
        "user": USER,
        "text": text,
        "ts": ts,
    }


def plans(slack: SlackStub) -> list[Any]:
    return [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()]


def start_value(plan: Any) -> str:
    return next(
        e["value"]
        for b in plan.blocks()
        for e in b.get("elements", [])
        if e.get("action_id") == START
    )


async def test_opening_the_agent_dm_greets_once_and_pins_the_prompts(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    slack.users.add(USER, locale="pt-BR")
    rt = await runtimes(make_settings(redis=False))
    sm = await socket_mode(rt)
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    (prompts,) = await slack.wait_for(
        lambda: slack.calls_to("assistant.threads.setSuggestedPrompts"), what="prompts"
    )
    assert "thread_ts" not in prompts.params  # an agent app's call naming one shows nothing
    assert prompts.params["title"] == PT.prompts_title
    assert [p["message"] for p in slack.prompts_shown[DM]] == [
        m for _, m in suggested_prompts("pt")
    ]
    (greeting,) = slack.calls_to("chat.postMessage")
    assert (greeting.params["channel"], greeting.params["text"]) == (DM, PT.assistant_greeting)
    assert not greeting.params.get("thread_ts")  # no assistant thread to greet in
    # app_home_opened comes at every visit: the prompts are pinned again, the greeting not
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    await slack.wait_for(
        lambda: len(slack.calls_to("assistant.threads.setSuggestedPrompts")) == 2,
        what="prompts again",
    )
    assert len(slack.calls_to("chat.postMessage")) == 1
    assert not slack.calls_to("assistant.threads.setTitle", ok_only=False)


async def test_an_agent_dm_brief_has_a_session_through_the_research(
    surface: Callable[..., Awaitable[Surface]],
) -> None:
    s = await surface(status_refresh=0.05)
    rt, sm, slack = s.rt, s, s.slack
    slack.users.add(USER, locale="pt-BR")
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    await slack.wait_for(lambda: slack.prompts_shown.get(DM), what="prompts")
    picked = suggested_prompts("pt")[0][1]  # Slack posts a picked prompt as the user's message

    await sm.event(dm_message(picked))
    (plan,) = await slack.wait_for(lambda: plans(slack), what="plan")
    assert plan.params["thread_ts"] == ASKED  # the user's message is the thread's root
    session = await slack.wait_for(
        lambda: (s := slack.agents.session(DM, ASKED)) and s.status == "suspended" and s,
        what="a session waiting for Start",
    )
    assert session.title == picked  # the session's title, set when it was created
    assert session.history[0] == "processing"  # from the message on, while Fonte plans
    report_id = json.loads(start_value(plan))["r"]
    state = await rt.states.get(report_id)
    assert state is not None
    assert (state.agent, state.assistant, state.template) == (True, False, "mercado")

    await sm.action(USER, DM, START, json.dumps({"r": report_id}))
    await wait_state(rt, report_id, lambda s: s.status == "delivered")
    await slack.wait_for(lambda: session.status == "active", what="an active session")
    run = session.history[2:]  # processing while the research ran, then active
    ended = run.index("active")
    assert ended > 0
    assert set(run[:ended]) == {"processing"}
    assert set(run[ended:]) == {"active"}  # chat.stopStream's default, then Fonte's
    sets = slack.calls_to("agents.sessions.setStatus")
    assert all(c.params["thread_ts"] == ASKED for c in sets)
    assert all("title" not in c.params for c in sets[1:])  # only the creating call names it
    # The manifest subscribes to agent_session_stopped: no warning in any answer.
    assert "agent_session_stopped" in slack.agents.events
    # The status line's text still shows what the research is doing.
    texts = [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")]
    assert any(t.startswith("Pesquisando") for t in texts)
    assert not slack.calls_to("assistant.threads.setTitle", ok_only=False)


async def test_the_sessions_stop_button_cancels_the_research_as_cancel_does(
    surface: Callable[..., Awaitable[Surface]], make_settings: Any
) -> None:
    slow = SlowSources(open_library_sources(make_settings(redis=False)), delay=30.0)
    s = await surface(open_sources=slow.opener())
    rt, sm, slack = s.rt, s, s.slack
    slack.users.add(USER, locale="pt-BR")
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    await sm.event(dm_message("Como está o mercado de energia solar residencial no Brasil?"))
    (plan,) = await slack.wait_for(lambda: plans(slack), what="plan")
    report_id = json.loads(start_value(plan))["r"]
    await sm.action(USER, DM, START, json.dumps({"r": report_id}))
    await slack.wait_for(lambda: slow.searches > 0, what="the research under way")
    session = slack.agents.session(DM, ASKED)
    assert session is not None
    await slack.wait_for(lambda: session.stop_button, what="the stop button")

    await sm.event(slack.agents.stop(USER, DM, ASKED))
    state = await wait_state(rt, report_id, lambda s: s.status == "cancelled", within=30)
    assert (state.reported, state.delivered) == (1, 1)  # the partial report, as Cancel gives
    assert state.cancel_reason == PT.cancelled_by.format(user=USER)
    told = [c.params["text"] for c in slack.calls_to("chat.postMessage")]
    assert PT.cancelling in told
    partial = await rt.states.load_report(report_id, 1)
    assert partial is not None
    assert partial.partial
    # Slack leaves the status to the app: Fonte moves it off processing once it stopped.
    await slack.wait_for(lambda: session.status == "closed", what="a closed session")
    assert not session.stop_button


class HeldPlanner(ExtractiveModel):
    """The offline model, whose plan waits until the test lets it go."""

    def __init__(self) -> None:
        super().__init__()
        self.planning = asyncio.Event()
        self.released = asyncio.Event()

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        self.planning.set()
        await self.released.wait()
        return await super().plan(brief, meter)


async def test_the_stop_button_while_the_brief_is_planned_cancels_it_for_good(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    """The session is processing from the user's message, so its stop button shows while
    the plan is being made: pressed then, the brief is cancelled and no plan comes after."""
    model = HeldPlanner()
    rt = await runtimes(make_settings(redis=False), model=model)
    sm = await socket_mode(rt)
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    await sm.event(dm_message("Como está o mercado de energia solar residencial no Brasil?"))
    await asyncio.wait_for(model.planning.wait(), 20)
    session = slack.agents.session(DM, ASKED)
    assert session is not None
    assert session.stop_button
    report_id = await rt.states.by_thread(DM, ASKED)

    await sm.event(slack.agents.stop(USER, DM, ASKED))
    await wait_state(rt, report_id, lambda s: s.status == "cancelled")
    await slack.wait_for(lambda: session.status == "closed", what="a closed session")
    model.released.set()
    await settle(rt)  # the brief's step, which was planning, has ended
    state = await rt.states.get(report_id)
    assert state is not None
    assert state.status == "cancelled"
    assert not plans(slack)  # no plan for a cancelled brief
    assert session.status == "closed"


async def test_a_session_is_suspended_while_the_clarifying_questions_wait(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False), model=AskingModel())
    sm = await socket_mode(rt)
    await sm.event(slack.agents.dm_opened(USER, DM, THREAD))
    await sm.event(dm_message("Quais são os limites de potência da microgeração?"))
    asked = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if ANSWER in c.text_of_blocks()],
        what="the clarifying question",
    )
    session = slack.agents.session(DM, ASKED)
    assert session is not None
    await slack.wait_for(lambda: session.status == "suspended", what="a suspended session")
    assert not session.stop_button  # nothing runs while Fonte waits for the user
    report_id = json.loads(
        next(
            e["value"]
            for b in asked[0].blocks()
            for e in b.get("elements", [])
            if str(e.get("action_id", "")).startswith(ANSWER)
        )
    )["r"]
    await sm.action(USER, DM, f"{ANSWER}_0_0", json.dumps({"r": report_id, "q": 0, "o": 0}))
    await slack.wait_for(lambda: plans(slack), what="plan")
    await slack.wait_for(lambda: session.history[-1] == "suspended", what="waiting for Start")
    assert session.history[:2] == ["processing", "suspended"]


@pytest.mark.parametrize(
    ("report_status", "session_status"),
    [
        ("delivered", "active"),
        ("delivery_failed", "active"),
        ("cancelled", "closed"),
        ("failed", "closed"),
        ("running", None),
        ("planned", None),
    ],
)
def test_a_run_ends_its_session_active_when_its_thread_goes_on_else_closed(
    report_status: str, session_status: str | None
) -> None:
    assert ended_status(report_status) == session_status


async def test_the_stand_in_keeps_a_sessions_title_and_refuses_what_the_page_refuses(
    slack: SlackStub,
) -> None:
    client = build_web_client("xoxb-test", slack.api_url)
    await client.agents_sessions_setStatus(
        channel_id=DM,
        thread_ts=ASKED,
        status="processing",
        title="Primeiro",
        initiator_user_id=USER,
    )
    answer = await client.agents_sessions_setStatus(
        channel_id=DM, thread_ts=ASKED, status="active", title="Outro"
    )
    assert (answer["status"], answer["title"]) == ("active", "Primeiro")  # title at creation
    assert "warning" not in answer.data  # type: ignore[operator]
    for refused in (
        {"channel_id": DM, "thread_ts": ASKED, "status": "done"},
        {"channel_id": DM, "status": "processing"},  # a DM's session is a thread's
        {"channel_id": DM, "thread_ts": "2.1", "status": "processing", "title": "x" * 201},
    ):
        with pytest.raises(SlackApiError) as invalid:
            await client.api_call("agents.sessions.setStatus", json=refused)
        assert invalid.value.response["error"] == "invalid_arguments", refused
    slack.agents.events.discard("agent_session_stopped")
    warned = await client.agents_sessions_setStatus(channel_id=DM, thread_ts="3.1", status="active")
    assert warned["warning"] == "missing_agent_session_stopped_event_subscription"
    slack.agents.experience = "assistant_view"  # an app not declared as an agent
    with pytest.raises(SlackApiError) as refused_app:
        await client.agents_sessions_setStatus(channel_id=DM, thread_ts="4.1", status="active")
    assert refused_app.value.response["error"] == "not_authorized"


async def test_a_running_session_is_set_processing_again_after_its_stream_stops(
    slack: SlackStub,
) -> None:
    """Stopping a stream sets its thread's session active by default: the plan card's stream
    stops before a long research ends, and the session goes back to processing (its stop
    button with it) at the next refresh."""
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    await api.set_session_status(DM, ASKED, "processing", "Mercado solar")
    ts = await api.start_stream(DM, ASKED, [], recipient_user_id=USER)
    kept = ProcessingSession(api, DM, ASKED, refresh=0.05)
    await kept.start()
    session = slack.agents.session(DM, ASKED)
    assert session is not None
    await api.stop_stream(DM, ts)
    assert "active" in session.history  # what chat.stopStream left it
    await slack.wait_for(
        lambda: session.history[session.history.index("active") + 1 :] and session.stop_button,
        what="processing again",
    )
    await kept.stop()
