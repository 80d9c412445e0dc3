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
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

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

    @property
    def url_private(self) -> str:
        return f"https://files.slack.com/files-pri/T1-{self.id}/{self.name}"

    @property
    def permalink(self) -> str:
        return f"{TEAM_URL}/files/{UPLOADER}/{self.id}/{self.name}"

    @property
    def is_image(self) -> bool:
        return self.content is not None and self.content.startswith(IMAGE_SIGNATURES)

    def answer(self) -> dict[str, Any]:
        """The file object a completed upload answers with (its documented fields)."""
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            "url_private": self.url_private,
            "permalink": self.permalink,
        }


class FileStore:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.files: dict[str, StoredFile] = {}
        self.ready_after = 0.0
        """Seconds after files.completeUploadExternal before blocks may show the file."""
        self.clock = clock
        """Times that processing: a test may swap in a fake clock it advances itself."""

    def start(self, file_id: str, name: str, token: str) -> None:
        self.files[file_id] = StoredFile(file_id, name, token)

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
        """Whether an image block posted with `token` may show the file `slack_file` names."""
        stored = self._named(slack_file)
        if stored is None or stored.completed_at is None or not stored.is_image:
            return False
        if self.clock() < stored.completed_at + self.ready_after:
            return False  # still being processed
        return stored.shared or stored.uploader == token

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
