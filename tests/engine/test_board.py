from datetime import UTC, datetime

import pytest

from engine.board import InMemoryBoard, InvalidClaim
from engine.contracts import ClaimStatus


def raw_claim(**overrides: object) -> dict[str, object]:
    claim: dict[str, object] = {
        "id": "pending",
        "statement": "Microgeração vai até 75 kW.",
        "url": "https://example.org/lei",
        "excerpt": "potência instalada menor ou igual a 75 kW",
        "accessed_at": datetime(2026, 11, 30, tzinfo=UTC),
        "source_sha256": "a" * 64,
        "subagent": "s1",
        "subquestion": "s1",
    }
    claim.update(overrides)
    return claim


async def test_post_assigns_a_stable_id_and_pending_status() -> None:
    board = InMemoryBoard()
    posted = await board.post(raw_claim(status="verified"))
    assert posted is not None
    assert posted.id.startswith("c")
    assert posted.status is ClaimStatus.pending
    assert [c.id for c in await board.claims()] == [posted.id]


async def test_same_excerpt_of_same_source_is_one_claim_even_with_other_spacing() -> None:
    board = InMemoryBoard()
    first = await board.post(raw_claim())
    again = await board.post(
        raw_claim(excerpt="Potência  instalada\nmenor ou igual a 75 kW", subagent="s2")
    )
    other_source = await board.post(raw_claim(url="https://example.org/other"))
    assert first is not None
    assert again is None
    assert other_source is not None
    assert len(await board.claims()) == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("statement", "   "),
        ("source_sha256", "nothex"),
        ("accessed_at", datetime(2026, 1, 1)),
        ("url", ""),
    ],
)
async def test_schema_invalid_claims_are_refused(field: str, value: object) -> None:
    board = InMemoryBoard()
    with pytest.raises(InvalidClaim, match=field):
        await board.post(raw_claim(**{field: value}))
    assert await board.claims() == []


async def test_update_records_a_verdict_only_for_known_claims() -> None:
    board = InMemoryBoard()
    posted = await board.post(raw_claim())
    assert posted is not None
    await board.update(
        posted.model_copy(update={"status": ClaimStatus.verified, "reason": "found"})
    )
    assert (await board.claims())[0].status is ClaimStatus.verified
    with pytest.raises(KeyError):
        await board.update(posted.model_copy(update={"id": "cunknown"}))
