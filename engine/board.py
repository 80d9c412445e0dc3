"""The claims board: the only channel from subagents to the orchestrator.

A subagent's one side effect is posting a schema-valid claim here. The same excerpt of the
same source is one claim, whoever posts it and however often (so a retried job is harmless).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from pydantic import ValidationError

from engine.contracts import Claim, ClaimStatus, claim_id_for
from engine.errors import ModelError
from engine.text.normalise import excerpt_key


class InvalidClaim(ModelError, ValueError):
    """A post that does not satisfy the Claim schema."""


def dedup_key(url: str, excerpt: str) -> str:
    """Claims are the same when they quote the same text of the same document page."""
    return claim_id_for(url, excerpt_key(excerpt))


def as_posted(raw: Claim | dict[str, Any]) -> Claim:
    """The claim as any board stores a new post: validated, its id the dedup key of its page
    and excerpt, pending, with no verdict. Every Board implementation posts through this."""
    valid = validate_claim(raw)
    key = dedup_key(valid.url, valid.excerpt)
    return valid.model_copy(update={"id": key, "status": ClaimStatus.pending, "reason": None})


def validate_claim(raw: Claim | dict[str, Any]) -> Claim:
    try:
        claim = raw if isinstance(raw, Claim) else Claim.model_validate(raw)
        # Re-validate a model instance too: it may have been built with model_construct.
        return Claim.model_validate(claim.model_dump())
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "claim"
        raise InvalidClaim(f"invalid claim: {where}: {first['msg']}") from None


class Board(Protocol):
    async def post(self, claim: Claim | dict[str, Any]) -> Claim | None:
        """Add a claim; returns it with its board id, or None when it is a duplicate."""
        ...

    async def update(self, claim: Claim) -> None:
        """Record a verdict (status, reason, locator, support) for a claim already posted."""
        ...

    async def claims(self) -> list[Claim]: ...


class InMemoryBoard:
    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}
        self._lock = asyncio.Lock()

    async def post(self, claim: Claim | dict[str, Any]) -> Claim | None:
        posted = as_posted(claim)
        async with self._lock:
            if posted.id in self._claims:
                return None
            self._claims[posted.id] = posted
            return posted

    async def update(self, claim: Claim) -> None:
        valid = validate_claim(claim)
        async with self._lock:
            if valid.id not in self._claims:
                raise KeyError(f"claim {valid.id} is not on the board")
            self._claims[valid.id] = valid

    async def claims(self) -> list[Claim]:
        async with self._lock:
            return list(self._claims.values())
