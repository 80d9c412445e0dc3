"""Asking a requester, once, whether a research may search Slack as them, and keeping what
they answer (docs/slack.md, "Slack search as a source").

With FONTE_SLACK_SEARCH on, the first research someone asks brings them, and only them (an
ephemeral message), the offer with two buttons. Their answer is kept per user
(bot.redis.consents) and never asked again; until they allow it, no research of theirs
calls Slack's search. Slack's own guidance: "DON'T perform unexpected actions (e.g. apps
should not take any action on behalf of a user in Slack without consent from the user
themselves)" (https://docs.slack.dev/apis/web-api/real-time-search-api, "General usage
guidelines")."""

from __future__ import annotations

from bot.conversation.common import whisper
from bot.redis.consents import consents_store
from bot.redis.state import ReportState
from bot.runtime import Runtime
from bot.slack.blockkit import Message, actions, button, section, value
from bot.slack.texts import texts_for
from engine import Language

CONSENT_ACTION = "slack_search_consent"
"""The start of both buttons' action ids (`_yes`, `_no`: ids are unique within a block,
https://docs.slack.dev/reference/block-kit/block-elements/button-element); the value says
which too (`a`: 1 or 0)."""


def offer_message(language: Language) -> Message:
    t = texts_for(language)
    buttons = [
        button(t.slack_search_allow, f"{CONSENT_ACTION}_yes", value(a=1, l=language)),
        button(t.slack_search_decline, f"{CONSENT_ACTION}_no", value(a=0, l=language)),
    ]
    return Message(t.slack_search_offer, [section(t.slack_search_offer), *actions(buttons)])


async def offer_slack_search(rt: Runtime, state: ReportState) -> None:
    """The offer, to the requester of `state`, when Slack search is on and they were never
    asked; nothing otherwise."""
    if not rt.settings.slack_search:
        return
    consents = consents_store(rt.redis, rt.keys, rt.states)
    if await consents.slack_search(state.requester) is not None:
        return
    message = offer_message(state.language)
    await whisper(rt, state.channel, state.requester, message.text, state.thread_ts, message.blocks)


async def keep_answer(rt: Runtime, user: str, allowed: bool) -> None:
    """Keep the user's answer (one quick write, in the button's listener); the line that
    tells them what it means is a `Say` step (`slack_search_allowed` / `_declined`)."""
    await consents_store(rt.redis, rt.keys, rt.states).decide_slack_search(user, allowed)


__all__ = ["CONSENT_ACTION", "keep_answer", "offer_message", "offer_slack_search"]
