"""What a message asks for, read from it and the thread's state: in a finished report's
thread a new question to the bot is a follow-up research (or a deepening, when it names a
gap), chatter stays ignored, a busy report keeps its thread; a picked prompt is looked up;
a mention inside people's thread reads the thread. A thread's latest report is the one a
message is about, in both stores."""

from __future__ import annotations

from typing import Any

import pytest
from arq.connections import ArqRedis

from bot.conversation.routing import step_for_message
from bot.conversation.thread_context import named_gap
from bot.redis.keys import Keys
from bot.redis.state import InMemoryStateStore, RedisStateStore, ReportState, StateStore, Status
from bot.slack.assistant import suggested_prompts
from bot.steps import Answer, Ask, Deepen, Export
from engine import Limits

CHANNEL, THREAD, DM = "C1", "100.1", "D1"
GAP = "Fonte verificada que responda: Preço das baterias de lítio no Brasil"
SECOND_GAP = "Fonte verificada que responda: Principais empresas e concorrência do setor"


class Rt:
    """Routing reads only the state store."""

    def __init__(self, states: StateStore) -> None:
        self.states = states


async def with_report(
    status: Status = "delivered", channel: str = CHANNEL, thread: str = THREAD
) -> Rt:
    states = InMemoryStateStore()
    state = ReportState(
        report_id="r1",
        channel=channel,
        thread_ts=thread,
        requester="U1",
        is_dm=channel.startswith("D"),
        question="Como está o mercado de baterias?",
        language="pt",
        limits=Limits(),
        status=status,
        gaps=[GAP, SECOND_GAP],
    )
    await states.create(state)
    await states.link_thread(channel, thread, "r1")
    return Rt(states)


def message(text: str, *, channel: str = CHANNEL, thread: str | None = THREAD) -> dict[str, Any]:
    event: dict[str, Any] = {"channel": channel, "user": "U2", "text": text, "ts": "200.1"}
    if thread is not None:
        event["thread_ts"] = thread
    if channel.startswith("D"):
        event["channel_type"] = "im"
    return event


async def route(rt: Rt, event: dict[str, Any], mentioned: bool = False) -> Any:
    return await step_for_message(rt, event, "event:Ev1", mentioned)  # type: ignore[arg-type]


async def test_a_new_question_to_the_bot_in_a_done_reports_thread_is_a_follow_up() -> None:
    for status in ("delivered", "delivery_failed", "cancelled", "failed"):
        rt = await with_report(status)  # type: ignore[arg-type]
        step = await route(rt, message("<@UBOT> E o mercado eólico?"), mentioned=True)
        assert isinstance(step, Ask), status
        assert (step.follows, step.thread_ts, step.text) == ("r1", THREAD, "E o mercado eólico?")
        assert not step.in_thread  # its context is the report, not the messages


async def test_chatter_between_people_in_a_reports_thread_asks_nothing_new() -> None:
    rt = await with_report()
    step = await route(rt, message("legal, valeu!"))
    assert isinstance(step, Answer)  # left alone downstream (followups.out_of_turn)
    assert not step.mentioned
    # even a message that reads like a gap, unless it is to the bot
    assert isinstance(await route(rt, message("preço das baterias de lítio no Brasil")), Answer)


async def test_a_question_while_the_research_runs_is_no_new_research() -> None:
    for status in ("clarifying", "planned", "running", "delivering"):
        rt = await with_report(status)  # type: ignore[arg-type]
        step = await route(rt, message("<@UBOT> e o eólico?"), mentioned=True)
        assert isinstance(step, Answer), status  # answered "busy" (or as a clarification)
        assert step.mentioned


async def test_naming_a_gap_deepens_the_report_instead() -> None:
    rt = await with_report()
    named = await route(
        rt, message("<@UBOT> e o preço das baterias de lítio no Brasil?"), mentioned=True
    )
    assert isinstance(named, Deepen)
    assert (named.report_id, named.gap) == ("r1", GAP)
    told = await route(rt, message("<@UBOT> aprofunde: créditos de carbono"), mentioned=True)
    assert isinstance(told, Deepen)
    assert told.gap == "créditos de carbono"


def test_a_gap_is_named_only_by_a_message_about_it() -> None:
    gaps = [GAP, SECOND_GAP]
    assert named_gap(gaps, "preço das baterias de lítio no Brasil") == GAP
    assert named_gap(gaps, "E as principais empresas e a concorrência do setor?") == SECOND_GAP
    # the same subject, another question: a follow-up, not a gap
    assert named_gap(gaps, "Qual o preço da energia solar residencial no Nordeste?") is None
    long = "preço das baterias de lítio no Brasil comparado a Chile, Peru, México e Argentina"
    assert named_gap(gaps, long) is None
    assert named_gap([], "preço das baterias") is None
    assert named_gap(gaps, "") is None


