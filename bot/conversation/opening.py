"""Buttons that open something at once, because a trigger_id expires three seconds after
the click: the plan editor (the requester's and the admins', as Start and Cancel are) and
an excerpt (after one state read, for those allowed), and "Run this brief as mine", which
reads the brief it names and returns the same brief as the clicker's. The excerpt modal
opens text-only; the cited page's crop follows as a step that updates it."""

from __future__ import annotations

from bot.conversation.excerpt_page import may_show_page
from bot.runtime import Runtime
from bot.slack.blocks import edit_plan_view, steer_refusal
from bot.slack.payloads import Payload, action_origin, action_value, channel_of
from bot.slack.report_blocks import excerpt_view
from bot.slack.texts import texts_for
from bot.steps import Ask, ShowPage
from engine.render import CitationIndex, claim_origin


async def open_plan_editor(rt: Runtime, body: Payload) -> None:
    """The plan editor modal, or one private line saying why not."""
    user = body["user"]["id"]
    state = await rt.states.get(str(action_value(body).get("r", "")))
    if state is None:
        await rt.slack.post_ephemeral(channel_of(body), user, texts_for("pt").not_found)
        return
    where = channel_of(body) or state.channel
    if state.plan is None or state.status != "planned":
        await rt.slack.post_ephemeral(where, user, texts_for(state.language).already_started)
        return
    if not state.may_act(user):
        await rt.slack.post_ephemeral(where, user, texts_for(state.language).not_yours)
        return
    if not state.may_steer(user, rt.settings.slack_admins):
        refusal = steer_refusal(state.report_id, state.language)
        await rt.slack.post_ephemeral(
            where, user, refusal.text, thread_ts=state.thread_ts, blocks=refusal.blocks
        )
        return
    view = edit_plan_view(state.report_id, state.plan, state.limits, state.language)
    await rt.slack.open_view(body["trigger_id"], view)


async def run_as_mine(rt: Runtime, body: Payload, report_id: str) -> Ask | None:
    """The brief a "Run this brief as mine" button names, as the clicker's; None (after
    telling them) when it is gone or not theirs to see."""
    user, channel = body["user"]["id"], channel_of(body)
    state = await rt.states.get(report_id)
    if state is None or not state.may_act(user):
        t = texts_for(state.language if state is not None else "pt")
        text = t.not_found if state is None else t.not_yours
        await rt.slack.post_ephemeral(channel or (state.channel if state else ""), user, text)
        return None
    return Ask(
        origin=action_origin(body),
        channel=channel or state.channel,
        thread_ts=None,
        user=user,
        text=state.question,
        is_dm=state.is_dm,
        template=state.template,
        language=state.language,
    )


async def open_excerpt(rt: Runtime, body: Payload) -> ShowPage | None:
    """The excerpt modal, opened text-only; the step that adds the cited page's crop, when
    its source can show one."""
    user, value = body["user"]["id"], action_value(body)
    channel = channel_of(body)
    state = await rt.states.get(str(value.get("r")))
    if state is None:
        await rt.slack.post_ephemeral(channel, user, texts_for("pt").not_found)
        return None
    t = texts_for(state.language)
    if not state.may_act(user):
        await rt.slack.post_ephemeral(channel or state.channel, user, t.not_yours)
        return None
    version = int(value.get("v", 1))
    report = await rt.states.load_report(state.report_id, version)
    claim_id = str(value.get("c"))
    if report is None or claim_id not in {c.id for c in report.claims}:
        await rt.slack.post_ephemeral(channel or state.channel, user, t.not_found)
        return None
    index = CitationIndex(report)
    number = int(value.get("n") or index.number_of(claim_id))
    claim = report.claim(claim_id)
    view = excerpt_view(claim, number, state.language, origin=claim_origin(report, claim))
    opened = await rt.slack.open_view(body["trigger_id"], view)
    if not (may_show_page(claim) and opened.id):
        return None
    return ShowPage(
        report_id=state.report_id,
        version=version,
        claim_id=claim_id,
        number=number,
        view_id=opened.id,
        hash=opened.hash,
        language=state.language,
    )
