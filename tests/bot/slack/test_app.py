"""The Bolt app over real HTTP on loopback: signatures, acknowledgements, help, the plan
editor and free-text answers."""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import urlencode

from aiohttp.test_utils import TestClient, TestServer

from bot.runtime import Runtime
from bot.slack.blocks import DEEPEN, EDIT, EDIT_VIEW, FEEDBACK, START
from bot.slack.http import socket_health_app
from bot.slack.texts import PT
from tests.support.bot_env import (
    LIMITS_QUESTION,
    AskingModel,
    SignedSlack,
    mention,
    thread_message,
    wait_state,
)
from tests.support.slack_stub import SlackStub

CHANNEL, USER = "C7", "U1"


async def test_a_bad_signature_is_refused_with_401(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    _, sender = embedded_http
    body = json.dumps({"type": "event_callback", "event": {"type": "app_mention"}}).encode()
    response = await sender.send(body, "application/json", secret="not-the-secret")
    assert response.status_code == 401
    unsigned = await sender.http.post(sender.url, content=body)
    assert unsigned.status_code == 401
    assert not slack.calls_to("chat.postMessage")


async def test_research_help_answers_in_the_acknowledgement(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    _, sender = embedded_http
    response = await sender.command(USER, CHANNEL, "help")
    assert response.status_code == 200
    answer = response.json()
    assert answer["response_type"] == "ephemeral"
    text = json.dumps(answer["blocks"], ensure_ascii=False)
    for template in ("mercado", "concorrentes", "regulacao", "tecnologia", "livre"):
        assert f"`{template}`" in text
    assert not slack.calls_to("chat.postMessage")


async def test_listeners_acknowledge_before_the_work_is_done(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    _, sender = embedded_http
    # The work cannot be done before the 429's Retry-After: a reply sooner did not wait for it.
    slack.fail_next("chat.postMessage", times=1, status=429, retry_after=3)
    started = time.monotonic()
    response = await sender.event(mention(CHANNEL, USER, LIMITS_QUESTION, "1.5"))
    assert response.status_code == 200
    assert time.monotonic() - started < 3, "the event waited for the work"
    # The work goes on after the acknowledgement, and the 429 is retried, not fatal.
    plan = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()],
        what="plan after a 429",
    )
    assert plan[0].params["thread_ts"] == "1.5"


async def test_edit_opens_a_modal_and_the_submission_changes_plan_and_caps(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    rt, sender = embedded_http
    await sender.event(mention(CHANNEL, USER, LIMITS_QUESTION, "2.5"))
    report_id = await slack.wait_for(
        lambda: rt.states._threads.get((CHANNEL, "2.5")), what="report"
    )
    state = await wait_state(rt, report_id, lambda s: s.plan_ts is not None)
    await sender.action(USER, CHANNEL, EDIT, json.dumps({"r": report_id}))
    opened = await slack.wait_for(lambda: slack.calls_to("views.open"), what="modal")
    view = opened[0].params["view"]
    assert view["callback_id"] == EDIT_VIEW
    assert view["private_metadata"] == report_id

    submission = {
        "type": "view_submission",
        "team": {"id": "T1"},
        "user": {"id": USER},
        "api_app_id": "A1",
        "trigger_id": "trig-edit",
        "view": {
            **view,
            "id": "V1",
            "hash": "h1",
            "state": {
                "values": {
                    "subquestions": {
                        "subquestions": {
                            "type": "plain_text_input",
                            "value": "Limite da microgeração\nLimite da minigeração",
                        }
                    },
                    "steps": {"steps": {"type": "number_input", "value": "30"}},
                    "minutes": {"minutes": {"type": "number_input", "value": "2"}},
                    "usd": {"usd": {"type": "number_input", "value": "0.5"}},
                }
            },
        },
    }
    body = urlencode({"payload": json.dumps(submission)}).encode()
    response = await sender.send(body, "application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert not response.content
    updated = await wait_state(rt, report_id, lambda s: s.limits.steps == 30)
    assert [s.text for s in updated.plan.subquestions] == [
        "Limite da microgeração",
        "Limite da minigeração",
    ]  # type: ignore[union-attr]
    assert updated.limits.seconds == 120
    assert updated.limits.usd == 0.5
    edits = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.update") if c.params["ts"] == state.plan_ts],
        what="plan message updated",
    )
    assert "Limite da minigeração" in edits[-1].text_of_blocks()
    budget = (await rt.stores.open(report_id, updated.limits, "check")).budget
    assert budget.limits.steps == 30

    invalid = {
        **submission,
        "view": {
            **submission["view"],
            "state": {
                "values": {
                    **submission["view"]["state"]["values"],
                    "steps": {"steps": {"value": "-3"}},
                }
            },
        },
    }
    body = urlencode({"payload": json.dumps(invalid)}).encode()
    response = await sender.send(body, "application/x-www-form-urlencoded")
    assert response.json()["response_action"] == "errors"
    assert "steps" in response.json()["errors"]


async def test_a_free_text_reply_in_the_thread_answers_the_question(
    make_settings: Any, runtimes: Any, bolt_http: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False), model=AskingModel())
    sender = await bolt_http(rt)
    await sender.event(mention(CHANNEL, USER, LIMITS_QUESTION, "3.5"))
    report_id = await slack.wait_for(
        lambda: rt.states._threads.get((CHANNEL, "3.5")), what="report"
    )
    await wait_state(rt, report_id, lambda s: s.questions_ts is not None)
    await sender.event(thread_message(CHANNEL, USER, "Portugal, por favor", "3.6", "3.5"))
    state = await wait_state(rt, report_id, lambda s: s.status == "planned")
    assert state.answers == ["Portugal, por favor"]
    answered = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.update") if c.params["ts"] == state.questions_ts],
        what="questions message answered",
    )
    assert "Portugal, por favor" in answered[0].text_of_blocks()


async def test_an_empty_mention_gets_a_short_private_hint(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    _, sender = embedded_http
    event = {"type": "app_mention", "channel": CHANNEL, "user": USER, "text": "<@UBOT>  "}
    await sender.event({**event, "ts": "3.1"})
    (hint,) = await slack.wait_for(lambda: slack.calls_to("chat.postEphemeral"), what="hint")
    assert (hint.params["user"], hint.params["thread_ts"]) == (USER, "3.1")
    assert hint.params["text"] == PT.empty_mention
    assert not slack.calls_to("chat.postMessage")


async def test_a_button_whose_value_names_no_report_is_answered(
    embedded_http: tuple[Runtime, SignedSlack], slack: SlackStub
) -> None:
    _, sender = embedded_http
    for action_id in (START, f"{DEEPEN}_3", f"{FEEDBACK}_up"):
        response = await sender.action(USER, CHANNEL, action_id, "not json")
        assert response.status_code == 200
    await sender.action(USER, CHANNEL, EDIT, json.dumps({"r": "expired"}))
    answers = await slack.wait_for(
        lambda: (
            len(slack.calls_to("chat.postEphemeral")) == 4 and slack.calls_to("chat.postEphemeral")
        ),
        what="answers",
    )
    texts = sorted(str(c.params["text"]) for c in answers)
    assert texts == sorted([PT.stale_button] * 3 + [PT.not_found])


async def test_socket_mode_health_follows_the_live_connection(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    sm = await socket_mode(rt)
    server = TestServer(socket_health_app(sm.handler))
    async with TestClient(server) as client:
        assert (await client.get("/healthz")).status == 200
        await sm.handler.client.close()  # the connection to Slack is gone
        response = await client.get("/healthz")
        assert response.status == 503
        assert "not connected" in await response.text()
