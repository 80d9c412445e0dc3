"""canvases.create as the Slack stand-in answers it, from its reference page
(https://docs.slack.dev/reference/methods/canvases.create):

- Scope: `canvases:write` (bot token); without it the stand-in answers missing_scope (the
  stub's SCOPES table).
- Arguments, all optional: `title`, `document_content` ("Structure describing the type and
  value of the content to create", e.g. {"type": "markdown", "markdown": "> standalone
  canvas!"}), `channel_id` ("Channel ID of the channel the canvas will be tabbed in. This is a
  required field for free teams").
- Answer: {"ok": true, "canvas_id": "F1234ABCD"}; content it cannot read is refused as
  {"ok": false, "error": "canvas_creation_failed", "detail": "'content' error: ..."} (the
  page's "Typical error response for bad content"); a workspace with canvases turned off
  answers canvas_disabled_user_team (its Errors table).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

CANVAS_SCOPE = "canvases:write"


@dataclass
class Canvas:
    id: str
    title: str
    markdown: str
    channel_id: str | None


@dataclass
class CanvasStore:
    canvases: dict[str, Canvas] = field(default_factory=dict)
    disabled: bool = False
    """The workspace turned canvases off: every create answers canvas_disabled_user_team."""
    free_team: bool = False
    """A free workspace: a canvas must be tabbed in a channel (channel_id required)."""

    def create(self, params: dict[str, Any], number: int) -> dict[str, Any]:
        if self.disabled:
            return {"ok": False, "error": "canvas_disabled_user_team"}
        if self.free_team and not params.get("channel_id"):
            return {
                "ok": False,
                "error": "canvas_creation_failed",
                "detail": "channel_id is required for free teams",
            }
        content = params.get("document_content") or {}
        if isinstance(content, str):
            try:
                content = json.loads(content)
            except ValueError:
                content = None
        markdown = ""
        if content:
            if not isinstance(content, dict) or content.get("type") != "markdown":
                return {
                    "ok": False,
                    "error": "canvas_creation_failed",
                    "detail": "'content' error: document_content must be of type markdown",
                }
            markdown = str(content.get("markdown") or "")
        canvas_id = f"F{number:08d}C"
        self.canvases[canvas_id] = Canvas(
            canvas_id, str(params.get("title") or ""), markdown, params.get("channel_id")
        )
        return {"ok": True, "canvas_id": canvas_id}
