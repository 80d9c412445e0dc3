"""Slack's surface for AI apps in the older messaging experience (`assistant_view`, the
stand-in in that mode), through a real Socket Mode WebSocket: a DM opens an assistant thread
with a greeting and the report templates as suggested prompts in the user's language (their
Slack locale, else both), set on that thread, a picked prompt is a question whose template is
looked up, the question titles the thread, and a status line follows the research; a
workspace without the feature keeps the DM flow. The agent experience the manifest declares
is test_agent_messaging.py's."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
from slack_sdk.errors import SlackApiError

from bot.slack.api import SlackWebApi, build_web_client
from bot.slack.assistant import (
    StatusLine,
    greeting,
    prompt_template,
    prompts_for,
    suggested_prompts,
)
from bot.slack.blocks import START
from bot.slack.locales import BOTH, UserLocales, languages_of
from bot.slack.texts import EN, PT
from engine.text import detect_language
from tests.support.bot_env import wait_state
from tests.support.slack_samples import assistant_thread_message, assistant_thread_started
from tests.support.slack_stub import SlackStub

DM, USER, THREAD = "D7", "U1", "1729999327.187299"


def thread_started() -> dict[str, Any]:
    return assistant_thread_started(USER, DM, THREAD)


def message_in_thread(text: str, ts: str = "1729999400.000100") -> dict[str, Any]:
    return assistant_thread_message(USER, DM, THREAD, text, ts)


TEMPLATE_IDS = ["mercado", "concorrentes", "regulacao", "tecnologia"]


def test_the_suggested_prompts_are_questions_in_the_users_language() -> None:
    titles = {"pt": "Estudo de mercado", "en": "Market study"}
    for language in ("pt", "en"):
        prompts = suggested_prompts(language)  # type: ignore[arg-type]
        assert len(prompts) == 4  # Slack takes up to four
        assert prompts[0][0] == titles[language]
        for (title, message), template in zip(prompts, TEMPLATE_IDS, strict=True):
            assert message.endswith("?"), message
            assert message[0].isupper(), message
            assert not message.lower().startswith(template)  # never a raw command
            assert detect_language(message) == language, message
            assert detect_language(title) == language or len(title.split()) < 3
            assert prompt_template(message) == (template, language)


def test_a_picked_prompt_is_looked_up_never_parsed() -> None:
    question = suggested_prompts("pt")[0][1]
    assert prompt_template(f"  {question.replace(' ', '   ')} ") == ("mercado", "pt")
    assert prompt_template("mercado energia solar residencial no Brasil") is None
    assert prompt_template(question.rstrip("?") + " no Nordeste?") is None
    assert prompt_template("Qual é o tamanho do mercado?") is None


def test_an_unknown_language_gets_both_within_four_prompts() -> None:
    both = prompts_for(BOTH)
    assert len(both) == 4
    looked_up = [prompt_template(message) for _, message in both]
    assert looked_up == [
        ("mercado", "pt"),
        ("mercado", "en"),
        ("concorrentes", "pt"),
        ("concorrentes", "en"),
    ]
    assert prompts_for(("en",)) == suggested_prompts("en")
    text, title = greeting(BOTH)
    assert text == f"{PT.assistant_greeting}\n{EN.assistant_greeting}"
    assert title == f"{PT.prompts_title} · {EN.prompts_title}"
    assert greeting(("en",)) == (EN.assistant_greeting, EN.prompts_title)


def test_a_locale_reads_as_portuguese_english_or_both() -> None:
    assert languages_of("pt-BR") == languages_of("pt-PT") == ("pt",)
    assert languages_of("en-US") == languages_of("en-GB") == ("en",)
    for other in ("es-ES", "fr-FR", "", None, "português"):
        assert languages_of(other) == BOTH


async def test_the_locale_is_asked_once_per_user_for_a_while(slack: SlackStub) -> None:
    slack.users.add("UEN", locale="en-US")
    slack.users.add("UPT", locale="pt-BR")
    client = build_web_client("xoxb-test", slack.api_url)
    now = [0.0]
    locales = UserLocales(ttl=600, clock=lambda: now[0])
    assert await locales.languages(client, "UEN") == ("en",)
    assert await locales.languages(client, "UPT") == ("pt",)
    now[0] = 599.0
    assert await locales.languages(client, "UEN") == ("en",)
    assert len(slack.calls_to("users.info")) == 2  # cached
    now[0] = 601.0
    await locales.languages(client, "UEN")
    calls = slack.calls_to("users.info")
    assert len(calls) == 3  # expired: asked again
    assert {c.params["include_locale"] for c in calls} <= {"1", "true", "True"}
    assert await locales.languages(client, "UNOBODY") == BOTH  # user_not_found
    assert slack.calls_to("users.info", ok_only=False)[-1].error == "user_not_found"
    slack.revoke("users:read")
    assert await UserLocales().languages(client, "UEN") == BOTH  # missing_scope


async def test_the_stand_in_shows_a_locale_only_when_asked_for(slack: SlackStub) -> None:
    slack.users.add("UEN", locale="en-US")
    client = build_web_client("xoxb-test", slack.api_url)
    plain = await client.users_info(user="UEN")
    assert plain["user"]["id"] == "UEN"
    assert "locale" not in plain["user"]
    asked = await client.users_info(user="UEN", include_locale=True)
    assert asked["user"]["locale"] == "en-US"
    slack.revoke("users:read")
    with pytest.raises(SlackApiError) as refused:
        await client.users_info(user="UEN", include_locale=True)
    assert refused.value.response["error"] == "missing_scope"
    assert refused.value.response["needed"] == "users:read"


async def test_an_assistant_thread_gets_prompts_a_title_a_status_and_the_report(
    make_settings: Any, runtimes: Any, socket_mode: Any, slack: SlackStub
) -> None:
    slack.users.add(USER, locale="pt-BR")
    slack.agents.experience = "assistant_view"
    rt = await runtimes(make_settings(redis=False, status_refresh=0.05))
    sm = await socket_mode(rt)
    await sm.event(thread_started())
    (prompts,) = await slack.wait_for(
        lambda: slack.calls_to("assistant.threads.setSuggestedPrompts"), what="prompts"
    )
    assert prompts.params["thread_ts"] == THREAD  # the older experience's prompts: a thread's
    assert [p["message"] for p in slack.prompts_shown[DM]] == [
        m for _, m in suggested_prompts("pt")
    ]
    (greeting,) = slack.calls_to("chat.postMessage")
    assert (greeting.params["thread_ts"], greeting.params["text"]) == (
        THREAD,
        PT.assistant_greeting,
    )
    assert prompts.params["title"] == PT.prompts_title
    picked = suggested_prompts("pt")[0][1]  # Slack posts the prompt's message as the user's

    await sm.event(message_in_thread(picked))
    plans = await slack.wait_for(
        lambda: [c for c in slack.calls_to("chat.postMessage") if START in c.text_of_blocks()],
        what="plan",
    )
    assert plans[0].params["thread_ts"] == THREAD
    assert "Plano de pesquisa" in plans[0].text_of_blocks()
    (title,) = slack.calls_to("assistant.threads.setTitle")
    assert (title.params["thread_ts"], title.params["title"]) == (THREAD, picked)
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
    assert (state.assistant, state.template, state.question) == (True, "mercado", picked)

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
    assert not slack.calls_to("agents.sessions.setStatus", ok_only=False)  # no agent sessions


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
    slack.agents.experience = "assistant_view"
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


class _QuietSlack:
    """A Slack whose setStatus answers at once: only the status line's own loop runs."""

    async def set_status(self, *_: object) -> None:
        return None


async def test_a_status_line_closes_when_a_change_comes_with_the_stop() -> None:
    """A change and close() in one turn of the loop: on Python 3.11, asyncio.wait_for
    returned the change and lost the cancel, so close() waited forever and the report
    whose line it was never ended (a hang seen in the whole suite under load)."""
    line = StatusLine(_QuietSlack(), DM, THREAD, lambda: "Pesquisando…", refresh=60)  # type: ignore[arg-type]
    line.start()
    for _ in range(5):  # set once, then waiting for a change
        await asyncio.sleep(0)
    line.changed()
    await asyncio.sleep(0)  # the wait sees the change; its task has not run on yet
    closing = asyncio.create_task(line.close())
    done, _ = await asyncio.wait({closing}, timeout=30)  # a bound for a hang, not a speed
    if not done:
        closing.cancel()  # cancelled twice, the loop ends: the test may end too
        await asyncio.gather(closing, return_exceptions=True)
    assert done, "close() waited on a status line whose loop lost its cancel"
