"""Conversation rules that need no Slack: when to clarify, estimates,
and transitions that make a replayed step harmless."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from bot.files import Conversation, ConversationFiles
from bot.flows import estimate_run, handle_step, needs_clarifying, report_id_for
from bot.runtime import Runtime
from bot.sources.catalog import conversations_root
from bot.steps import Answer, Ask, Deepen, Start
from engine import Brief, ClarifyingQuestion, Meter
from engine.contracts import Limits, Plan, Subquestion
from engine.planning.briefs import make_brief
from engine.sources.kinds import CONVERSATION, LIBRARY
from tests.support.bot_env import LIMITS_QUESTION, AskingModel, running_workers, wait_state
from tests.support.paying_models import PayingModel
from tests.support.slack_stub import SlackStub


def test_fixed_templates_skip_clarifying_unless_the_subject_is_vague() -> None:
    assert not needs_clarifying(
        make_brief("energia solar residencial no Nordeste", template="mercado")
    )
    assert needs_clarifying(make_brief("solar", template="mercado"))
    assert needs_clarifying(make_brief("energia solar residencial", template="livre"))
    assert needs_clarifying(make_brief("energia solar residencial"))


async def test_estimate_stays_within_the_caps(make_settings: Any, runtimes: Any) -> None:
    rt = await runtimes(make_settings(redis=False, seconds_per_step=60.0))
    plan = Plan(question="Q", subquestions=[Subquestion(id="s1", text="Q")])
    estimate = estimate_run(plan, Limits(seconds=120, usd=0.0), rt)
    assert estimate.minutes == 2
    assert estimate.usd == 0


async def test_template_brief_goes_straight_to_the_plan_and_replays_do_nothing(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False), model=AskingModel())
    ask = Ask(
        origin="e1",
        channel="C1",
        thread_ts="5.5",
        user="U1",
        text="energia solar residencial no Nordeste",
        template="mercado",
    )
    await handle_step(rt, ask)
    await handle_step(rt, ask)
    report_id = await rt.states.by_thread("C1", "5.5")
    state = await rt.states.get(report_id)  # type: ignore[arg-type]
    assert state is not None
    assert state.status == "planned"
    assert not state.questions
    assert state.plan is not None
    assert len(state.plan.subquestions) == 4
    assert len(slack.calls_to("chat.postMessage")) == 1
    await handle_step(rt, Deepen(report_id=state.report_id, user="U1", gap="preços"))
    assert (await rt.states.get(state.report_id)).version == 1  # type: ignore[union-attr]
    await handle_step(rt, Start(report_id=state.report_id, user="U1"))
    await handle_step(rt, Start(report_id=state.report_id, user="U1"))
    await rt.queue.drain()  # type: ignore[attr-defined]
    done = await wait_state(rt, state.report_id, lambda s: s.status == "delivered")
    assert done.delivered == 1
    assert len(slack.calls_to("files.completeUploadExternal")) == 1


@pytest.mark.parametrize("redis", [False, True], ids=["memory", "redis"])
async def test_the_questions_and_the_plan_are_paid_from_the_report_s_budget(
    make_settings: Any, runtimes: Any, slack: SlackStub, redis: bool
) -> None:
    """What asking and planning cost is in the delivered report's spend: one budget per
    report, opened by its id wherever a model call of it runs (no side budget)."""
    rt = await runtimes(make_settings(redis=redis), model=PayingModel(plan_cost=0.02))
    async with running_workers(rt) if redis else contextlib.nullcontext():
        ask = Ask(origin="e9", channel="C1", thread_ts="9.9", user="U1", text=LIMITS_QUESTION)
        await handle_step(rt, ask)
        report_id = await rt.states.by_thread("C1", "9.9")
        assert report_id is not None
        await handle_step(rt, Answer(report_id=report_id, user="U1", question=0, option=1))
        planned = await wait_state(rt, report_id, lambda s: s.plan is not None)
        assert planned.answers == ["2024"]
        await handle_step(rt, Start(report_id=report_id, user="U1"))
        await wait_state(rt, report_id, lambda s: s.status == "delivered", within=30)
    report = await rt.states.load_report(report_id, 1)
    assert report is not None
    assert report.spend.usd == pytest.approx(0.05 + 0.02)  # the questions, the plan
    assert report.spend.usage.model_calls == 2
    assert report.verified_claims()


async def test_an_empty_question_is_answered_privately(rt: Runtime, slack: SlackStub) -> None:
    await handle_step(rt, Ask(origin="e2", channel="C1", thread_ts="6.6", user="U1", text="   "))
    refusal = slack.calls_to("chat.postEphemeral")
    assert refusal
    assert refusal[0].params["user"] == "U1"
    assert "empty" in refusal[0].params["text"]
    assert await rt.states.by_thread("C1", "6.6") is None


async def test_research_in_a_channel_without_the_bot_answers_through_the_response_url(
    make_settings: Any, runtimes: Any, slack: SlackStub
) -> None:
    rt = await runtimes(make_settings(redis=False), model=AskingModel())
    slack.channels_without_bot.add("C9")
    ask = Ask(
        origin="command:t9",
        channel="C9",
        thread_ts=None,
        user="U1",
        text="Quais são os limites da microgeração distribuída?",
        response_url=slack.response_url("t9"),
    )
    await handle_step(rt, ask)
    (answer,) = slack.calls_to("response_url")
    assert "/invite @Fonte" in answer.params["text"]
    assert answer.params["response_type"] == "ephemeral"
    assert await rt.states.get(report_id_for("command:t9")) is None  # nothing half-started


class BriefRecorder(AskingModel):
    """Asks its clarifying question and plans as the offline model; keeps each brief."""

    def __init__(self) -> None:
        super().__init__()
        self.briefs: list[tuple[str, Brief]] = []

    async def clarify(self, brief: Brief, meter: Meter) -> list[ClarifyingQuestion]:
        self.briefs.append(("clarify", brief))
        return await super().clarify(brief, meter)

    async def plan(self, brief: Brief, meter: Meter) -> Plan:
        self.briefs.append(("plan", brief))
        return await super().plan(brief, meter)


async def test_the_clarifier_and_the_planner_are_told_what_the_conversation_reads(
    make_settings: Any, runtimes: Any
) -> None:
    settings = make_settings(redis=False)
    shared = "https://team.slack.com/files/U1/F0AAA/usina.md"
    store = ConversationFiles(conversations_root(settings))
    store.add(
        Conversation("C7", "7.1"), "usina.md", b"# Usina\n\nProduziu 1.204 MWh.\n", shared, ""
    )
    model = BriefRecorder()
    rt = await runtimes(settings, model=model)
    await handle_step(rt, Ask(origin="k1", channel="C7", thread_ts="7.1", user="U1", text="usina"))
    report_id = await rt.states.by_thread("C7", "7.1")
    assert report_id is not None
    await handle_step(rt, Answer(report_id=report_id, user="U1", question=0, option=0))
    roles = [role for role, _ in model.briefs]
    assert roles == ["clarify", "plan"]
    # The team library and the thread's shared file: documents, never "the web".
    assert {brief.source for _, brief in model.briefs} == {LIBRARY | CONVERSATION}
