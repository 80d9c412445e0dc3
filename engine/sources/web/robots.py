"""robots.txt: what a site lets FonteBot read, cached per origin (RFC 9309).

A missing robots.txt (any 4xx) allows everything; an unreachable one (5xx, network failure)
means "assume everything is disallowed" until it is asked again a few minutes later.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import urlsplit
from urllib.robotparser import RobotFileParser

ROBOTS_MAX_BYTES = 500_000
_TTL_SECONDS = 3600.0
_UNREACHABLE_TTL_SECONDS = 300.0


@dataclass(frozen=True)
class RobotsRules:
    """The rules of one origin. `unreachable` holds why robots.txt could not be read."""

    parser: RobotFileParser | None = None
    unreachable: str = ""

    @classmethod
    def allow_all(cls) -> RobotsRules:
        return cls()

    @classmethod
    def from_text(cls, text: str) -> RobotsRules:
        parser = RobotFileParser()
        parser.parse(text.splitlines())
        return cls(parser)

    @classmethod
    def from_status(cls, status: int, text: str = "") -> RobotsRules:
        if 200 <= status < 300:
            return cls.from_text(text)
        if 400 <= status < 500:
            return cls.allow_all()
        return cls(unreachable=f"HTTP {status}")

    def refusal(self, url: str, user_agent: str) -> str | None:
        """Why robots.txt forbids `url` to `user_agent`, or None when it may be fetched."""
        parts = urlsplit(url)
        robots_url = f"{origin_of(url)}/robots.txt"
        if self.unreachable:
            return f"refused: {robots_url} could not be read ({self.unreachable})"
        if self.parser is not None and not self.parser.can_fetch(user_agent, url):
            return f"refused: {robots_url} disallows {parts.path or '/'} for {_agent(user_agent)}"
        return None

    def crawl_delay(self, user_agent: str) -> float | None:
        """Seconds between requests the site asks for (urllib reads whole seconds only)."""
        if self.parser is None:
            return None
        delay = self.parser.crawl_delay(user_agent)
        return None if delay is None else float(delay)

    @property
    def ttl(self) -> float:
        return _UNREACHABLE_TTL_SECONDS if self.unreachable else _TTL_SECONDS


def origin_of(url: str) -> str:
    """`scheme://host[:port]`, lower case, without credentials."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}".lower()


class RobotsCache:
    """Rules per origin, loaded once however many fetches ask at the same time."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[RobotsRules]],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._load = load
        self._clock = clock
        self._rules: dict[str, tuple[RobotsRules, float]] = {}
        self._locks: dict[str, asyncio.Lock] = {}

    async def rules_for(self, url: str) -> RobotsRules:
        origin = origin_of(url)
        async with self._locks.setdefault(origin, asyncio.Lock()):
            cached = self._rules.get(origin)
            if cached is not None and cached[1] > self._clock():
                return cached[0]
            rules = await self._load(origin)
            self._rules[origin] = (rules, self._clock() + rules.ttl)
            return rules


def _agent(user_agent: str) -> str:
    return user_agent.split("/")[0]
