"""Slack's agent surface through a real Socket Mode WebSocket: a DM opens an assistant thread
with the report templates as suggested prompts, the question titles the thread, and a status
line follows the research; a workspace without the feature keeps the DM flow."""

from __future__ import annotations

import json
import re
from typing import Any

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.assistant import StatusLine, suggested_prompts
from bot.slack.blocks import START
from bot.slack.texts import PT
from tests.support.bot_env import wait_state
from tests.support.slack_stub import SlackStub

DM, USER, THREAD = "D7", "U1", "1729999327.187299"


def thread_started() -> dict[str, Any]:
    # https://docs.slack.dev/reference/events/assistant_thread_started
    return {
        "type": "assistant_thread_started",
        "assistant_thread": {
            "user_id": USER,
            "context": {"channel_id": "C1", "team_id": "T1", "enterprise_id": None},
            "channel_id": DM,
            "thread_ts": THREAD,
        },
        "event_ts": "1729999327.187300",
    }


def message_in_thread(text: str, ts: str = "1729999400.000100") -> dict[str, Any]:
    return {
        "type": "message",
        "channel": DM,
        "channel_type": "im",
        "user": USER,
        "text": text,
        "ts": ts,
        "thread_ts": THREAD,
    }


def test_the_suggested_prompts_are_the_report_templates() -> None:
    for language in ("pt", "en"):
        prompts = suggested_prompts(language)  # type: ignore[arg-type]
        assert 1 <= len(prompts) <= 4  # Slack takes up to four
        assert [m.split()[0] for _, m in prompts] == [
            "mercado",
            "concorrentes",
            "regulacao",
            "tecnologia",
        ]


async def test_an_assistant_thread_gets_prompts_a_title_a_status_and_the_report(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False, status_refresh=0.05))
    sm = await socket_mode(rt)
    await sm.event(thread_started())
    (prompts,) = await slack.wait_for(
        lambda: slack.calls_to("assistant.threads.setSuggestedPrompts"), what="prompts"
    )
    assert "thread_ts" not in prompts.params  # agent apps: Slack ignores a call naming one
    assert [p["message"] for p in slack.prompts_shown[DM]] == [
        m for _, m in suggested_prompts("pt")
    ]
    (greeting,) = slack.calls_to("chat.postMessage")
    assert (greeting.params["thread_ts"], greeting.params["text"]) == (
        THREAD,
        PT.assistant_greeting,
    )
    assert prompts.params["prompts"][0]["message"].startswith("mercado ")

    await sm.event(message_in_thread("mercado energia solar residencial no Nordeste"))
    plans = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()],
        what="plan",
    )
    assert plans[0].params["thread_ts"] == THREAD
    assert "Plano de pesquisa" in plans[0].text_of_blocks()  # Portuguese, from four words
    (title,) = slack.calls_to("assistant.threads.setTitle")
    assert (title.params["thread_ts"], title.params["title"]) == (
        THREAD,
        "energia solar residencial no Nordeste",
    )
    report_id = json.loads(
        next(
            e["value"]
            for b in plans[0].blocks()
            for e in b.get("elements", [])
            if e.get("action_id") == START
        )
    )["r"]
    state = await rt.states.get(report_id)
    assert state is not None
    assert (state.assistant, state.template) == (True, "mercado")

    await sm.action(USER, DM, START, json.dumps({"r": report_id}))
    await wait_state(rt, report_id, lambda s: s.status == "delivered")
    statuses = [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")]
    assert statuses[0] == PT.assistant_planning
    assert statuses[-1] == ""  # cleared once the report comes
    running = statuses[1:-1]
    assert running, "no status while the research ran"
    counts = []
    for status in running:
        match = re.fullmatch(r"Pesquisando… (\d) de 4 subperguntas", status)
        assert match, status
        counts.append(int(match.group(1)))
    assert counts == sorted(counts)  # it only moves forward
    assert all(
        c.params["thread_ts"] == THREAD for c in slack.calls_to("assistant.threads.setStatus")
    )


async def test_the_status_line_is_set_again_before_slack_lets_it_lapse(slack: SlackStub) -> None:
    api = SlackWebApi(build_web_client("xoxb-test", slack.api_url))
    line = StatusLine(api, DM, THREAD, lambda: "Pesquisando… 1 de 5 subperguntas", refresh=0.05)
    line.start()
    await slack.wait_for(
        lambda: len(slack.calls_to("assistant.threads.setStatus")) >= 3, what="refreshes"
    )
    await line.close()
    texts = [c.params["status"] for c in slack.calls_to("assistant.threads.setStatus")]
    assert set(texts[:-1]) == {"Pesquisando… 1 de 5 subperguntas"}
    assert texts[-1] == ""


async def test_a_workspace_without_the_feature_keeps_the_dm_flow(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False))
    slack.revoke("assistant:write")
    sm = await socket_mode(rt)
    await sm.event(thread_started())  # prompts refused: logged, nothing else
    await slack.wait_for(
        lambda: slack.calls_to("assistant.threads.setSuggestedPrompts", ok_only=False),
        what="prompts",
    )
    dm = {
        "type": "message",
        "channel": DM,
        "channel_type": "im",
        "user": USER,
        "text": "Quais são os limites de potência da microgeração distribuída?",
        "ts": "20.1",
    }
    await sm.event(dm)
    plans = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()],
        what="plan",
    )
    assert plans[0].params["thread_ts"] == "20.1"
    assert not slack.calls_to("assistant.threads.setTitle", ok_only=False)
