"""The files the Slack stand-in holds, and whether a block may show one.

The upload sequence files_upload_v2 makes
(https://docs.slack.dev/messaging/working-with-files#uploading_files):
files.getUploadURLExternal hands out a file id and a URL, the bytes are POSTed to the URL,
and files.completeUploadExternal makes the file exist. "If [channel_id is] not specified the
file will be private" (https://docs.slack.dev/reference/methods/files.completeUploadExternal):
only its uploader, the token that started the upload, can use it.

An image block may show a file (`slack_file`) only if "This file must be an image ... the user
posting these blocks must have access to this file ... Currently only png, jpg, jpeg, and gif
Slack image files are supported", named by its `id` or by a `url` that "can be the
`url_private` or the `permalink` of the Slack file"
(https://docs.slack.dev/reference/block-kit/composition-objects/slack-file-object).

Not in the docs, but reported by Slack's own SDK maintainers: a completed upload is processed
asynchronously, and blocks that name it are refused until it is (a pause of about a second,
or polling files.info until its mimetype is set, makes them pass: slackapi/python-slack-sdk#1521,
slackapi/java-slack-sdk#1349, slackapi/slack-github-action#413). `ready_after` models that
delay; it is 0 unless a test sets it. Refusals read as those reports quote them:
"invalid slack file [json-pointer:/blocks/0/slack_file]" (slackapi/python-slack-sdk#1658).

Files a *user* shares (`share`, then `file_share_event`): Slack tells the app with a `message`
event of subtype `file_share` whose `files` holds file objects
(https://docs.slack.dev/reference/events/message/file_share, fields as
https://docs.slack.dev/reference/objects/file-object). Their `url_private` and
`url_private_download` point at the stand-in (traffic stays on loopback) and answer only
"an Authorization header containing a bearer token" of a token with files:read
(https://docs.slack.dev/messaging/working-with-files, "Authentication"). Without it Slack
answers its sign-in page: a 302 to `<workspace>.slack.com/?redir=/files-pri/...` with a
"Found" body when no token is sent, an HTML page with 200 otherwise, as reported in
slackapi/node-slack-sdk#1750, slackapi/bolt-js#2585 and slack-go/slack#1284 (`serve`).
files.info (https://docs.slack.dev/reference/methods/files.info, scope files:read) answers
the file object, or file_not_found.

An Enterprise Grid workspace is reported to answer `url_private` on files.slack.com with a
302 to another Slack file host, files-origin.slack.com, which serves the bytes to the same
bearer token (NousResearch/hermes-agent#114483), and a PDF's `url_private` with a 302 to
slack-files.com (curie-eng/curie#2718). `redirect_to` plays that: the file's URL answers a
302 to the same path on that origin, which serves it; `LoopbackHosts` is the test's DNS,
sending those https hosts to the stand-in on loopback (and nothing anywhere else).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx

from tests.support.slack_limits import slack_files

TEAM_URL = "https://fonte-test.slack.com"
UPLOADER = "UBOT"
# The image formats an image block shows, by their first bytes (PNG, JPEG, GIF).
IMAGE_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a")


@dataclass
class StoredFile:
    id: str
    name: str
    uploader: str
    """The token that started the upload: a private file is usable by it alone."""
    content: bytes | None = None
    title: str | None = None
    completed_at: float | None = None
    shared: bool = False
    base_url: str = "https://files.slack.com"
    """Where its bytes are served: the stand-in's own address once it has started."""
    user: str = UPLOADER
    """The Slack user who shared it (the bot for its own uploads)."""
    mimetype: str = ""
    filetype: str = ""
    created: int = 0

    @property
    def url_private(self) -> str:
        return f"{self.base_url}/files-pri/T1-{self.id}/{self.name}"

    @property
    def url_private_download(self) -> str:
        return f"{self.base_url}/files-pri/T1-{self.id}/download/{self.name}"

    @property
    def permalink(self) -> str:
        return f"{TEAM_URL}/files/{self.user}/{self.id}/{self.name}"

    @property
    def is_image(self) -> bool:
        return self.content is not None and self.content.startswith(IMAGE_SIGNATURES)

    def answer(self) -> dict[str, Any]:
        """The file object a completed upload answers with (its documented fields)."""
        return {
            "id": self.id,
            "created": self.created,
            "timestamp": self.created,
            "name": self.name,
            "title": self.title,
            "mimetype": self.mimetype,
            "filetype": self.filetype,
            "user": self.user,
            "size": len(self.content or b""),
            "mode": "hosted",
            "is_external": False,
            "is_public": self.shared,
            "url_private": self.url_private,
            "url_private_download": self.url_private_download,
            "permalink": self.permalink,
        }


