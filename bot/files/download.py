"""A file a user shared, downloaded with the bot token, or the one reason it was refused.

Slack's file object (https://docs.slack.dev/reference/objects/file-object) names the file's
bytes by `url_private` and `url_private_download`, which answer only a request that carries
"an Authorization header containing a bearer token" of a token with files:read
(https://docs.slack.dev/messaging/working-with-files, "Authentication"); without it Slack
answers its sign-in page, with 200 or as a 302 to `<workspace>.slack.com/?redir=/files-pri/…`
(slackapi/node-slack-sdk#1750, slackapi/bolt-js#2585). So:

- the token goes only to Slack's file hosts (`slack_file_hosts`) or the Slack API host a
  deployment points SLACK_API_URL at, and a redirect is followed only among them: never off
  them, which would hand the token to whoever the Location names. Slack's are
  files.slack.com (the file object's `url_private`), and the hosts Slack is reported to
  redirect a file to: files-origin.slack.com on Enterprise Grid
  (NousResearch/hermes-agent#114483) and slack-files.com for a PDF's `url_private`
  (curie-eng/curie#2718). GovSlack "does not run on the slack.com domain. Instead, it runs on
  the separate domain slack-gov.com" and its data is isolated from commercial Slack
  (https://api.slack-gov.com/gov-slack/about): a deployment whose SLACK_API_URL is on
  slack-gov.com trusts files.slack-gov.com, and none of commercial Slack's hosts;
- the size is checked from the file object before a byte is read, then again while the
  body streams, as decoded (a file object can understate, a body can be endless, and a
  compressed one can inflate a thousandfold);
- what comes back must be the file: not the sign-in page, and of the kind its name,
  its mimetype and its first bytes agree on (`formats`);
- and one the research can read within its memory limits (`engine.documents.over_limits`:
  an Office package whose parts inflate to gigabytes, a workbook whose cells span the
  grid), checked off the event loop: refused here, it never becomes a source of the
  conversation, so no later question there reads it again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from enum import StrEnum
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx
from pydantic import BaseModel, ConfigDict

from bot.files.formats import (
    bytes_agree,
    kind_of_name,
    looks_like_login_page,
    mimetype_agrees,
)
from engine.documents import DocumentKind, over_limits
from engine.sources import FetchError
from engine.sources.web import ACCEPT_ENCODING, content_decoder, read_capped

log = logging.getLogger(__name__)

SLACK_FILE_HOSTS = frozenset({"files.slack.com", "files-origin.slack.com", "slack-files.com"})
"""Commercial Slack's file hosts (see the module's docstring for where each is named)."""
GOVSLACK_FILE_HOSTS = frozenset({"files.slack-gov.com"})
GOVSLACK_DOMAIN = "slack-gov.com"
MAX_REDIRECTS = 3
DEFAULT_MAX_BYTES = 25 * 1024 * 1024
"""FONTE_SLACK_FILE_MB, 25 by default."""


class SharedFile(BaseModel):
    """What the bot reads of a Slack file object (the rest it ignores)."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    title: str = ""
    mimetype: str = ""
    filetype: str = ""
    size: int = 0
    url_private_download: str = ""
    permalink: str = ""

    @classmethod
    def from_slack(cls, file: dict[str, Any]) -> SharedFile:
        """A file object of a `file_share` message's `files`. An object with only an id
        (Slack Connect files, `"file_access": "check_file_info"`) keeps empty fields and
        is refused as not downloadable."""
        size = file.get("size")
        return cls(
            id=str(file.get("id", "")),
            name=str(file.get("name") or file.get("title") or file.get("id") or "file"),
            title=str(file.get("title") or ""),
            mimetype=str(file.get("mimetype") or ""),
            filetype=str(file.get("filetype") or ""),
            size=size if isinstance(size, int) and size >= 0 else 0,
            url_private_download=str(
                file.get("url_private_download") or file.get("url_private") or ""
            ),
            permalink=str(file.get("permalink") or ""),
        )


class Reason(StrEnum):
    """Why a shared file is not kept: each has its one line in the user's language."""

    too_big = "too_big"
    not_supported = "not_supported"
    not_downloaded = "not_downloaded"
    login_page = "login_page"
    over_limit = "over_limit"


@dataclass(frozen=True)
class FileRefusal:
    file: SharedFile
    reason: Reason


@dataclass(frozen=True)
class Downloaded:
    file: SharedFile
    content: bytes
    kind: DocumentKind


UrlOrigin = tuple[str, str, int]


def _origin_of(url: str) -> UrlOrigin | None:
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname.lower(), port


