"""The two messaging experiences of an AI app in the Slack stand-in, each as its pages
describe it. `slack.agents.experience` is "agent_view" (the manifest's, and the default) or
"assistant_view" (the older one, for workspaces whose app still declares it).

What each experience sends when a user opens the app's DM (`dm_opened`):
- agent_view: `app_home_opened` with `tab: "messages"`. "This replaces the
  assistant_thread_started event. Without the assistant_thread_started events, messages
  received in the DM channel will not have a root message with subtype =
  "assistant_app_thread"" (https://docs.slack.dev/ai/migrating-to-agent-messaging/); the
  event's fields are those of https://docs.slack.dev/reference/events/app_home_opened
  (user, channel, tab, event_ts). The user's messages are then plain `message.im` events:
  the first one top-level, the root of its thread.
- assistant_view: `assistant_thread_started` with its `assistant_thread`
  (https://docs.slack.dev/reference/events/assistant_thread_started), the user's messages
  coming in that thread.

assistant.threads.setSuggestedPrompts
(https://docs.slack.dev/reference/methods/assistant.threads.setSuggestedPrompts): "The
thread_ts parameter should only be used in the legacy assistant messaging experience.
Including it in a call for an agent app will cause the call to silently fail": in
agent_view a call naming one answers ok and shows nothing; without one "the prompts will be
set for the latest message in the channel". In assistant_view the prompts are the thread's.

agents.sessions.setStatus (https://docs.slack.dev/reference/methods/agents.sessions.setStatus;
https://docs.slack.dev/ai/agent-sessions/):
- `status` is required, one of active, processing, suspended, closed; the stand-in answers
  `invalid_arguments` for any other value, a missing one, or a `title` over 200 characters
  (the page gives the limits; the error code is the stand-in's, as for other methods);
- `thread_ts` is "Required for thread-based sessions in regular channels and DMs": without
  it the stand-in answers `invalid_arguments` too;
- it "creates the session if it doesn't exist and updates its status if it does"; `title`
  and `initiator_user_id` are "Only used when creating a new session; ignored if the
  session already exists";
- "While your app is not subscribed [to agent_session_stopped], agents.sessions.setStatus
  returns a missing_agent_session_stopped_event_subscription warning"
  (https://docs.slack.dev/reference/events/agent_session_stopped): the stand-in reads the
  subscription from manifest.yml's bot_events, as Slack reads it from the app's settings;
- "Only apps declared as agents in the app settings can create sessions": in assistant_view
  the stand-in answers `not_authorized`, what an app not declared as an agent was seen to
  get (kirodotdev/KiroCrew#9822).

chat.stopStream's `session_status` (default `active`) becomes the thread's session status
(`stream_stopped`).

The stop button (https://docs.slack.dev/reference/events/agent_session_stopped): shown
"while an agent session is in the processing status"; `stop(user, channel, thread_ts)` is a
click, which Slack answers by stopping the app's streams in progress in that thread (their
ts in `streaming_message_ts`, "an empty array when no stream was active") and sending the
event. "The session status does not update automatically when the user clicks stop": the
app must set it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import yaml

from tests.support.slack_samples import assistant_thread_started
from tests.support.slack_streams import StreamedMessage, StreamStore

Experience = Literal["agent_view", "assistant_view"]
SESSION_STATUSES = ("active", "processing", "suspended", "closed")
MAX_SESSION_TITLE = 200
STOPPED_EVENT = "agent_session_stopped"
MANIFEST = Path(__file__).resolve().parents[2] / "manifest.yml"


def manifest_events() -> set[str]:
    """The bot events manifest.yml subscribes to."""
    loaded = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return set(loaded["settings"]["event_subscriptions"]["bot_events"])


@dataclass
class Session:
    """One thread's agent session as Slack holds it."""

    channel: str
    thread_ts: str
    status: str
    title: str | None
    initiator: str | None
    history: list[str] = field(default_factory=list)
    """Every status set, in order."""

    @property
    def stop_button(self) -> bool:
        return self.status == "processing"


