"""Slack's own search as a source of a research: the workspace's messages and files, found
by Slack's Real-time Search API (`assistant.search.context`) as the requester may read them.

Pages (read 2026-12): the method, https://docs.slack.dev/reference/methods/assistant.search.context
("METHOD"); the guide, https://docs.slack.dev/apis/web-api/real-time-search-api ("GUIDE").

The rules, each from its page (docs/slack.md, "Slack search as a source", lists them too):

- Off unless FONTE_SLACK_SEARCH is on, and only for a requester who said yes (asked once,
  bot.conversation.slack_search_consent); otherwise no part is added and no call is made.
- The call is the bot token plus the `action_token` of the requester's own message event:
  "All API calls made using a bot token require an action_token" (GUIDE). Without one (a
  slash command carries none) the part makes no call and the report says so.
- `channel_types` is `public_channel` only: the bot token's search scopes are
  search:read.public and search:read.files (METHOD, "Scopes"; the private, mpim and im
  scopes are user-token scopes, GUIDE "Required Scopes"). Invoked from a private channel
  or an MPDM, Slack adds that conversation's own results (GUIDE, "Use in public channels").
- A result is used only where everyone who reads the report could read it: anything in the
  requester's DM with the bot; in a channel, results from that same channel, and others
  only when public — a result from an IM (`D…`) or a private group (`G…`) elsewhere is
  dropped whatever Slack returned ("DON'T expose messages/files to anyone who would not
  have access to them in Slack", GUIDE "General usage guidelines").
- A result is cited by its `permalink` (METHOD: "useful to provide to your users in a
  sources list"), and read as the `content` Slack returned: the snapshot the verifier
  checks each excerpt on, plain text (seen as text). Nothing is kept on disk ("You must
  not store or copy any of the data retrieved from this API", GUIDE "Data privacy"): the
  text lives in this searcher's memory and the run's snapshot store, as every read does.
- At most `CALLS_PER_SEARCHER` calls and `MAX_LIMIT` results a call: "up to a max of 20",
  and "optimize for calling this less than 10 times for a user inquiry" under a user-level
  limit of 10 a minute (METHOD, "Rate limiting"). No retry after 429.
- The query is keywords, formatting stripped (GUIDE, "Limitations"), joined with OR (GUIDE,
  "Advanced query patterns with OR operator"): keyword search needs every keyword of a
  clause in a result (METHOD, "Keyword search").
- Any error (missing_scope, invalid_action_token, ratelimited, …; METHOD, "Errors") ends the
  part for the rest of the research: it makes no more calls, the research goes on with its
  other sources, and the report carries one line saying why (`refused`, recorded on the
  report's state so a worker's failure reaches the report).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import SplitResult, urlsplit

from aiohttp import ClientError
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from engine import Report, Snapshot, split_page
from engine.assembly import SourcePart
from engine.sources import FetchError, Origin, SearchError, SearchHit, SourceKind
from engine.text import collapse_whitespace
from engine.words import words_for

if TYPE_CHECKING:
    from bot.sources.catalog import AskedFor

log = logging.getLogger(__name__)

METHOD = "assistant.search.context"
MAX_LIMIT = 20
"""Results a call asks for at most (METHOD, "limit": "up to a max of 20")."""
CALLS_PER_SEARCHER = 3
"""Calls one searcher (a job's sources) makes at most: well under the user's 10 a minute."""
CHANNEL_TYPES = ("public_channel",)
CONTENT_TYPES = ("messages", "files")
MAX_KEYWORDS = 8
PROVIDER = "slack"

_FORMATTING = re.compile(r"<[^>]*>|[*_~`>]")
_WORD = re.compile(r"[\w.,%$€-]+", re.UNICODE)
_PERMALINK_PATHS = ("/archives/", "/files/", "/lists/", "/docs/")
_NEVER_PUBLIC = ("D", "G")
"""Conversation ids that are never a public channel: an IM, a private group or MPDM."""
_STOP = frozenset(
    "a an and are as at be by da das de did do does dos e em for from how in is it na nas no "
    "nos o of on or os para pelo pela por qual quais quanto quantos que são foi é the to was "
    "were what when where which who why with um uma".split()
)

SearchCall = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
"""assistant.search.context with these arguments: its JSON answer, or `SearchRefused`."""


class SearchRefused(SearchError):
    """Slack answered an error (its code), or did not answer ("unreachable")."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


class ConsentLookup(Protocol):
    """What users said to Slack search (bot.redis.consents.Consents)."""

    async def slack_search(self, user: str) -> bool | None: ...


Refused = Callable[[str, str], Awaitable[None]]
"""(report id, the line for its report): where a failure is recorded."""


def on_slack(url: str) -> SplitResult | None:
    """`url`'s parts when it is on Slack's own hosts (slack.com, a workspace's
    `*.slack.com`), else None."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower()
    return parts if host == "slack.com" or host.endswith(".slack.com") else None


def is_workspace_permalink(url: str) -> bool:
    """A permalink into a Slack workspace: a message's (`/archives/<channel>/p<ts>`, as
    chat.getPermalink gives, https://docs.slack.dev/reference/methods/chat.getPermalink) or
    a file's, list's or canvas's. Only Slack's search part reads one: never the web, which
    would answer Slack's sign-in page and learn a private conversation's address."""
    parts = on_slack(url)
    return parts is not None and parts.path.startswith(_PERMALINK_PATHS)


def keyword_query(text: str) -> str:
    """The keywords of `text`, formatting stripped, stop words out, joined with OR."""
    plain = _FORMATTING.sub(" ", text)
    words: list[str] = []
    for word in _WORD.findall(plain):
        word = word.strip(".,-")
        if len(word) > 1 and word.casefold() not in _STOP and word.casefold() not in words:
            words.append(word.casefold())
    return " OR ".join(words[:MAX_KEYWORDS])


def shareable(channel_id: str, channel: str, is_dm: bool) -> bool:
    """Whether a result from `channel_id` may be used in a report delivered in `channel`:
    anything in the requester's DM, the same conversation's own results, and elsewhere only
    what can be public (an IM's or a private group's never)."""
    if is_dm or not channel_id or channel_id == channel:
        return True
    return not channel_id.startswith(_NEVER_PUBLIC)


def reason_for(code: str, language: str) -> str:
    """The report's one line on why Slack search was not used, in `language`."""
    t = words_for(language).slack
    reasons = t.slack_search_reasons
    known = "ratelimited" if code == "rate_limited" else code
    reason = reasons.get(known) or reasons["other"].format(error=code)
    return t.slack_search_not_used.format(reason=reason)


@dataclass
class SlackSearch:
    """One research's Slack search: a `Search` of kind SLACK and the `Fetcher` of what it
    found, each permalink read as the text Slack returned."""

    call: SearchCall
    asked: AskedFor
    refused: Refused
    name: str = "slack"
    kind = SourceKind.of(Origin.slack)
    calls: int = 0
    found: dict[str, Snapshot] = field(default_factory=dict)
    stopped: bool = False

    def owns(self, url: str) -> bool:
        """What it found, and any workspace permalink: a process whose subagents searched
        elsewhere (a worker's job) still routes the report's citations here, never to the
        web; reading one it did not find fails (`fetch`)."""
        base = split_page(url.strip())[0]
        return base in self.found or is_workspace_permalink(base)

    async def search(self, query: str, limit: int = 10) -> list[SearchHit]:
        if self.stopped or self.asked.slack_search_note is not None:
            return []  # failed once in this research: no call again
        if not self.asked.action_token:
            await self._stop("no_action_token")
            return []
        keywords = keyword_query(query)
        if not keywords or self.calls >= CALLS_PER_SEARCHER:
            return []
        self.calls += 1
        arguments = {
            "query": keywords,
            "action_token": self.asked.action_token,
            "channel_types": ",".join(CHANNEL_TYPES),
            "content_types": ",".join(CONTENT_TYPES),
            "limit": min(max(limit, 1), MAX_LIMIT),
        }
        try:
            answer = await self.call(arguments)
        except SearchRefused as refusal:
            await self._stop(refusal.code)
            return []
        return self._hits(answer.get("results") or {})

    async def fetch(self, url: str) -> Snapshot:
        snapshot = self.found.get(split_page(url.strip())[0])
        if snapshot is None:
            raise FetchError(f"Slack search did not return {url} in this research")
        return snapshot

    async def _stop(self, code: str) -> None:
        self.stopped = True
        log.warning("report %s: Slack search refused (%s)", self.asked.report_id, code)
        await self.refused(self.asked.report_id, reason_for(code, self.asked.language))

    def _hits(self, results: dict[str, Any]) -> list[SearchHit]:
        hits: list[SearchHit] = []
        for result in [*(results.get("messages") or []), *(results.get("files") or [])]:
            snapshot = self._snapshot(result)
            if snapshot is None:
                continue
            self.found[snapshot.url] = snapshot
            hits.append(
                SearchHit(
                    url=snapshot.url,
                    title=snapshot.title,
                    snippet=collapse_whitespace(snapshot.text)[:300],
                    rank=len(hits) + 1,
                    provider=PROVIDER,
                    passage=snapshot.text,
                )
            )
        return hits

    def _snapshot(self, result: dict[str, Any]) -> Snapshot | None:
        """A result as the text Slack returned, or None when it has no permalink or text,
        or may not be shown where the report goes (`shareable`)."""
        url, text = str(result.get("permalink") or ""), str(result.get("content") or "")
        if not url or not text.strip():
            return None
        channel_id = str(result.get("channel_id") or "")
        if not shareable(channel_id, self.asked.channel, self.asked.is_dm):
            return None
        author = str(result.get("author_name") or result.get("author_user_id") or "")
        if "file_id" in result:
            title = str(result.get("title") or "") or url
            when = result.get("date_updated") or result.get("date_created")
        else:
            where = str(result.get("channel_name") or channel_id)
            title = f"#{where}" + (f" — {author}" if author else "")
            when = result.get("message_ts")
        return Snapshot(
            url=url, text=text, title=title, content_type="text/plain", published=_date(when)
        )


def _date(value: object) -> str:
    """A Unix time (a message ts, a file's date) as an ISO date; "" when there is none."""
    try:
        seconds = float(str(value))
    except ValueError:
        return ""
    return datetime.fromtimestamp(seconds, UTC).date().isoformat()


def web_search_call(token: str, api_url: str | None) -> SearchCall:
    """assistant.search.context through slack_sdk, without retries: a 429 ends Slack search
    for the research rather than waiting (the user-level limit, METHOD "Rate limiting")."""
    base_url = api_url or AsyncWebClient.BASE_URL
    client = AsyncWebClient(token=token, base_url=base_url, retry_handlers=[])

    async def call(arguments: dict[str, Any]) -> dict[str, Any]:
        try:
            response = await client.api_call("assistant.search.context", json=arguments)
        except SlackApiError as error:
            raise SearchRefused(str(error.response.get("error") or "unknown")) from None
        except (ClientError, TimeoutError):
            raise SearchRefused("unreachable") from None
        return dict(response.data) if isinstance(response.data, dict) else {}

    return call


class SlackSearchParts:
    """The Slack search part of each research that may have one (`part_for`)."""

    def __init__(self, call: SearchCall, consents: ConsentLookup, refused: Refused) -> None:
        self._call = call
        self._consents = consents
        self._refused = refused

    async def part_for(self, asked: AskedFor) -> SourcePart | None:
        """The part, or None (no call will be made) when the requester did not consent."""
        if await self._consents.slack_search(asked.requester) is not True:
            return None
        search = SlackSearch(self._call, asked, self._refused)
        return SourcePart(Origin.slack, search, search, ("slack:search",), [], None, search.owns)


def with_search_note(report: Report, note: str | None) -> Report:
    """`report` with the line saying why Slack search was not used, once, among its notes."""
    if not note or note in report.notes:
        return report
    return report.model_copy(update={"notes": [*report.notes, note]})


__all__ = [
    "CALLS_PER_SEARCHER",
    "METHOD",
    "ConsentLookup",
    "SearchCall",
    "SearchRefused",
    "SlackSearch",
    "SlackSearchParts",
    "is_workspace_permalink",
    "keyword_query",
    "on_slack",
    "reason_for",
    "shareable",
    "web_search_call",
    "with_search_note",
]
