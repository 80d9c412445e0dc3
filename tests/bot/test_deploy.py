"""Dockerfile and compose.yml, checked statically (no Docker here)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    text = (REPO / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    lines = [
        line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")
    ]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def test_dockerfile_runs_as_a_non_root_user_with_a_health_check() -> None:
    steps = instructions()
    users = [arg for op, arg in steps if op == "USER"]
    assert users
    assert users[-1] not in ("root", "0")
    last_user = max(i for i, (op, _) in enumerate(steps) if op == "USER")
    assert all(op != "RUN" for op, _ in steps[last_user:]), "installs must happen before USER"
    health = [arg for op, arg in steps if op == "HEALTHCHECK"]
    assert health
    assert "--check" in health[0]
    assert any(op == "RUN" and ".[slack]" in arg for op, arg in steps)
    assert not any(re.search(r"xox[bap]-", arg) for _, arg in steps), "a token in the image"


def test_compose_runs_redis_bot_and_scalable_workers_from_one_image() -> None:
    compose: dict[str, Any] = yaml.safe_load((REPO / "compose.yml").read_text(encoding="utf-8"))
    services = compose["services"]
    assert set(services) >= {"redis", "bot", "worker"}
    bot, worker = services["bot"], services["worker"]
    assert bot["build"] == worker["build"] == "."
    assert bot["command"] == ["fonte", "bot"]
    assert worker["command"] == ["fonte", "worker"]
    assert "container_name" not in worker, "a fixed name prevents --scale worker=N"
    assert "ports" not in worker
    for service in (bot, worker):
        env = service["environment"]
        assert env["REDIS_URL"].startswith("redis://redis:")
        assert env["SLACK_BOT_TOKEN"].startswith("${SLACK_BOT_TOKEN:?")
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
    assert bot["environment"]["SLACK_APP_TOKEN"].startswith("${SLACK_APP_TOKEN:?")
    assert "healthcheck" in services["redis"]
