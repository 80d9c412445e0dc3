"""Slack's rate-limit tiers, as the stand-in enforces them once a test turns them on.

"Broadly, you'll encounter limits like these, applied on a 'per API method per
workspace/team per app' basis": Tier 1 1+ per minute, Tier 2 20+, Tier 3 50+, Tier 4 100+,
and special tiers such as chat.postMessage's "one message per second per channel"
(https://docs.slack.dev/apis/web-api/rate-limits). Over a limit "Slack will return a HTTP
429 Too Many Requests error" with `{"ok": false, "error": "ratelimited"}` and "a Retry-After
HTTP header containing the number of seconds until you can retry" (same page).

The stand-in counts each app's (token's) calls of each method in the workspace (and in the
channel, for chat.postMessage) over a sliding window on the test's clock, at each method's
documented floor ("50+" is 50): a call past it is answered 429 and not counted. The tiers
are off unless a test calls `enforce(clock)`: most tests run on the real clock, and pacing
is what the tests that turn them on are about.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MINUTE = 60.0


TIER_CALLS = {1: 1, 2: 20, 3: 50, 4: 100}
"""Calls a minute each tier allows at least ("Tier 3: 50+ per minute")."""
METHOD_TIERS = {
    "chat.update": 3,  # https://api.slack.com/methods/chat.update, "Rate limits: Tier 3"
    "chat.startStream": 2,  # https://docs.slack.dev/reference/methods/chat.startStream
    "chat.appendStream": 4,  # https://docs.slack.dev/reference/methods/chat.appendStream
    "chat.stopStream": 2,  # https://api.slack.com/methods/chat.stopStream, "Tier 2"
    "files.getUploadURLExternal": 4,  # https://api.slack.com/methods/files.getUploadURLExternal
}
PER_CHANNEL_SECOND = frozenset({"chat.postMessage"})
"""Special tier: "one message per second per channel"
(https://docs.slack.dev/reference/methods/chat.postMessage, "Special rate limits apply")."""


def window_of(method: str) -> tuple[int, float] | None:
    """(calls, seconds) of the method's window, or None for a method the stand-in leaves
    unlimited."""
    if method in PER_CHANNEL_SECOND:
        return 1, 1.0
    tier = METHOD_TIERS.get(method)
    return None if tier is None else (TIER_CALLS[tier], MINUTE)


@dataclass
class TierLimits:
    """The windows of the calls Slack answered, per (app, workspace, method[, channel])."""

    clock: Callable[[], float] | None = None
    """None: tiers off. A test sets it with `enforce`."""
    team: str = "T1"
    refused: int = 0
    """Calls answered 429 for a tier."""
    _windows: dict[tuple[str, ...], deque[float]] = field(default_factory=dict)

    def enforce(self, clock: Callable[[], float]) -> None:
        self.clock = clock

    def retry_after(self, method: str, params: dict[str, Any], token: str) -> int | None:
        """None when the call fits its method's window (and is counted), else the whole
        seconds until it would (Retry-After)."""
        limit = window_of(method)
        if self.clock is None or limit is None:
            return None
        calls, seconds = limit
        now = self.clock()
        key: tuple[str, ...] = (token, self.team, method)
        if method in PER_CHANNEL_SECOND:
            key += (str(params.get("channel") or params.get("channel_id") or ""),)
        window = self._windows.setdefault(key, deque())
        while window and window[0] <= now - seconds:
            window.popleft()
        if len(window) < calls:
            window.append(now)
            return None
        self.refused += 1
        return max(1, math.ceil(window[0] + seconds - now))
