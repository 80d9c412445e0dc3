"""A Slack Web API stand-in on 127.0.0.1: answers like Slack, records every call.

It speaks enough of the API for the bot: auth.test, chat.postMessage/update/postEphemeral,
views.open, and the files_upload_v2 sequence (files.getUploadURLExternal, the upload POST to
the URL it handed out, files.completeUploadExternal). `fail_next` makes a method answer
429 with Retry-After (or any status) a given number of times.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

BOT_USER = "UBOT"


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 200
    at: float = field(default_factory=time.monotonic)

    def blocks(self) -> list[dict[str, Any]]:
        raw = self.params.get("blocks") or []
        return json.loads(raw) if isinstance(raw, str) else list(raw)

    def text_of_blocks(self) -> str:
        return json.dumps(self.blocks(), ensure_ascii=False)


@dataclass
class Failure:
    status: int
    retry_after: int | None


class SlackStub:
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.uploads: dict[str, bytes] = {}
        self._failures: dict[str, list[Failure]] = {}
        self.channels_without_bot: set[str] = set()
        """chat.postMessage to these answers not_in_channel, as Slack does."""
        self._numbers = count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._changed = asyncio.Event()

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    async def start(self) -> SlackStub:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_post("/respond/{command}", self._respond)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def fail_next(
        self, method: str, times: int = 1, status: int = 429, retry_after: int | None = 0
    ) -> None:
        self._failures.setdefault(method, []).extend([Failure(status, retry_after)] * times)

    def calls_to(self, method: str, ok_only: bool = True) -> list[Call]:
        return [c for c in self.calls if c.method == method and (c.status == 200 or not ok_only)]

    async def wait_for(
        self, predicate: Callable[[], Any], within: float = 15.0, what: str = "condition"
    ) -> Any:
        """Wait until `predicate()` returns something truthy; return it."""
        deadline = time.monotonic() + within
        while True:
            found = predicate()
            if found:
                return found
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                methods = [c.method for c in self.calls]
                raise AssertionError(f"timed out waiting for {what}; calls: {methods}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.2))

    def _record(self, call: Call) -> None:
        self.calls.append(call)
        self._changed.set()

    async def _params(self, request: web.Request) -> dict[str, Any]:
        raw = await request.read()
        if request.content_type == "application/json":
            params: dict[str, Any] = json.loads(raw or b"{}")
        else:
            params = dict(parse_qsl(raw.decode("utf-8")))
        params.update({k: v for k, v in request.query.items() if k not in params})
        return params

    async def _api(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        params = await self._params(request)
        failures = self._failures.get(method)
        if failures:
            failure = failures.pop(0)
            self._record(Call(method, params, status=failure.status))
            headers = (
                {} if failure.retry_after is None else {"Retry-After": str(failure.retry_after)}
            )
            return web.json_response(
                {"ok": False, "error": "ratelimited"}, status=failure.status, headers=headers
            )
        self._record(Call(method, params))
        return web.json_response(self._answer(method, params))

    def response_url(self, command: str = "c1") -> str:
        """A slash command's response_url, answered (and recorded as "response_url") here."""
        return f"{self.base_url}/respond/{command}"

    async def _respond(self, request: web.Request) -> web.Response:
        self._record(Call("response_url", await self._params(request)))
        return web.Response(text="ok")

    def _answer(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        number = next(self._numbers)
        if method == "chat.postMessage" and params.get("channel") in self.channels_without_bot:
            return {"ok": False, "error": "not_in_channel"}
        if method == "auth.test":
            return {
                "ok": True,
                "url": "https://fonte-test.slack.com/",
                "team": "Fonte",
                "user": "fonte",
                "team_id": "T1",
                "user_id": BOT_USER,
                "bot_id": "BBOT",
            }
        if method == "chat.postMessage":
            ts = f"{1_700_000_000 + number}.000100"
            return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": {}}
        if method == "chat.update":
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": f"{1_700_000_000 + number}.000200"}
        if method == "views.open":
            return {"ok": True, "view": {"id": f"V{number}"}}
        if method == "files.getUploadURLExternal":
            file_id = f"F{number}"
            return {
                "ok": True,
                "upload_url": f"{self.base_url}/upload/{file_id}",
                "file_id": file_id,
            }
        if method == "files.completeUploadExternal":
            files = params.get("files")
            listed = json.loads(files) if isinstance(files, str) else files or []
            return {"ok": True, "files": [{"id": f["id"], "title": f.get("title")} for f in listed]}
        return {"ok": True}

    async def _upload(self, request: web.Request) -> web.Response:
        file_id = request.match_info["file_id"]
        self.uploads[file_id] = await request.read()
        self._record(Call("upload", {"file_id": file_id}))
        return web.Response(text=f"OK - {len(self.uploads[file_id])}")
