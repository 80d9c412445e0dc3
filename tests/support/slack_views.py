"""The modals the Slack stand-in holds: views.open and views.update.

- views.open answers "the opened view payload" with its `id` and `hash`
  (https://docs.slack.dev/reference/methods/views.open, "Response"); an `external_id` "must
  be unique for all views on a team", else `duplicate_external_id` (same page, "Errors").
- views.update names the view by `view_id` or `external_id` ("Either view_id or external_id
  is required"); `hash_conflict` when "the provided hash doesn't match the current stored
  value", `not_found` when "the given view_id or external_id doesn't exist"
  (https://docs.slack.dev/reference/methods/views.update). Naming both is refused too
  ("[ERROR] Cannot provide both `view_id` and `external_id`", slack-go/slack#667). Every
  update gives the view a new hash, so a stale one conflicts.
- A view Slack cannot accept (its limits, https://docs.slack.dev/reference/views/modal-views,
  and its blocks' own) is `invalid_arguments` with the reasons in response_metadata, the way
  views methods report a view's schema errors ("[ERROR] ... [json-pointer:/view]",
  nicklambourne/slackblocks#36): `invalid_arguments` is the views methods' documented error
  for bad arguments; `invalid_blocks` is listed for messages only
  (https://docs.slack.dev/reference/methods/chat.postMessage, "Errors"). That an image whose
  file cannot be shown is refused this way in a view is inferred, not documented.
- An image block in a view shows a Slack file on the same terms as in a message
  (`FileStore.usable`): a private upload is refused ("invalid slack file", as reported for
  messages in slackapi/bolt-python#1251 and slackapi/python-slack-sdk#1658, and for blocks
  sent through response_url in slackapi/java-slack-sdk#1349); a file shared in a
  conversation shows once Slack has processed it.
"""

from __future__ import annotations

import json
import uuid
from itertools import count
from typing import Any

from tests.support.slack_files import FileStore
from tests.support.slack_limits import view_errors

APP_ID = "A1"
BOT_ID = "BBOT"


def _view_of(params: dict[str, Any]) -> Any:
    raw = params.get("view")
    try:
        return json.loads(raw) if isinstance(raw, str) else raw
    except ValueError:
        return None


def _hash() -> str:
    return f"1569262015.{uuid.uuid4().hex[:8]}"  # the documented shape: "156772938.1827394"


class ViewStore:
    def __init__(self, files: FileStore) -> None:
        self.views: dict[str, dict[str, Any]] = {}
        """The views open now, by id, as views.open / views.update answered them."""
        self._files = files
        self._numbers = count(1)

    def _refusal(self, view: Any, token: str) -> dict[str, Any] | None:
        if not isinstance(view, dict):
            return {"error": "invalid_arguments"}
        problems = view_errors(view)
        if not problems:
            problems = self._files.refusals(view["blocks"], token, prefix="/view")
        if problems:
            messages = [f"[ERROR] {problem}" for problem in problems]
            return {"error": "invalid_arguments", "response_metadata": {"messages": messages}}
        return None

    def _stored(
        self, view: dict[str, Any], view_id: str, root: str, external: str = ""
    ) -> dict[str, Any]:
        stored = {
            **view,
            "id": view_id,
            "team_id": "T1",
            "external_id": view.get("external_id") or external,
            "hash": _hash(),
            "root_view_id": root,
            "app_id": APP_ID,
            "bot_id": BOT_ID,
        }
        self.views[view_id] = stored
        return stored

    def open(self, params: dict[str, Any], token: str) -> dict[str, Any]:
        view = _view_of(params)
        refused = self._refusal(view, token)
        if refused is not None:
            return {"ok": False, **refused}
        external = view.get("external_id")
        if external and any(v["external_id"] == external for v in self.views.values()):
            return {"ok": False, "error": "duplicate_external_id"}
        view_id = f"V{next(self._numbers):09d}"
        return {"ok": True, "view": self._stored(view, view_id, view_id)}

    def update(self, params: dict[str, Any], token: str) -> dict[str, Any]:
        view_id, external = params.get("view_id"), params.get("external_id")
        if bool(view_id) == bool(external):
            message = "[ERROR] Cannot provide both `view_id` and `external_id`"
            if not view_id:
                message = "[ERROR] Either `view_id` or `external_id` is required"
            return {
                "ok": False,
                "error": "invalid_arguments",
                "response_metadata": {"messages": [message]},
            }
        current = (
            self.views.get(str(view_id))
            if view_id
            else next((v for v in self.views.values() if v["external_id"] == external), None)
        )
        if current is None:
            return {"ok": False, "error": "not_found"}
        if params.get("hash") and params["hash"] != current["hash"]:
            return {"ok": False, "error": "hash_conflict"}
        view = _view_of(params)
        refused = self._refusal(view, token)
        if refused is not None:
            return {"ok": False, **refused}
        stored = self._stored(view, current["id"], current["root_view_id"], current["external_id"])
        return {"ok": True, "view": stored}

    def close(self, view_id: str) -> None:
        """The user closed the modal: the view is gone."""
        self.views.pop(view_id, None)
