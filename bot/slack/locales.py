"""Which language to greet a Slack user in, from their Slack locale.

A user's locale comes only from users.info with `include_locale=true` (scope users:read;
docs.slack.dev/reference/methods/users.info): the assistant_thread_started event names the
user, their DM and the channel they are viewing, never their language
(docs.slack.dev/reference/events/assistant_thread_started). pt-* reads Portuguese, en-*
English; any other locale, or none (the call refused, the user not found), reads both, so
nobody is greeted only in a language they may not read. A locale is kept a few minutes per
user: a user opening threads one after the other costs one call.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.api import DELIVERY_ERRORS
from engine import Language

log = logging.getLogger(__name__)

Languages = tuple[Language, ...]
"""The languages to speak to a user in: theirs, or Portuguese and English when unknown."""

BOTH: Languages = ("pt", "en")
LOCALE_TTL_SECONDS = 600.0
MAX_CACHED_USERS = 10_000


def languages_of(locale: str | None) -> Languages:
    """pt-BR, pt-PT -> Portuguese; en-US, en-GB -> English; anything else -> both."""
    lowered = (locale or "").strip().lower()
    if lowered == "pt" or lowered.startswith("pt-"):
        return ("pt",)
    if lowered == "en" or lowered.startswith("en-"):
        return ("en",)
    return BOTH


class UserLocales:
    """users.info's locale per user, cached for `ttl` seconds of `clock`."""

    def __init__(
        self, *, ttl: float = LOCALE_TTL_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._ttl = ttl
        self._clock = clock
        self._known: dict[str, tuple[float, str | None]] = {}

    async def languages(self, client: AsyncWebClient, user: str) -> Languages:
        return languages_of(await self.locale(client, user))

    async def locale(self, client: AsyncWebClient, user: str) -> str | None:
        now = self._clock()
        cached = self._known.get(user)
        if cached is not None and now - cached[0] < self._ttl:
            return cached[1]
        locale = await _fetch_locale(client, user) if user else None
        if len(self._known) >= MAX_CACHED_USERS:
            self._known.clear()
        self._known[user] = (now, locale)
        return locale


async def _fetch_locale(client: AsyncWebClient, user: str) -> str | None:
    try:
        response = await client.users_info(user=user, include_locale=True)
    except DELIVERY_ERRORS as error:  # missing_scope, user_not_found, ...: greet in both
        log.info("users.info for %s failed: %s", user, error)
        return None
    found = response.get("user")
    locale = found.get("locale") if isinstance(found, dict) else None
    return str(locale) if locale else None
