"""users.info for the Slack stand-in, as https://docs.slack.dev/reference/methods/users.info
documents it:

- the bot token needs `users:read` (the method's "Scopes"; the stand-in's SCOPES table);
- `user` names the member; an id the workspace does not know answers `user_not_found`
  ("Value passed for `user` was invalid"), as does a missing one;
- the answer is `{"ok": true, "user": {...}}` with the fields of the page's example
  response (id, team_id, name, real_name, tz, tz_label, tz_offset, profile, is_bot, ...);
- `locale` (e.g. "en-US") is in the user object only when `include_locale` is true: "Set
  this to true to receive the locale for this user. Defaults to false". slack_sdk sends the
  flag as a GET query parameter, 1 or true.

Tests register the members they need: `slack.users.add("U1", locale="en-US")`, an admin
with `admin=True` (the user object's `is_admin`).
"""

from __future__ import annotations

from typing import Any


class UserDirectory:
    """The workspace's members as users.info answers for them."""

    def __init__(self, team_id: str = "T1") -> None:
        self.team_id = team_id
        self._members: dict[str, dict[str, Any]] = {}

    def add(
        self, user_id: str, *, locale: str = "pt-BR", name: str | None = None, admin: bool = False
    ) -> None:
        name = name or user_id.lower()
        self._members[user_id] = {
            "id": user_id,
            "team_id": self.team_id,
            "name": name,
            "deleted": False,
            "real_name": name.title(),
            "tz": "America/Sao_Paulo",
            "tz_label": "Brasilia Standard Time",
            "tz_offset": -10800,
            "profile": {"real_name": name.title(), "display_name": name},
            # "is_admin: Indicates whether the user is an Admin of the current workspace"
            # (https://docs.slack.dev/reference/objects/user-object)
            "is_admin": admin,
            "is_owner": False,
            "is_bot": False,
            "is_app_user": False,
            "updated": 1_700_000_000,
            "locale": locale,
        }

    def info(self, params: dict[str, Any]) -> dict[str, Any]:
        member = self._members.get(str(params.get("user") or ""))
        if member is None:
            return {"ok": False, "error": "user_not_found"}
        with_locale = str(params.get("include_locale", "")).lower() in ("1", "true")
        shown = {k: v for k, v in member.items() if with_locale or k != "locale"}
        return {"ok": True, "user": shown}
