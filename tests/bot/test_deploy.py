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
    assert any(op == "RUN" and ".[slack,postgres]" in arg for op, arg in steps)
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
        # The model key and every FONTE_* setting reach bot and workers alike.
        assert service["env_file"] == [{"path": ".env", "required": False}]
    assert "healthcheck" in services["redis"]


def test_compose_offers_http_mode_beside_socket_mode() -> None:
    bot = yaml.safe_load((REPO / "compose.yml").read_text(encoding="utf-8"))["services"]["bot"]
    assert bot["environment"]["FONTE_SLACK_MODE"] == "${FONTE_SLACK_MODE:-socket}"
    assert bot["environment"]["SLACK_APP_TOKEN"] == "${SLACK_APP_TOKEN:-}"  # not in HTTP mode
    assert bot["ports"] == ["${FONTE_HTTP_PUBLISH:-127.0.0.1:3000}:3000"]


def settings_read_by_the_code() -> set[str]:
    names: set[str] = set()
    for package in ("bot", "engine"):
        for path in (REPO / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            names |= set(re.findall(r'"((?:FONTE|SLACK)_[A-Z_]+|ANTHROPIC_API_KEY)"', text))
    return names - {"SLACK_API_URL", "FONTE_CACHE_DIR", "FONTE_LIBRARY", "FONTE_HTTP_HOST"}


def test_the_example_env_file_documents_every_setting_and_holds_no_secret() -> None:
    text = (REPO / "fonte.env.example").read_text(encoding="utf-8")
    assignments = dict(re.findall(r"^#?\s*([A-Z][A-Z0-9_]*)=(.*)$", text, flags=re.MULTILINE))
    missing = sorted(settings_read_by_the_code() - set(assignments))
    assert missing == []
    for name in ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "ANTHROPIC_API_KEY"):
        assert assignments[name] == "", f"{name} has a value in the example"
    assert not re.search(r"xox[bap]-\w|xapp-\w|sk-ant-", text)


def test_the_build_context_leaves_out_secrets_and_what_the_image_does_not_need() -> None:
    ignored = (REPO / ".dockerignore").read_text(encoding="utf-8").split()
    for entry in (".env", "*.env", ".git", ".venv", "tests", "docs", "library"):
        assert entry in ignored
    copied = [arg.split()[0] for op, arg in instructions() if op == "COPY"]
    assert not set(copied) & set(ignored), "the Dockerfile copies something ignored"


def test_compose_keeps_redis_on_disk_and_never_evicts_a_report() -> None:
    """A restart keeps the reports in flight (AOF, fsync each second), and a full Redis
    refuses writes, which the workers wait out, rather than dropping a report's state."""
    redis = yaml.safe_load((REPO / "compose.yml").read_text(encoding="utf-8"))["services"]
    command = [str(part) for part in redis["redis"]["command"]]
    options = dict(zip(command[1::2], command[2::2], strict=True))
    assert options == {
        "--appendonly": "yes",
        "--appendfsync": "everysec",
        "--maxmemory-policy": "noeviction",
    }
    assert any(volume.endswith(":/data") for volume in redis["redis"]["volumes"])


def test_compose_shares_the_library_store_in_postgres_with_the_bot_and_workers() -> None:
    services = yaml.safe_load((REPO / "compose.yml").read_text(encoding="utf-8"))["services"]
    postgres = services["postgres"]
    assert "healthcheck" in postgres
    assert any(volume.endswith(":/var/lib/postgresql/data") for volume in postgres["volumes"])
    for name in ("bot", "worker"):
        store = services[name]["environment"]["FONTE_LIBRARY_STORE"]
        assert store.startswith("postgresql://fonte:${FONTE_POSTGRES_PASSWORD}@postgres:5432/")
        assert services[name]["depends_on"]["postgres"]["condition"] == "service_healthy"
