from __future__ import annotations

import asyncio

from engine.sources.web.config import USER_AGENT
from engine.sources.web.robots import RobotsCache, RobotsRules, origin_of

ROBOTS = """
User-agent: *
Disallow: /private/

User-agent: FonteBot
Disallow: /no-bots/
Crawl-delay: 2
"""


def test_rules_for_our_agent_apply() -> None:
    rules = RobotsRules.from_status(200, ROBOTS)
    assert rules.refusal("https://example.org/no-bots/page", USER_AGENT) == (
        "refused: https://example.org/robots.txt disallows /no-bots/page for FonteBot"
    )
    assert rules.refusal("https://example.org/private/page", USER_AGENT) is None
    assert rules.refusal("https://example.org/private/page", "OtherBot/1.0") is not None
    assert rules.crawl_delay(USER_AGENT) == 2.0


def test_missing_robots_allows_everything_and_unreachable_refuses() -> None:
    for status in (404, 410, 401, 403):
        assert RobotsRules.from_status(status).refusal("http://x.org/a", USER_AGENT) is None
    rules = RobotsRules.from_status(503)
    assert rules.refusal("http://x.org/a", USER_AGENT) == (
        "refused: http://x.org/robots.txt could not be read (HTTP 503)"
    )
    assert rules.ttl < RobotsRules.allow_all().ttl


def test_disallow_all() -> None:
    rules = RobotsRules.from_text("User-agent: *\nDisallow: /\n")
    assert rules.refusal("http://x.org/", USER_AGENT) is not None
    assert rules.crawl_delay(USER_AGENT) is None


def test_origin_ignores_path_case_and_credentials() -> None:
    assert origin_of("HTTPS://Example.ORG:8443/a/b?q#f") == "https://example.org:8443"
    assert origin_of("http://user:pw@example.org/x") == "http://example.org"


async def test_cache_loads_each_origin_once_even_under_concurrency() -> None:
    loads: list[str] = []

    async def load(origin: str) -> RobotsRules:
        loads.append(origin)
        await asyncio.sleep(0.01)
        return RobotsRules.allow_all()

    cache = RobotsCache(load)
    await asyncio.gather(*(cache.rules_for(f"http://a.org/{i}") for i in range(5)))
    await cache.rules_for("http://b.org/")
    assert loads == ["http://a.org", "http://b.org"]


async def test_cache_expires_entries() -> None:
    now = [0.0]
    loads: list[str] = []

    async def load(origin: str) -> RobotsRules:
        loads.append(origin)
        return RobotsRules(unreachable="HTTP 500")

    cache = RobotsCache(load, clock=lambda: now[0])
    await cache.rules_for("http://a.org/")
    now[0] = 299.0
    await cache.rules_for("http://a.org/")
    now[0] = 301.0
    await cache.rules_for("http://a.org/")
    assert len(loads) == 2
