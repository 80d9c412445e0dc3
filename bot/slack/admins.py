"""Whether a member administers the workspace, as Slack's user object says: `is_admin`,
`is_owner` and `is_primary_owner` ("Indicates whether the user is an Admin of the current
workspace", "… an Owner …": https://docs.slack.dev/reference/objects/user-object), read with
users.info (https://docs.slack.dev/reference/methods/users.info, scope `users:read`).

The deployment's own list (FONTE_SLACK_ADMINS) is asked first and needs no call; a failed
users.info (no scope, an unknown user) answers no: only a member Slack says is an admin is
one."""

from __future__ import annotations

import logging
from collections.abc import Collection

from slack_sdk.web.async_client import AsyncWebClient

from bot.slack.api import DELIVERY_ERRORS

log = logging.getLogger(__name__)

_ADMIN_FIELDS = ("is_admin", "is_owner", "is_primary_owner")


async def is_admin(client: AsyncWebClient | None, user: str, configured: Collection[str]) -> bool:
    if user in configured:
        return True
    if client is None or not user:
        return False
    try:
        response = await client.users_info(user=user)
    except DELIVERY_ERRORS as error:
        log.info("users.info for %s failed: %s; not an admin", user, error)
        return False
    found = response.get("user")
    return isinstance(found, dict) and any(found.get(name) is True for name in _ADMIN_FIELDS)
