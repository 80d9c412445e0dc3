"""JSON for what crosses a process boundary: job arguments, job results, cached snapshots.

Jobs carry JSON text, not pickles, so a worker of another version reads them or fails loudly.
"""

from __future__ import annotations

from pydantic import TypeAdapter

from engine import Assignment, Claim, Snapshot, SubagentOutcome

_ASSIGNMENT = TypeAdapter(Assignment)
_OUTCOME = TypeAdapter(SubagentOutcome)
_SNAPSHOT = TypeAdapter(Snapshot)


def encode_assignment(assignment: Assignment) -> str:
    return _ASSIGNMENT.dump_json(assignment).decode()


def decode_assignment(raw: str | bytes) -> Assignment:
    return _ASSIGNMENT.validate_json(raw)


def encode_outcome(outcome: SubagentOutcome) -> str:
    return _OUTCOME.dump_json(outcome).decode()


def decode_outcome(raw: str | bytes) -> SubagentOutcome:
    return _OUTCOME.validate_json(raw)


def encode_snapshot(snapshot: Snapshot) -> str:
    return _SNAPSHOT.dump_json(snapshot).decode()


def decode_snapshot(raw: str | bytes) -> Snapshot:
    return _SNAPSHOT.validate_json(raw)


def encode_claim(claim: Claim) -> str:
    return claim.model_dump_json()


def decode_claim(raw: str | bytes) -> Claim:
    return Claim.model_validate_json(raw)
