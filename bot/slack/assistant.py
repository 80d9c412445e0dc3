"""Slack's surface for AI apps, in both messaging experiences: the greeting and suggested
prompts when the DM (agent experience) or an assistant thread (the older one) opens, the
thread's title from the question, and a status line while research runs. The agent
experience's sessions are bot.slack.agent_session's.

Slack removes a status after two minutes without a message from the app
(docs.slack.dev/reference/methods/assistant.threads.setStatus), and a report takes longer,
so `StatusLine` sets it again every `refresh` seconds, and whenever its text changes. Every
call is best effort: a workspace without the feature answers with an error, which is logged,
and the conversation goes on as in any DM.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from bot.slack.api import DELIVERY_ERRORS, SlackApi
from bot.slack.blockkit import Message
from bot.slack.locales import BOTH, Languages
from bot.slack.texts import texts_for
from engine import Language, stop_task, unless_cancelled
from engine.planning import TEMPLATES
from engine.text import clip, collapse_whitespace
from engine.words import words_for

log = logging.getLogger(__name__)

MAX_PROMPTS = 4
MAX_THREAD_TITLE_CHARS = 120


def _template_prompts(language: Language) -> list[tuple[str, str, str]]:
    """(template id, title, message) per report template with an example question."""
    examples = words_for(language).templates.examples
    return [
        (t.id, t.description(language).split(":")[0].capitalize(), examples[t.id])
        for t in TEMPLATES
        if t.id in examples
    ][:MAX_PROMPTS]


def suggested_prompts(language: Language) -> list[tuple[str, str]]:
    """(title, message) per report template, in `language`: the message is what the user
    sends when picking it, a question as they would ask it (`prompt_template` tells which
    template it stands for)."""
    return [(title, message) for _, title, message in _template_prompts(language)]


def prompts_for(languages: Languages) -> list[tuple[str, str]]:
    """The prompts in the user's language; in both, when it is unknown: the first templates
    in each language side by side, within Slack's four."""
    if len(languages) == 1:
        return suggested_prompts(languages[0])
    each = [suggested_prompts(language)[: MAX_PROMPTS // len(languages)] for language in languages]
    return [prompt for side_by_side in zip(*each, strict=False) for prompt in side_by_side]


def prompt_template(text: str) -> tuple[str, Language] | None:
    """The template and language of the suggested prompt whose message `text` is exactly
    (what Slack posts as the user's message when they pick it); None for any other text. A
    lookup of the prompts offered, never a parse of the question's words."""
    wanted = collapse_whitespace(text)
    for language in BOTH:
        for template_id, _, message in _template_prompts(language):
            if message == wanted:
                return template_id, language
    return None


def greeting(languages: Languages) -> tuple[str, str]:
    """The greeting and the prompts' title, in each of `languages`."""
    said = [texts_for(language) for language in languages]
    return "\n".join(t.assistant_greeting for t in said), " · ".join(t.prompts_title for t in said)


async def best_effort(what: str, call: Callable[[], object]) -> bool:
    try:
        result = call()
        if asyncio.iscoroutine(result):
            await result
    except DELIVERY_ERRORS as error:
        log.info("assistant: %s failed (is the agent view on?): %s", what, error)
        return False
    return True


async def open_thread(slack: SlackApi, channel: str, thread_ts: str, languages: Languages) -> None:
    """The older experience's assistant thread opened (assistant_thread_started): a greeting
    in it, and the report templates as its suggested prompts, in the user's language (both
    when it is unknown). The prompts name the thread: the older experience takes thread_ts
    (docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts)."""
    await _greet(slack, channel, thread_ts, languages)
    await _offer_prompts(slack, channel, languages, thread_ts)


async def open_dm(slack: SlackApi, channel: str, languages: Languages, *, first: bool) -> None:
    """The agent experience's DM opened (app_home_opened, tab "messages",
    docs.slack.dev/ai/migrating-to-agent-messaging/): a greeting the first time only (the
    event comes at every visit: "Verify that this is the first interaction",
    docs.slack.dev/reference/events/app_home_opened), and the prompts pinned at every
    visit, without thread_ts, which an agent app's call must not name."""
    if first:
        await _greet(slack, channel, None, languages)
    await _offer_prompts(slack, channel, languages, None)


async def _greet(
    slack: SlackApi, channel: str, thread_ts: str | None, languages: Languages
) -> None:
    text, _ = greeting(languages)
    await best_effort("greeting", lambda: slack.post(channel, Message(text), thread_ts))


async def _offer_prompts(
    slack: SlackApi, channel: str, languages: Languages, thread_ts: str | None
) -> None:
    _, title = greeting(languages)
    await best_effort(
        "setSuggestedPrompts",
        lambda: slack.set_suggested_prompts(channel, title, prompts_for(languages), thread_ts),
    )


async def planning(slack: SlackApi, channel: str, thread_ts: str, language: Language) -> None:
    """The status line while the plan is prepared (Slack clears it when the plan is posted)."""
    text = texts_for(language).assistant_planning
    await best_effort("setStatus", lambda: slack.set_status(channel, thread_ts, text))


async def set_title(slack: SlackApi, channel: str, thread_ts: str, question: str) -> None:
    title = clip(collapse_whitespace(question), MAX_THREAD_TITLE_CHARS)
    await best_effort("setTitle", lambda: slack.set_title(channel, thread_ts, title))


MAX_LOADING_MESSAGES = 10
"""setStatus's loading_messages: "Maximum of 10 messages"
(docs.slack.dev/reference/methods/assistant.threads.setStatus)."""


class StatusLine:
    """Keeps a thread's status line up while a run lasts: in an assistant thread, and (with
    chat:write, docs.slack.dev/changelog/2026/03/05/set-status-scope-update) in a channel's
    thread too. `loading` gives the messages Slack rotates through under it."""

    def __init__(
        self,
        slack: SlackApi,
        channel: str,
        thread_ts: str,
        text: Callable[[], str],
        *,
        refresh: float = 90.0,
        loading: Callable[[], list[str]] | None = None,
    ) -> None:
        self._slack = slack
        self._channel = channel
        self._thread_ts = thread_ts
        self._text = text
        self._loading = loading
        self._refresh = refresh
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sets = 0

    def changed(self) -> None:
        self._changed.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        shown: tuple[str, list[str]] | None = None
        while True:
            unless_cancelled()
            text = self._text()
            loading = self._loading()[:MAX_LOADING_MESSAGES] if self._loading else []
            if (text, loading) != shown or not self._changed.is_set():
                if await self._set(text, loading):
                    self.sets += 1
                shown = (text, loading)
            self._changed.clear()
            # Not asyncio.wait_for: on Python 3.11 it returns the event's result when the
            # change and close()'s cancel come in one turn of the loop, and the cancel is
            # lost (the loop went on, close() waited forever, the report never ended).
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._refresh):
                    await self._changed.wait()

    async def close(self) -> None:
        """Stop refreshing and clear the line (the report's message follows)."""
        if self._task is not None:
            await stop_task(self._task)
            self._task = None
            await self._set("")

    async def _set(self, text: str, loading: list[str] | None = None) -> bool:
        if loading:
            return await best_effort(
                "setStatus",
                lambda: self._slack.set_status(self._channel, self._thread_ts, text, loading),
            )
        return await best_effort(
            "setStatus", lambda: self._slack.set_status(self._channel, self._thread_ts, text)
        )
