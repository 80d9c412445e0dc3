"""Slack's agent surface (the assistant thread of AI apps): suggested prompts when a thread
opens, its title from the question, and a status line while research runs.

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
from bot.slack.blockkit import Message, clip
from bot.slack.texts import texts_for
from engine import Language
from engine.planning import TEMPLATES
from engine.words import words_for

log = logging.getLogger(__name__)

MAX_PROMPTS = 4
MAX_TITLE_CHARS = 120


def suggested_prompts(language: Language) -> list[tuple[str, str]]:
    """(title, message) per report template: the message is what the user sends, read as
    `/research <template> <subject>`."""
    examples = words_for(language).templates.examples
    prompts = []
    for template in TEMPLATES:
        if template.id not in examples:
            continue
        description = template.description(language)
        prompts.append(
            (description.split(":")[0].capitalize(), f"{template.id} {examples[template.id]}")
        )
    return prompts[:MAX_PROMPTS]


async def best_effort(what: str, call: Callable[[], object]) -> bool:
    try:
        result = call()
        if asyncio.iscoroutine(result):
            await result
    except DELIVERY_ERRORS as error:
        log.info("assistant: %s failed (is the agent view on?): %s", what, error)
        return False
    return True


async def open_thread(slack: SlackApi, channel: str, thread_ts: str, language: Language) -> None:
    """A greeting in the new thread, and the report templates as its suggested prompts."""
    t = texts_for(language)
    await best_effort(
        "greeting", lambda: slack.post(channel, Message(t.assistant_greeting), thread_ts)
    )
    await best_effort(
        "setSuggestedPrompts",
        lambda: slack.set_suggested_prompts(channel, t.prompts_title, suggested_prompts(language)),
    )


async def planning(slack: SlackApi, channel: str, thread_ts: str, language: Language) -> None:
    """The status line while the plan is prepared (Slack clears it when the plan is posted)."""
    text = texts_for(language).assistant_planning
    await best_effort("setStatus", lambda: slack.set_status(channel, thread_ts, text))


async def set_title(slack: SlackApi, channel: str, thread_ts: str, question: str) -> None:
    title = clip(" ".join(question.split()), MAX_TITLE_CHARS)
    await best_effort("setTitle", lambda: slack.set_title(channel, thread_ts, title))


class StatusLine:
    """Keeps an assistant thread's status line up while a run lasts."""

    def __init__(
        self,
        slack: SlackApi,
        channel: str,
        thread_ts: str,
        text: Callable[[], str],
        *,
        refresh: float = 90.0,
    ) -> None:
        self._slack = slack
        self._channel = channel
        self._thread_ts = thread_ts
        self._text = text
        self._refresh = refresh
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.sets = 0

    def changed(self) -> None:
        self._changed.set()

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        shown = None
        while True:
            text = self._text()
            if text != shown or not self._changed.is_set():
                if await self._set(text):
                    self.sets += 1
                shown = text
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), self._refresh)

    async def close(self) -> None:
        """Stop refreshing and clear the line (the report's message follows)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
            await self._set("")

    async def _set(self, text: str) -> bool:
        return await best_effort(
            "setStatus", lambda: self._slack.set_status(self._channel, self._thread_ts, text)
        )
