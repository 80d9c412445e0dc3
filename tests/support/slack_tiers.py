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


@dataclass(frozen=True)
class Tier:
    calls: int
    seconds: float
    page: str
    per_channel: bool = False


TIERS: dict[str, Tier] = {
    # "Rate Limits: Special rate limits apply"; one message per second per channel.
    "chat.postMessage": Tier(
        1, 1.0, "https://docs.slack.dev/reference/methods/chat.postMessage", per_channel=True
    ),
    # Tier 3 (https://api.slack.com/methods/chat.update, "Rate limits: Tier 3").
    "chat.update": Tier(50, MINUTE, "https://docs.slack.dev/reference/methods/chat.update"),
    # Tier 2, like chat.stopStream (https://api.slack.com/methods/chat.stopStream).
    "chat.startStream": Tier(
        20, MINUTE, "https://docs.slack.dev/reference/methods/chat.startStream"
    ),
    # "Rate Limits: Tier 4: 100+ per minute".
    "chat.appendStream": Tier(
        100, MINUTE, "https://docs.slack.dev/reference/methods/chat.appendStream"
    ),
    "chat.stopStream": Tier(20, MINUTE, "https://docs.slack.dev/reference/methods/chat.stopStream"),
    # Tier 4 (https://api.slack.com/methods/files.getUploadURLExternal).
    "files.getUploadURLExternal": Tier(
        100, MINUTE, "https://docs.slack.dev/reference/methods/files.getUploadURLExternal"
    ),
}


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
        tier = TIERS.get(method)
        if self.clock is None or tier is None:
            return None
        now = self.clock()
        key: tuple[str, ...] = (token, self.team, method)
        if tier.per_channel:
            key += (str(params.get("channel") or params.get("channel_id") or ""),)
        window = self._windows.setdefault(key, deque())
        while window and window[0] <= now - tier.seconds:
            window.popleft()
        if len(window) < tier.calls:
            window.append(now)
            return None
        self.refused += 1
        return max(1, math.ceil(window[0] + tier.seconds - now))
