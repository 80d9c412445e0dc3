"""The Redis board: one claim per excerpt of a source, whoever posts it, however often."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from arq.connections import ArqRedis

from bot.redis.board import RedisBoard
from bot.redis.keys import Keys
from bot.redis.snapshots import RedisSnapshotStore
from engine.board import InvalidClaim
from engine.contracts import ClaimStatus
from engine.snapshots import Snapshot

SHA = "a" * 64


def raw(excerpt: str, subagent: str = "s1") -> dict[str, object]:
    return {
        "id": "pending",
        "statement": "A microgeração vai até 75 kW.",
        "url": "https://example.org/lei#page=2",
        "title": "Lei",
        "excerpt": excerpt,
        "accessed_at": datetime(2025, 1, 1, tzinfo=UTC),
        "source_sha256": SHA,
        "subagent": subagent,
        "subquestion": "s1",
    }


async def test_concurrent_posts_of_one_excerpt_make_one_claim(
    redis: ArqRedis, redis_prefix: str
) -> None:
    boards = [RedisBoard(redis, Keys(redis_prefix), "r1", 600) for _ in range(5)]
    excerpt = "potência instalada menor ou igual a 75 kW"
    posted = await asyncio.gather(
        *(
            b.post(raw(excerpt if n % 2 else f"  {excerpt.upper()} ", f"s{n}"))
            for n, b in enumerate(boards)
        )
    )
    assert sum(p is not None for p in posted) == 1
    claims = await boards[0].claims()
    assert len(claims) == 1
    assert claims[0].status is ClaimStatus.pending


async def test_claims_keep_posting_order_and_updates_need_a_posted_claim(
    redis: ArqRedis, redis_prefix: str
) -> None:
    board = RedisBoard(redis, Keys(redis_prefix), "r1", 600)
    first = await board.post(raw("primeiro trecho com texto suficiente"))
    second = await board.post(raw("segundo trecho com texto suficiente"))
    assert first is not None
    assert second is not None
    assert [c.id for c in await board.claims()] == [first.id, second.id]
    await board.update(first.model_copy(update={"status": ClaimStatus.verified, "reason": "ok"}))
    assert (await board.claims())[0].status is ClaimStatus.verified
    # A replayed subagent posting again cannot reset a verdict.
    assert await board.post(raw("primeiro trecho com texto suficiente")) is None
    assert (await board.claims())[0].status is ClaimStatus.verified
    with pytest.raises(KeyError):
        await board.update(first.model_copy(update={"id": "c000000000000"}))
    with pytest.raises(InvalidClaim):
        await board.post({**raw("x" * 30), "url": ""})


async def test_snapshots_are_shared_per_document_and_the_first_read_wins(
    redis: ArqRedis, redis_prefix: str
) -> None:
    store = RedisSnapshotStore(redis, Keys(redis_prefix), "r1", 600)
    first = Snapshot.from_pages("https://example.org/doc.pdf", ["um", "dois"], title="Doc")
    await store.put(first)
    await store.put(Snapshot(url="https://example.org/doc.pdf", text="changed"))
    again = await RedisSnapshotStore(redis, Keys(redis_prefix), "r1", 600).get(
        "https://example.org/doc.pdf#page=2"
    )
    assert again == first
    assert await store.get("https://example.org/other") is None