class FileStore:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.files: dict[str, StoredFile] = {}
        self.ready_after = 0.0
        """Seconds after files.completeUploadExternal before blocks may show the file."""
        self.clock = clock
        """Times that processing: a test may swap in a fake clock it advances itself."""
        self.base_url = "https://files.slack.com"
        """The stand-in's address, set when it starts: file URLs point at it."""
        self.redirect_to: str | None = None
        """An origin (`https://files-origin.slack.com`) the file URLs redirect to, as on
        Enterprise Grid; the stand-in serves the file when asked there."""
        self._shared = 0

    def start(self, file_id: str, name: str, token: str) -> None:
        self.files[file_id] = StoredFile(file_id, name, token, base_url=self.base_url)

    def receive(self, file_id: str, content: bytes) -> None:
        stored = self.files.get(file_id)
        if stored is not None:
            stored.content = content

    def complete(self, listed: list[dict[str, Any]], shared: bool) -> list[dict[str, Any]]:
        """Complete the listed uploads ({"id", "title"}); the answer's `files`."""
        completed = []
        for item in listed:
            stored = self.files.get(str(item.get("id")))
            if stored is None:
                continue
            stored.title = item.get("title")
            stored.completed_at = self.clock()
            stored.shared = stored.shared or shared
            completed.append(stored.answer())
        return completed

    def usable(self, slack_file: dict[str, Any], token: str) -> bool:
        """Whether an image block posted with `token` may show the file `slack_file` names.

        Only a file shared in a conversation: "the user posting these blocks must have
        access to this file" (slack-file-object), and real workspaces refuse a private
        upload (one completed without channel_id) in messages and in modals alike, even to
        the token that uploaded it, with "invalid slack file" (slackapi/bolt-python#1251,
        slackapi/python-slack-sdk#1658; "without the channel ID, only the bot would have
        access", slackapi/java-slack-sdk#1349). Shared in the conversation where the blocks
        are seen, it shows once processed. The stand-in does not track who can see which
        conversation: any shared file counts as visible to the viewer."""
        stored = self._named(slack_file)
        if stored is None or stored.completed_at is None or not stored.is_image:
            return False
        if self.clock() < stored.completed_at + self.ready_after:
            return False  # still being processed
        return stored.shared

    def refusals(self, blocks: list[dict[str, Any]], token: str, prefix: str = "") -> list[str]:
        """What Slack says of each image block whose file cannot be shown; `prefix` is
        "/view" for a view's blocks."""
        return [
            f"invalid slack file [json-pointer:{prefix}{pointer}]"
            for pointer, named in slack_files(blocks)
            if not self.usable(named, token)
        ]

    def _named(self, slack_file: dict[str, Any]) -> StoredFile | None:
        if "id" in slack_file:
            return self.files.get(str(slack_file["id"]))
        url = str(slack_file.get("url", ""))
        return next((f for f in self.files.values() if url in (f.url_private, f.permalink)), None)

    # -- files users share (see the module's docstring) ------------------------------------

    def share(
        self,
        user: str,
        name: str,
        content: bytes,
        mimetype: str,
        filetype: str = "",
        title: str | None = None,
    ) -> StoredFile:
        """A file `user` uploaded into a conversation: completed and shared at once."""
        self._shared += 1
        file_id = f"FU{self._shared:04d}"
        stored = StoredFile(
            file_id,
            name,
            f"user:{user}",
            content=content,
            title=title or name,
            completed_at=self.clock(),
            shared=True,
            base_url=self.base_url,
            user=user,
            mimetype=mimetype,
            filetype=filetype or name.rsplit(".", 1)[-1].lower(),
            created=1_700_000_000 + self._shared,
        )
        self.files[file_id] = stored
        return stored

    def info(self, params: dict[str, Any], token: str) -> dict[str, Any]:
        """files.info: the file object, comments and a cursor, or file_not_found."""
        stored = self.files.get(str(params.get("file", "")))
        if stored is None or stored.completed_at is None or not self._readable(stored, token):
            return {"ok": False, "error": "file_not_found"}
        return {
            "ok": True,
            "file": stored.answer(),
            "comments": [],
            "response_metadata": {"next_cursor": ""},
        }

    def serve(
        self, ref: str, tail: str, authorization: str, granted: set[str], host: str = ""
    ) -> FileAnswer:
        """GET url_private (`/files-pri/T1-<id>/<name>`) or url_private_download
        (`.../download/<name>`): the bytes to a bearer token with files:read that may see
        the file; Slack's sign-in page, or a redirect to it, to anyone else. With
        `redirect_to`, a GET not already addressed (`host`) to that origin is sent there."""
        if self.redirect_to is not None and host != httpx.URL(self.redirect_to).host:
            location = f"{self.redirect_to}/files-pri/{ref}/{tail}"
            return FileAnswer(302, "text/html", b"", location)
        file_id = ref.removeprefix("T1-")
        stored = self.files.get(file_id)
        name = tail.removeprefix("download/")
        if stored is None or stored.content is None or name != stored.name:
            return FileAnswer(404, "text/html", b"<html><body>Not found</body></html>")
        if not authorization.startswith("Bearer "):
            redir = quote(f"/files-pri/{ref}/{tail}", safe="")
            location = f"{TEAM_URL}/?redir={redir}"
            body = f'<a href="{location}">Found</a>.'.encode()
            return FileAnswer(302, "text/html", body, location)
        token = authorization.removeprefix("Bearer ").strip()
        allowed = token.startswith(("xoxb-", "xoxp-")) and "files:read" in granted
        if not allowed or not self._readable(stored, token):
            return FileAnswer(200, "text/html; charset=utf-8", SIGN_IN_PAGE)
        return FileAnswer(200, stored.mimetype or "application/octet-stream", stored.content)

    @staticmethod
    def _readable(stored: StoredFile, token: str) -> bool:
        return stored.shared or stored.uploader == token


