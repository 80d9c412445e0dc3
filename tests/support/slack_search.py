"""The stand-in's workspace for Slack's Real-time Search API: the messages and files people
wrote, who can read them, and `assistant.search.context` answering as its pages say.

Pages (read 2026-12):
- method: https://docs.slack.dev/reference/methods/assistant.search.context ("METHOD")
- guide: https://docs.slack.dev/apis/web-api/real-time-search-api ("GUIDE")
- scopes: https://docs.slack.dev/reference/scopes/search.read.public (and .private, .im,
  .mpim, .files)

A test adds channels (`channel`), messages (`message`) and files (`file`), and hands out the
action token an event carries (`action_token`: the user and the conversation it was minted
in). `scopes` is what the app was installed with; `clock` drives the per-user rate limit.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any, Literal

ChannelType = Literal["public_channel", "private_channel", "mpim", "im"]

METHOD = "assistant.search.context"
TEAM = "T1"
WORKSPACE_URL = "https://fonte-test.slack.com"

# METHOD, "Scopes": a bot token has search:read.public, .files and .users; the private,
# mpim and im scopes are user-token scopes (GUIDE, "Required Scopes", Token Type Allowed).
BOT_SCOPES = frozenset({"search:read.public", "search:read.files", "search:read.users"})
# GUIDE, "Required Scopes": the scope each channel type needs.
SCOPE_OF_TYPE: dict[str, str] = {
    "public_channel": "search:read.public",
    "private_channel": "search:read.private",
    "mpim": "search:read.mpim",
    "im": "search:read.im",
}
CHANNEL_TYPES = tuple(SCOPE_OF_TYPE)
CONTENT_TYPES = ("messages", "files", "channels", "users")
# METHOD, "limit": "Number of results to return, up to a max of 20. Defaults to 20."
MAX_LIMIT = 20
# METHOD, "Rate limiting": "an additional user-level limit of 10 requests per minute with
# burst"; paginated requests count toward it. The stand-in refuses the 11th within 60 s.
USER_CALLS_PER_MINUTE = 10
# METHOD, "Search capabilities": keyword search is the default; "results must include the
# keywords specified in the query" and stemming is supported ("plan" matches "planning").
# GUIDE, "Advanced query patterns with OR operator": `budget OR finance` matches either.
_WORD = re.compile(r"\w+", re.UNICODE)
_OR = re.compile(r"\s+OR\s+")
# Words a keyword search drops (question words and connectors carry no keyword).
_STOP = frozenset(
    "a an and are as at be by de did do does da das do dos e em for from how in is it na nas "
    "no nos o of on or os para por qual quais que the to was were what when where which who "
    "why with".split()
)


def _stem(word: str) -> str:
    """A crude stem: case folded, common endings off (stemming is supported, METHOD)."""
    word = word.casefold()
    for ending in ("ing", "es", "s", "ed"):
        if len(word) > len(ending) + 3 and word.endswith(ending):
            stem = word[: -len(ending)]
            doubled = stem[-1] == stem[-2] and stem[-1] not in "aeiou"
            return stem[:-1] if doubled else stem  # "planning" -> "plan"
    return word


def _keywords(text: str) -> set[str]:
    return {_stem(w) for w in _WORD.findall(text) if w.casefold() not in _STOP}


@dataclass
class Channel:
    id: str
    name: str
    type: ChannelType
    members: set[str] = field(default_factory=set)
    connect: bool = False
    """A Slack Connect channel (GUIDE, "Use in public channels")."""


@dataclass
class Item:
    """A message or a file someone shared, in a channel."""

    kind: Literal["messages", "files"]
    channel: str
    author: str
    author_name: str
    ts: str
    content: str
    title: str = ""
    file_type: str = "text/plain"
    is_bot: bool = False
    file_id: str = ""


@dataclass(frozen=True)
class Minted:
    """An action token: who the event was from and the conversation it came in."""

    user: str
    channel: str


@dataclass
class Answer:
    """What the method answers: HTTP status, JSON body, headers."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


