"""manifest.yml asks for exactly the scopes and events the code uses: the Web API methods
the bot calls are read from its source, each mapped to the scope its reference page lists
(https://docs.slack.dev/reference/methods/<method>, "Scopes", bot token), and the events
from the listeners the Bolt app registers. A method added without its scope, or a scope
left in the manifest that no code needs, fails here."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
BOT = REPO / "bot"

# Each method's bot-token scopes, from its reference page. A tuple lists scopes of which
# one is needed per kind of conversation the bot works in (conversations.replies reads
# public channels, private channels and DMs).
METHOD_SCOPES: dict[str, tuple[str, ...]] = {
    "auth.test": (),
    "chat.postMessage": ("chat:write",),
    "chat.update": ("chat:write",),
    "chat.postEphemeral": ("chat:write",),
    "chat.startStream": ("chat:write",),
    "chat.appendStream": ("chat:write",),
    "chat.stopStream": ("chat:write",),
    "views.open": (),
    "views.update": (),
    "views.publish": (),
    # files_upload_v2: files.getUploadURLExternal + files.completeUploadExternal.
    "files.getUploadURLExternal": ("files:write",),
    "files.completeUploadExternal": ("files:write",),
    "files.info": ("files:read",),
    "conversations.replies": ("channels:history", "groups:history", "im:history"),
    "conversations.info": ("channels:read", "groups:read", "im:read"),
    # setStatus takes assistant:write or chat:write (changelog 2026-03-05): chat:write.
    "assistant.threads.setStatus": ("chat:write",),
    "assistant.threads.setTitle": ("assistant:write",),
    "assistant.threads.setSuggestedPrompts": ("assistant:write",),
    # "Authentication token bearing the chat:write scope" (agents.sessions.setStatus).
    "agents.sessions.setStatus": ("chat:write",),
    "users.info": ("users:read",),
    "canvases.create": ("canvases:write",),
    "conversations.canvases.create": ("canvases:write",),
    # Slack search as a source: public channels' messages and their files, with a bot token
    # (https://docs.slack.dev/reference/methods/assistant.search.context, "Scopes").
    "assistant.search.context": ("search:read.public", "search:read.files"),
    "canvases.access.set": ("canvases:write",),
}
# Events each listener needs, and the scope each event needs
# (https://docs.slack.dev/reference/events/<event>, "Required scopes").
EVENT_SCOPES: dict[str, str | None] = {
    "app_mention": "app_mentions:read",
    "message.channels": "channels:history",
    "message.groups": "groups:history",
    "message.im": "im:history",
    "assistant_thread_started": "assistant:write",
    "assistant_thread_context_changed": "assistant:write",
    # "Your Slack app must have a bot user configured and installed", no scope.
    "app_home_opened": None,
    # Only apps declared as agents have sessions, and "Declaring an app as an agent adds
    # the assistant:write scope" (https://docs.slack.dev/ai/agent-sessions/).
    "agent_session_stopped": "assistant:write",
    # A channel's routines go with it (channel_deleted, group_deleted: "Required scopes").
    "channel_deleted": "channels:read",
    "group_deleted": "groups:read",
}
_CALL = re.compile(r"client\.([a-z]+(?:_[A-Za-z0-9]+)+)\(")
_API_CALL = re.compile(r"api_call\(\s*\"([a-zA-Z.]+)\"")
_DOWNLOAD = re.compile(r"url_private")


def manifest() -> dict[str, Any]:
    loaded = yaml.safe_load((REPO / "manifest.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def called_methods() -> set[str]:
    """The Web API methods bot/ calls through slack_sdk's client."""
    methods: set[str] = set()
    for path in BOT.rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        for name in _CALL.findall(source):
            if name == "files_upload_v2":
                methods |= {"files.getUploadURLExternal", "files.completeUploadExternal"}
            elif name not in ("scan_iter", "api_call"):
                methods.add(name.replace("_", "."))
        methods.update(_API_CALL.findall(source))
    return methods


def subscribed_events() -> set[str]:
    """The events the Bolt app listens to (bot/slack/app.py)."""
    source = (BOT / "slack" / "app.py").read_text(encoding="utf-8")
    events = set(re.findall(r"app\.event\(\"([a-z_]+)\"\)", source))
    if "message" in events:  # a message listener hears channels, private channels and DMs
        events = (events - {"message"}) | {"message.channels", "message.groups", "message.im"}
    if "thread_started" in source:
        events.add("assistant_thread_started")
    if "thread_context_changed" in source:
        events.add("assistant_thread_context_changed")
    return events


def needed_scopes() -> set[str]:
    methods = called_methods()
    unknown = methods - METHOD_SCOPES.keys()
    assert not unknown, f"methods without a scope entry (read their pages): {sorted(unknown)}"
    scopes = {scope for method in methods for scope in METHOD_SCOPES[method]}
    scopes |= {scope for event in subscribed_events() if (scope := EVENT_SCOPES[event])}
    if "/research" in (BOT / "slack" / "app.py").read_text(encoding="utf-8"):
        scopes.add("commands")
    if any(_DOWNLOAD.search(p.read_text(encoding="utf-8")) for p in BOT.rglob("*.py")):
        scopes.add("files:read")  # url_private needs a token with files:read
    return scopes


def test_the_manifest_lists_exactly_the_scopes_the_code_needs() -> None:
    asked = set(manifest()["oauth_config"]["scopes"]["bot"])
    needed = needed_scopes()
    assert asked - needed == set(), "scopes the manifest asks for that no code uses"
    assert needed - asked == set(), "scopes the code needs that the manifest does not ask for"


def test_the_manifest_subscribes_to_exactly_the_events_the_app_listens_to() -> None:
    asked = set(manifest()["settings"]["event_subscriptions"]["bot_events"])
    assert asked == subscribed_events()


def test_the_scanner_sees_the_calls_it_maps() -> None:
    """The scan is not vacuous: the calls every report makes are found."""
    methods = called_methods()
    assert {"chat.postMessage", "chat.update", "files.completeUploadExternal"} <= methods
    assert "assistant.threads.setSuggestedPrompts" in methods