@dataclass(frozen=True)
class FileAnswer:
    """What the file host answers a GET of a file URL."""

    status: int
    content_type: str
    body: bytes
    location: str | None = None


# The shape of the page reported in slackapi/node-slack-sdk#1750 (slack-edge assets), cut
# down; never the file.
SIGN_IN_PAGE = (
    b'<!DOCTYPE html><html lang="en-US"><head><link href="https://a.slack-edge.com/'
    b'style/signin.css" rel="stylesheet"><title>Slack</title></head><body>'
    b"<h1>Sign in to Slack</h1></body></html>"
)


def file_share_event(
    user: str,
    channel: str,
    files: list[StoredFile],
    text: str = "",
    thread_ts: str | None = None,
    ts: str = "1700000500.000100",
    channel_type: str | None = None,
) -> dict[str, Any]:
    """The `message` event of subtype `file_share` Slack sends when `user` shares `files`
    (https://docs.slack.dev/reference/events/message/file_share)."""
    kind = channel_type or {"D": "im", "G": "group"}.get(channel[:1], "channel")
    event: dict[str, Any] = {
        "type": "message",
        "subtype": "file_share",
        "text": text,
        "files": [stored.answer() for stored in files],
        "upload": True,
        "user": user,
        "display_as_bot": False,
        "ts": ts,
        "channel": channel,
        "event_ts": ts,
        "channel_type": kind,
    }
    if thread_ts is not None:
        event["thread_ts"] = thread_ts
        event["parent_user_id"] = user
    return event


class LoopbackHosts(httpx.AsyncBaseTransport):
    """The test's DNS: https requests to `hosts` go to the stand-in at `base_url` (on
    loopback, the Host header kept), every request is recorded in `asked` ("host bearer"),
    and a host not listed is unreachable, as no network beyond loopback is."""

    def __init__(self, base_url: str, hosts: set[str]) -> None:
        self._base = httpx.URL(base_url)
        self._hosts = hosts
        self._http = httpx.AsyncHTTPTransport()
        self.asked: list[str] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.host
        self.asked.append(f"{host} {request.headers.get('authorization', '')}".strip())
        if host == self._base.host:
            return await self._http.handle_async_request(request)
        if host not in self._hosts:
            raise httpx.ConnectError(f"{host} is not reachable from the tests", request=request)
        request.url = request.url.copy_with(
            scheme=self._base.scheme, host=self._base.host, port=self._base.port
        )
        request.headers["host"] = host
        return await self._http.handle_async_request(request)

    async def aclose(self) -> None:
        await self._http.aclose()