class SearchWorkspace:
    """The workspace assistant.search.context searches, and its rules."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.channels: dict[str, Channel] = {}
        self.items: list[Item] = []
        self.scopes: set[str] = {"search:read.public", "search:read.files"}
        """The search scopes the app was installed with (the manifest's bot scopes)."""
        self.tokens: dict[str, Minted] = {}
        self.clock = clock
        self.calls: dict[str, list[float]] = {}
        self.semantic = False
        """Slack AI Search on the plan (METHOD, "Semantic search"); off, keyword search."""
        self._numbers = count(1)

    # -- what a test sets up ---------------------------------------------------------------

    def channel(
        self,
        channel_id: str,
        name: str,
        kind: ChannelType = "public_channel",
        members: set[str] | None = None,
        connect: bool = False,
    ) -> Channel:
        made = Channel(channel_id, name, kind, set(members or ()), connect)
        self.channels[channel_id] = made
        return made

    def message(
        self, channel: str, author: str, text: str, name: str = "", is_bot: bool = False
    ) -> str:
        """A message in `channel`; returns its permalink."""
        ts = f"{1_690_000_000 + next(self._numbers)}.000100"
        self.items.append(
            Item("messages", channel, author, name or author, ts, text, is_bot=is_bot)
        )
        return self.permalink(self.items[-1])

    def file(
        self, channel: str, author: str, title: str, text: str, file_type: str = "text/plain"
    ) -> str:
        """A file shared in `channel` whose text the search reads; returns its permalink."""
        number = next(self._numbers)
        ts = f"{1_690_000_000 + number}.000200"
        item = Item(
            "files", channel, author, author, ts, text, title, file_type, False, f"F9{number}"
        )
        self.items.append(item)
        return self.permalink(item)

    def action_token(self, user: str, channel: str) -> str:
        """The token a message event in `channel` from `user` carries (GUIDE, "Using the
        action_token")."""
        token = f"{next(self._numbers)}.{user}.act"
        self.tokens[token] = Minted(user, channel)
        return token

    def expire(self, token: str) -> None:
        """The token is short-lived (data access guide): used late, it is not valid."""
        self.tokens.pop(token, None)

    # -- the method ------------------------------------------------------------------------

    def permalink(self, item: Item) -> str:
        if item.kind == "files":
            return f"{WORKSPACE_URL}/files/{item.author}/{item.file_id}/{_slug(item.title)}"
        return f"{WORKSPACE_URL}/archives/{item.channel}/p{item.ts.replace('.', '')}"

    def answer(self, params: dict[str, Any], token: str) -> Answer:
        """assistant.search.context, with its errors (METHOD, "Errors")."""
        if not token:
            return _error("not_authed")
        if not token.startswith("xoxb-"):
            return _error("invalid_auth")  # the stand-in app has a bot token only
        # "All API calls made using a bot token require an action_token" (GUIDE); the page
        # names no other error for a missing one than the token not being valid.
        minted = self.tokens.get(str(params.get("action_token") or ""))
        if minted is None:
            return _error("invalid_action_token")
        query = str(params.get("query") or "").strip()
        if not query:
            return _error("missing_query")
        channel_types = _listed(params.get("channel_types"), "public_channel")
        content_types = _listed(params.get("content_types"), "messages")
        if any(t not in CHANNEL_TYPES for t in channel_types) or any(
            t not in CONTENT_TYPES for t in content_types
        ):
            return _error("invalid_arguments")
        needed = [SCOPE_OF_TYPE[t] for t in channel_types]
        needed += ["search:read.files"] if "files" in content_types else []
        # A user-token scope never reaches a bot token, whatever was installed.
        granted = self.scopes & BOT_SCOPES
        missing = [scope for scope in needed if scope not in granted]
        if missing:  # "The requested channel types are not allowed by the provided scopes."
            provided = ",".join(sorted(granted))
            return _error("missing_scope", needed=missing[0], provided=provided)
        if not self._within_rate(minted.user):
            # "The request has been ratelimited. Refer to the Retry-After header" (METHOD);
            # HTTP 429 (https://docs.slack.dev/apis/web-api/rate-limits).
            return Answer(429, {"ok": False, "error": "ratelimited"}, {"Retry-After": "60"})
        try:
            limit = min(int(params.get("limit") or MAX_LIMIT), MAX_LIMIT)
            start = int(str(params.get("cursor") or "0") or "0")
        except ValueError:
            return _error("invalid_cursor")
        found = self._found(query, minted, set(channel_types), set(content_types), params)
        page = found[start : start + max(limit, 1)]
        more = start + len(page) < len(found)
        results: dict[str, list[dict[str, Any]]] = {}
        for item in page:
            results.setdefault(item.kind, []).append(self._result(item))
        return Answer(
            200,
            {
                "ok": True,
                "results": results,
                # "If there are additional pages of results, the API will return a value in
                # the next_cursor field; if not, there will be an empty string." (METHOD)
                "response_metadata": {"next_cursor": str(start + len(page)) if more else ""},
            },
        )

    def _within_rate(self, user: str) -> bool:
        now = self.clock()
        recent = [t for t in self.calls.get(user, []) if now - t < 60]
        allowed = len(recent) < USER_CALLS_PER_MINUTE
        self.calls[user] = [*recent, now] if allowed else recent
        return allowed

    def _readable(self, item: Item, minted: Minted, channel_types: set[str]) -> bool:
        """What the search returns of `item`: only content the user can read ("performs the
        search on behalf of the authenticated user", GUIDE) of the requested channel types,
        narrowed by where it was invoked (GUIDE, "Use in public channels")."""
        channel = self.channels.get(item.channel)
        if channel is None:
            return False
        can_read = channel.type == "public_channel" or minted.user in channel.members
        if not can_read:
            return False
        invoked = self.channels.get(minted.channel)
        if invoked is not None and invoked.connect:
            return channel.id == invoked.id  # Slack Connect: only the channel invoked in
        if invoked is not None and invoked.type in ("private_channel", "mpim"):
            # "returns results from only the MPDM/private channel and all public channels"
            return channel.id == invoked.id or channel.type == "public_channel"
        if invoked is not None and invoked.type == "public_channel":
            # "will only return results from public channels, regardless of ... scopes"
            return channel.type == "public_channel"
        return channel.type in channel_types

    def _found(
        self,
        query: str,
        minted: Minted,
        channel_types: set[str],
        content_types: set[str],
        params: dict[str, Any],
    ) -> list[Item]:
        clauses = [_keywords(clause) for clause in _OR.split(query)]
        clauses = [clause for clause in clauses if clause]
        every = set().union(*clauses) if clauses else set()
        include_bots = str(params.get("include_bots", "")).lower() in ("1", "true")
        scored: list[tuple[int, Item]] = []
        for item in self.items:
            if item.kind not in content_types or (item.is_bot and not include_bots):
                continue
            if item.kind == "files" and not item.file_type.startswith("text/"):
                continue  # "Non-text files ... are excluded from the results" (METHOD)
            if not self._readable(item, minted, channel_types):
                continue
            words = _keywords(f"{item.title} {item.content}")
            if any(clause <= words for clause in clauses):
                # A result includes every keyword of one of the query's OR clauses; the
                # more of the query's keywords it has, the more relevant (METHOD, "Keyword
                # search": "the most relevant results based on ... the keyword hits").
                scored.append((len(every & words), item))
        if str(params.get("sort")) == "timestamp":
            ordered = sorted(scored, key=lambda pair: pair[1].ts, reverse=True)
        else:  # "Defaults to score", sort_dir "Defaults to desc" (METHOD)
            ordered = sorted(scored, key=lambda pair: (-pair[0], pair[1].ts))
        return [item for _, item in ordered]

    def _result(self, item: Item) -> dict[str, Any]:
        """A result in the shape of the method's example response (METHOD, "Response")."""
        channel = self.channels[item.channel]
        if item.kind == "files":
            created = int(float(item.ts))
            return {
                "uploader_user_id": item.author,
                "author_user_id": item.author,
                "author_name": item.author_name,
                "team_id": TEAM,
                "file_id": item.file_id,
                "date_created": created,
                "date_updated": created,
                "title": item.title,
                "file_type": item.file_type,
                "permalink": self.permalink(item),
                "content": item.content,
            }
        return {
            "author_name": item.author_name,
            "author_user_id": item.author,
            "team_id": TEAM,
            "channel_id": channel.id,
            "channel_name": channel.name,
            "message_ts": item.ts,
            "content": item.content,
            "is_author_bot": item.is_bot,
            "permalink": self.permalink(item),
        }


def _listed(raw: Any, default: str) -> list[str]:
    """An array argument, sent as a JSON list or "a comma-separated list" (METHOD)."""
    if raw is None or raw == "" or raw == []:
        return [default]
    if isinstance(raw, list):
        return [str(value).strip() for value in raw]
    return [value.strip() for value in str(raw).split(",") if value.strip()]


def _error(code: str, **fields: str) -> Answer:
    return Answer(200, {"ok": False, "error": code, **fields})


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", title.casefold()).strip("_") or "file"


__all__ = ["METHOD", "Answer", "SearchWorkspace"]