async def test_a_picked_prompt_is_its_template_and_a_typed_command_is_a_question() -> None:
    rt = Rt(InMemoryStateStore())
    await rt.states.mark_assistant_thread(DM, THREAD)
    for language in ("pt", "en"):
        _, picked = suggested_prompts(language)[1]  # type: ignore[arg-type]
        step = await route(rt, message(picked, channel=DM))
        assert isinstance(step, Ask)
        assert (step.template, step.language, step.text) == ("concorrentes", language, picked)
        assert step.assistant
    typed = await route(rt, message("mercado energia solar residencial", channel=DM))
    assert isinstance(typed, Ask)
    assert (typed.template, typed.text) == (None, "mercado energia solar residencial")


async def test_a_mention_in_peoples_thread_reads_that_thread() -> None:
    rt = Rt(InMemoryStateStore())
    step = await route(rt, message("<@UBOT> pesquise isso"), mentioned=True)
    assert isinstance(step, Ask)
    assert (step.in_thread, step.follows, step.thread_ts) == (True, None, THREAD)
    top = await route(rt, message("<@UBOT> pesquise isso", thread=None), mentioned=True)
    assert isinstance(top, Ask)
    assert not top.in_thread
    assert await route(rt, message("conversa entre pessoas")) is None


@pytest.fixture
def store(backend: tuple[ArqRedis, Keys] | None) -> StateStore:
    return InMemoryStateStore() if backend is None else RedisStateStore(*backend, 600)


async def test_a_thread_routes_to_its_latest_report_and_keeps_the_earlier(
    store: StateStore,
) -> None:
    for report_id in ("r1", "r2"):
        await store.create(
            ReportState(
                report_id=report_id,
                channel=CHANNEL,
                thread_ts=THREAD,
                requester="U1",
                question=f"{report_id}?",
                language="pt",
                limits=Limits(),
                follows="r1" if report_id == "r2" else None,
            )
        )
        await store.link_thread(CHANNEL, THREAD, report_id)
    assert await store.by_thread(CHANNEL, THREAD) == "r2"
    first, second = await store.get("r1"), await store.get("r2")
    assert first is not None
    assert second is not None
    assert (first.question, second.follows) == ("r1?", "r1")  # buttons naming r1 find it


async def test_exportar_in_a_reports_thread_is_an_export_of_that_report() -> None:
    rt = await with_report()
    step = await route(rt, message("exportar pdf"))
    assert isinstance(step, Export)
    assert (step.report_id, step.format, step.language) == ("r1", "pdf", "pt")
    english = await route(rt, message("<@UBOT> export the report to docx"), mentioned=True)
    assert isinstance(english, Export)
    assert (english.format, english.language) == ("docx", "en")
    # a sentence that merely mentions exporting is no command
    chatter = await route(rt, message("vamos exportar isso para o cliente amanhã?"))
    assert isinstance(chatter, Answer)
    # outside a report's thread, nothing is exported
    assert await route(rt, message("exportar pdf", thread="999.1")) is None


async def test_a_dm_opened_in_the_agent_experience_asks_there_without_an_assistant_root(
    store: StateStore,
) -> None:
    """The agent experience's DM message has no assistant_app_thread root: it is a brief of
    that experience once its DM was opened there (marked once, the first visit told apart),
    and a plain DM brief otherwise."""
    rt = Rt(store)
    plain = await route(rt, message("Como está o mercado?", channel=DM, thread=None))
    assert isinstance(plain, Ask)
    assert (plain.agent, plain.assistant, plain.thread_ts) == (False, False, "200.1")
    assert await rt.states.mark_agent_dm(DM) is True
    assert await rt.states.mark_agent_dm(DM) is False  # a second visit: no second greeting
    asked = await route(rt, message("Como está o mercado?", channel=DM, thread=None))
    assert isinstance(asked, Ask)
    assert (asked.agent, asked.assistant, asked.thread_ts) == (True, False, "200.1")
    assert not await rt.states.is_agent_dm("D2")
    # an assistant thread of the older experience stays that experience's
    await rt.states.mark_assistant_thread(DM, THREAD)
    older = await route(rt, message("Como está o mercado?", channel=DM))
    assert isinstance(older, Ask)
    assert (older.agent, older.assistant) == (False, True)
