"""What a Slack interaction payload names: a button's value, the report it points at, the
channel it came from, and the origin that makes its step idempotent."""

from __future__ import annotations

import json
from typing import Any

Payload = dict[str, Any]


def action_value(body: Payload) -> Payload:
    action = body["actions"][0]
    raw = action.get("value") or "{}"
    try:
        decoded = json.loads(raw)
    except ValueError:
        return {}
    return decoded if isinstance(decoded, dict) else {}


def report_of(body: Payload) -> str | None:
    """The report id a button names; None when its value cannot be read."""
    report = action_value(body).get("r")
    return str(report) if report else None


def channel_of(body: Payload) -> str:
    channel = body.get("channel") or {}
    return str(channel.get("id") or body.get("container", {}).get("channel_id", ""))


def action_origin(body: Payload) -> str:
    action = (body.get("actions") or [{}])[0]
    return f"action:{body['user']['id']}:{action.get('action_ts') or body.get('trigger_id')}"


def in_dm(event: Payload) -> bool:
    """Whether a message event comes from a DM with the bot (its channel type, or a
    conversation id of a DM, which a file_share event may carry without the type)."""
    return event.get("channel_type") == "im" or str(event.get("channel", "")).startswith("D")


def action_token_of(event: Payload) -> str | None:
    """The action token a message or app_mention event carries, with which the bot may
    search Slack as its sender; None when it has none. The guide names the events that
    carry it (https://docs.slack.dev/apis/web-api/real-time-search-api, "Using the
    action_token"); the earlier guide shows it in the event's `assistant_thread` object
    (https://api.slack.com/docs/apps/data-access-api, "Obtain action_token"), and it is
    read at the event's top level too."""
    thread = event.get("assistant_thread")
    token = thread.get("action_token") if isinstance(thread, dict) else None
    token = token or event.get("action_token")
    return str(token) if token else None