def slack_file_hosts(api_url: str | None) -> frozenset[str]:
    """Slack's file hosts for a deployment: GovSlack's when its API is on slack-gov.com,
    commercial Slack's otherwise."""
    configured = _origin_of(api_url) if api_url else None
    host = configured[1] if configured is not None else ""
    on_gov = host == GOVSLACK_DOMAIN or host.endswith(f".{GOVSLACK_DOMAIN}")
    return GOVSLACK_FILE_HOSTS if on_gov else SLACK_FILE_HOSTS


def trusted_origins(api_url: str | None) -> frozenset[UrlOrigin]:
    """Where the token may go for a file, and a redirect be followed: Slack's file hosts over
    https (`slack_file_hosts`), and the host SLACK_API_URL names when a deployment sets it
    (the loopback stand-in in the tests)."""
    origins: set[UrlOrigin] = {("https", host, 443) for host in slack_file_hosts(api_url)}
    configured = _origin_of(api_url) if api_url else None
    if configured is not None:
        origins.add(configured)
    return frozenset(origins)


def check_before(file: SharedFile, max_bytes: int) -> Reason | None:
    """What can be refused from the file object alone, before any download."""
    if not file.url_private_download:
        return Reason.not_downloaded
    kind = kind_of_name(file.name)
    if kind is None or not mimetype_agrees(kind, file.mimetype):
        return Reason.not_supported
    if file.size > max_bytes:
        return Reason.too_big
    return None


async def download(
    file: SharedFile,
    token: str,
    *,
    origins: frozenset[UrlOrigin],
    max_bytes: int = DEFAULT_MAX_BYTES,
    client: httpx.AsyncClient | None = None,
    seconds: float = 60.0,
) -> Downloaded | FileRefusal:
    """The file's bytes, or why it is not kept (`seconds`: the client's timeout when
    none is given)."""
    refused = check_before(file, max_bytes)
    if refused is not None:
        return FileRefusal(file, refused)
    kind = kind_of_name(file.name)
    assert kind is not None  # check_before refused every other name
    own = client is None
    http = client or httpx.AsyncClient(timeout=seconds, follow_redirects=False)
    try:
        body = await _fetch(http, file.url_private_download, token, origins, max_bytes)
    except httpx.HTTPError:
        return FileRefusal(file, Reason.not_downloaded)
    finally:
        if own:
            await http.aclose()
    if isinstance(body, Reason):
        return FileRefusal(file, body)
    if looks_like_login_page(body, kind):
        return FileRefusal(file, Reason.login_page)
    if not body:
        return FileRefusal(file, Reason.not_downloaded)
    if not bytes_agree(kind, body):
        return FileRefusal(file, Reason.not_supported)
    over = await asyncio.to_thread(over_limits, body, kind)
    if over is not None:
        log.info("shared file %s %s", file.id, over)
        return FileRefusal(file, Reason.over_limit)
    return Downloaded(file, body, kind)


async def _fetch(
    http: httpx.AsyncClient, url: str, token: str, origins: frozenset[UrlOrigin], max_bytes: int
) -> bytes | Reason:
    """GET `url` with the token, following redirects among `origins` only."""
    for _ in range(MAX_REDIRECTS + 1):
        if _origin_of(url) not in origins:
            return Reason.not_downloaded  # never send the token elsewhere
        headers = {"Authorization": f"Bearer {token}", "Accept-Encoding": ACCEPT_ENCODING}
        async with http.stream("GET", url, headers=headers, follow_redirects=False) as answer:
            if answer.is_redirect:
                location = answer.headers.get("location", "")
                target = urljoin(url, location)
                if _origin_of(target) in origins:
                    url = target
                    continue
                # Slack's sign-in redirect names the file it would return to (?redir=).
                return Reason.login_page if "redir=" in location else Reason.not_downloaded
            if answer.status_code != 200:
                return Reason.not_downloaded
            declared = answer.headers.get("content-length", "")
            if declared.isdigit() and int(declared) > max_bytes:
                return Reason.too_big
            # The raw body, decoded here a piece at a time under the cap: httpx would inflate a
            # 1.6 kB brotli chunk to gigabytes before a byte of it could be counted.
            try:
                decoder = content_decoder(answer.headers.get("content-encoding"))
                body = await read_capped(answer.aiter_raw(), decoder, max_bytes + 1, cut=True)
            except FetchError:  # an encoding it did not ask for, or a corrupt body
                return Reason.not_downloaded
            return Reason.too_big if len(body) > max_bytes else body
    return Reason.not_downloaded
