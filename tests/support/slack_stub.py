"""A Slack stand-in on 127.0.0.1, strict the way Slack is: answers like Slack, records every
call, and refuses what Slack refuses.

Web API (https://docs.slack.dev/reference/methods): auth.test, chat.postMessage / update /
postEphemeral, views.open / views.update (`slack_views`), the files_upload_v2 sequence
(files.getUploadURLExternal, the upload POST to the URL it handed out,
files.completeUploadExternal; `slack_files`, which also says whether an image block may show
a file), files a user shares (`slack_files.file_share_event`) served at their url_private
to a bearer token with files:read, files.info, users.info (`slack_users`), the
assistant.threads.* methods and agents.sessions.setStatus of the two messaging experiences
(`slack_agents`), streamed messages (chat.startStream /
appendStream / stopStream, `slack_streams`), and apps.connections.open
with a real Socket Mode WebSocket.

Failures a real workspace produces and tests inject:
- `fail_next(method, status=429, retry_after=N)`: rate limited, HTTP 429 with Retry-After
  (https://docs.slack.dev/apis/web-api/rate-limits); `status=500`: a server error;
  `status=200, error="msg_blocks_too_long"`: any `ok: false` answer.
- `revoke("files:write")`: methods needing that scope answer `missing_scope` with `needed`
  and `provided` (https://docs.slack.dev/reference/methods/files.getUploadURLExternal).
- `channels_without_bot`: chat.postMessage there answers `not_in_channel`.
- `files.ready_after = N`: an uploaded file can be shown in blocks only N seconds after its
  upload completed, as Slack processes uploads asynchronously (see `slack_files`).
- `views.close(view_id)`: the user closed a modal; updating it answers `not_found`.

assistant.search.context, Slack's Real-time Search API, searches `slack.search`
(`slack_search.SearchWorkspace`): the workspace's messages and files, as the asking user may
read them, with the method's scopes, action tokens, errors and per-user rate limit.
- `refuse_block_types("data_visualization", "data_table")`: a workspace that does not take
  those blocks (yet): every message naming one answers `invalid_blocks`, its `errors` saying
  "unsupported type: …" as blocks.validate words a type it does not know.

blocks.validate (https://docs.slack.dev/reference/methods/blocks.validate) runs the same
checks (`slack_limits`) that chat.postMessage, chat.update, chat.postEphemeral and the views
methods run on what they are sent.
- `tiers.enforce(clock)`: each method's documented rate-limit tier, per app per workspace,
  on the test's clock; over it, HTTP 429 `ratelimited` with Retry-After (`slack_tiers`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import count
from typing import Any
from urllib.parse import parse_qsl

from aiohttp import web

from tests.support.slack_agents import AgentSurface
from tests.support.slack_canvases import CANVAS_SCOPE, CanvasStore
from tests.support.slack_files import FileStore, file_share_event
from tests.support.slack_limits import (
    MAX_MODAL_BLOCKS,
    block_errors,
    table_refusal,
    total_text,
    validation_errors,
    view_errors,
)
from tests.support.slack_search import METHOD as SEARCH_METHOD
from tests.support.slack_search import SearchWorkspace
from tests.support.slack_socket import APP_ID, SocketModeSide
from tests.support.slack_streams import STREAM_METHODS, StreamStore
from tests.support.slack_tiers import TierLimits
from tests.support.slack_users import UserDirectory
from tests.support.slack_views import ViewStore

BOT_USER = "UBOT"

# Slack's total-text ceiling on a message's blocks is undocumented; bolt users measured
# msg_blocks_too_long from about 11,300 to 13,300 characters depending on the block types
# (slackapi/bolt-js#2509, #2867). The stand-in refuses above 12,000, the figure Slack's
# engineers gave there ("12,000 text characters with a buffer for block containers").
TOTAL_TEXT_CEILING = 12_000
# "Slack will truncate messages containing more than 40,000 characters" and answers
# msg_too_long far above that (https://docs.slack.dev/reference/methods/chat.postMessage).
MAX_MESSAGE_TEXT = 40_000

# Scopes each method needs (each method's page, "Scopes", Bot token).
SCOPES = {
    "chat.postMessage": "chat:write",
    "chat.update": "chat:write",
    "chat.postEphemeral": "chat:write",
    "files.getUploadURLExternal": "files:write",
    "files.completeUploadExternal": "files:write",
    "files.info": "files:read",
    # setStatus takes chat:write or assistant:write (changelog 2026-03-05).
    "assistant.threads.setStatus": "chat:write",
    "assistant.threads.setTitle": "assistant:write",
    "assistant.threads.setSuggestedPrompts": "assistant:write",
    # "Authentication token bearing the chat:write scope" (agents.sessions.setStatus).
    "agents.sessions.setStatus": "chat:write",
    # The streaming methods' pages: Bot token, chat:write (slack_streams).
    "chat.startStream": "chat:write",
    "chat.appendStream": "chat:write",
    "chat.stopStream": "chat:write",
    "canvases.create": CANVAS_SCOPE,  # the report as a canvas (slack_canvases)
    "users.info": "users:read",  # the locale a greeting is worded in (slack_users)
}
# conversations.replies needs the history scope of the conversation's kind
# (https://docs.slack.dev/reference/methods/conversations.replies, "Scopes").
HISTORY_SCOPES = {"C": "channels:history", "G": "groups:history", "D": "im:history"}
GRANTED = {
    "app_mentions:read",
    "channels:history",
    "groups:history",
    "im:history",
    "chat:write",
    "commands",
    "files:write",
    "files:read",
    "assistant:write",
    "canvases:write",
    "users:read",
}


@dataclass
class Call:
    method: str
    params: dict[str, Any]
    status: int = 200
    error: str | None = None
    at: float = field(default_factory=time.monotonic)

    @property
    def ok(self) -> bool:
        return self.status == 200 and self.error is None

    def blocks(self) -> list[dict[str, Any]]:
        raw = self.params.get("blocks") or []
        return json.loads(raw) if isinstance(raw, str) else list(raw)

    def text_of_blocks(self) -> str:
        return json.dumps(self.blocks(), ensure_ascii=False)

    def all_text(self) -> str:
        """Everything a user could read from this call: its text and its blocks."""
        return f"{self.params.get('text', '')} {self.text_of_blocks()}"


@dataclass
class Failure:
    status: int
    retry_after: int | None
    error: str
    matching: Callable[[dict[str, Any]], bool] | None = None


class SlackStub(SocketModeSide):
    def __init__(self) -> None:
        self.calls: list[Call] = []
        self.uploads: dict[str, bytes] = {}
        self._failures: dict[str, list[Failure]] = {}
        self.channels_without_bot: set[str] = set()
        """chat.postMessage to these answers not_in_channel, as Slack does."""
        self.granted: set[str] = set(GRANTED)
        self.text_ceiling = TOTAL_TEXT_CEILING
        self.refused_block_types: frozenset[str] = frozenset()
        """Block types this workspace refuses (`refuse_block_types`)."""
        self._numbers = count(1)
        self._runner: web.AppRunner | None = None
        self.base_url = ""
        self._changed = asyncio.Event()
        SocketModeSide.__init__(self)
        self.prompts_shown: dict[str, list[dict[str, str]]] = {}
        """Suggested prompts a user would see, per channel (see setSuggestedPrompts below)."""
        self.threads: dict[tuple[str, str], list[dict[str, Any]]] = {}
        """Messages the app posted, per (channel, thread ts), as conversations.replies
        returns them."""
        self.files = FileStore()
        self.views = ViewStore(self.files)
        self.streams = StreamStore(self.threads)
        """Streamed messages (`slack_streams`): `slack.streams.enabled = False` is a
        workspace without streaming; `slack.streams.clock` / `lifetime` drive expiry."""
        self.canvases = CanvasStore()
        """Canvases canvases.create made (`slack_canvases`)."""
        self.tiers = TierLimits()
        """Rate-limit tiers, off until a test calls `slack.tiers.enforce(clock)`."""
        self.users = UserDirectory()
        """Members users.info knows (`slack_users`): `slack.users.add("U1", locale=...)`."""
        self.agents = AgentSurface(self.streams)
        """The app's messaging experience (`slack_agents`): `slack.agents.experience` is
        "agent_view" (the manifest's) or "assistant_view"; agent sessions and their stop
        button."""
        self.search = SearchWorkspace()
        """What assistant.search.context finds (`slack_search`)."""

    @property
    def api_url(self) -> str:
        return f"{self.base_url}/api/"

    async def start(self) -> SlackStub:
        app = web.Application()
        app.router.add_post("/api/{method}", self._api)
        app.router.add_get("/api/{method}", self._api)  # conversations.replies is a GET
        app.router.add_post("/upload/{file_id}", self._upload)
        app.router.add_get("/files-pri/{ref}/{tail:.+}", self._file)  # url_private(_download)
        app.router.add_post("/respond/{command}", self._respond)
        app.router.add_get("/link/", self._socket)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base_url = f"http://127.0.0.1:{port}"
        self.files.base_url = self.base_url
        return self

    async def stop(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # -- what tests set up and read -------------------------------------------------------

    def fail_next(
        self,
        method: str,
        times: int = 1,
        status: int = 429,
        retry_after: int | None = 0,
        error: str | None = None,
        matching: Callable[[dict[str, Any]], bool] | None = None,
    ) -> None:
        """The next `times` calls of `method` (those whose params `matching` accepts) fail."""
        default = {429: "ratelimited", 200: "internal_error"}.get(status, "fatal_error")
        failure = Failure(status, retry_after, error or default, matching)
        self._failures.setdefault(method, []).extend([failure] * times)

    def refuse_block_types(self, *kinds: str) -> None:
        """The workspace does not take blocks of these types: messages naming one are
        refused with invalid_blocks (and blocks.validate says so)."""
        self.refused_block_types = frozenset(kinds)

    def revoke(self, scope: str) -> None:
        """The app was installed without `scope`: methods needing it answer missing_scope."""
        self.granted.discard(scope)

    def share_file(
        self,
        user: str,
        channel: str,
        name: str,
        content: bytes,
        mimetype: str,
        *,
        text: str = "",
        thread_ts: str | None = None,
        ts: str = "1700000500.000100",
    ) -> dict[str, Any]:
        """`user` shares a file in `channel` (in `thread_ts`): the message event of subtype
        file_share a test sends (`slack_files.file_share_event`)."""
        stored = self.files.share(user, name, content, mimetype)
        return file_share_event(user, channel, [stored], text, thread_ts, ts)

    def calls_to(self, method: str, ok_only: bool = True) -> list[Call]:
        return [c for c in self.calls if c.method == method and (c.ok or not ok_only)]

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

    def _note(self, method: str, params: dict[str, Any]) -> None:
        self._record(Call(method, params))

    # -- the Web API -----------------------------------------------------------------------

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
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        failures = self._failures.get(method, [])
        failure = next((f for f in failures if f.matching is None or f.matching(params)), None)
        if failure is not None:
            failures.remove(failure)
            self._record(Call(method, params, status=failure.status, error=failure.error))
            headers = (
                {} if failure.retry_after is None else {"Retry-After": str(failure.retry_after)}
            )
            return web.json_response(
                {"ok": False, "error": failure.error}, status=failure.status, headers=headers
            )
        wait = self.tiers.retry_after(method, params, token)
        if wait is not None:  # https://docs.slack.dev/apis/web-api/rate-limits
            self._record(Call(method, params, status=429, error="ratelimited"))
            return web.json_response(
                {"ok": False, "error": "ratelimited"},
                status=429,
                headers={"Retry-After": str(wait)},
            )
        if method == SEARCH_METHOD:  # its own status codes and headers (slack_search)
            searched = self.search.answer(params, token)
            error = None if searched.body["ok"] else str(searched.body["error"])
            self._record(Call(method, params, status=searched.status, error=error))
            return web.json_response(
                searched.body, status=searched.status, headers=searched.headers
            )
        answer = self._answer(method, params, token)
        self._record(Call(method, params, error=None if answer["ok"] else str(answer["error"])))
        return web.json_response(answer)

    def response_url(self, command: str = "c1") -> str:
        """A slash command's response_url, answered (and recorded as "response_url") here."""
        return f"{self.base_url}/respond/{command}"

    async def _respond(self, request: web.Request) -> web.Response:
        self._record(Call("response_url", await self._params(request)))
        return web.Response(text="ok")

    def _refusal(self, method: str, params: dict[str, Any], token: str) -> dict[str, Any] | None:
        """Slack's `ok: false` answers for a request it would refuse, else None."""
        if method == "apps.connections.open":
            # Needs an app-level token (xapp-) with connections:write
            # (https://docs.slack.dev/reference/methods/apps.connections.open).
            return None if token.startswith("xapp-") else {"error": "not_allowed_token_type"}
        needed = SCOPES.get(method)
        if method == "conversations.replies":
            needed = HISTORY_SCOPES.get(str(params.get("channel", "C"))[:1], "channels:history")
        if needed is not None and needed not in self.granted:
            provided = ",".join(sorted(self.granted))
            return {"error": "missing_scope", "needed": needed, "provided": provided}
        # Both answer not_in_channel where the bot is not a member
        # (https://docs.slack.dev/reference/methods/chat.postEphemeral, "Errors").
        member_only = method in ("chat.postMessage", "chat.postEphemeral", "chat.startStream")
        if member_only and params.get("channel") in self.channels_without_bot:
            return {"error": "not_in_channel"}
        streaming = method in STREAM_METHODS or method == "chat.update"
        if streaming and (streamed := self.streams.refusal(method, params)) is not None:
            return streamed
        if method == "blocks.validate":
            return self._validated(params)
        if method in ("chat.postMessage", "chat.update", "chat.postEphemeral"):
            if len(str(params.get("text") or "")) > MAX_MESSAGE_TEXT:
                return {"error": "msg_too_long"}
            blocks = Call(method, params).blocks()
            # Block Kit limits (https://docs.slack.dev/reference/block-kit/blocks), then the
            # files image blocks name (slack_files). invalid_blocks is in each method's
            # "Errors" ("Blocks submitted with this message are not valid").
            problems = block_errors(blocks, refused=self.refused_block_types)
            problems = problems or self.files.refusals(blocks, token)
            if problems:
                return {"error": "invalid_blocks", "errors": problems}
            if (tables := table_refusal(blocks)) is not None:
                return tables
            if total_text(blocks) > self.text_ceiling:
                return {"error": "msg_blocks_too_long"}
        if method.startswith("assistant.threads.") and not params.get("channel_id"):
            return {"error": "channel_not_found"}
        if method == "assistant.threads.setStatus" and "status" not in params:
            return {"error": "invalid_arguments"}
        if method == "assistant.threads.setStatus":
            loading = params.get("loading_messages")
            loading = json.loads(loading) if isinstance(loading, str) else loading or []
            if len(loading) > 10:  # loading_messages: "Maximum of 10 messages"
                return {"error": "invalid_arguments"}
        if method == "assistant.threads.setSuggestedPrompts":
            prompts = params.get("prompts")
            listed = json.loads(prompts) if isinstance(prompts, str) else prompts or []
            if not listed or len(listed) > 4:  # "up to four suggested prompts"
                return {"error": "invalid_arguments"}
        return None

    def _validated(self, params: dict[str, Any]) -> dict[str, Any] | None:
        """blocks.validate (https://docs.slack.dev/reference/methods/blocks.validate): "No
        scopes required"; exactly one of `blocks`, `message` or `view`, each JSON-encoded,
        else invalid_arguments "must provide exactly one of `blocks`, `view`, or `message`";
        a payload that fails is `invalid_<argument>` (invalid_blocks, as the page's example;
        invalid_message, invalid_view as SDKs read them: slack-morphism's blocks.rs) with an
        `errors` array of pointer, code and message; a valid one is {"ok": true}."""
        given = [name for name in ("blocks", "message", "view") if params.get(name)]
        if len(given) != 1:
            exactly = "must provide exactly one of `blocks`, `view`, or `message`"
            return {"error": "invalid_arguments", "response_metadata": {"messages": [exactly]}}
        name = given[0]
        raw = params[name]
        try:
            payload = json.loads(raw) if isinstance(raw, str) else raw
        except ValueError:
            payload = None
        refused = self.refused_block_types
        if name == "blocks" and isinstance(payload, list):
            # A bare array has no surface: a modal's 100 blocks bound it.
            problems = block_errors(payload, MAX_MODAL_BLOCKS, refused, surface=None)
        elif name == "message" and isinstance(payload, dict):
            blocks = payload.get("blocks") or []
            problems = block_errors(blocks, refused=refused) if isinstance(blocks, list) else []
            problems = problems or ([] if isinstance(blocks, list) else ["/blocks: an array"])
        elif name == "view" and isinstance(payload, dict):
            problems = view_errors(payload)
        else:
            problems = [f"/: a JSON {'array' if name == 'blocks' else 'object'}"]
        if not problems:
            return None
        root = {"blocks": "/blocks", "view": "/view"}.get(name, "")
        return {"error": f"invalid_{name}", "errors": validation_errors(problems, root)}

    def _answer(self, method: str, params: dict[str, Any], token: str) -> dict[str, Any]:
        number = next(self._numbers)
        refused = self._refusal(method, params, token)
        if refused is not None:
            return {"ok": False, **refused}
        # Each answer has the shape of the method's documented example response
        # (https://docs.slack.dev/reference/methods/<method>, "Response").
        if method == "auth.test":  # user_id is the bot user Bolt learns its own id from
            return {
                "ok": True,
                "url": "https://fonte-test.slack.com/",
                "team": "Fonte",
                "user": "fonte",
                "team_id": "T1",
                "user_id": BOT_USER,
                "bot_id": "BBOT",
            }
        if method == "apps.connections.open":  # a one-use wss URL; tests speak ws:// on loopback
            ticket = uuid.uuid4().hex
            ws_base = self.base_url.replace("http://", "ws://")
            return {"ok": True, "url": f"{ws_base}/link/?ticket={ticket}&app_id={APP_ID}"}
        if method == "chat.postMessage":  # the new message's ts names it (and its thread)
            ts = f"{1_700_000_000 + number}.000100"
            thread = str(params.get("thread_ts") or ts)
            message: dict[str, Any] = {"type": "message", "ts": ts, "text": params.get("text")}
            metadata = params.get("metadata")
            if metadata:  # https://docs.slack.dev/messaging/message-metadata
                message["metadata"] = (
                    json.loads(metadata) if isinstance(metadata, str) else metadata
                )
            self.threads.setdefault((str(params.get("channel")), thread), []).append(message)
            return {"ok": True, "channel": params.get("channel"), "ts": ts, "message": {}}
        if method == "conversations.replies":
            # The thread's messages; metadata only with include_all_metadata
            # (https://docs.slack.dev/reference/methods/conversations.replies).
            found = self.threads.get((str(params.get("channel")), str(params.get("ts"))))
            if found is None:
                return {"ok": False, "error": "thread_not_found"}
            with_metadata = str(params.get("include_all_metadata")).lower() in ("1", "true")
            listed = [
                m if with_metadata else {k: v for k, v in m.items() if k != "metadata"}
                for m in found
            ]
            return {"ok": True, "messages": listed, "has_more": False}
        if method in STREAM_METHODS:
            streamed = self.streams.answer(method, params, number)
            if method == "chat.stopStream" and streamed.get("ok"):
                self.agents.stream_stopped(self.streams.messages[str(streamed["ts"])], params)
            return streamed
        if method == "chat.update":  # answers the same channel and ts it edited
            return {"ok": True, "channel": params.get("channel"), "ts": params.get("ts")}
        if method == "chat.postEphemeral":  # message_ts only: ephemeral messages have no ts
            return {"ok": True, "message_ts": f"{1_700_000_000 + number}.000200"}
        if method == "users.info":
            return self.users.info(params)
        if method == "views.open":  # the trigger_id's 3-second expiry is not modelled
            return self.views.open(params, token)
        if method == "views.update":
            return self.views.update(params, token)
        if method == "canvases.create":
            return self.canvases.create(params, number)
        if method == "files.info":
            return self.files.info(params, token)
        # files_upload_v2: getUploadURLExternal hands out a URL and a file id, the bytes are
        # POSTed there, completeUploadExternal shares the ids in channel_id / thread_ts
        # (https://docs.slack.dev/messaging/working-with-files#uploading_files).
        if method == "files.getUploadURLExternal":
            file_id = f"F{number}"
            self.files.start(file_id, str(params.get("filename", "")), token)
            return {
                "ok": True,
                "upload_url": f"{self.base_url}/upload/{file_id}",
                "file_id": file_id,
            }
        if method == "assistant.threads.setSuggestedPrompts":
            # "Including [thread_ts] in a call for an agent app will cause the call to
            # silently fail" (docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts):
            # ok, and nothing shown in agent_view; the older experience shows a thread's.
            if self.agents.shows_prompts(params):
                prompts = params.get("prompts")
                listed = json.loads(prompts) if isinstance(prompts, str) else prompts
                self.prompts_shown[str(params["channel_id"])] = list(listed)
            return {"ok": True}
        if method == "agents.sessions.setStatus":
            return self.agents.set_status(params)
        if method == "files.completeUploadExternal":
            files = params.get("files")
            listed = json.loads(files) if isinstance(files, str) else files or []
            # Without channel_id (or channels) "the file will be private".
            in_channel = bool(params.get("channel_id") or params.get("channels"))
            shared = self.files.complete(listed, shared=in_channel)
            if params.get("channel_id"):  # shared in the thread as one message with the files
                thread = (str(params["channel_id"]), str(params.get("thread_ts") or ""))
                message = {
                    "type": "message",
                    "ts": f"{1_700_000_000 + number}.000300",
                    "text": params.get("initial_comment", ""),
                    "files": shared,
                }
                self.threads.setdefault(thread, []).append(message)
            return {"ok": True, "files": shared}
        return {"ok": True}

    async def _file(self, request: web.Request) -> web.Response:
        """A GET of a file's url_private or url_private_download (see `slack_files`),
        recorded as "file_download" with the token it carried."""
        authorization = request.headers.get("Authorization", "")
        ref, tail = request.match_info["ref"], request.match_info["tail"]
        host = request.headers.get("Host", "").split(":")[0]
        answer = self.files.serve(ref, tail, authorization, self.granted, host)
        token = authorization.removeprefix("Bearer ") if authorization else None
        params = {"ref": ref, "tail": tail, "token": token}
        self._record(Call("file_download", params, status=answer.status))
        headers = {"Location": answer.location} if answer.location else {}
        return web.Response(
            status=answer.status,
            body=answer.body,
            headers={"Content-Type": answer.content_type, **headers},
        )

    async def _upload(self, request: web.Request) -> web.Response:
        file_id = request.match_info["file_id"]
        self.uploads[file_id] = await request.read()
        self.files.receive(file_id, self.uploads[file_id])
        self._record(Call("upload", {"file_id": file_id}))
        return web.Response(text=f"OK - {len(self.uploads[file_id])}")