class AgentSurface:
    def __init__(self, streams: StreamStore) -> None:
        self.experience: Experience = "agent_view"
        self.streams = streams
        self.sessions: dict[tuple[str, str], Session] = {}
        self.events = manifest_events()
        """The app's event subscriptions (manifest.yml's)."""

    # -- what a user does ------------------------------------------------------------------

    def dm_opened(self, user: str, dm: str, thread_ts: str) -> dict[str, Any]:
        """The event a user opening the app's DM sends in this experience (`thread_ts`
        names the assistant thread Slack opens in assistant_view)."""
        if self.experience == "agent_view":
            return {
                "type": "app_home_opened",
                "user": user,
                "channel": dm,
                "tab": "messages",
                "event_ts": "1729999327.187300",
            }
        return assistant_thread_started(user, dm, thread_ts)

    def stop(self, user: str, channel: str, thread_ts: str) -> dict[str, Any]:
        """The user clicks the session's stop button: Slack stops the app's streams in
        progress in the thread and sends agent_session_stopped."""
        session = self.sessions.get((channel, thread_ts))
        if session is None or not session.stop_button:
            raise AssertionError(f"no stop button in {channel}/{thread_ts}: {session}")
        stopped = []
        for message in self.streams.in_thread(channel, thread_ts):
            if message.state == "in_progress":
                self.streams.stop_by_user(message.ts)
                stopped.append(message.ts)
        return {
            "type": STOPPED_EVENT,
            "channel": channel,
            "thread_ts": thread_ts,
            "user": user,
            "streaming_message_ts": stopped,
            "event_ts": "1783536983.783769",
        }

    def session(self, channel: str, thread_ts: str) -> Session | None:
        return self.sessions.get((channel, thread_ts))

    # -- the Web API -------------------------------------------------------------------------

    def set_status(self, params: dict[str, Any]) -> dict[str, Any]:
        if self.experience != "agent_view":
            return {"ok": False, "error": "not_authorized"}
        status, thread_ts = params.get("status"), params.get("thread_ts")
        title = params.get("title")
        if status not in SESSION_STATUSES or not thread_ts:
            return {"ok": False, "error": "invalid_arguments"}
        if title is not None and len(str(title)) > MAX_SESSION_TITLE:
            return {"ok": False, "error": "invalid_arguments"}
        key = (str(params.get("channel_id")), str(thread_ts))
        session = self.sessions.get(key)
        if session is None:
            initiator = params.get("initiator_user_id")
            session = Session(key[0], key[1], str(status), title, initiator)
            self.sessions[key] = session
        session.status = str(status)
        session.history.append(str(status))
        answer: dict[str, Any] = {"ok": True, "status": session.status, "title": session.title}
        if STOPPED_EVENT not in self.events:
            answer["warning"] = "missing_agent_session_stopped_event_subscription"
        return answer

    def stream_stopped(self, message: StreamedMessage, params: dict[str, Any]) -> None:
        """chat.stopStream ended a stream: its `session_status`, "the agent session
        lifecycle status to set after stopping the stream; defaults to active", applies to
        the thread's session (slackapi/python-slack-sdk#1945, slackapi/node-slack-sdk#2708,
        the SDKs' maintainers adding the argument of chat.stopStream's reference page)."""
        session = self.sessions.get((message.channel, message.thread_ts))
        if session is None or self.experience != "agent_view":
            return
        status = str(params.get("session_status") or "active")
        if status in SESSION_STATUSES:
            session.status = status
            session.history.append(status)

    def shows_prompts(self, params: dict[str, Any]) -> bool:
        """Whether a setSuggestedPrompts call shows its prompts in this experience."""
        return self.experience == "assistant_view" or not params.get("thread_ts")
