"""manifest.yml is a complete app manifest, valid against Slack's published schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from bot.slack.assistant import prompts_for
from bot.slack.blocks import EXCERPT
from bot.slack.locales import BOTH

REPO = Path(__file__).resolve().parents[2]
SCHEMAS = REPO.parent / "shared" / "slack"


def manifest() -> dict[str, Any]:
    loaded = yaml.safe_load((REPO / "manifest.yml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def test_manifest_validates_against_the_slack_schema() -> None:
    candidates = [SCHEMAS / "manifest.schema.2.0.0.json", SCHEMAS / "manifest.schema.1.0.0.json"]
    schema_path = next((p for p in candidates if p.exists()), None)
    if schema_path is None:
        reason = f"no Slack manifest schema under {SCHEMAS} (expected manifest.schema.2.0.0.json)"
        print(f"SKIPPED: {reason}")
        pytest.skip(reason)
    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    jsonschema.validate(manifest(), schema)


def test_manifest_asks_for_what_the_bot_uses_and_no_more() -> None:
    app = manifest()
    settings = app["settings"]
    assert settings["socket_mode_enabled"] is True
    assert settings["interactivity"]["is_enabled"] is True
    assert set(settings["event_subscriptions"]["bot_events"]) == {
        "agent_session_stopped",  # the agent sessions' stop button
        "app_home_opened",  # the agent experience's DM opening
        "app_mention",
        "assistant_thread_context_changed",
        "assistant_thread_started",
        "channel_deleted",
        "group_deleted",
        "message.channels",
        "message.groups",
        "message.im",
    }
    assert [c["command"] for c in app["features"]["slash_commands"]] == ["/research"]
    # The scopes themselves are checked against the code in test_manifest_scopes.py.
    assert app["features"]["app_home"]["messages_tab_enabled"] is True
    assert EXCERPT.startswith("fonte_")


def test_the_agent_view_offers_the_bots_own_suggested_prompts() -> None:
    agent = manifest()["features"]["agent_view"]
    assert len(agent["agent_description"]) <= 300
    # Both languages: Slack shows them before the bot can read the user's locale.
    assert [(p["title"], p["message"]) for p in agent["suggested_prompts"]] == prompts_for(BOTH)
    # Both names are in Slack's schemas: the older one needs its own description field.
    for name in ("manifest.schema.1.0.0.json", "manifest.schema.2.0.0.json"):
        path = SCHEMAS / name
        if not path.exists():
            print(f"SKIPPED: {path} absent")
            continue
        features = json.loads(path.read_text(encoding="utf-8"))["definitions"]
        older = features["app-manifests.v1.features.assistant_view"]
        assert older["required"] == ["assistant_description"]
        assert "agent_view" in json.dumps(features)
